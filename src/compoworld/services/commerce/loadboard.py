"""Haulmark Loads: truckload freight brokerage with loads, vetted carriers, bids, rate confirmations and tracking.

Modeled on the DAT Freight & Analytics API (load postings with lanes, equipment and rates; carrier
authority and insurance via CarrierWatch) and Convoy's shipper API (tenders, rate confirmations,
tracking events, proof of delivery, detention accessorials): a load is posted on a lane with an
equipment type and moves posted → tendered → booked → in_transit → delivered → completed (or
cancelled before pickup). Only an approved carrier with active operating authority, insurance valid
through delivery and the right equipment may bid; accepting a bid tenders the load with a rate
confirmation that the carrier signs (booked) or rejects (posted again). Tracking events follow the
stop order (at_pickup → picked_up → at_delivery → delivered); proof of delivery completes a delivered
load; detention is paid at $75 an hour beyond two free hours at a stop.
"""

from __future__ import annotations

import datetime as dt
from typing import Annotated, Any, Literal

from pydantic import Field, StringConstraints

from compoworld.engine.context import Ctx
from compoworld.engine.errors import Conflict, RuleViolation
from compoworld.engine.records import CREATED, UPDATED, Generated, Record
from compoworld.engine.service import Service, Transition
from compoworld.engine.state import SeedContext
from compoworld.engine.types import (
    Cents,
    City,
    CompanyName,
    Date,
    DateTime,
    Email,
    IdOf,
    OrderNumber,
    PersonName,
    Phone,
)
from compoworld.services.kit.examples import first_example
from compoworld.services.kit.time import utc_at

__all__ = ["service"]

service = Service(
    "loadboard",
    title="Haulmark Loads",
    category="freight_brokerage",
    modeled_on="DAT Freight & Analytics API (load postings, lanes, equipment, CarrierWatch authority and "
    "insurance) and Convoy shipper API (tenders, rate confirmations, tracking, POD, detention)",
    description="Truckload freight brokerage: loads posted on lanes with equipment and target rates, carriers "
    "vetted for operating authority and insurance, carrier bids, tenders with rate confirmations, tracking "
    "updates from pickup to delivery, proof of delivery and detention charges.",
)

CarrierId = Annotated[str, IdOf("loadboard.carrier")]
LoadId = Annotated[str, IdOf("loadboard.load")]
BidId = Annotated[str, IdOf("loadboard.bid")]
RateConId = Annotated[str, IdOf("loadboard.rate_confirmation")]
EventId = Annotated[str, IdOf("loadboard.tracking_event")]
DetentionId = Annotated[str, IdOf("loadboard.detention")]

State = Annotated[str, StringConstraints(pattern=r"^[A-Z]{2}$")]
"""A US state or Canadian province code."""
McNumber = Annotated[str, StringConstraints(pattern=r"^MC\d{6,7}$")]
"""An FMCSA motor carrier number."""
Equipment = Literal["dry_van", "reefer", "flatbed", "step_deck", "power_only"]
LoadStatus = Literal["posted", "tendered", "booked", "in_transit", "delivered", "completed", "cancelled"]
EventKind = Literal["at_pickup", "picked_up", "in_transit", "at_delivery", "delivered"]
Stop = Literal["pickup", "delivery"]

MIN_AUTO_LIABILITY = 75_000_000
"""$750,000 auto liability, the federal minimum for general freight."""
DETENTION_FREE_HOURS = 2
DETENTION_RATE = 7_500
"""Cents per hour beyond the free time."""
ORDER: tuple[EventKind, ...] = ("at_pickup", "picked_up", "in_transit", "at_delivery", "delivered")


class Carrier(Record):
    """A trucking company that hauls loads."""

    id: CarrierId
    name: CompanyName
    """Legal name."""
    mc_number: McNumber
    """FMCSA motor carrier number (unique)."""
    dispatcher_name: PersonName
    """The dispatcher."""
    dispatcher_email: Email
    """The dispatcher's e-mail."""
    dispatcher_phone: Phone | None = None
    """The dispatcher's phone."""
    equipment: tuple[Equipment, ...]
    """Equipment types in the fleet."""
    authority: Literal["active", "inactive", "revoked"] = "active"
    """Operating authority status at FMCSA."""
    auto_liability: Cents
    """Auto liability coverage in cents."""
    insurance_expires: Date
    """When the insurance certificate expires."""
    status: Literal["approved", "blocked"] = "approved"
    """approved (may bid) or blocked."""
    created_at: Annotated[DateTime, CREATED]
    """When it was onboarded."""


class Load(Record):
    """A truckload shipment posted for carriers."""

    id: LoadId
    reference: Annotated[OrderNumber, Generated("sequence", "LD-{n:05d}")]
    """Load reference, e.g. LD-00012."""
    shipper_name: CompanyName
    """Who ships it."""
    consignee_name: CompanyName
    """Who receives it."""
    origin_city: City
    """Pickup city."""
    origin_state: State
    """Pickup state."""
    destination_city: City
    """Delivery city."""
    destination_state: State
    """Delivery state."""
    miles: Annotated[int, Field(ge=1, le=6000)]
    """Lane distance in miles."""
    equipment: Equipment
    """Equipment required."""
    weight_lbs: Annotated[int, Field(ge=1, le=48000)]
    """Cargo weight in pounds."""
    pickup_date: Date
    """Pickup day."""
    delivery_date: Date
    """Delivery day."""
    target_rate: Cents
    """The all-in rate the shipper will pay, in cents."""
    status: LoadStatus = "posted"
    """posted, tendered, booked, in_transit, delivered, completed or cancelled."""
    carrier_id: CarrierId | None = None
    """The carrier it is tendered or booked to."""
    booked_rate: Cents | None = None
    """The agreed linehaul in cents."""
    posted_by: Email
    """The employee who posted it."""
    pod_signed_by: PersonName | None = None
    """Who signed the proof of delivery."""
    updated_at: Annotated[DateTime, UPDATED]
    """When it last changed."""


class Bid(Record):
    """A carrier's offer to haul a load."""

    id: BidId
    load_id: LoadId
    """The load."""
    carrier_id: CarrierId
    """The carrier."""
    amount: Annotated[int, Field(ge=1, le=10**9)]
    """The all-in rate offered, in cents."""
    status: Literal["pending", "accepted", "rejected", "withdrawn"] = "pending"
    """pending, accepted, rejected or withdrawn."""
    created_at: Annotated[DateTime, CREATED]
    """When it was placed."""


class RateConfirmation(Record):
    """The tender a carrier signs: the agreed rate and terms for a load."""

    id: RateConId
    load_id: LoadId
    """The load."""
    carrier_id: CarrierId
    """The carrier."""
    linehaul: Cents
    """Agreed rate in cents."""
    status: Literal["sent", "signed", "rejected"] = "sent"
    """sent, signed (load booked) or rejected (load posted again)."""
    signed_by: PersonName | None = None
    """Who signed for the carrier."""
    created_at: Annotated[DateTime, CREATED]
    """When it was sent."""


class TrackingEvent(Record):
    """A check call or ELD update on a load."""

    id: EventId
    load_id: LoadId
    """The load."""
    kind: EventKind
    """at_pickup, picked_up, in_transit, at_delivery or delivered."""
    city: City
    """Where the truck was."""
    state: State
    """Its state."""
    at: DateTime
    """When."""


class Detention(Record):
    """A detention charge for waiting at a stop beyond the free time."""

    id: DetentionId
    load_id: LoadId
    """The load."""
    stop: Stop
    """pickup or delivery."""
    hours_waited: Annotated[float, Field(gt=0, le=72)]
    """Hours from arrival to departure."""
    amount: Cents
    """Charge in cents (billable hours × $75)."""
    status: Literal["requested", "approved", "denied"] = "requested"
    """requested, approved or denied."""
    created_at: Annotated[DateTime, CREATED]
    """When it was requested."""


# -- rules ------------------------------------------------------------------------------------


def _staff(ctx: Ctx, email: str, field: str) -> None:
    if email not in {p.email for p in ctx.population.employees}:
        raise RuleViolation(f"{email} is not a user of the account", field=field, hint="use an employee's e-mail")


def _load(ctx: Ctx, load_id: str, allowed: tuple[LoadStatus, ...], verb: str) -> Load:
    load = ctx.get(Load, load_id, field="load_id")
    if load.status not in allowed:
        raise RuleViolation(
            f"load {load.reference} is {load.status}; it can be {verb} only when {' or '.join(allowed)}",
            field="load_id",
            hint="check the load's status with loadboard__get_load",
        )
    return load


def eligible(carrier: Carrier, load: Load) -> str | None:
    """Why a carrier may not haul a load, or None when it may."""
    if carrier.status != "approved":
        return f"carrier {carrier.name} is blocked"
    if carrier.authority != "active":
        return f"carrier {carrier.name}'s operating authority is {carrier.authority}"
    if carrier.insurance_expires < load.delivery_date:
        return f"carrier {carrier.name}'s insurance expires {carrier.insurance_expires}, before delivery"
    if carrier.auto_liability < MIN_AUTO_LIABILITY:
        return f"carrier {carrier.name} carries less than $750,000 auto liability"
    if load.equipment not in carrier.equipment:
        return f"carrier {carrier.name} has no {load.equipment} equipment"
    return None


def _guard_load(ctx: Ctx, new: Any, old: Any) -> None:
    if old.status not in ("posted",):
        raise RuleViolation(
            f"load {old.reference} is {old.status}", field="load_id", hint="only a posted load is edited"
        )
    if new.delivery_date < new.pickup_date:
        raise RuleViolation("delivery is before pickup", field="delivery_date", hint="deliver on or after pickup")


def _guard_cancel(ctx: Ctx, new: Any, old: Any) -> None:
    if new.status == "cancelled" and old.status != "cancelled":
        for b in ctx.where(Bid, load_id=new.id, status="pending"):
            ctx.update(b, status="rejected")
        for rc in ctx.where(RateConfirmation, load_id=new.id, status="sent"):
            ctx.update(rc, status="rejected")
    else:
        _guard_load(ctx, new, old)


def _guard_carrier(ctx: Ctx, new: Any, old: Any) -> None:
    if not new.equipment or len(set(new.equipment)) != len(new.equipment):
        raise RuleViolation("list each equipment type once", field="equipment", hint="e.g. dry_van, reefer")


carriers = service.resource(
    Carrier,
    name="carrier",
    plural="carriers",
    prefix="car",
    create=False,
    filters=("status", "authority", "mc_number"),
    search=("name", "dispatcher_name"),
    update=("dispatcher_email", "dispatcher_phone", "equipment", "auto_liability", "insurance_expires"),
    delete=False,
    transitions={
        "block": Transition("status", ("approved",), "blocked", "block the carrier"),
        "approve": Transition("status", ("blocked",), "approved", "approve the carrier again"),
    },
    guard_update=_guard_carrier,
)
loads = service.resource(
    Load,
    name="load",
    plural="loads",
    prefix="load",
    create=False,
    filters=("status", "equipment", "origin_state", "destination_state", "carrier_id", "consignee_name"),
    search=("origin_city", "destination_city", "consignee_name", "reference"),
    update=("target_rate", "pickup_date", "delivery_date", "weight_lbs"),
    delete=False,
    transitions={
        "cancel": Transition(
            "status",
            ("posted", "tendered", "booked"),
            "cancelled",
            "cancel the load",
            description="Cancel a load not yet picked up; pending bids and unsigned rate confirmations are rejected.",
            destructive=True,
        ),
    },
    guard_update=_guard_cancel,
)
bids = service.resource(
    Bid,
    name="bid",
    plural="bids",
    prefix="bid",
    create=False,
    get=False,
    filters=("load_id", "carrier_id", "status"),
    delete=False,
    transitions={"withdraw": Transition("status", ("pending",), "withdrawn", "withdraw the bid")},
)
rate_confirmations = service.resource(
    RateConfirmation,
    name="rate_confirmation",
    plural="rate_confirmations",
    prefix="rc",
    create=False,
    filters=("load_id", "carrier_id", "status"),
    delete=False,
)
events = service.resource(
    TrackingEvent,
    name="tracking_event",
    plural="tracking_events",
    prefix="trk",
    create=False,
    get=False,
    filters=("load_id", "kind"),
    delete=False,
)
detentions = service.resource(
    Detention,
    name="detention",
    plural="detentions",
    prefix="det",
    create=False,
    get=False,
    filters=("load_id", "status", "stop"),
    delete=False,
    transitions={
        "approve": Transition("status", ("requested",), "approved", "approve the detention charge"),
        "deny": Transition("status", ("requested",), "denied", "deny the detention charge"),
    },
)


# -- domain tools -----------------------------------------------------------------------------


def _example_onboard(ctx: Ctx) -> dict[str, Any] | None:
    c = ctx.population.contacts[-1]
    return {
        "name": "Lone Star Haulers LLC",
        "mc_number": "MC7654321",
        "dispatcher_name": c.name,
        "dispatcher_email": c.email,
        "equipment": ["dry_van", "reefer"],
        "auto_liability": 100_000_000,
        "insurance_expires": (ctx.today() + dt.timedelta(days=200)).isoformat(),
    }


@service.tool(intent="onboard the carrier", write=True, example=_example_onboard)
def onboard_carrier(
    ctx: Ctx,
    name: CompanyName,
    mc_number: McNumber,
    dispatcher_name: PersonName,
    dispatcher_email: Email,
    equipment: Annotated[list[Equipment], Field(min_length=1, max_length=5)],
    auto_liability: Cents,
    insurance_expires: Date,
    dispatcher_phone: Phone | None = None,
) -> Carrier:
    """Onboard a carrier after checking its FMCSA authority and insurance; MC numbers are unique.

    Args:
        name: Legal name.
        mc_number: FMCSA motor carrier number, e.g. MC123456.
        dispatcher_name: The dispatcher.
        dispatcher_email: The dispatcher's e-mail.
        equipment: Equipment types in the fleet.
        auto_liability: Auto liability coverage in cents (at least $750,000).
        insurance_expires: When the insurance certificate expires (in the future).
        dispatcher_phone: The dispatcher's phone.
    """
    if ctx.first(Carrier, mc_number=mc_number) is not None:
        raise Conflict(f"{mc_number} is already onboarded", field="mc_number", hint="update that carrier instead")
    if auto_liability < MIN_AUTO_LIABILITY:
        raise RuleViolation(
            "auto liability below $750,000", field="auto_liability", hint="ask for a higher certificate of insurance"
        )
    if insurance_expires <= ctx.today():
        raise RuleViolation(
            "the insurance has expired", field="insurance_expires", hint="ask for a current certificate"
        )
    carrier = ctx.create(
        Carrier,
        name=name,
        mc_number=mc_number,
        dispatcher_name=dispatcher_name,
        dispatcher_email=dispatcher_email,
        dispatcher_phone=dispatcher_phone,
        equipment=tuple(equipment),
        auto_liability=auto_liability,
        insurance_expires=insurance_expires,
    )
    _guard_carrier(ctx, carrier, None)
    return carrier


def _example_post(ctx: Ctx) -> dict[str, Any] | None:
    return {
        "consignee_name": ctx.population.customers[0].name,
        "origin_city": "Chicago",
        "origin_state": "IL",
        "destination_city": "Dallas",
        "destination_state": "TX",
        "miles": 925,
        "equipment": "dry_van",
        "weight_lbs": 38000,
        "pickup_date": (ctx.today() + dt.timedelta(days=3)).isoformat(),
        "delivery_date": (ctx.today() + dt.timedelta(days=5)).isoformat(),
        "target_rate": 240_000,
        "posted_by": ctx.population.employees[0].email,
    }


@service.tool(intent="post the load", write=True, example=_example_post)
def post_load(
    ctx: Ctx,
    consignee_name: CompanyName,
    origin_city: City,
    origin_state: State,
    destination_city: City,
    destination_state: State,
    miles: Annotated[int, Field(ge=1, le=6000)],
    equipment: Equipment,
    weight_lbs: Annotated[int, Field(ge=1, le=48000)],
    pickup_date: Date,
    delivery_date: Date,
    target_rate: Cents,
    posted_by: Email,
) -> Load:
    """Post a load from the home company on a lane for carriers to bid on.

    Args:
        consignee_name: Who receives it.
        origin_city: Pickup city.
        origin_state: Pickup state code.
        destination_city: Delivery city.
        destination_state: Delivery state code.
        miles: Lane distance.
        equipment: Equipment required.
        weight_lbs: Cargo weight (at most 48,000 lb).
        pickup_date: Pickup day (today or later).
        delivery_date: Delivery day (on or after pickup).
        target_rate: All-in rate the shipper will pay, in cents.
        posted_by: The employee posting it.
    """
    _staff(ctx, posted_by, "posted_by")
    if pickup_date < ctx.today():
        raise RuleViolation("pickup is in the past", field="pickup_date", hint="pick today or later")
    if delivery_date < pickup_date:
        raise RuleViolation("delivery is before pickup", field="delivery_date", hint="deliver on or after pickup")
    return ctx.create(
        Load,
        shipper_name=ctx.population.home.name,
        consignee_name=consignee_name,
        origin_city=origin_city,
        origin_state=origin_state,
        destination_city=destination_city,
        destination_state=destination_state,
        miles=miles,
        equipment=equipment,
        weight_lbs=weight_lbs,
        pickup_date=pickup_date,
        delivery_date=delivery_date,
        target_rate=target_rate,
        posted_by=posted_by,
    )


def _example_bid(ctx: Ctx) -> dict[str, Any] | None:
    for load in ctx.where(Load, status="posted"):
        for c in ctx.scan(Carrier):
            if eligible(c, load) is None and not ctx.where(Bid, load_id=load.id, carrier_id=c.id, status="pending"):
                return {"load_id": load.id, "carrier_id": c.id, "amount": load.target_rate - 10_000}
    return None


@service.tool(intent="bid on the load", write=True, example=_example_bid)
def place_bid(ctx: Ctx, load_id: LoadId, carrier_id: CarrierId, amount: Annotated[int, Field(ge=1, le=10**9)]) -> Bid:
    """A vetted carrier offers to haul a posted load; one pending bid per carrier and load.

    Args:
        load_id: The posted load.
        carrier_id: The carrier (approved, active authority, insured through delivery, right equipment).
        amount: The all-in rate offered, in cents.
    """
    load = _load(ctx, load_id, ("posted",), "bid on")
    carrier = ctx.get(Carrier, carrier_id, field="carrier_id")
    why = eligible(carrier, load)
    if why is not None:
        raise RuleViolation(why, field="carrier_id", hint="only vetted carriers with the right equipment may bid")
    if ctx.where(Bid, load_id=load.id, carrier_id=carrier.id, status="pending"):
        raise Conflict("the carrier already has a pending bid", field="carrier_id", hint="withdraw it first")
    return ctx.create(Bid, load_id=load.id, carrier_id=carrier.id, amount=amount)


@service.tool(
    intent="accept the carrier's bid",
    write=True,
    example=first_example(Bid, "bid_id", where={"status": "pending"}),
)
def accept_bid(ctx: Ctx, bid_id: BidId) -> RateConfirmation:
    """Accept a pending bid: the load is tendered to the carrier with a rate confirmation; other bids are rejected.

    Args:
        bid_id: The bid.
    """
    bid = ctx.get(Bid, bid_id, field="bid_id")
    if bid.status != "pending":
        raise Conflict(f"bid {bid.id} is {bid.status}", field="bid_id", hint="accept a pending bid")
    load = _load(ctx, bid.load_id, ("posted",), "tendered")
    why = eligible(ctx.get(Carrier, bid.carrier_id), load)
    if why is not None:
        raise RuleViolation(why, field="bid_id", hint="the carrier no longer qualifies; accept another bid")
    for other in ctx.where(Bid, load_id=load.id, status="pending"):
        ctx.update(other, status="accepted" if other.id == bid.id else "rejected")
    ctx.update(load, status="tendered", carrier_id=bid.carrier_id, booked_rate=bid.amount)
    return ctx.create(RateConfirmation, load_id=load.id, carrier_id=bid.carrier_id, linehaul=bid.amount)


@service.tool(
    intent="sign the rate confirmation",
    write=True,
    example=first_example(RateConfirmation, "rate_confirmation_id", where={"status": "sent"}, signed_by="Dana Ruiz"),
)
def sign_rate_confirmation(ctx: Ctx, rate_confirmation_id: RateConId, signed_by: PersonName) -> Load:
    """The carrier signs a sent rate confirmation: the load is booked to it.

    Args:
        rate_confirmation_id: The rate confirmation.
        signed_by: Who signs for the carrier.
    """
    rc = ctx.get(RateConfirmation, rate_confirmation_id, field="rate_confirmation_id")
    if rc.status != "sent":
        raise Conflict(
            f"rate confirmation {rc.id} is {rc.status}", field="rate_confirmation_id", hint="nothing to sign"
        )
    load = _load(ctx, rc.load_id, ("tendered",), "booked")
    ctx.update(rc, status="signed", signed_by=signed_by)
    return ctx.update(load, status="booked")


@service.tool(
    intent="reject the rate confirmation",
    write=True,
    example=first_example(RateConfirmation, "rate_confirmation_id", where={"status": "sent"}),
)
def reject_rate_confirmation(ctx: Ctx, rate_confirmation_id: RateConId) -> Load:
    """The carrier turns down the tender: the load is posted again without a carrier.

    Args:
        rate_confirmation_id: The rate confirmation.
    """
    rc = ctx.get(RateConfirmation, rate_confirmation_id, field="rate_confirmation_id")
    if rc.status != "sent":
        raise Conflict(f"rate confirmation {rc.id} is {rc.status}", field="rate_confirmation_id", hint="nothing to do")
    load = _load(ctx, rc.load_id, ("tendered",), "re-posted")
    ctx.update(rc, status="rejected")
    return ctx.update(load, status="posted", carrier_id=None, booked_rate=None)


def _next_kind(ctx: Ctx, load: Load) -> EventKind | None:
    done = {e.kind for e in ctx.where(TrackingEvent, load_id=load.id)}
    return next((k for k in ORDER if k not in done and k != "in_transit"), None)


def _example_track(ctx: Ctx) -> dict[str, Any] | None:
    for status in ("booked", "in_transit"):
        for load in ctx.where(Load, status=status):
            kind = _next_kind(ctx, load)
            if kind is not None:
                return {"load_id": load.id, "kind": kind, "city": load.origin_city, "state": load.origin_state}
    return None


@service.tool(intent="record the load's tracking update", write=True, example=_example_track)
def add_tracking_event(ctx: Ctx, load_id: LoadId, kind: EventKind, city: City, state: State) -> TrackingEvent:
    """Record a check call on a booked or moving load, in stop order; picked_up and delivered move the load.

    Args:
        load_id: The booked or in-transit load.
        kind: at_pickup, picked_up, in_transit (any time after pickup), at_delivery or delivered.
        city: Where the truck is.
        state: Its state code.
    """
    load = _load(ctx, load_id, ("booked", "in_transit"), "tracked")
    if kind == "in_transit":
        if load.status != "in_transit":
            raise RuleViolation("the load is not picked up yet", field="kind", hint="record picked_up first")
    else:
        expected = _next_kind(ctx, load)
        if kind != expected:
            raise RuleViolation(
                f"the next stop event is {expected}, not {kind}", field="kind", hint=f"record {expected} first"
            )
    event = ctx.create(TrackingEvent, load_id=load.id, kind=kind, city=city, state=state, at=ctx.now())
    if kind == "picked_up":
        ctx.update(load, status="in_transit")
    elif kind == "delivered":
        ctx.update(load, status="delivered")
    return event


@service.tool(
    intent="upload the proof of delivery",
    write=True,
    example=first_example(Load, "load_id", where={"status": "delivered"}, signed_by="Sam Ortega"),
)
def submit_pod(ctx: Ctx, load_id: LoadId, signed_by: PersonName) -> Load:
    """Attach the consignee-signed proof of delivery to a delivered load: the load is completed.

    Args:
        load_id: The delivered load.
        signed_by: Who signed the bill of lading at delivery.
    """
    load = _load(ctx, load_id, ("delivered",), "completed")
    return ctx.update(load, status="completed", pod_signed_by=signed_by)


def _example_detention(ctx: Ctx) -> dict[str, Any] | None:
    for load in ctx.where(Load, status="delivered"):
        if not ctx.where(Detention, load_id=load.id, stop="delivery"):
            return {"load_id": load.id, "stop": "delivery", "hours_waited": 4.5}
    return None


@service.tool(intent="request detention for the load", write=True, example=_example_detention)
def request_detention(
    ctx: Ctx, load_id: LoadId, stop: Stop, hours_waited: Annotated[float, Field(gt=0, le=72)]
) -> Detention:
    """Claim detention for a stop the truck has left, beyond two free hours; one claim per stop.

    Args:
        load_id: The load.
        stop: pickup or delivery.
        hours_waited: Hours from arrival to departure at the stop.
    """
    load = ctx.get(Load, load_id, field="load_id")
    left = {"pickup": ("in_transit", "delivered", "completed"), "delivery": ("delivered", "completed")}[stop]
    if load.status not in left:
        raise RuleViolation(f"the truck has not left the {stop} yet", field="stop", hint="claim after departure")
    if ctx.where(Detention, load_id=load.id, stop=stop):
        raise Conflict(f"detention at {stop} was already claimed", field="stop", hint="one claim per stop")
    billable = hours_waited - DETENTION_FREE_HOURS
    if billable <= 0:
        raise RuleViolation(
            f"the first {DETENTION_FREE_HOURS} hours are free", field="hours_waited", hint="no detention is owed"
        )
    return ctx.create(
        Detention, load_id=load.id, stop=stop, hours_waited=hours_waited, amount=round(billable * DETENTION_RATE)
    )


# -- seed -------------------------------------------------------------------------------------

LANES: tuple[tuple[str, str, str, str, int], ...] = (
    ("Chicago", "IL", "Dallas", "TX", 925),
    ("Atlanta", "GA", "Charlotte", "NC", 245),
    ("Los Angeles", "CA", "Phoenix", "AZ", 372),
    ("Newark", "NJ", "Columbus", "OH", 535),
    ("Memphis", "TN", "Indianapolis", "IN", 465),
    ("Houston", "TX", "Denver", "CO", 1030),
    ("Seattle", "WA", "Salt Lake City", "UT", 840),
    ("Miami", "FL", "Jacksonville", "FL", 345),
)
EQUIPMENT: tuple[Equipment, ...] = ("dry_van", "reefer", "flatbed", "dry_van", "step_deck")
PLAN: tuple[LoadStatus, ...] = (
    "posted",
    "posted",
    "tendered",
    "booked",
    "in_transit",
    "delivered",
    "completed",
    "cancelled",
)


@service.seeder
def seed(s: SeedContext) -> None:
    """Carriers from the world's companies (one blocked, one with lapsed insurance), loads to customers in every status."""
    pop = s.population
    today = s.now.date()
    ops = pop.staff("Operations", fallback=2)
    carriers: list[Carrier] = []
    for k, company in enumerate(pop.customers[-8:]):
        contact = pop.first_contact(company)
        if contact is None:
            continue
        carriers.append(
            s.create(
                Carrier,
                name=f"{company.name} Trucking",
                mc_number=f"MC{100200 + 7919 * k}",
                dispatcher_name=contact.name,
                dispatcher_email=contact.email,
                dispatcher_phone=contact.phone,
                equipment=(EQUIPMENT[k % 5], EQUIPMENT[(k + 1) % 5]) if k % 3 else ("dry_van", "reefer", "flatbed"),
                authority="revoked" if k == 5 else "active",
                auto_liability=100_000_000,
                insurance_expires=today + dt.timedelta(days=3 if k == 4 else 120 + 30 * k),
                status="blocked" if k == 6 else "approved",
                created_at=s.ago(days=300 - 20 * k),
            )
        )
    for n, company in enumerate(pop.customers[:16]):
        o_city, o_st, d_city, d_st, miles = LANES[n % len(LANES)]
        status = PLAN[n % len(PLAN)]
        ahead = status in ("posted", "tendered", "booked", "cancelled")
        pickup = today + dt.timedelta(days=(3 + n % 4) if ahead else -1 if status == "in_transit" else -(4 + n % 3))
        equip: Equipment = ("dry_van", "reefer", "flatbed")[n % 3]
        ok = [c for c in carriers if c.status == "approved" and c.authority == "active" and equip in c.equipment]
        hauler = ok[n % len(ok)] if ok and status not in ("posted", "cancelled") else None
        rate = 250 * miles + 30_000
        load = s.create(
            Load,
            shipper_name=pop.home.name,
            consignee_name=company.name,
            origin_city=o_city,
            origin_state=o_st,
            destination_city=d_city,
            destination_state=d_st,
            miles=miles,
            equipment=equip,
            weight_lbs=22000 + 1500 * n,
            pickup_date=pickup,
            delivery_date=pickup + dt.timedelta(days=1 + miles // 600),
            target_rate=rate,
            status=status if hauler or status in ("posted", "cancelled") else "posted",
            carrier_id=hauler.id if hauler else None,
            booked_rate=rate - 15_000 if hauler else None,
            posted_by=ops[n % len(ops)].email,
            pod_signed_by=pop.people_at(company)[0].name if status == "completed" and pop.people_at(company) else None,
            updated_at=s.ago(hours=5 + n),
        )
        _seed_activity(s, load, carriers)


def _seed_activity(s: SeedContext, load: Load, carriers: list[Carrier]) -> None:
    if load.status == "posted":
        for c in carriers:
            if eligible(c, load) is None and len(s.records(Bid)) % 3 != 2:
                s.create(
                    Bid,
                    load_id=load.id,
                    carrier_id=c.id,
                    amount=load.target_rate - 5_000 * (1 + len(c.name) % 4),
                    created_at=s.ago(hours=3),
                )
                break
        return
    if load.carrier_id is None:
        return
    s.create(
        Bid,
        load_id=load.id,
        carrier_id=load.carrier_id,
        amount=load.booked_rate or 0,
        status="accepted",
        created_at=s.ago(days=2),
    )
    signed = load.status != "tendered"
    s.create(
        RateConfirmation,
        load_id=load.id,
        carrier_id=load.carrier_id,
        linehaul=load.booked_rate or 0,
        status="signed" if signed else "sent",
        signed_by="Dispatch" if signed else None,
        created_at=s.ago(days=2),
    )
    steps = {"in_transit": 2, "delivered": 5, "completed": 5}.get(load.status, 0)
    for k, kind in enumerate((ORDER[0], ORDER[1], ORDER[3], ORDER[4])[: min(steps, 4)] if steps else ()):
        at_origin = k < 2
        s.create(
            TrackingEvent,
            load_id=load.id,
            kind=kind,
            city=load.origin_city if at_origin else load.destination_city,
            state=load.origin_state if at_origin else load.destination_state,
            at=utc_at(load.pickup_date if at_origin else load.delivery_date, 8 + 3 * k),
        )
    if load.status == "delivered":
        s.create(
            Detention,
            load_id=load.id,
            stop="pickup",
            hours_waited=3.0,
            amount=DETENTION_RATE,
            created_at=s.ago(hours=6),
        )
    if load.status == "completed":
        s.create(
            Detention,
            load_id=load.id,
            stop="delivery",
            hours_waited=3.5,
            amount=round(1.5 * DETENTION_RATE),
            status="approved",
            created_at=s.ago(hours=10),
        )
