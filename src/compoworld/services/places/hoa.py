"""Commons HOA: homeowners association management for a community manager.

Modeled on the Buildium API's association endpoints (Associations, association
Units and Owners with board member roles, ownership-account charges and
payments for assessments, violations with notices, hearings and fines, and
architectural review requests decided by the board): dues are charged once per
unit and month, special assessments across every unit, and a late fee once on a
charge unpaid 15 days after it was due; payments settle the oldest open
charges first and never exceed what is owed; a violation goes open →
notice_sent → hearing_scheduled → fined (or resolved or dismissed), a hearing
needs a notice first and at least 10 days' warning (as state HOA statutes
require), and a fine comes only after the hearing date, capped by the
association's fine schedule; an architectural request is decided by majority
of the board's votes, a board member never votes on a request for their own
unit, and a project starts only once approved.
"""

from __future__ import annotations

import datetime as dt
from typing import Annotated, Any, Literal

from pydantic import StringConstraints

from compoworld.engine.context import Ctx
from compoworld.engine.errors import Conflict, RuleViolation
from compoworld.engine.records import CREATED, UPDATED, Record
from compoworld.engine.service import Service, Transition
from compoworld.engine.state import SeedContext
from compoworld.engine.types import Cents, Date, DateTime, Email, IdOf, PersonName, PostalAddress, Text, Title
from compoworld.services.kit.examples import first_example
from compoworld.services.kit.records import Value
from compoworld.services.kit.time import add_months

__all__ = ["service"]

service = Service(
    "hoa",
    title="Commons HOA",
    category="hoa_management",
    modeled_on="Buildium API associations endpoints: associations, units, owners and board members, "
    "ownership account charges and payments, violations, architectural requests",
    description="Homeowners association management: associations, their units and owners and board, monthly "
    "dues and special assessments with late fees and payments, covenant violations with notices, hearings "
    "and fines, and architectural change requests the board votes on.",
)

AssociationId = Annotated[str, IdOf("hoa.association")]
UnitId = Annotated[str, IdOf("hoa.unit")]
OwnerId = Annotated[str, IdOf("hoa.owner")]
ChargeId = Annotated[str, IdOf("hoa.charge")]
PaymentId = Annotated[str, IdOf("hoa.payment")]
ViolationId = Annotated[str, IdOf("hoa.violation")]
RequestId = Annotated[str, IdOf("hoa.request")]
Month = Annotated[str, StringConstraints(pattern=r"^\d{4}-(0[1-9]|1[0-2])$")]
"""A calendar month, YYYY-MM."""

BoardRole = Literal["president", "treasurer", "secretary", "director"]
ChargeKind = Literal["dues", "special_assessment", "late_fee", "fine"]
ChargeStatus = Literal["open", "paid", "void"]
ViolationCategory = Literal["parking", "trash", "landscaping", "noise", "pets", "architectural"]
ViolationStatus = Literal["open", "notice_sent", "hearing_scheduled", "fined", "resolved", "dismissed"]
Project = Literal["fence", "exterior_paint", "solar_panels", "deck", "landscaping", "roof"]
RequestStatus = Literal["submitted", "approved", "denied", "completed"]
Decision = Literal["approve", "deny"]

LATE_AFTER_DAYS = 15
HEARING_NOTICE_DAYS = 10
LIVE_VIOLATION: tuple[ViolationStatus, ...] = ("open", "notice_sent", "hearing_scheduled")


class Association(Record):
    """A homeowners association the company manages."""

    id: AssociationId
    name: Title
    """The association's name."""
    address: PostalAddress
    """Its mailing address."""
    manager_email: Email
    """The employee managing it."""
    monthly_dues: Cents
    """Regular assessment per unit and month, in cents."""
    late_fee: Cents
    """Fee on a charge unpaid 15 days after its due date, in cents."""
    max_fine: Cents
    """Largest fine per violation the fine schedule allows, in cents."""
    created_at: Annotated[DateTime, CREATED]
    """When it was added."""


class Unit(Record):
    """A home or lot in an association."""

    id: UnitId
    association_id: AssociationId
    """The association."""
    unit_number: Annotated[str, StringConstraints(min_length=1, max_length=20)]
    """Its number or lot, unique in the association."""
    address: PostalAddress
    """Its street address."""
    owner_id: OwnerId | None = None
    """The current owner."""


class Owner(Record):
    """An owner of a unit, possibly on the board."""

    id: OwnerId
    association_id: AssociationId
    """The association."""
    name: PersonName
    """Full name."""
    email: Email
    """E-mail for notices and statements."""
    board_role: BoardRole | None = None
    """The seat on the board, if any."""
    created_at: Annotated[DateTime, CREATED]
    """When they became an owner."""


class Charge(Record):
    """An amount billed to a unit's ownership account."""

    id: ChargeId
    unit_id: UnitId
    """The unit."""
    owner_id: OwnerId
    """The owner billed."""
    kind: ChargeKind
    """dues, special_assessment, late_fee or fine."""
    memo: Title
    """What it is for, e.g. 'Dues 2026-03'."""
    amount: Cents
    """Amount in cents."""
    paid: Cents = 0
    """How much of it is paid."""
    due_date: Date
    """When it is due."""
    status: ChargeStatus = "open"
    """open → paid; void."""
    late_fee_id: ChargeId | None = None
    """The late fee charged on it, if any."""
    updated_at: Annotated[DateTime, UPDATED]
    """When it last changed."""


class Payment(Record):
    """A payment an owner made."""

    id: PaymentId
    unit_id: UnitId
    """The unit."""
    owner_id: OwnerId
    """Who paid."""
    amount: Cents
    """Amount in cents."""
    method: Literal["ach", "check", "card"]
    """ach, check or card."""
    charge_ids: tuple[ChargeId, ...]
    """The charges it settled, oldest first."""
    created_at: Annotated[DateTime, CREATED]
    """When it was received."""


class Violation(Record):
    """A breach of the association's covenants (CC&Rs) at a unit."""

    id: ViolationId
    unit_id: UnitId
    """The unit."""
    category: ViolationCategory
    """parking, trash, landscaping, noise, pets or architectural."""
    description: Text
    """What was observed."""
    status: ViolationStatus = "open"
    """open → notice_sent → hearing_scheduled → fined; resolved or dismissed."""
    notices_sent: int = 0
    """Notices mailed to the owner."""
    hearing_date: Date | None = None
    """The board hearing."""
    fine_charge_id: ChargeId | None = None
    """The fine charged."""
    created_at: Annotated[DateTime, CREATED]
    """When it was reported."""
    updated_at: Annotated[DateTime, UPDATED]
    """When it last changed."""


class Vote(Value):
    """A board member's vote on an architectural request."""

    owner_id: OwnerId
    """The board member."""
    decision: Decision
    """approve or deny."""


class Request(Record):
    """An architectural review request: an owner asks to change the outside of their home."""

    id: RequestId
    unit_id: UnitId
    """The unit."""
    owner_id: OwnerId
    """The owner asking."""
    project: Project
    """fence, exterior_paint, solar_panels, deck, landscaping or roof."""
    description: Text
    """What will be done."""
    status: RequestStatus = "submitted"
    """submitted → approved or denied (by majority of the board) → completed."""
    votes: tuple[Vote, ...] = ()
    """The board's votes so far."""
    created_at: Annotated[DateTime, CREATED]
    """When it was submitted."""
    updated_at: Annotated[DateTime, UPDATED]
    """When it last changed."""


class Ledger(Value):
    """A unit's ownership account."""

    unit_id: UnitId
    """The unit."""
    owner_id: OwnerId | None
    """Its owner."""
    open_charges: int
    """Charges not fully paid."""
    balance_due: Cents
    """What is owed, in cents."""
    past_due: Cents
    """What is owed on charges past their due date, in cents."""


# -- rules ------------------------------------------------------------------------------------


def _owner_of(ctx: Ctx, unit: Unit, field: str) -> Owner:
    if unit.owner_id is None:
        raise RuleViolation(f"unit {unit.unit_number} has no owner", field=field, hint="pick an owned unit")
    return ctx.get(Owner, unit.owner_id)


def _owed(c: Charge) -> int:
    return c.amount - c.paid if c.status == "open" else 0


def _guard_violation(ctx: Ctx, new: Any, old: Any) -> None:
    unit = ctx.get(Unit, new.unit_id, field="unit_id")
    if old is None:
        for v in ctx.where(Violation, unit_id=unit.id, category=new.category):
            if v.status in LIVE_VIOLATION and v.id != new.id:
                raise Conflict(
                    f"violation {v.id} of this kind is already {v.status}",
                    field="category",
                    hint="follow up on that violation",
                )


def _guard_request(ctx: Ctx, new: Any, old: Any) -> None:
    if old is None:
        unit = ctx.get(Unit, new.unit_id, field="unit_id")
        if unit.owner_id != new.owner_id:
            raise RuleViolation(
                f"owner {new.owner_id} does not own unit {unit.unit_number}",
                field="owner_id",
                hint="the unit's owner submits the request",
            )
        if not new.description.strip():
            raise RuleViolation("describe the project", field="description", hint="materials, colours, location")


def _guard_association(ctx: Ctx, new: Any, old: Any) -> None:
    if new.late_fee > new.monthly_dues:
        raise RuleViolation("the late fee is more than a month's dues", field="late_fee", hint="lower it")


associations = service.resource(
    Association,
    name="association",
    plural="associations",
    prefix="assn",
    create=False,
    filters=("manager_email",),
    search=("name",),
    update=("monthly_dues", "late_fee", "max_fine"),
    delete=False,
    guard_update=_guard_association,
)
units = service.resource(
    Unit,
    name="unit",
    plural="units",
    prefix="unit",
    create=False,
    filters=("association_id", "owner_id", "unit_number"),
    delete=False,
)
owners = service.resource(
    Owner,
    name="owner",
    plural="owners",
    prefix="own",
    create=False,
    filters=("association_id", "email", "board_role"),
    search=("name", "email"),
    update=("email",),
    delete=False,
)
charges = service.resource(
    Charge,
    name="charge",
    plural="charges",
    prefix="chg",
    create=False,
    get=False,
    filters=("unit_id", "owner_id", "kind", "status"),
    search=("memo",),
    delete=False,
)
payments = service.resource(
    Payment,
    name="payment",
    plural="payments",
    prefix="pay",
    create=False,
    get=False,
    filters=("unit_id", "owner_id"),
    delete=False,
)
violations = service.resource(
    Violation,
    name="violation",
    plural="violations",
    prefix="vio",
    create=("unit_id", "category", "description"),
    filters=("unit_id", "category", "status"),
    search=("description",),
    delete=False,
    transitions={
        "resolve": Transition("status", LIVE_VIOLATION, "resolved", "mark the violation resolved"),
        "dismiss": Transition("status", LIVE_VIOLATION, "dismissed", "dismiss the violation"),
    },
    guard_create=_guard_violation,
)
requests = service.resource(
    Request,
    name="request",
    plural="requests",
    prefix="arc",
    create=("unit_id", "owner_id", "project", "description"),
    filters=("unit_id", "owner_id", "project", "status"),
    search=("description",),
    delete=False,
    transitions={"complete": Transition("status", ("approved",), "completed", "mark the approved project completed")},
    guard_create=_guard_request,
    title="architectural request",
)


# -- assessments and payments -----------------------------------------------------------------


def _bill(ctx: Ctx | SeedContext, unit: Unit, kind: ChargeKind, memo: str, amount: int, due: dt.date) -> Charge:
    assert unit.owner_id is not None
    return ctx.create(
        Charge, unit_id=unit.id, owner_id=unit.owner_id, kind=kind, memo=memo, amount=amount, due_date=due
    )


def _example_dues(ctx: Ctx) -> dict[str, Any] | None:
    assn = ctx.first(Association)
    nxt = add_months(ctx.today(), 1)
    return None if assn is None else {"association_id": assn.id, "month": f"{nxt.year}-{nxt.month:02d}"}


@service.tool(intent="charge the month's dues", write=True, example=_example_dues)
def charge_dues(ctx: Ctx, association_id: AssociationId, month: Month) -> list[Charge]:
    """Charge every owned unit the association's dues for a month, due on its first day; once per month.

    Args:
        association_id: The association.
        month: The month, YYYY-MM.
    """
    assn = ctx.get(Association, association_id, field="association_id")
    memo = f"Dues {month}"
    made = []
    for unit in ctx.where(Unit, association_id=assn.id):
        if unit.owner_id is None:
            continue
        if any(c.memo == memo and c.status != "void" for c in ctx.where(Charge, unit_id=unit.id, kind="dues")):
            raise Conflict(f"dues for {month} are already charged", field="month", hint="pick another month")
        made.append(_bill(ctx, unit, "dues", memo, assn.monthly_dues, dt.date.fromisoformat(f"{month}-01")))
    return made


@service.tool(
    intent="levy the special assessment",
    write=True,
    example=first_example(
        Association, "association_id", memo="Roof replacement", amount_per_unit=50_000, due_in_days=30
    ),
)
def levy_special_assessment(
    ctx: Ctx, association_id: AssociationId, memo: Title, amount_per_unit: Cents, due_in_days: int = 30
) -> list[Charge]:
    """Charge every owned unit a one-time special assessment (board-approved repairs, reserves).

    Args:
        association_id: The association.
        memo: What it pays for.
        amount_per_unit: Amount per unit in cents (more than 0).
        due_in_days: Days until it is due, 15 to 365.
    """
    assn = ctx.get(Association, association_id, field="association_id")
    if amount_per_unit <= 0:
        raise RuleViolation("amount_per_unit must be more than 0", field="amount_per_unit", hint="give cents")
    if not 15 <= due_in_days <= 365:
        raise RuleViolation("owners get 15 to 365 days to pay", field="due_in_days", hint="pick 15-365")
    due = ctx.today() + dt.timedelta(days=due_in_days)
    owned = [u for u in ctx.where(Unit, association_id=assn.id) if u.owner_id is not None]
    return [_bill(ctx, u, "special_assessment", memo, amount_per_unit, due) for u in owned]


def _late(ctx: Ctx, c: Charge) -> bool:
    late = c.status == "open" and c.kind in ("dues", "special_assessment") and c.late_fee_id is None
    return late and c.due_date + dt.timedelta(days=LATE_AFTER_DAYS) < ctx.today()


@service.tool(intent="charge the late fee", write=True, example=first_example(Charge, "charge_id", match=_late))
def charge_late_fee(ctx: Ctx, charge_id: ChargeId) -> Charge:
    """Charge the association's late fee on dues or an assessment still open 15 days after it was due; once.

    Args:
        charge_id: The overdue charge.
    """
    charge = ctx.get(Charge, charge_id, field="charge_id")
    if charge.late_fee_id is not None:
        raise Conflict(f"late fee {charge.late_fee_id} was already charged", field="charge_id", hint="nothing to do")
    if not _late(ctx, charge):
        raise RuleViolation(
            f"charge {charge.id} is not {LATE_AFTER_DAYS} days overdue",
            field="charge_id",
            hint="late fees apply to open dues or assessments only",
        )
    unit = ctx.get(Unit, charge.unit_id)
    assn = ctx.get(Association, unit.association_id)
    fee = _bill(ctx, unit, "late_fee", f"Late fee on {charge.memo}", assn.late_fee, ctx.today())
    ctx.update(charge, late_fee_id=fee.id)
    return fee


@service.tool(
    intent="void the charge",
    write=True,
    destructive=True,
    example=first_example(Charge, "charge_id", where={"status": "open", "paid": 0}),
)
def void_charge(ctx: Ctx, charge_id: ChargeId) -> Charge:
    """Void an open charge nothing was paid on.

    Args:
        charge_id: The charge.
    """
    charge = ctx.get(Charge, charge_id, field="charge_id")
    if charge.status != "open" or charge.paid:
        raise RuleViolation(
            f"charge {charge.id} is {charge.status} with {charge.paid} paid",
            field="charge_id",
            hint="only unpaid open charges are voided",
        )
    return ctx.update(charge, status="void")


def _example_pay(ctx: Ctx) -> dict[str, Any] | None:
    for c in ctx.where(Charge, status="open"):
        return {"unit_id": c.unit_id, "amount": _owed(c), "method": "ach"}
    return None


@service.tool(intent="record the owner's payment", write=True, example=_example_pay)
def record_payment(ctx: Ctx, unit_id: UnitId, amount: Cents, method: Literal["ach", "check", "card"]) -> Payment:
    """Record a payment from a unit's owner; it settles the oldest open charges first and cannot exceed what is owed.

    Args:
        unit_id: The unit.
        amount: Amount in cents (more than 0).
        method: ach, check or card.
    """
    unit = ctx.get(Unit, unit_id, field="unit_id")
    owner = _owner_of(ctx, unit, "unit_id")
    open_ = sorted((c for c in ctx.where(Charge, unit_id=unit.id, status="open")), key=lambda c: (c.due_date, c.id))
    owed = sum(_owed(c) for c in open_)
    if amount <= 0 or amount > owed:
        raise RuleViolation(
            f"amount must be 1 to {owed} cents (the balance due)",
            field="amount",
            hint="check the balance with hoa__unit_ledger",
        )
    left, settled = amount, []
    for c in open_:
        part = min(left, _owed(c))
        if part == 0:
            break
        ctx.update(c, paid=c.paid + part, status="paid" if part == _owed(c) else "open")
        settled.append(c.id)
        left -= part
    return ctx.create(
        Payment, unit_id=unit.id, owner_id=owner.id, amount=amount, method=method, charge_ids=tuple(settled)
    )


@service.tool(intent="show the unit's ownership account", example=first_example(Unit, "unit_id"))
def unit_ledger(ctx: Ctx, unit_id: UnitId) -> Ledger:
    """A unit's open charges, balance due and the part of it past due.

    Args:
        unit_id: The unit.
    """
    unit = ctx.get(Unit, unit_id, field="unit_id")
    open_ = ctx.where(Charge, unit_id=unit.id, status="open")
    past = sum(_owed(c) for c in open_ if c.due_date < ctx.today())
    return Ledger(
        unit_id=unit.id,
        owner_id=unit.owner_id,
        open_charges=len(open_),
        balance_due=sum(_owed(c) for c in open_),
        past_due=past,
    )


# -- violations -------------------------------------------------------------------------------


def _live(ctx: Ctx, violation_id: str, *allowed: str) -> Violation:
    v = ctx.get(Violation, violation_id, field="violation_id")
    if v.status not in allowed:
        raise RuleViolation(
            f"violation {v.id} is {v.status}",
            field="violation_id",
            hint=f"this step needs a violation that is {' or '.join(allowed)}",
        )
    return v


@service.tool(
    intent="send the violation notice to the owner",
    write=True,
    example=first_example(Violation, "violation_id", where={"status": "open"}),
)
def send_violation_notice(ctx: Ctx, violation_id: ViolationId) -> Violation:
    """Mail the owner a notice of the violation (a courtesy notice first, then further notices).

    Args:
        violation_id: The open or noticed violation.
    """
    v = _live(ctx, violation_id, "open", "notice_sent")
    _owner_of(ctx, ctx.get(Unit, v.unit_id), "violation_id")
    return ctx.update(v, status="notice_sent", notices_sent=v.notices_sent + 1)


def _example_hearing(ctx: Ctx) -> dict[str, Any] | None:
    v = ctx.first(Violation, status="notice_sent")
    day = ctx.today() + dt.timedelta(days=HEARING_NOTICE_DAYS + 4)
    return None if v is None else {"violation_id": v.id, "hearing_date": day.isoformat()}


@service.tool(intent="schedule the violation hearing", write=True, example=_example_hearing)
def schedule_hearing(ctx: Ctx, violation_id: ViolationId, hearing_date: Date) -> Violation:
    """Schedule a board hearing on a noticed violation, at least 10 days ahead.

    Args:
        violation_id: The violation, after a notice.
        hearing_date: The hearing day.
    """
    v = _live(ctx, violation_id, "notice_sent", "hearing_scheduled")
    earliest = ctx.today() + dt.timedelta(days=HEARING_NOTICE_DAYS)
    if hearing_date < earliest:
        raise RuleViolation(
            f"the owner must get {HEARING_NOTICE_DAYS} days' notice of a hearing",
            field="hearing_date",
            hint=f"pick {earliest} or later",
        )
    return ctx.update(v, status="hearing_scheduled", hearing_date=hearing_date)


def _heard(ctx: Ctx, v: Violation) -> bool:
    return v.status == "hearing_scheduled" and v.hearing_date is not None and v.hearing_date <= ctx.today()


def _example_fine(ctx: Ctx) -> dict[str, Any] | None:
    v = next((v for v in ctx.where(Violation, status="hearing_scheduled") if _heard(ctx, v)), None)
    return None if v is None else {"violation_id": v.id, "amount": 10_000}


@service.tool(intent="fine the owner for the violation", write=True, example=_example_fine)
def fine_violation(ctx: Ctx, violation_id: ViolationId, amount: Cents) -> Violation:
    """Fine the owner after the hearing was held, up to the association's fine schedule; the fine is charged.

    Args:
        violation_id: The violation whose hearing date has passed.
        amount: Fine in cents.
    """
    v = _live(ctx, violation_id, "hearing_scheduled")
    if not _heard(ctx, v):
        raise RuleViolation(
            f"the hearing is on {v.hearing_date}",
            field="violation_id",
            hint="fine only after the owner had the hearing",
        )
    unit = ctx.get(Unit, v.unit_id)
    assn = ctx.get(Association, unit.association_id)
    if not 0 < amount <= assn.max_fine:
        raise RuleViolation(
            f"the fine schedule allows up to {assn.max_fine} cents", field="amount", hint="fine within the schedule"
        )
    _owner_of(ctx, unit, "violation_id")
    fine = _bill(ctx, unit, "fine", f"Fine: {v.category} violation", amount, ctx.today() + dt.timedelta(days=30))
    return ctx.update(v, status="fined", fine_charge_id=fine.id)


# -- architectural review ---------------------------------------------------------------------


def _board(ctx: Ctx, association_id: str) -> list[Owner]:
    return [o for o in ctx.where(Owner, association_id=association_id) if o.board_role is not None]


def _example_vote(ctx: Ctx) -> dict[str, Any] | None:
    for r in ctx.where(Request, status="submitted"):
        unit = ctx.get(Unit, r.unit_id)
        voted = {v.owner_id for v in r.votes}
        for member in _board(ctx, unit.association_id):
            if member.id not in voted and member.id != r.owner_id:
                return {"request_id": r.id, "board_member_id": member.id, "decision": "approve"}
    return None


@service.tool(intent="record the board member's vote on the architectural request", write=True, example=_example_vote)
def vote_on_request(ctx: Ctx, request_id: RequestId, board_member_id: OwnerId, decision: Decision) -> Request:
    """Record a board member's vote; a majority of the board approves or denies the request.

    Args:
        request_id: The submitted request.
        board_member_id: The voting board member.
        decision: approve or deny.
    """
    req = ctx.get(Request, request_id, field="request_id")
    if req.status != "submitted":
        raise Conflict(f"request {req.id} is already {req.status}", field="request_id", hint="nothing to vote on")
    board = _board(ctx, ctx.get(Unit, req.unit_id).association_id)
    member = ctx.get(Owner, board_member_id, field="board_member_id")
    if member not in board:
        raise RuleViolation(f"{member.name} is not on this board", field="board_member_id", hint="board members vote")
    if member.id == req.owner_id:
        raise RuleViolation(
            "a board member does not vote on their own request",
            field="board_member_id",
            hint="the other board members decide it",
        )
    if any(v.owner_id == member.id for v in req.votes):
        raise Conflict(f"{member.name} already voted", field="board_member_id", hint="each member votes once")
    votes = (*req.votes, Vote(owner_id=member.id, decision=decision))
    eligible = len([m for m in board if m.id != req.owner_id])
    yes = sum(v.decision == "approve" for v in votes)
    status = "approved" if 2 * yes > eligible else "denied" if 2 * (len(votes) - yes) >= eligible else "submitted"
    return ctx.update(req, votes=votes, status=status)


# -- seed -------------------------------------------------------------------------------------

STREETS = ("Willow Creek Lane", "Maple Ridge Court")


@service.seeder
def seed(s: SeedContext) -> None:
    """Two associations of consumers' homes with a board, dues and payments, violations and requests."""
    pop = s.population
    people, managers, today = pop.consumers, pop.staff("Operations", "Finance", fallback=2), s.now.date()
    per = min(8, len(people) // 2)
    for a in range(2):
        home = people[a * per].address
        assn = s.create(
            Association,
            name=f"{STREETS[a].split()[0]} {('Commons', 'Estates')[a]} HOA",
            address=home,
            manager_email=managers[a % len(managers)].email,
            monthly_dues=(32_500, 47_500)[a],
            late_fee=2_500,
            max_fine=(25_000, 50_000)[a],
        )
        roles: tuple[BoardRole, ...] = ("president", "treasurer", "secretary")
        made: list[Unit] = []
        for k, p in enumerate(people[a * per : (a + 1) * per]):
            owner = s.create(
                Owner,
                association_id=assn.id,
                name=p.name,
                email=p.email,
                board_role=roles[k] if k < len(roles) else None,
            )
            addr = home.model_copy(update={"street": f"{100 + 2 * k} {STREETS[a]}"})
            made.append(
                s.create(
                    Unit, association_id=assn.id, unit_number=f"{a + 1}{k + 1:02d}", address=addr, owner_id=owner.id
                )
            )
        for back in (2, 1, 0):
            first = add_months(today.replace(day=1), -back)
            for k, unit in enumerate(made):
                c = _bill(s, unit, "dues", f"Dues {first:%Y-%m}", assn.monthly_dues, first)
                if back == 2 or (back == 1 and k % 3):
                    s.update(c, paid=c.amount, status="paid")
                    s.create(
                        Payment, unit_id=unit.id, owner_id=c.owner_id, amount=c.amount, method="ach", charge_ids=(c.id,)
                    )
        _seed_cases(s, made, today)


def _seed_cases(s: SeedContext, made: list[Unit], today: dt.date) -> None:
    """Violations at every stage and architectural requests with votes."""
    cases: tuple[tuple[ViolationCategory, ViolationStatus, int | None], ...] = (
        ("trash", "open", None),
        ("parking", "notice_sent", None),
        ("landscaping", "hearing_scheduled", -2),
        ("pets", "hearing_scheduled", 12),
        ("noise", "resolved", None),
    )
    for unit, (cat, status, hearing) in zip(made[3:], cases, strict=False):
        v = s.create(Violation, unit_id=unit.id, category=cat, description=f"Reported {cat} issue at the unit.")
        day = None if hearing is None else today + dt.timedelta(days=hearing)
        s.update(v, status=status, notices_sent=0 if status == "open" else 1, hearing_date=day)
    projects: tuple[tuple[Project, RequestStatus], ...] = (
        ("fence", "submitted"),
        ("solar_panels", "approved"),
        ("exterior_paint", "submitted"),
    )
    for unit, (project, state) in zip((made[4], made[5], made[0]), projects, strict=True):
        assert unit.owner_id is not None
        r = s.create(
            Request,
            unit_id=unit.id,
            owner_id=unit.owner_id,
            project=project,
            description=f"Install or change the {project.replace('_', ' ')} per the attached plans.",
        )
        if state == "approved":
            board = [o for o in s.records(Owner) if o.association_id == unit.association_id and o.board_role][:2]
            s.update(r, status=state, votes=tuple(Vote(owner_id=o.id, decision="approve") for o in board))
