"""Marque IP Docket: the company's trademark and patent portfolio, its office events and the deadlines they set.

Modeled on IP docketing systems with a rules engine, after the Alt Legal API and
Anaqua's IP management records (matters with jurisdiction, application and
registration numbers, Nice classes, responsible attorney; events recorded from
office correspondence; deadlines computed from events with due and final dates,
extensions, completion and renewal cycles). Deadlines follow the offices' rules:
a USPTO trademark office action is answered within 3 months, extendable once to
6; a US notice of allowance on a trademark opens a 6-month window for the
statement of use, extendable in 6-month steps to 36 months; registration sets
the Section 8 declaration (6 years) and the 10-year renewal, each with a window
that opens a year before and a 6-month grace after; a patent office action is
answered within 3 months, extendable to 6; the patent issue fee is due 3 months
after allowance, without extension; a US patent grant sets the maintenance fees
at 3.5, 7.5 and 11.5 years (window 6 months before, grace 6 months after).
Outside the US, office actions give 4 months and trademarks renew every 10
years (from the filing date for EU marks). A deadline past its due date is
completed only after an extension, and never after its final date; a trademark
registers only after its statement of use was filed, a patent is granted only
after its issue fee was paid; abandoning a matter closes its open deadlines.
"""

from __future__ import annotations

import datetime as dt
from typing import Annotated, Any, Literal

from pydantic import BaseModel, Field, StringConstraints

from compoworld.engine.context import Ctx
from compoworld.engine.errors import Conflict, RuleViolation
from compoworld.engine.records import CREATED, UPDATED, Generated, Record
from compoworld.engine.service import Service, Transition
from compoworld.engine.state import SeedContext
from compoworld.engine.types import CompanyName, Date, DateTime, Email, IdOf, PersonName, Text, Title
from compoworld.services.kit.examples import fixed_example
from compoworld.services.kit.records import Created
from compoworld.services.kit.time import add_months

__all__ = ["service"]

service = Service(
    "ipdocket",
    title="Marque IP Docket",
    category="ip_management",
    modeled_on="Alt Legal API / Anaqua IP management (matters, jurisdictions, office events, rules-based docket "
    "deadlines with extensions, completion and renewals, responsible attorneys)",
    description="The company's intellectual property docket: trademark and patent matters per jurisdiction with "
    "their application and registration numbers, office events (office actions, allowances, registrations, "
    "grants), the deadlines those events set, extensions, completion, renewals and the attorneys responsible.",
)

AttorneyId = Annotated[str, IdOf("ipdocket.attorney")]
MatterId = Annotated[str, IdOf("ipdocket.matter")]
EventId = Annotated[str, IdOf("ipdocket.event")]
DeadlineId = Annotated[str, IdOf("ipdocket.deadline")]

Kind = Literal["trademark", "patent"]
Jurisdiction = Literal["US", "EU", "GB", "DE", "JP", "CN", "BR", "CA", "AU", "EP", "WO"]
"""Office: a country, EU (EUIPO trademarks), EP (European patents) or WO (PCT)."""
MatterStatus = Literal["pending", "published", "allowed", "registered", "granted", "abandoned", "expired"]
EventType = Literal["office_action", "response_filed", "publication", "notice_of_allowance", "registration", "grant"]
DeadlineKind = Literal[
    "office_action_response",
    "opposition_period",
    "statement_of_use",
    "issue_fee",
    "declaration_of_use",
    "renewal",
    "maintenance_fee",
]
AppNumber = Annotated[str, StringConstraints(pattern=r"^[A-Z0-9/.,-]{4,24}$")]
"""An office's application or registration number (e.g. 97123456, 018765432, US11223344)."""
NiceClass = Annotated[int, Field(ge=1, le=45)]
"""A Nice classification class (1–45)."""

EXTENDABLE: dict[str, int] = {"office_action_response": 3, "statement_of_use": 6}
"""Deadline kinds that can be extended, with the months one extension adds."""
WINDOW_MONTHS: dict[str, int] = {"declaration_of_use": 12, "renewal": 12, "maintenance_fee": 6}
"""Deadlines that can be met only within this many months before their due date."""
GRACE_MONTHS = 6
"""Grace after the due date of renewals, declarations and maintenance fees (final date)."""
MAINTENANCE_MONTHS = (42, 90, 138)
"""US patent maintenance fees: 3.5, 7.5 and 11.5 years after grant."""


class Attorney(Created):
    """An attorney who can be responsible for matters: in-house counsel or outside counsel."""

    id: AttorneyId
    name: PersonName
    """Full name."""
    email: Email
    """Work e-mail."""
    firm: CompanyName
    """The firm they work for (the company itself for in-house counsel)."""
    role: Literal["in_house", "outside_counsel"] = "outside_counsel"
    """in_house or outside_counsel."""
    active: bool = True
    """Inactive attorneys take no new matters or deadlines."""


class Matter(Record):
    """A trademark or patent in one jurisdiction."""

    id: MatterId
    docket_number: Annotated[str, Generated("sequence", "IP-{n:05d}")]
    """The docket's own reference."""
    kind: Kind
    """trademark or patent."""
    title: Title
    """The mark, or the invention's title."""
    jurisdiction: Jurisdiction
    """The office."""
    status: MatterStatus = "pending"
    """pending, published, allowed, registered (trademark), granted (patent), abandoned or expired."""
    owner: CompanyName
    """The applicant and owner."""
    application_number: AppNumber
    """The office's application number."""
    filing_date: Date
    """When it was filed."""
    registration_number: AppNumber | None = None
    """Registration or patent number."""
    registration_date: Date | None = None
    """When it registered or was granted."""
    classes: tuple[NiceClass, ...] = ()
    """Nice classes of a trademark."""
    expiry_date: Date | None = None
    """When protection ends unless renewed (a patent: 20 years from filing)."""
    responsible_attorney_id: AttorneyId
    """The attorney responsible for it."""
    notes: Text = ""
    """Notes."""
    created_at: Annotated[DateTime, CREATED]
    """When it was docketed."""
    updated_at: Annotated[DateTime, UPDATED]
    """When it last changed."""


class Event(Created):
    """Something an office did or the company filed, as docketed."""

    id: EventId
    matter_id: MatterId
    """The matter."""
    event_type: EventType
    """office_action, response_filed, publication, notice_of_allowance, registration or grant."""
    event_date: Date
    """The date on the office's document (deadlines count from it)."""
    notes: Text = ""
    """Notes."""


class Deadline(Record):
    """A docketed deadline set by an event or by a renewal cycle."""

    id: DeadlineId
    matter_id: MatterId
    """The matter."""
    event_id: EventId | None = None
    """The event that set it."""
    kind: DeadlineKind
    """What is due."""
    due_date: Date
    """When it is due (moved by extensions)."""
    final_date: Date
    """The last possible day (with every extension or the grace period)."""
    opens_on: Date | None = None
    """The first day it can be met (renewals, declarations, maintenance fees)."""
    extensions: int = 0
    """How many extensions were taken."""
    status: Literal["open", "completed", "closed"] = "open"
    """open, completed, or closed (the matter was abandoned or the step became moot)."""
    responsible_attorney_id: AttorneyId
    """Who must meet it."""
    completed_on: Date | None = None
    """When it was met."""
    completed_by_id: AttorneyId | None = None
    """Who met it."""
    created_at: Annotated[DateTime, CREATED]
    """When it was docketed."""
    updated_at: Annotated[DateTime, UPDATED]
    """When it last changed."""


class DueItem(BaseModel):
    """One deadline in a docket report."""

    deadline: Deadline = Field(description="The deadline.")
    docket_number: str = Field(description="The matter's docket number.")
    title: str = Field(description="The matter's mark or title.")
    days_left: int = Field(description="Days until the due date (negative: past due).")
    overdue: bool = Field(description="Whether the due date has passed.")


class DocketReport(BaseModel):
    """Open deadlines due within a horizon, soonest first."""

    as_of: Date = Field(description="The day the report counts from.")
    items: list[DueItem] = Field(description="Open deadlines, soonest first.")
    overdue: int = Field(description="How many are past their due date.")


# -- the rules engine --------------------------------------------------------------------------

_Spec = tuple[str, dt.date, dt.date, dt.date | None]
"""A deadline to docket: kind, due date, final date, opening date."""


def _windowed(kind: str, due: dt.date) -> _Spec:
    return kind, due, add_months(due, GRACE_MONTHS), add_months(due, -WINDOW_MONTHS[kind])


def deadlines_for(kind: str, jurisdiction: str, event_type: str, on: dt.date, filing: dt.date) -> list[_Spec]:
    """The deadlines an event sets on a matter, by the office's rules."""
    us = jurisdiction == "US"
    if event_type == "office_action":
        if us:
            return [("office_action_response", add_months(on, 3), add_months(on, 6), None)]
        return [("office_action_response", add_months(on, 4), add_months(on, 4), None)]
    if event_type == "publication":
        days = 30 if us else 90
        end = on + dt.timedelta(days=days)
        return [("opposition_period", end, end, None)]
    if event_type == "notice_of_allowance":
        if kind == "patent":
            return [("issue_fee", add_months(on, 3), add_months(on, 3), None)]
        return [("statement_of_use", add_months(on, 6), add_months(on, 36), None)] if us else []
    if event_type == "registration":
        base = filing if jurisdiction == "EU" else on
        out = [_windowed("renewal", add_months(base, 120))]
        if us:
            out.insert(0, _windowed("declaration_of_use", add_months(on, 72)))
        return out
    if event_type == "grant" and us:
        return [_windowed("maintenance_fee", add_months(on, m)) for m in MAINTENANCE_MONTHS]
    return []


_ALLOWED: dict[tuple[str, str], tuple[str, ...]] = {
    ("trademark", "office_action"): ("pending", "published"),
    ("trademark", "response_filed"): ("pending", "published"),
    ("trademark", "publication"): ("pending",),
    ("trademark", "notice_of_allowance"): ("published",),
    ("trademark", "registration"): ("pending", "published", "allowed"),
    ("patent", "office_action"): ("pending",),
    ("patent", "response_filed"): ("pending",),
    ("patent", "notice_of_allowance"): ("pending",),
    ("patent", "grant"): ("allowed",),
}
"""The matter statuses in which each event can happen, per kind."""
_NEXT_STATUS = {
    "publication": "published",
    "notice_of_allowance": "allowed",
    "registration": "registered",
    "grant": "granted",
}


def _can(matter: Matter, event_type: str) -> bool:
    """Whether the event can happen to the matter now (a US mark is published before it registers)."""
    states = _ALLOWED.get((matter.kind, event_type), ())
    if event_type == "registration" and matter.jurisdiction == "US":
        states = ("published", "allowed")
    return matter.status in states


def _attorney(ctx: Ctx, attorney_id: str, field: str) -> Attorney:
    a = ctx.get(Attorney, attorney_id, field=field)
    if not a.active:
        raise RuleViolation(
            f"{a.name} is no longer active", field=field, hint="pick an active attorney (list attorneys, active=true)"
        )
    return a


def _docket(ctx: Ctx, matter: Matter, event: Event | None, specs: list[_Spec]) -> list[Deadline]:
    return [
        ctx.create(
            Deadline,
            matter_id=matter.id,
            event_id=event.id if event else None,
            kind=kind,
            due_date=due,
            final_date=final,
            opens_on=opens,
            responsible_attorney_id=matter.responsible_attorney_id,
        )
        for kind, due, final, opens in specs
    ]


def _open_of(ctx: Ctx, matter_id: str, kind: str) -> list[Deadline]:
    return [d for d in ctx.where(Deadline, matter_id=matter_id, status="open") if d.kind == kind]


def _guard_matter(ctx: Ctx, new: Any, old: Any) -> None:
    if old is None:
        return
    if new.responsible_attorney_id != old.responsible_attorney_id:
        _attorney(ctx, new.responsible_attorney_id, "responsible_attorney_id")
        for d in ctx.where(Deadline, matter_id=new.id, status="open"):
            ctx.update(d, responsible_attorney_id=new.responsible_attorney_id)
    if new.status == "abandoned" and old.status != "abandoned":
        for d in ctx.where(Deadline, matter_id=new.id, status="open"):
            ctx.update(d, status="closed")


def _guard_attorney(ctx: Ctx, new: Any, old: Any) -> None:
    if old is not None and old.active and not new.active:
        held = ctx.where(Matter, responsible_attorney_id=new.id)
        live = [m for m in held if m.status not in ("abandoned", "expired")]
        if live:
            raise RuleViolation(
                f"{new.name} is still responsible for {len(live)} live matters (e.g. {live[0].docket_number})",
                field="attorney_id",
                hint="reassign those matters with ipdocket__update_matter first",
            )


attorneys = service.resource(
    Attorney,
    name="attorney",
    plural="attorneys",
    prefix="att",
    create=("name", "email", "firm", "role"),
    get=False,
    filters=("role", "active", "email"),
    search=("name", "firm"),
    update=("active",),
    delete=False,
    unique=("email",),
    guard_update=_guard_attorney,
)
matters = service.resource(
    Matter,
    name="matter",
    plural="matters",
    prefix="mat",
    create=False,
    filters=("kind", "jurisdiction", "status", "responsible_attorney_id", "application_number", "docket_number"),
    search=("title", "notes"),
    update=("responsible_attorney_id", "notes"),
    delete=False,
    transitions={
        "abandon": Transition(
            "status",
            ("pending", "published", "allowed"),
            "abandoned",
            "abandon the application",
            description="Let a pending application go (express abandonment); its open deadlines close.",
            destructive=True,
        )
    },
    guard_update=_guard_matter,
)
events = service.resource(
    Event,
    name="event",
    plural="events",
    prefix="evt",
    create=False,
    get=False,
    filters=("matter_id", "event_type"),
    delete=False,
)
deadlines = service.resource(
    Deadline,
    name="deadline",
    plural="deadlines",
    prefix="dl",
    create=False,
    get=False,
    filters=("matter_id", "kind", "status", "responsible_attorney_id", "due_date"),
    delete=False,
)


# -- tools -------------------------------------------------------------------------------------


def _ex_create(ctx: Ctx) -> dict[str, Any] | None:
    a = ctx.first(Attorney, active=True)
    if a is None:
        return None
    return {
        "kind": "trademark",
        "title": "NORTHWIND",
        "jurisdiction": "GB",
        "application_number": "UK00004012345",
        "filing_date": (ctx.today() - dt.timedelta(days=10)).isoformat(),
        "responsible_attorney_id": a.id,
        "classes": [9, 42],
    }


@service.tool(intent="docket a new trademark or patent application", write=True, example=_ex_create)
def create_matter(
    ctx: Ctx,
    kind: Kind,
    title: Title,
    jurisdiction: Jurisdiction,
    application_number: AppNumber,
    filing_date: Date,
    responsible_attorney_id: AttorneyId,
    classes: list[NiceClass] | None = None,
    owner: CompanyName | None = None,
    notes: Text = "",
) -> Matter:
    """Docket a filed application; a patent's expiry is set 20 years from filing.

    Args:
        kind: trademark or patent.
        title: The mark, or the invention's title.
        jurisdiction: The office (EU for EU trademarks, EP for European patents, WO for PCT).
        application_number: The office's application number (unique per office).
        filing_date: When it was filed (not in the future).
        responsible_attorney_id: The attorney responsible (active).
        classes: Nice classes (trademarks need at least one; patents have none).
        owner: The applicant (default: the company).
        notes: Notes.
    """
    if filing_date > ctx.today():
        raise RuleViolation("the filing date is in the future", field="filing_date", hint="docket filed applications")
    _attorney(ctx, responsible_attorney_id, "responsible_attorney_id")
    picked = sorted(set(classes or ()))
    if kind == "trademark" and not picked:
        raise RuleViolation(
            "a trademark application names at least one Nice class", field="classes", hint="give the classes, 1–45"
        )
    if kind == "patent" and picked:
        raise RuleViolation("patents have no Nice classes", field="classes", hint="leave classes empty for a patent")
    if kind == "patent" and jurisdiction == "EU":
        raise RuleViolation(
            "the EU office registers trademarks only", field="jurisdiction", hint="use EP for a European patent"
        )
    if kind == "trademark" and jurisdiction in ("EP", "WO"):
        raise RuleViolation(
            f"{jurisdiction} takes patent applications only", field="jurisdiction", hint="use EU for an EU trademark"
        )
    for other in ctx.where(Matter, application_number=application_number):
        if other.jurisdiction == jurisdiction:
            raise Conflict(
                f"application {application_number} in {jurisdiction} is already docketed as {other.docket_number}",
                field="application_number",
                hint=f"use matter {other.id}",
            )
    return ctx.create(
        Matter,
        kind=kind,
        title=title,
        jurisdiction=jurisdiction,
        owner=owner or ctx.population.home.name,
        application_number=application_number,
        filing_date=filing_date,
        classes=tuple(picked),
        expiry_date=add_months(filing_date, 240) if kind == "patent" else None,
        responsible_attorney_id=responsible_attorney_id,
        notes=notes,
    )


class Docketed(BaseModel):
    """A recorded event and the deadlines it set."""

    event: Event = Field(description="The event.")
    matter: Matter = Field(description="The matter after the event.")
    deadlines: list[Deadline] = Field(description="Deadlines the event docketed.")
    completed: list[Deadline] = Field(description="Deadlines the event met or made moot.")


def _ex_event(ctx: Ctx) -> dict[str, Any] | None:
    m = ctx.first(Matter, status="pending")
    return None if m is None else {"matter_id": m.id, "event_type": "office_action", "event_date": m.filing_date}


@service.tool(intent="record an office event on the matter", write=True, example=_ex_event)
def record_event(
    ctx: Ctx,
    matter_id: MatterId,
    event_type: EventType,
    event_date: Date,
    registration_number: AppNumber | None = None,
    notes: Text = "",
) -> Docketed:
    """Record an office event; the docket computes the deadlines it sets.

    office_action sets the response deadline; response_filed meets it; publication starts the opposition
    period; notice_of_allowance sets the statement of use (US trademarks) or the issue fee (patents);
    registration and grant need the registration or patent number and set renewals, declarations or
    maintenance fees.

    Args:
        matter_id: The matter.
        event_type: What happened.
        event_date: The date on the office's document (not in the future, not before filing).
        registration_number: The registration or patent number (registration and grant).
        notes: Notes.
    """
    matter = ctx.get(Matter, matter_id, field="matter_id")
    today = ctx.today()
    if event_date > today or event_date < matter.filing_date:
        raise RuleViolation(
            f"the event date must lie between the filing date {matter.filing_date} and today",
            field="event_date",
            hint="give the date on the office's document",
        )
    if not _can(matter, event_type):
        can = [e for (k, e) in _ALLOWED if k == matter.kind and _can(matter, e)]
        raise RuleViolation(
            f"a {event_type} cannot be recorded on a {matter.status} {matter.kind}",
            field="event_type",
            hint=f"possible now: {', '.join(can) or 'none (the matter is closed)'}",
        )
    completed: list[Deadline] = []
    changes: dict[str, Any] = {}
    if event_type == "response_filed":
        due = _open_of(ctx, matter.id, "office_action_response")
        if not due:
            raise RuleViolation(
                "there is no open office action to respond to",
                field="event_type",
                hint="record the office action first",
            )
        for d in due:
            _meetable(ctx, d, event_date)
            completed.append(
                ctx.update(
                    d, status="completed", completed_on=event_date, completed_by_id=matter.responsible_attorney_id
                )
            )
    if event_type in ("registration", "grant"):
        if registration_number is None:
            raise RuleViolation(
                f"a {event_type} needs the {'patent' if event_type == 'grant' else 'registration'} number",
                field="registration_number",
                hint="copy it from the certificate",
            )
        gate = "statement_of_use" if event_type == "registration" else "issue_fee"
        if _open_of(ctx, matter.id, gate) or (
            event_type == "grant" and not ctx.where(Deadline, matter_id=matter.id, kind="issue_fee", status="completed")
        ):
            raise RuleViolation(
                f"the {gate.replace('_', ' ')} has not been filed",
                field="event_type",
                hint=f"complete the {gate.replace('_', ' ')} deadline first",
            )
        for d in _open_of(ctx, matter.id, "opposition_period"):
            completed.append(ctx.update(d, status="closed"))
        changes |= {"registration_number": registration_number, "registration_date": event_date}
        if event_type == "registration":
            base = matter.filing_date if matter.jurisdiction == "EU" else event_date
            changes["expiry_date"] = add_months(base, 120)
    elif registration_number is not None:
        raise RuleViolation(
            "only a registration or grant carries a number", field="registration_number", hint="leave it empty"
        )
    if event_type == "notice_of_allowance":
        for d in _open_of(ctx, matter.id, "opposition_period"):
            completed.append(ctx.update(d, status="completed", completed_on=event_date))
    if event_type in _NEXT_STATUS:
        changes["status"] = _NEXT_STATUS[event_type]
    event = ctx.create(Event, matter_id=matter.id, event_type=event_type, event_date=event_date, notes=notes)
    matter = ctx.update(matter, **changes)
    made = _docket(
        ctx, matter, event, deadlines_for(matter.kind, matter.jurisdiction, event_type, event_date, matter.filing_date)
    )
    return Docketed(event=event, matter=matter, deadlines=made, completed=completed)


def _meetable(ctx: Ctx, d: Deadline, on: dt.date, field: str = "event_date") -> None:
    if d.opens_on is not None and on < d.opens_on:
        raise RuleViolation(
            f"the {d.kind.replace('_', ' ')} can be filed from {d.opens_on} only",
            field=field,
            hint="wait until the window opens",
        )
    if on > d.final_date:
        raise RuleViolation(
            f"the {d.kind.replace('_', ' ')} was due by {d.final_date} at the latest; the date has passed",
            field=field,
            hint="the right is lost: abandon the matter or petition the office to revive it",
        )
    if on > d.due_date and d.kind in EXTENDABLE:
        raise RuleViolation(
            f"the {d.kind.replace('_', ' ')} was due on {d.due_date}",
            field=field,
            hint="extend the deadline with ipdocket__extend_deadline first",
        )


def _ex_complete(ctx: Ctx) -> dict[str, Any] | None:
    today = ctx.today()
    for d in ctx.where(Deadline, status="open"):
        ok_window = (d.opens_on is None or d.opens_on <= today) and today <= d.due_date
        if ok_window:
            return {"deadline_id": d.id, "attorney_id": d.responsible_attorney_id}
    return None


@service.tool(intent="mark the deadline as met", write=True, example=_ex_complete)
def complete_deadline(
    ctx: Ctx, deadline_id: DeadlineId, attorney_id: AttorneyId, completed_on: Date | None = None
) -> Deadline:
    """Mark a deadline as met; a renewal met starts the next 10-year cycle.

    A past-due extendable deadline needs an extension first; nothing is met before its window opens
    or after its final date.

    Args:
        deadline_id: The deadline.
        attorney_id: Who met it.
        completed_on: When it was met (default today; not in the future).
    """
    d = ctx.get(Deadline, deadline_id, field="deadline_id")
    if d.status != "open":
        raise RuleViolation(f"the deadline is already {d.status}", field="deadline_id", hint="pick an open deadline")
    _attorney(ctx, attorney_id, "attorney_id")
    on = completed_on or ctx.today()
    if on > ctx.today():
        raise RuleViolation("completed_on is in the future", field="completed_on", hint="give today or an earlier day")
    _meetable(ctx, d, on, field="completed_on" if completed_on else "deadline_id")
    done = ctx.update(d, status="completed", completed_on=on, completed_by_id=attorney_id)
    matter = ctx.get(Matter, d.matter_id)
    if d.kind == "renewal":
        nxt = add_months(d.due_date, 120)
        ctx.update(matter, expiry_date=nxt)
        _docket(ctx, matter, None, [_windowed("renewal", nxt)])
    return done


def _ex_extend(ctx: Ctx) -> dict[str, Any] | None:
    for d in ctx.where(Deadline, status="open"):
        if d.kind in EXTENDABLE and add_months(d.due_date, EXTENDABLE[d.kind]) <= d.final_date:
            return {"deadline_id": d.id}
    return None


@service.tool(intent="extend the deadline", write=True, example=_ex_extend)
def extend_deadline(ctx: Ctx, deadline_id: DeadlineId) -> Deadline:
    """Take one extension (with the office's fee), never beyond the final date.

    An office action response extends by 3 months, a statement of use by 6.

    Args:
        deadline_id: The deadline.
    """
    d = ctx.get(Deadline, deadline_id, field="deadline_id")
    if d.status != "open":
        raise RuleViolation(f"the deadline is {d.status}", field="deadline_id", hint="only open deadlines extend")
    step = EXTENDABLE.get(d.kind)
    if step is None:
        raise RuleViolation(
            f"a {d.kind.replace('_', ' ')} cannot be extended",
            field="deadline_id",
            hint="meet it by its due date",
        )
    new_due = add_months(d.due_date, step)
    if new_due > d.final_date:
        raise RuleViolation(
            f"no extension left: the {d.kind.replace('_', ' ')} is final on {d.final_date}",
            field="deadline_id",
            hint="meet it by the final date",
        )
    if ctx.today() > d.due_date and ctx.today() > new_due:
        raise RuleViolation(
            "the extended date would already have passed", field="deadline_id", hint="meet the final date instead"
        )
    return ctx.update(d, due_date=new_due, extensions=d.extensions + 1)


@service.tool(intent="list the deadlines coming up", example=fixed_example(days=90))
def docket_report(
    ctx: Ctx,
    days: Annotated[int, Field(ge=1, le=3650)] = 60,
    responsible_attorney_id: AttorneyId | None = None,
) -> DocketReport:
    """Open deadlines due within the next days (and every overdue one), soonest first.

    Args:
        days: How many days ahead to look.
        responsible_attorney_id: Only this attorney's deadlines.
    """
    today = ctx.today()
    horizon = today + dt.timedelta(days=days)
    items = []
    for d in ctx.where(Deadline, status="open"):
        if responsible_attorney_id is not None and d.responsible_attorney_id != responsible_attorney_id:
            continue
        if d.due_date > horizon:
            continue
        m = ctx.get(Matter, d.matter_id)
        left = (d.due_date - today).days
        items.append(
            DueItem(deadline=d, docket_number=m.docket_number, title=m.title, days_left=left, overdue=left < 0)
        )
    items.sort(key=lambda i: (i.deadline.due_date, i.deadline.id))
    return DocketReport(as_of=today, items=items, overdue=sum(1 for i in items if i.overdue))


# -- seeding -----------------------------------------------------------------------------------

_PATENTS = (
    "Adaptive load balancing for edge devices",
    "Battery-aware scheduling of wireless sensors",
    "Method for deduplicating streamed telemetry",
    "Low-power thermostat control loop",
)
_APP_PREFIX = {
    "US": "97",
    "EU": "0187",
    "GB": "UK0000",
    "BR": "9210",
    "JP": "2025-",
    "CA": "21",
    "AU": "23",
    "EP": "EP2",
    "WO": "PCT/US2",
    "DE": "3020",
    "CN": "CN1",
}


class _Seed:
    def __init__(self, s: SeedContext) -> None:
        self.s = s
        self.today = s.now.date()
        self.n = 0

    def number(self, jurisdiction: str) -> str:
        self.n += 1
        return f"{_APP_PREFIX[jurisdiction]}{1234567 + 7919 * self.n:07d}"[:20]

    def matter(self, kind: str, title: str, juris: str, filed: dt.date, att: Attorney, **extra: Any) -> Matter:
        classes = extra.pop("classes", (9, 42) if kind == "trademark" else ())
        return self.s.create(
            Matter,
            kind=kind,
            title=title,
            jurisdiction=juris,
            owner=self.s.population.home.name,
            application_number=self.number(juris),
            filing_date=filed,
            classes=classes,
            expiry_date=add_months(filed, 240) if kind == "patent" else None,
            responsible_attorney_id=att.id,
            created_at=self.s.now - dt.timedelta(days=(self.today - filed).days),
            updated_at=self.s.now - dt.timedelta(days=3),
            **extra,
        )

    def event(self, m: Matter, event_type: str, on: dt.date, met: tuple[str, ...] = ()) -> Matter:
        """Record an event the way the tool does; ``met`` lists deadline kinds completed later."""
        ev = self.s.create(
            Event,
            matter_id=m.id,
            event_type=event_type,
            event_date=on,
            created_at=self.s.now - dt.timedelta(days=(self.today - on).days),
        )
        for kind, due, final, opens in deadlines_for(m.kind, m.jurisdiction, event_type, on, m.filing_date):
            done = kind in met
            self.s.create(
                Deadline,
                matter_id=m.id,
                event_id=ev.id,
                kind=kind,
                due_date=due,
                final_date=final,
                opens_on=opens,
                status="completed" if done else "open",
                responsible_attorney_id=m.responsible_attorney_id,
                completed_on=min(due, self.today) - dt.timedelta(days=5) if done else None,
                completed_by_id=m.responsible_attorney_id if done else None,
                created_at=ev.created_at,
                updated_at=ev.created_at,
            )
        return m

    def registered(self, m: Matter, on: dt.date, status: str = "registered") -> Matter:
        reg = self.number(m.jurisdiction)
        base = m.filing_date if m.jurisdiction == "EU" else on
        expiry = add_months(base, 120) if m.kind == "trademark" else m.expiry_date
        m = self.s.update(m, status=status, registration_number=reg, registration_date=on, expiry_date=expiry)
        return self.event(m, "registration" if m.kind == "trademark" else "grant", on)


def _ago(today: dt.date, months: int, days: int = 0) -> dt.date:
    return add_months(today, -months) - dt.timedelta(days=days)


@service.seeder
def seed(s: SeedContext) -> None:
    """In-house and outside counsel; the company's marks and patents at every stage with their deadlines."""
    pop = s.population
    sd = _Seed(s)
    today = sd.today
    counsel = [
        s.create(
            Attorney,
            name=p.name,
            email=p.email,
            firm=pop.home.name,
            role="in_house",
            created_at=s.ago(days=900 - 30 * k),
        )
        for k, p in enumerate(pop.staff("People", "Finance", fallback=2)[:2])
    ]
    firms = [c for c in pop.customers if c.industry in ("consulting",)] or list(pop.customers)
    outside = []
    for k, company in enumerate(firms[:3]):
        person = pop.first_contact(company)
        if person is not None:
            outside.append(
                s.create(
                    Attorney,
                    name=person.name,
                    email=person.email,
                    firm=company.name,
                    created_at=s.ago(days=800 - 40 * k),
                )
            )
    team = counsel + outside
    if not team:
        return
    if len(outside) > 1:
        s.update(outside[-1], active=False)
        team = team[:-1]

    def who(k: int) -> Attorney:
        return team[k % len(team)]

    home = pop.home.name.split()[0].upper()
    products = [p.name for p in pop.products[:4]]
    # A US mark with an office action to answer soon, one whose response is past due (extendable).
    m = sd.matter("trademark", home, "US", _ago(today, 8), who(0))
    sd.event(m, "office_action", _ago(today, 2, 10))
    m = sd.matter("trademark", f"{home} CLOUD", "US", _ago(today, 10), who(1), classes=(9, 38, 42))
    sd.event(m, "office_action", _ago(today, 4))
    # A US intent-to-use mark allowed, its statement of use due; one published, opposition running.
    m = sd.matter("trademark", products[0].upper(), "US", _ago(today, 14), who(2), classes=(9,))
    m = sd.event(s.update(m, status="published"), "publication", _ago(today, 7), met=("opposition_period",))
    sd.event(s.update(m, status="allowed"), "notice_of_allowance", _ago(today, 5))
    m = sd.matter("trademark", products[1].upper(), "US", _ago(today, 9), who(0), classes=(20,))
    sd.event(s.update(m, status="published"), "publication", _ago(today, 0, 12))
    # Registered marks: a US one with its declaration window open, an EU one up for renewal, a GB one.
    m = sd.matter("trademark", f"{home} LABS", "US", _ago(today, 75), who(1))
    sd.registered(m, _ago(today, 66))
    m = sd.matter("trademark", home, "EU", _ago(today, 115), who(2))
    sd.registered(m, _ago(today, 110))
    m = sd.matter("trademark", home, "GB", _ago(today, 30), who(0))
    sd.registered(m, _ago(today, 24))
    m = sd.matter("trademark", home, "BR", _ago(today, 5), who(1), classes=(9,))
    sd.event(m, "office_action", _ago(today, 1))
    # Patents: pending with an action, allowed with the issue fee due, granted with a fee window open.
    m = sd.matter("patent", _PATENTS[0], "US", _ago(today, 20), who(2))
    sd.event(m, "office_action", _ago(today, 1, 5))
    m = sd.matter("patent", _PATENTS[1], "US", _ago(today, 30), who(0))
    sd.event(s.update(m, status="allowed"), "notice_of_allowance", _ago(today, 1))
    m = sd.matter("patent", _PATENTS[2], "US", _ago(today, 60), who(1))
    m = sd.event(s.update(m, status="allowed"), "notice_of_allowance", _ago(today, 40), met=("issue_fee",))
    sd.registered(m, _ago(today, 38), status="granted")
    m = sd.matter("patent", _PATENTS[3], "EP", _ago(today, 18), who(2))
    sd.event(m, "office_action", _ago(today, 2))
    # An abandoned application.
    m = sd.matter(
        "trademark",
        products[2].upper(),
        "CA",
        _ago(today, 20),
        who(0),
        status="abandoned",
        notes="Dropped after the product was renamed.",
    )
