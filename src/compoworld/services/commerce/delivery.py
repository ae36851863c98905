"""Dashway Drive: on-demand local delivery with quotes, couriers (dashers), proof of delivery and cancellation rules.

Modeled on the DoorDash Drive API v2 (Business & Store, Quotes with accept,
Deliveries, delivery status webhooks, cancellation, proof of delivery): a
merchant asks for a quote to carry an order from one of its stores to a
customer in the same city (within the delivery radius and under the order
value cap); a quote is priced from the distance and must be accepted within
five minutes, once, which creates the delivery under the merchant's own
delivery id; an available dasher in the store's city whose vehicle suits the
distance is assigned; the delivery is picked up and then completed with proof
(a photo for contactless drop-offs, the recipient's name where a signature is
required); it can be cancelled only before pickup, with a fee once a dasher
has been dispatched; drop-off details and the tip can change only until pickup.
"""

from __future__ import annotations

import datetime as dt
import hashlib
from collections.abc import Sequence
from typing import Annotated, Any, Literal

from pydantic import BaseModel, Field

from compoworld.engine.context import Ctx
from compoworld.engine.errors import Conflict, NotFound, RuleViolation
from compoworld.engine.records import CREATED, Record
from compoworld.engine.service import Service, Transition
from compoworld.engine.state import SeedContext
from compoworld.engine.types import (
    Cents,
    City,
    CompanyName,
    Currency,
    DateTime,
    FileLink,
    IdOf,
    OrderNumber,
    PersonName,
    Phone,
    PostalAddress,
    Text,
    Title,
    Url,
)
from compoworld.services.kit.examples import first_example
from compoworld.services.kit.records import Timestamped

__all__ = ["service"]

service = Service(
    "delivery",
    title="Dashway Drive",
    category="shipping_logistics",
    modeled_on="DoorDash Drive API v2 (Business & Store, Quote and accept, Delivery, status updates, "
    "cancellation, proof of delivery)",
    description="On-demand local delivery for merchants: their pickup stores, delivery quotes priced by distance "
    "that expire after five minutes, deliveries under the merchant's own order reference, the dashers who carry "
    "them, pickup, proof of delivery and cancellation fees.",
)

StoreId = Annotated[str, IdOf("delivery.store")]
DasherId = Annotated[str, IdOf("delivery.dasher")]
QuoteId = Annotated[str, IdOf("delivery.quote")]
DeliveryId = Annotated[str, IdOf("delivery.delivery")]
Km = Annotated[float, Field(ge=0, le=1000)]
Vehicle = Literal["car", "scooter", "bike", "walker"]
DeliveryStatus = Literal["created", "enroute_to_pickup", "picked_up", "delivered", "cancelled"]
CancelReason = Literal["merchant_request", "customer_request", "no_dasher", "other"]

QUOTE_TTL = dt.timedelta(minutes=5)
"""How long a quote can be accepted."""
MAX_ORDER_VALUE = 150_000
"""The most an order carried may be worth, in cents."""
MAX_KM = 15.0
"""Delivery radius around the store."""
VEHICLE_RANGE: dict[str, float] = {"car": MAX_KM, "scooter": 12.0, "bike": 8.0, "walker": 2.0}
"""The longest trip each vehicle takes."""
BASE_FEE = 599
PER_KM = 85


class Store(Record):
    """A merchant's pickup location."""

    id: StoreId
    business_name: CompanyName
    """The merchant."""
    name: Title
    """Store name shown to dashers."""
    address: PostalAddress
    """Where dashers pick up."""
    phone: Phone
    """The store's phone."""
    currency: Currency
    """Currency fees are charged in."""
    active: bool = True
    """Inactive stores get no quotes."""


class Dasher(Record):
    """A courier who carries deliveries."""

    id: DasherId
    name: PersonName
    """Full name."""
    phone: Phone
    """Phone number shown to the customer."""
    city: City
    """City the dasher works in."""
    vehicle: Vehicle
    """car, scooter, bike or walker; limits how far the dasher goes."""
    status: Literal["available", "on_delivery", "offline"] = "available"
    """available, on_delivery (carrying one) or offline."""
    rating: Annotated[float, Field(ge=0, le=5)] = 5.0
    """Customer rating."""
    completed_deliveries: int = 0
    """Deliveries completed."""


class Quote(Record):
    """A priced offer to carry an order; accept it within five minutes."""

    id: QuoteId
    external_delivery_id: OrderNumber
    """The merchant's own reference for the order."""
    store_id: StoreId
    """Pickup store."""
    dropoff_address: PostalAddress
    """Where to deliver."""
    dropoff_contact_name: PersonName
    """The recipient."""
    dropoff_phone: Phone
    """The recipient's phone."""
    order_value: Cents
    """Value of the goods, in cents."""
    distance_km: Km
    """Road distance from the store."""
    fee: Cents
    """Delivery fee, in cents."""
    currency: Currency
    """Currency of the fee."""
    pickup_eta: DateTime
    """Estimated pickup time."""
    dropoff_eta: DateTime
    """Estimated drop-off time."""
    expires_at: DateTime
    """Last moment the quote can be accepted."""
    accepted: bool = False
    """Whether it was accepted (into a delivery)."""
    created_at: Annotated[DateTime, CREATED]
    """When it was quoted."""


class Delivery(Timestamped):
    """An accepted delivery from a store to a customer."""

    id: DeliveryId
    external_delivery_id: OrderNumber
    """The merchant's reference for the order; unique."""
    quote_id: QuoteId
    """The accepted quote."""
    store_id: StoreId
    """Pickup store."""
    pickup_address: PostalAddress
    """Pickup address."""
    dropoff_address: PostalAddress
    """Drop-off address."""
    dropoff_contact_name: PersonName
    """The recipient."""
    dropoff_phone: Phone
    """The recipient's phone."""
    dropoff_instructions: Text = ""
    """Instructions for the dasher at drop-off."""
    contactless: bool = False
    """Leave at the door; needs a photo as proof."""
    signature_required: bool = False
    """The recipient must sign; needs their name as proof."""
    order_value: Cents
    """Value of the goods, in cents."""
    distance_km: Km
    """Distance."""
    fee: Cents
    """Delivery fee, in cents."""
    tip: Cents = 0
    """Tip for the dasher, in cents."""
    currency: Currency
    """Currency."""
    status: DeliveryStatus = "created"
    """created, enroute_to_pickup (dasher assigned), picked_up, delivered or cancelled."""
    dasher_id: DasherId | None = None
    """The assigned dasher."""
    tracking_url: Url
    """Page where the customer follows the delivery."""
    proof_photo_url: FileLink | None = None
    """Photo taken at drop-off."""
    signed_by: PersonName | None = None
    """Who signed for it."""
    cancellation_fee: Cents = 0
    """Charged when cancelled after a dasher was dispatched, in cents."""
    cancel_reason: CancelReason | None = None
    """Why it was cancelled."""
    picked_up_at: DateTime | None = None
    """When it was picked up."""
    delivered_at: DateTime | None = None
    """When it was delivered."""


def _guard_delivery(ctx: Ctx, new: Any, old: Any) -> None:
    if old.status not in ("created", "enroute_to_pickup"):
        raise RuleViolation(
            f"delivery {old.external_delivery_id} is {old.status}; drop-off details and tip change only before pickup",
            field="delivery_id",
            hint="nothing can change once the dasher has the order",
        )


def _guard_dasher(ctx: Ctx, new: Any, old: Any) -> None:
    if old.status == "on_delivery":
        raise RuleViolation(
            f"dasher {old.name} is carrying a delivery",
            field="dasher_id",
            hint="wait until the delivery is completed or cancelled",
        )


stores = service.resource(
    Store,
    name="store",
    plural="stores",
    prefix="str",
    create=("business_name", "name", "address", "phone", "currency"),
    filters=("business_name", "active", "currency"),
    search=("name", "business_name"),
    update=("name", "phone", "active"),
    delete=False,
)
dashers = service.resource(
    Dasher,
    name="dasher",
    plural="dashers",
    prefix="dsh",
    create=False,
    filters=("city", "status", "vehicle"),
    search=("name",),
    delete=False,
    transitions={
        "go_offline": Transition("status", ("available",), "offline", "take the dasher off the road"),
        "go_online": Transition("status", ("offline",), "available", "put the dasher on the road"),
    },
    guard_update=_guard_dasher,
)
quotes = service.resource(
    Quote,
    name="quote",
    plural="quotes",
    prefix="qte",
    create=False,
    filters=("store_id", "external_delivery_id", "accepted"),
    delete=False,
    title="delivery quote",
)
deliveries = service.resource(
    Delivery,
    name="delivery",
    plural="deliveries",
    prefix="dlv",
    create=False,
    filters=("status", "store_id", "dasher_id", "external_delivery_id", "dropoff_phone"),
    search=("dropoff_contact_name", "external_delivery_id"),
    update=("dropoff_instructions", "dropoff_phone", "tip", "contactless", "signature_required"),
    delete=False,
    unique=("external_delivery_id",),
    guard_update=_guard_delivery,
)


# -- helpers -----------------------------------------------------------------------------------


def _distance(a: PostalAddress, b: PostalAddress) -> float:
    """Road distance between two addresses of one city, in km (stable for the same addresses)."""
    key = f"{a.street}|{a.postal_code}|{b.street}|{b.postal_code}".casefold()
    h = int(hashlib.sha256(key.encode()).hexdigest()[:8], 16)
    return round(0.6 + (h % 1700) / 100, 1)


def _fee(km: float) -> int:
    return BASE_FEE + round(PER_KM * km)


def _tracking_url(delivery_key: str) -> str:
    return f"https://track.dashway.example/d/{delivery_key}"


# -- examples ----------------------------------------------------------------------------------


def _example_quote(ctx: Ctx) -> dict[str, Any] | None:
    for store in ctx.where(Store, active=True):
        for p in ctx.population.consumers:
            if p.address.city == store.address.city and _distance(store.address, p.address) <= MAX_KM:
                return {
                    "store_id": store.id,
                    "external_delivery_id": "D-90001",
                    "dropoff_address": p.address.model_dump(),
                    "dropoff_contact_name": p.name,
                    "dropoff_phone": p.phone,
                    "order_value": 4_250,
                }
    return None


def _example_assign(ctx: Ctx) -> dict[str, Any] | None:
    for d in ctx.where(Delivery, status="created"):
        city = ctx.get(Store, d.store_id).address.city
        for dasher in ctx.where(Dasher, city=city, status="available"):
            if VEHICLE_RANGE[dasher.vehicle] >= d.distance_km:
                return {"delivery_id": d.id, "dasher_id": dasher.id}
    return None


def _example_complete(ctx: Ctx) -> dict[str, Any] | None:
    d = ctx.first(Delivery, status="picked_up")
    if d is None:
        return None
    return {
        "delivery_id": d.id,
        "proof_photo_url": f"https://files.example.com/dropoffs/{d.id}.jpg",
        "signed_by": d.dropoff_contact_name,
    }


# -- domain tools ------------------------------------------------------------------------------


@service.tool(intent="get a delivery quote", write=True, example=_example_quote)
def create_quote(
    ctx: Ctx,
    store_id: StoreId,
    external_delivery_id: OrderNumber,
    dropoff_address: PostalAddress,
    dropoff_contact_name: PersonName,
    dropoff_phone: Phone,
    order_value: Cents,
) -> Quote:
    """Price a delivery from one of the merchant's stores to a customer; the quote holds for five minutes.

    The drop-off must be in the store's city and within 15 km of it, the order
    worth at most 1,500.00, and the merchant's delivery id not used by another
    delivery. The fee is 5.99 plus 0.85 per km.

    Args:
        store_id: The active pickup store.
        external_delivery_id: The merchant's own reference for the order.
        dropoff_address: Where to deliver.
        dropoff_contact_name: The recipient.
        dropoff_phone: The recipient's phone.
        order_value: Value of the goods, in cents.
    """
    store = ctx.get(Store, store_id, field="store_id")
    if not store.active:
        raise RuleViolation(f"store {store.name} is inactive", field="store_id", hint="reactivate it or use another")
    taken = ctx.first(Delivery, external_delivery_id=external_delivery_id)
    if taken is not None:
        raise Conflict(
            f"delivery id {external_delivery_id} is already used by delivery {taken.id}",
            field="external_delivery_id",
            hint="each order is delivered under its own id; track the existing one with delivery__track_delivery",
        )
    if dropoff_address.city.casefold() != store.address.city.casefold():
        raise RuleViolation(
            f"{dropoff_address.city} is outside the delivery area of {store.name} ({store.address.city})",
            field="dropoff_address",
            hint="deliveries stay within the store's city; ship the order with a parcel carrier instead",
        )
    km = _distance(store.address, dropoff_address)
    if km > MAX_KM:
        raise RuleViolation(
            f"the drop-off is {km} km from the store; the delivery radius is {MAX_KM} km",
            field="dropoff_address",
            hint="use a store closer to the customer, or a parcel carrier",
        )
    if order_value > MAX_ORDER_VALUE:
        raise RuleViolation(
            f"orders worth more than {MAX_ORDER_VALUE} cannot be delivered",
            field="order_value",
            hint="split the order, or ship it insured with a parcel carrier",
        )
    now = ctx.now()
    pickup = now + dt.timedelta(minutes=12)
    return ctx.create(
        Quote,
        external_delivery_id=external_delivery_id,
        store_id=store.id,
        dropoff_address=dropoff_address,
        dropoff_contact_name=dropoff_contact_name,
        dropoff_phone=dropoff_phone,
        order_value=order_value,
        distance_km=km,
        fee=_fee(km),
        currency=store.currency,
        pickup_eta=pickup,
        dropoff_eta=pickup + dt.timedelta(minutes=5 + round(3 * km)),
        expires_at=now + QUOTE_TTL,
    )


@service.tool(
    intent="accept the delivery quote",
    write=True,
    example=first_example(
        Quote, "quote_id", where={"accepted": False}, match=lambda ctx, q: q.expires_at >= ctx.now(), tip=300
    ),
)
def accept_quote(
    ctx: Ctx,
    quote_id: QuoteId,
    tip: Cents = 0,
    dropoff_instructions: Text = "",
    contactless: bool = False,
    signature_required: bool = False,
) -> Delivery:
    """Accept a quote within five minutes of it being given; this creates the delivery.

    Args:
        quote_id: The quote.
        tip: Tip for the dasher, in cents.
        dropoff_instructions: Instructions for the dasher.
        contactless: Leave the order at the door (proof by photo).
        signature_required: The recipient must sign (proof by name).
    """
    q = ctx.get(Quote, quote_id, field="quote_id")
    if q.accepted:
        raise Conflict(
            f"quote {q.id} was already accepted",
            field="quote_id",
            hint=f"track the delivery {q.external_delivery_id} with delivery__track_delivery",
        )
    if ctx.now() > q.expires_at:
        raise RuleViolation(
            f"quote {q.id} expired at {q.expires_at.isoformat()}",
            field="quote_id",
            hint="get a new quote with delivery__create_quote and accept it within five minutes",
        )
    if contactless and signature_required:
        raise RuleViolation(
            "a contactless drop-off cannot require a signature",
            field="signature_required",
            hint="choose one of contactless or signature_required",
        )
    if ctx.first(Delivery, external_delivery_id=q.external_delivery_id) is not None:
        raise Conflict(
            f"delivery id {q.external_delivery_id} is already used",
            field="quote_id",
            hint="each order is delivered once",
        )
    store = ctx.get(Store, q.store_id)
    ctx.update(q, accepted=True)
    n = ctx.next_number(Delivery, "tracking")
    return ctx.create(
        Delivery,
        external_delivery_id=q.external_delivery_id,
        quote_id=q.id,
        store_id=store.id,
        pickup_address=store.address,
        dropoff_address=q.dropoff_address,
        dropoff_contact_name=q.dropoff_contact_name,
        dropoff_phone=q.dropoff_phone,
        dropoff_instructions=dropoff_instructions,
        contactless=contactless,
        signature_required=signature_required,
        order_value=q.order_value,
        distance_km=q.distance_km,
        fee=q.fee,
        tip=tip,
        currency=q.currency,
        tracking_url=_tracking_url(f"T{900000 + n}"),
    )


def _delivery_in(ctx: Ctx, delivery_id: str, allowed: tuple[str, ...], hint: str) -> Delivery:
    d = ctx.get(Delivery, delivery_id, field="delivery_id")
    if d.status not in allowed:
        raise RuleViolation(
            f"delivery {d.external_delivery_id} is {d.status}; this needs a delivery that is {' or '.join(allowed)}",
            field="delivery_id",
            hint=hint,
        )
    return d


@service.tool(intent="dispatch a dasher to the delivery", write=True, example=_example_assign)
def assign_dasher(ctx: Ctx, delivery_id: DeliveryId, dasher_id: DasherId) -> Delivery:
    """Dispatch an available dasher of the store's city to a new delivery.

    The dasher's vehicle must cover the distance (walker 2 km, bike 8 km, scooter 12 km, car 15 km).

    Args:
        delivery_id: The created delivery.
        dasher_id: The dasher.
    """
    d = _delivery_in(ctx, delivery_id, ("created",), "a delivery gets one dasher, before pickup")
    dasher = ctx.get(Dasher, dasher_id, field="dasher_id")
    city = ctx.get(Store, d.store_id).address.city
    if dasher.status != "available":
        raise RuleViolation(
            f"dasher {dasher.name} is {dasher.status}",
            field="dasher_id",
            hint="pick an available dasher (delivery__list_dashers with status 'available')",
        )
    if dasher.city.casefold() != city.casefold():
        raise RuleViolation(
            f"dasher {dasher.name} works in {dasher.city}, not {city}",
            field="dasher_id",
            hint=f"pick a dasher in {city}",
        )
    if VEHICLE_RANGE[dasher.vehicle] < d.distance_km:
        raise RuleViolation(
            f"a dasher on a {dasher.vehicle} goes at most {VEHICLE_RANGE[dasher.vehicle]} km; "
            f"this delivery is {d.distance_km} km",
            field="dasher_id",
            hint="pick a dasher with a faster vehicle",
        )
    ctx.update(dasher, status="on_delivery")
    return ctx.update(d, status="enroute_to_pickup", dasher_id=dasher.id)


@service.tool(
    intent="record that the dasher picked up the order",
    write=True,
    example=first_example(Delivery, "delivery_id", where={"status": "enroute_to_pickup"}),
)
def mark_picked_up(ctx: Ctx, delivery_id: DeliveryId) -> Delivery:
    """Record that the dasher collected the order at the store; it can no longer be cancelled or changed.

    Args:
        delivery_id: The delivery with a dasher on the way.
    """
    d = _delivery_in(ctx, delivery_id, ("enroute_to_pickup",), "assign a dasher with delivery__assign_dasher first")
    return ctx.update(d, status="picked_up", picked_up_at=ctx.now())


@service.tool(intent="complete the delivery with proof", write=True, example=_example_complete)
def complete_delivery(
    ctx: Ctx,
    delivery_id: DeliveryId,
    proof_photo_url: FileLink | None = None,
    signed_by: PersonName | None = None,
) -> Delivery:
    """Complete a picked-up delivery with proof of delivery; the dasher becomes available again.

    A contactless drop-off needs a photo; one that requires a signature needs the signer's name.

    Args:
        delivery_id: The picked-up delivery.
        proof_photo_url: Photo of the order at the door.
        signed_by: Name of the person who signed.
    """
    d = _delivery_in(ctx, delivery_id, ("picked_up",), "the dasher must pick the order up first")
    if d.contactless and proof_photo_url is None:
        raise RuleViolation(
            "a contactless drop-off needs a photo", field="proof_photo_url", hint="pass the drop-off photo"
        )
    if d.signature_required and signed_by is None:
        raise RuleViolation(
            "this delivery requires a signature", field="signed_by", hint="pass the name of the person who signed"
        )
    if d.dasher_id is not None:
        dasher = ctx.get(Dasher, d.dasher_id)
        ctx.update(dasher, status="available", completed_deliveries=dasher.completed_deliveries + 1)
    return ctx.update(
        d, status="delivered", delivered_at=ctx.now(), proof_photo_url=proof_photo_url, signed_by=signed_by
    )


@service.tool(
    intent="cancel the delivery",
    write=True,
    destructive=True,
    example=first_example(Delivery, "delivery_id", where={"status": "created"}, reason="merchant_request"),
)
def cancel_delivery(ctx: Ctx, delivery_id: DeliveryId, reason: CancelReason) -> Delivery:
    """Cancel a delivery before pickup; once a dasher was dispatched the delivery fee is charged as a cancellation fee.

    Args:
        delivery_id: The delivery.
        reason: Why.
    """
    d = ctx.get(Delivery, delivery_id, field="delivery_id")
    if d.status in ("picked_up", "delivered"):
        raise RuleViolation(
            f"delivery {d.external_delivery_id} is {d.status} and can no longer be cancelled",
            field="delivery_id",
            hint="the dasher has the order; arrange a return with the customer instead",
        )
    if d.status == "cancelled":
        raise Conflict(
            f"delivery {d.external_delivery_id} is already cancelled", field="delivery_id", hint="nothing to do"
        )
    fee = 0
    if d.dasher_id is not None:
        fee = d.fee
        ctx.update(ctx.get(Dasher, d.dasher_id), status="available")
    return ctx.update(d, status="cancelled", cancel_reason=reason, cancellation_fee=fee)


class DeliveryStatusView(BaseModel):
    """What a customer sees when following a delivery."""

    external_delivery_id: OrderNumber = Field(description="The merchant's order reference.")
    status: DeliveryStatus = Field(description="Where the delivery is.")
    store_name: Title = Field(description="Pickup store.")
    dasher_name: PersonName | None = Field(description="The dasher, once assigned.")
    dasher_phone: Phone | None = Field(description="The dasher's phone, once assigned.")
    dropoff_eta: DateTime | None = Field(description="Estimated drop-off; null when delivered or cancelled.")
    tracking_url: Url = Field(description="Live tracking page.")
    total_charged: Cents = Field(description="Fee plus tip, or the cancellation fee, in cents.")
    currency: Currency = Field(description="Currency.")


@service.tool(
    intent="track the delivery",
    example=first_example(Delivery, fields={"external_delivery_id": "external_delivery_id"}),
)
def track_delivery(ctx: Ctx, external_delivery_id: OrderNumber) -> DeliveryStatusView:
    """Follow a delivery by the merchant's order reference.

    Args:
        external_delivery_id: The merchant's reference.
    """
    d = ctx.first(Delivery, external_delivery_id=external_delivery_id)
    if d is None:
        raise NotFound(
            f"no delivery with id {external_delivery_id}",
            field="external_delivery_id",
            hint="quotes that were not accepted have no delivery; list deliveries with delivery__list_deliveries",
        )
    dasher = ctx.get(Dasher, d.dasher_id) if d.dasher_id else None
    q = ctx.get(Quote, d.quote_id)
    open_ = d.status not in ("delivered", "cancelled")
    return DeliveryStatusView(
        external_delivery_id=d.external_delivery_id,
        status=d.status,
        store_name=ctx.get(Store, d.store_id).name,
        dasher_name=dasher.name if dasher else None,
        dasher_phone=dasher.phone if dasher else None,
        dropoff_eta=q.dropoff_eta if open_ else None,
        tracking_url=d.tracking_url,
        total_charged=d.cancellation_fee if d.status == "cancelled" else d.fee + d.tip,
        currency=d.currency,
    )


# -- seed --------------------------------------------------------------------------------------


@service.seeder
def seed(s: SeedContext) -> None:
    """Stores of the population's food and retail companies, consumer dashers, deliveries to consumers nearby."""
    stores = _seed_stores(s)
    dashers = _seed_dashers(s, {st.address.city for st in stores})
    _seed_deliveries(s, stores, dashers)
    _seed_open_quote(s, stores[0])


def _seed_stores(s: SeedContext) -> list[Store]:
    """Fourteen stores: the home company's, then food, retail and healthcare companies' first; one inactive."""
    pop = s.population
    merchants = [pop.home] + [c for c in pop.customers if c.industry in ("food", "retail", "healthcare")]
    merchants += [c for c in pop.customers if c not in merchants]
    return [
        s.create(
            Store,
            business_name=c.name,
            name=f"{c.name} - {c.place.city}",
            address=c.address,
            phone=c.phone,
            currency=c.place.currency,
            active=k != 4,
        )
        for k, c in enumerate(merchants[:14])
    ]


def _seed_dashers(s: SeedContext, cities: set[str]) -> dict[str, list[Dasher]]:
    """Three in four consumers of the stores' cities as dashers; return them by city."""
    vehicles: tuple[Vehicle, ...] = ("car", "bike", "scooter", "car", "walker")
    dashers: dict[str, list[Dasher]] = {}
    for i, p in enumerate(s.population.consumers):
        if p.place.city not in cities or i % 4 == 3:
            continue
        dashers.setdefault(p.place.city, []).append(
            s.create(
                Dasher,
                name=p.name,
                phone=p.phone,
                city=p.place.city,
                vehicle=vehicles[i % len(vehicles)],
                status="offline" if i % 9 == 5 else "available",
                rating=round(4.2 + (i % 8) / 10, 1),
                completed_deliveries=20 + 13 * i,
            )
        )
    return dashers


def _seed_deliveries(s: SeedContext, stores: Sequence[Store], dashers: dict[str, list[Dasher]]) -> None:
    """Quotes from each active store to up to five consumers in range; all but the fourth became deliveries."""
    plans: tuple[DeliveryStatus, ...] = (
        "delivered",
        "enroute_to_pickup",
        "created",
        "delivered",
        "cancelled",
        "picked_up",
    )
    n = 0
    for st in stores:
        if not st.active:
            continue
        nearby = [p for p in s.population.consumers if p.address.city == st.address.city]
        couriers = dashers.get(st.address.city, [])
        for j, p in enumerate(nearby[:5]):
            km = _distance(st.address, p.address)
            if km > MAX_KM:
                continue
            n += 1
            plan = plans[n % len(plans)]
            created = (
                s.ago(days=n % 5, hours=2, minutes=7 * n)
                if plan in ("delivered", "cancelled")
                else s.ago(minutes=20 + n)
            )
            q = s.create(
                Quote,
                external_delivery_id=f"D-{10000 + n}",
                store_id=st.id,
                dropoff_address=p.address,
                dropoff_contact_name=p.name,
                dropoff_phone=p.phone,
                order_value=s.rng.randint(15, 180) * 100,
                distance_km=km,
                fee=_fee(km),
                currency=st.currency,
                pickup_eta=created + dt.timedelta(minutes=12),
                dropoff_eta=created + dt.timedelta(minutes=17 + round(3 * km)),
                expires_at=created + QUOTE_TTL,
                accepted=j != 3,
                created_at=created,
            )
            if q.accepted:
                _seed_delivery(s, n, st, q, plan, couriers)


def _seed_delivery(s: SeedContext, n: int, st: Store, q: Quote, plan: DeliveryStatus, couriers: list[Dasher]) -> None:
    """The ``n``-th delivery, from an accepted quote; a dasher on the way is marked busy in ``couriers``.

    A delivery that would need a dasher but has none in range stays ``created``.
    """
    km = q.distance_km
    fits = [c for c in couriers if VEHICLE_RANGE[c.vehicle] >= km and c.status == "available"]
    needs_dasher = plan in ("enroute_to_pickup", "picked_up", "delivered")
    if needs_dasher and not fits:
        plan = "created"
    dasher = fits[0] if needs_dasher and fits else None
    if dasher is not None and plan in ("enroute_to_pickup", "picked_up"):
        busy = s.update(dasher, status="on_delivery")
        couriers[couriers.index(dasher)] = busy
        dasher = busy
    contactless = n % 3 == 0
    created = q.created_at
    s.create(
        Delivery,
        external_delivery_id=q.external_delivery_id,
        quote_id=q.id,
        store_id=st.id,
        pickup_address=st.address,
        dropoff_address=q.dropoff_address,
        dropoff_contact_name=q.dropoff_contact_name,
        dropoff_phone=q.dropoff_phone,
        dropoff_instructions="Ring twice, third floor" if n % 4 == 1 else "",
        contactless=contactless,
        signature_required=not contactless and n % 5 == 2,
        order_value=q.order_value,
        distance_km=km,
        fee=q.fee,
        tip=(0, 200, 350, 500)[n % 4],
        currency=st.currency,
        status=plan,
        dasher_id=dasher.id if dasher else None,
        tracking_url=_tracking_url(f"T{100000 + n}"),
        proof_photo_url=f"https://files.example.com/dropoffs/D-{10000 + n}.jpg"
        if plan == "delivered" and contactless
        else None,
        signed_by=q.dropoff_contact_name if plan == "delivered" and not contactless and n % 5 == 2 else None,
        cancel_reason="customer_request" if plan == "cancelled" else None,
        picked_up_at=created + dt.timedelta(minutes=14) if plan in ("picked_up", "delivered") else None,
        delivered_at=created + dt.timedelta(minutes=30) if plan == "delivered" else None,
        created_at=created,
        updated_at=created + dt.timedelta(minutes=30),
    )


def _seed_open_quote(s: SeedContext, st: Store) -> None:
    """One fresh quote, just given, still open for the merchant to accept."""
    p = next((c for c in s.population.consumers if c.address.city == st.address.city), None)
    if p is None:
        return
    km = _distance(st.address, p.address)
    s.create(
        Quote,
        external_delivery_id="D-20001",
        store_id=st.id,
        dropoff_address=p.address,
        dropoff_contact_name=p.name,
        dropoff_phone=p.phone,
        order_value=6_400,
        distance_km=km,
        fee=_fee(km),
        currency=st.currency,
        pickup_eta=s.now + dt.timedelta(minutes=11),
        dropoff_eta=s.now + dt.timedelta(minutes=16 + round(3 * km)),
        expires_at=s.now + dt.timedelta(minutes=4),
        created_at=s.ago(minutes=1),
    )
