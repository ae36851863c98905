"""Hearthside Home Care: clients, care plans, caregivers with credentials, authorizations and EVV-verified visits.

Modeled on AlayaCare / WellSky Personal Care (clients admitted from referrals,
care plans with ADL tasks and a required caregiver credential, caregivers
with expiring credentials, payer authorizations in 15-minute units by service
code, visits scheduled, clocked in and out by electronic visit verification
(EVV) with GPS, verified and billed against the authorization, missed-visit
reason codes): a client is admitted only with an active care plan; one care
plan is active at a time; a visit is scheduled for an active client inside an
active authorization with enough units left beside the visits already on it,
with a caregiver who is active, holds the plan's credential unexpired on the
visit day and is not booked elsewhere then; clock-in happens from within 500 m of the client's home and
no earlier than an hour before the start; verifying a completed visit bills
its minutes (rounded up to 15) against the authorization, which is exhausted
at its limit; discharging cancels the client's future visits.
"""

from __future__ import annotations

import datetime as dt
import math
from typing import Annotated, Any, Literal

from pydantic import Field, StringConstraints

from compoworld.engine.context import Ctx
from compoworld.engine.errors import Conflict, RuleViolation
from compoworld.engine.service import Service, Transition
from compoworld.engine.state import SeedContext
from compoworld.engine.types import Date, DateTime, Email, IdOf, Latitude, Longitude, PersonName, Phone, Text
from compoworld.services.kit.examples import first_example
from compoworld.services.kit.records import Timestamped, Value
from compoworld.services.kit.time import utc_at
from compoworld.world.geo import haversine_m

__all__ = ["service"]

service = Service(
    "homecare",
    title="Hearthside Home Care",
    category="home_care",
    modeled_on="AlayaCare / WellSky Personal Care API: clients, care plans, caregivers and credentials, payer "
    "authorizations in units, visits with EVV clock-in/out, visit verification and missed-visit reasons",
    description="A home care agency's operations: clients referred and admitted with care plans, caregivers and "
    "their expiring credentials, payer authorizations by service code and units, visits scheduled in clients' "
    "homes, clocked in and out by GPS-checked electronic visit verification, verified and billed, or missed.",
)

ClientId = Annotated[str, IdOf("homecare.client")]
PlanId = Annotated[str, IdOf("homecare.care_plan")]
CaregiverId = Annotated[str, IdOf("homecare.caregiver")]
CredentialId = Annotated[str, IdOf("homecare.credential")]
AuthId = Annotated[str, IdOf("homecare.authorization")]
VisitId = Annotated[str, IdOf("homecare.visit")]

ClientStatus = Literal["referral", "active", "on_hold", "discharged"]
Payer = Literal["medicaid", "medicare", "va", "ltc_insurance", "private_pay"]
CareTask = Literal[
    "bathing", "dressing", "meal_preparation", "medication_reminder", "mobility", "housekeeping", "companionship"
]
CredentialKind = Literal["hha", "cna", "lpn", "rn", "cpr", "tb_test"]
PlanStatus = Literal["draft", "active", "superseded"]
ServiceCode = Literal["T1019", "S5130", "G0156", "S5150"]
AuthStatus = Literal["active", "exhausted", "expired"]
VisitStatus = Literal["scheduled", "in_progress", "completed", "verified", "missed", "cancelled"]
MissedReason = Literal["client_refused", "client_hospitalized", "client_not_home", "caregiver_no_show", "weather"]

UNIT_MINUTES = 15
EVV_RADIUS_M = 500.0
EARLY_CLOCK_IN = dt.timedelta(hours=1)
CODE_NAMES: dict[str, str] = {
    "T1019": "Personal care services",
    "S5130": "Homemaker services",
    "G0156": "Home health aide services",
    "S5150": "Respite care",
}


class Client(Timestamped):
    """A person the agency cares for at home."""

    id: ClientId
    name: PersonName
    """Full name."""
    email: Email | None = None
    """E-mail (the client's or their family's)."""
    phone: Phone
    """Phone."""
    birth_date: Date
    """Date of birth."""
    latitude: Latitude
    """Where the home is (for EVV)."""
    longitude: Longitude
    """Where the home is (for EVV)."""
    payer: Payer = "medicaid"
    """Who pays: medicaid, medicare, va, ltc_insurance or private_pay."""
    status: ClientStatus = "referral"
    """referral, active, on_hold or discharged."""
    discharge_reason: Text | None = None
    """Why they were discharged."""


class CarePlan(Timestamped):
    """What caregivers do in a client's home, and who may do it."""

    id: PlanId
    client_id: ClientId
    """The client."""
    tasks: tuple[CareTask, ...]
    """The ADL and IADL tasks."""
    hours_per_week: Annotated[float, Field(gt=0, le=168)]
    """Planned hours a week."""
    required_credential: CredentialKind = "hha"
    """The credential a caregiver needs for this client."""
    status: PlanStatus = "draft"
    """draft, active or superseded."""


class Caregiver(Timestamped):
    """A caregiver who visits clients."""

    id: CaregiverId
    name: PersonName
    """Full name."""
    email: Email
    """E-mail."""
    phone: Phone
    """Mobile phone (the EVV app)."""
    active: bool = True
    """Whether they take visits."""


class Credential(Timestamped):
    """A caregiver's license, certification or health screening."""

    id: CredentialId
    caregiver_id: CaregiverId
    """The caregiver."""
    kind: CredentialKind
    """hha, cna, lpn, rn, cpr or tb_test."""
    number: Annotated[str, StringConstraints(pattern=r"^[A-Z0-9-]{3,20}$")]
    """The license or certificate number."""
    expires_on: Date
    """The last day it is valid."""


class Authorization(Timestamped):
    """A payer's authorization of units of a service for a client."""

    id: AuthId
    client_id: ClientId
    """The client."""
    payer: Payer
    """The payer."""
    service_code: ServiceCode
    """HCPCS code: T1019, S5130, G0156 or S5150."""
    units_authorized: Annotated[int, Field(ge=1, le=5000)]
    """15-minute units authorized."""
    units_used: Annotated[int, Field(ge=0)] = 0
    """Units billed so far."""
    start_date: Date
    """First day it covers."""
    end_date: Date
    """Last day it covers."""
    status: AuthStatus = "active"
    """active, exhausted or expired."""


class Visit(Timestamped):
    """A visit to a client's home."""

    id: VisitId
    client_id: ClientId
    """The client."""
    caregiver_id: CaregiverId | None = None
    """The caregiver assigned."""
    authorization_id: AuthId
    """The authorization it bills against."""
    scheduled_start: DateTime
    """When it is planned to start."""
    scheduled_end: DateTime
    """When it is planned to end."""
    status: VisitStatus = "scheduled"
    """scheduled, in_progress, completed, verified, missed or cancelled."""
    clock_in_at: DateTime | None = None
    """EVV clock-in time."""
    clock_out_at: DateTime | None = None
    """EVV clock-out time."""
    clock_in_distance_m: float | None = None
    """How far from the home the caregiver clocked in."""
    units_billed: int = 0
    """Units billed on verification."""
    missed_reason: MissedReason | None = None
    """Why it was missed."""
    notes: Text = ""
    """Caregiver notes."""


class Expiring(Value):
    """A credential that lapses soon."""

    credential_id: CredentialId
    """The credential."""
    caregiver_id: CaregiverId
    """Its caregiver."""
    caregiver_name: PersonName
    """Their name."""
    kind: CredentialKind
    """What it is."""
    expires_on: Date
    """Its last valid day."""
    days_left: int
    """Days until it lapses (negative: lapsed)."""


# -- rules ------------------------------------------------------------------------------------


def _units(start: dt.datetime, end: dt.datetime) -> int:
    return max(1, math.ceil((end - start).total_seconds() / 60 / UNIT_MINUTES))


def _credentialed(ctx: Ctx, caregiver_id: str, kind: str, day: dt.date) -> bool:
    return any(c.expires_on >= day for c in ctx.where(Credential, caregiver_id=caregiver_id, kind=kind))


def _check_caregiver(ctx: Ctx, visit: Visit, caregiver_id: str) -> None:
    who = ctx.get(Caregiver, caregiver_id, field="caregiver_id")
    if not who.active:
        raise RuleViolation(f"{who.name} is inactive", field="caregiver_id", hint="assign an active caregiver")
    plan = ctx.first(CarePlan, client_id=visit.client_id, status="active")
    kind = plan.required_credential if plan is not None else "hha"
    day = visit.scheduled_start.date()
    if not _credentialed(ctx, who.id, kind, day):
        raise RuleViolation(
            f"{who.name} has no {kind} credential valid on {day}",
            field="caregiver_id",
            hint="renew the credential or pick another caregiver",
        )
    for other in ctx.where(Visit, caregiver_id=who.id):
        if other.id == visit.id or other.status not in ("scheduled", "in_progress"):
            continue
        if other.scheduled_start < visit.scheduled_end and visit.scheduled_start < other.scheduled_end:
            raise Conflict(
                f"{who.name} is at visit {other.id} then", field="caregiver_id", hint="pick another caregiver or time"
            )


def _guard_plan(ctx: Ctx, new: Any, old: Any) -> None:
    client = ctx.get(Client, new.client_id, field="client_id")
    if client.status == "discharged":
        raise RuleViolation(f"{client.name} is discharged", field="client_id", hint="plans are for current clients")
    if not new.tasks:
        raise RuleViolation("a care plan lists at least one task", field="tasks", hint="list the ADL tasks")


def _guard_auth(ctx: Ctx, new: Any, old: Any) -> None:
    ctx.get(Client, new.client_id, field="client_id")
    if new.end_date < new.start_date:
        raise RuleViolation("the authorization ends before it starts", field="end_date", hint="give a later end date")


clients = service.resource(
    Client,
    name="client",
    plural="clients",
    prefix="cli",
    create=("name", "email", "phone", "birth_date", "latitude", "longitude", "payer"),
    filters=("status", "payer", "email"),
    search=("name",),
    update=("email", "phone", "payer", "latitude", "longitude"),
    delete=False,
    transitions={
        "hold": Transition("status", ("active",), "on_hold", "put the client's care on hold"),
        "resume": Transition("status", ("on_hold",), "active", "resume the client's care"),
    },
)
plans = service.resource(
    CarePlan,
    name="care_plan",
    plural="care_plans",
    prefix="cpl",
    create=("client_id", "tasks", "hours_per_week", "required_credential"),
    get=False,
    filters=("client_id", "status", "required_credential"),
    delete=False,
    guard_create=_guard_plan,
)
caregivers = service.resource(
    Caregiver,
    name="caregiver",
    plural="caregivers",
    prefix="cg",
    create=("name", "email", "phone"),
    filters=("active", "email"),
    search=("name",),
    update=("phone", "active"),
    delete=False,
    unique=("email",),
)
credentials = service.resource(
    Credential,
    name="credential",
    plural="credentials",
    prefix="cred",
    create=False,
    get=False,
    filters=("caregiver_id", "kind"),
    delete=False,
)
authorizations = service.resource(
    Authorization,
    name="authorization",
    plural="authorizations",
    prefix="auth",
    create=("client_id", "payer", "service_code", "units_authorized", "start_date", "end_date"),
    filters=("client_id", "payer", "service_code", "status"),
    delete=False,
    guard_create=_guard_auth,
)
visits = service.resource(
    Visit,
    name="visit",
    plural="visits",
    prefix="vis",
    create=False,
    filters=("client_id", "caregiver_id", "authorization_id", "status"),
    delete=False,
)


# -- domain tools -----------------------------------------------------------------------------


@service.tool(
    intent="admit the client",
    write=True,
    example=first_example(
        Client,
        "client_id",
        where={"status": "referral"},
        match=lambda c, x: c.first(CarePlan, client_id=x.id) is not None,
    ),
)
def admit_client(ctx: Ctx, client_id: ClientId) -> Client:
    """Admit a referral whose care plan is ready: the plan becomes active and the client active.

    Args:
        client_id: A referral.
    """
    client = ctx.get(Client, client_id, field="client_id")
    if client.status != "referral":
        raise RuleViolation(f"{client.name} is {client.status}", field="client_id", hint="only referrals are admitted")
    plan = ctx.first(CarePlan, client_id=client.id, status="active") or ctx.first(
        CarePlan, client_id=client.id, status="draft"
    )
    if plan is None:
        raise RuleViolation(
            f"{client.name} has no care plan", field="client_id", hint="create one with homecare__create_care_plan"
        )
    if plan.status == "draft":
        ctx.update(plan, status="active")
    return ctx.update(client, status="active")


@service.tool(
    intent="activate the care plan",
    write=True,
    example=first_example(
        CarePlan,
        "care_plan_id",
        where={"status": "draft"},
        match=lambda c, p: c.get(Client, p.client_id).status == "active",
    ),
)
def activate_care_plan(ctx: Ctx, care_plan_id: PlanId) -> CarePlan:
    """Make a draft plan the client's active one; the plan it replaces is superseded.

    Args:
        care_plan_id: A draft care plan.
    """
    plan = ctx.get(CarePlan, care_plan_id, field="care_plan_id")
    if plan.status != "draft":
        raise RuleViolation(f"plan {plan.id} is {plan.status}", field="care_plan_id", hint="activate a draft")
    for old in ctx.where(CarePlan, client_id=plan.client_id, status="active"):
        ctx.update(old, status="superseded")
    return ctx.update(plan, status="active")


@service.tool(
    intent="discharge the client",
    write=True,
    destructive=True,
    example=first_example(Client, "client_id", where={"status": "on_hold"}, reason="Moved to assisted living."),
)
def discharge_client(ctx: Ctx, client_id: ClientId, reason: Text) -> Client:
    """Discharge an active or on-hold client, with a reason; their scheduled visits are cancelled.

    Args:
        client_id: The client.
        reason: Why (required).
    """
    client = ctx.get(Client, client_id, field="client_id")
    if client.status not in ("active", "on_hold"):
        raise RuleViolation(f"{client.name} is {client.status}", field="client_id", hint="discharge current clients")
    if not reason.strip():
        raise RuleViolation("a discharge needs a reason", field="reason", hint="say why care ends")
    if ctx.where(Visit, client_id=client.id, status="in_progress"):
        raise RuleViolation("a visit is in progress", field="client_id", hint="clock it out first")
    for v in ctx.where(Visit, client_id=client.id, status="scheduled"):
        ctx.update(v, status="cancelled", notes="client discharged")
    return ctx.update(client, status="discharged", discharge_reason=reason.strip())


CredNumber = Annotated[str, StringConstraints(pattern=r"^[A-Z0-9-]{3,20}$")]
"""A license or certificate number."""


def _example_add_cred(ctx: Ctx) -> dict[str, Any] | None:
    for cg in ctx.scan(Caregiver):
        if ctx.first(Credential, caregiver_id=cg.id, kind="lpn") is None:
            return {
                "caregiver_id": cg.id,
                "kind": "lpn",
                "number": "LPN-55120",
                "expires_on": (ctx.today() + dt.timedelta(days=365)).isoformat(),
            }
    return None


@service.tool(intent="add a credential to the caregiver", write=True, example=_example_add_cred)
def add_credential(
    ctx: Ctx, caregiver_id: CaregiverId, kind: CredentialKind, number: CredNumber, expires_on: Date
) -> Credential:
    """Record a caregiver's license, certification or screening; one of each kind, renewed in place.

    Args:
        caregiver_id: The caregiver.
        kind: hha, cna, lpn, rn, cpr or tb_test.
        number: Its number.
        expires_on: Its last valid day (after today).
    """
    ctx.get(Caregiver, caregiver_id, field="caregiver_id")
    other = ctx.first(Credential, caregiver_id=caregiver_id, kind=kind)
    if other is not None:
        raise Conflict(
            f"the caregiver already has a {kind} credential ({other.id})",
            field="kind",
            hint="renew it with homecare__renew_credential",
        )
    if expires_on <= ctx.today():
        raise RuleViolation("the credential has already lapsed", field="expires_on", hint="record a current credential")
    return ctx.create(Credential, caregiver_id=caregiver_id, kind=kind, number=number, expires_on=expires_on)


def _example_renew(ctx: Ctx) -> dict[str, Any] | None:
    c = ctx.first(Credential, kind="cpr")
    if c is None:
        return None
    return {
        "credential_id": c.id,
        "expires_on": (ctx.today() + dt.timedelta(days=730)).isoformat(),
        "number": "CPR-88231",
    }


@service.tool(intent="renew the caregiver's credential", write=True, example=_example_renew)
def renew_credential(
    ctx: Ctx,
    credential_id: CredentialId,
    expires_on: Date,
    number: CredNumber | None = None,
) -> Credential:
    """Record a renewed credential: a later expiry in the future, and its new number if it changed.

    Args:
        credential_id: The credential.
        expires_on: The new last valid day (after today and after the current expiry).
        number: The new number, if any.
    """
    cred = ctx.get(Credential, credential_id, field="credential_id")
    if expires_on <= max(ctx.today(), cred.expires_on):
        raise RuleViolation(
            f"expires_on must be after {max(ctx.today(), cred.expires_on)}",
            field="expires_on",
            hint="give the new expiry",
        )
    return ctx.update(cred, expires_on=expires_on, number=number or cred.number)


@service.tool(intent="list credentials that expire soon", example=lambda ctx: {"within_days": 60})
def expiring_credentials(ctx: Ctx, within_days: Annotated[int, Field(ge=0, le=365)] = 30) -> list[Expiring]:
    """Credentials of active caregivers that lapse within some days (or have lapsed), soonest first.

    Args:
        within_days: How far ahead to look.
    """
    today, out = ctx.today(), []
    for c in ctx.scan(Credential):
        who = ctx.get(Caregiver, c.caregiver_id)
        left = (c.expires_on - today).days
        if who.active and left <= within_days:
            out.append(
                Expiring(
                    credential_id=c.id,
                    caregiver_id=who.id,
                    caregiver_name=who.name,
                    kind=c.kind,
                    expires_on=c.expires_on,
                    days_left=left,
                )
            )
    return sorted(out, key=lambda e: (e.days_left, e.credential_id))


def _live_auth(ctx: Ctx, auth_id: str, client_id: str, day: dt.date, units: int) -> Authorization:
    auth = ctx.get(Authorization, auth_id, field="authorization_id")
    if auth.client_id != client_id:
        raise RuleViolation("the authorization is another client's", field="authorization_id", hint="use the client's")
    if auth.status != "active" or not auth.start_date <= day <= auth.end_date:
        raise RuleViolation(
            f"authorization {auth.id} is {auth.status} and covers {auth.start_date} to {auth.end_date}",
            field="authorization_id",
            hint="request a new authorization from the payer",
        )
    pending = sum(
        _units(v.scheduled_start, v.scheduled_end)
        for v in ctx.where(Visit, authorization_id=auth.id)
        if v.status in ("scheduled", "in_progress", "completed")
    )
    left = auth.units_authorized - auth.units_used - pending
    if units > left:
        raise RuleViolation(
            f"{left} unit(s) left after the visits already scheduled, the visit needs {units}",
            field="authorization_id",
            hint="shorten the visit or request more units",
        )
    return auth


def _next_slot(ctx: Ctx, days: int, hour: int) -> dt.datetime:
    return utc_at(ctx.today() + dt.timedelta(days=days), hour)


def _example_schedule(ctx: Ctx) -> dict[str, Any] | None:
    for auth in ctx.where(Authorization, status="active"):
        client = ctx.get(Client, auth.client_id)
        if client.status != "active" or auth.units_authorized - auth.units_used < 8:
            continue
        for days in range(3, 10):
            start = _next_slot(ctx, days, 7)
            if auth.start_date <= start.date() <= auth.end_date:
                return {
                    "client_id": client.id,
                    "authorization_id": auth.id,
                    "start": start.isoformat(),
                    "duration_minutes": 120,
                }
    return None


@service.tool(intent="schedule a home visit for the client", write=True, example=_example_schedule)
def schedule_visit(
    ctx: Ctx,
    client_id: ClientId,
    authorization_id: AuthId,
    start: DateTime,
    duration_minutes: Annotated[int, Field(ge=15, le=720)],
    caregiver_id: CaregiverId | None = None,
) -> Visit:
    """Schedule a visit for an active client under an authorization with enough units, optionally with a caregiver.

    Args:
        client_id: An active client.
        authorization_id: An active authorization of the client covering the day.
        start: When it starts (in the future).
        duration_minutes: How long.
        caregiver_id: The caregiver; omit to assign later.
    """
    client = ctx.get(Client, client_id, field="client_id")
    if client.status != "active":
        raise RuleViolation(
            f"{client.name} is {client.status}", field="client_id", hint="visits are for active clients"
        )
    if start <= ctx.now():
        raise RuleViolation("the start is not in the future", field="start", hint="pick a later time")
    end = start + dt.timedelta(minutes=duration_minutes)
    _live_auth(ctx, authorization_id, client.id, start.date(), _units(start, end))
    visit = ctx.create(
        Visit, client_id=client.id, authorization_id=authorization_id, scheduled_start=start, scheduled_end=end
    )
    if caregiver_id is not None:
        _check_caregiver(ctx, visit, caregiver_id)
        visit = ctx.update(visit, caregiver_id=caregiver_id)
    return visit


def _example_assign(ctx: Ctx) -> dict[str, Any] | None:
    for v in ctx.where(Visit, status="scheduled"):
        if v.caregiver_id is not None:
            continue
        for cg in ctx.where(Caregiver, active=True):
            try:
                _check_caregiver(ctx, v, cg.id)
            except (RuleViolation, Conflict):
                continue
            return {"visit_id": v.id, "caregiver_id": cg.id}
    return None


@service.tool(intent="assign the caregiver to the visit", write=True, example=_example_assign)
def assign_caregiver(ctx: Ctx, visit_id: VisitId, caregiver_id: CaregiverId) -> Visit:
    """Assign (or change) the caregiver of a scheduled visit: active, credentialed for the plan, free then.

    Args:
        visit_id: A scheduled visit.
        caregiver_id: The caregiver.
    """
    visit = ctx.get(Visit, visit_id, field="visit_id")
    if visit.status != "scheduled":
        raise RuleViolation(f"visit {visit.id} is {visit.status}", field="visit_id", hint="only scheduled visits")
    _check_caregiver(ctx, visit, caregiver_id)
    return ctx.update(visit, caregiver_id=caregiver_id)


def _example_clock_in(ctx: Ctx) -> dict[str, Any] | None:
    now = ctx.now()
    for v in ctx.where(Visit, status="scheduled"):
        if v.caregiver_id and v.scheduled_start - EARLY_CLOCK_IN <= now <= v.scheduled_end:
            client = ctx.get(Client, v.client_id)
            return {"visit_id": v.id, "latitude": client.latitude, "longitude": client.longitude}
    return None


@service.tool(intent="clock in to the visit", write=True, example=_example_clock_in)
def clock_in(ctx: Ctx, visit_id: VisitId, latitude: Latitude, longitude: Longitude) -> Visit:
    """EVV clock-in by the assigned caregiver, from within 500 m of the home, from an hour before the start.

    Args:
        visit_id: A scheduled visit with a caregiver.
        latitude: The phone's latitude.
        longitude: The phone's longitude.
    """
    visit = ctx.get(Visit, visit_id, field="visit_id")
    if visit.status != "scheduled" or visit.caregiver_id is None:
        raise RuleViolation(
            f"visit {visit.id} is {visit.status}" + ("" if visit.caregiver_id else " without a caregiver"),
            field="visit_id",
            hint="clock in to a scheduled visit with an assigned caregiver",
        )
    now = ctx.now()
    if not visit.scheduled_start - EARLY_CLOCK_IN <= now <= visit.scheduled_end:
        raise RuleViolation(
            f"the visit is scheduled {visit.scheduled_start:%Y-%m-%d %H:%M}-{visit.scheduled_end:%H:%M} UTC",
            field="visit_id",
            hint="clock in from an hour before the start until its end",
        )
    client = ctx.get(Client, visit.client_id)
    distance = haversine_m(latitude, longitude, client.latitude, client.longitude)
    if distance > EVV_RADIUS_M:
        raise RuleViolation(
            f"clock-in is {distance:.0f} m from the client's home (limit {EVV_RADIUS_M:.0f} m)",
            field="latitude",
            hint="clock in at the client's home",
        )
    return ctx.update(visit, status="in_progress", clock_in_at=now, clock_in_distance_m=round(distance, 1))


@service.tool(
    intent="clock out of the visit",
    write=True,
    example=first_example(Visit, "visit_id", where={"status": "in_progress"}, notes="Bathing and lunch done."),
)
def clock_out(ctx: Ctx, visit_id: VisitId, notes: Text = "") -> Visit:
    """EVV clock-out of a visit in progress, with the caregiver's notes.

    Args:
        visit_id: A visit in progress.
        notes: What was done.
    """
    visit = ctx.get(Visit, visit_id, field="visit_id")
    if visit.status != "in_progress":
        raise RuleViolation(f"visit {visit.id} is {visit.status}", field="visit_id", hint="clock in first")
    return ctx.update(visit, status="completed", clock_out_at=ctx.now(), notes=notes)


@service.tool(
    intent="verify the visit for billing",
    write=True,
    example=first_example(Visit, "visit_id", where={"status": "completed"}),
)
def verify_visit(ctx: Ctx, visit_id: VisitId) -> Visit:
    """Verify a completed visit: its EVV minutes (rounded up to 15) are billed as units against its authorization.

    Args:
        visit_id: A completed visit.
    """
    visit = ctx.get(Visit, visit_id, field="visit_id")
    if visit.status != "completed" or visit.clock_in_at is None or visit.clock_out_at is None:
        raise RuleViolation(f"visit {visit.id} is {visit.status}", field="visit_id", hint="verify completed visits")
    units = _units(visit.clock_in_at, visit.clock_out_at)
    auth = ctx.get(Authorization, visit.authorization_id)
    if auth.units_used + units > auth.units_authorized:
        raise RuleViolation(
            f"authorization {auth.id} has {auth.units_authorized - auth.units_used} unit(s) left, the visit bills {units}",
            field="visit_id",
            hint="request more units from the payer before verifying",
        )
    used = auth.units_used + units
    ctx.update(auth, units_used=used, status="exhausted" if used == auth.units_authorized else auth.status)
    return ctx.update(visit, status="verified", units_billed=units)


@service.tool(
    intent="record the visit as missed",
    write=True,
    example=first_example(
        Visit,
        "visit_id",
        where={"status": "scheduled"},
        match=lambda c, v: v.scheduled_end < c.now(),
        reason="client_not_home",
    ),
)
def mark_missed(ctx: Ctx, visit_id: VisitId, reason: MissedReason, notes: Text = "") -> Visit:
    """Record a scheduled visit whose time has passed without a clock-in as missed, with a reason code.

    Args:
        visit_id: A scheduled visit that has ended.
        reason: client_refused, client_hospitalized, client_not_home, caregiver_no_show or weather.
        notes: Details.
    """
    visit = ctx.get(Visit, visit_id, field="visit_id")
    if visit.status != "scheduled":
        raise RuleViolation(f"visit {visit.id} is {visit.status}", field="visit_id", hint="only scheduled visits")
    if visit.scheduled_end >= ctx.now():
        raise RuleViolation("the visit has not ended yet", field="visit_id", hint="cancel a future visit instead")
    return ctx.update(visit, status="missed", missed_reason=reason, notes=notes)


@service.tool(
    intent="cancel the visit",
    write=True,
    example=first_example(
        Visit,
        "visit_id",
        where={"status": "scheduled"},
        match=lambda c, v: v.scheduled_start > c.now(),
        reason="Family visiting this week.",
    ),
)
def cancel_visit(ctx: Ctx, visit_id: VisitId, reason: Text) -> Visit:
    """Cancel a scheduled visit that has not started, with a reason.

    Args:
        visit_id: A future scheduled visit.
        reason: Why (required).
    """
    visit = ctx.get(Visit, visit_id, field="visit_id")
    if visit.status != "scheduled" or visit.scheduled_start <= ctx.now():
        raise RuleViolation(
            f"visit {visit.id} is {visit.status} at {visit.scheduled_start:%Y-%m-%d %H:%M}",
            field="visit_id",
            hint="only future scheduled visits are cancelled; record a past one as missed",
        )
    if not reason.strip():
        raise RuleViolation("a cancellation needs a reason", field="reason", hint="say why")
    return ctx.update(visit, status="cancelled", notes=reason.strip())


# -- seed -------------------------------------------------------------------------------------

PLANS: tuple[tuple[tuple[CareTask, ...], float, CredentialKind], ...] = (
    (("bathing", "dressing", "meal_preparation"), 20.0, "hha"),
    (("medication_reminder", "mobility", "companionship"), 12.0, "cna"),
    (("housekeeping", "meal_preparation", "companionship"), 8.0, "hha"),
)
STATUSES: tuple[ClientStatus, ...] = ("active", "active", "active", "active", "on_hold", "referral", "discharged")


@service.seeder
def seed(s: SeedContext) -> None:
    """Caregivers with credentials (some lapsing), clients in every status with plans and authorizations, visits."""
    pop = s.population
    today = s.now.date()
    made_cg = []
    for k, p in enumerate(pop.consumers[30:40]):
        cg = s.create(Caregiver, name=p.name, email=p.email, phone=p.phone, active=k != 9, created_at=s.ago(days=700))
        made_cg.append(cg)
        for n, kind in enumerate(("hha" if k % 3 else "cna", "cpr", "tb_test")):
            lapse = today + dt.timedelta(days=(-10 if k == 2 and n == 0 else 20 + 45 * ((k + n) % 8)))
            s.create(
                Credential,
                caregiver_id=cg.id,
                kind=kind,
                number=f"{kind.upper().replace('_', '')}-{1000 + 37 * k + n}",
                expires_on=lapse,
            )
    for k, p in enumerate(pop.consumers[:7]):
        status = STATUSES[k]
        client = s.create(
            Client,
            name=p.name,
            email=p.email,
            phone=p.phone,
            birth_date=p.birth_date,
            latitude=p.place.latitude + 0.01 * (k % 3),
            longitude=p.place.longitude - 0.01 * (k % 2),
            payer=("medicaid", "medicare", "va", "ltc_insurance", "private_pay")[k % 5],
            status=status,
            discharge_reason="Moved in with family." if status == "discharged" else None,
            created_at=s.ago(days=200 - 10 * k),
        )
        tasks, hours, kind = PLANS[k % 3]
        plan_status: PlanStatus = "draft" if status == "referral" else "active"
        s.create(
            CarePlan,
            client_id=client.id,
            tasks=tasks,
            hours_per_week=hours,
            required_credential=kind,
            status=plan_status,
        )
        if k == 0:
            s.create(CarePlan, client_id=client.id, tasks=(*tasks, "mobility"), hours_per_week=hours + 4)
        if status == "referral":
            continue
        code: ServiceCode = ("T1019", "S5130", "G0156")[k % 3]
        auth = s.create(
            Authorization,
            client_id=client.id,
            payer=client.payer,
            service_code=code,
            units_authorized=480,
            start_date=today - dt.timedelta(days=60),
            end_date=today + dt.timedelta(days=120),
        )
        if status != "active":
            continue
        qualified = [
            c
            for c in made_cg
            if any(x.caregiver_id == c.id and x.kind == kind and x.expires_on >= today for x in s.records(Credential))
        ]
        used = 0
        for d in range(-6, 7, 2):
            start = utc_at(today + dt.timedelta(days=d), 8 + 2 * k)
            end = start + dt.timedelta(hours=2)
            cg = qualified[(k + d) % len(qualified)]
            if d < -2:
                vs: VisitStatus = "verified"
            elif d < 0:
                vs = "completed" if k % 2 else "scheduled" if k == 2 else "missed"
            elif d == 0 and k == 0:
                vs = "in_progress"
            else:
                vs = "scheduled"
            done = vs in ("verified", "completed", "in_progress")
            s.create(
                Visit,
                client_id=client.id,
                caregiver_id=cg.id if k != 3 or d < 2 else None,
                authorization_id=auth.id,
                scheduled_start=start,
                scheduled_end=end,
                status=vs,
                clock_in_at=start if done else None,
                clock_out_at=end if vs in ("verified", "completed") else None,
                clock_in_distance_m=42.0 if done else None,
                units_billed=8 if vs == "verified" else 0,
                missed_reason="client_not_home" if vs == "missed" else None,
            )
            used += 8 if vs == "verified" else 0
        s.update(auth, units_used=used)
