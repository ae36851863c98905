"""Parcel shipping: addresses, parcels, shipments, carrier rates, labels, tracking, refunds and pickups.

Modeled on the Shippo API 2018-02-08 (Address with validation, Parcel,
Shipment, Rate, Transaction = purchased label, Track, Refund, Pickup) with
EasyPost's tracker statuses: a shipment is rated by every carrier service that
serves its route and weight (prices follow from the billable weight and the
distance), a label is bought from one rate and gets a tracking number, a label
can be voided only before the carrier has the parcel, and tracking moves
forward one scan at a time.
"""

from __future__ import annotations

import datetime as dt
import math
import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Annotated, Any, Literal

from pydantic import BaseModel, Field

from compoworld.engine.context import Ctx
from compoworld.engine.entities import Population
from compoworld.engine.errors import Conflict, NotFound, RuleViolation
from compoworld.engine.records import CREATED, UPDATED, Generated, Record
from compoworld.engine.service import Service, Transition
from compoworld.engine.state import SeedContext
from compoworld.engine.types import (
    Cents,
    City,
    CompanyName,
    Country,
    Currency,
    Date,
    DateTime,
    Email,
    IdOf,
    OrderNumber,
    PersonName,
    Phone,
    PostalAddress,
    Text,
    TrackingNumber,
    Url,
)
from compoworld.services.kit.examples import first_example
from compoworld.services.kit.records import Created, Timestamped
from compoworld.world import commerce as links

__all__ = ["service"]

service = Service(
    "shipping",
    title="ParcelPoint",
    category="shipping",
    modeled_on="Shippo API 2018-02-08 (Address, Parcel, Shipment, Rate, Transaction, Track, Refund, Pickup) "
    "with EasyPost tracker statuses",
    description="Multi-carrier shipping: validate addresses, describe parcels, compare carrier rates for a "
    "shipment, buy and void labels, follow tracking scans and book carrier pickups.",
)

AddressId = Annotated[str, IdOf("shipping.address")]
ParcelId = Annotated[str, IdOf("shipping.parcel")]
ShipmentId = Annotated[str, IdOf("shipping.shipment")]
RateId = Annotated[str, IdOf("shipping.rate")]
TransactionId = Annotated[str, IdOf("shipping.transaction")]
Carrier = Literal["usps", "ups", "fedex", "dhl_express"]
ServiceLevel = Literal[
    "usps_ground_advantage",
    "usps_priority",
    "usps_priority_mail_international",
    "ups_ground",
    "ups_next_day_air",
    "ups_worldwide_saver",
    "fedex_ground",
    "fedex_2_day",
    "fedex_international_priority",
    "dhl_express_worldwide",
]
TrackingStatus = Literal["pre_transit", "in_transit", "out_for_delivery", "delivered"]
Centimetres = Annotated[int, Field(ge=1, le=300)]
Grams = Annotated[int, Field(ge=1, le=200_000)]

MAX_WEIGHT_G = 70_000
"""Heaviest parcel any carrier takes."""
MAX_LENGTH_PLUS_GIRTH_CM = 400
"""Largest parcel any carrier takes: longest side plus twice the two others."""
VOID_WINDOW = dt.timedelta(days=30)
"""Labels can be voided for this long after purchase."""
MIN_PICKUP_WINDOW = dt.timedelta(hours=2)
"""Carriers need at least this long a window to come by."""
MAX_PICKUP_AHEAD = dt.timedelta(days=14)
"""Pickups are booked at most this far ahead."""
VOLUMETRIC_DIVISOR = 5
"""Cubic centimetres per billable gram (5000 cm³ per kg)."""


@dataclass(frozen=True, slots=True)
class _Level:
    """A carrier service level and how it prices."""

    carrier: str
    token: str
    name: str
    scope: Literal["domestic", "international", "any"]
    base: int
    per_kg: int
    per_1000km: int
    km_per_day: int
    min_days: int
    max_weight_g: int


LEVELS: tuple[_Level, ...] = (
    _Level("usps", "usps_ground_advantage", "USPS Ground Advantage", "domestic", 480, 95, 110, 700, 2, 31_700),
    _Level("usps", "usps_priority", "USPS Priority Mail", "domestic", 890, 140, 150, 1400, 1, 31_700),
    _Level(
        "usps",
        "usps_priority_mail_international",
        "USPS Priority Mail International",
        "international",
        3150,
        620,
        170,
        1500,
        4,
        31_700,
    ),
    _Level("ups", "ups_ground", "UPS Ground", "domestic", 920, 115, 140, 800, 1, 70_000),
    _Level("ups", "ups_next_day_air", "UPS Next Day Air", "domestic", 3400, 310, 210, 20_000, 1, 70_000),
    _Level("ups", "ups_worldwide_saver", "UPS Worldwide Saver", "any", 4100, 690, 220, 2600, 1, 70_000),
    _Level("fedex", "fedex_ground", "FedEx Ground", "domestic", 870, 120, 135, 750, 1, 68_000),
    _Level("fedex", "fedex_2_day", "FedEx 2Day", "domestic", 2150, 230, 180, 3000, 2, 68_000),
    _Level(
        "fedex",
        "fedex_international_priority",
        "FedEx International Priority",
        "international",
        4400,
        740,
        200,
        3000,
        2,
        68_000,
    ),
    _Level("dhl_express", "dhl_express_worldwide", "DHL Express Worldwide", "any", 3900, 670, 210, 3200, 1, 70_000),
)


class Address(Created):
    """A sender or recipient address; addresses are immutable once created."""

    id: AddressId
    name: PersonName
    """Person to ship from or to."""
    company: CompanyName | None = None
    """Company at the address, if any."""
    address: PostalAddress
    """Street, city, postal code and country."""
    email: Email | None = None
    """E-mail for delivery notices."""
    phone: Phone | None = None
    """Phone for the carrier."""
    is_residential: bool = True
    """Whether it is a home rather than a business address."""
    validation_status: Literal["unverified", "valid", "invalid"] = "unverified"
    """Result of the last validation; labels are never bought to or from an invalid address."""


class Parcel(Created):
    """A box to ship: its outer dimensions and weight."""

    id: ParcelId
    length_cm: Centimetres
    """Longest side in centimetres."""
    width_cm: Centimetres
    """Second side in centimetres."""
    height_cm: Centimetres
    """Third side in centimetres."""
    weight_grams: Grams
    """Weight in grams, packaging included."""
    description: Text = ""
    """What is in the box."""


class Shipment(Timestamped):
    """A parcel to send from one address to another; rated, then bought as a label."""

    id: ShipmentId
    address_from_id: AddressId
    """Sender address."""
    address_to_id: AddressId
    """Recipient address."""
    parcel_id: ParcelId
    """The parcel."""
    order_number: OrderNumber | None = None
    """Order the shipment is for, in the shop that sold it."""
    status: Literal["created", "rated", "purchased", "cancelled"] = "created"
    """created: no rates yet; rated: rates to choose from; purchased: has an active label; cancelled: final."""


class Rate(Record):
    """A carrier's price and transit time to send a shipment with one service level."""

    id: RateId
    shipment_id: ShipmentId
    """The shipment rated."""
    carrier: Carrier
    """The carrier."""
    servicelevel_token: ServiceLevel
    """The carrier's service level."""
    servicelevel_name: str
    """Display name of the service level."""
    zone: Literal["local", "domestic", "international"]
    """Same city, same country, or across a border."""
    amount: Cents
    """Price of the label in cents."""
    currency: Currency
    """Currency of the price."""
    estimated_days: int
    """Days in transit the carrier expects."""
    billable_weight_grams: int
    """The larger of actual and volumetric weight, in grams."""
    attributes: tuple[Literal["cheapest", "fastest", "bestvalue"], ...] = ()
    """Badges among the shipment's rates."""
    created_at: Annotated[DateTime, CREATED]
    """When the rate was quoted."""


class Transaction(Record):
    """A purchased shipping label with its tracking number."""

    id: TransactionId
    shipment_id: ShipmentId
    """The shipment the label is for."""
    rate_id: RateId
    """The rate bought."""
    carrier: Carrier
    """The carrier."""
    servicelevel_token: ServiceLevel
    """The service level bought."""
    tracking_number: TrackingNumber
    """The carrier's tracking number."""
    tracking_url_provider: Url
    """The carrier's tracking page."""
    label_url: Url
    """Where to download the label."""
    label_file_type: Literal["PDF", "PNG", "ZPLII"] = "PDF"
    """Format of the label file."""
    amount: Cents
    """Price paid in cents."""
    currency: Currency
    """Currency of the price."""
    status: Literal["success", "refunded"] = "success"
    """success: a usable label; refunded: voided and refunded."""
    tracking_status: TrackingStatus = "pre_transit"
    """Where the parcel is."""
    eta: Date
    """Expected delivery date."""
    created_at: Annotated[DateTime, CREATED]
    """When the label was bought."""
    updated_at: Annotated[DateTime, UPDATED]
    """When the label last changed."""


class TrackingEvent(Record):
    """One carrier scan of a parcel."""

    id: Annotated[str, IdOf("shipping.tracking_event")]
    transaction_id: TransactionId
    """The label scanned."""
    tracking_number: TrackingNumber
    """Its tracking number."""
    status: TrackingStatus
    """Status after the scan."""
    status_details: Text
    """What happened."""
    city: City | None = None
    """Where it happened."""
    country: Country | None = None
    """Country where it happened."""
    occurred_at: DateTime
    """When it happened."""


class Refund(Record):
    """Money back for a voided, unused label."""

    id: Annotated[str, IdOf("shipping.refund")]
    transaction_id: TransactionId
    """The voided label."""
    tracking_number: TrackingNumber
    """Its tracking number."""
    amount: Cents
    """Amount refunded in cents."""
    currency: Currency
    """Currency of the amount."""
    reason: Literal["not_used", "duplicate", "wrong_address", "wrong_service", "other"]
    """Why the label was voided."""
    created_at: Annotated[DateTime, CREATED]
    """When the refund was requested."""


class Pickup(Record):
    """A carrier collecting labelled parcels at an address in a time window."""

    id: Annotated[str, IdOf("shipping.pickup")]
    carrier: Carrier
    """Carrier coming by."""
    address_id: AddressId
    """Where to collect the parcels (their sender address)."""
    transaction_ids: tuple[TransactionId, ...]
    """Labels of the parcels to collect."""
    requested_start: DateTime
    """Start of the pickup window."""
    requested_end: DateTime
    """End of the pickup window."""
    instructions: Text = ""
    """Where the driver finds the parcels."""
    status: Literal["confirmed", "cancelled"] = "confirmed"
    """Confirmed pickups happen; cancelled ones do not."""
    confirmation_code: Annotated[str, Generated("sequence", "PU-{n:06d}")]
    """The carrier's confirmation code."""
    created_at: Annotated[DateTime, CREATED]
    """When the pickup was booked."""
    updated_at: Annotated[DateTime, UPDATED]
    """When the pickup last changed."""


# -- geography and pricing ----------------------------------------------------------------


def _coords(pop: Population, addr: PostalAddress) -> tuple[float, float] | None:
    for place in pop.places:
        if place.country == addr.country and place.city.casefold() == addr.city.casefold():
            return place.latitude, place.longitude
    same = [p for p in pop.places if p.country == addr.country]
    if same:
        return sum(p.latitude for p in same) / len(same), sum(p.longitude for p in same) / len(same)
    return None


def _distance_km(pop: Population, a: PostalAddress, b: PostalAddress) -> int:
    """Great-circle distance between two addresses' cities (at least 10 km)."""
    ca, cb = _coords(pop, a), _coords(pop, b)
    if ca is None or cb is None:
        return 800 if a.country == b.country else 6000
    lat1, lon1, lat2, lon2 = map(math.radians, (*ca, *cb))
    h = math.sin((lat2 - lat1) / 2) ** 2 + math.cos(lat1) * math.cos(lat2) * math.sin((lon2 - lon1) / 2) ** 2
    return max(10, round(2 * 6371 * math.asin(math.sqrt(h))))


def _currency(pop: Population, country: str) -> str:
    for place in pop.places:
        if place.country == country:
            return place.currency
    return "USD"


def _billable(parcel: Parcel) -> int:
    volume = parcel.length_cm * parcel.width_cm * parcel.height_cm
    return max(parcel.weight_grams, -(-volume // VOLUMETRIC_DIVISOR))


def _quotes(pop: Population, src: PostalAddress, dst: PostalAddress, parcel: Parcel) -> list[dict[str, Any]]:
    """Every service level that serves the route and weight, priced; deterministic from its inputs."""
    domestic = src.country == dst.country
    local = domestic and src.city.casefold() == dst.city.casefold()
    km = _distance_km(pop, src, dst)
    billable = _billable(parcel)
    kg = -(-billable // 1000)
    out: list[dict[str, Any]] = []
    for lv in LEVELS:
        if lv.carrier == "usps" and src.country != "US":
            continue
        if (lv.scope == "domestic" and not domestic) or (lv.scope == "international" and domestic):
            continue
        if billable > lv.max_weight_g:
            continue
        out.append(
            {
                "carrier": lv.carrier,
                "servicelevel_token": lv.token,
                "servicelevel_name": lv.name,
                "zone": "local" if local else "domestic" if domestic else "international",
                "amount": lv.base + lv.per_kg * kg + lv.per_1000km * km // 1000,
                "currency": _currency(pop, src.country),
                "estimated_days": max(lv.min_days, -(-km // lv.km_per_day)),
                "billable_weight_grams": billable,
            }
        )
    if out:
        cheapest = min(out, key=lambda q: (q["amount"], q["estimated_days"]))
        fastest = min(out, key=lambda q: (q["estimated_days"], q["amount"]))
        best = min(out, key=lambda q: (q["amount"] * (q["estimated_days"] + 2), q["amount"]))
        for q in out:
            q["attributes"] = tuple(
                name for name, pick in (("cheapest", cheapest), ("fastest", fastest), ("bestvalue", best)) if q is pick
            )
    return out


def _new_tracking_number(rng: random.Random, carrier: str) -> str:
    digits = "".join(rng.choice("0123456789") for _ in range(22))
    if carrier == "ups":
        return "1Z" + "".join(rng.choice("0123456789ABCDEFGHJKLMNPRSTUVWXYZ") for _ in range(16))
    if carrier == "fedex":
        return digits[:12]
    if carrier == "dhl_express":
        return digits[:10]
    return "9400" + digits[:18]


def _label_url(carrier: str, tracking_number: str, file_type: str) -> str:
    ext = {"PDF": "pdf", "PNG": "png", "ZPLII": "zpl"}[file_type]
    return f"https://labels.parcelpoint.example/{carrier}/{tracking_number}.{ext}"


# -- validation ---------------------------------------------------------------------------


class ValidationMessage(BaseModel):
    """One finding of an address validation."""

    code: Literal["country_not_served", "city_not_found", "postal_code_mismatch", "street_number_missing"] = Field(
        description="What is wrong."
    )
    field: Literal["street", "city", "postal_code", "country"] = Field(description="Part of the address at fault.")
    text: str = Field(description="Explanation, with the expected value where one is known.")


class AddressValidation(BaseModel):
    """Outcome of validating an address."""

    address_id: AddressId = Field(description="The address validated.")
    is_valid: bool = Field(description="Whether carriers can deliver to it.")
    validation_status: Literal["valid", "invalid"] = Field(description="The status now stored on the address.")
    messages: list[ValidationMessage] = Field(description="Problems found; empty when valid.")


def _check_address(pop: Population, addr: PostalAddress) -> list[ValidationMessage]:
    found: list[ValidationMessage] = []
    if not any(ch.isdigit() for ch in addr.street):
        found.append(
            ValidationMessage(code="street_number_missing", field="street", text=f"{addr.street!r} has no house number")
        )
    in_country = [p for p in pop.places if p.country == addr.country]
    if not in_country:
        served = ", ".join(sorted({p.country for p in pop.places}))
        found.append(
            ValidationMessage(
                code="country_not_served",
                field="country",
                text=f"no carrier delivers to {addr.country}; served: {served}",
            )
        )
        return found
    place = next((p for p in in_country if p.city.casefold() == addr.city.casefold()), None)
    if place is None:
        known = ", ".join(p.city for p in in_country)
        found.append(
            ValidationMessage(
                code="city_not_found",
                field="city",
                text=f"{addr.city!r} is not a city in {addr.country}; known: {known}",
            )
        )
    elif not addr.postal_code.startswith(place.postal_prefix):
        found.append(
            ValidationMessage(
                code="postal_code_mismatch",
                field="postal_code",
                text=f"postal code {addr.postal_code} is not in {place.city}; codes there start with "
                f"{place.postal_prefix}",
            )
        )
    return found


def _example_validate(ctx: Ctx) -> dict[str, Any] | None:
    addr = ctx.first(Address, validation_status="unverified") or ctx.first(Address)
    return {"address_id": addr.id} if addr else None


@service.tool(intent="check the address is deliverable", write=True, idempotent=True, example=_example_validate)
def validate_address(ctx: Ctx, address_id: AddressId) -> AddressValidation:
    """Validate an address against the carriers' reference data and store the result on it.

    Checks that the country is served, the city exists in it, the postal code
    belongs to the city and the street has a house number. Labels are never
    bought to or from an address found invalid; create a corrected address.

    Args:
        ctx: The call's context.
        address_id: The address to validate.
    """
    addr = ctx.get(Address, address_id, field="address_id")
    messages = _check_address(ctx.population, addr.address)
    status: Literal["valid", "invalid"] = "invalid" if messages else "valid"
    if addr.validation_status != status:
        ctx.update(addr, validation_status=status)
    return AddressValidation(address_id=addr.id, is_valid=not messages, validation_status=status, messages=messages)


# -- guards -------------------------------------------------------------------------------


def _guard_parcel(ctx: Ctx, new: Any, old: Any) -> None:
    if new.weight_grams > MAX_WEIGHT_G:
        raise RuleViolation(
            f"{new.weight_grams} g is above the {MAX_WEIGHT_G} g carrier maximum",
            field="weight_grams",
            hint="split the goods into several parcels",
        )
    sides = sorted((new.length_cm, new.width_cm, new.height_cm), reverse=True)
    size = sides[0] + 2 * (sides[1] + sides[2])
    if size > MAX_LENGTH_PLUS_GIRTH_CM:
        raise RuleViolation(
            f"length plus girth is {size} cm, above the {MAX_LENGTH_PLUS_GIRTH_CM} cm carrier maximum",
            field="length_cm",
            hint="use a smaller box or ship as freight",
        )


def _guard_shipment(ctx: Ctx, new: Any, old: Any) -> None:
    if new.address_from_id == new.address_to_id:
        raise RuleViolation(
            "sender and recipient are the same address", field="address_to_id", hint="ship to another address"
        )


def _guard_address_delete(ctx: Ctx, new: Any, old: Any) -> None:
    used = ctx.first(Shipment, address_from_id=old.id) or ctx.first(Shipment, address_to_id=old.id)
    if used is not None:
        raise RuleViolation(
            f"address {old.id} is used by shipment {used.id}",
            field="address_id",
            hint="addresses of shipments are kept for the record",
        )


def _guard_pickup(ctx: Ctx, new: Any, old: Any) -> None:
    if new.status == "cancelled" and ctx.now() >= old.requested_start:
        raise RuleViolation(
            f"the pickup window of {old.confirmation_code} started at {old.requested_start.isoformat()}",
            field="pickup_id",
            hint="a pickup can only be cancelled before its window starts",
        )


# -- resources ----------------------------------------------------------------------------

addresses = service.resource(
    Address,
    name="address",
    plural="addresses",
    prefix="adr",
    create=("name", "company", "address", "email", "phone", "is_residential"),
    filters=("email", "validation_status", "is_residential"),
    search=("name", "company", "email"),
    guard_delete=_guard_address_delete,
)
parcels = service.resource(
    Parcel,
    name="parcel",
    plural="parcels",
    prefix="pcl",
    filters=(),
    search=("description",),
    delete=False,
    guard_create=_guard_parcel,
)
shipments = service.resource(
    Shipment,
    name="shipment",
    plural="shipments",
    prefix="shp",
    create=("address_from_id", "address_to_id", "parcel_id", "order_number"),
    filters=("status", "order_number", "address_from_id", "address_to_id", "parcel_id"),
    search=("order_number",),
    delete=False,
    transitions={
        "cancel": Transition(
            "status",
            ("created", "rated"),
            "cancelled",
            "cancel the shipment",
            description="Cancel a shipment that has no active label; void its label first if it has one.",
            destructive=True,
        ),
    },
    guard_create=_guard_shipment,
)
rates = service.resource(
    Rate,
    name="rate",
    plural="rates",
    prefix="rate",
    create=False,
    filters=("shipment_id", "carrier", "servicelevel_token", "zone"),
    delete=False,
)
transactions = service.resource(
    Transaction,
    name="transaction",
    plural="transactions",
    prefix="txn",
    create=False,
    filters=("shipment_id", "carrier", "status", "tracking_status", "tracking_number"),
    search=("tracking_number",),
    delete=False,
    unique=("tracking_number",),
    title="shipping label",
)
tracking_events = service.resource(
    TrackingEvent,
    name="tracking_event",
    plural="tracking_events",
    prefix="trk",
    create=False,
    filters=("transaction_id", "tracking_number", "status"),
    search=("status_details",),
    delete=False,
    title="tracking event",
)
refunds = service.resource(
    Refund,
    name="refund",
    plural="refunds",
    prefix="rfd",
    create=False,
    filters=("transaction_id", "tracking_number", "reason"),
    delete=False,
    title="label refund",
)
pickups = service.resource(
    Pickup,
    name="pickup",
    plural="pickups",
    prefix="pu",
    create=False,
    filters=("carrier", "address_id", "status"),
    search=("instructions",),
    delete=False,
    transitions={
        "cancel": Transition(
            "status",
            ("confirmed",),
            "cancelled",
            "cancel the carrier pickup",
            description="Cancel a confirmed pickup; only possible before its window starts.",
        ),
    },
    guard_update=_guard_pickup,
)


# -- rates and labels ---------------------------------------------------------------------


def _example_get_rates(ctx: Ctx) -> dict[str, Any] | None:
    found = ctx.first(Shipment, status="created") or ctx.first(Shipment, status="rated")
    return {"shipment_id": found.id} if found else None


@service.tool(intent="compare carrier prices for the shipment", write=True, idempotent=True, example=_example_get_rates)
def get_rates(ctx: Ctx, shipment_id: ShipmentId) -> list[Rate]:
    """Quote every carrier service level that serves the shipment, cheapest first.

    Prices follow from the billable weight (the larger of actual and
    volumetric weight) and the distance; USPS only ships from the US, ground
    and next-day services only within a country. A shipment is rated once;
    asking again returns the same rates. Cancelled shipments cannot be rated.

    Args:
        ctx: The call's context.
        shipment_id: The shipment to rate.
    """
    shipment = ctx.get(Shipment, shipment_id, field="shipment_id")
    existing = ctx.where(Rate, shipment_id=shipment.id)
    if existing:
        return sorted(existing, key=lambda r: (r.amount, r.id))
    if shipment.status == "cancelled":
        raise RuleViolation(
            f"shipment {shipment.id} is cancelled", field="shipment_id", hint="create a new shipment to rate"
        )
    src = ctx.get(Address, shipment.address_from_id).address
    dst = ctx.get(Address, shipment.address_to_id).address
    parcel = ctx.get(Parcel, shipment.parcel_id)
    quotes = _quotes(ctx.population, src, dst, parcel)
    if not quotes:
        raise RuleViolation(
            f"no carrier serves {src.country} to {dst.country} for a billable weight of {_billable(parcel)} g",
            field="shipment_id",
            hint="use a lighter or smaller parcel",
        )
    made = [ctx.create(Rate, shipment_id=shipment.id, **q) for q in quotes]
    ctx.update(shipment, status="rated")
    return sorted(made, key=lambda r: (r.amount, r.id))


def _example_buy_label(ctx: Ctx) -> dict[str, Any] | None:
    for shipment in ctx.where(Shipment, status="rated"):
        ends = (ctx.get(Address, shipment.address_from_id), ctx.get(Address, shipment.address_to_id))
        rate = ctx.first(Rate, shipment_id=shipment.id)
        if rate and all(a.validation_status != "invalid" for a in ends):
            return {"rate_id": rate.id}
    return None


@service.tool(intent="buy a shipping label", write=True, example=_example_buy_label)
def buy_label(ctx: Ctx, rate_id: RateId, label_file_type: Literal["PDF", "PNG", "ZPLII"] = "PDF") -> Transaction:
    """Buy the label of one rate: the shipment gets a tracking number and a printable label.

    A shipment has one active label at a time, cancelled shipments get none,
    and no label is bought to or from an address validated as invalid.

    Args:
        ctx: The call's context.
        rate_id: The rate to buy (from shipping__get_rates).
        label_file_type: File format of the label.
    """
    rate = ctx.get(Rate, rate_id, field="rate_id")
    shipment = ctx.get(Shipment, rate.shipment_id)
    if shipment.status == "cancelled":
        raise RuleViolation(
            f"shipment {shipment.id} is cancelled", field="rate_id", hint="create and rate a new shipment"
        )
    if shipment.status == "purchased":
        active = ctx.first(Transaction, shipment_id=shipment.id, status="success")
        raise Conflict(
            f"shipment {shipment.id} already has an active label"
            + (f" ({active.carrier} {active.tracking_number})" if active else ""),
            field="rate_id",
            hint="void that label with shipping__void_label before buying another",
        )
    for role, aid in (("sender", shipment.address_from_id), ("recipient", shipment.address_to_id)):
        addr = ctx.get(Address, aid)
        if addr.validation_status == "invalid":
            raise RuleViolation(
                f"the {role} address {addr.id} failed validation",
                field="rate_id",
                hint="create a corrected address, validate it, and ship to it in a new shipment",
            )
    number = _new_tracking_number(ctx.rng, rate.carrier)
    while ctx.first(Transaction, tracking_number=number) is not None:
        number = _new_tracking_number(ctx.rng, rate.carrier)
    label = ctx.create(
        Transaction,
        shipment_id=shipment.id,
        rate_id=rate.id,
        carrier=rate.carrier,
        servicelevel_token=rate.servicelevel_token,
        tracking_number=number,
        tracking_url_provider=links.tracking_url(rate.carrier, number),
        label_url=_label_url(rate.carrier, number, label_file_type),
        label_file_type=label_file_type,
        amount=rate.amount,
        currency=rate.currency,
        eta=ctx.today() + dt.timedelta(days=rate.estimated_days),
    )
    src = ctx.get(Address, shipment.address_from_id).address
    ctx.create(
        TrackingEvent,
        transaction_id=label.id,
        tracking_number=number,
        status="pre_transit",
        status_details="Shipping label created; the carrier awaits the parcel",
        city=src.city,
        country=src.country,
        occurred_at=ctx.now(),
    )
    ctx.update(shipment, status="purchased")
    return label


def _on_pickup(ctx: Ctx, transaction_id: str) -> Pickup | None:
    for pickup in ctx.where(Pickup, status="confirmed"):
        if transaction_id in pickup.transaction_ids:
            return pickup
    return None


@service.tool(
    intent="void the label and get the money back",
    write=True,
    destructive=True,
    example=first_example(
        Transaction,
        "transaction_id",
        where={"status": "success", "tracking_status": "pre_transit"},
        match=lambda ctx, label: ctx.now() - label.created_at <= VOID_WINDOW and _on_pickup(ctx, label.id) is None,
        reason="not_used",
    ),
)
def void_label(
    ctx: Ctx,
    transaction_id: TransactionId,
    reason: Literal["not_used", "duplicate", "wrong_address", "wrong_service", "other"] = "not_used",
) -> Refund:
    """Void an unused label and refund its price; the shipment can then get another label.

    Only labels the carrier has not scanned yet (pre_transit) can be voided,
    within 30 days of purchase, and not while booked on a confirmed pickup.

    Args:
        ctx: The call's context.
        transaction_id: The label to void.
        reason: Why it is voided.
    """
    label = ctx.get(Transaction, transaction_id, field="transaction_id")
    if label.status == "refunded":
        raise Conflict(
            f"label {label.tracking_number} is already voided",
            field="transaction_id",
            hint="nothing to do; see its refund with shipping__list_refunds",
        )
    if label.tracking_status != "pre_transit":
        raise RuleViolation(
            f"label {label.tracking_number} is {label.tracking_status}: the carrier has the parcel and it cannot be "
            "voided",
            field="transaction_id",
            hint="only labels not yet scanned by the carrier can be voided",
        )
    if ctx.now() - label.created_at > VOID_WINDOW:
        raise RuleViolation(
            f"label {label.tracking_number} was bought on {label.created_at.date().isoformat()}, more than 30 days ago",
            field="transaction_id",
            hint="labels can only be voided within 30 days of purchase",
        )
    pickup = _on_pickup(ctx, label.id)
    if pickup is not None:
        raise RuleViolation(
            f"label {label.tracking_number} is booked on pickup {pickup.confirmation_code}",
            field="transaction_id",
            hint="cancel that pickup with shipping__cancel_pickup first",
        )
    ctx.update(label, status="refunded")
    shipment = ctx.get(Shipment, label.shipment_id)
    ctx.update(shipment, status="rated")
    return ctx.create(
        Refund,
        transaction_id=label.id,
        tracking_number=label.tracking_number,
        amount=label.amount,
        currency=label.currency,
        reason=reason,
    )


# -- tracking -----------------------------------------------------------------------------


class Track(BaseModel):
    """Where a parcel is and how it got there."""

    tracking_number: TrackingNumber = Field(description="The tracking number.")
    carrier: Carrier = Field(description="The carrier.")
    transaction_id: TransactionId = Field(description="The label.")
    order_number: OrderNumber | None = Field(description="Order the shipment is for, if any.")
    status: TrackingStatus = Field(description="Current status.")
    label_voided: bool = Field(description="Whether the label was voided (the parcel will not move).")
    eta: Date = Field(description="Expected delivery date.")
    address_from: PostalAddress = Field(description="Where the parcel left from.")
    address_to: PostalAddress = Field(description="Where it goes.")
    events: list[TrackingEvent] = Field(description="Scans, oldest first.")


def _label_by_number(ctx: Ctx, tracking_number: str) -> Transaction:
    label = ctx.first(Transaction, tracking_number=tracking_number)
    if label is None:
        raise NotFound(
            f"no label with tracking number {tracking_number}",
            field="tracking_number",
            hint="find labels with shipping__list_transactions",
        )
    return label


@service.tool(
    intent="track the parcel",
    example=first_example(Transaction, where={"status": "success"}, fields={"tracking_number": "tracking_number"}),
)
def track_shipment(ctx: Ctx, tracking_number: TrackingNumber) -> Track:
    """Get a parcel's tracking status and its scan history by tracking number.

    Args:
        ctx: The call's context.
        tracking_number: The carrier's tracking number.
    """
    label = _label_by_number(ctx, tracking_number)
    shipment = ctx.get(Shipment, label.shipment_id)
    events = sorted(ctx.where(TrackingEvent, transaction_id=label.id), key=lambda e: (e.occurred_at, e.id))
    return Track(
        tracking_number=label.tracking_number,
        carrier=label.carrier,
        transaction_id=label.id,
        order_number=shipment.order_number,
        status=label.tracking_status,
        label_voided=label.status == "refunded",
        eta=label.eta,
        address_from=ctx.get(Address, shipment.address_from_id).address,
        address_to=ctx.get(Address, shipment.address_to_id).address,
        events=events,
    )


@service.tool(
    intent="record the carrier's next scan",
    write=True,
    example=first_example(
        Transaction,
        where={"status": "success"},
        match=lambda ctx, label: label.tracking_status != "delivered",
        fields={"tracking_number": "tracking_number"},
    ),
)
def advance_tracking(ctx: Ctx, tracking_number: TrackingNumber) -> TrackingEvent:
    """Record the carrier's next scan of a parcel (as the carrier's tracking feed does).

    A parcel moves pre_transit -> in_transit (picked up at the origin) ->
    in_transit (arrived at the destination facility) -> out_for_delivery ->
    delivered, one scan per call. Voided labels and delivered parcels do not move.

    Args:
        ctx: The call's context.
        tracking_number: The parcel's tracking number.
    """
    label = _label_by_number(ctx, tracking_number)
    if label.status == "refunded":
        raise RuleViolation(
            f"label {label.tracking_number} was voided; its parcel will not move",
            field="tracking_number",
            hint="track the shipment's current label instead",
        )
    if label.tracking_status == "delivered":
        raise RuleViolation(
            f"parcel {label.tracking_number} is already delivered",
            field="tracking_number",
            hint="delivered is the last status; nothing more will be scanned",
        )
    shipment = ctx.get(Shipment, label.shipment_id)
    src = ctx.get(Address, shipment.address_from_id).address
    dst = ctx.get(Address, shipment.address_to_id).address
    scans = ctx.where(TrackingEvent, transaction_id=label.id, status="in_transit")
    status: TrackingStatus
    if label.tracking_status == "pre_transit":
        status, where, text = "in_transit", src, f"Picked up by {label.carrier}"
    elif label.tracking_status == "in_transit" and len(scans) < 2:
        status, where, text = "in_transit", dst, "Arrived at the destination facility"
    elif label.tracking_status == "in_transit":
        status, where, text = "out_for_delivery", dst, "Out for delivery"
    else:
        status, where, text = "delivered", dst, "Delivered"
    ctx.update(label, tracking_status=status)
    return ctx.create(
        TrackingEvent,
        transaction_id=label.id,
        tracking_number=label.tracking_number,
        status=status,
        status_details=text,
        city=where.city,
        country=where.country,
        occurred_at=ctx.now(),
    )


# -- pickups ------------------------------------------------------------------------------


def _example_pickup(ctx: Ctx) -> dict[str, Any] | None:
    for label in ctx.where(Transaction, status="success", tracking_status="pre_transit"):
        if _on_pickup(ctx, label.id) is None:
            start = ctx.now().replace(minute=0, second=0, microsecond=0) + dt.timedelta(days=1)
            return {
                "carrier": label.carrier,
                "address_id": ctx.get(Shipment, label.shipment_id).address_from_id,
                "transaction_ids": [label.id],
                "requested_start": start.isoformat(),
                "requested_end": (start + dt.timedelta(hours=4)).isoformat(),
            }
    return None


@service.tool(intent="book a carrier pickup", write=True, example=_example_pickup)
def schedule_pickup(
    ctx: Ctx,
    carrier: Carrier,
    address_id: AddressId,
    transaction_ids: Annotated[list[TransactionId], Field(min_length=1, max_length=50)],
    requested_start: DateTime,
    requested_end: DateTime,
    instructions: Text = "",
) -> Pickup:
    """Book a carrier to collect labelled parcels at their sender address.

    Every label must be the carrier's, active, not yet scanned, sent from the
    pickup address and on no other confirmed pickup. The window starts in the
    future, within 14 days, and lasts at least 2 hours.

    Args:
        ctx: The call's context.
        carrier: The carrier to come by.
        address_id: Sender address of the parcels, where the driver collects them.
        transaction_ids: Labels of the parcels to collect.
        requested_start: Start of the pickup window.
        requested_end: End of the pickup window.
        instructions: Where the driver finds the parcels.
    """
    ctx.get(Address, address_id, field="address_id")
    if len(set(transaction_ids)) != len(transaction_ids):
        raise RuleViolation("a label is listed twice", field="transaction_ids", hint="list each label once")
    for i, tid in enumerate(transaction_ids):
        where = f"transaction_ids.{i}"
        label = ctx.get(Transaction, tid, field=where)
        if label.carrier != carrier:
            raise RuleViolation(
                f"label {label.tracking_number} is a {label.carrier} label, not {carrier}",
                field=where,
                hint="book one pickup per carrier",
            )
        if label.status != "success" or label.tracking_status != "pre_transit":
            state = "voided" if label.status != "success" else label.tracking_status
            raise RuleViolation(
                f"label {label.tracking_number} is {state} and cannot be picked up",
                field=where,
                hint="only active labels the carrier has not scanned yet can be picked up",
            )
        if ctx.get(Shipment, label.shipment_id).address_from_id != address_id:
            raise RuleViolation(
                f"label {label.tracking_number} ships from another address",
                field=where,
                hint="the pickup address must be the labels' sender address",
            )
        booked = _on_pickup(ctx, label.id)
        if booked is not None:
            raise Conflict(
                f"label {label.tracking_number} is already on pickup {booked.confirmation_code}",
                field=where,
                hint="cancel that pickup first, or leave the label out",
            )
    now = ctx.now()
    if requested_start < now:
        raise RuleViolation(
            f"the window starts in the past (now is {now.isoformat()})",
            field="requested_start",
            hint="pick a start time in the future",
        )
    if requested_start - now > MAX_PICKUP_AHEAD:
        raise RuleViolation(
            "pickups are booked at most 14 days ahead", field="requested_start", hint="pick an earlier start"
        )
    if requested_end - requested_start < MIN_PICKUP_WINDOW:
        raise RuleViolation(
            "the pickup window must last at least 2 hours",
            field="requested_end",
            hint="end the window 2 hours or more after it starts",
        )
    return ctx.create(
        Pickup,
        carrier=carrier,
        address_id=address_id,
        transaction_ids=tuple(transaction_ids),
        requested_start=requested_start,
        requested_end=requested_end,
        instructions=instructions,
    )


# -- seed ---------------------------------------------------------------------------------

SHOP_PARCELS: dict[int, str] = {2: "in_transit", 3: "delivered", 5: "delivered", 6: "pre_transit"}
"""Where the parcel of the shop's first order for consumer ``i`` is, by ``i % 8`` (see the shop's seeder).

Their labels carry the order numbers and tracking numbers the shop's orders
and fulfillments record (both derived in :mod:`compoworld.world.commerce`).
"""

STATES: tuple[str, ...] = (
    "created",
    "rated",
    "pre_transit",
    "in_transit",
    "out_for_delivery",
    "delivered",
    "voided",
    "cancelled",
)
_DAY = dt.timedelta(days=1)
_EVENTS_SHOWN = {"pre_transit": 1, "voided": 1, "in_transit": 2, "out_for_delivery": 4, "delivered": 5}


def _label_age(rng: random.Random, state: str) -> dt.timedelta:
    """How long ago a seeded label in ``state`` was bought (or the shipment created, without a label)."""
    if state == "delivered":
        return dt.timedelta(days=rng.randint(10, 50))
    if state == "pre_transit":
        return dt.timedelta(hours=rng.randint(1, 30))
    if state == "voided":
        return dt.timedelta(days=rng.randint(1, 10))
    if state == "in_transit":
        return dt.timedelta(days=2, hours=rng.randint(1, 8))
    if state == "out_for_delivery":
        return dt.timedelta(days=3, hours=rng.randint(1, 8))
    return dt.timedelta(days=rng.randint(2, 12))


@service.seeder
def seed(s: SeedContext) -> None:
    """The home warehouse, consumers' and customers' addresses, and shipments in every state.

    The parcels of the shop's shipped orders appear here under the same order
    and tracking numbers, sent from the home company's address to the consumer's.
    """
    warehouse = _seed_warehouse(s)
    _seed_consumer_parcels(s, warehouse)
    _seed_mistyped_addresses(s, warehouse)
    waiting, delivered = _seed_business_parcels(s, warehouse)
    _seed_pickups(s, warehouse, waiting, delivered)


def _seed_warehouse(s: SeedContext) -> Address:
    """The home company's address, which every seeded parcel is sent from."""
    home = s.population.home
    ops = s.population.staff("Operations")
    shipper = next((p for p in ops if p.job_title == "Logistics Coordinator"), ops[0])
    return s.create(
        Address,
        name=shipper.name,
        company=home.name,
        address=home.address,
        email=shipper.email,
        phone=shipper.phone,
        is_residential=False,
        validation_status="valid",
        created_at=s.ago(days=900),
    )


def _seed_consumer_parcels(s: SeedContext, warehouse: Address) -> None:
    """Every consumer's address; the shop's shipped first orders get their parcels, under the shop's numbers."""
    pop = s.population
    carriers = links.carriers_from(warehouse.address.country)
    for i, person in enumerate(pop.consumers):
        plan = i % 8
        addr = s.create(
            Address,
            name=person.name,
            address=person.address,
            email=person.email,
            phone=person.phone,
            is_residential=True,
            validation_status="valid" if plan in SHOP_PARCELS or i % 3 == 0 else "unverified",
            created_at=s.ago(days=s.rng.randint(60, 300)),
        )
        if plan in SHOP_PARCELS:
            carrier = carriers[i % len(carriers)]
            order_number = links.first_order_number(i)
            number = links.seeded_tracking_number(pop.seed, order_number, carrier)
            _ship(s, warehouse, addr, SHOP_PARCELS[plan], carrier, number, order_number)


def _seed_mistyped_addresses(s: SeedContext, warehouse: Address) -> None:
    """Two consumers' addresses with a wrong postal code, failed validation, each with a rated shipment."""
    carrier = links.carriers_from(warehouse.address.country)[0]
    for person in s.population.consumers[1:3]:
        typo = person.address.model_copy(update={"postal_code": "99" + person.address.postal_code[2:]})
        bad = s.create(
            Address,
            name=person.name,
            address=typo,
            email=person.email,
            phone=person.phone,
            validation_status="invalid",
            created_at=s.ago(days=3),
        )
        _ship(s, warehouse, bad, "rated", carrier)


def _seed_business_parcels(s: SeedContext, warehouse: Address) -> tuple[list[Transaction], list[Transaction]]:
    """Customer companies' addresses with a shipment each, cycling through :data:`STATES`.

    Returns:
        The labels waiting for the carrier and the delivered ones, in seeding order.
    """
    pop = s.population
    carriers = links.carriers_from(warehouse.address.country)
    waiting: list[Transaction] = []
    delivered: list[Transaction] = []
    for k, company in enumerate(pop.customers):
        contact = pop.first_contact(company)
        if contact is None:
            continue
        addr = s.create(
            Address,
            name=contact.name,
            company=company.name,
            address=company.address,
            email=contact.email,
            phone=company.phone,
            is_residential=False,
            validation_status="valid" if k % 2 == 0 else "unverified",
            created_at=s.ago(days=s.rng.randint(60, 600)),
        )
        state = STATES[k % len(STATES)]
        # The first business label waiting for the carrier was bought long ago: too old to void.
        age = 45 * _DAY if state == "pre_transit" and not waiting else None
        label = _ship(s, warehouse, addr, state, s.rng.choice(carriers), age=age)
        if label is not None and state == "pre_transit":
            waiting.append(label)
        elif label is not None and state == "delivered":
            delivered.append(label)
    return waiting, delivered


def _seed_pickups(
    s: SeedContext, warehouse: Address, waiting: Sequence[Transaction], delivered: Sequence[Transaction]
) -> None:
    """A pickup booked for tomorrow for a waiting label, and a cancelled one for a delivered label."""
    now = s.now
    if len(waiting) > 1:
        start = now.replace(hour=13, minute=0, second=0, microsecond=0) + _DAY
        s.create(
            Pickup,
            carrier=waiting[1].carrier,
            address_id=warehouse.id,
            transaction_ids=(waiting[1].id,),
            requested_start=start,
            requested_end=start + dt.timedelta(hours=4),
            instructions="Parcels are on the pallet by the loading dock.",
            created_at=s.ago(hours=3),
            updated_at=s.ago(hours=3),
        )
    if delivered:
        done = delivered[0]
        start = done.created_at + dt.timedelta(hours=5)
        s.create(
            Pickup,
            carrier=done.carrier,
            address_id=warehouse.id,
            transaction_ids=(done.id,),
            requested_start=start,
            requested_end=start + dt.timedelta(hours=3),
            status="cancelled",
            instructions="Ring at reception.",
            created_at=done.created_at + dt.timedelta(hours=1),
            updated_at=done.created_at + dt.timedelta(hours=2),
        )


def _ship(
    s: SeedContext,
    sender: Address,
    to: Address,
    state: str,
    carrier: str,
    number: str | None = None,
    order_number: str | None = None,
    age: dt.timedelta | None = None,
) -> Transaction | None:
    """Seed a parcel from ``sender`` to ``to`` that has got as far as ``state``.

    Args:
        s: The seed context.
        sender: The address it is sent from.
        to: The address it is sent to.
        state: One of :data:`STATES`.
        carrier: The carrier whose cheapest rate buys the label.
        number: The label's tracking number (default: a new one).
        order_number: The order the parcel is for, if any.
        age: How long ago the label was bought (default: drawn for ``state``).

    Returns:
        The label, or None when the shipment has none.
    """
    bought = s.now - (age or _label_age(s.rng, state))
    created = bought - dt.timedelta(hours=2)
    parcel = s.create(
        Parcel,
        length_cm=s.rng.randint(15, 60),
        width_cm=s.rng.randint(10, 40),
        height_cm=s.rng.randint(5, 30),
        weight_grams=s.rng.randint(200, 15_000),
        description=f"Order {order_number}" if order_number else f"Goods for {to.company or to.name}",
        created_at=created,
    )
    status = {"created": "created", "rated": "rated", "voided": "rated", "cancelled": "cancelled"}.get(
        state, "purchased"
    )
    shipment = s.create(
        Shipment,
        address_from_id=sender.id,
        address_to_id=to.id,
        parcel_id=parcel.id,
        order_number=order_number,
        status=status,
        created_at=created,
        updated_at=bought if status != "created" else created,
    )
    if state == "created":
        return None
    rates = [
        s.create(Rate, shipment_id=shipment.id, created_at=created, **q)
        for q in _quotes(s.population, sender.address, to.address, parcel)
    ]
    if state in ("rated", "cancelled"):
        return None
    rate = min((r for r in rates if r.carrier == carrier), key=lambda r: (r.amount, r.id))
    label = _seed_label(s, shipment, rate, state, number or _new_tracking_number(s.rng, carrier), bought)
    _seed_tracking_events(s, label, sender.address, to.address, state)
    if state == "voided":
        s.create(
            Refund,
            transaction_id=label.id,
            tracking_number=label.tracking_number,
            amount=label.amount,
            currency=label.currency,
            reason=s.rng.choice(("not_used", "duplicate", "wrong_service")),
            created_at=bought + dt.timedelta(hours=3),
        )
    return label


def _seed_label(
    s: SeedContext, shipment: Shipment, rate: Rate, state: str, tracking_number: str, bought: dt.datetime
) -> Transaction:
    """The label bought from ``rate`` at ``bought``; a voided label was refunded before the carrier had it."""
    carrier = rate.carrier
    return s.create(
        Transaction,
        shipment_id=shipment.id,
        rate_id=rate.id,
        carrier=carrier,
        servicelevel_token=rate.servicelevel_token,
        tracking_number=tracking_number,
        tracking_url_provider=links.tracking_url(carrier, tracking_number),
        label_url=_label_url(carrier, tracking_number, "PDF"),
        amount=rate.amount,
        currency=rate.currency,
        status="refunded" if state == "voided" else "success",
        tracking_status="pre_transit" if state == "voided" else state,
        eta=(bought + dt.timedelta(days=rate.estimated_days)).date(),
        created_at=bought,
        updated_at=bought,
    )


def _seed_tracking_events(
    s: SeedContext, label: Transaction, src: PostalAddress, dst: PostalAddress, state: str
) -> None:
    """The carrier scans a label in ``state`` has had so far, from its purchase on."""
    bought = label.created_at
    timeline = (
        ("pre_transit", src, "Shipping label created; the carrier awaits the parcel", bought),
        ("in_transit", src, f"Picked up by {label.carrier}", bought + _DAY),
        ("in_transit", dst, "Arrived at the destination facility", bought + 2 * _DAY),
        ("out_for_delivery", dst, "Out for delivery", bought + 3 * _DAY),
        ("delivered", dst, "Delivered", bought + dt.timedelta(days=3, hours=6)),
    )
    for ev_status, where, text, when in timeline[: _EVENTS_SHOWN[state]]:
        s.create(
            TrackingEvent,
            transaction_id=label.id,
            tracking_number=label.tracking_number,
            status=ev_status,
            status_details=text,
            city=where.city,
            country=where.country,
            occurred_at=when,
        )
