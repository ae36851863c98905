"""Harborline: marina operations, slips sized for boats, transient reservations, seasonal contracts, fuel dock.

Modeled on the Dockwa marina API: marinas with their nightly rate per foot,
slips with length, beam and depth and a shore-power rating (available or
out_of_service), boats with length overall (LOA), beam and draft and their
owner, transient reservations that go requested → confirmed → checked_in →
checked_out (or declined / cancelled), seasonal contracts that go sent → signed
(or voided) and hold a slip for a season, and fuel-dock sales. A boat fits a
slip only when its LOA, beam and draft are within the slip's; a slip holds one
reservation or contract at a time; an arrival comes before the departure;
a check-in needs a confirmed reservation whose arrival day has come, and a
check-out bills the nights stayed at the marina's rate per foot of LOA. Fuel
is sold by the gallon to a known boat. Amounts are cents.
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
from compoworld.engine.types import Cents, City, Currency, Date, DateTime, Email, IdOf, PersonName, Phone, Title
from compoworld.services.kit.examples import first_example
from compoworld.services.kit.lists import require_employee
from compoworld.services.kit.records import Value

__all__ = ["service"]

service = Service(
    "marina",
    title="Harborline",
    category="marina",
    modeled_on="Dockwa marina API: marinas, slips (dimensions, power), boats, transient reservations "
    "(requested/confirmed/checked_in/checked_out), seasonal contracts, fuel dock sales",
    description="Marina management: slips with their length, beam, depth and shore power, boaters and their "
    "boats, transient reservations from request to check-out with nightly charges by the foot, seasonal slip "
    "contracts sent for signature, and gallons sold at the fuel dock.",
)

MarinaId = Annotated[str, IdOf("marina.marina")]
SlipId = Annotated[str, IdOf("marina.slip")]
BoatId = Annotated[str, IdOf("marina.boat")]
ReservationId = Annotated[str, IdOf("marina.reservation")]
ContractId = Annotated[str, IdOf("marina.contract")]
FuelSaleId = Annotated[str, IdOf("marina.fuel_sale")]

Feet = Annotated[float, Field(gt=0, le=400)]
"""A length in feet."""
ResStatus = Literal["requested", "confirmed", "checked_in", "checked_out", "declined", "cancelled"]
HOLDING: tuple[str, ...] = ("requested", "confirmed", "checked_in")
FUEL_PRICES: dict[str, int] = {"gasoline": 589, "diesel": 549}
"""Fuel-dock price per gallon."""


class Marina(Record):
    """A marina."""

    id: MarinaId
    name: Title = Field(description="Its name.")
    city: City = Field(description="Where it is.")
    currency: Currency = Field(description="Its currency.")
    phone: Phone = Field(description="The harbor office.")
    nightly_rate_per_ft: Cents = Field(description="Transient rate per foot of LOA per night.")
    seasonal_rate_per_ft: Cents = Field(description="Seasonal contract rate per foot of LOA.")


class Slip(Record):
    """A slip (or mooring) at a marina."""

    id: SlipId
    marina_id: MarinaId = Field(description="The marina.")
    name: Title = Field(description="Its dock and number, e.g. B-12.")
    length_ft: Feet = Field(description="Longest boat it takes.")
    beam_ft: Feet = Field(description="Widest boat it takes.")
    depth_ft: Feet = Field(description="Water depth at low tide (max draft).")
    power_amps: Literal[0, 30, 50, 100] = Field(30, description="Shore power (0: none).")
    status: Literal["available", "out_of_service"] = Field("available", description="available or out_of_service.")


class Boat(Record):
    """A boater's vessel."""

    id: BoatId
    name: Title = Field(description="The boat's name.")
    make_and_type: Title = Field(description="Builder and type, e.g. Beneteau Oceanis 38 sailboat.")
    loa_ft: Feet = Field(description="Length overall.")
    beam_ft: Feet = Field(description="Beam.")
    draft_ft: Feet = Field(description="Draft.")
    owner_name: PersonName = Field(description="The owner.")
    owner_email: Email = Field(description="The owner's e-mail.")
    owner_phone: Phone | None = Field(None, description="The owner's phone.")
    created_at: Annotated[DateTime, CREATED] = Field(description="When the boater signed up.")


class Reservation(Record):
    """A transient stay in a slip."""

    id: ReservationId
    marina_id: MarinaId = Field(description="The marina.")
    slip_id: SlipId = Field(description="The slip assigned.")
    boat_id: BoatId = Field(description="The boat.")
    arrival: Date = Field(description="Arrival day.")
    departure: Date = Field(description="Departure day.")
    status: ResStatus = Field("requested", description="requested, confirmed, checked_in, checked_out, ...")
    nights_charged: int = Field(0, description="Nights billed at check-out.")
    amount_charged: Cents = Field(0, description="What check-out billed.")
    created_at: Annotated[DateTime, CREATED] = Field(description="When it was requested.")


class Contract(Record):
    """A seasonal slip contract."""

    id: ContractId
    marina_id: MarinaId = Field(description="The marina.")
    slip_id: SlipId = Field(description="The slip held.")
    boat_id: BoatId = Field(description="The boat.")
    season_start: Date = Field(description="First day of the season.")
    season_end: Date = Field(description="Last day of the season.")
    amount: Cents = Field(description="The season's price.")
    status: Literal["sent", "signed", "voided"] = Field("sent", description="sent, signed or voided.")
    signed_at: DateTime | None = Field(None, description="When the boater signed.")
    created_at: Annotated[DateTime, CREATED] = Field(description="When it was sent.")


class FuelSale(Record):
    """Fuel pumped at the fuel dock."""

    id: FuelSaleId
    marina_id: MarinaId = Field(description="The marina.")
    boat_id: BoatId = Field(description="The boat fuelled.")
    fuel: Literal["gasoline", "diesel"] = Field(description="gasoline or diesel.")
    gallons: Annotated[float, Field(gt=0, le=2000)] = Field(description="Gallons pumped.")
    price_per_gallon: Cents = Field(description="Price per gallon.")
    total: Cents = Field(description="What was charged.")
    attendant_email: Email = Field(description="The dock hand who pumped it.")
    created_at: Annotated[DateTime, CREATED] = Field(description="When it was sold.")


class OpenSlip(Value):
    """A slip free for a stay that fits the boat."""

    slip_id: SlipId
    name: str
    length_ft: float
    beam_ft: float
    depth_ft: float
    power_amps: int
    estimated_total: int


# -- rules ------------------------------------------------------------------------------------


def _fits(boat: Boat, slip: Slip) -> None:
    for what, need, room in (
        ("LOA", boat.loa_ft, slip.length_ft),
        ("beam", boat.beam_ft, slip.beam_ft),
        ("draft", boat.draft_ft, slip.depth_ft),
    ):
        if need > room:
            raise RuleViolation(
                f"{boat.name}'s {what} of {need} ft exceeds slip {slip.name}'s {room} ft",
                field="slip_id",
                hint="pick a larger slip with marina__find_open_slips",
            )


def _taken(ctx: Ctx, slip_id: str, start: dt.date, end: dt.date, skip: str = "") -> str | None:
    for r in ctx.where(Reservation, slip_id=slip_id):
        if r.id != skip and r.status in HOLDING and r.arrival < end and start < r.departure:
            return f"reservation {r.id} ({r.arrival} to {r.departure})"
    for c in ctx.where(Contract, slip_id=slip_id):
        if c.id != skip and c.status != "voided" and c.season_start <= end and start <= c.season_end:
            return f"seasonal contract {c.id}"
    return None


def _guard_boat(ctx: Ctx, new: Any, old: Any) -> None:
    for b in ctx.where(Boat, owner_email=new.owner_email):
        if b.id != new.id and b.name.casefold() == new.name.casefold():
            raise Conflict(f"{new.owner_email} already has a boat named {b.name}", field="name", hint=f"use {b.id}")


def _guard_slip(ctx: Ctx, new: Any, old: Any) -> None:
    if new.status == "out_of_service" and old.status != "out_of_service":
        for r in ctx.where(Reservation, slip_id=new.id):
            if r.status == "checked_in":
                raise RuleViolation(f"{r.id} is berthed there", field="slip_id", hint="check the boat out first")


marinas = service.resource(
    Marina,
    name="marina",
    plural="marinas",
    prefix="mar",
    create=False,
    filters=("city",),
    search=("name",),
    update=("nightly_rate_per_ft", "seasonal_rate_per_ft"),
    delete=False,
)
slips = service.resource(
    Slip,
    name="slip",
    plural="slips",
    prefix="slp",
    create=False,
    filters=("marina_id", "status", "power_amps", "name"),
    update=("power_amps",),
    delete=False,
    transitions={
        "close": Transition("status", ("available",), "out_of_service", "take the slip out of service"),
        "reopen": Transition("status", ("out_of_service",), "available", "put the slip back in service"),
    },
    guard_update=_guard_slip,
)
boats = service.resource(
    Boat,
    name="boat",
    plural="boats",
    prefix="boat",
    create=("name", "make_and_type", "loa_ft", "beam_ft", "draft_ft", "owner_name", "owner_email", "owner_phone"),
    filters=("owner_email", "name"),
    search=("name", "owner_name", "make_and_type"),
    update=("name", "owner_phone", "loa_ft", "beam_ft", "draft_ft"),
    delete=False,
    guard_create=_guard_boat,
    guard_update=_guard_boat,
)
reservations = service.resource(
    Reservation,
    name="reservation",
    plural="reservations",
    prefix="res",
    create=False,
    filters=("marina_id", "slip_id", "boat_id", "status", "arrival"),
    delete=False,
    transitions={
        "confirm": Transition("status", ("requested",), "confirmed", "confirm the reservation"),
        "decline": Transition("status", ("requested",), "declined", "decline the reservation", destructive=True),
    },
)
contracts = service.resource(
    Contract,
    name="contract",
    plural="contracts",
    prefix="ctr",
    create=False,
    filters=("marina_id", "slip_id", "boat_id", "status"),
    delete=False,
    transitions={
        "void": Transition("status", ("sent",), "voided", "void the seasonal contract", destructive=True),
    },
    title="seasonal contract",
)
fuel_sales = service.resource(
    FuelSale,
    name="fuel_sale",
    plural="fuel_sales",
    prefix="fuel",
    create=False,
    get=False,
    filters=("marina_id", "boat_id", "fuel", "attendant_email"),
    delete=False,
    title="fuel sale",
)


# -- domain tools -----------------------------------------------------------------------------


def _stay(ctx: Ctx, arrival: dt.date, departure: dt.date) -> None:
    if departure <= arrival:
        raise RuleViolation("departure must be after arrival", field="departure", hint="stay at least one night")
    if arrival < ctx.today():
        raise RuleViolation("arrival has passed", field="arrival", hint="pick today or a later day")


def _example_request(ctx: Ctx) -> dict[str, Any] | None:
    day = ctx.today() + dt.timedelta(days=200)
    for boat in ctx.scan(Boat):
        for slip in ctx.scan(Slip):
            fits = boat.loa_ft <= slip.length_ft and boat.beam_ft <= slip.beam_ft and boat.draft_ft <= slip.depth_ft
            if fits and slip.status == "available" and _taken(ctx, slip.id, day, day + dt.timedelta(days=3)) is None:
                end = (day + dt.timedelta(days=3)).isoformat()
                return {"boat_id": boat.id, "slip_id": slip.id, "arrival": day.isoformat(), "departure": end}
    return None


@service.tool(intent="request the slip reservation", write=True, example=_example_request)
def request_reservation(ctx: Ctx, boat_id: BoatId, slip_id: SlipId, arrival: Date, departure: Date) -> Reservation:
    """Request a transient stay for a boat in a slip it fits, free for those nights.

    Args:
        boat_id: The boat.
        slip_id: The slip (in service, large enough for the boat).
        arrival: Arrival day (today or later).
        departure: Departure day (after arrival).
    """
    boat = ctx.get(Boat, boat_id, field="boat_id")
    slip = ctx.get(Slip, slip_id, field="slip_id")
    _stay(ctx, arrival, departure)
    if slip.status != "available":
        raise RuleViolation(f"slip {slip.name} is out of service", field="slip_id", hint="pick another slip")
    _fits(boat, slip)
    clash = _taken(ctx, slip.id, arrival, departure)
    if clash is not None:
        raise Conflict(f"slip {slip.name} is held by {clash}", field="slip_id", hint="pick other dates or slip")
    return ctx.create(
        Reservation, marina_id=slip.marina_id, slip_id=slip.id, boat_id=boat.id, arrival=arrival, departure=departure
    )


def _res(ctx: Ctx, reservation_id: str, *states: str) -> Reservation:
    r = ctx.get(Reservation, reservation_id, field="reservation_id")
    if r.status not in states:
        raise RuleViolation(
            f"the reservation is {r.status}", field="reservation_id", hint=f"only {' or '.join(states)} ones"
        )
    return r


@service.tool(
    intent="check the boat in",
    write=True,
    example=first_example(
        Reservation, "reservation_id", where={"status": "confirmed"}, match=lambda ctx, r: r.arrival <= ctx.today()
    ),
)
def check_in(ctx: Ctx, reservation_id: ReservationId) -> Reservation:
    """Check in a boat with a confirmed reservation whose arrival day has come.

    Args:
        reservation_id: The reservation.
    """
    r = _res(ctx, reservation_id, "confirmed")
    if r.arrival > ctx.today():
        raise RuleViolation(f"arrival is {r.arrival}", field="reservation_id", hint="check in on the arrival day")
    return ctx.update(r, status="checked_in")


@service.tool(
    intent="check the boat out",
    write=True,
    example=first_example(Reservation, "reservation_id", where={"status": "checked_in"}),
)
def check_out(ctx: Ctx, reservation_id: ReservationId) -> Reservation:
    """Check out a berthed boat: the nights stayed (at least one) are billed at the rate per foot of LOA.

    Args:
        reservation_id: The reservation.
    """
    r = _res(ctx, reservation_id, "checked_in")
    nights = max((min(ctx.today(), r.departure) - r.arrival).days, 1)
    rate = ctx.get(Marina, r.marina_id).nightly_rate_per_ft
    loa = ctx.get(Boat, r.boat_id).loa_ft
    return ctx.update(r, status="checked_out", nights_charged=nights, amount_charged=round(nights * rate * loa))


@service.tool(
    intent="cancel the reservation",
    write=True,
    example=first_example(Reservation, "reservation_id", where={"status": "requested"}),
)
def cancel_reservation(ctx: Ctx, reservation_id: ReservationId) -> Reservation:
    """Cancel a requested or confirmed reservation (a berthed boat is checked out instead).

    Args:
        reservation_id: The reservation.
    """
    return ctx.update(_res(ctx, reservation_id, "requested", "confirmed"), status="cancelled")


def _example_find(ctx: Ctx) -> dict[str, Any] | None:
    m = ctx.first(Marina)
    day = ctx.today() + dt.timedelta(days=60)
    return (
        None
        if m is None
        else {
            "marina_id": m.id,
            "loa_ft": 32,
            "beam_ft": 11,
            "draft_ft": 5,
            "arrival": day.isoformat(),
            "departure": (day + dt.timedelta(days=2)).isoformat(),
        }
    )


@service.tool(intent="find open slips for the boat", example=_example_find)
def find_open_slips(
    ctx: Ctx, marina_id: MarinaId, loa_ft: Feet, beam_ft: Feet, draft_ft: Feet, arrival: Date, departure: Date
) -> list[OpenSlip]:
    """Slips of a marina in service, large enough for the boat and free for the stay, smallest first.

    Args:
        marina_id: The marina.
        loa_ft: The boat's length overall.
        beam_ft: Its beam.
        draft_ft: Its draft.
        arrival: Arrival day.
        departure: Departure day (after arrival).
    """
    m = ctx.get(Marina, marina_id, field="marina_id")
    if departure <= arrival:
        raise RuleViolation("departure must be after arrival", field="departure", hint="stay at least one night")
    nights = (departure - arrival).days
    out = [
        OpenSlip(
            slip_id=s.id,
            name=s.name,
            length_ft=s.length_ft,
            beam_ft=s.beam_ft,
            depth_ft=s.depth_ft,
            power_amps=s.power_amps,
            estimated_total=round(nights * m.nightly_rate_per_ft * loa_ft),
        )
        for s in ctx.where(Slip, marina_id=m.id, status="available")
        if loa_ft <= s.length_ft
        and beam_ft <= s.beam_ft
        and draft_ft <= s.depth_ft
        and _taken(ctx, s.id, arrival, departure) is None
    ]
    return sorted(out, key=lambda o: (o.length_ft, o.name))


def _example_contract(ctx: Ctx) -> dict[str, Any] | None:
    start = dt.date(ctx.today().year + 2, 5, 1)
    end = dt.date(ctx.today().year + 2, 10, 31)
    boat = ctx.first(Boat)
    for slip in ctx.scan(Slip):
        if (
            boat is not None
            and slip.status == "available"
            and boat.loa_ft <= slip.length_ft
            and boat.beam_ft <= slip.beam_ft
            and boat.draft_ft <= slip.depth_ft
            and _taken(ctx, slip.id, start, end) is None
        ):
            return {
                "boat_id": boat.id,
                "slip_id": slip.id,
                "season_start": start.isoformat(),
                "season_end": end.isoformat(),
            }
    return None


@service.tool(intent="send the seasonal slip contract", write=True, example=_example_contract)
def send_contract(ctx: Ctx, boat_id: BoatId, slip_id: SlipId, season_start: Date, season_end: Date) -> Contract:
    """Send a boater a seasonal contract for a slip the boat fits, priced at the seasonal rate per foot.

    Args:
        boat_id: The boat.
        slip_id: The slip (free for the whole season).
        season_start: First day (not in the past).
        season_end: Last day (30 to 366 days after the start).
    """
    boat = ctx.get(Boat, boat_id, field="boat_id")
    slip = ctx.get(Slip, slip_id, field="slip_id")
    if season_start < ctx.today():
        raise RuleViolation("the season has started", field="season_start", hint="pick a future start")
    if not 30 <= (season_end - season_start).days <= 366:
        raise RuleViolation("a season runs 30 to 366 days", field="season_end", hint="adjust the season's end")
    _fits(boat, slip)
    clash = _taken(ctx, slip.id, season_start, season_end)
    if clash is not None:
        raise Conflict(f"slip {slip.name} is held by {clash}", field="slip_id", hint="pick another slip")
    for c in ctx.where(Contract, boat_id=boat.id):
        if c.status != "voided" and c.season_start <= season_end and season_start <= c.season_end:
            raise Conflict(f"{boat.name} already has contract {c.id}", field="boat_id", hint="void it first")
    rate = ctx.get(Marina, slip.marina_id).seasonal_rate_per_ft
    return ctx.create(
        Contract,
        marina_id=slip.marina_id,
        slip_id=slip.id,
        boat_id=boat.id,
        season_start=season_start,
        season_end=season_end,
        amount=round(rate * boat.loa_ft),
    )


@service.tool(
    intent="record the boater's signature on the contract",
    write=True,
    example=first_example(Contract, "contract_id", where={"status": "sent"}),
)
def sign_contract(ctx: Ctx, contract_id: ContractId) -> Contract:
    """Record that the boater signed a sent contract; the slip is theirs for the season.

    Args:
        contract_id: The contract.
    """
    c = ctx.get(Contract, contract_id, field="contract_id")
    if c.status != "sent":
        raise RuleViolation(f"the contract is {c.status}", field="contract_id", hint="only sent contracts are signed")
    return ctx.update(c, status="signed", signed_at=ctx.now())


def _example_fuel(ctx: Ctx) -> dict[str, Any] | None:
    boat = ctx.first(Boat)
    m = ctx.first(Marina)
    if boat is None or m is None:
        return None
    staff = ctx.population.employees[0].email
    return {"marina_id": m.id, "boat_id": boat.id, "fuel": "diesel", "gallons": 42.5, "attendant_email": staff}


@service.tool(intent="ring up the fuel sale", write=True, example=_example_fuel)
def record_fuel_sale(
    ctx: Ctx,
    marina_id: MarinaId,
    boat_id: BoatId,
    fuel: Literal["gasoline", "diesel"],
    gallons: Annotated[float, Field(gt=0, le=2000)],
    attendant_email: Email,
) -> FuelSale:
    """Ring up fuel pumped into a boat at the fuel dock at today's price per gallon.

    Args:
        marina_id: The marina.
        boat_id: The boat.
        fuel: gasoline or diesel.
        gallons: Gallons pumped.
        attendant_email: The dock hand (an employee).
    """
    ctx.get(Marina, marina_id, field="marina_id")
    ctx.get(Boat, boat_id, field="boat_id")
    require_employee(ctx, attendant_email, field="attendant_email", hint="fuel is pumped by dock staff")
    price = FUEL_PRICES[fuel]
    return ctx.create(
        FuelSale,
        marina_id=marina_id,
        boat_id=boat_id,
        fuel=fuel,
        gallons=gallons,
        price_per_gallon=price,
        total=round(gallons * price),
        attendant_email=attendant_email,
    )


# -- seed -------------------------------------------------------------------------------------

DOCKS: tuple[tuple[str, float, float, float, Any], ...] = (
    ("A", 26, 10, 5, 30),
    ("B", 35, 13, 7, 30),
    ("C", 45, 16, 9, 50),
    ("T", 80, 24, 12, 100),
)
BOATS: tuple[tuple[str, str, float, float, float], ...] = (
    ("Sea Breeze", "Boston Whaler 270 Dauntless", 27, 9, 2),
    ("Second Wind", "Beneteau Oceanis 38 sailboat", 38, 13, 6),
    ("Reel Therapy", "Grady-White Canyon 306", 31, 11, 2.5),
    ("Osprey", "Catalina 30 sailboat", 30, 11, 5.5),
    ("Knot Working", "Sea Ray Sundancer 320", 33, 11, 3),
    ("Blue Heron", "Hinckley Picnic Boat 37", 37, 12, 2),
    ("Windward", "Hallberg-Rassy 44", 44, 14, 7),
    ("Serenity", "Azimut 60 motor yacht", 60, 16, 5),
    ("Pelican", "Sea Pro 239", 23, 8.5, 1.5),
    ("Tidewater", "Jeanneau Sun Odyssey 410", 41, 13, 7),
)


@service.seeder
def seed(s: SeedContext) -> None:
    """Two marinas with docks of slips, boats of consumers, stays in every state, contracts and fuel sales."""
    pop = s.population
    staff = pop.staff("Operations", fallback=4)
    places = [pop.home.place, *[p for p in pop.places if p.city != pop.home.place.city][:1]]
    made: list[Marina] = []
    for k, place in enumerate(places):
        m = s.create(
            Marina,
            name=f"{place.city} Harbor Marina",
            city=place.city,
            currency=place.currency,
            phone=place.phone_prefix + f"{5550100 + k:07d}",
            nightly_rate_per_ft=350 + 50 * k,
            seasonal_rate_per_ft=9500 + 1000 * k,
        )
        made.append(m)
        for dock, length, beam, depth, amps in DOCKS:
            for n in range(1, 4 if dock == "T" else 5):
                s.create(
                    Slip,
                    marina_id=m.id,
                    name=f"{dock}-{n}",
                    length_ft=length,
                    beam_ft=beam,
                    depth_ft=depth,
                    power_amps=amps,
                    status="out_of_service" if (dock, n) == ("A", 4) else "available",
                )
    boats: list[Boat] = []
    for k, (name, kind, loa, beam, draft) in enumerate(BOATS):
        p = pop.consumers[k % len(pop.consumers)]
        boats.append(
            s.create(
                Boat,
                name=name,
                make_and_type=kind,
                loa_ft=loa,
                beam_ft=beam,
                draft_ft=draft,
                owner_name=p.name,
                owner_email=p.email,
                owner_phone=p.phone,
                created_at=s.ago(days=400 - 30 * k),
            )
        )
    today = s.now.date()
    home = made[0]
    free = [x for x in s.records(Slip) if x.marina_id == home.id and x.status == "available"]
    plan: tuple[tuple[int, int, int, ResStatus], ...] = (
        (-6, -2, 0, "checked_out"),
        (-2, 3, 1, "checked_in"),
        (0, 2, 2, "confirmed"),
        (5, 8, 3, "confirmed"),
        (10, 14, 4, "requested"),
        (12, 13, 5, "requested"),
        (3, 6, 6, "cancelled"),
        (20, 22, 8, "declined"),
    )
    for start, end, b, status in plan:
        boat = boats[b]
        slip = next(
            x for x in free if boat.loa_ft <= x.length_ft and boat.beam_ft <= x.beam_ft and boat.draft_ft <= x.depth_ft
        )
        free.remove(slip)
        arrival, departure = today + dt.timedelta(days=start), today + dt.timedelta(days=end)
        nights = (departure - arrival).days if status == "checked_out" else 0
        s.create(
            Reservation,
            marina_id=home.id,
            slip_id=slip.id,
            boat_id=boat.id,
            arrival=arrival,
            departure=departure,
            status=status,
            nights_charged=nights,
            amount_charged=round(nights * home.nightly_rate_per_ft * boat.loa_ft),
            created_at=s.ago(days=20),
        )
    season = (dt.date(today.year, 4, 15), dt.date(today.year, 10, 31))
    for b, state in ((6, "signed"), (7, "sent"), (9, "voided")):
        boat = boats[b]
        slip = next(x for x in free if boat.loa_ft <= x.length_ft and boat.draft_ft <= x.depth_ft)
        free.remove(slip)
        s.create(
            Contract,
            marina_id=home.id,
            slip_id=slip.id,
            boat_id=boat.id,
            season_start=season[0] + dt.timedelta(days=365) if state == "sent" else season[0],
            season_end=season[1] + dt.timedelta(days=365) if state == "sent" else season[1],
            amount=round(home.seasonal_rate_per_ft * boat.loa_ft),
            status=state,
            signed_at=s.ago(days=90) if state == "signed" else None,
            created_at=s.ago(days=120),
        )
    for k in range(8):
        boat = boats[k]
        fuel: Any = "diesel" if boat.loa_ft > 35 else "gasoline"
        gallons = round(20 + s.rng.random() * 80, 1)
        s.create(
            FuelSale,
            marina_id=made[k % 2].id,
            boat_id=boat.id,
            fuel=fuel,
            gallons=gallons,
            price_per_gallon=FUEL_PRICES[fuel],
            total=round(gallons * FUEL_PRICES[fuel]),
            attendant_email=staff[k % len(staff)].email,
            created_at=s.ago(days=k * 3 + 1, hours=4),
        )
