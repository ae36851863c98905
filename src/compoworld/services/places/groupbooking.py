"""Blockstay: hotel group bookings: RFPs to hotels, proposals, contracts with room blocks, rooming lists, attrition.

Modeled on the Groups360 GroupSync and Cvent Supplier Network (RFP and
proposal) APIs: a planner's RFP (event, dates, rooms per night, budget rate)
goes draft → sent → awarded, or cancelled; hotels answer a sent RFP with one
proposal each (rooms offered, group rate, cutoff days, attrition allowance),
submitted → accepted or declined; awarding a proposal accepts it, declines the
others and creates a contract for the block (pending_signature → signed →
closed); names join the rooming list of a signed contract only before the
cutoff date and never beyond the block; at closing, the shortfall between the
block (less the attrition allowance) and the rooms picked up is charged at the
group rate for every night.
"""

from __future__ import annotations

import datetime as dt
from typing import Annotated, Any, Literal

from pydantic import Field

from compoworld.engine.context import Ctx
from compoworld.engine.errors import Conflict, RuleViolation
from compoworld.engine.service import Service, Transition
from compoworld.engine.state import SeedContext
from compoworld.engine.types import Cents, City, Date, Email, IdOf, PersonName, Title
from compoworld.services.kit.examples import first_example
from compoworld.services.kit.records import Timestamped, Value

__all__ = ["service"]

service = Service(
    "groupbooking",
    title="Blockstay",
    category="group_travel",
    modeled_on="Groups360 GroupSync / Cvent Supplier Network APIs: RFPs, hotel proposals, group contracts with "
    "room blocks, rooming lists, pickup and attrition",
    description="Hotel room blocks for the company's events and team travel: RFPs sent to hotels, their "
    "proposals, the awarded contract with its block, cutoff and attrition, the rooming list and the pickup.",
)

RfpId = Annotated[str, IdOf("groupbooking.rfp")]
ProposalId = Annotated[str, IdOf("groupbooking.proposal")]
ContractId = Annotated[str, IdOf("groupbooking.contract")]
EntryId = Annotated[str, IdOf("groupbooking.rooming_entry")]
Rooms = Annotated[int, Field(ge=1, le=500)]
"""Rooms per night."""


class Rfp(Timestamped):
    """A planner's request for proposals for a room block."""

    id: RfpId
    event_name: Title
    """The event."""
    city: City
    """Where."""
    arrival: Date
    """The first night."""
    departure: Date
    """The day the group leaves."""
    rooms_per_night: Rooms
    """Rooms needed each night."""
    budget_rate: Cents
    """The most the planner wants to pay per room and night, in cents."""
    planner_email: Email
    """The employee planning it."""
    status: Literal["draft", "sent", "awarded", "cancelled"] = "draft"
    """draft, sent (to hotels), awarded or cancelled."""


class Proposal(Timestamped):
    """A hotel's answer to an RFP."""

    id: ProposalId
    rfp_id: RfpId
    """The RFP."""
    hotel_name: Title
    """The hotel."""
    rooms_offered: Rooms
    """Rooms per night it offers."""
    group_rate: Cents
    """Its rate per room and night, in cents."""
    cutoff_days: Annotated[int, Field(ge=0, le=90)] = 21
    """Days before arrival the rooming list closes."""
    attrition_pct: Annotated[int, Field(ge=0, le=50)] = 20
    """How much of the block may go unused without charge, percent."""
    status: Literal["submitted", "accepted", "declined"] = "submitted"
    """submitted, accepted or declined."""


class Contract(Timestamped):
    """The signed room block with a hotel."""

    id: ContractId
    rfp_id: RfpId
    """The RFP."""
    proposal_id: ProposalId
    """The accepted proposal."""
    hotel_name: Title
    """The hotel."""
    block_rooms: Rooms
    """Rooms per night in the block."""
    group_rate: Cents
    """Rate per room and night, in cents."""
    arrival: Date
    """The first night."""
    departure: Date
    """The departure day."""
    cutoff_date: Date
    """The last day names may be added."""
    attrition_pct: int
    """Allowed unused share of the block, percent."""
    status: Literal["pending_signature", "signed", "closed"] = "pending_signature"
    """pending_signature, signed or closed."""
    attrition_charge: Cents = 0
    """What the shortfall cost at closing, in cents."""


class RoomingEntry(Timestamped):
    """A guest on a contract's rooming list (one room for the whole stay)."""

    id: EntryId
    contract_id: ContractId
    """The contract."""
    guest_name: PersonName
    """The guest."""
    guest_email: Email
    """The guest's e-mail."""


class Pickup(Value):
    """A contract's block against its rooming list."""

    contract_id: ContractId
    """The contract."""
    block_rooms: int
    """Rooms per night in the block."""
    picked_up: int
    """Rooms on the rooming list."""
    pickup_pct: float
    """Picked up share of the block, percent."""
    allowed_unused: int
    """Rooms that may go unused without charge."""
    projected_charge: int
    """The attrition charge if closed now, in cents."""


# -- rules ------------------------------------------------------------------------------------


def _guard_rfp(ctx: Ctx, new: Any, old: Any) -> None:
    if new.planner_email not in {p.email for p in ctx.population.employees}:
        raise RuleViolation(f"{new.planner_email} is not an employee", field="planner_email", hint="use a colleague")
    if new.arrival <= ctx.today():
        raise RuleViolation("arrival must be after today", field="arrival", hint="pick a future date")
    if not 1 <= (new.departure - new.arrival).days <= 14:
        raise RuleViolation("a group stay is 1 to 14 nights", field="departure", hint="fix the departure day")
    if old is not None and old.status != "draft" and new.status == old.status:
        raise Conflict(f"the RFP is {old.status}", field="rfp_id", hint="only drafts are edited")


def _nights(c: Contract) -> int:
    return (c.departure - c.arrival).days


def _charge(ctx: Ctx, c: Contract) -> tuple[int, int, int]:
    picked = len(ctx.where(RoomingEntry, contract_id=c.id))
    allowed = c.block_rooms * c.attrition_pct // 100
    short = max(c.block_rooms - allowed - picked, 0)
    return picked, allowed, short * c.group_rate * _nights(c)


rfps = service.resource(
    Rfp,
    name="rfp",
    plural="rfps",
    prefix="rfp",
    create=("event_name", "city", "arrival", "departure", "rooms_per_night", "budget_rate", "planner_email"),
    filters=("status", "city", "planner_email"),
    search=("event_name",),
    update=("event_name", "arrival", "departure", "rooms_per_night", "budget_rate"),
    delete=False,
    transitions={
        "send": Transition("status", ("draft",), "sent", "send the RFP to hotels"),
        "cancel": Transition("status", ("draft", "sent"), "cancelled", "cancel the RFP", destructive=True),
    },
    guard_create=_guard_rfp,
    guard_update=_guard_rfp,
    title="RFP",
)
proposals = service.resource(
    Proposal,
    name="proposal",
    plural="proposals",
    prefix="prp",
    create=False,
    filters=("rfp_id", "status"),
    search=("hotel_name",),
    delete=False,
    transitions={"decline": Transition("status", ("submitted",), "declined", "decline the hotel's proposal")},
)
contracts = service.resource(
    Contract,
    name="contract",
    plural="contracts",
    prefix="ctr",
    create=False,
    filters=("rfp_id", "status"),
    search=("hotel_name",),
    delete=False,
    transitions={"sign": Transition("status", ("pending_signature",), "signed", "sign the group contract")},
    title="group contract",
)
rooming = service.resource(
    RoomingEntry,
    name="rooming_entry",
    plural="rooming_entries",
    prefix="rme",
    create=False,
    filters=("contract_id", "guest_email"),
    search=("guest_name",),
    delete=False,
    title="rooming list entry",
)


# -- domain tools -----------------------------------------------------------------------------


def _example_propose(ctx: Ctx) -> dict[str, Any] | None:
    r = ctx.first(Rfp, status="sent")
    return (
        None
        if r is None
        else {
            "rfp_id": r.id,
            "hotel_name": "Harbor View Hotel",
            "rooms_offered": r.rooms_per_night,
            "group_rate": 15000,
        }
    )


@service.tool(intent="submit the hotel's proposal", write=True, example=_example_propose)
def submit_proposal(
    ctx: Ctx,
    rfp_id: RfpId,
    hotel_name: Title,
    rooms_offered: Rooms,
    group_rate: Cents,
    cutoff_days: Annotated[int, Field(ge=0, le=90)] = 21,
    attrition_pct: Annotated[int, Field(ge=0, le=50)] = 20,
) -> Proposal:
    """Record a hotel's proposal for a sent RFP; one per hotel.

    Args:
        rfp_id: The sent RFP.
        hotel_name: The hotel.
        rooms_offered: Rooms per night offered (at most what the RFP asks).
        group_rate: Rate per room and night, in cents (above zero).
        cutoff_days: Days before arrival the rooming list closes.
        attrition_pct: Allowed unused share of the block, percent.
    """
    rfp = ctx.get(Rfp, rfp_id, field="rfp_id")
    if rfp.status != "sent":
        raise Conflict(f"the RFP is {rfp.status}", field="rfp_id", hint="hotels answer sent RFPs")
    if ctx.first(Proposal, rfp_id=rfp.id, hotel_name=hotel_name) is not None:
        raise Conflict(f"{hotel_name} already proposed", field="hotel_name", hint="one proposal per hotel")
    if rooms_offered > rfp.rooms_per_night:
        raise RuleViolation("more rooms than requested", field="rooms_offered", hint=f"at most {rfp.rooms_per_night}")
    if group_rate <= 0:
        raise RuleViolation("a rate must be above zero", field="group_rate", hint="give the nightly rate")
    return ctx.create(
        Proposal,
        rfp_id=rfp.id,
        hotel_name=hotel_name,
        rooms_offered=rooms_offered,
        group_rate=group_rate,
        cutoff_days=cutoff_days,
        attrition_pct=attrition_pct,
    )


@service.tool(
    intent="award the proposal",
    write=True,
    example=first_example(Proposal, "proposal_id", where={"status": "submitted"}),
)
def award_proposal(ctx: Ctx, proposal_id: ProposalId) -> Contract:
    """Accept a proposal: the others are declined, the RFP is awarded and a contract awaits signature.

    Args:
        proposal_id: The submitted proposal.
    """
    prop = ctx.get(Proposal, proposal_id, field="proposal_id")
    if prop.status != "submitted":
        raise Conflict(f"the proposal is {prop.status}", field="proposal_id", hint="award a submitted one")
    rfp = ctx.get(Rfp, prop.rfp_id)
    if rfp.status != "sent":
        raise Conflict(f"the RFP is {rfp.status}", field="proposal_id", hint="only sent RFPs are awarded")
    for other in ctx.where(Proposal, rfp_id=rfp.id, status="submitted"):
        if other.id != prop.id:
            ctx.update(other, status="declined")
    ctx.update(prop, status="accepted")
    ctx.update(rfp, status="awarded")
    return ctx.create(
        Contract,
        rfp_id=rfp.id,
        proposal_id=prop.id,
        hotel_name=prop.hotel_name,
        block_rooms=prop.rooms_offered,
        group_rate=prop.group_rate,
        arrival=rfp.arrival,
        departure=rfp.departure,
        cutoff_date=max(rfp.arrival - dt.timedelta(days=prop.cutoff_days), ctx.today()),
        attrition_pct=prop.attrition_pct,
    )


def _example_add(ctx: Ctx) -> dict[str, Any] | None:
    for c in ctx.where(Contract, status="signed"):
        if c.cutoff_date >= ctx.today() and _charge(ctx, c)[0] < c.block_rooms:
            p = ctx.population.employees[-1]
            return {"contract_id": c.id, "guest_name": f"{p.first_name} {p.last_name}", "guest_email": p.email}
    return None


@service.tool(intent="add the guest to the rooming list", write=True, example=_example_add)
def add_to_rooming_list(ctx: Ctx, contract_id: ContractId, guest_name: PersonName, guest_email: Email) -> RoomingEntry:
    """Put a guest on a signed contract's rooming list, before its cutoff and within the block.

    Args:
        contract_id: The signed contract.
        guest_name: The guest.
        guest_email: The guest's e-mail (once per list).
    """
    c = ctx.get(Contract, contract_id, field="contract_id")
    if c.status != "signed":
        raise Conflict(f"the contract is {c.status}", field="contract_id", hint="sign it first")
    if ctx.today() > c.cutoff_date:
        raise RuleViolation(f"the cutoff was {c.cutoff_date}", field="contract_id", hint="book outside the block")
    if ctx.first(RoomingEntry, contract_id=c.id, guest_email=guest_email) is not None:
        raise Conflict(f"{guest_email} is on the list", field="guest_email", hint="nothing to add")
    if _charge(ctx, c)[0] >= c.block_rooms:
        raise Conflict("the block is full", field="contract_id", hint="ask the hotel for more rooms")
    return ctx.create(RoomingEntry, contract_id=c.id, guest_name=guest_name, guest_email=guest_email)


@service.tool(
    intent="remove the guest from the rooming list",
    write=True,
    example=first_example(RoomingEntry, "rooming_entry_id"),
)
def remove_from_rooming_list(ctx: Ctx, rooming_entry_id: EntryId) -> RoomingEntry:
    """Take a guest off a rooming list before the cutoff (the room goes back to the block).

    Args:
        rooming_entry_id: The entry.
    """
    e = ctx.get(RoomingEntry, rooming_entry_id, field="rooming_entry_id")
    c = ctx.get(Contract, e.contract_id)
    if c.status != "signed" or ctx.today() > c.cutoff_date:
        raise RuleViolation("the rooming list is closed", field="rooming_entry_id", hint="ask the hotel directly")
    ctx.delete(e)
    return e


@service.tool(intent="show the block's pickup", example=first_example(Contract, "contract_id"))
def pickup_report(ctx: Ctx, contract_id: ContractId) -> Pickup:
    """A contract's block, rooms picked up and the attrition charge if closed now.

    Args:
        contract_id: The contract.
    """
    c = ctx.get(Contract, contract_id, field="contract_id")
    picked, allowed, charge = _charge(ctx, c)
    return Pickup(
        contract_id=c.id,
        block_rooms=c.block_rooms,
        picked_up=picked,
        pickup_pct=round(100 * picked / c.block_rooms, 1),
        allowed_unused=allowed,
        projected_charge=charge,
    )


@service.tool(
    intent="close the group contract",
    write=True,
    example=first_example(Contract, "contract_id", where={"status": "signed"}),
)
def close_contract(ctx: Ctx, contract_id: ContractId) -> Contract:
    """Close a signed contract (normally after the stay) and bill the attrition shortfall.

    Args:
        contract_id: The signed contract.
    """
    c = ctx.get(Contract, contract_id, field="contract_id")
    if c.status != "signed":
        raise Conflict(f"the contract is {c.status}", field="contract_id", hint="only signed contracts close")
    return ctx.update(c, status="closed", attrition_charge=_charge(ctx, c)[2])


# -- seed -------------------------------------------------------------------------------------

_HOTELS = ("Grand Central Hotel", "Riverside Suites", "Parkview Inn")


@service.seeder
def seed(s: SeedContext) -> None:
    """RFPs in every state for company events in the population's cities, proposals, contracts, rooming lists."""
    pop = s.population
    planners = pop.staff("Marketing", "Sales", "Operations", fallback=3)
    today = s.now.date()
    events = (
        ("Sales kickoff", "awarded", 60, 12),
        ("Engineering offsite", "awarded", 20, 8),
        ("Partner summit", "sent", 90, 20),
        ("Board retreat", "draft", 120, 6),
        ("Trade show team", "cancelled", 45, 10),
    )
    staff = pop.employees
    g = 0
    for k, (name, status, lead, rooms) in enumerate(events):
        place = pop.places[k % len(pop.places)] if pop.places else pop.home.place
        arrival = today + dt.timedelta(days=lead)
        rfp = s.create(
            Rfp,
            event_name=name,
            city=place.city,
            arrival=arrival,
            departure=arrival + dt.timedelta(days=3),
            rooms_per_night=rooms,
            budget_rate=18000,
            planner_email=planners[k % len(planners)].email,
            status=status,
        )
        if status in ("draft", "cancelled"):
            continue
        props = [
            s.create(
                Proposal,
                rfp_id=rfp.id,
                hotel_name=hotel,
                rooms_offered=rooms - h,
                group_rate=15000 + 1500 * h,
                cutoff_days=14 + 7 * h,
                attrition_pct=20 - 5 * h,
                status="submitted",
            )
            for h, hotel in enumerate(_HOTELS)
        ]
        if status != "awarded":
            continue
        win = props[0]
        for p in props:
            s.update(p, status="accepted" if p is win else "declined")
        c = s.create(
            Contract,
            rfp_id=rfp.id,
            proposal_id=win.id,
            hotel_name=win.hotel_name,
            block_rooms=win.rooms_offered,
            group_rate=win.group_rate,
            arrival=arrival,
            departure=arrival + dt.timedelta(days=3),
            cutoff_date=arrival - dt.timedelta(days=win.cutoff_days),
            attrition_pct=win.attrition_pct,
            status="signed" if k == 0 else "pending_signature",
        )
        for _ in range(win.rooms_offered // 2 if k == 0 else 0):
            guest = staff[g % len(staff)]
            g += 1
            s.create(
                RoomingEntry,
                contract_id=c.id,
                guest_name=f"{guest.first_name} {guest.last_name}",
                guest_email=guest.email,
            )
