"""Ledgerline Equity: the company's cap table, option grants with vesting, exercises, 409A valuations.

Modeled on the Carta API (cap table / issuer endpoints): stakeholders (founders,
employees, advisors, investors) with a relationship; share classes (common and
preferred, with authorized shares, seniority and a liquidation preference) and
the option pool reserved under the equity incentive plan; 409A valuations that
go draft → final and are valid for twelve months from their effective date;
option grants (ISO, NSO, RSU) with a vesting schedule (months, cliff) that go
draft → pending_approval → outstanding, then exercised, cancelled or expired;
board consents that approve a batch of grants (pending → approved or rejected);
and exercises of vested options (requested → completed or cancelled). Rules:
an option's exercise price may not be below the fair market value of the
current final 409A, ISOs go to employees only, grants fit the pool, exercises
take only vested, unexercised options, and only a board-approved grant vests.
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
from compoworld.engine.types import Cents, CompanyName, Date, DateTime, Email, IdOf, PersonName, Quantity, Text, Title
from compoworld.services.kit.examples import first_example
from compoworld.services.kit.records import Timestamped, Value
from compoworld.services.kit.time import add_months

__all__ = ["service"]

service = Service(
    "equity",
    title="Ledgerline Equity",
    category="equity_management",
    modeled_on="Carta API (issuer cap table): stakeholders, share classes, option grants with vesting "
    "schedules, exercises, 409A valuations, board consents",
    description="The company's cap table: who holds which shares and options, the share classes and the option "
    "pool, 409A fair-market valuations, option grants with their vesting schedules and cliffs, the board "
    "consents that approve them, and employees' exercises of vested options.",
)

StakeholderId = Annotated[str, IdOf("equity.stakeholder")]
ShareClassId = Annotated[str, IdOf("equity.share_class")]
ValuationId = Annotated[str, IdOf("equity.valuation")]
GrantId = Annotated[str, IdOf("equity.grant")]
ConsentId = Annotated[str, IdOf("equity.consent")]
ExerciseId = Annotated[str, IdOf("equity.exercise")]

Relationship = Literal["founder", "employee", "advisor", "consultant", "investor"]
ClassKind = Literal["common", "preferred"]
ValuationStatus = Literal["draft", "final"]
GrantType = Literal["iso", "nso", "rsu"]
GrantStatus = Literal["draft", "pending_approval", "outstanding", "exercised", "cancelled", "expired"]
ConsentStatus = Literal["pending", "approved", "rejected"]
ExerciseStatus = Literal["requested", "completed", "cancelled"]
Months = Annotated[int, Field(ge=0, le=120)]

VALID_FOR_MONTHS = 12  # a 409A is a safe harbor for twelve months from its effective date


class Stakeholder(Timestamped):
    """Someone who holds or may hold equity: a founder, employee, advisor, consultant or investor."""

    id: StakeholderId
    name: PersonName
    """The holder's full name (for an investor, its contact's)."""
    email: Email
    """The holder's e-mail (unique)."""
    relationship: Relationship
    """founder, employee, advisor, consultant or investor."""
    entity_name: CompanyName | None = None
    """The investing entity (investors only)."""
    common_shares: Quantity = 0
    """Common shares held outright."""
    preferred_shares: Quantity = 0
    """Preferred shares held outright."""


class ShareClass(Timestamped):
    """A class of stock: common (with the option pool) or a preferred series."""

    id: ShareClassId
    name: Title
    """The class name, e.g. Series A Preferred."""
    kind: ClassKind
    """common or preferred."""
    authorized_shares: Quantity
    """Shares the charter authorizes."""
    issued_shares: Quantity = 0
    """Shares issued and outstanding."""
    original_issue_price_cents: Cents = 0
    """Price per share at issuance."""
    liquidation_preference: Annotated[float, Field(ge=0, le=5)] = 0.0
    """Multiple of the issue price paid first on a liquidation (preferred)."""
    seniority: Annotated[int, Field(ge=0, le=10)] = 0
    """Payout rank (higher is paid first)."""
    pool_reserved: Quantity = 0
    """Shares reserved for the equity incentive plan (common only)."""
    pool_granted: Quantity = 0
    """Pool shares under outstanding or pending grants, or exercised."""


class Valuation(Record):
    """A 409A valuation: the fair market value of a common share on a date."""

    id: ValuationId
    effective_date: Date
    """The date the value applies from."""
    fmv_cents: Cents
    """Fair market value per common share."""
    provider: Title
    """The valuation firm."""
    status: ValuationStatus = "draft"
    """draft or final (board-adopted)."""
    expires_on: Date
    """The last day it is a safe harbor (12 months after the effective date)."""
    created_at: Annotated[DateTime, CREATED]
    """When it was recorded."""


class Grant(Timestamped):
    """An equity award: options (ISO/NSO) or restricted stock units, vesting over time."""

    id: GrantId
    stakeholder_id: StakeholderId
    """The holder."""
    holder_email: Email
    """The holder's e-mail."""
    share_class_id: ShareClassId
    """The class the award converts into (common)."""
    grant_type: GrantType
    """iso, nso or rsu."""
    quantity: Annotated[int, Field(ge=1, le=10**8)]
    """Shares under the award."""
    exercise_price_cents: Cents = 0
    """Strike price per share (options; 0 for RSUs)."""
    valuation_id: ValuationId | None = None
    """The 409A the strike price was set against."""
    vesting_start: Date
    """The vesting commencement date."""
    vesting_months: Annotated[int, Field(ge=1, le=120)] = 48
    """Total vesting period in months."""
    cliff_months: Months = 12
    """Months before anything vests."""
    status: GrantStatus = "draft"
    """draft, pending_approval, outstanding, exercised, cancelled or expired."""
    consent_id: ConsentId | None = None
    """The board consent approving it."""
    exercised_shares: Quantity = 0
    """Options exercised so far."""
    granted_on: Date | None = None
    """The board approval date."""
    expires_on: Date | None = None
    """The last day options may be exercised (10 years after approval)."""


class Consent(Timestamped):
    """A board consent approving a batch of grants."""

    id: ConsentId
    title: Title
    """What it approves."""
    grant_ids: tuple[GrantId, ...]
    """The grants it covers."""
    prepared_by: Email
    """The employee who prepared it."""
    status: ConsentStatus = "pending"
    """pending, approved or rejected."""
    decided_on: Date | None = None
    """When the board decided."""
    note: Text = ""
    """The board's note."""


class Exercise(Timestamped):
    """An exercise of vested options, paid at the strike price."""

    id: ExerciseId
    grant_id: GrantId
    """The grant exercised."""
    holder_email: Email
    """The holder."""
    quantity: Annotated[int, Field(ge=1, le=10**8)]
    """Options exercised."""
    cost_cents: Cents
    """Quantity times the strike price."""
    fmv_cents: Cents
    """The fair market value per share on the exercise date (for the spread)."""
    status: ExerciseStatus = "requested"
    """requested, completed or cancelled."""


class VestingEvent(Value):
    """One vesting date of a grant."""

    date: Date
    """When it vests."""
    shares: int
    """Shares vesting then."""
    cumulative: int
    """Shares vested by then."""


class VestingSchedule(Value):
    """A grant's vesting: what has vested and the dates still ahead."""

    grant_id: GrantId
    """The grant."""
    quantity: int
    """Shares under it."""
    vested: int
    """Shares vested today."""
    exercised: int
    """Shares exercised."""
    exercisable: int
    """Vested shares not yet exercised."""
    events: list[VestingEvent]
    """The vesting dates: the cliff, then monthly."""


class CapTableRow(Value):
    """One line of the fully diluted cap table."""

    label: str
    """A share class, the option pool, or outstanding awards."""
    shares: int
    """Shares."""
    fully_diluted_percent: float
    """Share of the fully diluted total, in percent."""


class CapTable(Value):
    """The fully diluted capitalization."""

    rows: list[CapTableRow]
    """Issued shares per class, outstanding awards, and the unallocated pool."""
    fully_diluted_shares: int
    """The total."""
    current_fmv_cents: int | None
    """The current 409A value per common share (None: no valid valuation)."""


# -- rules ------------------------------------------------------------------------------------


def _staff(ctx: Ctx, email: str, field: str) -> None:
    if email not in {p.email for p in ctx.population.employees}:
        raise RuleViolation(f"{email} is not an employee", field=field, hint="use an employee's e-mail")


def _current_409a(ctx: Ctx) -> Valuation | None:
    today = ctx.today()
    live = [v for v in ctx.where(Valuation, status="final") if v.effective_date <= today <= v.expires_on]
    return max(live, key=lambda v: v.effective_date, default=None)


def vested_shares(grant: Grant, on: dt.date) -> int:
    """Shares of ``grant`` vested on ``on``: nothing before the cliff, then monthly."""
    if grant.status not in ("outstanding", "exercised"):
        return 0
    months = (on.year - grant.vesting_start.year) * 12 + on.month - grant.vesting_start.month
    if on.day < grant.vesting_start.day:
        months -= 1
    if months < grant.cliff_months:
        return 0
    return grant.quantity * min(months, grant.vesting_months) // grant.vesting_months


def _guard_grant(ctx: Ctx, new: Any, old: Any) -> None:
    if old is not None and old.status != "draft" and new.status == old.status:
        raise RuleViolation(
            f"grant {new.id} is {old.status}; only a draft can be edited",
            field="grant_id",
            hint="cancel it and draft a new one",
        )
    if new.cliff_months > new.vesting_months:
        raise RuleViolation("the cliff is longer than the vesting period", field="cliff_months", hint="shorten it")


stakeholders = service.resource(
    Stakeholder,
    name="stakeholder",
    plural="stakeholders",
    prefix="sh",
    create=False,
    filters=("relationship", "email"),
    search=("name", "entity_name"),
    update=("name", "relationship"),
    delete=False,
)
share_classes = service.resource(
    ShareClass,
    name="share_class",
    plural="share_classes",
    prefix="cls",
    create=("name", "kind", "authorized_shares", "original_issue_price_cents", "liquidation_preference", "seniority"),
    filters=("kind",),
    search=("name",),
    update=("authorized_shares",),
    delete=False,
    unique=("name",),
    title="share class",
)
valuations = service.resource(
    Valuation,
    name="valuation",
    plural="valuations",
    prefix="val",
    create=False,
    filters=("status", "provider"),
    delete=False,
    title="409A valuation",
)
grants = service.resource(
    Grant,
    name="grant",
    plural="grants",
    prefix="grt",
    create=False,
    filters=("stakeholder_id", "holder_email", "status", "grant_type", "consent_id"),
    update=("quantity", "vesting_start", "vesting_months", "cliff_months"),
    delete=False,
    guard_update=_guard_grant,
    title="equity grant",
)
consents = service.resource(
    Consent,
    name="consent",
    plural="consents",
    prefix="bc",
    create=False,
    filters=("status", "prepared_by"),
    search=("title",),
    delete=False,
    title="board consent",
)
exercises = service.resource(
    Exercise,
    name="exercise",
    plural="exercises",
    prefix="ex",
    create=False,
    filters=("grant_id", "holder_email", "status"),
    delete=False,
    transitions={
        "cancel": Transition("status", ("requested",), "cancelled", "cancel the exercise request"),
    },
    title="option exercise",
)


# -- domain tools -----------------------------------------------------------------------------


def _example_stakeholder(ctx: Ctx) -> dict[str, Any] | None:
    taken = {s.email for s in ctx.scan(Stakeholder)}
    for p in ctx.population.employees:
        if p.email not in taken:
            return {"name": p.name, "email": p.email, "relationship": "employee"}
    return None


@service.tool(intent="add the stakeholder to the cap table", write=True, example=_example_stakeholder)
def add_stakeholder(
    ctx: Ctx, name: PersonName, email: Email, relationship: Relationship, entity_name: CompanyName | None = None
) -> Stakeholder:
    """Add a stakeholder; e-mails are unique, employees and founders must work here, investors name an entity.

    Args:
        name: Full name.
        email: E-mail (unique on the cap table).
        relationship: founder, employee, advisor, consultant or investor.
        entity_name: The investing entity (investors only).
    """
    other = ctx.first(Stakeholder, email=email)
    if other is not None:
        raise Conflict(f"stakeholder {other.id} already has {email}", field="email", hint="use that stakeholder")
    if relationship in ("founder", "employee"):
        _staff(ctx, email, "email")
    if relationship == "investor" and not entity_name:
        raise RuleViolation("an investor needs an entity name", field="entity_name", hint="name the fund")
    return ctx.create(Stakeholder, name=name, email=email, relationship=relationship, entity_name=entity_name)


@service.tool(intent="record the 409A valuation", write=True)
def record_valuation(ctx: Ctx, effective_date: Date, fmv_cents: Cents, provider: Title) -> Valuation:
    """Record a draft 409A valuation; it is a safe harbor for 12 months from its effective date once final.

    Args:
        effective_date: The valuation date (not in the future).
        fmv_cents: Fair market value per common share, in cents (positive).
        provider: The valuation firm.
    """
    if effective_date > ctx.today():
        raise RuleViolation("a valuation cannot be effective in the future", field="effective_date", hint="use today")
    if fmv_cents <= 0:
        raise RuleViolation("the fair market value must be positive", field="fmv_cents", hint="give cents per share")
    expires = add_months(effective_date, VALID_FOR_MONTHS) - dt.timedelta(days=1)
    return ctx.create(
        Valuation, effective_date=effective_date, fmv_cents=fmv_cents, provider=provider, expires_on=expires
    )


@service.tool(
    intent="finalize the 409A valuation",
    write=True,
    example=first_example(Valuation, "valuation_id", where={"status": "draft"}),
)
def finalize_valuation(ctx: Ctx, valuation_id: ValuationId) -> Valuation:
    """Mark a draft 409A final (adopted by the board); it becomes the current value if it is the newest.

    Args:
        valuation_id: The draft valuation.
    """
    val = ctx.get(Valuation, valuation_id, field="valuation_id")
    if val.status != "draft":
        raise Conflict(f"valuation {val.id} is already final", field="valuation_id", hint="nothing to do")
    if val.expires_on < ctx.today():
        raise RuleViolation("this valuation has already lapsed", field="valuation_id", hint="record a new one")
    return ctx.update(val, status="final")


def _common(ctx: Ctx) -> ShareClass:
    cls = ctx.first(ShareClass, kind="common")
    if cls is None:
        raise RuleViolation("no common share class", field=None, hint="create one with equity__create_share_class")
    return cls


def _example_grant(ctx: Ctx) -> dict[str, Any] | None:
    val = _current_409a(ctx)
    holder = ctx.first(Stakeholder, relationship="employee")
    if val is None or holder is None:
        return None
    return {
        "stakeholder_id": holder.id,
        "grant_type": "iso",
        "quantity": 5000,
        "exercise_price_cents": val.fmv_cents,
        "vesting_start": ctx.today().isoformat(),
    }


@service.tool(intent="draft the option grant", write=True, example=_example_grant)
def draft_grant(
    ctx: Ctx,
    stakeholder_id: StakeholderId,
    grant_type: GrantType,
    quantity: Annotated[int, Field(ge=1, le=10**8)],
    vesting_start: Date,
    exercise_price_cents: Cents = 0,
    vesting_months: Annotated[int, Field(ge=1, le=120)] = 48,
    cliff_months: Months = 12,
) -> Grant:
    """Draft a grant from the option pool; options are priced at or above the current 409A value.

    Args:
        stakeholder_id: The holder.
        grant_type: iso (employees only), nso or rsu.
        quantity: Shares under the award; the pool must have them unallocated.
        vesting_start: Vesting commencement date.
        exercise_price_cents: Strike per share (options; RSUs take 0).
        vesting_months: Total vesting period (default 48).
        cliff_months: Months before anything vests (default 12; at most the vesting period).
    """
    holder = ctx.get(Stakeholder, stakeholder_id, field="stakeholder_id")
    if grant_type == "iso" and holder.relationship not in ("employee", "founder"):
        raise RuleViolation(
            f"ISOs go to employees only; {holder.name} is an {holder.relationship}",
            field="grant_type",
            hint="grant an nso instead",
        )
    if cliff_months > vesting_months:
        raise RuleViolation("the cliff is longer than the vesting period", field="cliff_months", hint="shorten it")
    val = None
    if grant_type != "rsu":
        val = _current_409a(ctx)
        if val is None:
            raise RuleViolation(
                "options need a current final 409A valuation",
                field="exercise_price_cents",
                hint="finalize a 409A with equity__finalize_valuation first",
            )
        if exercise_price_cents < val.fmv_cents:
            raise RuleViolation(
                f"the exercise price is below the 409A value of {val.fmv_cents} cents",
                field="exercise_price_cents",
                hint=f"price it at {val.fmv_cents} cents or more",
            )
    elif exercise_price_cents:
        raise RuleViolation("RSUs have no exercise price", field="exercise_price_cents", hint="pass 0")
    common = _common(ctx)
    free = common.pool_reserved - common.pool_granted
    if quantity > free:
        raise RuleViolation(
            f"the option pool has {free} shares left", field="quantity", hint="grant fewer or expand the pool"
        )
    ctx.update(common, pool_granted=common.pool_granted + quantity)
    return ctx.create(
        Grant,
        stakeholder_id=holder.id,
        holder_email=holder.email,
        share_class_id=common.id,
        grant_type=grant_type,
        quantity=quantity,
        exercise_price_cents=exercise_price_cents,
        valuation_id=val.id if val else None,
        vesting_start=vesting_start,
        vesting_months=vesting_months,
        cliff_months=cliff_months,
    )


def _release(ctx: Ctx, grant: Grant) -> None:
    common = ctx.get(ShareClass, grant.share_class_id)
    back = grant.quantity - grant.exercised_shares
    ctx.update(common, pool_granted=max(0, common.pool_granted - back))


@service.tool(
    intent="cancel the grant",
    write=True,
    destructive=True,
    example=first_example(Grant, "grant_id", where={"status": "outstanding"}),
)
def cancel_grant(ctx: Ctx, grant_id: GrantId) -> Grant:
    """Cancel a draft, pending or outstanding grant (e.g. on termination); unexercised shares return to the pool.

    Args:
        grant_id: The grant.
    """
    grant = ctx.get(Grant, grant_id, field="grant_id")
    if grant.status not in ("draft", "pending_approval", "outstanding"):
        raise Conflict(f"grant {grant.id} is already {grant.status}", field="grant_id", hint="nothing to cancel")
    if any(e.status == "requested" for e in ctx.where(Exercise, grant_id=grant.id)):
        raise Conflict("an exercise of this grant is in progress", field="grant_id", hint="cancel the exercise first")
    _release(ctx, grant)
    return ctx.update(grant, status="cancelled")


def _example_consent(ctx: Ctx) -> dict[str, Any] | None:
    g = ctx.first(Grant, status="draft")
    if g is None:
        return None
    return {"title": "Q3 option grants", "grant_ids": [g.id], "prepared_by": ctx.population.employees[0].email}


@service.tool(intent="send the grants for board approval", write=True, example=_example_consent)
def request_board_approval(ctx: Ctx, title: Title, grant_ids: list[GrantId], prepared_by: Email) -> Consent:
    """Put draft grants into a board consent; they wait as pending_approval until the board decides.

    Args:
        title: What the consent approves.
        grant_ids: Draft grants (at least one, each once).
        prepared_by: The employee preparing it (legal or finance).
    """
    if not grant_ids or len(set(grant_ids)) != len(grant_ids):
        raise RuleViolation("list each draft grant once", field="grant_ids", hint="give at least one grant id")
    _staff(ctx, prepared_by, "prepared_by")
    found = [ctx.get(Grant, gid, field="grant_ids") for gid in grant_ids]
    for g in found:
        if g.status != "draft":
            raise Conflict(f"grant {g.id} is {g.status}, not draft", field="grant_ids", hint="list only drafts")
    consent = ctx.create(Consent, title=title, grant_ids=tuple(grant_ids), prepared_by=prepared_by)
    for g in found:
        ctx.update(g, status="pending_approval", consent_id=consent.id)
    return consent


def _pending(ctx: Ctx, consent_id: str) -> Consent:
    consent = ctx.get(Consent, consent_id, field="consent_id")
    if consent.status != "pending":
        raise Conflict(f"consent {consent.id} is already {consent.status}", field="consent_id", hint="nothing to do")
    return consent


@service.tool(
    intent="approve the board consent",
    write=True,
    example=first_example(Consent, "consent_id", where={"status": "pending"}),
)
def approve_consent(ctx: Ctx, consent_id: ConsentId, note: Text = "") -> Consent:
    """Record the board's approval: its grants become outstanding, granted today, expiring in ten years.

    Args:
        consent_id: The pending consent.
        note: The board's note.
    """
    consent = _pending(ctx, consent_id)
    today = ctx.today()
    current = _current_409a(ctx)
    for gid in consent.grant_ids:
        g = ctx.get(Grant, gid)
        if g.grant_type != "rsu" and (current is None or g.exercise_price_cents < current.fmv_cents):
            raise RuleViolation(
                f"grant {g.id} is priced below the current 409A value",
                field="consent_id",
                hint="reject the consent and redraft the grant at the current value",
            )
    for gid in consent.grant_ids:
        g = ctx.get(Grant, gid)
        ctx.update(g, status="outstanding", granted_on=today, expires_on=add_months(today, 120))
    return ctx.update(consent, status="approved", decided_on=today, note=note)


@service.tool(
    intent="reject the board consent",
    write=True,
    example=first_example(Consent, "consent_id", where={"status": "pending"}, note="Revisit after the 409A."),
)
def reject_consent(ctx: Ctx, consent_id: ConsentId, note: Text) -> Consent:
    """Record the board's rejection: its grants go back to draft.

    Args:
        consent_id: The pending consent.
        note: Why (required).
    """
    consent = _pending(ctx, consent_id)
    if not note.strip():
        raise RuleViolation("a rejection needs a note", field="note", hint="say why the board declined")
    for gid in consent.grant_ids:
        ctx.update(ctx.get(Grant, gid), status="draft", consent_id=None)
    return ctx.update(consent, status="rejected", decided_on=ctx.today(), note=note.strip())


@service.tool(intent="show the grant's vesting schedule", example=first_example(Grant, "grant_id"))
def vesting_schedule(ctx: Ctx, grant_id: GrantId) -> VestingSchedule:
    """A grant's vesting dates (cliff, then monthly), what has vested today and what is exercisable.

    Args:
        grant_id: The grant.
    """
    g = ctx.get(Grant, grant_id, field="grant_id")
    events: list[VestingEvent] = []
    done = 0
    for m in range(g.cliff_months or 1, g.vesting_months + 1):
        total = g.quantity * m // g.vesting_months
        events.append(VestingEvent(date=add_months(g.vesting_start, m), shares=total - done, cumulative=total))
        done = total
    vested = vested_shares(g, ctx.today())
    return VestingSchedule(
        grant_id=g.id,
        quantity=g.quantity,
        vested=vested,
        exercised=g.exercised_shares,
        exercisable=max(0, vested - g.exercised_shares) if g.grant_type != "rsu" else 0,
        events=events,
    )


def _example_exercise(ctx: Ctx) -> dict[str, Any] | None:
    for g in ctx.where(Grant, status="outstanding"):
        if g.grant_type != "rsu" and vested_shares(g, ctx.today()) - g.exercised_shares >= 100:
            return {"grant_id": g.id, "quantity": 100}
    return None


@service.tool(intent="exercise the vested options", write=True, example=_example_exercise)
def exercise_options(ctx: Ctx, grant_id: GrantId, quantity: Annotated[int, Field(ge=1, le=10**8)]) -> Exercise:
    """Request an exercise of vested, unexercised options of an outstanding grant, at its strike price.

    Args:
        grant_id: The outstanding option grant.
        quantity: Options to exercise (at most the vested ones not yet exercised or requested).
    """
    g = ctx.get(Grant, grant_id, field="grant_id")
    if g.grant_type == "rsu":
        raise RuleViolation("RSUs settle on vesting and are not exercised", field="grant_id", hint="pick an option")
    if g.status != "outstanding":
        raise Conflict(f"grant {g.id} is {g.status}", field="grant_id", hint="only outstanding grants are exercised")
    today = ctx.today()
    if g.expires_on is not None and today > g.expires_on:
        raise RuleViolation(f"grant {g.id} expired on {g.expires_on}", field="grant_id", hint="it cannot be exercised")
    requested = sum(e.quantity for e in ctx.where(Exercise, grant_id=g.id, status="requested"))
    free = vested_shares(g, today) - g.exercised_shares - requested
    if quantity > free:
        raise RuleViolation(
            f"only {max(free, 0)} options are vested and unexercised",
            field="quantity",
            hint="see equity__vesting_schedule for what vests when",
        )
    val = _current_409a(ctx)
    return ctx.create(
        Exercise,
        grant_id=g.id,
        holder_email=g.holder_email,
        quantity=quantity,
        cost_cents=quantity * g.exercise_price_cents,
        fmv_cents=val.fmv_cents if val else g.exercise_price_cents,
    )


@service.tool(
    intent="complete the exercise",
    write=True,
    example=first_example(Exercise, "exercise_id", where={"status": "requested"}),
)
def complete_exercise(ctx: Ctx, exercise_id: ExerciseId) -> Exercise:
    """Record payment of a requested exercise: the holder gets common shares and the grant counts them exercised.

    Args:
        exercise_id: The requested exercise.
    """
    ex = ctx.get(Exercise, exercise_id, field="exercise_id")
    if ex.status != "requested":
        raise Conflict(f"exercise {ex.id} is {ex.status}", field="exercise_id", hint="only requested ones complete")
    g = ctx.get(Grant, ex.grant_id)
    if g.status != "outstanding":
        raise Conflict(f"grant {g.id} is {g.status}", field="exercise_id", hint="cancel this exercise")
    done = g.exercised_shares + ex.quantity
    ctx.update(g, exercised_shares=done, status="exercised" if done >= g.quantity else "outstanding")
    holder = ctx.get(Stakeholder, g.stakeholder_id)
    ctx.update(holder, common_shares=holder.common_shares + ex.quantity)
    common = ctx.get(ShareClass, g.share_class_id)
    ctx.update(common, issued_shares=common.issued_shares + ex.quantity)
    return ctx.update(ex, status="completed")


@service.tool(intent="show the fully diluted cap table")
def cap_table(ctx: Ctx) -> CapTable:
    """Issued shares per class, outstanding and pending awards, the unallocated pool, and percentages."""
    rows: list[tuple[str, int]] = [(c.name, c.issued_shares) for c in ctx.scan(ShareClass)]
    live = [g for g in ctx.scan(Grant) if g.status in ("outstanding", "pending_approval", "draft")]
    rows.append(("Outstanding and pending awards", sum(g.quantity - g.exercised_shares for g in live)))
    common = ctx.first(ShareClass, kind="common")
    if common is not None:
        rows.append(("Unallocated option pool", max(0, common.pool_reserved - common.pool_granted)))
    total = sum(n for _, n in rows)
    val = _current_409a(ctx)
    return CapTable(
        rows=[
            CapTableRow(label=lab, shares=n, fully_diluted_percent=round(100 * n / total, 3) if total else 0.0)
            for lab, n in rows
        ],
        fully_diluted_shares=total,
        current_fmv_cents=val.fmv_cents if val else None,
    )


# -- seed -------------------------------------------------------------------------------------


@service.seeder
def seed(s: SeedContext) -> None:
    """Founders, employees with grants in every state, investors holding preferred, 409As, consents, exercises."""
    pop = s.population
    today = s.now.date()
    common, seed_pref, series_a = (
        s.create(
            ShareClass,
            name=name,
            kind="common" if k == 0 else "preferred",
            authorized_shares=authorized,
            original_issue_price_cents=price,
            liquidation_preference=0.0 if k == 0 else 1.0,
            seniority=k,
            pool_reserved=2_000_000 if k == 0 else 0,
            created_at=s.ago(days=1500 - 500 * k),
        )
        for k, (name, authorized, price) in enumerate(
            (
                ("Common Stock", 15_000_000, 1),
                ("Series Seed Preferred", 2_000_000, 150),
                ("Series A Preferred", 3_000_000, 420),
            )
        )
    )
    for k, (eff, fmv, status) in enumerate(((700, 35, "final"), (200, 82, "final"), (10, 95, "draft"))):
        day = today - dt.timedelta(days=eff)
        s.create(
            Valuation,
            effective_date=day,
            fmv_cents=fmv,
            provider=("Aranca", "Scalar", "Carta Valuations")[k],
            status=status,
            expires_on=add_months(day, VALID_FOR_MONTHS) - dt.timedelta(days=1),
            created_at=s.ago(days=eff - 3 if eff > 3 else 0),
        )
    emp = pop.employees
    issued = 0
    for p in emp[:2]:
        s.create(Stakeholder, name=p.name, email=p.email, relationship="founder", common_shares=4_000_000)
        issued += 4_000_000
    common = s.update(common, issued_shares=issued)
    pref = {seed_pref.id: 0, series_a.id: 0}
    for k, company in enumerate(pop.customers[:3]):
        contact = pop.first_contact(company)
        if contact is None:
            continue
        cls = seed_pref if k == 0 else series_a
        n = 1_500_000 if k == 0 else 1_200_000
        pref[cls.id] += n
        s.create(
            Stakeholder,
            name=contact.name,
            email=contact.email,
            relationship="investor",
            entity_name=f"{company.name} Ventures",
            preferred_shares=n,
        )
    s.update(seed_pref, issued_shares=pref[seed_pref.id])
    s.update(series_a, issued_shares=pref[series_a.id])
    advisor = pop.contacts[-1]
    adv = s.create(Stakeholder, name=advisor.name, email=advisor.email, relationship="advisor")
    holders = [s.create(Stakeholder, name=p.name, email=p.email, relationship="employee") for p in emp[2:14]]
    _seed_grants(s, common, holders, adv)


def _seed_grants(s: SeedContext, common: ShareClass, holders: list[Stakeholder], adv: Stakeholder) -> None:
    today = s.now.date()
    vals = s.records(Valuation)
    old, current = vals[0], vals[1]
    approved = s.create(
        Consent,
        title="Option grants for new hires",
        grant_ids=(),
        prepared_by=s.population.employees[0].email,
        status="approved",
        decided_on=today - dt.timedelta(days=400),
        created_at=s.ago(days=405),
    )
    pending = s.create(
        Consent,
        title="Promotion refresh grants",
        grant_ids=(),
        prepared_by=s.population.employees[0].email,
        created_at=s.ago(days=3),
    )
    plan: list[tuple[GrantStatus, int]] = [("outstanding", 900), ("outstanding", 500), ("outstanding", 420)]
    plan += [("outstanding", 150), ("exercised", 1500), ("cancelled", 800), ("pending_approval", 5)]
    plan += [("pending_approval", 5), ("draft", 1), ("draft", 1), ("outstanding", 60), ("expired", 4000)]
    granted = exercised = 0
    on_consent: dict[str, list[str]] = {approved.id: [], pending.id: []}
    for k, (h, (status, days)) in enumerate(zip(holders, plan, strict=False)):
        qty = (k % 4 + 1) * 10_000
        val = old if days > 300 else current
        consent = approved if status not in ("draft", "pending_approval") else pending
        g = s.create(
            Grant,
            stakeholder_id=h.id,
            holder_email=h.email,
            share_class_id=common.id,
            grant_type="rsu" if k == 3 else "iso",
            quantity=qty,
            exercise_price_cents=0 if k == 3 else val.fmv_cents,
            valuation_id=None if k == 3 else val.id,
            vesting_start=today - dt.timedelta(days=days),
            status=status,
            consent_id=None if status == "draft" else consent.id,
            exercised_shares=qty if status == "exercised" else 0,
            granted_on=None if status in ("draft", "pending_approval") else today - dt.timedelta(days=days),
            expires_on=None if status in ("draft", "pending_approval") else today + dt.timedelta(days=3650 - days),
            created_at=s.ago(days=days + 5),
        )
        if g.consent_id:
            on_consent[g.consent_id].append(g.id)
        if status in ("outstanding", "pending_approval", "draft", "exercised"):
            granted += qty
        if status == "exercised":
            s.update(h, common_shares=qty)
            exercised += qty
    nso = s.create(
        Grant,
        stakeholder_id=adv.id,
        holder_email=adv.email,
        share_class_id=common.id,
        grant_type="nso",
        quantity=20_000,
        exercise_price_cents=current.fmv_cents,
        valuation_id=current.id,
        vesting_start=today - dt.timedelta(days=200),
        vesting_months=24,
        cliff_months=0,
        status="outstanding",
        consent_id=approved.id,
        granted_on=today - dt.timedelta(days=200),
        expires_on=today + dt.timedelta(days=3450),
        created_at=s.ago(days=205),
    )
    on_consent[approved.id].append(nso.id)
    granted += nso.quantity
    s.update(approved, grant_ids=tuple(on_consent[approved.id]))
    s.update(pending, grant_ids=tuple(on_consent[pending.id]))
    s.update(common, pool_granted=granted, issued_shares=common.issued_shares + exercised)
    first = s.records(Grant)[0]
    s.create(
        Exercise,
        grant_id=first.id,
        holder_email=first.holder_email,
        quantity=1000,
        cost_cents=1000 * first.exercise_price_cents,
        fmv_cents=current.fmv_cents,
        status="requested",
        created_at=s.ago(days=2),
    )
