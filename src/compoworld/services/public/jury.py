"""Jury Desk: jury management: summonses, qualification, deferrals and excusals, pools, panels and juror pay.

Modeled on Jury Systems Inc.'s JMS (and the eJuror / Tyler Odyssey Jury
Manager workflow): a summons per person with a summons number and a service
date (issued → qualified or disqualified by the qualification questionnaire,
deferred once to a date within six months, excused for age 70 and over,
medical or caregiver reasons, checked in on the service date, impaneled on a
panel, released, or recorded as a no-show), jury pools per service date and
courthouse, panels drawn from the checked-in jurors of a pool for a trial
(case number, judge, panel size), daily attendance with mileage, and juror
pay: $15 a day for the first three days and $30 a day after, plus mileage,
paid once per summons after release unless the juror donates it.
"""

from __future__ import annotations

import datetime as dt
from typing import Annotated, Any, Literal

from pydantic import Field, StringConstraints

from compoworld.engine.context import Ctx
from compoworld.engine.errors import Conflict, RuleViolation
from compoworld.engine.service import Service, Transition
from compoworld.engine.state import SeedContext
from compoworld.engine.types import City, Date, Email, FirstName, IdOf, LastName, PersonName, Text, Title
from compoworld.services.kit.examples import first_example, fixed_example
from compoworld.services.kit.records import Created, Timestamped, Value
from compoworld.services.kit.time import age_on

__all__ = ["service"]

service = Service(
    "jury",
    title="Jury Desk",
    category="jury_management",
    modeled_on="Jury Systems Inc. JMS and eJuror: summons, qualification questionnaires, deferrals and "
    "excusals, pools, panels, attendance and juror pay",
    description="The clerk of court's jury office: summonses mailed to residents, their online qualification "
    "questionnaires, deferral and excusal requests, the daily pools and the panels sent to courtrooms, "
    "attendance and juror pay.",
)

SummonsId = Annotated[str, IdOf("jury.summons")]
PoolId = Annotated[str, IdOf("jury.pool")]
PanelId = Annotated[str, IdOf("jury.panel")]
AttendanceId = Annotated[str, IdOf("jury.attendance")]
PaymentId = Annotated[str, IdOf("jury.payment")]

SummonsNumber = Annotated[str, StringConstraints(pattern=r"^\d{8}$")]
"""The eight-digit number printed on the summons."""
CaseNumber = Annotated[str, StringConstraints(pattern=r"^\d{4}-(CF|CA|CR|CV)-\d{6}$")]
"""A court case number, e.g. 2026-CF-001234."""
Miles = Annotated[int, Field(ge=0, le=500)]

SummonsStatus = Literal[
    "issued", "qualified", "disqualified", "excused", "checked_in", "impaneled", "released", "no_show"
]
ExcuseReason = Literal["age_70_plus", "medical", "caregiver", "financial_hardship", "recent_service"]
Courthouse = Literal["Main Courthouse", "North Annex", "Juvenile Justice Center"]

MAX_DEFERRAL = dt.timedelta(days=183)
PAY_LOW, PAY_HIGH, LOW_DAYS = 1500, 3000, 3
MILE_CENTS = 45
ON_CALL: tuple[SummonsStatus, ...] = ("qualified", "checked_in")


class Summons(Timestamped):
    """A jury summons to one person for one service date."""

    id: SummonsId
    summons_number: SummonsNumber
    """The number on the summons (unique)."""
    first_name: FirstName
    """First name."""
    last_name: LastName
    """Last name."""
    email: Email | None = None
    """E-mail for reminders (eJuror)."""
    birth_date: Date
    """Date of birth."""
    city: City
    """Residence city."""
    service_date: Date
    """The day to report."""
    courthouse: Courthouse = "Main Courthouse"
    """Where to report."""
    status: SummonsStatus = "issued"
    """issued, qualified, disqualified, excused, checked_in, impaneled, released or no_show."""
    questionnaire_on: Date | None = None
    """When the qualification questionnaire was answered."""
    disqualified_reason: str | None = None
    """Why they do not qualify."""
    excuse_reason: ExcuseReason | None = None
    """Why they were excused."""
    deferrals: int = 0
    """How many times the date was moved (at most once)."""
    panel_id: PanelId | None = None
    """The panel they sit on."""


class Pool(Timestamped):
    """The jurors reporting to a courthouse on a day."""

    id: PoolId
    service_date: Date
    """The day."""
    courthouse: Courthouse
    """Where."""
    requested_size: Annotated[int, Field(ge=1, le=500)]
    """How many jurors the court asked for."""
    status: Literal["open", "closed"] = "open"
    """open (panels can be drawn) or closed."""


class Panel(Timestamped):
    """A panel of jurors sent to a courtroom for jury selection."""

    id: PanelId
    pool_id: PoolId
    """The pool it was drawn from."""
    case_number: CaseNumber
    """The trial's case number."""
    judge: PersonName
    """The presiding judge."""
    courtroom: Title
    """The courtroom."""
    size: Annotated[int, Field(ge=6, le=60)]
    """Jurors on the panel."""
    status: Literal["sent", "seated", "released"] = "sent"
    """sent (voir dire), seated (trial under way) or released."""


class Attendance(Created):
    """A day a juror reported."""

    id: AttendanceId
    summons_id: SummonsId
    """The summons."""
    day: Date
    """The day."""
    round_trip_miles: Miles = 0
    """Miles driven there and back."""


class Payment(Timestamped):
    """Juror pay for a completed service."""

    id: PaymentId
    summons_id: SummonsId
    """The summons."""
    payee_email: Email | None = None
    """The juror's e-mail."""
    days: int
    """Days attended."""
    amount_cents: int
    """Daily fees plus mileage (0 when donated)."""
    status: Literal["pending", "issued", "donated"] = "pending"
    """pending, issued (check or direct deposit) or donated to the court."""


class PayEstimate(Value):
    """What a juror is owed so far."""

    summons_number: SummonsNumber
    """The summons."""
    days: int
    """Days attended."""
    fees_cents: int
    """Daily fees."""
    mileage_cents: int
    """Mileage."""
    total_cents: int
    """Fees plus mileage."""


# -- rules ------------------------------------------------------------------------------------


def _summons(ctx: Ctx, number: str) -> Summons:
    found = ctx.first(Summons, summons_number=number)
    if found is None:
        raise RuleViolation(f"no summons {number}", field="summons_number", hint="read the number off the summons")
    return found


def _expect(s: Summons, allowed: tuple[SummonsStatus, ...], what: str) -> None:
    if s.status not in allowed:
        raise Conflict(
            f"summons {s.summons_number} is {s.status}", field="summons_number", hint=f"only {what} summonses"
        )


def _pay(ctx: Ctx, s: Summons) -> tuple[int, int, int]:
    days = ctx.where(Attendance, summons_id=s.id)
    n = len(days)
    fees = PAY_LOW * min(n, LOW_DAYS) + PAY_HIGH * max(0, n - LOW_DAYS)
    return n, fees, sum(a.round_trip_miles for a in days) * MILE_CENTS


summonses = service.resource(
    Summons,
    name="summons",
    plural="summonses",
    prefix="sum",
    create=False,
    filters=("summons_number", "email", "last_name", "status", "service_date", "courthouse", "panel_id"),
    search=("first_name", "last_name"),
    update=("email",),
    delete=False,
    transitions={
        "mark_no_show": Transition(
            "status", ("issued", "qualified"), "no_show", "record the juror as a no-show", destructive=True
        ),
    },
    title="summons",
)
pools = service.resource(
    Pool,
    name="pool",
    plural="pools",
    prefix="pool",
    create=("service_date", "courthouse", "requested_size"),
    filters=("service_date", "courthouse", "status"),
    delete=False,
    transitions={"close": Transition("status", ("open",), "closed", "close the jury pool")},
)
panels = service.resource(
    Panel,
    name="panel",
    plural="panels",
    prefix="pnl",
    create=False,
    filters=("pool_id", "case_number", "status"),
    search=("judge", "courtroom"),
    delete=False,
    transitions={"seat": Transition("status", ("sent",), "seated", "seat the jury")},
)
attendance = service.resource(
    Attendance,
    name="attendance",
    plural="attendance",
    prefix="att",
    create=False,
    get=False,
    filters=("summons_id", "day"),
    delete=False,
    title="attendance day",
)
payments = service.resource(
    Payment,
    name="payment",
    plural="payments",
    prefix="pay",
    create=False,
    filters=("summons_id", "status", "payee_email"),
    delete=False,
    transitions={"issue": Transition("status", ("pending",), "issued", "issue the juror payment")},
)


# -- domain tools -----------------------------------------------------------------------------


@service.tool(
    intent="issue a jury summons",
    write=True,
    example=fixed_example(
        first_name="Dolores", last_name="Whitfield", birth_date="1972-08-30", city="Springfield", weeks_ahead=6
    ),
)
def issue_summons(
    ctx: Ctx,
    first_name: FirstName,
    last_name: LastName,
    birth_date: Date,
    city: City,
    weeks_ahead: Annotated[int, Field(ge=2, le=26)],
    email: Email | None = None,
    courthouse: Courthouse = "Main Courthouse",
) -> Summons:
    """Summon a resident for a Monday some weeks ahead; one open summons per person.

    Args:
        first_name: First name.
        last_name: Last name.
        birth_date: Date of birth.
        city: Residence city.
        weeks_ahead: Weeks until service (2 to 26); service starts on that week's Monday.
        email: E-mail for reminders.
        courthouse: Where to report.
    """
    for other in ctx.where(Summons, last_name=last_name, birth_date=birth_date):
        if other.first_name == first_name and other.status in ("issued", "qualified", "checked_in", "impaneled"):
            raise Conflict(
                f"{first_name} {last_name} already has summons {other.summons_number}",
                field="last_name",
                hint="a person serves on one summons at a time",
            )
    day = ctx.today() + dt.timedelta(weeks=weeks_ahead)
    day -= dt.timedelta(days=day.weekday())
    return ctx.create(
        Summons,
        summons_number=f"{60000000 + ctx.next_number(Summons, 'number'):08d}",
        first_name=first_name,
        last_name=last_name,
        email=email,
        birth_date=birth_date,
        city=city,
        service_date=day,
        courthouse=courthouse,
    )


@service.tool(
    intent="submit the juror's qualification questionnaire",
    write=True,
    example=first_example(
        Summons,
        None,
        where={"status": "issued"},
        fields={"summons_number": "summons_number"},
        us_citizen=True,
        county_resident=True,
        understands_english=True,
        felony_conviction=False,
    ),
)
def submit_questionnaire(
    ctx: Ctx,
    summons_number: SummonsNumber,
    us_citizen: bool,
    county_resident: bool,
    understands_english: bool,
    felony_conviction: bool,
) -> Summons:
    """Answer the qualification questionnaire: the juror is qualified, or disqualified with the reason.

    Args:
        summons_number: The number on the summons.
        us_citizen: Whether they are a US citizen.
        county_resident: Whether they live in the county.
        understands_english: Whether they read and understand English.
        felony_conviction: Whether they have a felony conviction without civil rights restored.
    """
    s = _summons(ctx, summons_number)
    _expect(s, ("issued",), "issued")
    reasons = [
        text
        for failed, text in (
            (not us_citizen, "not a US citizen"),
            (not county_resident, "not a county resident"),
            (age_on(s.birth_date, s.service_date) < 18, "under 18"),
            (not understands_english, "does not understand English"),
            (felony_conviction, "felony conviction"),
        )
        if failed
    ]
    if reasons:
        return ctx.update(
            s, status="disqualified", disqualified_reason="; ".join(reasons), questionnaire_on=ctx.today()
        )
    return ctx.update(s, status="qualified", questionnaire_on=ctx.today())


def _example_defer(ctx: Ctx) -> dict[str, Any] | None:
    s = ctx.first(Summons, status="qualified", deferrals=0)
    return (
        None
        if s is None
        else {
            "summons_number": s.summons_number,
            "new_date": (s.service_date + dt.timedelta(days=28)).isoformat(),
        }
    )


@service.tool(intent="defer the juror's service date", write=True, example=_example_defer)
def request_deferral(ctx: Ctx, summons_number: SummonsNumber, new_date: Date) -> Summons:
    """Move a qualified juror's service date once, to a weekday within six months of the original date.

    Args:
        summons_number: The number on the summons.
        new_date: The new service date.
    """
    s = _summons(ctx, summons_number)
    _expect(s, ("qualified", "issued"), "issued or qualified")
    if s.deferrals >= 1:
        raise RuleViolation("a summons is deferred only once", field="summons_number", hint="ask for an excusal")
    if new_date <= s.service_date or new_date > s.service_date + MAX_DEFERRAL or new_date.weekday() > 4:
        raise RuleViolation(
            f"the new date must be a weekday after {s.service_date} and within six months",
            field="new_date",
            hint=f"pick a weekday up to {s.service_date + MAX_DEFERRAL}",
        )
    return ctx.update(s, service_date=new_date, deferrals=s.deferrals + 1)


@service.tool(
    intent="excuse the juror",
    write=True,
    example=first_example(
        Summons, None, where={"status": "issued"}, fields={"summons_number": "summons_number"}, reason="medical"
    ),
)
def request_excusal(ctx: Ctx, summons_number: SummonsNumber, reason: ExcuseReason, note: Text = "") -> Summons:
    """Excuse a juror from service: age 70 and over, medical, caregiver, hardship or service in the last year.

    Args:
        summons_number: The number on the summons.
        reason: age_70_plus, medical, caregiver, financial_hardship or recent_service.
        note: Details (a doctor's note, the dependant's care).
    """
    s = _summons(ctx, summons_number)
    _expect(s, ("issued", "qualified"), "issued or qualified")
    if reason == "age_70_plus" and age_on(s.birth_date, s.service_date) < 70:
        raise RuleViolation(
            f"the juror is {age_on(s.birth_date, s.service_date)} on the service date",
            field="reason",
            hint="pick another reason or a deferral",
        )
    if reason == "recent_service":
        served = [
            o
            for o in ctx.where(Summons, last_name=s.last_name, birth_date=s.birth_date, status="released")
            if o.first_name == s.first_name and (s.service_date - o.service_date).days <= 365
        ]
        if not served:
            raise RuleViolation("no service in the last year on record", field="reason", hint="pick another reason")
    return ctx.update(s, status="excused", excuse_reason=reason)


def _example_check_in(ctx: Ctx) -> dict[str, Any] | None:
    s = ctx.first(Summons, status="qualified", service_date=ctx.today())
    return None if s is None else {"summons_number": s.summons_number, "round_trip_miles": 18}


@service.tool(intent="check the juror in", write=True, example=_example_check_in)
def check_in(ctx: Ctx, summons_number: SummonsNumber, round_trip_miles: Miles = 0) -> Summons:
    """Check a qualified juror in on their service date (or a later day of their service); a day is logged.

    Args:
        summons_number: The number on the summons.
        round_trip_miles: Miles driven there and back, for mileage pay.
    """
    s = _summons(ctx, summons_number)
    _expect(s, ("qualified", "checked_in", "impaneled"), "qualified or serving")
    today = ctx.today()
    if today < s.service_date:
        raise RuleViolation(f"service starts {s.service_date}", field="summons_number", hint="come back that day")
    if ctx.first(Attendance, summons_id=s.id, day=today) is not None:
        raise Conflict("already checked in today", field="summons_number", hint="nothing to do")
    ctx.create(Attendance, summons_id=s.id, day=today, round_trip_miles=round_trip_miles)
    return ctx.update(s, status="checked_in") if s.status == "qualified" else s


def _example_panel(ctx: Ctx) -> dict[str, Any] | None:
    for pool in ctx.where(Pool, status="open"):
        free = [
            s
            for s in ctx.where(Summons, status="checked_in", service_date=pool.service_date)
            if s.courthouse == pool.courthouse
        ]
        if len(free) >= 6:
            return {
                "pool_id": pool.id,
                "case_number": "2026-CF-004471",
                "judge": "Hon. Patricia Okafor",
                "courtroom": "Courtroom 5B",
                "size": 6,
            }
    return None


@service.tool(intent="send a jury panel to the courtroom", write=True, example=_example_panel)
def create_panel(
    ctx: Ctx,
    pool_id: PoolId,
    case_number: CaseNumber,
    judge: PersonName,
    courtroom: Title,
    size: Annotated[int, Field(ge=6, le=60)],
) -> Panel:
    """Draw a panel for a trial from the pool's checked-in jurors not on another panel (in check-in order).

    Args:
        pool_id: The open pool.
        case_number: The trial's case number.
        judge: The presiding judge.
        courtroom: The courtroom.
        size: Jurors needed (6 to 60).
    """
    pool = ctx.get(Pool, pool_id, field="pool_id")
    if pool.status != "open":
        raise RuleViolation(f"pool {pool.id} is closed", field="pool_id", hint="pick an open pool")
    for p in ctx.where(Panel, case_number=case_number):
        if p.status != "released":
            raise Conflict(f"panel {p.id} is already {p.status} for {case_number}", field="case_number", hint="use it")
    free = [
        s
        for s in ctx.where(Summons, status="checked_in", service_date=pool.service_date)
        if s.courthouse == pool.courthouse
    ]
    if len(free) < size:
        raise RuleViolation(
            f"only {len(free)} checked-in jurors are free in the pool", field="size", hint="ask for a smaller panel"
        )
    panel = ctx.create(Panel, pool_id=pool.id, case_number=case_number, judge=judge, courtroom=courtroom, size=size)
    for s in free[:size]:
        ctx.update(s, status="impaneled", panel_id=panel.id)
    return panel


@service.tool(
    intent="release the jury panel",
    write=True,
    example=first_example(Panel, "panel_id", where={"status": "sent"}),
)
def release_panel(ctx: Ctx, panel_id: PanelId) -> Panel:
    """Release a panel after the trial or voir dire: its jurors' service is complete and their pay is due.

    Args:
        panel_id: The panel.
    """
    panel = ctx.get(Panel, panel_id, field="panel_id")
    if panel.status == "released":
        raise Conflict(f"panel {panel.id} is already released", field="panel_id", hint="nothing to do")
    for s in ctx.where(Summons, panel_id=panel.id, status="impaneled"):
        _finish(ctx, s)
    return ctx.update(panel, status="released")


def _finish(ctx: Ctx, s: Summons) -> None:
    n, fees, miles = _pay(ctx, s)
    ctx.update(s, status="released")
    ctx.create(Payment, summons_id=s.id, payee_email=s.email, days=n, amount_cents=fees + miles)


@service.tool(
    intent="release the juror",
    write=True,
    example=first_example(Summons, None, where={"status": "checked_in"}, fields={"summons_number": "summons_number"}),
)
def release_juror(ctx: Ctx, summons_number: SummonsNumber) -> Summons:
    """Release a checked-in juror who was not needed on a panel; their pay becomes due.

    Args:
        summons_number: The number on the summons.
    """
    s = _summons(ctx, summons_number)
    _expect(s, ("checked_in",), "checked-in")
    _finish(ctx, s)
    return ctx.get(Summons, s.id)


@service.tool(
    intent="donate the juror's pay to the court",
    write=True,
    example=first_example(Payment, "payment_id", where={"status": "pending"}),
)
def donate_pay(ctx: Ctx, payment_id: PaymentId) -> Payment:
    """Record that a juror donates a pending payment (to the court's victim assistance fund).

    Args:
        payment_id: The pending payment.
    """
    pay = ctx.get(Payment, payment_id, field="payment_id")
    if pay.status != "pending":
        raise Conflict(f"payment {pay.id} is {pay.status}", field="payment_id", hint="only pending pay is donated")
    return ctx.update(pay, status="donated", amount_cents=0)


@service.tool(
    intent="show what the juror is owed",
    example=first_example(Summons, None, where={"status": "impaneled"}, fields={"summons_number": "summons_number"}),
)
def pay_estimate(ctx: Ctx, summons_number: SummonsNumber) -> PayEstimate:
    """Daily fees ($15 for each of the first three days, $30 after) and mileage a juror has earned so far.

    Args:
        summons_number: The number on the summons.
    """
    s = _summons(ctx, summons_number)
    n, fees, miles = _pay(ctx, s)
    return PayEstimate(
        summons_number=s.summons_number, days=n, fees_cents=fees, mileage_cents=miles, total_cents=fees + miles
    )


# -- seed -------------------------------------------------------------------------------------

STATUS_OF: dict[str, SummonsStatus] = {"deferred": "qualified"}


@service.seeder
def seed(s: SeedContext) -> None:
    """Summonses to the world's residents in every state, today's pool with a seated panel, pay records."""
    pop = s.population
    today = s.now.date()
    monday = today - dt.timedelta(days=today.weekday())
    adults = [p for p in pop.consumers if age_on(p.birth_date, today) >= 18]
    pool = s.create(
        Pool,
        service_date=today,
        courthouse="Main Courthouse",
        requested_size=40,
        created_at=s.ago(days=30),
        updated_at=s.ago(days=1),
    )
    s.create(
        Pool,
        service_date=monday + dt.timedelta(weeks=2),
        courthouse="North Annex",
        requested_size=25,
        created_at=s.ago(days=10),
        updated_at=s.ago(days=10),
    )
    panel = s.create(
        Panel,
        pool_id=pool.id,
        case_number=f"{today.year}-CF-000{318:03d}",
        judge="Hon. Marcus Bell",
        courtroom="Courtroom 3A",
        size=6,
        created_at=s.ago(hours=2),
        updated_at=s.ago(hours=1),
    )
    plan: tuple[str, ...] = (
        ("impaneled",) * 6
        + ("checked_in",) * 8
        + ("qualified",) * 3
        + ("issued", "issued", "issued", "deferred", "excused", "disqualified", "no_show", "released", "released")
    )
    for k, status in enumerate(plan):
        p = adults[k % len(adults)]
        today_pool = status in ("impaneled", "checked_in") or (status == "qualified" and k % 2 == 0)
        service_day = (
            today
            if today_pool
            else (
                monday - dt.timedelta(weeks=3) if status in ("released", "no_show") else monday + dt.timedelta(weeks=3)
            )
        )
        sm = s.create(
            Summons,
            summons_number=f"{50000000 + 4111 * (k + 1):08d}",
            first_name=p.first_name,
            last_name=p.last_name,
            email=p.email,
            birth_date=p.birth_date,
            city=p.address.city,
            service_date=service_day,
            status=STATUS_OF.get(status, status),
            questionnaire_on=None if status == "issued" else today - dt.timedelta(days=20),
            disqualified_reason="not a county resident" if status == "disqualified" else None,
            excuse_reason="caregiver" if status == "excused" else None,
            deferrals=1 if status == "deferred" else 0,
            panel_id=panel.id if status == "impaneled" else None,
            created_at=s.ago(days=45),
            updated_at=s.ago(days=2),
        )
        if status in ("impaneled", "checked_in", "released"):
            for d in range(2 if status == "released" else 1):
                s.create(
                    Attendance,
                    summons_id=sm.id,
                    day=service_day + dt.timedelta(days=d),
                    round_trip_miles=6 + 3 * k % 40,
                    created_at=s.ago(days=(today - service_day).days - d),
                )
        if status == "released":
            s.create(
                Payment,
                summons_id=sm.id,
                payee_email=sm.email,
                days=2,
                amount_cents=2 * PAY_LOW + 2 * (6 + 3 * k % 40) * MILE_CENTS,
                status="issued" if k % 2 else "pending",
                created_at=s.ago(days=18),
                updated_at=s.ago(days=10),
            )
