"""Skyframe Ops: drone operations: sites, certified pilots, flight plans, airspace authorizations, flights, maps.

Modeled on DroneDeploy (projects/sites, flight plans with altitude, overlap and
camera, flights logged by pilots, map processing into orthomosaics, elevation
models and plant-health maps, annotations and measurements) and on the FAA
LAANC flow it integrates (Aloft / Airspace Link): a pilot holds a Part 107
certificate that must be current to fly; plans fly at most 400 ft above
ground; a site in controlled airspace (class B, C, D or E surface) needs an
approved authorization for the pilot, the day and the altitude, granted
automatically up to the site's facility-map ceiling and denied above it. A
flight goes scheduled → in_progress → completed (with images captured) or
aborted; only a completed flight is processed into maps, which go processing →
complete or failed; annotations are added to complete maps only.
"""

from __future__ import annotations

import datetime as dt
from typing import Annotated, Any, Literal

from pydantic import Field, StringConstraints

from compoworld.engine.context import Ctx
from compoworld.engine.errors import Conflict, RuleViolation
from compoworld.engine.service import Service, Transition
from compoworld.engine.state import SeedContext
from compoworld.engine.types import City, Date, Email, IdOf, Latitude, Longitude, PersonName, Text, Title
from compoworld.services.kit.examples import first_example
from compoworld.services.kit.lists import require_employee
from compoworld.services.kit.records import Timestamped

__all__ = ["service"]

service = Service(
    "drones",
    title="Skyframe Ops",
    category="drone_operations",
    modeled_on="DroneDeploy API (sites, flight plans, flights, map processing, annotations) with FAA LAANC "
    "airspace authorizations (Aloft / Airspace Link)",
    description="Drone operations for surveys and inspections: sites and their airspace, Part 107 pilots, flight "
    "plans with altitude, overlap and camera, airspace authorizations, flights flown, maps processed from them "
    "and the annotations and measurements made on the maps.",
)

SiteId = Annotated[str, IdOf("drones.site")]
PilotId = Annotated[str, IdOf("drones.pilot")]
PlanId = Annotated[str, IdOf("drones.flight_plan")]
AuthId = Annotated[str, IdOf("drones.authorization")]
FlightId = Annotated[str, IdOf("drones.flight")]
MapId = Annotated[str, IdOf("drones.map")]
NoteId = Annotated[str, IdOf("drones.annotation")]

Airspace = Literal["B", "C", "D", "E", "G"]
Camera = Literal["rgb", "multispectral", "thermal"]
MapKind = Literal["orthomosaic", "elevation", "model_3d", "plant_health"]
Altitude = Annotated[int, Field(ge=50, le=1000)]
CertNumber = Annotated[str, StringConstraints(pattern=r"^\d{7}$")]
"""A Part 107 remote pilot certificate number."""

CONTROLLED: tuple[Airspace, ...] = ("B", "C", "D", "E")
MAX_AGL = 400


class Site(Timestamped):
    """A place flown, with its airspace."""

    id: SiteId
    name: Title
    """The site's name."""
    city: City
    """The nearest city."""
    latitude: Latitude
    """Its latitude."""
    longitude: Longitude
    """Its longitude."""
    airspace: Airspace
    """Airspace class: B, C, D, E (controlled) or G."""
    ceiling_ft: Annotated[int, Field(ge=0, le=400)] = 400
    """The UAS facility map ceiling (altitude LAANC grants automatically)."""


class Pilot(Timestamped):
    """A Part 107 certified remote pilot on the staff."""

    id: PilotId
    name: PersonName
    """The pilot's name."""
    email: Email
    """Their e-mail (an employee's)."""
    certificate: CertNumber
    """Their Part 107 certificate number."""
    current_until: Date
    """When their recurrent training lapses."""


class FlightPlan(Timestamped):
    """A mapping mission over a site."""

    id: PlanId
    site_id: SiteId
    """The site."""
    name: Title
    """The plan's name."""
    altitude_ft: Altitude
    """Flight altitude above ground (at most 400)."""
    front_overlap_pct: Annotated[int, Field(ge=50, le=95)] = 75
    """Front image overlap."""
    side_overlap_pct: Annotated[int, Field(ge=50, le=95)] = 70
    """Side image overlap."""
    camera: Camera = "rgb"
    """rgb, multispectral or thermal."""
    area_acres: Annotated[float, Field(gt=0, le=10000)]
    """The area mapped."""


class Authorization(Timestamped):
    """An airspace authorization (LAANC) for a pilot, a site, a day and an altitude."""

    id: AuthId
    site_id: SiteId
    """The site."""
    pilot_id: PilotId
    """The pilot."""
    day: Date
    """The day of operation."""
    max_altitude_ft: Altitude
    """The altitude asked for."""
    status: Literal["approved", "denied", "cancelled"]
    """approved, denied (above the ceiling) or cancelled."""
    reference: Annotated[str, StringConstraints(pattern=r"^LAANC-[A-Z0-9]{6}$")]
    """The FAA reference code."""


class Flight(Timestamped):
    """A flight of a plan by a pilot."""

    id: FlightId
    plan_id: PlanId
    """The flight plan."""
    pilot_id: PilotId
    """The pilot."""
    day: Date
    """The day it flies."""
    authorization_id: AuthId | None = None
    """The airspace authorization (controlled airspace)."""
    status: Literal["scheduled", "in_progress", "completed", "aborted"] = "scheduled"
    """scheduled, in_progress, completed or aborted."""
    images: int = 0
    """Images captured."""
    notes: Text = ""
    """The pilot's notes."""


class Map(Timestamped):
    """A map processed from a flight's images."""

    id: MapId
    flight_id: FlightId
    """The flight."""
    kind: MapKind
    """orthomosaic, elevation, model_3d or plant_health."""
    status: Literal["processing", "complete", "failed"] = "processing"
    """processing, complete or failed."""
    gsd_cm: float
    """Ground sample distance, cm per pixel."""


class Annotation(Timestamped):
    """A marker, line, area or volume drawn on a map."""

    id: NoteId
    map_id: MapId
    """The map."""
    kind: Literal["marker", "distance", "area", "volume"]
    """marker, distance (m), area (m²) or volume (m³)."""
    label: Title
    """What it marks."""
    value: float = 0
    """The measurement (0 for a marker)."""
    author_email: Email
    """Who drew it."""


# -- rules ------------------------------------------------------------------------------------


def _guard_plan(ctx: Ctx, new: Any, old: Any) -> None:
    if new.altitude_ft > MAX_AGL:
        raise RuleViolation(
            f"{new.altitude_ft} ft is above the 400 ft Part 107 limit",
            field="altitude_ft",
            hint="fly at 400 ft or lower",
        )
    ctx.get(Site, new.site_id, field="site_id")


def _guard_note(ctx: Ctx, new: Any, old: Any) -> None:
    require_employee(ctx, new.author_email, field="author_email", hint="annotations are made by staff")
    if ctx.get(Map, new.map_id, field="map_id").status != "complete":
        raise RuleViolation("the map is not complete", field="map_id", hint="annotate a complete map")
    if (new.kind == "marker") != (new.value == 0):
        raise RuleViolation("only a marker has no measurement", field="value", hint="give the measured value")


sites = service.resource(
    Site,
    name="site",
    plural="sites",
    prefix="site",
    create=("name", "city", "latitude", "longitude", "airspace", "ceiling_ft"),
    filters=("city", "airspace"),
    search=("name",),
    update=("name", "ceiling_ft"),
    delete=False,
)
pilots = service.resource(
    Pilot,
    name="pilot",
    plural="pilots",
    prefix="plt",
    create=False,
    filters=("email", "certificate"),
    search=("name",),
    update=("current_until",),
    delete=False,
)
plans = service.resource(
    FlightPlan,
    name="flight_plan",
    plural="flight_plans",
    prefix="plan",
    create=("site_id", "name", "altitude_ft", "front_overlap_pct", "side_overlap_pct", "camera", "area_acres"),
    filters=("site_id", "camera"),
    search=("name",),
    update=("name", "altitude_ft", "front_overlap_pct", "side_overlap_pct", "camera"),
    guard_create=_guard_plan,
    guard_update=_guard_plan,
    title="flight plan",
)
auths = service.resource(
    Authorization,
    name="authorization",
    plural="authorizations",
    prefix="auth",
    create=False,
    filters=("site_id", "pilot_id", "day", "status"),
    delete=False,
    transitions={"cancel": Transition("status", ("approved",), "cancelled", "cancel the authorization")},
    title="airspace authorization",
)
flights = service.resource(
    Flight,
    name="flight",
    plural="flights",
    prefix="flt",
    create=False,
    filters=("plan_id", "pilot_id", "day", "status"),
    delete=False,
    transitions={
        "launch": Transition("status", ("scheduled",), "in_progress", "launch the flight"),
        "abort": Transition("status", ("scheduled", "in_progress"), "aborted", "abort the flight"),
    },
)
maps = service.resource(
    Map,
    name="map",
    plural="maps",
    prefix="map",
    create=False,
    filters=("flight_id", "kind", "status"),
    delete=False,
)
notes = service.resource(
    Annotation,
    name="annotation",
    plural="annotations",
    prefix="ann",
    create=("map_id", "kind", "label", "value", "author_email"),
    filters=("map_id", "kind", "author_email"),
    search=("label",),
    update=("label",),
    guard_create=_guard_note,
)


# -- domain tools -----------------------------------------------------------------------------


def _example_pilot(ctx: Ctx) -> dict[str, Any] | None:
    taken = {p.email for p in ctx.scan(Pilot)}
    person = next((p for p in ctx.population.employees if p.email not in taken), None)
    if person is None:
        return None
    until = (ctx.today() + dt.timedelta(days=300)).isoformat()
    return {"email": person.email, "certificate": "4419023", "current_until": until}


@service.tool(intent="add the pilot", write=True, example=_example_pilot)
def add_pilot(ctx: Ctx, email: Email, certificate: CertNumber, current_until: Date) -> Pilot:
    """Add an employee as a pilot with their Part 107 certificate (each person and certificate once).

    Args:
        email: The employee's e-mail.
        certificate: Their 7-digit Part 107 certificate number.
        current_until: When their recurrent training lapses.
    """
    person = require_employee(ctx, email, field="email", hint="pilots are staff")
    for key, value in (("email", email), ("certificate", certificate)):
        if ctx.first(Pilot, **{key: value}) is not None:
            raise Conflict(f"a pilot with {key} {value} exists", field=key, hint="update that pilot")
    return ctx.create(Pilot, name=person.name, email=email, certificate=certificate, current_until=current_until)


def _current(ctx: Ctx, pilot_id: str, day: dt.date) -> Pilot:
    pilot = ctx.get(Pilot, pilot_id, field="pilot_id")
    if pilot.current_until < day:
        raise RuleViolation(
            f"{pilot.name}'s Part 107 currency lapses {pilot.current_until}",
            field="pilot_id",
            hint="pick a current pilot",
        )
    return pilot


def _example_auth(ctx: Ctx) -> dict[str, Any] | None:
    site = ctx.first(Site, airspace="D")
    pilot = next((p for p in ctx.scan(Pilot) if p.current_until > ctx.today()), None)
    if site is None or pilot is None:
        return None
    day = (ctx.today() + dt.timedelta(days=2)).isoformat()
    return {"site_id": site.id, "pilot_id": pilot.id, "day": day, "max_altitude_ft": site.ceiling_ft}


@service.tool(intent="request airspace authorization", write=True, example=_example_auth)
def request_authorization(
    ctx: Ctx, site_id: SiteId, pilot_id: PilotId, day: Date, max_altitude_ft: Altitude
) -> Authorization:
    """Ask LAANC for a controlled-airspace site: approved up to the facility-map ceiling, denied above it.

    Args:
        site_id: The site (class B, C, D or E).
        pilot_id: The pilot (current on that day).
        day: The day of operation (today or later).
        max_altitude_ft: The altitude asked for.
    """
    site = ctx.get(Site, site_id, field="site_id")
    if site.airspace not in CONTROLLED:
        raise RuleViolation("class G airspace needs no authorization", field="site_id", hint="just fly")
    if day < ctx.today():
        raise RuleViolation("the day is past", field="day", hint="ask for today or later")
    _current(ctx, pilot_id, day)
    ok = max_altitude_ft <= site.ceiling_ft
    ref = f"LAANC-{ctx.next_number(Authorization, 'ref'):06d}"
    return ctx.create(
        Authorization,
        site_id=site.id,
        pilot_id=pilot_id,
        day=day,
        max_altitude_ft=max_altitude_ft,
        status="approved" if ok else "denied",
        reference=ref,
    )


def _example_schedule(ctx: Ctx) -> dict[str, Any] | None:
    for plan in ctx.scan(FlightPlan):
        if ctx.get(Site, plan.site_id).airspace == "G":
            pilot = next((p for p in ctx.scan(Pilot) if p.current_until > ctx.today()), None)
            if pilot is not None:
                return {"plan_id": plan.id, "pilot_id": pilot.id, "day": ctx.today().isoformat()}
    return None


@service.tool(intent="schedule the flight", write=True, example=_example_schedule)
def schedule_flight(
    ctx: Ctx, plan_id: PlanId, pilot_id: PilotId, day: Date, authorization_id: AuthId | None = None
) -> Flight:
    """Schedule a plan's flight for a current pilot; controlled airspace needs their approved authorization.

    Args:
        plan_id: The flight plan.
        pilot_id: The pilot.
        day: The day (today or later).
        authorization_id: The approved authorization for the site, pilot, day and altitude.
    """
    plan = ctx.get(FlightPlan, plan_id, field="plan_id")
    if day < ctx.today():
        raise RuleViolation("the day is past", field="day", hint="schedule today or later")
    _current(ctx, pilot_id, day)
    site = ctx.get(Site, plan.site_id)
    if site.airspace in CONTROLLED:
        if authorization_id is None:
            raise RuleViolation(
                f"{site.name} is in class {site.airspace} airspace",
                field="authorization_id",
                hint="request one with drones__request_authorization",
            )
        auth = ctx.get(Authorization, authorization_id, field="authorization_id")
        fits = (auth.site_id, auth.pilot_id, auth.day, auth.status) == (site.id, pilot_id, day, "approved")
        if not fits or auth.max_altitude_ft < plan.altitude_ft:
            raise RuleViolation(
                "the authorization does not cover this site, pilot, day and altitude",
                field="authorization_id",
                hint="request a matching authorization",
            )
    return ctx.create(Flight, plan_id=plan.id, pilot_id=pilot_id, day=day, authorization_id=authorization_id)


@service.tool(
    intent="complete the flight",
    write=True,
    example=first_example(Flight, "flight_id", where={"status": "in_progress"}, images=412),
)
def complete_flight(
    ctx: Ctx, flight_id: FlightId, images: Annotated[int, Field(ge=1, le=100000)], notes: Text = ""
) -> Flight:
    """Land a flight in progress with the images it captured.

    Args:
        flight_id: The flight.
        images: Images captured.
        notes: The pilot's notes.
    """
    flight = ctx.get(Flight, flight_id, field="flight_id")
    if flight.status != "in_progress":
        raise RuleViolation(f"the flight is {flight.status}", field="flight_id", hint="launch it first")
    return ctx.update(flight, status="completed", images=images, notes=notes)


@service.tool(
    intent="process the flight into a map",
    write=True,
    example=first_example(Flight, "flight_id", where={"status": "completed"}, kind="elevation"),
)
def process_map(ctx: Ctx, flight_id: FlightId, kind: MapKind) -> Map:
    """Start processing a completed flight into a map (one of each kind; plant health needs multispectral).

    Args:
        flight_id: The flight.
        kind: orthomosaic, elevation, model_3d or plant_health.
    """
    flight = ctx.get(Flight, flight_id, field="flight_id")
    if flight.status != "completed":
        raise RuleViolation(f"the flight is {flight.status}", field="flight_id", hint="only completed flights")
    plan = ctx.get(FlightPlan, flight.plan_id)
    if kind == "plant_health" and plan.camera != "multispectral":
        raise RuleViolation("plant health needs a multispectral camera", field="kind", hint="pick another map")
    if any(m.kind == kind and m.status != "failed" for m in ctx.where(Map, flight_id=flight.id)):
        raise Conflict(f"a {kind} map exists for this flight", field="kind", hint="use that map")
    gsd = round(plan.altitude_ft * 0.0082, 2)
    return ctx.create(Map, flight_id=flight.id, kind=kind, gsd_cm=gsd)


@service.tool(
    intent="finish processing the map",
    write=True,
    example=first_example(Map, "map_id", where={"status": "processing"}, succeeded=True),
)
def finish_map(ctx: Ctx, map_id: MapId, succeeded: bool) -> Map:
    """Record the end of a map's processing: complete, or failed (it may then be processed again).

    Args:
        map_id: The map.
        succeeded: Whether processing succeeded.
    """
    found = ctx.get(Map, map_id, field="map_id")
    if found.status != "processing":
        raise Conflict(f"the map is already {found.status}", field="map_id", hint="nothing to do")
    return ctx.update(found, status="complete" if succeeded else "failed")


# -- seed -------------------------------------------------------------------------------------


@service.seeder
def seed(s: SeedContext) -> None:
    """Sites near the world's cities, staff pilots, plans, authorizations, flights at every stage, maps, notes."""
    pop = s.population
    today = s.now.date()
    made_sites = [
        s.create(
            Site,
            name=f"{place.city} {kind}",
            city=place.city,
            latitude=place.latitude,
            longitude=place.longitude,
            airspace=space,
            ceiling_ft=ceiling,
        )
        for place, kind, space, ceiling in zip(
            pop.places[:4],
            ("quarry", "solar farm", "warehouse roof", "orchard"),
            ("G", "D", "C", "G"),
            (400, 200, 100, 400),
            strict=True,
        )
    ]
    crew = pop.staff("Operations", fallback=3)[:3]
    made_pilots = [
        s.create(
            Pilot,
            name=p.name,
            email=p.email,
            certificate=f"{4100000 + 37 * k}",
            current_until=today + dt.timedelta(days=-10 if k == 2 else 200),
        )
        for k, p in enumerate(crew)
    ]
    made_plans = [
        s.create(FlightPlan, site_id=site.id, name=f"{site.name} survey", altitude_ft=alt, camera=cam, area_acres=acres)
        for site, alt, cam, acres in zip(
            made_sites,
            (300, 180, 90, 250),
            ("rgb", "thermal", "rgb", "multispectral"),
            (42.0, 18.5, 3.2, 60.0),
            strict=True,
        )
    ]
    auth = s.create(
        Authorization,
        site_id=made_sites[1].id,
        pilot_id=made_pilots[1].id,
        day=today,
        max_altitude_ft=200,
        status="approved",
        reference="LAANC-000901",
    )
    stages = (
        (made_plans[0], "completed", 380),
        (made_plans[1], "in_progress", 0),
        (made_plans[3], "completed", 520),
        (made_plans[0], "scheduled", 0),
    )
    for k, (plan, status, images) in enumerate(stages):
        flight = s.create(
            Flight,
            plan_id=plan.id,
            pilot_id=made_pilots[k % 2].id,
            day=today - dt.timedelta(days=3 - k) if status == "completed" else today,
            authorization_id=auth.id if plan is made_plans[1] else None,
            status=status,
            images=images,
        )
        if status == "completed":
            ortho = s.create(
                Map,
                flight_id=flight.id,
                kind="orthomosaic",
                status="complete",
                gsd_cm=round(plan.altitude_ft * 0.0082, 2),
            )
            s.create(Map, flight_id=flight.id, kind="elevation", status="processing", gsd_cm=ortho.gsd_cm)
            s.create(
                Annotation,
                map_id=ortho.id,
                kind="volume",
                label="Gravel stockpile",
                value=1840.5,
                author_email=crew[0].email,
            )
