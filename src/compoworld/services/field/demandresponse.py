"""Gridflex DR: utility demand response programs, enrolled sites, DR events with opt-outs, telemetry, settlement.

Modeled on an OpenADR 2.0b VTN (Virtual Top Node) as run by a utility or aggregator (e.g. the
OpenADR Alliance profile as implemented by Enel X / AutoGrid Flex): programs with a market context,
notice, duration and season limits; VENs (sites) that register with a program (``oadrCreatePartyRegistration``)
with a baseline and a committed reduction, go pending → enrolled ↔ suspended → unenrolled; DR events
(``oadrDistributeEvent``) with a SIMPLE level or ELECTRICITY_PRICE signal whose eventStatus goes far → near →
active → completed, or cancelled; per-site responses (``oadrCreatedEvent`` optIn / optOut) limited per
season and closed once the event starts; TELEMETRY_USAGE reports (``oadrUpdateReport``) in 15-minute
intervals; and settlement of a completed event: measured load against the baseline gives each opted-in
site's delivered reduction and incentive, approved then paid.
"""

from __future__ import annotations

import datetime as dt
from typing import Annotated, Any, Literal

from pydantic import Field, StringConstraints

from compoworld.engine.context import Ctx
from compoworld.engine.errors import Conflict, RuleViolation
from compoworld.engine.records import CREATED, UPDATED, Record
from compoworld.engine.service import Service, Transition
from compoworld.engine.state import SeedContext
from compoworld.engine.types import Cents, CompanyName, DateTime, Email, IdOf, PostalAddress, Title, Url
from compoworld.services.kit.examples import first_example
from compoworld.services.kit.records import Value

__all__ = ["service"]

service = Service(
    "demandresponse",
    title="Gridflex DR",
    category="demand_response",
    modeled_on="OpenADR 2.0b VTN (oadrCreatePartyRegistration, oadrDistributeEvent with eventStatus and "
    "SIMPLE / ELECTRICITY_PRICE signals, oadrCreatedEvent opt-in / opt-out, oadrUpdateReport TELEMETRY_USAGE)",
    description="Utility demand response: DR programs with notice and season limits, customer sites (VENs) "
    "enrolled with a baseline and committed load reduction, DR events with signals sent to enrolled sites, "
    "opt-outs, 15-minute telemetry reports, and settlement of each event's delivered reduction and incentives.",
)

ProgramId = Annotated[str, IdOf("demandresponse.program")]
SiteId = Annotated[str, IdOf("demandresponse.site")]
EventId = Annotated[str, IdOf("demandresponse.event")]
ResponseId = Annotated[str, IdOf("demandresponse.response")]
ReportId = Annotated[str, IdOf("demandresponse.report")]
SettlementId = Annotated[str, IdOf("demandresponse.settlement")]

VenId = Annotated[str, StringConstraints(pattern=r"^VEN-[A-Z0-9]{4,16}$")]
Kw = Annotated[float, Field(ge=0, le=100000)]
"""Power in kilowatts."""
ProgramType = Literal["critical_peak_pricing", "capacity_bidding", "emergency", "fast_dr"]
ProgramStatus = Literal["active", "closed"]
SiteStatus = Literal["pending", "enrolled", "suspended", "unenrolled"]
EventStatus = Literal["far", "near", "active", "completed", "cancelled"]
SignalName = Literal["SIMPLE", "ELECTRICITY_PRICE"]
Opt = Literal["opt_in", "opt_out"]
SettlementStatus = Literal["calculated", "approved", "paid"]

INTERVAL = dt.timedelta(minutes=15)
NEAR = dt.timedelta(hours=24)
RAMP = dt.timedelta(minutes=30)


class Program(Record):
    """A demand response program."""

    id: ProgramId
    name: Title
    """Program name."""
    program_type: ProgramType
    """critical_peak_pricing, capacity_bidding, emergency or fast_dr."""
    market_context: Url
    """The OpenADR market context URI."""
    incentive_cents_per_kwh: Cents
    """Incentive paid per kWh of delivered reduction."""
    min_notice_minutes: Annotated[int, Field(ge=0, le=10080)] = 120
    """Least notice before an event starts."""
    max_duration_minutes: Annotated[int, Field(ge=15, le=1440)] = 240
    """Longest event."""
    max_events_per_season: Annotated[int, Field(ge=1, le=200)] = 15
    """Events a calendar year may have."""
    opt_outs_per_season: Annotated[int, Field(ge=0, le=200)] = 3
    """Opt-outs a site may use per calendar year."""
    status: ProgramStatus = "active"
    """active or closed."""


class Site(Record):
    """A customer site (VEN) registered with a program."""

    id: SiteId
    ven_id: VenId
    """The VEN's identifier (unique per program)."""
    program_id: ProgramId
    """The program."""
    name: Title
    """Site name."""
    company_name: CompanyName
    """The customer that owns the site."""
    contact_email: Email
    """The customer's energy contact."""
    address: PostalAddress
    """Site address."""
    baseline_kw: Kw
    """Typical load during event hours."""
    committed_kw: Kw
    """Load reduction committed per event (at most the baseline)."""
    status: SiteStatus = "pending"
    """pending, enrolled, suspended or unenrolled."""
    created_at: Annotated[DateTime, CREATED]
    """When it registered."""
    updated_at: Annotated[DateTime, UPDATED]
    """When it last changed."""


class Event(Record):
    """A DR event sent to a program's enrolled sites."""

    id: EventId
    program_id: ProgramId
    """The program."""
    dtstart: DateTime
    """Start of the active period."""
    duration_minutes: Annotated[int, Field(ge=15, le=1440)]
    """Length of the active period."""
    signal_name: SignalName
    """SIMPLE (level) or ELECTRICITY_PRICE."""
    signal_value: Annotated[float, Field(ge=0, le=10000)]
    """SIMPLE level 0-3, or price per kWh."""
    status: EventStatus = "far"
    """far, near (within 24 h), active, completed or cancelled."""
    modification_number: int = 0
    """Raised at every change sent to the VENs."""
    created_at: Annotated[DateTime, CREATED]
    """When it was issued."""
    updated_at: Annotated[DateTime, UPDATED]
    """When it last changed."""


class Response(Record):
    """A site's opt-in or opt-out of an event."""

    id: ResponseId
    event_id: EventId
    """The event."""
    site_id: SiteId
    """The site."""
    opt: Opt = "opt_in"
    """opt_in or opt_out."""
    updated_at: Annotated[DateTime, UPDATED]
    """When it last changed."""


class Report(Record):
    """A TELEMETRY_USAGE interval reading."""

    id: ReportId
    site_id: SiteId
    """The site."""
    interval_start: DateTime
    """Start of the 15-minute interval."""
    kw: Kw
    """Average load in the interval."""
    received_at: Annotated[DateTime, CREATED]
    """When it was reported."""


class Settlement(Record):
    """What a site delivered in an event and earned."""

    id: SettlementId
    event_id: EventId
    """The event."""
    site_id: SiteId
    """The site."""
    contact_email: Email
    """The site's contact, who is paid."""
    measured_kw: Kw
    """Average load during the event (from telemetry)."""
    reduction_kw: Kw
    """Baseline minus measured (0 if none)."""
    delivered_kwh: Annotated[float, Field(ge=0)]
    """Reduction times event hours."""
    performance_pct: Annotated[float, Field(ge=0)]
    """Reduction as a percentage of the commitment."""
    incentive_cents: Cents
    """Incentive earned."""
    status: SettlementStatus = "calculated"
    """calculated, approved or paid."""
    created_at: Annotated[DateTime, CREATED]
    """When it was calculated."""


class SitePerformance(Value):
    """A site's record across settled events."""

    site_id: SiteId
    """The site."""
    events_settled: int
    """Settled events."""
    opt_outs_this_season: int
    """Opt-outs used this calendar year."""
    average_performance_pct: float
    """Mean performance."""
    incentives_cents: int
    """Total incentives."""


# -- rules ------------------------------------------------------------------------------------


def _guard_site(ctx: Ctx, new: Any, old: Any) -> None:
    if new.committed_kw > new.baseline_kw:
        raise RuleViolation(
            f"commitment {new.committed_kw} kW exceeds the baseline {new.baseline_kw} kW",
            field="committed_kw",
            hint="commit at most the baseline",
        )


def _guard_program(ctx: Ctx, new: Any, old: Any) -> None:
    if old is not None and old.status == "closed":
        raise RuleViolation("the program is closed", field="program_id", hint="closed programs do not change")


programs = service.resource(
    Program,
    name="program",
    plural="programs",
    prefix="prg",
    create=(
        "name",
        "program_type",
        "market_context",
        "incentive_cents_per_kwh",
        "min_notice_minutes",
        "max_duration_minutes",
        "max_events_per_season",
        "opt_outs_per_season",
    ),
    filters=("program_type", "status"),
    search=("name",),
    update=("incentive_cents_per_kwh", "min_notice_minutes", "max_events_per_season", "opt_outs_per_season"),
    delete=False,
    transitions={"close": Transition("status", ("active",), "closed", "close the program", destructive=True)},
    guard_update=_guard_program,
    title="DR program",
)
sites = service.resource(
    Site,
    name="site",
    plural="sites",
    prefix="site",
    create=False,
    filters=("program_id", "status", "ven_id", "contact_email", "company_name"),
    search=("name", "company_name"),
    update=("baseline_kw", "committed_kw", "contact_email"),
    delete=False,
    transitions={
        "approve": Transition("status", ("pending",), "enrolled", "approve the site's enrollment"),
        "suspend": Transition("status", ("enrolled",), "suspended", "suspend the site from dispatch"),
        "reinstate": Transition("status", ("suspended",), "enrolled", "reinstate the site"),
        "unenroll": Transition(
            "status", ("pending", "enrolled", "suspended"), "unenrolled", "unenroll the site", destructive=True
        ),
    },
    guard_update=_guard_site,
    title="enrolled site",
)
events = service.resource(
    Event,
    name="event",
    plural="events",
    prefix="evt",
    create=False,
    filters=("program_id", "status", "signal_name"),
    delete=False,
    title="DR event",
)
responses = service.resource(
    Response,
    name="response",
    plural="responses",
    prefix="opt",
    create=False,
    get=False,
    filters=("event_id", "site_id", "opt"),
    delete=False,
    title="event response",
)
reports = service.resource(
    Report,
    name="report",
    plural="reports",
    prefix="rpt",
    create=False,
    get=False,
    filters=("site_id",),
    delete=False,
    title="telemetry report",
)
settlements = service.resource(
    Settlement,
    name="settlement",
    plural="settlements",
    prefix="stl",
    create=False,
    filters=("event_id", "site_id", "status", "contact_email"),
    delete=False,
    transitions={
        "approve": Transition("status", ("calculated",), "approved", "approve the settlement"),
        "pay": Transition("status", ("approved",), "paid", "record the incentive as paid"),
    },
)


# -- domain tools -----------------------------------------------------------------------------


def _example_enroll(ctx: Ctx) -> dict[str, Any] | None:
    program = ctx.first(Program, status="active")
    if program is None:
        return None
    co = ctx.population.customers[-1]
    who = ctx.population.first_contact(co)
    return {
        "program_id": program.id,
        "ven_id": "VEN-NEW0001",
        "name": f"{co.name} main plant",
        "company_name": co.name,
        "contact_email": who.email if who else f"energy@{co.domain}",
        "address": co.address.model_dump(),
        "baseline_kw": 800.0,
        "committed_kw": 150.0,
    }


@service.tool(intent="enroll the site in the program", write=True, example=_example_enroll)
def enroll_site(
    ctx: Ctx,
    program_id: ProgramId,
    ven_id: VenId,
    name: Title,
    company_name: CompanyName,
    contact_email: Email,
    address: PostalAddress,
    baseline_kw: Kw,
    committed_kw: Kw,
) -> Site:
    """Register a customer's VEN with an active program; it waits as pending until approved.

    Args:
        program_id: An active program.
        ven_id: The VEN identifier, VEN- and 4-16 capitals or digits; once per program.
        name: Site name.
        company_name: The customer.
        contact_email: The customer's energy contact.
        address: Site address.
        baseline_kw: Typical load in event hours.
        committed_kw: Committed reduction, at most the baseline.
    """
    program = ctx.get(Program, program_id, field="program_id")
    if program.status != "active":
        raise RuleViolation(f"program {program.name!r} is closed", field="program_id", hint="pick an active program")
    for other in ctx.where(Site, ven_id=ven_id, program_id=program.id):
        if other.status != "unenrolled":
            raise Conflict(f"{ven_id} is already registered ({other.id})", field="ven_id", hint="use that site")
    site = ctx.create(
        Site,
        program_id=program.id,
        ven_id=ven_id,
        name=name,
        company_name=company_name,
        contact_email=contact_email,
        address=address,
        baseline_kw=baseline_kw,
        committed_kw=committed_kw,
    )
    _guard_site(ctx, site, None)
    return site


def _example_event(ctx: Ctx) -> dict[str, Any] | None:
    program = ctx.first(Program, status="active")
    if program is None:
        return None
    start = (ctx.now() + dt.timedelta(days=2)).replace(hour=17, minute=0, second=0, microsecond=0)
    return {"program_id": program.id, "dtstart": start.isoformat(), "duration_minutes": 120, "signal_value": 2}


@service.tool(intent="issue the demand response event", write=True, example=_example_event)
def create_event(
    ctx: Ctx,
    program_id: ProgramId,
    dtstart: DateTime,
    duration_minutes: Annotated[int, Field(ge=15, le=1440)],
    signal_value: Annotated[float, Field(ge=0, le=10000)],
    signal_name: SignalName = "SIMPLE",
) -> Event:
    """Issue an event to every enrolled site of a program (each is opted in until it opts out).

    Args:
        program_id: An active program with enrolled sites.
        dtstart: Start, on a quarter hour, at least the program's notice ahead.
        duration_minutes: Length in 15-minute steps, at most the program's maximum.
        signal_value: SIMPLE level 1-3 (1 moderate, 3 special), or the price per kWh.
        signal_name: SIMPLE or ELECTRICITY_PRICE.
    """
    program = ctx.get(Program, program_id, field="program_id")
    if program.status != "active":
        raise RuleViolation(f"program {program.name!r} is closed", field="program_id", hint="pick an active program")
    if dtstart.minute % 15 or dtstart.second or dtstart.microsecond:
        raise RuleViolation("events start on a quarter hour", field="dtstart", hint="use :00, :15, :30 or :45")
    if dtstart < ctx.now() + dt.timedelta(minutes=program.min_notice_minutes):
        raise RuleViolation(
            f"the program needs {program.min_notice_minutes} minutes' notice", field="dtstart", hint="start later"
        )
    if duration_minutes % 15 or duration_minutes > program.max_duration_minutes:
        raise RuleViolation(
            f"events last up to {program.max_duration_minutes} minutes in 15-minute steps",
            field="duration_minutes",
            hint="shorten the event",
        )
    if signal_name == "SIMPLE" and signal_value not in (1, 2, 3):
        raise RuleViolation("a SIMPLE level is 1, 2 or 3", field="signal_value", hint="use 1 (moderate) to 3")
    season = [e for e in ctx.where(Event, program_id=program.id) if e.status != "cancelled"]
    if sum(e.dtstart.year == dtstart.year for e in season) >= program.max_events_per_season:
        raise RuleViolation(
            f"the program has used its {program.max_events_per_season} events for {dtstart.year}",
            field="program_id",
            hint="no more events this season",
        )
    targets = ctx.where(Site, program_id=program.id, status="enrolled")
    if not targets:
        raise RuleViolation("no site is enrolled in the program", field="program_id", hint="approve sites first")
    event = ctx.create(
        Event,
        program_id=program.id,
        dtstart=dtstart,
        duration_minutes=duration_minutes,
        signal_name=signal_name,
        signal_value=signal_value,
        status="near" if dtstart - ctx.now() <= NEAR else "far",
    )
    for site in targets:
        ctx.create(Response, event_id=event.id, site_id=site.id)
    return event


def _upcoming(ctx: Ctx, event_id: str) -> Event:
    event = ctx.get(Event, event_id, field="event_id")
    if event.status not in ("far", "near"):
        raise RuleViolation(f"event {event.id} is {event.status}", field="event_id", hint="only upcoming events")
    return event


@service.tool(
    intent="cancel the demand response event",
    write=True,
    destructive=True,
    example=first_example(Event, "event_id", where={"status": "far"}),
)
def cancel_event(ctx: Ctx, event_id: EventId) -> Event:
    """Cancel an event that has not started; the VENs get the cancellation.

    Args:
        event_id: A far or near event.
    """
    event = _upcoming(ctx, event_id)
    return ctx.update(event, status="cancelled", modification_number=event.modification_number + 1)


@service.tool(
    intent="start the demand response event",
    write=True,
    example=first_example(Event, "event_id", where={"status": "near"}, match=lambda c, e: e.dtstart <= c.now() + RAMP),
)
def activate_event(ctx: Ctx, event_id: EventId) -> Event:
    """Make an event active at its start (from its 30-minute ramp-up); opt-outs close.

    Args:
        event_id: A far or near event starting within 30 minutes.
    """
    event = _upcoming(ctx, event_id)
    if event.dtstart > ctx.now() + RAMP:
        raise RuleViolation(f"event {event.id} starts at {event.dtstart}", field="event_id", hint="wait for the start")
    return ctx.update(event, status="active", modification_number=event.modification_number + 1)


def _end(event: Event) -> dt.datetime:
    return event.dtstart + dt.timedelta(minutes=event.duration_minutes)


@service.tool(
    intent="complete the demand response event",
    write=True,
    example=first_example(Event, "event_id", where={"status": "active"}, match=lambda c, e: _end(e) <= c.now()),
)
def complete_event(ctx: Ctx, event_id: EventId) -> Event:
    """Mark an active event completed once its active period has ended.

    Args:
        event_id: An active event.
    """
    event = ctx.get(Event, event_id, field="event_id")
    if event.status != "active":
        raise RuleViolation(f"event {event.id} is {event.status}", field="event_id", hint="only active events complete")
    if _end(event) > ctx.now():
        raise RuleViolation(f"event {event.id} runs until {_end(event)}", field="event_id", hint="wait for its end")
    return ctx.update(event, status="completed")


@service.tool(
    intent="opt the site out of the event",
    write=True,
    example=first_example(
        Response,
        "response_id",
        where={"opt": "opt_in"},
        match=lambda c, r: c.get(Event, r.event_id).status in ("far", "near"),
    ),
)
def opt_out(ctx: Ctx, response_id: ResponseId) -> Response:
    """Opt a site out of an upcoming event, within its program's opt-outs per season.

    Args:
        response_id: The site's response to the event.
    """
    resp = ctx.get(Response, response_id, field="response_id")
    event = ctx.get(Event, resp.event_id)
    if event.status not in ("far", "near"):
        raise RuleViolation(f"event {event.id} is {event.status}", field="response_id", hint="opt out before it starts")
    if resp.opt == "opt_out":
        raise Conflict("the site has already opted out", field="response_id", hint="nothing to do")
    program = ctx.get(Program, event.program_id)
    used = _opt_outs(ctx, resp.site_id, event.dtstart.year)
    if used >= program.opt_outs_per_season:
        raise RuleViolation(
            f"the site has used all {program.opt_outs_per_season} opt-outs this season",
            field="response_id",
            hint="the site must take part",
        )
    return ctx.update(resp, opt="opt_out")


def _opt_outs(ctx: Ctx, site_id: str, year: int) -> int:
    return sum(
        ctx.get(Event, r.event_id).dtstart.year == year for r in ctx.where(Response, site_id=site_id, opt="opt_out")
    )


@service.tool(
    intent="opt the site back into the event",
    write=True,
    example=first_example(
        Response,
        "response_id",
        where={"opt": "opt_out"},
        match=lambda c, r: c.get(Event, r.event_id).status in ("far", "near"),
    ),
)
def opt_in(ctx: Ctx, response_id: ResponseId) -> Response:
    """Opt a site back into an upcoming event it opted out of.

    Args:
        response_id: The site's response.
    """
    resp = ctx.get(Response, response_id, field="response_id")
    _upcoming(ctx, resp.event_id)
    if resp.opt == "opt_in":
        raise Conflict("the site is already opted in", field="response_id", hint="nothing to do")
    return ctx.update(resp, opt="opt_in")


def _example_report(ctx: Ctx) -> dict[str, Any] | None:
    site = ctx.first(Site, status="enrolled")
    if site is None:
        return None
    start = ctx.now().replace(minute=0, second=0, microsecond=0) - dt.timedelta(minutes=15)
    for r in ctx.where(Report, site_id=site.id):
        if r.interval_start == start:
            return None
    return {"site_id": site.id, "interval_start": start.isoformat(), "kw": round(site.baseline_kw * 0.9, 1)}


@service.tool(intent="report the site's metered load", write=True, example=_example_report)
def submit_report(ctx: Ctx, site_id: SiteId, interval_start: DateTime, kw: Kw) -> Report:
    """Record a 15-minute TELEMETRY_USAGE reading from an enrolled site's VEN.

    Args:
        site_id: An enrolled or suspended site.
        interval_start: Start of a past 15-minute interval.
        kw: Average load in the interval.
    """
    site = ctx.get(Site, site_id, field="site_id")
    if site.status not in ("enrolled", "suspended"):
        raise RuleViolation(f"site {site.name} is {site.status}", field="site_id", hint="only enrolled sites report")
    if interval_start.minute % 15 or interval_start.second or interval_start.microsecond:
        raise RuleViolation("intervals start on a quarter hour", field="interval_start", hint="use :00/:15/:30/:45")
    if interval_start + INTERVAL > ctx.now():
        raise RuleViolation("the interval has not ended", field="interval_start", hint="report past intervals")
    if ctx.first(Report, site_id=site.id, interval_start=interval_start) is not None:
        raise Conflict("that interval is already reported", field="interval_start", hint="report the next one")
    return ctx.create(Report, site_id=site.id, interval_start=interval_start, kw=kw)


@service.tool(
    intent="settle the demand response event",
    write=True,
    example=first_example(
        Event, "event_id", where={"status": "completed"}, match=lambda c, e: c.first(Settlement, event_id=e.id) is None
    ),
)
def settle_event(ctx: Ctx, event_id: EventId) -> list[Settlement]:
    """Settle a completed event: each opted-in site's measured load against its baseline gives its incentive.

    Args:
        event_id: A completed event not yet settled.
    """
    event = ctx.get(Event, event_id, field="event_id")
    if event.status != "completed":
        raise RuleViolation(f"event {event.id} is {event.status}", field="event_id", hint="settle completed events")
    if ctx.first(Settlement, event_id=event.id) is not None:
        raise Conflict(f"event {event.id} is already settled", field="event_id", hint="list its settlements")
    program = ctx.get(Program, event.program_id)
    hours = event.duration_minutes / 60
    out: list[Settlement] = []
    for resp in ctx.where(Response, event_id=event.id, opt="opt_in"):
        site = ctx.get(Site, resp.site_id)
        readings = [r.kw for r in ctx.where(Report, site_id=site.id) if event.dtstart <= r.interval_start < _end(event)]
        measured = sum(readings) / len(readings) if readings else site.baseline_kw
        reduction = max(0.0, site.baseline_kw - measured)
        out.append(
            ctx.create(
                Settlement,
                event_id=event.id,
                site_id=site.id,
                contact_email=site.contact_email,
                measured_kw=round(measured, 2),
                reduction_kw=round(reduction, 2),
                delivered_kwh=round(reduction * hours, 2),
                performance_pct=round(100 * reduction / site.committed_kw, 1) if site.committed_kw else 0.0,
                incentive_cents=round(reduction * hours * program.incentive_cents_per_kwh),
            )
        )
    if not out:
        raise RuleViolation("every site opted out", field="event_id", hint="nothing to settle")
    return out


@service.tool(
    intent="show the site's performance", example=first_example(Site, "site_id", where={"status": "enrolled"})
)
def site_performance(ctx: Ctx, site_id: SiteId) -> SitePerformance:
    """A site's settled events, average performance, incentives and the opt-outs it used this season.

    Args:
        site_id: The site.
    """
    site = ctx.get(Site, site_id, field="site_id")
    done = ctx.where(Settlement, site_id=site.id)
    return SitePerformance(
        site_id=site.id,
        events_settled=len(done),
        opt_outs_this_season=_opt_outs(ctx, site.id, ctx.today().year),
        average_performance_pct=round(sum(s.performance_pct for s in done) / len(done), 1) if done else 0.0,
        incentives_cents=sum(s.incentive_cents for s in done),
    )


# -- seed -------------------------------------------------------------------------------------

PROGRAMS: tuple[tuple[str, ProgramType, int, int, int], ...] = (
    ("Summer Critical Peak Pricing", "critical_peak_pricing", 50, 1440, 240),
    ("Capacity Bidding Day-Ahead", "capacity_bidding", 35, 120, 240),
    ("Emergency Load Response", "emergency", 80, 30, 180),
)


@service.seeder
def seed(s: SeedContext) -> None:
    """Programs, customers' sites in every enrollment state, events in every state, telemetry and settlements."""
    pop = s.population
    made: list[Program] = []
    for k, (name, kind, rate, notice, longest) in enumerate(PROGRAMS):
        made.append(
            s.create(
                Program,
                name=name,
                program_type=kind,
                market_context=f"https://{pop.home.domain}/openadr/{kind.replace('_', '-')}",
                incentive_cents_per_kwh=rate,
                min_notice_minutes=notice,
                max_duration_minutes=longest,
                opt_outs_per_season=3 - k % 2,
            )
        )
    s.create(
        Program,
        name="Winter Peak Pilot 2024",
        program_type="fast_dr",
        market_context=f"https://{pop.home.domain}/openadr/winter-pilot",
        incentive_cents_per_kwh=40,
        status="closed",
    )
    statuses: tuple[SiteStatus, ...] = ("enrolled", "enrolled", "enrolled", "pending", "suspended", "enrolled")
    for k, co in enumerate(pop.customers[:10]):
        who = pop.first_contact(co)
        base = float(200 + 150 * (k % 5))
        s.create(
            Site,
            ven_id=f"VEN-{co.key.upper()[:6].replace('-', '')}{k:02d}",
            program_id=made[k % 2].id,
            name=f"{co.name} {('plant', 'warehouse', 'office campus')[k % 3]}",
            company_name=co.name,
            contact_email=who.email if who else f"facilities@{co.domain}",
            address=co.address,
            baseline_kw=base,
            committed_kw=round(base * 0.25, 1),
            status=statuses[k % len(statuses)],
            created_at=s.ago(days=300 - k),
            updated_at=s.ago(days=200 - k),
        )
    _seed_events(s, made[0])


def _seed_events(s: SeedContext, program: Program) -> None:
    """A settled event last week, one that just ended, one starting now, one tomorrow and a cancelled one."""
    hour = s.now.replace(minute=0, second=0, microsecond=0)
    plan: tuple[tuple[dt.datetime, int, EventStatus], ...] = (
        (hour - dt.timedelta(days=21, hours=-7), 120, "completed"),
        (hour - dt.timedelta(days=7, hours=-8), 180, "completed"),
        (hour - dt.timedelta(hours=3), 120, "active"),
        (hour + dt.timedelta(minutes=15), 60, "near"),
        (hour + dt.timedelta(days=3, hours=8), 240, "far"),
        (hour + dt.timedelta(days=1, hours=8), 120, "cancelled"),
    )
    targets = [x for x in s.records(Site) if x.program_id == program.id and x.status == "enrolled"]
    for k, (start, minutes, status) in enumerate(plan):
        event = s.create(
            Event,
            program_id=program.id,
            dtstart=start,
            duration_minutes=minutes,
            signal_name="SIMPLE",
            signal_value=1 + k % 3,
            status=status,
            created_at=start - dt.timedelta(days=1),
            updated_at=start - dt.timedelta(days=1),
        )
        for j, site in enumerate(targets):
            opt: Opt = "opt_out" if j == len(targets) - 1 and status in ("completed", "far") and k else "opt_in"
            s.create(Response, event_id=event.id, site_id=site.id, opt=opt, updated_at=start - dt.timedelta(hours=6))
            if status not in ("completed", "active") or opt == "opt_out":
                continue
            for q in range(minutes // 15):
                at = start + q * INTERVAL
                shed = site.committed_kw * (0.6 + 0.2 * j) * (1 + s.rng.uniform(-0.1, 0.1))
                s.create(
                    Report,
                    site_id=site.id,
                    interval_start=at,
                    kw=round(site.baseline_kw - shed, 1),
                    received_at=at + INTERVAL,
                )
            if k == 0:
                cut = round(site.committed_kw * (0.6 + 0.2 * j), 2)
                s.create(
                    Settlement,
                    event_id=event.id,
                    site_id=site.id,
                    contact_email=site.contact_email,
                    measured_kw=round(site.baseline_kw - cut, 2),
                    reduction_kw=cut,
                    delivered_kwh=cut * 2,
                    performance_pct=round(100 * cut / site.committed_kw, 1),
                    incentive_cents=round(cut * 2 * program.incentive_cents_per_kwh),
                    status=("calculated", "approved", "paid")[j % 3],
                    created_at=start + dt.timedelta(days=2),
                )
