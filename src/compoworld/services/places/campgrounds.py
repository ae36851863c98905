"""Trailhead: campground reservations for RV, tent and cabin sites, with hookups, add-ons and seasonal guests.

Modeled on the Campspot Public API: parks with a season and check-in and
check-out times; sites (campsites) by type (RV, tent, cabin) with a maximum
rig length, hookups (none, water and electric, full) and amperage, a maximum
occupancy and a pets policy, open or closed; guests; reservations (transient
by the night, or seasonal for the whole season at a seasonal rate) that go
reserved → checked_in → checked_out, or cancelled; and add-ons (firewood
bundles, kayak rentals, late check-out) sold per stay within a daily stock. A
stay fits the site (type, rig length, party size, pets), lies within the
season and overlaps no other stay on it; check-in is on or after the arrival
day; a cancel more than seven days out costs a $10 fee, later the first night.
Amounts are cents.
"""

from __future__ import annotations

import datetime as dt
from typing import Annotated, Any, Literal

from pydantic import Field

from compoworld.engine.context import Ctx
from compoworld.engine.errors import Conflict, RuleViolation
from compoworld.engine.records import CREATED, Record
from compoworld.engine.service import Service, Transition
from compoworld.engine.state import SeedContext
from compoworld.engine.types import Cents, City, Date, DateTime, Email, IdOf, PersonName, Phone, Title
from compoworld.services.kit.examples import first_example

__all__ = ["service"]

service = Service(
    "campgrounds",
    title="Trailhead",
    category="campground",
    modeled_on="Campspot Public API: parks, sites (site types, hookups, max length, occupancy, pet policy), "
    "guests, reservations (transient and seasonal), add-ons, check-in/check-out, cancellation policy",
    description="Campground management: the park's season, RV, tent and cabin sites with hookups, rig length "
    "limits and occupancy, guests and their reservations from booking to check-out, seasonal campers holding a "
    "site all season, and add-ons such as firewood and kayak rentals.",
)

ParkId = Annotated[str, IdOf("campgrounds.park")]
SiteId = Annotated[str, IdOf("campgrounds.site")]
CamperId = Annotated[str, IdOf("campgrounds.guest")]
ReservationId = Annotated[str, IdOf("campgrounds.reservation")]
AddOnId = Annotated[str, IdOf("campgrounds.addon")]

SiteType = Literal["rv", "tent", "cabin"]
RigType = Literal["motorhome", "travel_trailer", "fifth_wheel", "tent", "none"]
RES_LIVE: tuple[str, ...] = ("reserved", "checked_in")
CANCEL_FEE = 1000
FREE_CANCEL_DAYS = 7


class Park(Record):
    """A campground."""

    id: ParkId
    name: Title = Field(description="Its name.")
    city: City = Field(description="Where it is.")
    season_opens: Date = Field(description="First night of the season.")
    season_closes: Date = Field(description="Last check-out day of the season.")
    check_in_hour: Annotated[int, Field(ge=10, le=18)] = Field(14, description="Check-in from (local hour).")
    check_out_hour: Annotated[int, Field(ge=8, le=14)] = Field(11, description="Check-out by.")


class Site(Record):
    """A campsite."""

    id: SiteId
    park_id: ParkId = Field(description="The park.")
    name: Title = Field(description="e.g. Loop A, Site 12.")
    site_type: SiteType = Field(description="rv, tent or cabin.")
    hookups: Literal["none", "water_electric", "full"] = Field("none", description="Utility hookups.")
    amps: Literal[0, 30, 50] = Field(0, description="Electric service.")
    max_length_ft: Annotated[int, Field(ge=0, le=80)] = Field(0, description="Longest rig (RV sites).")
    max_occupancy: Annotated[int, Field(ge=1, le=16)] = Field(6, description="Most people.")
    pets_allowed: bool = Field(True, description="Whether pets may stay.")
    nightly_rate: Cents = Field(description="Price per night.")
    seasonal_rate: Cents | None = Field(None, description="Price of a whole season (seasonal sites).")
    status: Literal["open", "closed"] = Field("open", description="open or closed.")


class Camper(Record):
    """A camper."""

    id: CamperId
    name: PersonName = Field(description="The camper's name as on the reservation.")
    email: Email = Field(description="Where confirmations go (one guest per e-mail).")
    phone: Phone | None = Field(None, description="A number the ranger station can call.")
    created_at: Annotated[DateTime, CREATED] = Field(description="When the camper's profile was made.")


class AddOn(Record):
    """Something sold with a stay."""

    id: AddOnId
    park_id: ParkId = Field(description="The park.")
    name: Title = Field(description="e.g. Firewood bundle.")
    price: Cents = Field(description="Price each.")
    daily_stock: Annotated[int, Field(ge=1, le=500)] = Field(description="How many can be sold per arrival day.")


class Reservation(Record):
    """A stay on a site."""

    id: ReservationId
    site_id: SiteId = Field(description="The site.")
    guest_id: CamperId = Field(description="The guest.")
    kind: Literal["transient", "seasonal"] = Field("transient", description="transient or seasonal.")
    arrival: Date = Field(description="Arrival day.")
    departure: Date = Field(description="Departure day.")
    adults: Annotated[int, Field(ge=1, le=16)] = Field(description="Adults.")
    children: Annotated[int, Field(ge=0, le=15)] = Field(0, description="Children.")
    pets: Annotated[int, Field(ge=0, le=2)] = Field(0, description="Pets (at most two).")
    rig_type: RigType = Field("none", description="motorhome, travel_trailer, fifth_wheel, tent or none.")
    rig_length_ft: Annotated[int, Field(ge=0, le=80)] = Field(0, description="Rig length.")
    addon_ids: tuple[AddOnId, ...] = Field((), description="Add-ons bought.")
    lodging_total: Cents = Field(description="Site charges.")
    addons_total: Cents = Field(0, description="Add-on charges.")
    cancellation_fee: Cents = Field(0, description="Kept on cancellation.")
    status: Literal["reserved", "checked_in", "checked_out", "cancelled"] = Field("reserved", description="Its state.")
    created_at: Annotated[DateTime, CREATED] = Field(description="When it was booked.")


# -- rules ------------------------------------------------------------------------------------


def _guard_guest(ctx: Ctx, new: Any, old: Any) -> None:
    other = ctx.first(Camper, email=new.email)
    if other is not None and other.id != new.id:
        raise Conflict(f"guest {other.id} has e-mail {new.email}", field="email", hint="use that guest")


def _guard_site(ctx: Ctx, new: Any, old: Any) -> None:
    if new.status == "closed" and old.status == "open":
        for r in ctx.where(Reservation, site_id=new.id, status="checked_in"):
            raise RuleViolation(f"{r.id} is on the site", field="site_id", hint="check the guest out first")


parks = service.resource(
    Park,
    name="park",
    plural="parks",
    prefix="park",
    create=False,
    filters=("city",),
    search=("name",),
    delete=False,
)
sites = service.resource(
    Site,
    name="site",
    plural="sites",
    prefix="site",
    create=False,
    filters=("park_id", "site_type", "hookups", "status", "pets_allowed"),
    search=("name",),
    update=("nightly_rate", "pets_allowed", "max_occupancy"),
    delete=False,
    transitions={
        "close": Transition("status", ("open",), "closed", "close the site"),
        "reopen": Transition("status", ("closed",), "open", "reopen the site"),
    },
    guard_update=_guard_site,
)
guests = service.resource(
    Camper,
    name="guest",
    plural="guests",
    prefix="gst",
    create=("name", "email", "phone"),
    filters=("email",),
    search=("name", "email"),
    update=("name", "phone"),
    delete=False,
    guard_create=_guard_guest,
    guard_update=_guard_guest,
)
addons = service.resource(
    AddOn,
    name="addon",
    plural="addons",
    prefix="add",
    create=False,
    get=False,
    filters=("park_id",),
    search=("name",),
    delete=False,
    title="add-on",
)
reservations = service.resource(
    Reservation,
    name="reservation",
    plural="reservations",
    prefix="rsv",
    create=False,
    filters=("site_id", "guest_id", "status", "kind", "arrival"),
    delete=False,
)


# -- domain tools -----------------------------------------------------------------------------


def _fit(site: Site, adults: int, children: int, pets: int, rig: str, length: int) -> None:
    if adults + children > site.max_occupancy:
        raise RuleViolation(f"{site.name} sleeps {site.max_occupancy}", field="adults", hint="pick a larger site")
    if pets and not site.pets_allowed:
        raise RuleViolation(f"{site.name} is pet-free", field="pets", hint="pick a pet-friendly site")
    wants = "rv" if rig in ("motorhome", "travel_trailer", "fifth_wheel") else "tent" if rig == "tent" else "cabin"
    if wants != site.site_type:
        raise RuleViolation(f"{site.name} is a {site.site_type} site", field="site_id", hint=f"pick a {wants} site")
    if wants == "rv" and length > site.max_length_ft:
        raise RuleViolation(
            f"{site.name} takes rigs up to {site.max_length_ft} ft",
            field="rig_length_ft",
            hint="pick a longer pull-through site",
        )


def _free(ctx: Ctx, site_id: str, arrival: dt.date, departure: dt.date, skip: str = "") -> Reservation | None:
    for r in ctx.where(Reservation, site_id=site_id):
        if r.id != skip and r.status in RES_LIVE and r.arrival < departure and arrival < r.departure:
            return r
    return None


def _dates(ctx: Ctx, park: Park, arrival: dt.date, departure: dt.date) -> None:
    if departure <= arrival:
        raise RuleViolation("departure must be after arrival", field="departure", hint="stay at least one night")
    if arrival < ctx.today():
        raise RuleViolation("arrival has passed", field="arrival", hint="pick today or later")
    if arrival < park.season_opens or departure > park.season_closes:
        raise RuleViolation(
            f"the season runs {park.season_opens} to {park.season_closes}",
            field="arrival",
            hint="pick dates within the season",
        )


def _example_book(ctx: Ctx) -> dict[str, Any] | None:
    g = ctx.first(Camper)
    for s in ctx.where(Site, site_type="tent", status="open"):
        park = ctx.get(Park, s.park_id)
        day = max(ctx.today(), park.season_opens) + dt.timedelta(days=40)
        if g is not None and _free(ctx, s.id, day, day + dt.timedelta(days=2)) is None:
            return {
                "site_id": s.id,
                "guest_id": g.id,
                "arrival": day.isoformat(),
                "departure": (day + dt.timedelta(days=2)).isoformat(),
                "adults": 2,
                "rig_type": "tent",
            }
    return None


@service.tool(intent="book the campsite", write=True, example=_example_book)
def book_site(
    ctx: Ctx,
    site_id: SiteId,
    guest_id: CamperId,
    arrival: Date,
    departure: Date,
    adults: Annotated[int, Field(ge=1, le=16)],
    children: Annotated[int, Field(ge=0, le=15)] = 0,
    pets: Annotated[int, Field(ge=0, le=2)] = 0,
    rig_type: RigType = "none",
    rig_length_ft: Annotated[int, Field(ge=0, le=80)] = 0,
) -> Reservation:
    """Reserve an open site for a transient stay in season; the party and rig must fit, the nights be free.

    Args:
        site_id: The site.
        guest_id: The guest.
        arrival: Arrival day.
        departure: Departure day.
        adults: Adults.
        children: Children.
        pets: Pets (pet-friendly sites only).
        rig_type: motorhome, travel_trailer, fifth_wheel (RV sites), tent (tent sites) or none (cabins).
        rig_length_ft: The rig's length (RV sites).
    """
    site = ctx.get(Site, site_id, field="site_id")
    ctx.get(Camper, guest_id, field="guest_id")
    if site.status != "open":
        raise RuleViolation(f"{site.name} is closed", field="site_id", hint="pick an open site")
    _dates(ctx, ctx.get(Park, site.park_id), arrival, departure)
    _fit(site, adults, children, pets, rig_type, rig_length_ft)
    clash = _free(ctx, site.id, arrival, departure)
    if clash is not None:
        raise Conflict(
            f"{site.name} is booked {clash.arrival} to {clash.departure}",
            field="site_id",
            hint="pick other dates or find a site with campgrounds__find_open_sites",
        )
    nights = (departure - arrival).days
    return ctx.create(
        Reservation,
        site_id=site.id,
        guest_id=guest_id,
        arrival=arrival,
        departure=departure,
        adults=adults,
        children=children,
        pets=pets,
        rig_type=rig_type,
        rig_length_ft=rig_length_ft,
        lodging_total=nights * site.nightly_rate,
    )


def _example_seasonal(ctx: Ctx) -> dict[str, Any] | None:
    g = ctx.first(Camper)
    for s in ctx.scan(Site):
        park = ctx.get(Park, s.park_id)
        if s.seasonal_rate and g is not None and _free(ctx, s.id, park.season_opens, park.season_closes) is None:
            return {"site_id": s.id, "guest_id": g.id, "rig_type": "travel_trailer", "rig_length_ft": 28}
    return None


@service.tool(intent="sign up the seasonal camper", write=True, example=_example_seasonal)
def book_seasonal(
    ctx: Ctx, site_id: SiteId, guest_id: CamperId, rig_type: RigType, rig_length_ft: Annotated[int, Field(ge=0, le=80)]
) -> Reservation:
    """Hold a seasonal site for a guest's rig for the rest of the season at the seasonal rate.

    Args:
        site_id: A site with a seasonal rate, free for the rest of the season.
        guest_id: The guest.
        rig_type: The rig.
        rig_length_ft: Its length.
    """
    site = ctx.get(Site, site_id, field="site_id")
    ctx.get(Camper, guest_id, field="guest_id")
    if site.seasonal_rate is None:
        raise RuleViolation(f"{site.name} is not a seasonal site", field="site_id", hint="pick a seasonal site")
    park = ctx.get(Park, site.park_id)
    start = max(ctx.today(), park.season_opens)
    _fit(site, 2, 0, 0, rig_type, rig_length_ft)
    clash = _free(ctx, site.id, start, park.season_closes)
    if clash is not None:
        raise Conflict(f"{site.name} has stay {clash.id} this season", field="site_id", hint="pick another site")
    return ctx.create(
        Reservation,
        site_id=site.id,
        guest_id=guest_id,
        kind="seasonal",
        arrival=start,
        departure=park.season_closes,
        adults=2,
        rig_type=rig_type,
        rig_length_ft=rig_length_ft,
        lodging_total=site.seasonal_rate,
    )


def _stay(ctx: Ctx, reservation_id: str, *states: str) -> Reservation:
    r = ctx.get(Reservation, reservation_id, field="reservation_id")
    if r.status not in states:
        raise RuleViolation(f"the stay is {r.status}", field="reservation_id", hint=f"only {' or '.join(states)} stays")
    return r


def _arrived(ctx: Ctx, r: Reservation) -> bool:
    return r.status == "reserved" and r.arrival <= ctx.today()


@service.tool(
    intent="check the campers in",
    write=True,
    example=first_example(Reservation, "reservation_id", match=_arrived),
)
def check_in(ctx: Ctx, reservation_id: ReservationId) -> Reservation:
    """Check in a reserved stay from its arrival day; the site must be open.

    Args:
        reservation_id: The reservation.
    """
    stay = _stay(ctx, reservation_id, "reserved")
    if not _arrived(ctx, stay):
        raise RuleViolation(
            f"{stay.arrival - ctx.today()} until arrival on {stay.arrival}",
            field="reservation_id",
            hint="campers are checked in from their arrival day",
        )
    if ctx.get(Site, stay.site_id).status == "closed":
        raise RuleViolation("the site is closed", field="reservation_id", hint="move the stay to an open site")
    return ctx.update(stay, status="checked_in")


@service.tool(
    intent="check the campers out",
    write=True,
    example=first_example(Reservation, "reservation_id", where={"status": "checked_in", "kind": "transient"}),
)
def check_out(ctx: Ctx, reservation_id: ReservationId) -> Reservation:
    """Check out a checked-in stay; leaving early shortens it to today (one night at least) and re-prices it.

    Args:
        reservation_id: The reservation.
    """
    stay = _stay(ctx, reservation_id, "checked_in")
    leaving = min(stay.departure, max(ctx.today(), stay.arrival + dt.timedelta(days=1)))
    nightly = ctx.get(Site, stay.site_id).nightly_rate
    total = stay.lodging_total if stay.kind == "seasonal" else (leaving - stay.arrival).days * nightly
    return ctx.update(stay, status="checked_out", departure=leaving, lodging_total=total)


@service.tool(
    intent="cancel the campsite reservation",
    write=True,
    example=first_example(Reservation, "reservation_id", where={"status": "reserved"}),
)
def cancel_reservation(ctx: Ctx, reservation_id: ReservationId) -> Reservation:
    """Cancel a reserved stay: more than 7 days before arrival a $10 fee is kept, later the first night.

    Args:
        reservation_id: The reservation.
    """
    r = _stay(ctx, reservation_id, "reserved")
    site = ctx.get(Site, r.site_id)
    early = (r.arrival - ctx.today()).days > FREE_CANCEL_DAYS
    first_night = site.seasonal_rate or 0 if r.kind == "seasonal" else site.nightly_rate
    return ctx.update(r, status="cancelled", cancellation_fee=CANCEL_FEE if early else first_night)


@service.tool(
    intent="change the stay's dates",
    write=True,
    example=first_example(
        Reservation,
        "reservation_id",
        where={"status": "reserved", "kind": "transient"},
        match=lambda c, r: r.arrival > c.today(),
        fields={"arrival": "arrival", "departure": "departure"},
    ),
)
def change_dates(ctx: Ctx, reservation_id: ReservationId, arrival: Date, departure: Date) -> Reservation:
    """Move a reserved transient stay to other dates on the same site; the lodging total is re-priced.

    Args:
        reservation_id: The reservation.
        arrival: New arrival.
        departure: New departure.
    """
    r = _stay(ctx, reservation_id, "reserved")
    if r.kind == "seasonal":
        raise RuleViolation("seasonal stays run the whole season", field="reservation_id", hint="cancel it instead")
    site = ctx.get(Site, r.site_id)
    _dates(ctx, ctx.get(Park, site.park_id), arrival, departure)
    clash = _free(ctx, site.id, arrival, departure, skip=r.id)
    if clash is not None:
        raise Conflict(
            f"{site.name} is booked {clash.arrival} to {clash.departure}", field="arrival", hint="pick other dates"
        )
    return ctx.update(
        r, arrival=arrival, departure=departure, lodging_total=(departure - arrival).days * site.nightly_rate
    )


def _example_addon(ctx: Ctx) -> dict[str, Any] | None:
    r = ctx.first(Reservation, status="reserved")
    a = None if r is None else ctx.first(AddOn)
    return None if r is None or a is None else {"reservation_id": r.id, "addon_id": a.id}


@service.tool(intent="add the add-on to the stay", write=True, example=_example_addon)
def add_addon(ctx: Ctx, reservation_id: ReservationId, addon_id: AddOnId) -> Reservation:
    """Sell an add-on of the park with a reserved or checked-in stay, within its stock for the arrival day.

    Args:
        reservation_id: The reservation.
        addon_id: The add-on.
    """
    r = _stay(ctx, reservation_id, "reserved", "checked_in")
    a = ctx.get(AddOn, addon_id, field="addon_id")
    if a.park_id != ctx.get(Site, r.site_id).park_id:
        raise RuleViolation(f"{a.name} is sold at another park", field="addon_id", hint="pick this park's add-ons")
    sold = sum(x.addon_ids.count(a.id) for x in ctx.where(Reservation, arrival=r.arrival) if x.status in RES_LIVE)
    if sold >= a.daily_stock:
        raise Conflict(f"{a.name} is sold out for {r.arrival}", field="addon_id", hint="pick another add-on")
    return ctx.update(r, addon_ids=(*r.addon_ids, a.id), addons_total=r.addons_total + a.price)


@service.tool(
    intent="find open campsites",
    example=lambda ctx: (
        None
        if (p := ctx.first(Park)) is None
        else {
            "park_id": p.id,
            "arrival": (p.season_opens + dt.timedelta(days=30)).isoformat(),
            "departure": (p.season_opens + dt.timedelta(days=32)).isoformat(),
            "site_type": "rv",
        }
    ),
)
def find_open_sites(
    ctx: Ctx,
    park_id: ParkId,
    arrival: Date,
    departure: Date,
    site_type: SiteType,
    rig_length_ft: Annotated[int, Field(ge=0, le=80)] = 0,
) -> list[Site]:
    """Open sites of a type at a park that are free for the dates (and long enough for the rig), cheapest first.

    Args:
        park_id: The park.
        arrival: Arrival day.
        departure: Departure day (after arrival).
        site_type: rv, tent or cabin.
        rig_length_ft: The rig's length (RV).
    """
    ctx.get(Park, park_id, field="park_id")
    if departure <= arrival:
        raise RuleViolation("departure must be after arrival", field="departure", hint="stay at least one night")
    found = [
        s
        for s in ctx.where(Site, park_id=park_id, site_type=site_type, status="open")
        if rig_length_ft <= s.max_length_ft or site_type != "rv"
    ]
    return sorted(
        (s for s in found if _free(ctx, s.id, arrival, departure) is None), key=lambda s: (s.nightly_rate, s.name)
    )


# -- seed -------------------------------------------------------------------------------------

SITES: tuple[tuple[str, SiteType, Any, Any, int, int, bool, int, int | None], ...] = (
    ("A-1", "rv", "full", 50, 45, 8, True, 6500, 320000),
    ("A-2", "rv", "full", 50, 40, 8, True, 6500, 320000),
    ("A-3", "rv", "water_electric", 30, 30, 6, True, 5200, None),
    ("A-4", "rv", "water_electric", 30, 25, 6, False, 5000, None),
    ("T-1", "tent", "none", 0, 0, 6, True, 3000, None),
    ("T-2", "tent", "none", 0, 0, 4, False, 3000, None),
    ("T-3", "tent", "water_electric", 30, 0, 6, True, 3800, None),
    ("C-1", "cabin", "full", 30, 0, 4, False, 11000, None),
    ("C-2", "cabin", "full", 30, 0, 6, True, 12500, None),
)


@service.seeder
def seed(s: SeedContext) -> None:
    """A park with RV, tent and cabin sites, add-ons, guests from consumers, stays in every state, a seasonal."""
    pop = s.population
    today = s.now.date()
    park = s.create(
        Park,
        name=f"{pop.home.place.city} Pines Campground",
        city=pop.home.place.city,
        season_opens=today - dt.timedelta(days=5),
        season_closes=today + dt.timedelta(days=200),
    )
    made = [
        s.create(
            Site,
            park_id=park.id,
            name=n,
            site_type=t,
            hookups=h,
            amps=a,
            max_length_ft=ln,
            max_occupancy=occ,
            pets_allowed=pet,
            nightly_rate=rate,
            seasonal_rate=sea,
        )
        for n, t, h, a, ln, occ, pet, rate, sea in SITES
    ]
    s.create(Site, park_id=park.id, name="T-4", site_type="tent", max_occupancy=4, nightly_rate=2800, status="closed")
    extras = [
        s.create(AddOn, park_id=park.id, name=n, price=p, daily_stock=q)
        for n, p, q in (("Firewood bundle", 800, 40), ("Kayak rental (day)", 3500, 3), ("Late check-out", 2000, 5))
    ]
    guests_ = [
        s.create(Camper, name=p.name, email=p.email, phone=p.phone, created_at=s.ago(days=300 - 20 * k))
        for k, p in enumerate(pop.consumers[:10])
    ]
    plan: tuple[tuple[int, int, int, int, Any, RigType, int], ...] = (
        (2, -3, -1, 0, "checked_out", "motorhome", 38),
        (4, -1, 2, 1, "checked_in", "tent", 0),
        (7, 0, 3, 2, "reserved", "none", 0),
        (2, 3, 6, 3, "reserved", "travel_trailer", 28),
        (5, 10, 12, 4, "reserved", "tent", 0),
        (8, 14, 16, 5, "cancelled", "none", 0),
        (3, 20, 27, 6, "reserved", "fifth_wheel", 24),
    )
    for site_k, a, d, g, status, rig, length in plan:
        site = made[site_k]
        arrival, departure = today + dt.timedelta(days=a), today + dt.timedelta(days=d)
        s.create(
            Reservation,
            site_id=site.id,
            guest_id=guests_[g].id,
            arrival=arrival,
            departure=departure,
            adults=2,
            children=1 if g % 2 else 0,
            pets=1 if site.pets_allowed and g % 3 == 0 else 0,
            rig_type=rig,
            rig_length_ft=length,
            lodging_total=(d - a) * site.nightly_rate,
            addon_ids=(extras[0].id,) if g < 3 else (),
            addons_total=extras[0].price if g < 3 else 0,
            cancellation_fee=CANCEL_FEE if status == "cancelled" else 0,
            status=status,
            created_at=s.ago(days=30),
        )
    s.create(
        Reservation,
        site_id=made[0].id,
        guest_id=guests_[9].id,
        kind="seasonal",
        arrival=park.season_opens,
        departure=park.season_closes,
        adults=2,
        rig_type="fifth_wheel",
        rig_length_ft=40,
        lodging_total=made[0].seasonal_rate or 0,
        status="checked_in",
        created_at=s.ago(days=60),
    )
