"""Hearthline Listings: homes for sale, their listing agents, showings and purchase offers.

Modeled on the Zillow Bridge Listings API and the RESO Web API data dictionary
used by MLS boards (Property, Member/agent, Office, Listing with ListPrice,
StandardStatus and price history, Showing, Offer): a property has at most one
live listing; a coming-soon listing can be neither shown nor bid on; showings of
one listing and of one buyer's agent never overlap; an offer needs an earnest
deposit no larger than the price and a closing at least a week out, a cash
offer carries no financing contingency and a buyer keeps one open offer per
listing; the seller counters only above the offer, accepts or rejects it, and
accepting one offer puts the listing under contract and rejects the others;
closing the sale records the sold price and makes the buyer the owner.
"""

from __future__ import annotations

import datetime as dt
import statistics
from typing import Annotated, Any, Literal

from pydantic import BaseModel, Field, StringConstraints

from compoworld.engine.context import Ctx
from compoworld.engine.entities import Company, Person
from compoworld.engine.errors import Conflict, RuleViolation
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
    PersonName,
    Phone,
    PostalAddress,
    Quantity,
    Text,
    Url,
)
from compoworld.services.kit.examples import first_example
from compoworld.services.kit.time import utc_at
from compoworld.world.population import PLACES

__all__ = ["service"]

service = Service(
    "listings",
    title="Hearthline Listings",
    category="real_estate",
    modeled_on="Zillow Bridge Listings API / RESO Web API (Property, Member, Office, Listing, Showing, Offer)",
    description="A multiple listing service for homes for sale: properties and their owners, licensed agents "
    "and their brokerages, listings with price changes, buyer showings, purchase offers with counter-offers "
    "and acceptance, and closed sales.",
)

AgentId = Annotated[str, IdOf("listings.agent")]
PropertyId = Annotated[str, IdOf("listings.property")]
ListingId = Annotated[str, IdOf("listings.listing")]
ShowingId = Annotated[str, IdOf("listings.showing")]
OfferId = Annotated[str, IdOf("listings.offer")]
MlsNumber = Annotated[str, StringConstraints(pattern=r"^MLS-[0-9]{6}$")]
License = Annotated[str, StringConstraints(pattern=r"^[A-Z]{2}-RE-[0-9]{6}$")]

PropertyType = Literal["single_family", "condo", "townhouse", "multi_family"]
ListingStatus = Literal["coming_soon", "active", "pending", "sold", "withdrawn", "expired"]
ShowingStatus = Literal["scheduled", "cancelled", "completed"]
OfferStatus = Literal["submitted", "countered", "accepted", "rejected", "withdrawn"]
Financing = Literal["cash", "conventional", "fha", "va"]
Contingency = Literal["inspection", "appraisal", "financing", "sale_of_home"]

LIVE: tuple[str, ...] = ("coming_soon", "active", "pending")
"""Listing statuses that keep the property on the market."""
OPEN_OFFER: tuple[str, ...] = ("submitted", "countered")
MIN_CLOSING_DAYS = 7
CURRENCY_OF: dict[str, str] = {p.country: p.currency for p in PLACES}
MINOR: dict[str, int] = {"JPY": 1}
"""Minor units per major unit where not 100."""


class Agent(Record):
    """A licensed real-estate agent (RESO Member) and the brokerage (Office) they work for."""

    id: AgentId
    name: PersonName
    """Full name."""
    email: Email
    """Work e-mail; unique."""
    phone: Phone
    """Direct phone number."""
    brokerage: CompanyName
    """The brokerage office the agent works for."""
    office_address: PostalAddress
    """Address of the brokerage office."""
    license_number: License
    """Real-estate license number (country code, RE, six digits)."""
    city: City
    """City the agent mainly works in."""
    country: Country
    """Country of that city."""
    active: bool = True
    """Inactive agents cannot list, show or bid."""


class Property(Record):
    """A home: where it is, what it is and who owns it."""

    id: PropertyId
    address: PostalAddress
    """Street address; one property per address."""
    property_type: PropertyType
    """single_family, condo, townhouse or multi_family."""
    bedrooms: Quantity
    """Number of bedrooms."""
    bathrooms: Annotated[float, Field(ge=0, le=20)]
    """Number of bathrooms (a half bath counts 0.5)."""
    living_area_sqft: Annotated[int, Field(ge=100, le=50000)]
    """Finished living area in square feet."""
    year_built: Annotated[int, Field(ge=1700, le=2030)]
    """Year of construction."""
    owner_name: PersonName
    """Name of the owner of record."""
    owner_email: Email
    """E-mail of the owner of record."""


class Listing(Record):
    """A property offered for sale at a list price through a listing agent."""

    id: ListingId
    mls_number: Annotated[MlsNumber, Generated("sequence", "MLS-{n:06d}")]
    """Public MLS number of the listing."""
    property_id: PropertyId
    """The property for sale."""
    address: PostalAddress
    """The property's address (copied from the property)."""
    city: City
    """City of the property."""
    property_type: PropertyType
    """Type of the property (copied from the property)."""
    listing_agent_id: AgentId
    """The seller's agent."""
    list_price: Cents
    """Asking price in minor units of the currency."""
    original_price: Cents
    """The asking price when first listed."""
    currency: Currency
    """Currency of the prices (the country's)."""
    status: ListingStatus = "active"
    """coming_soon, active, pending (under contract), sold, withdrawn or expired."""
    listed_on: Date
    """Day the listing goes or went live."""
    expires_on: Date
    """Day the listing agreement ends."""
    description: Text = ""
    """Public remarks."""
    url: Url
    """Public listing page."""
    price_changes: Quantity = 0
    """How many times the price was changed."""
    sold_price: Cents | None = None
    """Final price of a sold listing."""
    sold_on: Date | None = None
    """Closing date of a sold listing."""
    buyer_name: PersonName | None = None
    """Who bought it."""
    buyer_email: Email | None = None
    """E-mail of the buyer."""
    updated_at: Annotated[DateTime, UPDATED]
    """When the listing last changed."""


class Showing(Record):
    """A buyer's private tour of a listed home with their agent."""

    id: ShowingId
    listing_id: ListingId
    """The listing shown."""
    buyer_agent_id: AgentId
    """The agent who accompanies the buyer."""
    buyer_name: PersonName
    """The prospective buyer."""
    buyer_email: Email
    """The buyer's e-mail."""
    start: DateTime
    """When the tour starts."""
    end: DateTime
    """When it ends."""
    status: ShowingStatus = "scheduled"
    """scheduled, cancelled or completed."""
    created_at: Annotated[DateTime, CREATED]
    """When it was booked."""


class Offer(Record):
    """A buyer's purchase offer on a listing and the seller's response."""

    id: OfferId
    listing_id: ListingId
    """The listing bid on."""
    buyer_name: PersonName
    """The buyer."""
    buyer_email: Email
    """The buyer's e-mail."""
    buyer_agent_id: AgentId
    """The buyer's agent."""
    amount: Cents
    """Offered price (for an accepted counter: the agreed price)."""
    currency: Currency
    """Currency of the amounts (the listing's)."""
    earnest_money: Cents
    """Good-faith deposit, at most the amount."""
    financing: Financing
    """cash, conventional, fha or va."""
    contingencies: list[Contingency] = Field(default_factory=list, max_length=4)
    """Conditions of the offer."""
    closing_date: Date
    """Proposed closing date."""
    status: OfferStatus = "submitted"
    """submitted, countered (seller countered), accepted, rejected or withdrawn."""
    counter_amount: Cents | None = None
    """The seller's counter price."""
    expires_at: DateTime
    """Until when the offer (or counter) can be answered."""
    decided_at: DateTime | None = None
    """When it was accepted, rejected or withdrawn."""
    created_at: Annotated[DateTime, CREATED]
    """When it was submitted."""


# -- guards --------------------------------------------------------------------------------------


def _active_agent(ctx: Ctx, agent_id: str, field: str) -> Agent:
    agent = ctx.get(Agent, agent_id, field=field)
    if not agent.active:
        raise RuleViolation(
            f"agent {agent.name} ({agent.id}) is inactive", field=field, hint="pick an active agent (list_agents)"
        )
    return agent


def _guard_property(ctx: Ctx, new: Any, old: Any) -> None:
    if old is None or new.address != old.address:
        for other in ctx.scan(Property):
            if other.id != new.id and other.address == new.address:
                raise Conflict(
                    f"property {other.id} already has this address",
                    field="address",
                    hint="use the existing property",
                )


def _guard_listing_create(ctx: Ctx, new: Any, old: Any) -> None:
    _active_agent(ctx, new.listing_agent_id, "listing_agent_id")
    prop = ctx.get(Property, new.property_id, field="property_id")
    for other in ctx.where(Listing, property_id=prop.id):
        if other.id != new.id and other.status in LIVE:
            raise Conflict(
                f"property {prop.id} is already on the market as {other.mls_number} ({other.status})",
                field="property_id",
                hint="change that listing's price or withdraw it first",
            )
    expected = CURRENCY_OF.get(prop.address.country)
    if expected is not None and new.currency != expected:
        raise RuleViolation(
            f"homes in {prop.address.country} are listed in {expected}",
            field="currency",
            hint=f"give the price in {expected}",
        )
    if new.list_price <= 0:
        raise RuleViolation("a list price must be positive", field="list_price", hint="give the asking price")
    _check_expiry(new)


def _check_expiry(listing: Listing) -> None:
    if listing.expires_on <= listing.listed_on:
        raise RuleViolation(
            "a listing must expire after it is listed",
            field="expires_on",
            hint=f"choose a date after {listing.listed_on}",
        )


def _guard_listing_update(ctx: Ctx, new: Any, old: Any) -> None:
    if old.status in ("sold", "withdrawn", "expired") and new.status == old.status:
        raise RuleViolation(
            f"listing {old.mls_number} is {old.status} and cannot change",
            field="listing_id",
            hint="create a new listing to put the property back on the market",
        )
    _check_expiry(new)
    if new.status == "withdrawn":
        for showing in ctx.where(Showing, listing_id=new.id, status="scheduled"):
            ctx.update(showing, status="cancelled")
        for offer in ctx.where(Offer, listing_id=new.id):
            if offer.status in OPEN_OFFER:
                ctx.update(offer, status="rejected", decided_at=ctx.now())


agents = service.resource(
    Agent,
    name="agent",
    plural="agents",
    prefix="agt",
    create=False,
    filters=("email", "brokerage", "city", "active"),
    search=("name", "email", "brokerage"),
    update=("phone", "brokerage", "active"),
    delete=False,
    unique=("email", "license_number"),
)
properties = service.resource(
    Property,
    name="property",
    plural="properties",
    prefix="prp",
    filters=("property_type", "owner_email", "bedrooms"),
    search=("owner_name", "owner_email"),
    update=("bedrooms", "bathrooms", "living_area_sqft"),
    delete=False,
    guard_create=_guard_property,
)
listings = service.resource(
    Listing,
    name="listing",
    plural="listings",
    prefix="lst",
    create=False,
    filters=("status", "city", "property_id", "listing_agent_id", "mls_number", "property_type"),
    search=("description", "mls_number", "city"),
    update=("description", "expires_on"),
    delete=False,
    transitions={
        "withdraw": Transition(
            "status",
            ("coming_soon", "active"),
            "withdrawn",
            "take the listing off the market",
            description="Take a coming-soon or active listing off the market: its scheduled showings are "
            "cancelled and its open offers rejected. A listing under contract cannot be withdrawn.",
            destructive=True,
        )
    },
    guard_update=_guard_listing_update,
)
showings = service.resource(
    Showing,
    name="showing",
    plural="showings",
    prefix="shw",
    create=False,
    filters=("listing_id", "buyer_agent_id", "buyer_email", "status"),
    delete=False,
    transitions={
        "cancel": Transition("status", ("scheduled",), "cancelled", "cancel the showing", destructive=True),
    },
)
offers = service.resource(
    Offer,
    name="offer",
    plural="offers",
    prefix="ofr",
    create=False,
    filters=("listing_id", "buyer_email", "buyer_agent_id", "status", "financing"),
    delete=False,
)


# -- helpers -------------------------------------------------------------------------------------


def _listing_url(mls_number: str) -> str:
    return f"https://www.hearthline.com/homes/{mls_number}"


def _open_listing(ctx: Ctx, listing_id: str, action: str) -> Listing:
    listing = ctx.get(Listing, listing_id, field="listing_id")
    if listing.status == "coming_soon":
        raise RuleViolation(
            f"listing {listing.mls_number} is coming soon (live on {listing.listed_on}); it cannot be {action} yet",
            field="listing_id",
            hint="wait until the listing is active",
        )
    if listing.status != "active":
        raise RuleViolation(
            f"listing {listing.mls_number} is {listing.status}; only active listings can be {action}",
            field="listing_id",
            hint="find active listings with listings__list_listings status='active'",
        )
    return listing


def _open_offer(ctx: Ctx, offer_id: str, statuses: tuple[str, ...], what: str) -> Offer:
    offer = ctx.get(Offer, offer_id, field="offer_id")
    if offer.status not in statuses:
        raise RuleViolation(
            f"offer {offer.id} is {offer.status}; only {' or '.join(statuses)} offers can be {what}",
            field="offer_id",
            hint="list the listing's offers to see which are still open",
        )
    if offer.expires_at < ctx.now():
        raise RuleViolation(
            f"offer {offer.id} expired at {offer.expires_at.isoformat()}",
            field="offer_id",
            hint="the buyer must submit a new offer with listings__submit_offer",
        )
    return offer


def _put_under_contract(ctx: Ctx, offer: Offer, amount: int) -> Offer:
    listing = ctx.get(Listing, offer.listing_id)
    if listing.status != "active":
        raise RuleViolation(
            f"listing {listing.mls_number} is {listing.status}; only an active listing can go under contract",
            field="offer_id",
            hint="the listing is no longer available",
        )
    now = ctx.now()
    for other in ctx.where(Offer, listing_id=listing.id):
        if other.id != offer.id and other.status in OPEN_OFFER:
            ctx.update(other, status="rejected", decided_at=now)
    ctx.update(listing, status="pending")
    return ctx.update(offer, status="accepted", amount=amount, decided_at=now)


def _overlaps(a_start: dt.datetime, a_end: dt.datetime, b_start: dt.datetime, b_end: dt.datetime) -> bool:
    return a_start < b_end and b_start < a_end


# -- examples -------------------------------------------------------------------------------------


def _example_list(ctx: Ctx) -> dict[str, Any] | None:
    for prop in ctx.scan(Property):
        if all(lst.status not in LIVE for lst in ctx.where(Listing, property_id=prop.id)):
            agent = ctx.first(Agent, active=True)
            if agent is None:
                return None
            return {
                "property_id": prop.id,
                "listing_agent_id": agent.id,
                "list_price": 450_000_00,
                "currency": CURRENCY_OF.get(prop.address.country, "USD"),
                "expires_on": (ctx.today() + dt.timedelta(days=180)).isoformat(),
            }
    return None


def _example_active(ctx: Ctx) -> dict[str, Any] | None:
    listing = ctx.first(Listing, status="active")
    return None if listing is None else {"listing_id": listing.id, "new_price": listing.list_price - 5_000_00}


def _example_showing(ctx: Ctx) -> dict[str, Any] | None:
    listing = ctx.first(Listing, status="active")
    if listing is None:
        return None
    agent = next((a for a in ctx.where(Agent, active=True) if a.id != listing.listing_agent_id), None)
    if agent is None:
        return None
    start = (ctx.now() + dt.timedelta(days=20)).replace(hour=10, minute=0, second=0, microsecond=0)
    return {
        "listing_id": listing.id,
        "buyer_agent_id": agent.id,
        "buyer_name": "Jordan Avery",
        "buyer_email": "jordan.avery@mailbox.net",
        "start": start.isoformat(),
        "duration_minutes": 45,
    }


def _example_offer(ctx: Ctx) -> dict[str, Any] | None:
    listing = ctx.first(Listing, status="active")
    agent = ctx.first(Agent, active=True)
    if listing is None or agent is None:
        return None
    return {
        "listing_id": listing.id,
        "buyer_name": "Jordan Avery",
        "buyer_email": "jordan.avery@mailbox.net",
        "buyer_agent_id": agent.id,
        "amount": listing.list_price - 10_000 * MINOR.get(listing.currency, 100),
        "earnest_money": listing.list_price // 50,
        "financing": "conventional",
        "contingencies": ["inspection", "financing"],
        "closing_date": (ctx.today() + dt.timedelta(days=30)).isoformat(),
    }


def _live_offer(ctx: Ctx, status: str) -> Offer | None:
    for offer in ctx.where(Offer, status=status):
        listing = ctx.get(Listing, offer.listing_id)
        if offer.expires_at >= ctx.now() and listing.status == "active":
            return offer
    return None


def _example_counter(ctx: Ctx) -> dict[str, Any] | None:
    offer = _live_offer(ctx, "submitted")
    return None if offer is None else {"offer_id": offer.id, "counter_amount": offer.amount + offer.amount // 50}


def _example_submitted(ctx: Ctx) -> dict[str, Any] | None:
    offer = _live_offer(ctx, "submitted")
    return None if offer is None else {"offer_id": offer.id}


def _example_countered(ctx: Ctx) -> dict[str, Any] | None:
    offer = _live_offer(ctx, "countered")
    return None if offer is None else {"offer_id": offer.id, "accept": True}


_example_market = first_example(Listing, where={"status": "active"}, fields={"city": "city"})


# -- domain tools ----------------------------------------------------------------------------------


@service.tool(intent="list the property for sale", write=True, example=_example_list)
def list_property(
    ctx: Ctx,
    property_id: PropertyId,
    listing_agent_id: AgentId,
    list_price: Cents,
    currency: Currency,
    expires_on: Date,
    listed_on: Date | None = None,
    description: Text = "",
) -> Listing:
    """Put a property on the market: a new listing with an MLS number and a public page.

    A property has at most one live (coming-soon, active or pending) listing; the price
    is in the currency of the property's country. A listing dated in the future starts
    as coming soon and cannot be shown or bid on before that day.

    Args:
        property_id: The property to sell.
        listing_agent_id: The seller's agent (must be active).
        list_price: Asking price in minor units.
        currency: Currency of the price; the property's country's currency.
        expires_on: Last day of the listing agreement.
        listed_on: Day the listing goes live; omit for today.
        description: Public remarks.
    """
    prop = ctx.get(Property, property_id, field="property_id")
    day = listed_on or ctx.today()
    if day < ctx.today():
        raise RuleViolation(
            "a new listing cannot go live in the past", field="listed_on", hint="use today or a later date"
        )
    listing = ctx.create(
        Listing,
        property_id=prop.id,
        address=prop.address,
        city=prop.address.city,
        property_type=prop.property_type,
        listing_agent_id=listing_agent_id,
        list_price=list_price,
        original_price=list_price,
        currency=currency,
        status="coming_soon" if day > ctx.today() else "active",
        listed_on=day,
        expires_on=expires_on,
        description=description,
        url="https://www.hearthline.com/homes/new",
    )
    listing = ctx.update(listing, url=_listing_url(listing.mls_number))
    _guard_listing_create(ctx, listing, None)
    return listing


@service.tool(intent="change the asking price of the listing", write=True, example=_example_active)
def change_price(ctx: Ctx, listing_id: ListingId, new_price: Cents) -> Listing:
    """Change the asking price of a coming-soon or active listing (price history counts the change).

    Args:
        listing_id: The listing.
        new_price: New asking price in minor units.
    """
    listing = ctx.get(Listing, listing_id, field="listing_id")
    if listing.status not in ("coming_soon", "active"):
        raise RuleViolation(
            f"listing {listing.mls_number} is {listing.status}; only coming-soon or active listings change price",
            field="listing_id",
            hint="a listing under contract or closed keeps its price",
        )
    if new_price == listing.list_price:
        raise RuleViolation(f"the listing already asks {new_price}", field="new_price", hint="give a different price")
    if new_price <= 0:
        raise RuleViolation("a price must be positive", field="new_price", hint="give the new asking price")
    return ctx.update(listing, list_price=new_price, price_changes=listing.price_changes + 1)


@service.tool(intent="schedule a showing of the home", write=True, example=_example_showing)
def schedule_showing(
    ctx: Ctx,
    listing_id: ListingId,
    buyer_agent_id: AgentId,
    buyer_name: PersonName,
    buyer_email: Email,
    start: DateTime,
    duration_minutes: Annotated[int, Field(ge=15, le=120)] = 30,
) -> Showing:
    """Book a private showing of an active listing for a buyer and their agent.

    Showings of one listing never overlap, and neither do the showings one agent attends.

    Args:
        listing_id: The listing to tour.
        buyer_agent_id: The agent accompanying the buyer (must be active).
        buyer_name: The prospective buyer.
        buyer_email: The buyer's e-mail.
        start: When the tour starts; in the future.
        duration_minutes: Length of the tour, 15 to 120 minutes.
    """
    listing = _open_listing(ctx, listing_id, "shown")
    _active_agent(ctx, buyer_agent_id, "buyer_agent_id")
    if start <= ctx.now():
        raise RuleViolation("a showing must start in the future", field="start", hint="pick a later time")
    end = start + dt.timedelta(minutes=duration_minutes)
    for other in ctx.where(Showing, listing_id=listing.id, status="scheduled"):
        if _overlaps(start, end, other.start, other.end):
            raise Conflict(
                f"the home is already being shown {other.start.isoformat()} to {other.end.isoformat()}",
                field="start",
                hint=f"pick a time after {other.end.isoformat()} or before {other.start.isoformat()}",
            )
    for other in ctx.where(Showing, buyer_agent_id=buyer_agent_id, status="scheduled"):
        if _overlaps(start, end, other.start, other.end):
            raise Conflict(
                f"agent {buyer_agent_id} is at another showing ({other.id}) then",
                field="buyer_agent_id",
                hint="pick another time or another agent",
            )
    return ctx.create(
        Showing,
        listing_id=listing.id,
        buyer_agent_id=buyer_agent_id,
        buyer_name=buyer_name,
        buyer_email=buyer_email,
        start=start,
        end=end,
    )


@service.tool(intent="make an offer on the home", write=True, example=_example_offer)
def submit_offer(
    ctx: Ctx,
    listing_id: ListingId,
    buyer_name: PersonName,
    buyer_email: Email,
    buyer_agent_id: AgentId,
    amount: Cents,
    earnest_money: Cents,
    financing: Financing,
    closing_date: Date,
    contingencies: Annotated[list[Contingency], Field(max_length=4)] = [],  # noqa: B006 - pydantic copies defaults
    response_hours: Annotated[int, Field(ge=1, le=72)] = 48,
) -> Offer:
    """Submit a buyer's purchase offer on an active listing.

    The earnest money cannot exceed the amount, closing must be at least 7 days out, a cash
    offer has no financing contingency, the owner cannot bid on their own home and a buyer
    keeps one open offer per listing.

    Args:
        listing_id: The listing.
        buyer_name: The buyer.
        buyer_email: The buyer's e-mail.
        buyer_agent_id: The buyer's agent (must be active).
        amount: Offered price in minor units of the listing's currency.
        earnest_money: Good-faith deposit in minor units.
        financing: cash, conventional, fha or va.
        closing_date: Proposed closing date.
        contingencies: Conditions: inspection, appraisal, financing, sale_of_home.
        response_hours: Hours the seller has to answer (1 to 72).
    """
    listing = _open_listing(ctx, listing_id, "bid on")
    _active_agent(ctx, buyer_agent_id, "buyer_agent_id")
    prop = ctx.get(Property, listing.property_id)
    if buyer_email == prop.owner_email:
        raise RuleViolation(
            f"{buyer_email} owns the property", field="buyer_email", hint="the owner cannot bid on their own home"
        )
    if amount <= 0:
        raise RuleViolation("an offer must be positive", field="amount", hint="give the offered price")
    if earnest_money > amount:
        raise RuleViolation(
            "the earnest money exceeds the offered price",
            field="earnest_money",
            hint="earnest money is usually 1-3% of the price",
        )
    earliest = ctx.today() + dt.timedelta(days=MIN_CLOSING_DAYS)
    if closing_date < earliest:
        raise RuleViolation(
            f"closing must be at least {MIN_CLOSING_DAYS} days out",
            field="closing_date",
            hint=f"propose {earliest} or later",
        )
    if financing == "cash" and "financing" in contingencies:
        raise RuleViolation(
            "a cash offer cannot carry a financing contingency",
            field="contingencies",
            hint="drop the financing contingency or choose a loan type",
        )
    for other in ctx.where(Offer, listing_id=listing.id, buyer_email=buyer_email):
        if other.status in OPEN_OFFER:
            raise Conflict(
                f"{buyer_email} already has open offer {other.id} on this listing",
                field="buyer_email",
                hint="wait for the seller's answer or respond to their counter",
            )
    return ctx.create(
        Offer,
        listing_id=listing.id,
        buyer_name=buyer_name,
        buyer_email=buyer_email,
        buyer_agent_id=buyer_agent_id,
        amount=amount,
        currency=listing.currency,
        earnest_money=earnest_money,
        financing=financing,
        contingencies=sorted(set(contingencies)),
        closing_date=closing_date,
        expires_at=ctx.now() + dt.timedelta(hours=response_hours),
    )


@service.tool(intent="counter the buyer's offer", write=True, example=_example_counter)
def counter_offer(
    ctx: Ctx, offer_id: OfferId, counter_amount: Cents, response_hours: Annotated[int, Field(ge=1, le=72)] = 48
) -> Offer:
    """Answer a submitted offer with a higher counter price; the buyer then accepts or declines it.

    Args:
        offer_id: The submitted offer.
        counter_amount: The seller's price, above the offered amount.
        response_hours: Hours the buyer has to answer (1 to 72).
    """
    offer = _open_offer(ctx, offer_id, ("submitted",), "countered")
    _open_listing(ctx, offer.listing_id, "countered on")
    if counter_amount <= offer.amount:
        raise RuleViolation(
            f"a counter must be above the offered {offer.amount}",
            field="counter_amount",
            hint="accept the offer with listings__accept_offer instead",
        )
    return ctx.update(
        offer,
        status="countered",
        counter_amount=counter_amount,
        expires_at=ctx.now() + dt.timedelta(hours=response_hours),
    )


@service.tool(intent="accept the buyer's offer", write=True, example=_example_submitted)
def accept_offer(ctx: Ctx, offer_id: OfferId) -> Offer:
    """Accept a submitted offer: the listing goes under contract (pending) and every other open offer is rejected.

    Args:
        offer_id: The submitted, unexpired offer.
    """
    offer = _open_offer(ctx, offer_id, ("submitted",), "accepted by the seller")
    return _put_under_contract(ctx, offer, offer.amount)


@service.tool(intent="reject the offer", write=True, example=_example_submitted)
def reject_offer(ctx: Ctx, offer_id: OfferId) -> Offer:
    """Reject a submitted or countered offer.

    Args:
        offer_id: The open offer.
    """
    offer = ctx.get(Offer, offer_id, field="offer_id")
    if offer.status not in OPEN_OFFER:
        raise RuleViolation(
            f"offer {offer.id} is {offer.status}", field="offer_id", hint="only open offers can be rejected"
        )
    return ctx.update(offer, status="rejected", decided_at=ctx.now())


@service.tool(intent="answer the seller's counter-offer", write=True, example=_example_countered)
def respond_to_counter(ctx: Ctx, offer_id: OfferId, accept: bool) -> Offer:
    """The buyer's answer to a counter: accepting agrees on the counter price and puts the listing under contract.

    Args:
        offer_id: The countered offer.
        accept: True to accept the counter price, False to decline it (the offer is then withdrawn).
    """
    offer = _open_offer(ctx, offer_id, ("countered",), "answered")
    if not accept:
        return ctx.update(offer, status="withdrawn", decided_at=ctx.now())
    assert offer.counter_amount is not None
    return _put_under_contract(ctx, offer, offer.counter_amount)


@service.tool(
    intent="close the sale of the home",
    write=True,
    example=first_example(Listing, "listing_id", where={"status": "pending"}),
)
def close_sale(ctx: Ctx, listing_id: ListingId) -> Listing:
    """Close a listing under contract: it becomes sold at the accepted price and the buyer becomes the owner.

    Args:
        listing_id: The pending listing.
    """
    listing = ctx.get(Listing, listing_id, field="listing_id")
    if listing.status != "pending":
        raise RuleViolation(
            f"listing {listing.mls_number} is {listing.status}; only listings under contract close",
            field="listing_id",
            hint="accept an offer first (listings__accept_offer)",
        )
    offer = ctx.first(Offer, listing_id=listing.id, status="accepted")
    if offer is None:  # pragma: no cover - a pending listing always has its accepted offer
        raise RuleViolation("the listing has no accepted offer", field="listing_id", hint="accept an offer first")
    prop = ctx.get(Property, listing.property_id)
    ctx.update(prop, owner_name=offer.buyer_name, owner_email=offer.buyer_email)
    for showing in ctx.where(Showing, listing_id=listing.id, status="scheduled"):
        ctx.update(showing, status="cancelled")
    return ctx.update(
        listing,
        status="sold",
        sold_price=offer.amount,
        sold_on=ctx.today(),
        buyer_name=offer.buyer_name,
        buyer_email=offer.buyer_email,
    )


class MarketSummary(BaseModel):
    """Market statistics of one city."""

    city: City = Field(description="The city.")
    currency: Currency | None = Field(description="Currency of the prices; null when nothing is listed.")
    active_listings: int = Field(description="Listings for sale now.")
    median_list_price: Cents | None = Field(description="Median asking price of the active listings.")
    median_price_per_sqft: Cents | None = Field(description="Median asking price per square foot.")
    pending_listings: int = Field(description="Listings under contract.")
    sold_last_90_days: int = Field(description="Sales closed in the last 90 days.")
    median_sold_price: Cents | None = Field(description="Median price of those sales.")
    median_days_on_market: int | None = Field(description="Median days from listing to closing of those sales.")


@service.tool(intent="get the housing market summary of the city", example=_example_market)
def market_summary(ctx: Ctx, city: City) -> MarketSummary:
    """Summarise a city's market: active and pending listings, asking prices and recent sales.

    Args:
        city: City name.
    """
    key = city.strip().casefold()
    mine = [lst for lst in ctx.scan(Listing) if lst.city.casefold() == key]
    active = [lst for lst in mine if lst.status == "active"]
    since = ctx.today() - dt.timedelta(days=90)
    sold = [lst for lst in mine if lst.status == "sold" and lst.sold_on is not None and lst.sold_on >= since]
    per_sqft: list[int] = []
    for lst in active:
        prop = ctx.get(Property, lst.property_id)
        per_sqft.append(lst.list_price // prop.living_area_sqft)

    def median(values: list[int]) -> int | None:
        return int(statistics.median(values)) if values else None

    return MarketSummary(
        city=mine[0].city if mine else city.strip(),
        currency=mine[0].currency if mine else None,
        active_listings=len(active),
        median_list_price=median([lst.list_price for lst in active]),
        median_price_per_sqft=median(per_sqft),
        pending_listings=sum(1 for lst in mine if lst.status == "pending"),
        sold_last_90_days=len(sold),
        median_sold_price=median([lst.sold_price or 0 for lst in sold]),
        median_days_on_market=median([(lst.sold_on - lst.listed_on).days for lst in sold if lst.sold_on]),
    )


# -- seed --------------------------------------------------------------------------------------------

PER_SQFT: dict[str, int] = {
    "Berlin": 480,
    "Munich": 820,
    "Paris": 950,
    "Lyon": 460,
    "Madrid": 420,
    "Milan": 520,
    "Amsterdam": 640,
    "Stockholm": 6200,
    "London": 880,
    "Manchester": 310,
    "New York": 1150,
    "Chicago": 260,
    "Austin": 330,
    "San Francisco": 1050,
    "Seattle": 560,
    "Toronto": 980,
    "Tokyo": 95000,
    "Singapore": 1800,
    "Sydney": 1250,
    "Sao Paulo": 950,
}
"""Typical asking price per square foot, in major units of the city's currency."""
REMARKS = (
    "Bright home with an open kitchen and a private garden.",
    "Renovated throughout, close to schools and transit.",
    "Quiet street, original details, new roof.",
    "Corner unit with city views and a balcony.",
    "Move-in ready with a two-car garage.",
)


_LISTING_PLAN: tuple[ListingStatus, ...] = (
    "active",
    "active",
    "pending",
    "active",
    "sold",
    "active",
    "coming_soon",
    "active",
    "withdrawn",
    "active",
    "sold",
    "pending",
    "active",
    "expired",
    "active",
    "sold",
    "active",
    "active",
    "pending",
    "active",
    "coming_soon",
    "active",
)
"""The status of the listing of each of the first homes."""


@service.seeder
def seed(s: SeedContext) -> None:
    """Agents of a few brokerages, consumers' homes, listings in every status with showings and offers."""
    agents = _seed_agents(s)
    consumers = list(s.population.consumers)
    props = _seed_properties(s, consumers[:32])
    _seed_listings(s, props, [a for a in agents if a.active], consumers[32:])


def _seed_agents(s: SeedContext) -> list[Agent]:
    """The people of up to five brokerages (consulting firms first); every seventh is inactive."""
    pop = s.population
    customers = list(pop.customers)
    brokerages = [c for c in customers if c.industry == "consulting"][:3]
    brokerages += [c for c in customers if c not in brokerages][: 5 - len(brokerages)]
    agent_people: list[tuple[Person, Company]] = []
    for company in brokerages:
        agent_people.extend((p, company) for p in pop.people_at(company))
    return [
        s.create(
            Agent,
            name=p.name,
            email=p.email,
            phone=p.phone,
            brokerage=brokerage.name,
            office_address=brokerage.address,
            license_number=f"{p.place.country}-RE-{100000 + i * 7919 % 900000:06d}",
            city=p.place.city,
            country=p.place.country,
            active=i % 7 != 3,
        )
        for i, (p, brokerage) in enumerate(agent_people)
    ]


def _seed_properties(s: SeedContext, owners: list[Person]) -> list[Property]:
    """Each owner's home at their address."""
    types: tuple[PropertyType, ...] = ("single_family", "condo", "townhouse", "single_family", "multi_family")
    props: list[Property] = []
    for i, owner in enumerate(owners):
        ptype = types[i % len(types)]
        beds = {"condo": 1 + i % 3, "multi_family": 4 + i % 3}.get(ptype, 2 + i % 4)
        sqft = 450 + beds * 320 + s.rng.randint(0, 30) * 10
        props.append(
            s.create(
                Property,
                address=owner.address,
                property_type=ptype,
                bedrooms=beds,
                bathrooms=1 + (beds // 2) + (0.5 if i % 3 == 0 else 0.0),
                living_area_sqft=sqft,
                year_built=1905 + s.rng.randint(0, 118),
                owner_name=owner.name,
                owner_email=owner.email,
            )
        )
    return props


def _seed_listings(s: SeedContext, props: list[Property], agents: list[Agent], buyers: list[Person]) -> None:
    """A listing per entry of ``_LISTING_PLAN``; active, pending and sold ones with their showings and offers."""
    buyer_i = 0
    slot = 0  # upcoming showings get distinct two-hour slots, so none overlap
    for i, status in enumerate(_LISTING_PLAN):
        prop = props[i]
        local = [a for a in agents if a.country == prop.address.country] or agents
        agent = local[i % len(local)]
        others = [a for a in agents if a.id != agent.id]
        listing = _seed_listing(s, i, status, prop, agent)
        if status not in ("active", "pending", "sold"):
            continue
        slot = _seed_showings(s, i, listing, others, [buyers[(buyer_i + k) % len(buyers)] for k in range(3)], slot)
        buyer_i = _seed_offers(s, i, listing, prop, others, buyers, buyer_i)


def _seed_listing(s: SeedContext, i: int, status: ListingStatus, prop: Property, agent: Agent) -> Listing:
    """The ``i``-th listing, priced from the city's price per square foot; some active and sold ones reduced."""
    today = s.now.date()
    country, city = prop.address.country, prop.address.city
    cur = CURRENCY_OF.get(country, "USD")
    minor = MINOR.get(cur, 100)
    per = PER_SQFT.get(city, 400)
    price = (prop.living_area_sqft * per * s.rng.randint(90, 115) // 100) // 1000 * 1000 * minor
    if status == "coming_soon":
        listed = today + dt.timedelta(days=3 + i % 5)
    elif status == "expired":
        listed = today - dt.timedelta(days=200)
    else:
        listed = today - dt.timedelta(days=5 + (i * 11) % 80)
    if status == "sold":
        listed = today - dt.timedelta(days=60 + i)
    expires = listed + dt.timedelta(days=180) if status != "expired" else today - dt.timedelta(days=20)
    reduced = status in ("active", "sold") and i % 4 == 1
    listing = s.create(
        Listing,
        property_id=prop.id,
        address=prop.address,
        city=city,
        property_type=prop.property_type,
        listing_agent_id=agent.id,
        list_price=price * 96 // 100 // minor * minor if reduced else price,
        original_price=price,
        currency=cur,
        status=status,
        listed_on=listed,
        expires_on=expires,
        description=REMARKS[i % len(REMARKS)],
        url="https://www.hearthline.com/homes/new",
        price_changes=1 if reduced else 0,
    )
    return s.update(listing, url=_listing_url(listing.mls_number))


def _seed_showings(
    s: SeedContext, i: int, listing: Listing, others: list[Agent], buyers: list[Person], slot: int
) -> int:
    """Showings of the ``i``-th listing: past ones completed, upcoming ones scheduled; returns the next free slot."""
    today = s.now.date()
    for k in range(1 + i % 3):
        buyer = buyers[k]
        past = listing.status != "active" or k == 0
        if past:
            day, hour = listing.listed_on + dt.timedelta(days=2 + k), 10 + 2 * k + i % 3
        else:
            day, hour = today + dt.timedelta(days=1 + slot // 4), 9 + 2 * (slot % 4)
            slot += 1
        start = utc_at(day, hour)
        s.create(
            Showing,
            listing_id=listing.id,
            buyer_agent_id=others[(i + k) % len(others)].id,
            buyer_name=buyer.name,
            buyer_email=buyer.email,
            start=start,
            end=start + dt.timedelta(minutes=45),
            status="completed" if past else "scheduled",
            created_at=s.now - dt.timedelta(days=3 + k),
        )
    return slot


def _seed_offers(
    s: SeedContext, i: int, listing: Listing, prop: Property, others: list[Agent], buyers: list[Person], buyer_i: int
) -> int:
    """Offers on the ``i``-th listing: the winner of a pending or sold one, open ones on some active ones.

    Returns:
        The index of the next buyer to make an offer.
    """
    today = s.now.date()
    status = listing.status
    minor = MINOR.get(listing.currency, 100)
    n_offers = {"active": i % 3, "pending": 2, "sold": 1}[status]
    for k in range(n_offers):
        buyer = buyers[buyer_i % len(buyers)]
        buyer_i += 1
        won = status in ("pending", "sold") and k == 0
        amount = listing.list_price * (97 + k + i % 4) // 100 // minor * minor
        created = s.now - dt.timedelta(days=(30 if status == "sold" else 2 + k), hours=i)
        if won:
            offer_status: OfferStatus = "accepted"
        elif status == "active":
            offer_status = "countered" if k == 1 else "submitted"
        else:
            offer_status = "rejected"
        cash = (i + k) % 4 == 0
        s.create(
            Offer,
            listing_id=listing.id,
            buyer_name=buyer.name,
            buyer_email=buyer.email,
            buyer_agent_id=others[(i + k + 1) % len(others)].id,
            amount=amount,
            currency=listing.currency,
            earnest_money=amount // 50 // minor * minor,
            financing="cash" if cash else ("conventional", "fha", "va")[(i + k) % 3],
            contingencies=["inspection"] if cash else ["appraisal", "financing", "inspection"],
            closing_date=today + dt.timedelta(days=30 + i),
            status=offer_status,
            counter_amount=listing.list_price if offer_status == "countered" else None,
            expires_at=s.now + dt.timedelta(hours=24 + 6 * k) if offer_status in OPEN_OFFER else created,
            decided_at=created + dt.timedelta(hours=20) if offer_status not in OPEN_OFFER else None,
            created_at=created,
        )
        if won and status == "sold":
            s.update(
                listing,
                sold_price=amount,
                sold_on=today - dt.timedelta(days=5 + i % 20),
                buyer_name=buyer.name,
                buyer_email=buyer.email,
            )
            s.update(prop, owner_name=buyer.name, owner_email=buyer.email)
    return buyer_i
