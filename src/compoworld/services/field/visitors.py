"""Frontdesk Visitors: the company's office visitors, invites, sign-ins and -outs, NDAs, deliveries and blocklist.

Modeled on the Envoy API (``/v1/locations``, ``/v1/entries``, ``/v1/invites``,
``/v1/blocklist``, Envoy Deliveries, legal documents per visitor type): a host
invites a guest to a location (expected → arrived or cancelled); at the front
desk a visitor signs in (from an invite or walking in) and out later. Sign-in
is refused for someone on the location's blocklist, without the NDA for visitor
types that need one (visitor, contractor, interview), when the location is at
its capacity, or while the same person is still signed in; a host is always an
employee. Deliveries are logged for an employee (received → picked_up, or
returned to the carrier while not picked up).
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
from compoworld.engine.types import (
    CompanyName,
    DateTime,
    Email,
    IdOf,
    PersonName,
    PostalAddress,
    Text,
    Title,
    TrackingNumber,
)
from compoworld.services.kit.examples import first_example
from compoworld.services.kit.records import Value
from compoworld.services.kit.text import fold

__all__ = ["service"]

service = Service(
    "visitors",
    title="Frontdesk Visitors",
    category="visitor_management",
    modeled_on="Envoy API v1: locations, entries (sign in/out), invites, blocklist, legal documents (NDAs) "
    "per visitor type, Envoy Deliveries",
    description="The front desk of the company's offices: who is expected and invited by which host, who signed "
    "in and out, the NDAs they accepted, the blocklist security keeps, office capacity, and parcels waiting "
    "for employees.",
)

LocationId = Annotated[str, IdOf("visitors.location")]
InviteId = Annotated[str, IdOf("visitors.invite")]
EntryId = Annotated[str, IdOf("visitors.entry")]
BlockId = Annotated[str, IdOf("visitors.block")]
DeliveryId = Annotated[str, IdOf("visitors.delivery")]

VisitorType = Literal["visitor", "contractor", "interview", "vendor_delivery", "event_guest"]
InviteStatus = Literal["expected", "arrived", "cancelled"]
EntryStatus = Literal["signed_in", "signed_out"]
DeliveryStatus = Literal["received", "picked_up", "returned"]
Carrier = Literal["UPS", "FedEx", "DHL", "USPS", "Royal Mail", "courier"]

NDA_TYPES: frozenset[str] = frozenset({"visitor", "contractor", "interview"})
MAX_INVITE_DAYS = 180


class Location(Record):
    """An office with a front desk."""

    id: LocationId
    name: Title
    """The office's name."""
    address: PostalAddress
    """Where it is."""
    capacity: Annotated[int, Field(ge=1, le=100000)]
    """The most visitors on site at once."""
    front_desk_email: Email
    """The employee running the front desk."""


class Invite(Record):
    """A guest a host expects."""

    id: InviteId
    location_id: LocationId
    """The office."""
    invitee_name: PersonName
    """The guest."""
    invitee_email: Email
    """The guest's e-mail."""
    invitee_company: CompanyName | None = None
    """The guest's company."""
    host_email: Email
    """The employee hosting."""
    visitor_type: VisitorType = "visitor"
    """visitor, contractor, interview, vendor_delivery or event_guest."""
    expected_arrival_at: DateTime
    """When the guest is expected."""
    nda_signed: bool = False
    """Whether the guest signed the NDA in advance."""
    status: InviteStatus = "expected"
    """expected → arrived or cancelled."""
    created_at: Annotated[DateTime, CREATED]
    """When the invite was sent."""


class Entry(Record):
    """A visitor's sign-in at a location."""

    id: EntryId
    location_id: LocationId
    """The office."""
    visitor_name: PersonName
    """The visitor."""
    visitor_email: Email
    """The visitor's e-mail."""
    company: CompanyName | None = None
    """The visitor's company."""
    host_email: Email
    """The employee visited."""
    visitor_type: VisitorType = "visitor"
    """visitor, contractor, interview, vendor_delivery or event_guest."""
    invite_id: InviteId | None = None
    """The invite it came from."""
    nda_signed: bool = False
    """Whether the visitor accepted the NDA."""
    status: EntryStatus = "signed_in"
    """signed_in → signed_out."""
    signed_in_at: DateTime
    """When they signed in."""
    signed_out_at: DateTime | None = None
    """When they signed out."""


class Block(Record):
    """A person security does not let in."""

    id: BlockId
    full_name: PersonName
    """The person's name."""
    email: Email | None = None
    """The person's e-mail."""
    reason: Text
    """Why they are blocked."""
    added_by: Email
    """The employee who blocked them."""
    active: bool = True
    """Whether the block applies."""
    created_at: Annotated[DateTime, CREATED]
    """When they were added."""


class Delivery(Record):
    """A parcel received at the front desk for an employee."""

    id: DeliveryId
    location_id: LocationId
    """The office."""
    recipient_email: Email
    """The employee it is for."""
    carrier: Carrier
    """Who brought it."""
    tracking_number: TrackingNumber | None = None
    """The carrier's tracking number."""
    status: DeliveryStatus = "received"
    """received → picked_up, or returned to the carrier."""
    received_at: Annotated[DateTime, CREATED]
    """When it arrived."""
    picked_up_at: DateTime | None = None
    """When the employee collected it."""


class Occupancy(Value):
    """Who is on site at a location now."""

    location_id: LocationId
    """The office."""
    signed_in: int
    """Visitors signed in."""
    capacity: int
    """The location's capacity."""
    expected_today: int
    """Invites still expected today."""
    parcels_waiting: int
    """Deliveries not picked up."""


# -- rules ------------------------------------------------------------------------------------


def _staff(ctx: Ctx, email: str, field: str) -> None:
    if email not in {p.email for p in ctx.population.employees}:
        raise RuleViolation(f"{email} is not an employee", field=field, hint="hosts and recipients are employees")


def _blocked(ctx: Ctx, name: str, email: str, field: str) -> None:
    for b in ctx.where(Block, active=True):
        if (b.email is not None and b.email.lower() == email.lower()) or fold(b.full_name) == fold(name):
            raise RuleViolation(
                f"{name} is on the blocklist",
                field=field,
                hint="do not let them in; tell security and the host",
            )


def _guard_invite(ctx: Ctx, new: Any, old: Any) -> None:
    if old is not None and old.status != "expected":
        raise RuleViolation(f"the invite is {old.status}", field="invite_id", hint="only expected invites change")
    ctx.get(Location, new.location_id, field="location_id")
    _staff(ctx, new.host_email, "host_email")
    now = ctx.now()
    if not now < new.expected_arrival_at <= now + dt.timedelta(days=MAX_INVITE_DAYS):
        raise RuleViolation(
            f"expected_arrival_at must be within the next {MAX_INVITE_DAYS} days",
            field="expected_arrival_at",
            hint="pick a future time",
        )
    _blocked(ctx, new.invitee_name, new.invitee_email, "invitee_email")
    for other in ctx.where(Invite, invitee_email=new.invitee_email, status="expected"):
        if other.id != new.id and other.expected_arrival_at.date() == new.expected_arrival_at.date():
            raise Conflict(
                f"{new.invitee_email} is already invited that day ({other.id})",
                field="invitee_email",
                hint="update that invite instead",
            )


def _guard_block(ctx: Ctx, new: Any, old: Any) -> None:
    if old is None:
        _staff(ctx, new.added_by, "added_by")
        if not new.reason.strip():
            raise RuleViolation("a block needs a reason", field="reason", hint="say why, for the front desk")
        for b in ctx.where(Block, active=True):
            if b.id != new.id and new.email is not None and b.email == new.email:
                raise Conflict(f"{new.email} is already blocked ({b.id})", field="email", hint="nothing to do")


def _guard_delivery(ctx: Ctx, new: Any, old: Any) -> None:
    if old is None:
        ctx.get(Location, new.location_id, field="location_id")
        _staff(ctx, new.recipient_email, "recipient_email")
    elif new.status == "picked_up" and old.status != "picked_up":
        ctx.update(new, picked_up_at=ctx.now())


locations = service.resource(
    Location,
    name="location",
    plural="locations",
    prefix="loc",
    create=False,
    search=("name",),
    update=("capacity", "front_desk_email"),
    delete=False,
)
invites = service.resource(
    Invite,
    name="invite",
    plural="invites",
    prefix="inv",
    create=(
        "location_id",
        "invitee_name",
        "invitee_email",
        "invitee_company",
        "host_email",
        "visitor_type",
        "expected_arrival_at",
        "nda_signed",
    ),
    filters=("location_id", "host_email", "invitee_email", "status", "visitor_type"),
    search=("invitee_name", "invitee_company"),
    update=("expected_arrival_at", "host_email", "visitor_type", "nda_signed"),
    delete=False,
    transitions={"cancel": Transition("status", ("expected",), "cancelled", "cancel the invite")},
    guard_create=_guard_invite,
    guard_update=_guard_invite,
)
entries = service.resource(
    Entry,
    name="entry",
    plural="entries",
    prefix="ent",
    create=False,
    filters=("location_id", "host_email", "visitor_email", "status", "visitor_type", "invite_id"),
    search=("visitor_name", "company"),
    delete=False,
    title="visitor entry",
)
blocks = service.resource(
    Block,
    name="block",
    plural="blocklist",
    prefix="blk",
    create=("full_name", "email", "reason", "added_by"),
    get=False,
    filters=("active", "email"),
    search=("full_name",),
    delete=False,
    transitions={"lift": Transition("active", (True,), False, "lift the block")},
    guard_create=_guard_block,
    title="blocklist entry",
)
deliveries = service.resource(
    Delivery,
    name="delivery",
    plural="deliveries",
    prefix="dlv",
    create=("location_id", "recipient_email", "carrier", "tracking_number"),
    filters=("location_id", "recipient_email", "status", "carrier", "tracking_number"),
    delete=False,
    transitions={
        "pick_up": Transition("status", ("received",), "picked_up", "record that the parcel was picked up"),
        "return": Transition("status", ("received",), "returned", "return the parcel to the carrier", destructive=True),
    },
    guard_create=_guard_delivery,
    guard_update=_guard_delivery,
)


# -- domain tools -----------------------------------------------------------------------------


def _on_site(ctx: Ctx, location_id: str) -> int:
    return len(ctx.where(Entry, location_id=location_id, status="signed_in"))


def _admit(ctx: Ctx, location: Location, name: str, email: str, host: str, kind: str, nda: bool, field: str) -> None:
    _staff(ctx, host, "host_email")
    _blocked(ctx, name, email, field)
    if kind in NDA_TYPES and not nda:
        raise RuleViolation(
            f"a {kind} must accept the NDA to sign in", field="nda_accepted", hint="have them read and accept it"
        )
    for e in ctx.where(Entry, visitor_email=email, status="signed_in"):
        raise Conflict(f"{name} is still signed in ({e.id})", field=field, hint="sign them out first")
    if _on_site(ctx, location.id) >= location.capacity:
        raise RuleViolation(
            f"{location.name} is at its capacity of {location.capacity}",
            field="location_id",
            hint="wait until someone signs out",
        )


def _example_walk_in(ctx: Ctx) -> dict[str, Any] | None:
    loc = ctx.first(Location)
    p = ctx.population.contacts[-1]
    return (
        None
        if loc is None
        else {
            "location_id": loc.id,
            "visitor_name": p.name,
            "visitor_email": p.email,
            "host_email": ctx.population.employees[-1].email,
            "nda_accepted": True,
        }
    )


@service.tool(intent="sign the visitor in", write=True, example=_example_walk_in)
def sign_in(
    ctx: Ctx,
    location_id: LocationId,
    visitor_name: PersonName,
    visitor_email: Email,
    host_email: Email,
    visitor_type: VisitorType = "visitor",
    company: CompanyName | None = None,
    nda_accepted: bool = False,
) -> Entry:
    """Sign in a walk-in visitor at the front desk.

    Args:
        location_id: The office.
        visitor_name: The visitor's full name.
        visitor_email: The visitor's e-mail.
        host_email: The employee they visit.
        visitor_type: visitor, contractor, interview, vendor_delivery or event_guest.
        company: The visitor's company.
        nda_accepted: Whether they accepted the NDA (required for visitors, contractors and interviews).
    """
    loc = ctx.get(Location, location_id, field="location_id")
    _admit(ctx, loc, visitor_name, visitor_email, host_email, visitor_type, nda_accepted, "visitor_email")
    return ctx.create(
        Entry,
        location_id=loc.id,
        visitor_name=visitor_name,
        visitor_email=visitor_email,
        company=company,
        host_email=host_email,
        visitor_type=visitor_type,
        nda_signed=nda_accepted,
        signed_in_at=ctx.now(),
    )


@service.tool(
    intent="check in the invited guest",
    write=True,
    example=first_example(Invite, "invite_id", where={"status": "expected"}, nda_accepted=True),
)
def check_in_invite(ctx: Ctx, invite_id: InviteId, nda_accepted: bool = False) -> Entry:
    """Sign in an expected guest from their invite (an NDA signed in advance counts).

    Args:
        invite_id: The invite.
        nda_accepted: Whether they accepted the NDA at the desk.
    """
    inv = ctx.get(Invite, invite_id, field="invite_id")
    if inv.status != "expected":
        raise RuleViolation(f"the invite is {inv.status}", field="invite_id", hint="sign them in as a walk-in")
    loc = ctx.get(Location, inv.location_id)
    nda = inv.nda_signed or nda_accepted
    _admit(ctx, loc, inv.invitee_name, inv.invitee_email, inv.host_email, inv.visitor_type, nda, "invite_id")
    ctx.update(inv, status="arrived", nda_signed=nda)
    return ctx.create(
        Entry,
        location_id=loc.id,
        visitor_name=inv.invitee_name,
        visitor_email=inv.invitee_email,
        company=inv.invitee_company,
        host_email=inv.host_email,
        visitor_type=inv.visitor_type,
        invite_id=inv.id,
        nda_signed=nda,
        signed_in_at=ctx.now(),
    )


@service.tool(
    intent="sign the visitor out",
    write=True,
    example=first_example(Entry, "entry_id", where={"status": "signed_in"}),
)
def sign_out(ctx: Ctx, entry_id: EntryId) -> Entry:
    """Sign a visitor out.

    Args:
        entry_id: The visitor's entry.
    """
    entry = ctx.get(Entry, entry_id, field="entry_id")
    if entry.status != "signed_in":
        raise RuleViolation("the visitor already signed out", field="entry_id", hint="nothing to do")
    return ctx.update(entry, status="signed_out", signed_out_at=ctx.now())


@service.tool(intent="show who is on site at the location", example=first_example(Location, "location_id"))
def location_occupancy(ctx: Ctx, location_id: LocationId) -> Occupancy:
    """Visitors signed in at a location against its capacity, guests still expected today, parcels waiting.

    Args:
        location_id: The office.
    """
    loc = ctx.get(Location, location_id, field="location_id")
    today = ctx.today()
    return Occupancy(
        location_id=loc.id,
        signed_in=_on_site(ctx, loc.id),
        capacity=loc.capacity,
        expected_today=sum(
            i.expected_arrival_at.date() == today for i in ctx.where(Invite, location_id=loc.id, status="expected")
        ),
        parcels_waiting=len(ctx.where(Delivery, location_id=loc.id, status="received")),
    )


# -- seed -------------------------------------------------------------------------------------


@service.seeder
def seed(s: SeedContext) -> None:
    """Two offices; invites, sign-ins and deliveries of the world's contacts and consumers; a blocklist."""
    pop = s.population
    home = pop.home
    staff = pop.employees
    desk = pop.staff("Operations", "Facilities", "People", fallback=2)
    offices = [
        s.create(Location, name=f"{home.name} HQ", address=home.address, capacity=40, front_desk_email=desk[0].email),
        s.create(
            Location,
            name=f"{home.name} Studio",
            address=home.address.model_copy(update={"street": "2 Canal Wharf"}),
            capacity=3,
            front_desk_email=desk[-1].email,
        ),
    ]
    guests = list(pop.contacts[:10])
    today = s.now.date()
    for k, p in enumerate(guests):
        company = pop.company_of(p)
        loc = offices[k % 2 if k < 6 else 0]
        host = staff[(3 * k + 1) % len(staff)].email
        kind: VisitorType = ("visitor", "contractor", "vendor_delivery", "visitor", "event_guest")[k % 5]
        if k < 4:  # expected later today or in the coming days
            s.create(
                Invite,
                location_id=loc.id,
                invitee_name=p.name,
                invitee_email=p.email,
                invitee_company=company.name if company else None,
                host_email=host,
                visitor_type=kind,
                expected_arrival_at=dt.datetime.combine(today, dt.time(14 + k), tzinfo=dt.UTC)
                + dt.timedelta(days=k // 2),
                nda_signed=k % 2 == 0,
                created_at=s.ago(days=3),
            )
            continue
        inside = k in (4, 5, 7)
        inv = s.create(
            Invite,
            location_id=loc.id,
            invitee_name=p.name,
            invitee_email=p.email,
            invitee_company=company.name if company else None,
            host_email=host,
            visitor_type=kind,
            expected_arrival_at=s.ago(hours=2 + k),
            nda_signed=True,
            status="arrived",
            created_at=s.ago(days=5),
        )
        s.create(
            Entry,
            location_id=loc.id,
            visitor_name=p.name,
            visitor_email=p.email,
            company=inv.invitee_company,
            host_email=host,
            visitor_type=kind,
            invite_id=inv.id,
            nda_signed=True,
            status="signed_in" if inside else "signed_out",
            signed_in_at=s.ago(hours=2 + k),
            signed_out_at=None if inside else s.ago(hours=1),
        )
    for k, p in enumerate(pop.consumers[:2]):  # interview candidates who walked in last week
        s.create(
            Entry,
            location_id=offices[0].id,
            visitor_name=p.name,
            visitor_email=p.email,
            host_email=staff[k].email,
            visitor_type="interview",
            nda_signed=True,
            status="signed_out",
            signed_in_at=s.ago(days=6 - k, hours=3),
            signed_out_at=s.ago(days=6 - k, hours=2),
        )
    banned = pop.consumers[-1]
    s.create(
        Block,
        full_name=banned.name,
        email=banned.email,
        reason="Harassed reception staff on a previous visit.",
        added_by=desk[0].email,
        created_at=s.ago(days=40),
    )
    s.create(
        Block,
        full_name="Victor Crane",
        reason="Former contractor; site access revoked.",
        added_by=desk[0].email,
        active=False,
        created_at=s.ago(days=200),
    )
    carriers: tuple[Carrier, ...] = ("UPS", "FedEx", "DHL", "Royal Mail")
    for k in range(6):
        s.create(
            Delivery,
            location_id=offices[k % 2].id,
            recipient_email=staff[(5 * k + 2) % len(staff)].email,
            carrier=carriers[k % len(carriers)],
            tracking_number=f"1Z{s.rng.randint(10**13, 10**14 - 1)}",
            status="received" if k < 4 else "picked_up",
            received_at=s.ago(days=k, hours=3),
            picked_up_at=None if k < 4 else s.ago(days=k - 1),
        )
