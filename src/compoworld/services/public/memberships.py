"""Guild Membership: an association's members, levels, renewals, bundles, invoices and event registrations.

Modeled on the Wild Apricot Admin API v2.2 (``/contacts`` with
``MembershipLevel``, ``Status`` Active, Lapsed, PendingNew, PendingRenewal,
Suspended and ``MemberSince``/``RenewalDue``; ``/membershiplevels`` with
``Type`` Individual or Bundle, ``MembershipFee``, ``RenewalPeriod`` and
``BundleMembersLimit``; ``/bundles`` with their administrator and members;
``/invoices`` with ``OrderType`` MembershipApplication, MembershipRenewal,
EventRegistration, ``Value``, ``PaidAmount`` and ``IsPaid``; ``/payments``;
``/events`` with ``RegistrationsLimit`` and member or public access;
``/eventregistrations`` with waitlist and check-in).

An application creates an invoice and leaves the contact PendingNew until it
is paid in full; payment makes them Active with a renewal date one period
ahead (lifetime levels never renew). Renewal opens 30 days before the
renewal date (or any time once lapsed), once, and paying it moves the renewal
date a period on from the old one. A membership past its renewal date lapses,
with its bundle's members. A bundle holds at most its level's member limit,
and its administrator cannot be removed. Payments never exceed what an
invoice still owes; only an unpaid invoice without payments is voided.
Members-only events refuse non-members; a full event puts registrants on its
waitlist and a cancellation promotes the first one; a registrant pays the
member or guest price; check-in happens from the event's start.
"""

from __future__ import annotations

import datetime as dt
from typing import Annotated, Any, Literal

from pydantic import Field, StringConstraints

from compoworld.engine.context import Ctx
from compoworld.engine.errors import Conflict, RuleViolation
from compoworld.engine.service import Service
from compoworld.engine.state import SeedContext
from compoworld.engine.types import (
    Cents,
    CompanyName,
    Date,
    DateTime,
    Email,
    FirstName,
    IdOf,
    LastName,
    Phone,
    Text,
    Title,
)
from compoworld.services.kit.examples import first_example
from compoworld.services.kit.records import Created, Timestamped
from compoworld.services.kit.time import add_months, utc_at

__all__ = ["service"]

service = Service(
    "memberships",
    title="Guild Membership",
    category="membership_management",
    modeled_on="Wild Apricot Admin API v2.2 (contacts with membership level and status Active/Lapsed/"
    "PendingNew/PendingRenewal/Suspended, membership levels individual or bundle with renewal period, bundles, "
    "invoices and payments, events and event registrations with waitlist and check-in)",
    description="The association's membership database: contacts and members with their level, status and "
    "renewal date, individual and bundle (organisational) levels, applications and renewals invoiced and paid, "
    "lapses and suspensions, and events with member and guest pricing, registrations, waitlists and check-in.",
)

LevelId = Annotated[str, IdOf("memberships.level")]
ContactId = Annotated[str, IdOf("memberships.contact")]
BundleId = Annotated[str, IdOf("memberships.bundle")]
InvoiceId = Annotated[str, IdOf("memberships.invoice")]
EventId = Annotated[str, IdOf("memberships.event")]
RegistrationId = Annotated[str, IdOf("memberships.registration")]

MemberStatus = Literal["none", "pending_new", "active", "pending_renewal", "lapsed", "suspended"]
Period = Literal["monthly", "yearly", "lifetime"]
OrderType = Literal["membership_application", "membership_renewal", "event_registration"]
InvoiceStatus = Literal["unpaid", "paid", "void"]
RegStatus = Literal["confirmed", "waitlisted", "cancelled"]
Access = Literal["public", "members_only"]
InvoiceNumber = Annotated[str, StringConstraints(pattern=r"^INV-[0-9]{5}$")]

RENEWAL_WINDOW = dt.timedelta(days=30)
MEMBER: tuple[MemberStatus, ...] = ("active", "pending_renewal")
HOLDS: tuple[MemberStatus, ...] = ("pending_new", "active", "pending_renewal", "suspended")


class Level(Created):
    """A membership level (individual or bundle) with its fee and renewal period."""

    id: LevelId
    name: Title
    """Its name, e.g. Professional."""
    kind: Literal["individual", "bundle"] = "individual"
    """individual, or bundle (an organisation's administrator and members)."""
    fee_cents: Cents
    """The membership fee per period."""
    renewal_period: Period = "yearly"
    """monthly, yearly or lifetime (never renews)."""
    bundle_size: Annotated[int, Field(ge=2, le=500)] | None = None
    """How many members a bundle holds, administrator included (bundles only)."""
    public_signup: bool = True
    """Whether people can apply for it."""


class Contact(Timestamped):
    """A contact of the association, and their membership if any."""

    id: ContactId
    first_name: FirstName
    """First name."""
    last_name: LastName
    """Last name."""
    email: Email
    """E-mail; unique."""
    phone: Phone | None = None
    """Phone."""
    organization: CompanyName | None = None
    """Where they work."""
    status: MemberStatus = "none"
    """none (not a member), pending_new, active, pending_renewal, lapsed or suspended."""
    level_id: LevelId | None = None
    """Their membership level."""
    bundle_id: BundleId | None = None
    """The bundle they belong to."""
    member_since: Date | None = None
    """When they first became a member."""
    renewal_due: Date | None = None
    """When the membership must be renewed (none for lifetime)."""
    suspension_reason: Text = ""
    """Why they are suspended."""


class Bundle(Created):
    """An organisational membership: an administrator who pays and the members under them."""

    id: BundleId
    level_id: LevelId
    """Its bundle level."""
    administrator_id: ContactId
    """The contact who manages and pays for it."""
    member_ids: tuple[ContactId, ...]
    """Its members, administrator first."""


class Invoice(Created):
    """An invoice for an application, a renewal or an event registration."""

    id: InvoiceId
    number: InvoiceNumber
    """The document number."""
    contact_id: ContactId
    """Who pays."""
    order_type: OrderType
    """membership_application, membership_renewal or event_registration."""
    amount_cents: Cents
    """The total."""
    paid_cents: Cents = 0
    """What was paid so far."""
    status: InvoiceStatus = "unpaid"
    """unpaid, paid or void."""
    level_id: LevelId | None = None
    """The level applied for or renewed."""
    registration_id: RegistrationId | None = None
    """The registration it bills."""
    paid_on: Date | None = None
    """When it was paid in full."""


class Event(Timestamped):
    """An association event members and guests register for."""

    id: EventId
    name: Title
    """Its name."""
    starts_at: DateTime
    """Start."""
    location: Annotated[str, StringConstraints(min_length=1, max_length=200)]
    """Where."""
    capacity: Annotated[int, Field(ge=1, le=5000)]
    """The registrations limit."""
    access: Access = "public"
    """public or members_only."""
    member_price_cents: Cents = 0
    """What members pay."""
    guest_price_cents: Cents = 0
    """What non-members pay."""
    confirmed_count: int = 0
    """Confirmed registrations."""


class Registration(Created):
    """A contact's registration for an event."""

    id: RegistrationId
    event_id: EventId
    """The event."""
    contact_id: ContactId
    """Who registered."""
    email: Email
    """Their e-mail."""
    status: RegStatus = "confirmed"
    """confirmed, waitlisted or cancelled."""
    fee_cents: Cents = 0
    """The price they pay (member or guest)."""
    checked_in: bool = False
    """Whether they came."""


# -- rules ------------------------------------------------------------------------------------


def _next_due(start: dt.date, period: str) -> dt.date | None:
    return None if period == "lifetime" else add_months(start, 1 if period == "monthly" else 12)


def _guard_contact(ctx: Ctx, new: Any, old: Any) -> None:
    for other in ctx.where(Contact, email=new.email):
        if other.id != new.id:
            raise Conflict(f"{new.email} is already contact {other.id}", field="email", hint="use that contact")


def _guard_level(ctx: Ctx, new: Any, old: Any) -> None:
    if (new.kind == "bundle") != (new.bundle_size is not None):
        raise RuleViolation(
            "a bundle level needs a bundle_size and an individual one none",
            field="bundle_size",
            hint="give bundle_size for bundle levels only",
        )


def _guard_event(ctx: Ctx, new: Any, old: Any) -> None:
    if old is None and new.starts_at <= ctx.now():
        raise RuleViolation("an event starts in the future", field="starts_at", hint="pick a later time")
    if new.capacity < new.confirmed_count:
        raise RuleViolation(f"{new.confirmed_count} are already confirmed", field="capacity", hint="raise the capacity")


def _invoice(ctx: Ctx, contact: Contact, order: OrderType, amount: int, **extra: Any) -> Invoice:
    n = ctx.next_number(Invoice, "number")
    return ctx.create(
        Invoice, number=f"INV-{50_000 + n:05d}", contact_id=contact.id, order_type=order, amount_cents=amount, **extra
    )


def _bundle_members(ctx: Ctx, contact: Contact) -> list[Contact]:
    if contact.bundle_id is None:
        return [contact]
    bundle = ctx.get(Bundle, contact.bundle_id)
    return [ctx.get(Contact, m) for m in bundle.member_ids]


levels = service.resource(
    Level,
    name="level",
    plural="levels",
    prefix="lvl",
    create=("name", "kind", "fee_cents", "renewal_period", "bundle_size", "public_signup"),
    filters=("kind", "renewal_period", "public_signup"),
    search=("name",),
    update=("name", "fee_cents", "public_signup"),
    delete=False,
    guard_create=_guard_level,
    title="membership level",
)
contacts = service.resource(
    Contact,
    name="contact",
    plural="contacts",
    prefix="ct",
    create=("first_name", "last_name", "email", "phone", "organization"),
    filters=("email", "status", "level_id", "bundle_id", "organization"),
    search=("first_name", "last_name", "organization"),
    update=("email", "phone", "organization"),
    delete=False,
    guard_create=_guard_contact,
    guard_update=_guard_contact,
)
bundles = service.resource(
    Bundle,
    name="bundle",
    plural="bundles",
    prefix="bdl",
    create=False,
    filters=("level_id", "administrator_id"),
    delete=False,
)
invoices = service.resource(
    Invoice,
    name="invoice",
    plural="invoices",
    prefix="inv",
    create=False,
    filters=("contact_id", "order_type", "status", "number"),
    delete=False,
)
events = service.resource(
    Event,
    name="event",
    plural="events",
    prefix="evt",
    create=("name", "starts_at", "location", "capacity", "access", "member_price_cents", "guest_price_cents"),
    filters=("access",),
    search=("name", "location"),
    update=("name", "starts_at", "location", "capacity", "member_price_cents", "guest_price_cents"),
    delete=False,
    guard_create=_guard_event,
    guard_update=_guard_event,
)
registrations = service.resource(
    Registration,
    name="registration",
    plural="registrations",
    prefix="reg",
    create=False,
    get=False,
    filters=("event_id", "contact_id", "email", "status", "checked_in"),
    delete=False,
    title="event registration",
)


# -- membership tools -------------------------------------------------------------------------


def _example_apply(ctx: Ctx) -> dict[str, Any] | None:
    c = ctx.first(Contact, status="none")
    lvl = ctx.first(Level, kind="individual", public_signup=True)
    return None if c is None or lvl is None else {"contact_id": c.id, "level_id": lvl.id}


@service.tool(intent="apply for membership", write=True, example=_example_apply)
def apply_for_membership(ctx: Ctx, contact_id: ContactId, level_id: LevelId) -> Invoice:
    """Apply for a level: the contact is PendingNew until the application invoice is paid.

    A bundle level makes the contact the administrator of a new bundle.

    Args:
        contact_id: The contact.
        level_id: A level open to sign-up.
    """
    c = ctx.get(Contact, contact_id, field="contact_id")
    lvl = ctx.get(Level, level_id, field="level_id")
    if c.status in HOLDS:
        raise Conflict(
            f"{c.email} is already {c.status}",
            field="contact_id",
            hint="renew or change the existing membership instead",
        )
    if not lvl.public_signup:
        raise RuleViolation(f"{lvl.name} is not open to sign-up", field="level_id", hint="pick a public level")
    bundle_id = None
    if lvl.kind == "bundle":
        bundle_id = ctx.create(Bundle, level_id=lvl.id, administrator_id=c.id, member_ids=(c.id,)).id
    ctx.update(c, status="pending_new", level_id=lvl.id, bundle_id=bundle_id)
    return _invoice(ctx, c, "membership_application", lvl.fee_cents, level_id=lvl.id)


def _renewable(ctx: Ctx, c: Contact) -> bool:
    due = c.renewal_due
    if due is None or (c.bundle_id is not None and ctx.get(Bundle, c.bundle_id).administrator_id != c.id):
        return False
    return c.status == "lapsed" or (c.status == "active" and due - ctx.today() <= RENEWAL_WINDOW)


@service.tool(
    intent="renew the membership",
    write=True,
    example=first_example(Contact, "contact_id", where={"status": "active"}, match=_renewable),
)
def renew_membership(ctx: Ctx, contact_id: ContactId) -> Invoice:
    """Start the renewal: within 30 days of the renewal date (or once lapsed), invoice the level's fee.

    Args:
        contact_id: The member (a bundle's administrator renews for the bundle).
    """
    c = ctx.get(Contact, contact_id, field="contact_id")
    if c.status not in ("active", "lapsed") or c.level_id is None:
        raise RuleViolation(f"{c.email} is {c.status}", field="contact_id", hint="only active or lapsed members renew")
    lvl = ctx.get(Level, c.level_id)
    if c.renewal_due is None:
        raise RuleViolation(f"{lvl.name} is a lifetime level", field="contact_id", hint="it never needs renewal")
    if c.bundle_id is not None and ctx.get(Bundle, c.bundle_id).administrator_id != c.id:
        raise RuleViolation(
            "bundle members are renewed by their administrator", field="contact_id", hint="renew the administrator"
        )
    if c.status == "active" and c.renewal_due - ctx.today() > RENEWAL_WINDOW:
        raise RuleViolation(
            f"renewal opens 30 days before {c.renewal_due}",
            field="contact_id",
            hint=f"renew from {c.renewal_due - RENEWAL_WINDOW}",
        )
    if c.status == "active":
        ctx.update(c, status="pending_renewal")
    return _invoice(ctx, c, "membership_renewal", lvl.fee_cents, level_id=lvl.id)


def _lapsable(ctx: Ctx, c: Contact) -> bool:
    return c.renewal_due is not None and c.renewal_due < ctx.today() and c.bundle_id is None


@service.tool(
    intent="lapse the membership",
    write=True,
    example=first_example(Contact, "contact_id", where={"status": "pending_renewal"}, match=_lapsable),
)
def lapse_membership(ctx: Ctx, contact_id: ContactId) -> Contact:
    """Lapse a membership past its renewal date (with its bundle's members); open renewals are voided.

    Args:
        contact_id: The member (or bundle administrator).
    """
    c = ctx.get(Contact, contact_id, field="contact_id")
    if c.status not in MEMBER:
        raise RuleViolation(f"{c.email} is {c.status}", field="contact_id", hint="only active members lapse")
    if c.renewal_due is None or c.renewal_due >= ctx.today():
        raise RuleViolation(
            f"{c.email} is paid up to {c.renewal_due or 'lifetime'}", field="contact_id", hint="it has not expired"
        )
    for inv in ctx.where(Invoice, contact_id=c.id, order_type="membership_renewal", status="unpaid"):
        if inv.paid_cents == 0:
            ctx.update(inv, status="void")
    for m in _bundle_members(ctx, c):
        if m.status in MEMBER:
            ctx.update(m, status="lapsed")
    return ctx.get(Contact, c.id)


@service.tool(
    intent="suspend the member",
    write=True,
    example=first_example(Contact, "contact_id", where={"status": "active"}, reason="Code of conduct review."),
)
def suspend_member(ctx: Ctx, contact_id: ContactId, reason: Text) -> Contact:
    """Suspend an active member: no member access or pricing until reactivated.

    Args:
        contact_id: The member.
        reason: Why (required).
    """
    c = ctx.get(Contact, contact_id, field="contact_id")
    if c.status not in MEMBER:
        raise RuleViolation(f"{c.email} is {c.status}", field="contact_id", hint="only active members are suspended")
    if not reason.strip():
        raise RuleViolation("a suspension needs a reason", field="reason", hint="say why")
    return ctx.update(c, status="suspended", suspension_reason=reason.strip())


@service.tool(
    intent="reactivate the member",
    write=True,
    example=first_example(Contact, "contact_id", where={"status": "suspended"}),
)
def reactivate_member(ctx: Ctx, contact_id: ContactId) -> Contact:
    """Lift a suspension; a membership whose renewal date passed meanwhile comes back lapsed.

    Args:
        contact_id: The suspended member.
    """
    c = ctx.get(Contact, contact_id, field="contact_id")
    if c.status != "suspended":
        raise RuleViolation(f"{c.email} is {c.status}", field="contact_id", hint="only suspended members")
    expired = c.renewal_due is not None and c.renewal_due < ctx.today()
    return ctx.update(c, status="lapsed" if expired else "active", suspension_reason="")


def _example_bundle_add(ctx: Ctx) -> dict[str, Any] | None:
    c = ctx.first(Contact, status="none")
    for b in ctx.scan(Bundle):
        admin = ctx.get(Contact, b.administrator_id)
        size = ctx.get(Level, b.level_id).bundle_size or 0
        if c is not None and admin.status in MEMBER and len(b.member_ids) < size:
            return {"bundle_id": b.id, "contact_id": c.id}
    return None


@service.tool(intent="add the contact to the bundle", write=True, example=_example_bundle_add)
def add_bundle_member(ctx: Ctx, bundle_id: BundleId, contact_id: ContactId) -> Bundle:
    """Add a contact to an active bundle, up to its level's member limit; they share its renewal date.

    Args:
        bundle_id: The bundle.
        contact_id: A contact who holds no membership.
    """
    b = ctx.get(Bundle, bundle_id, field="bundle_id")
    c = ctx.get(Contact, contact_id, field="contact_id")
    admin = ctx.get(Contact, b.administrator_id)
    if admin.status not in MEMBER:
        raise RuleViolation(f"the bundle is {admin.status}", field="bundle_id", hint="its administrator must pay first")
    if c.status in HOLDS:
        raise Conflict(f"{c.email} is already {c.status}", field="contact_id", hint="they hold a membership")
    size = ctx.get(Level, b.level_id).bundle_size or 0
    if len(b.member_ids) >= size:
        raise RuleViolation(f"the bundle is full ({size})", field="bundle_id", hint="remove a member first")
    ctx.update(
        c,
        status=admin.status,
        level_id=b.level_id,
        bundle_id=b.id,
        member_since=c.member_since or ctx.today(),
        renewal_due=admin.renewal_due,
    )
    return ctx.update(b, member_ids=(*b.member_ids, c.id))


def _example_bundle_remove(ctx: Ctx) -> dict[str, Any] | None:
    for b in ctx.scan(Bundle):
        if len(b.member_ids) > 1:
            return {"bundle_id": b.id, "contact_id": b.member_ids[-1]}
    return None


@service.tool(intent="remove the contact from the bundle", write=True, example=_example_bundle_remove)
def remove_bundle_member(ctx: Ctx, bundle_id: BundleId, contact_id: ContactId) -> Bundle:
    """Remove a member (not the administrator) from a bundle; they hold no membership afterwards.

    Args:
        bundle_id: The bundle.
        contact_id: The member.
    """
    b = ctx.get(Bundle, bundle_id, field="bundle_id")
    if contact_id == b.administrator_id:
        raise RuleViolation("the administrator stays in the bundle", field="contact_id", hint="remove a member")
    if contact_id not in b.member_ids:
        raise RuleViolation(f"{contact_id} is not in the bundle", field="contact_id", hint="list its member_ids")
    c = ctx.get(Contact, contact_id, field="contact_id")
    ctx.update(c, status="none", level_id=None, bundle_id=None, renewal_due=None)
    return ctx.update(b, member_ids=tuple(m for m in b.member_ids if m != contact_id))


# -- invoices ---------------------------------------------------------------------------------


def _settled(ctx: Ctx, inv: Invoice) -> None:
    c = ctx.get(Contact, inv.contact_id)
    today = ctx.today()
    if inv.order_type == "membership_application" and c.status == "pending_new" and inv.level_id is not None:
        lvl = ctx.get(Level, inv.level_id)
        due = _next_due(today, lvl.renewal_period)
        for m in _bundle_members(ctx, c):
            ctx.update(m, status="active", member_since=m.member_since or today, renewal_due=due)
    elif inv.order_type == "membership_renewal" and inv.level_id is not None:
        lvl = ctx.get(Level, inv.level_id)
        start = c.renewal_due if c.status == "pending_renewal" and c.renewal_due else today
        due = _next_due(start, lvl.renewal_period)
        for m in _bundle_members(ctx, c):
            if m.status in ("pending_renewal", "active", "lapsed"):
                ctx.update(m, status="active", renewal_due=due)


@service.tool(
    intent="record the payment of the invoice",
    write=True,
    example=first_example(Invoice, "invoice_id", where={"status": "unpaid"}, fields={"amount_cents": "amount_cents"}),
)
def record_payment(ctx: Ctx, invoice_id: InvoiceId, amount_cents: Annotated[int, Field(ge=1)]) -> Invoice:
    """Record a payment on an unpaid invoice, never above what it still owes; paid in full, it takes effect.

    Args:
        invoice_id: The invoice.
        amount_cents: What was paid.
    """
    inv = ctx.get(Invoice, invoice_id, field="invoice_id")
    if inv.status != "unpaid":
        raise Conflict(f"{inv.number} is {inv.status}", field="invoice_id", hint="nothing is owed on it")
    owed = inv.amount_cents - inv.paid_cents
    if amount_cents > owed:
        raise RuleViolation(f"{inv.number} owes {owed} cents", field="amount_cents", hint=f"pay at most {owed}")
    paid = inv.paid_cents + amount_cents
    if paid < inv.amount_cents:
        return ctx.update(inv, paid_cents=paid)
    inv = ctx.update(inv, paid_cents=paid, status="paid", paid_on=ctx.today())
    _settled(ctx, inv)
    return inv


@service.tool(
    intent="void the invoice",
    write=True,
    destructive=True,
    example=first_example(Invoice, "invoice_id", where={"status": "unpaid", "paid_cents": 0}),
)
def void_invoice(ctx: Ctx, invoice_id: InvoiceId) -> Invoice:
    """Void an unpaid invoice that has no payment; a voided application or renewal is withdrawn.

    Args:
        invoice_id: The invoice.
    """
    inv = ctx.get(Invoice, invoice_id, field="invoice_id")
    if inv.status != "unpaid" or inv.paid_cents:
        raise RuleViolation(
            f"{inv.number} is {inv.status} with {inv.paid_cents} cents paid",
            field="invoice_id",
            hint="only unpaid invoices without payments are voided",
        )
    c = ctx.get(Contact, inv.contact_id)
    if inv.order_type == "membership_application" and c.status == "pending_new":
        for m in _bundle_members(ctx, c):
            ctx.update(m, status="none", level_id=None, bundle_id=None)
    elif inv.order_type == "membership_renewal" and c.status == "pending_renewal":
        ctx.update(c, status="active")
    return ctx.update(inv, status="void")


# -- events -----------------------------------------------------------------------------------


def _example_register(ctx: Ctx) -> dict[str, Any] | None:
    for ev in ctx.where(Event, access="public"):
        if ev.starts_at > ctx.now():
            taken = {r.contact_id for r in ctx.where(Registration, event_id=ev.id)}
            for c in ctx.scan(Contact):
                if c.id not in taken:
                    return {"event_id": ev.id, "contact_id": c.id}
    return None


@service.tool(intent="register the contact for the event", write=True, example=_example_register)
def register_for_event(ctx: Ctx, event_id: EventId, contact_id: ContactId) -> Registration:
    """Register a contact at the member or guest price; a full event waitlists them.

    Args:
        event_id: An upcoming event.
        contact_id: The contact (members-only events need an active member).
    """
    ev = ctx.get(Event, event_id, field="event_id")
    c = ctx.get(Contact, contact_id, field="contact_id")
    if ev.starts_at <= ctx.now():
        raise RuleViolation(f"{ev.name} has started", field="event_id", hint="register for an upcoming event")
    member = c.status in MEMBER
    if ev.access == "members_only" and not member:
        raise RuleViolation(
            f"{ev.name} is for members only and {c.email} is {c.status}",
            field="contact_id",
            hint="the contact must be an active member",
        )
    for r in ctx.where(Registration, event_id=ev.id, contact_id=c.id):
        if r.status != "cancelled":
            raise Conflict(f"{c.email} is already {r.status} ({r.id})", field="contact_id", hint="nothing to do")
    fee = ev.member_price_cents if member else ev.guest_price_cents
    full = ev.confirmed_count >= ev.capacity
    reg = ctx.create(
        Registration,
        event_id=ev.id,
        contact_id=c.id,
        email=c.email,
        status="waitlisted" if full else "confirmed",
        fee_cents=fee,
    )
    if not full:
        ctx.update(ev, confirmed_count=ev.confirmed_count + 1)
        if fee:
            _invoice(ctx, c, "event_registration", fee, registration_id=reg.id)
    return reg


@service.tool(
    intent="cancel the event registration",
    write=True,
    example=first_example(Registration, "registration_id", where={"status": "confirmed", "checked_in": False}),
)
def cancel_registration(ctx: Ctx, registration_id: RegistrationId) -> Registration:
    """Cancel a registration before the event; its unpaid invoice is voided and the first waitlisted moves up.

    Args:
        registration_id: The registration.
    """
    reg = ctx.get(Registration, registration_id, field="registration_id")
    ev = ctx.get(Event, reg.event_id)
    if reg.status == "cancelled" or reg.checked_in or ev.starts_at <= ctx.now():
        raise RuleViolation(
            f"registration {reg.id} is {reg.status}", field="registration_id", hint="only upcoming registrations"
        )
    was = reg.status
    reg = ctx.update(reg, status="cancelled")
    for inv in ctx.where(Invoice, registration_id=reg.id, status="unpaid"):
        if inv.paid_cents == 0:
            ctx.update(inv, status="void")
    if was == "confirmed":
        nxt = ctx.first(Registration, event_id=ev.id, status="waitlisted")
        if nxt is None:
            ctx.update(ev, confirmed_count=ev.confirmed_count - 1)
        else:
            ctx.update(nxt, status="confirmed")
            if nxt.fee_cents:
                _invoice(
                    ctx, ctx.get(Contact, nxt.contact_id), "event_registration", nxt.fee_cents, registration_id=nxt.id
                )
    return reg


def _started(ctx: Ctx, reg: Registration) -> bool:
    return ctx.get(Event, reg.event_id).starts_at <= ctx.now()


@service.tool(
    intent="check in the registrant",
    write=True,
    example=first_example(
        Registration, "registration_id", where={"status": "confirmed", "checked_in": False}, match=_started
    ),
)
def check_in(ctx: Ctx, registration_id: RegistrationId) -> Registration:
    """Check a confirmed registrant in, from the event's start.

    Args:
        registration_id: The registration.
    """
    reg = ctx.get(Registration, registration_id, field="registration_id")
    if reg.status != "confirmed":
        raise RuleViolation(f"registration {reg.id} is {reg.status}", field="registration_id", hint="confirmed only")
    if reg.checked_in:
        raise Conflict(f"registration {reg.id} is already checked in", field="registration_id", hint="nothing to do")
    if not _started(ctx, reg):
        raise RuleViolation("the event has not started", field="registration_id", hint="check in at the event")
    return ctx.update(reg, checked_in=True)


# -- seed -------------------------------------------------------------------------------------

LEVELS: tuple[tuple[str, str, int, Period, int | None, bool], ...] = (
    ("Professional", "individual", 18_000, "yearly", None, True),
    ("Student", "individual", 4_500, "yearly", None, True),
    ("Monthly Supporter", "individual", 1_500, "monthly", None, True),
    ("Corporate", "bundle", 95_000, "yearly", 5, True),
    ("Honorary Lifetime", "individual", 0, "lifetime", None, False),
)
EVENTS: tuple[tuple[str, float, int, Access, int, int], ...] = (
    ("Annual Conference", 30, 120, "public", 25_000, 40_000),
    ("Members' Networking Breakfast", 6, 3, "members_only", 0, 0),
    ("Workshop: Grant Writing", 12, 25, "public", 4_000, 7_500),
    ("Spring Meetup", -0.1, 40, "public", 0, 1_000),
)


@service.seeder
def seed(s: SeedContext) -> None:
    """Levels, contacts from the population in every membership state, a corporate bundle, events."""
    pop = s.population
    today = s.now.date()
    lv = [
        s.create(
            Level,
            name=n,
            kind=k,
            fee_cents=fee,
            renewal_period=per,
            bundle_size=size,
            public_signup=pub,
            created_at=s.ago(days=2000),
        )
        for n, k, fee, per, size, pub in LEVELS
    ]
    people = list(pop.contacts[:14]) + list(pop.consumers[:6])
    made: list[Contact] = []
    number = 0
    for k, p in enumerate(people):
        company = pop.company_of(p)
        made.append(
            s.create(
                Contact,
                first_name=p.first_name,
                last_name=p.last_name,
                email=p.email,
                phone=p.phone,
                organization=company.name if company else None,
                created_at=s.ago(days=900 - 20 * k),
                updated_at=s.ago(days=10),
            )
        )
    # (contact index, level index, status, days since joining, renewal due offset in days)
    plan: tuple[tuple[int, int, MemberStatus, int, int | None], ...] = (
        (0, 0, "active", 400, 200),
        (1, 0, "pending_renewal", 700, 12),
        (2, 0, "active", 300, 20),
        (3, 1, "lapsed", 500, -40),
        (4, 2, "active", 90, 18),
        (5, 0, "suspended", 250, 115),
        (6, 4, "active", 3000, None),
        (7, 1, "pending_new", 0, None),
        (8, 0, "pending_renewal", 380, -3),
        (14, 0, "active", 100, 265),
        (15, 1, "active", 40, 325),
    )
    for idx, li, status, joined, due in plan:
        c, lvl = made[idx], lv[li]
        s.update(
            c,
            status=status,
            level_id=lvl.id,
            member_since=today - dt.timedelta(days=joined) if status != "pending_new" else None,
            renewal_due=today + dt.timedelta(days=due) if due is not None else None,
            suspension_reason="Dues dispute under review." if status == "suspended" else "",
        )
        if status in ("pending_new", "pending_renewal"):
            number += 1
            s.create(
                Invoice,
                number=f"INV-{40_000 + number:05d}",
                contact_id=c.id,
                order_type="membership_application" if status == "pending_new" else "membership_renewal",
                amount_cents=lvl.fee_cents,
                level_id=lvl.id,
                created_at=s.ago(days=5 + number),
            )
        if joined and lvl.fee_cents:
            number += 1
            s.create(
                Invoice,
                number=f"INV-{40_000 + number:05d}",
                contact_id=c.id,
                order_type="membership_application",
                amount_cents=lvl.fee_cents,
                paid_cents=lvl.fee_cents,
                status="paid",
                level_id=lvl.id,
                paid_on=today - dt.timedelta(days=joined),
                created_at=s.ago(days=joined + 1),
            )
    admin, members = made[9], made[10:13]
    bundle_due = today + dt.timedelta(days=150)
    bundle = s.create(
        Bundle, level_id=lv[3].id, administrator_id=admin.id, member_ids=(admin.id, *(m.id for m in members))
    )
    for c in (admin, *members):
        s.update(
            c,
            status="active",
            level_id=lv[3].id,
            bundle_id=bundle.id,
            member_since=today - dt.timedelta(days=215),
            renewal_due=bundle_due,
        )
    made = s.records(Contact)
    for k, (name, days, cap, access, member_price, guest_price) in enumerate(EVENTS):
        ev = s.create(
            Event,
            name=name,
            starts_at=utc_at(today + dt.timedelta(days=round(days)), 9 + k) if days > 0 else s.ago(hours=2),
            location=pop.home.address.city if k % 2 == 0 else "Online",
            capacity=cap,
            access=access,
            member_price_cents=member_price,
            guest_price_cents=guest_price,
            created_at=s.ago(days=60),
            updated_at=s.ago(days=60),
        )
        takers = [c for c in made if access == "public" or c.status in MEMBER][: min(cap + 1, 6)]
        confirmed = 0
        for c in takers:
            reg_status: RegStatus = "confirmed" if confirmed < cap else "waitlisted"
            confirmed += reg_status == "confirmed"
            fee = member_price if c.status in MEMBER else guest_price
            reg = s.create(
                Registration,
                event_id=ev.id,
                contact_id=c.id,
                email=c.email,
                status=reg_status,
                fee_cents=fee,
                checked_in=days < 0 and confirmed % 2 == 1,
                created_at=s.ago(days=20),
            )
            if fee and reg_status == "confirmed":
                number += 1
                paid = number % 2 == 0
                s.create(
                    Invoice,
                    number=f"INV-{40_000 + number:05d}",
                    contact_id=c.id,
                    order_type="event_registration",
                    amount_cents=fee,
                    paid_cents=fee if paid else 0,
                    status="paid" if paid else "unpaid",
                    registration_id=reg.id,
                    paid_on=today - dt.timedelta(days=19) if paid else None,
                    created_at=s.ago(days=20),
                )
        s.update(ev, confirmed_count=confirmed)
