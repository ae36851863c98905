"""Showfinder: event discovery (events, venues, attractions, classifications, price ranges) and event alerts.

Modeled on the Ticketmaster Discovery API v2: ``/events`` (``keyword``, ``city``,
``countryCode``, ``classificationName``, ``attractionId``, ``venueId``,
``startDateTime``/``endDateTime``, ``sort=date,asc|relevance,desc``), ``/events/{id}``
(``dates.start.localDate``/``localTime``, ``dates.status.code`` = ``onsale``, ``offsale``,
``cancelled``, ``postponed``, ``rescheduled``; ``sales.public`` start and end;
``priceRanges`` with ``min``, ``max`` and ``currency``), ``/events/{id}/offers``
(ticket types), ``/venues``, ``/venues/{id}``, ``/attractions``, ``/attractions/{id}``,
``/classifications`` (segment → genre) and ``/suggest``; ids keep Ticketmaster's shapes
(``vv1…`` events, ``KovZ…`` venues, ``K8vZ…`` attractions).

An open-world service: each city of the world has a stadium, an arena, a theatre and a
club; touring attractions (bands, teams, shows) play there on dates around the world's
first day, so an attraction's upcoming events, a venue's events and the event search
agree. Public sales open 60 days before an event and close when it starts; prices are in
the venue's local currency. Stored state follows Ticketmaster's alerts: an employee's
alert follows an attraction or a keyword (optionally in one city and under a maximum
price), is ``active`` or ``paused``; checking alerts records each new matching event on
sale once as a match, which is ``new``, then ``seen`` or ``dismissed``.
"""

from __future__ import annotations

import datetime as dt
import random
from dataclasses import dataclass
from typing import Annotated, Any, Literal

from pydantic import BaseModel, Field, StringConstraints

from compoworld.engine.context import Ctx
from compoworld.engine.entities import Population
from compoworld.engine.errors import Conflict, NotFound, RuleViolation
from compoworld.engine.service import Service, Transition
from compoworld.engine.state import EPOCH, SeedContext
from compoworld.engine.types import Cents, City, Country, Currency, Date, DateTime, Email, IdOf, SemanticType, Url
from compoworld.services.kit.drawn import per_population
from compoworld.services.kit.examples import fixed_example
from compoworld.services.kit.records import Timestamped
from compoworld.services.kit.text import fold

__all__ = ["service"]

service = Service(
    "eventsearch",
    title="Showfinder",
    category="event_discovery",
    modeled_on="Ticketmaster Discovery API v2 (events, event offers, venues, attractions, classifications, "
    "suggest) with Ticketmaster event alerts",
    description="Event discovery: search concerts, games and shows by keyword, city, date and classification, get "
    "an event's dates, sale status and price ranges, look up venues and attractions and their upcoming events, "
    "and keep the team's alerts on artists, teams and keywords with the events they matched.",
)

EventId = Annotated[str, SemanticType("event.id", kind="ref"), StringConstraints(pattern=r"^vv1[A-Za-z0-9]{6,20}$")]
VenueId = Annotated[str, SemanticType("venue.id", kind="ref"), StringConstraints(pattern=r"^KovZ[A-Za-z0-9]{4,20}$")]
AttractionId = Annotated[
    str, SemanticType("attraction.id", kind="ref"), StringConstraints(pattern=r"^K8vZ[A-Za-z0-9]{4,20}$")
]
AlertId = Annotated[str, IdOf("eventsearch.event_alert")]
MatchId = Annotated[str, IdOf("eventsearch.alert_match")]
Keyword = Annotated[str, StringConstraints(min_length=2, max_length=80)]
Segment = Literal["Music", "Sports", "Arts & Theatre", "Family"]
EventStatus = Literal["onsale", "offsale", "cancelled", "postponed", "rescheduled"]
MAX_ALERTS = 25
SALE_DAYS = 60

# name | segment | genre | venue kinds
_ATTRACTIONS = """\
The Midnight Echoes|Music|Rock|arena,club
Luna Vega|Music|Pop|arena,stadium
Brass & Bones|Music|Jazz|club,theatre
DJ Kairo|Music|Dance/Electronic|club,arena
The Northern Lights Orchestra|Music|Classical|theatre
Velvet Static|Music|Alternative|club
Harbor City FC|Sports|Soccer|stadium
Iron Valley Hawks|Sports|Basketball|arena
Capital Kings|Sports|Hockey|arena
The Phantom Gala|Arts & Theatre|Theatre|theatre
Laugh Riot Live|Arts & Theatre|Comedy|theatre,club
Cirque Lumina|Family|Circus & Specialty Acts|arena
Dino World Live|Family|Children's Theater|theatre,arena"""
_VENUE_KINDS = {
    "stadium": ("Stadium", 50000, (45, 180)),
    "arena": ("Arena", 15000, (40, 220)),
    "theatre": ("Theatre", 1800, (30, 150)),
    "club": ("Club", 600, (20, 60)),
}
"""Kind: name suffix, capacity, price range in the local currency's major unit."""


@dataclass(frozen=True, slots=True)
class _Attraction:
    id: str
    name: str
    segment: str
    genre: str
    kinds: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class _Venue:
    id: str
    name: str
    kind: str
    city: str
    country: str
    timezone: str
    currency: str
    street: str
    postal_code: str
    capacity: int


@dataclass(frozen=True, slots=True)
class _Event:
    id: str
    attraction: str
    venue: str
    day: dt.date
    time: str
    status: str
    price_min: int
    price_max: int


@dataclass(frozen=True, slots=True)
class _Db:
    attractions: dict[str, _Attraction]
    venues: dict[str, _Venue]
    events: dict[str, _Event]


def _code(prefix: str, r: random.Random, n: int = 8) -> str:
    return prefix + "".join(r.choice("ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz0123456789") for _ in range(n))


@per_population
def _build(pop: Population) -> _Db:
    r = random.Random(f"eventsearch:{pop.seed}")
    attractions = {}
    for row in _ATTRACTIONS.splitlines():
        name, segment, genre, kinds = row.split("|")
        a = _Attraction(_code("K8vZ", r), name, segment, genre, tuple(kinds.split(",")))
        attractions[a.id] = a
    venues = {}
    for place in pop.places:
        for kind, (suffix, capacity, _) in _VENUE_KINDS.items():
            v = _Venue(
                _code("KovZ", r),
                f"{place.city} {suffix}" if kind != "club" else f"Club {r.choice(('Nova', 'Echo', 'Vault', 'Loft'))}",
                kind,
                place.city,
                place.country,
                place.timezone,
                place.currency,
                f"{r.randint(1, 300)} {r.choice(('Arena Way', 'Park Avenue', 'Theatre Street', 'Dock Road'))}",
                f"{place.postal_prefix}{r.randint(100, 999)}",
                capacity,
            )
            venues[v.id] = v
    today = EPOCH.date()
    events = {}
    for a in attractions.values():
        stops = [v for v in venues.values() if v.kind in a.kinds]
        for v in r.sample(stops, min(len(stops), 9)):
            day = today + dt.timedelta(days=r.randint(-40, 200))
            lo, hi = _VENUE_KINDS[v.kind][2]
            low = r.randint(lo, (lo + hi) // 2)
            minor = 1 if v.currency in ("JPY", "KRW") else 100
            scale = {"JPY": 150, "SEK": 10, "BRL": 5}.get(v.currency, 1)
            status = r.choices(("onsale", "cancelled", "postponed", "rescheduled"), (20, 1, 1, 1))[0]
            e = _Event(
                _code("vv1", r, 10),
                a.id,
                v.id,
                day,
                r.choice(("19:00", "19:30", "20:00", "15:00" if a.segment == "Family" else "18:00")),
                status,
                low * scale * minor,
                r.randint(low + 10, hi) * scale * minor,
            )
            events[e.id] = e
    return _Db(attractions, venues, events)


def _db(ctx: Ctx) -> _Db:
    return _build(ctx.population)


def _status(e: _Event, today: dt.date) -> EventStatus:
    """The status code on ``today``: a live event is on sale from 60 days before it until it starts."""
    if e.status in ("cancelled", "postponed"):
        return e.status  # type: ignore[return-value]
    if not e.day - dt.timedelta(days=SALE_DAYS) <= today < e.day:
        return "offsale"
    return "rescheduled" if e.status == "rescheduled" else "onsale"


# -- result models -----------------------------------------------------------------------------------------


class Classification(BaseModel):
    """A segment and genre."""

    segment: Segment = Field(description="Music, Sports, Arts & Theatre or Family.")
    genre: str = Field(description="Genre within the segment.")


class Venue(BaseModel):
    """A venue."""

    id: VenueId = Field(description="Ticketmaster venue id.")
    name: str = Field(description="Name.")
    city: City = Field(description="City.")
    country_code: Country = Field(description="Country (ISO 3166-1 alpha-2).")
    address: str = Field(description="Street address.")
    postal_code: str = Field(description="Postal code.")
    timezone: str = Field(description="IANA time zone of local dates and times.")
    capacity: int = Field(description="Seats.")
    upcoming_events: int = Field(description="Events from today on.")


class Attraction(BaseModel):
    """A performer, team or show."""

    id: AttractionId = Field(description="Ticketmaster attraction id.")
    name: str = Field(description="Name.")
    classification: Classification = Field(description="Segment and genre.")
    upcoming_events: int = Field(description="Events from today on.")
    url: Url = Field(description="Attraction page.")


class PriceRange(BaseModel):
    """The price range of standard tickets."""

    min: Cents = Field(description="Lowest price, minor units.")
    max: Cents = Field(description="Highest price, minor units.")
    currency: Currency = Field(description="Currency.")


class Event(BaseModel):
    """An event."""

    id: EventId = Field(description="Ticketmaster event id.")
    name: str = Field(description="Event name (the attraction's).")
    local_date: Date = Field(description="Local start date.")
    local_time: str = Field(description="Local start time, HH:MM.")
    status: EventStatus = Field(description="onsale, offsale, cancelled, postponed or rescheduled.")
    public_sale_start: DateTime = Field(description="When public sales open.")
    public_sale_end: DateTime = Field(description="When they close (the start).")
    price_range: PriceRange = Field(description="Standard ticket prices.")
    classification: Classification = Field(description="Segment and genre.")
    attraction_id: AttractionId = Field(description="The attraction.")
    venue_id: VenueId = Field(description="The venue.")
    venue_name: str = Field(description="The venue's name.")
    city: City = Field(description="The venue's city.")
    url: Url = Field(description="Ticket page.")


class Offer(BaseModel):
    """A ticket type on offer."""

    name: str = Field(description="Standard, Premium or VIP Package.")
    price: Cents = Field(description="Price per ticket, minor units.")
    currency: Currency = Field(description="Currency.")
    limit: int = Field(description="Most tickets per order.")


# -- helpers -----------------------------------------------------------------------------------------------


def _event(ctx: Ctx, e: _Event) -> Event:
    db = _db(ctx)
    a, v = db.attractions[e.attraction], db.venues[e.venue]
    start = dt.datetime.combine(e.day, dt.time(int(e.time[:2]), int(e.time[3:])), tzinfo=dt.UTC)
    return Event(
        id=e.id,
        name=a.name,
        local_date=e.day,
        local_time=e.time,
        status=_status(e, ctx.today()),
        public_sale_start=start - dt.timedelta(days=SALE_DAYS),
        public_sale_end=start,
        price_range=PriceRange(min=e.price_min, max=e.price_max, currency=v.currency),
        classification=Classification(segment=a.segment, genre=a.genre),
        attraction_id=a.id,
        venue_id=v.id,
        venue_name=v.name,
        city=v.city,
        url=f"https://www.ticketmaster.com/event/{e.id}",
    )


def _upcoming(ctx: Ctx, pred: Any) -> int:
    return sum(1 for e in _db(ctx).events.values() if e.day >= ctx.today() and pred(e))


def _venue(ctx: Ctx, v: _Venue) -> Venue:
    return Venue(
        id=v.id,
        name=v.name,
        city=v.city,
        country_code=v.country,
        address=v.street,
        postal_code=v.postal_code,
        timezone=v.timezone,
        capacity=v.capacity,
        upcoming_events=_upcoming(ctx, lambda e: e.venue == v.id),
    )


def _attraction(ctx: Ctx, a: _Attraction) -> Attraction:
    return Attraction(
        id=a.id,
        name=a.name,
        classification=Classification(segment=a.segment, genre=a.genre),
        upcoming_events=_upcoming(ctx, lambda e: e.attraction == a.id),
        url=f"https://www.ticketmaster.com/{'-'.join(fold(a.name).split())}-tickets/artist/{a.id}",
    )


def _get_event(ctx: Ctx, event_id: str) -> _Event:
    e = _db(ctx).events.get(event_id)
    if e is None:
        raise NotFound(f"no event {event_id}", field="event_id", hint="find events with eventsearch__search_events")
    return e


def _get_attraction(ctx: Ctx, attraction_id: str, field: str = "attraction_id") -> _Attraction:
    a = _db(ctx).attractions.get(attraction_id)
    if a is None:
        raise NotFound(
            f"no attraction {attraction_id}", field=field, hint="find it with eventsearch__search_attractions"
        )
    return a


def _matches(
    ctx: Ctx,
    keyword: str | None,
    city: str | None,
    attraction_id: str | None = None,
    venue_id: str | None = None,
    segment: str | None = None,
) -> list[_Event]:
    db, words = _db(ctx), fold(keyword or "").split()
    out = []
    for e in db.events.values():
        a, v = db.attractions[e.attraction], db.venues[e.venue]
        hay = fold(f"{a.name} {a.genre} {v.name}").split()
        if (
            all(w in hay for w in words)
            and (city is None or fold(city) == fold(v.city))
            and (attraction_id is None or e.attraction == attraction_id)
            and (venue_id is None or e.venue == venue_id)
            and (segment is None or a.segment == segment)
        ):
            out.append(e)
    return out


# -- open-world tools --------------------------------------------------------------------------------------


@service.tool(intent="search events", open_world=True, example=lambda ctx: {"city": ctx.population.home.place.city})
def search_events(
    ctx: Ctx,
    keyword: Keyword | None = None,
    city: City | None = None,
    country_code: Country | None = None,
    classification_name: Segment | None = None,
    attraction_id: AttractionId | None = None,
    venue_id: VenueId | None = None,
    start_date: Date | None = None,
    end_date: Date | None = None,
    sort: Literal["date,asc", "relevance,desc"] = "date,asc",
    size: Annotated[int, Field(ge=1, le=100)] = 20,
) -> list[Event]:
    """Search events (/events) by keyword, place, classification, attraction, venue and dates; from today by default.

    Args:
        keyword: Words of the attraction, genre or venue.
        city: Only events in this city.
        country_code: Only events in this country.
        classification_name: Only this segment (Music, Sports, Arts & Theatre, Family).
        attraction_id: Only this attraction's events.
        venue_id: Only this venue's events.
        start_date: Earliest local date (default: today).
        end_date: Latest local date.
        sort: date,asc (soonest first) or relevance,desc (on sale and cheapest first).
        size: Most results.
    """
    start = start_date or ctx.today()
    if end_date is not None and end_date < start:
        raise RuleViolation(f"end_date {end_date} is before {start}", field="end_date", hint="give a later end date")
    db = _db(ctx)
    found = [
        _event(ctx, e)
        for e in _matches(ctx, keyword, city, attraction_id, venue_id, classification_name)
        if start <= e.day
        and (end_date is None or e.day <= end_date)
        and (country_code is None or db.venues[e.venue].country == country_code)
    ]
    if sort == "date,asc":
        found.sort(key=lambda x: (x.local_date, x.local_time, x.id))
    else:
        found.sort(key=lambda x: (x.status != "onsale", x.price_range.min, x.id))
    return found[:size]


def _example_event(ctx: Ctx) -> dict[str, Any]:
    return {"event_id": next(iter(_db(ctx).events))}


@service.tool(intent="get the event's details", open_world=True, example=_example_event)
def get_event(ctx: Ctx, event_id: EventId) -> Event:
    """Get an event (/events/{id}): local date and time, sale status and dates, price range, venue and attraction.

    Args:
        event_id: The Ticketmaster event id.
    """
    return _event(ctx, _get_event(ctx, event_id))


def _example_onsale(ctx: Ctx) -> dict[str, Any]:
    return {"event_id": next(e.id for e in _db(ctx).events.values() if _status(e, ctx.today()) == "onsale")}


@service.tool(intent="get the ticket types on offer for an event", open_world=True, example=_example_onsale)
def get_event_offers(ctx: Ctx, event_id: EventId) -> list[Offer]:
    """Get the ticket types of an event on sale with their prices (/events/{id}/offers).

    Args:
        event_id: The Ticketmaster event id (on sale or rescheduled).
    """
    e = _get_event(ctx, event_id)
    status = _status(e, ctx.today())
    if status not in ("onsale", "rescheduled"):
        raise RuleViolation(
            f"the event is {status}: nothing is on offer", field="event_id", hint="pick an event on sale"
        )
    cur = _db(ctx).venues[e.venue].currency
    return [
        Offer(name="Standard", price=e.price_min, currency=cur, limit=8),
        Offer(name="Premium", price=e.price_max, currency=cur, limit=6),
        Offer(name="VIP Package", price=e.price_max * 3, currency=cur, limit=4),
    ]


@service.tool(intent="search venues", open_world=True, example=lambda ctx: {"city": ctx.population.home.place.city})
def search_venues(ctx: Ctx, keyword: Keyword | None = None, city: City | None = None) -> list[Venue]:
    """Search venues by name words and city (/venues), largest first.

    Args:
        keyword: Words of the name.
        city: Only venues in this city.
    """
    words = fold(keyword or "").split()
    found = [
        v
        for v in _db(ctx).venues.values()
        if all(w in fold(v.name).split() for w in words) and (city is None or fold(city) == fold(v.city))
    ]
    return [_venue(ctx, v) for v in sorted(found, key=lambda v: (-v.capacity, v.id))]


@service.tool(intent="get the venue", open_world=True, example=lambda ctx: {"venue_id": next(iter(_db(ctx).venues))})
def get_venue(ctx: Ctx, venue_id: VenueId) -> Venue:
    """Get a venue (/venues/{id}) with its address, capacity and number of upcoming events.

    Args:
        venue_id: The Ticketmaster venue id.
    """
    v = _db(ctx).venues.get(venue_id)
    if v is None:
        raise NotFound(f"no venue {venue_id}", field="venue_id", hint="find it with eventsearch__search_venues")
    return _venue(ctx, v)


@service.tool(intent="search artists, teams and shows", open_world=True, example=fixed_example(keyword="luna"))
def search_attractions(ctx: Ctx, keyword: Keyword | None = None, segment: Segment | None = None) -> list[Attraction]:
    """Search attractions (/attractions) by name words and segment, most upcoming events first.

    Args:
        keyword: Words of the name.
        segment: Only this segment.
    """
    words = fold(keyword or "").split()
    found = [
        _attraction(ctx, a)
        for a in _db(ctx).attractions.values()
        if all(w in fold(a.name).split() for w in words) and (segment is None or a.segment == segment)
    ]
    return sorted(found, key=lambda a: (-a.upcoming_events, a.id))


@service.tool(
    intent="get the attraction",
    open_world=True,
    example=lambda ctx: {"attraction_id": next(iter(_db(ctx).attractions))},
)
def get_attraction(ctx: Ctx, attraction_id: AttractionId) -> Attraction:
    """Get an attraction (/attractions/{id}) with its classification and number of upcoming events.

    Args:
        attraction_id: The Ticketmaster attraction id.
    """
    return _attraction(ctx, _get_attraction(ctx, attraction_id))


class Suggestions(BaseModel):
    """Suggestions for what is being typed."""

    attractions: list[Attraction] = Field(description="Attractions whose name starts with a word typed.")
    venues: list[Venue] = Field(description="Venues whose name starts with a word typed.")
    events: list[Event] = Field(description="The soonest upcoming events of those attractions and venues.")


@service.tool(
    intent="suggest events, artists and venues as you type", open_world=True, example=fixed_example(keyword="lu")
)
def suggest(ctx: Ctx, keyword: Keyword) -> Suggestions:
    """Suggest attractions, venues and their soonest upcoming events for a few letters typed (/suggest).

    Args:
        keyword: What was typed (a word's beginning is enough).
    """
    db, t = _db(ctx), fold(keyword)

    def hit(name: str) -> bool:
        return any(w.startswith(t) for w in fold(name).split())

    atts = [a for a in db.attractions.values() if hit(a.name)][:5]
    vens = [v for v in db.venues.values() if hit(v.name)][:5]
    ids = {a.id for a in atts} | {v.id for v in vens}
    soon = sorted(
        (e for e in db.events.values() if e.day >= ctx.today() and ids & {e.attraction, e.venue}),
        key=lambda e: (e.day, e.id),
    )
    return Suggestions(
        attractions=[_attraction(ctx, a) for a in atts],
        venues=[_venue(ctx, v) for v in vens],
        events=[_event(ctx, e) for e in soon[:5]],
    )


@service.tool(intent="list event classifications", open_world=True)
def list_classifications(ctx: Ctx) -> list[Classification]:
    """List the segments and their genres (/classifications)."""
    pairs = sorted({(a.segment, a.genre) for a in _db(ctx).attractions.values()})
    return [Classification(segment=s, genre=g) for s, g in pairs]


# -- alerts ------------------------------------------------------------------------------------------------


class EventAlert(Timestamped):
    """An employee's alert on an attraction or a keyword (Ticketmaster alerts)."""

    id: AlertId
    owner_email: Email
    """The employee alerted."""
    attraction_id: AttractionId | None = None
    """The attraction followed (or None with a keyword)."""
    keyword: Keyword | None = None
    """Words to match (or None with an attraction)."""
    label: str
    """What the alert follows (the attraction's name or the keyword)."""
    city: City | None = None
    """Only events in this city."""
    max_price: Cents | None = None
    """Only events whose cheapest ticket costs at most this (minor units of the venue's currency)."""
    status: Literal["active", "paused"] = "active"
    """active or paused."""
    last_checked_at: DateTime | None = None
    """When it was last checked."""


class AlertMatch(Timestamped):
    """An event on sale that matched an alert (recorded once)."""

    id: MatchId
    alert_id: AlertId
    """The alert."""
    owner_email: Email
    """The employee alerted."""
    event_id: EventId
    """The event."""
    event_name: str
    """Its name."""
    local_date: Date
    """Its local date."""
    city: City
    """Its city."""
    min_price: Cents
    """Cheapest ticket when matched."""
    status: Literal["new", "seen", "dismissed"] = "new"
    """new, seen or dismissed."""


def _check_city(ctx: Ctx, city: str | None) -> None:
    if city is not None and fold(city) not in {fold(v.city) for v in _db(ctx).venues.values()}:
        raise NotFound(f"no venues in {city}", field="city", hint="pick a city from eventsearch__search_venues")


def _guard_alert(ctx: Ctx, new: EventAlert, old: EventAlert | None) -> None:
    _check_city(ctx, new.city)


def _guard_alert_delete(ctx: Ctx, new: None, old: EventAlert) -> None:
    for m in ctx.where(AlertMatch, alert_id=old.id):
        ctx.delete(m)


event_alerts = service.resource(
    EventAlert,
    name="event_alert",
    plural="event_alerts",
    prefix="ea",
    create=False,
    filters=("owner_email", "attraction_id", "status", "city"),
    search=("label", "keyword"),
    update=("city", "max_price"),
    transitions={
        "pause": Transition("status", ("active",), "paused", "pause the event alert"),
        "resume": Transition("status", ("paused",), "active", "resume the event alert"),
    },
    guard_update=_guard_alert,
    guard_delete=_guard_alert_delete,
    title="event alert",
)
alert_matches = service.resource(
    AlertMatch,
    name="alert_match",
    plural="alert_matches",
    prefix="eam",
    create=False,
    filters=("alert_id", "owner_email", "event_id", "status"),
    search=("event_name",),
    transitions={
        "mark_seen": Transition("status", ("new",), "seen", "mark the matched event as seen"),
        "dismiss": Transition("status", ("new", "seen"), "dismissed", "dismiss the matched event"),
    },
    title="alert match",
)


def _example_alert(ctx: Ctx) -> dict[str, Any]:
    owner = ctx.population.employees[-1].email
    taken = {a.attraction_id for a in ctx.where(EventAlert, owner_email=owner)}
    return {"owner_email": owner, "attraction_id": next(a for a in _db(ctx).attractions if a not in taken)}


@service.tool(intent="set an alert on an artist, team or keyword", write=True, example=_example_alert)
def create_event_alert(
    ctx: Ctx,
    owner_email: Email,
    attraction_id: AttractionId | None = None,
    keyword: Keyword | None = None,
    city: City | None = None,
    max_price: Cents | None = None,
) -> EventAlert:
    """Set an alert on an attraction or a keyword (exactly one), optionally in one city and under a price.

    Args:
        owner_email: The employee to alert.
        attraction_id: The attraction to follow.
        keyword: Words to match instead.
        city: Only events in this city.
        max_price: Only events whose cheapest ticket costs at most this (minor units).
    """
    if owner_email not in {p.email for p in ctx.population.employees}:
        raise RuleViolation(f"{owner_email} is not an employee", field="owner_email", hint="alerts are kept by staff")
    if (attraction_id is None) == (keyword is None):
        raise RuleViolation(
            "an alert follows an attraction or a keyword", field="attraction_id", hint="give exactly one of the two"
        )
    label = _get_attraction(ctx, attraction_id).name if attraction_id else str(keyword)
    _check_city(ctx, city)
    mine = ctx.where(EventAlert, owner_email=owner_email)
    for other in mine:
        if (other.attraction_id, fold(other.keyword or ""), other.city) == (attraction_id, fold(keyword or ""), city):
            raise Conflict(f"{owner_email} already follows {label}: {other.id}", field="attraction_id", hint="use it")
    if len(mine) >= MAX_ALERTS:
        raise RuleViolation(f"{owner_email} has {MAX_ALERTS} alerts", field="owner_email", hint="delete one first")
    return ctx.create(
        EventAlert,
        owner_email=owner_email,
        attraction_id=attraction_id,
        keyword=keyword,
        label=label,
        city=city,
        max_price=max_price,
    )


class AlertRun(BaseModel):
    """The outcome of checking alerts."""

    checked: int = Field(description="Active alerts checked.")
    matches: list[AlertMatch] = Field(description="New matches recorded now.")


@service.tool(intent="check the event alerts for new events on sale", write=True, example=fixed_example())
def check_event_alerts(ctx: Ctx, owner_email: Email | None = None) -> AlertRun:
    """Check active alerts: every event on sale that matches and was not matched before is recorded as new.

    Args:
        owner_email: Only this employee's alerts (default: everyone's).
    """
    today, out = ctx.today(), []
    alerts = [a for a in ctx.where(EventAlert, status="active") if owner_email in (None, a.owner_email)]
    for a in alerts:
        seen = {m.event_id for m in ctx.where(AlertMatch, alert_id=a.id)}
        for e in sorted(_matches(ctx, a.keyword, a.city, a.attraction_id), key=lambda e: (e.day, e.id)):
            if e.id in seen or _status(e, today) != "onsale" or (a.max_price is not None and e.price_min > a.max_price):
                continue
            v = _db(ctx).venues[e.venue]
            out.append(
                ctx.create(
                    AlertMatch,
                    alert_id=a.id,
                    owner_email=a.owner_email,
                    event_id=e.id,
                    event_name=_db(ctx).attractions[e.attraction].name,
                    local_date=e.day,
                    city=v.city,
                    min_price=e.price_min,
                )
            )
        ctx.update(a, last_checked_at=ctx.now())
    return AlertRun(checked=len(alerts), matches=out)


# -- seed --------------------------------------------------------------------------------------------------


@service.seeder
def seed(s: SeedContext) -> None:
    """Staff alerts (a band, a home team, a keyword; one paused), checked a week ago, with their first two matches."""
    db = _build(s.population)
    owners = s.population.staff("Marketing", "People", "Sales", fallback=3)
    home = s.population.home.place.city
    by_name = {a.name: a for a in db.attractions.values()}
    plans = (
        (by_name["Luna Vega"].id, None, None, "active"),
        (by_name["Harbor City FC"].id, None, home, "active"),
        (None, "comedy", None, "paused"),
        (by_name["The Phantom Gala"].id, None, None, "active"),
    )
    week_ago = s.now.date() - dt.timedelta(days=7)
    for k, (attraction, keyword, city, status) in enumerate(plans):
        alert = s.create(
            EventAlert,
            owner_email=owners[k % len(owners)].email,
            attraction_id=attraction,
            keyword=keyword,
            label=db.attractions[attraction].name if attraction else str(keyword),
            city=city,
            status=status,
            last_checked_at=s.ago(days=7),
            created_at=s.ago(days=60 + 10 * k),
            updated_at=s.ago(days=7),
        )
        found = [
            e
            for e in db.events.values()
            if e.attraction == attraction
            and city in (None, db.venues[e.venue].city)
            and _status(e, week_ago) == "onsale"
        ]
        for j, e in enumerate(sorted(found, key=lambda e: (e.day, e.id))[:2]):
            s.create(
                AlertMatch,
                alert_id=alert.id,
                owner_email=alert.owner_email,
                event_id=e.id,
                event_name=db.attractions[e.attraction].name,
                local_date=e.day,
                city=db.venues[e.venue].city,
                min_price=e.price_min,
                status="new" if k else ("seen", "dismissed")[j],
                created_at=s.ago(days=7),
                updated_at=s.ago(days=7 - j),
            )
