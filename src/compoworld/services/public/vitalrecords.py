"""Vital Link: vital records orders: certificates on file, orders, identity verification, fees, shipping, amendments.

Modeled on VitalChek Network (LexisNexis Risk Solutions), the ordering channel
of state and county vital records offices: birth, death, marriage and divorce
records on file; orders with the requester's relationship to the registrant
(only the registrant, a parent, spouse, child, sibling or legal representative
may order certified copies, plus the funeral director for a death record;
anyone else gets informational copies), fees (the agency's $25 for the first
certified copy and $4 for each more, informational copies $15 each, VitalChek's
$12.95 processing fee, UPS express $19.50), identity verification that must
succeed before an order is approved (a name on the ID that differs from the
requester's fails; a second failure rejects the order), shipping with a
tracking number, and amendments that correct a record and mark it amended.
"""

from __future__ import annotations

import datetime as dt
from typing import Annotated, Any, Literal

from pydantic import Field, StringConstraints

from compoworld.engine.context import Ctx
from compoworld.engine.errors import Conflict, RuleViolation
from compoworld.engine.service import Service, Transition
from compoworld.engine.state import SeedContext
from compoworld.engine.types import City, Date, Email, FirstName, IdOf, LastName, PersonName, Text, TrackingNumber
from compoworld.services.kit.examples import first_example
from compoworld.services.kit.records import Timestamped, Value
from compoworld.services.kit.text import fold

__all__ = ["service"]

service = Service(
    "vitalrecords",
    title="Vital Link",
    category="vital_records",
    modeled_on="VitalChek Network: birth, death, marriage and divorce certificate orders, eligibility by "
    "relationship, identity verification, agency and processing fees, UPS shipping, record amendments",
    description="The state vital records office's online ordering: certificates on file, orders for certified "
    "or informational copies, the requester's identity check, fees, shipments with tracking, and amendments "
    "that correct records.",
)

RecordId = Annotated[str, IdOf("vitalrecords.record")]
OrderId = Annotated[str, IdOf("vitalrecords.order")]
VerificationId = Annotated[str, IdOf("vitalrecords.verification")]
ShipmentId = Annotated[str, IdOf("vitalrecords.shipment")]
AmendmentId = Annotated[str, IdOf("vitalrecords.amendment")]

RecordType = Literal["birth", "death", "marriage", "divorce"]
Relationship = Literal[
    "self", "parent", "spouse", "child", "sibling", "legal_representative", "funeral_director", "other"
]
Shipping = Literal["regular_mail", "ups_express"]
OrderStatus = Literal["received", "identity_pending", "approved", "shipped", "rejected", "cancelled"]
IdDocument = Literal["drivers_license", "state_id", "passport", "military_id"]
AmendField = Literal["first_name", "last_name", "event_date", "place"]

FIRST_COPY, EXTRA_COPY, INFO_COPY = 2500, 400, 1500
PROCESSING, UPS = 1295, 1950
ENTITLED: frozenset[str] = frozenset({"self", "parent", "spouse", "child", "sibling", "legal_representative"})


class VitalRecord(Timestamped):
    """A vital record on file."""

    id: RecordId
    certificate_number: Annotated[str, StringConstraints(pattern=r"^\d{3}-\d{4}-\d{6}$")]
    """The state file number."""
    record_type: RecordType
    """birth, death, marriage or divorce."""
    first_name: FirstName
    """Registrant's first name."""
    last_name: LastName
    """Registrant's last name."""
    second_party: PersonName | None = None
    """The spouse (marriage, divorce)."""
    event_date: Date
    """Date of the birth, death, marriage or divorce decree."""
    place: City
    """Where it happened."""
    amended: bool = False
    """Whether it was corrected by an amendment."""


class Order(Timestamped):
    """A certificate order."""

    id: OrderId
    order_number: Annotated[str, StringConstraints(pattern=r"^VC\d{9}$")]
    """The VitalChek order number."""
    record_id: RecordId
    """The record ordered."""
    record_type: RecordType
    """Its type."""
    requester_name: PersonName
    """Who ordered."""
    requester_email: Email
    """Where order updates go."""
    relationship: Relationship
    """The requester's relationship to the registrant."""
    copies: Annotated[int, Field(ge=1, le=10)]
    """Copies."""
    certified: bool
    """Certified (legal use) or informational copies."""
    shipping: Shipping = "regular_mail"
    """regular_mail or ups_express."""
    fee_cents: int
    """Total charged."""
    status: OrderStatus = "received"
    """received, identity_pending, approved, shipped, rejected or cancelled."""
    reject_reason: str | None = None
    """Why it was rejected."""


class Verification(Timestamped):
    """An identity check of a requester."""

    id: VerificationId
    order_id: OrderId
    """The order."""
    document: IdDocument
    """drivers_license, state_id, passport or military_id."""
    name_on_document: PersonName
    """The name printed on the ID."""
    status: Literal["verified", "failed"]
    """verified or failed."""


class Shipment(Timestamped):
    """A shipment of certificates."""

    id: ShipmentId
    order_id: OrderId
    """The order."""
    carrier: Literal["usps", "ups"]
    """usps (regular mail) or ups (express)."""
    tracking_number: TrackingNumber
    """The tracking number."""
    shipped_on: Date
    """When it went out."""
    status: Literal["in_transit", "delivered"] = "in_transit"
    """in_transit or delivered."""


class Amendment(Timestamped):
    """A request to correct a record."""

    id: AmendmentId
    record_id: RecordId
    """The record."""
    field: AmendField
    """first_name, last_name, event_date or place."""
    new_value: Annotated[str, StringConstraints(min_length=1, max_length=120)]
    """The corrected value."""
    evidence: Text
    """The documentary evidence."""
    requester_email: Email
    """Who asked."""
    status: Literal["submitted", "approved", "denied"] = "submitted"
    """submitted, approved or denied."""


class FeeQuote(Value):
    """The fees of an order."""

    agency_cents: int
    """The vital records office's fee."""
    processing_cents: int
    """VitalChek's processing fee."""
    shipping_cents: int
    """Shipping."""
    total_cents: int
    """Total."""


# -- rules ------------------------------------------------------------------------------------


def _fees(copies: int, certified: bool, shipping: str) -> FeeQuote:
    agency = FIRST_COPY + EXTRA_COPY * (copies - 1) if certified else INFO_COPY * copies
    ship = UPS if shipping == "ups_express" else 0
    return FeeQuote(
        agency_cents=agency, processing_cents=PROCESSING, shipping_cents=ship, total_cents=agency + PROCESSING + ship
    )


def _order(ctx: Ctx, order_id: str, allowed: tuple[OrderStatus, ...], what: str) -> Order:
    o = ctx.get(Order, order_id, field="order_id")
    if o.status not in allowed:
        raise Conflict(f"order {o.order_number} is {o.status}", field="order_id", hint=f"only {what} orders")
    return o


records = service.resource(
    VitalRecord,
    name="record",
    plural="records",
    prefix="vr",
    create=False,
    filters=("certificate_number", "record_type", "last_name", "event_date", "place"),
    search=("first_name", "last_name", "second_party"),
    delete=False,
    title="vital record",
)
orders = service.resource(
    Order,
    name="order",
    plural="orders",
    prefix="ord",
    create=False,
    filters=("order_number", "record_id", "requester_email", "status", "record_type"),
    search=("requester_name",),
    delete=False,
    transitions={
        "cancel": Transition("status", ("received", "identity_pending"), "cancelled", "cancel the certificate order"),
    },
    title="certificate order",
)
verifications = service.resource(
    Verification,
    name="verification",
    plural="verifications",
    prefix="idv",
    create=False,
    filters=("order_id", "status"),
    delete=False,
    title="identity verification",
)
shipments = service.resource(
    Shipment,
    name="shipment",
    plural="shipments",
    prefix="shp",
    create=False,
    filters=("order_id", "tracking_number", "status"),
    delete=False,
    transitions={"deliver": Transition("status", ("in_transit",), "delivered", "mark the shipment delivered")},
)
amendments = service.resource(
    Amendment,
    name="amendment",
    plural="amendments",
    prefix="amd",
    create=False,
    filters=("record_id", "status", "requester_email"),
    delete=False,
    transitions={"deny": Transition("status", ("submitted",), "denied", "deny the amendment")},
)


# -- domain tools -----------------------------------------------------------------------------


@service.tool(
    intent="quote the certificate order fees",
    example=first_example(VitalRecord, None, copies=2, certified=True, shipping="ups_express"),
)
def fee_quote(
    ctx: Ctx, copies: Annotated[int, Field(ge=1, le=10)], certified: bool, shipping: Shipping = "regular_mail"
) -> FeeQuote:
    """The fees of an order: the agency's per-copy fee, the processing fee and express shipping.

    Args:
        copies: Copies (1 to 10).
        certified: Certified or informational copies.
        shipping: regular_mail or ups_express.
    """
    return _fees(copies, certified, shipping)


def _example_order(ctx: Ctx) -> dict[str, Any] | None:
    r = ctx.first(VitalRecord, record_type="birth")
    return (
        None
        if r is None
        else {
            "certificate_number": r.certificate_number,
            "requester_name": f"{r.first_name} {r.last_name}",
            "requester_email": "requester@example.org",
            "relationship": "self",
            "copies": 2,
            "certified": True,
        }
    )


@service.tool(intent="order copies of the vital record", write=True, example=_example_order)
def place_order(
    ctx: Ctx,
    certificate_number: Annotated[str, StringConstraints(pattern=r"^\d{3}-\d{4}-\d{6}$")],
    requester_name: PersonName,
    requester_email: Email,
    relationship: Relationship,
    copies: Annotated[int, Field(ge=1, le=10)],
    certified: bool,
    shipping: Shipping = "regular_mail",
) -> Order:
    """Order copies of a record; certified copies only for those entitled by their relationship.

    Args:
        certificate_number: The record's state file number.
        requester_name: Who orders (must match their ID).
        requester_email: Where updates go.
        relationship: self, parent, spouse, child, sibling, legal_representative, funeral_director or other.
        copies: Copies (1 to 10).
        certified: Certified (for passports, benefits, estates) or informational copies.
        shipping: regular_mail or ups_express.
    """
    rec = ctx.first(VitalRecord, certificate_number=certificate_number)
    if rec is None:
        raise RuleViolation(
            f"no record {certificate_number}", field="certificate_number", hint="search records by name and date"
        )
    entitled = relationship in ENTITLED or (relationship == "funeral_director" and rec.record_type == "death")
    if certified and not entitled:
        raise RuleViolation(
            f"a requester with relationship {relationship!r} cannot order certified {rec.record_type} copies",
            field="relationship",
            hint="order informational copies instead",
        )
    if relationship == "self" and rec.record_type == "death":
        raise RuleViolation("nobody orders their own death record", field="relationship", hint="pick the relationship")
    return ctx.create(
        Order,
        order_number=f"VC{310000000 + ctx.next_number(Order, 'number'):09d}",
        record_id=rec.id,
        record_type=rec.record_type,
        requester_name=requester_name,
        requester_email=requester_email,
        relationship=relationship,
        copies=copies,
        certified=certified,
        shipping=shipping,
        fee_cents=_fees(copies, certified, shipping).total_cents,
        status="identity_pending" if certified else "received",
    )


@service.tool(
    intent="verify the requester's identity",
    write=True,
    example=first_example(
        Order,
        "order_id",
        where={"status": "identity_pending"},
        fields={"name_on_document": "requester_name"},
        document="drivers_license",
    ),
)
def verify_identity(ctx: Ctx, order_id: OrderId, document: IdDocument, name_on_document: PersonName) -> Verification:
    """Check the requester's ID: the name must match the order; a second failure rejects the order.

    Args:
        order_id: The order waiting for identity.
        document: drivers_license, state_id, passport or military_id.
        name_on_document: The name printed on the ID.
    """
    o = _order(ctx, order_id, ("identity_pending",), "identity-pending")
    good = fold(name_on_document) == fold(o.requester_name)
    check = ctx.create(
        Verification,
        order_id=o.id,
        document=document,
        name_on_document=name_on_document,
        status="verified" if good else "failed",
    )
    if good:
        ctx.update(o, status="received")
    elif len(ctx.where(Verification, order_id=o.id, status="failed")) >= 2:
        ctx.update(o, status="rejected", reject_reason="identity could not be verified")
    return check


@service.tool(
    intent="approve the certificate order",
    write=True,
    example=first_example(Order, "order_id", where={"status": "received"}),
)
def approve_order(ctx: Ctx, order_id: OrderId) -> Order:
    """Approve a received order (its identity verified when certified) for printing and shipping.

    Args:
        order_id: The order.
    """
    o = _order(ctx, order_id, ("received", "identity_pending"), "received")
    if o.status == "identity_pending":
        raise RuleViolation("the requester's identity is not verified", field="order_id", hint="verify it first")
    return ctx.update(o, status="approved")


@service.tool(
    intent="ship the certificates",
    write=True,
    example=first_example(Order, "order_id", where={"status": "approved"}),
)
def ship_order(ctx: Ctx, order_id: OrderId) -> Shipment:
    """Ship an approved order by its carrier: USPS for regular mail, UPS for express.

    Args:
        order_id: The approved order.
    """
    o = _order(ctx, order_id, ("approved",), "approved")
    ups = o.shipping == "ups_express"
    n = ctx.next_number(Shipment, "tracking")
    tracking = f"1Z999AA1{n:010d}" if ups else f"9400111{n:015d}"
    ctx.update(o, status="shipped")
    return ctx.create(
        Shipment, order_id=o.id, carrier="ups" if ups else "usps", tracking_number=tracking, shipped_on=ctx.today()
    )


def _example_amend(ctx: Ctx) -> dict[str, Any] | None:
    r = ctx.first(VitalRecord, record_type="birth", amended=False)
    return (
        None
        if r is None
        else {
            "record_id": r.id,
            "field": "first_name",
            "new_value": "Katherine",
            "evidence": "Baptismal record and school records from 1990.",
            "requester_email": "registrant@example.org",
        }
    )


@service.tool(intent="request an amendment of the record", write=True, example=_example_amend)
def request_amendment(
    ctx: Ctx,
    record_id: RecordId,
    field: AmendField,
    new_value: Annotated[str, StringConstraints(min_length=1, max_length=120)],
    evidence: Text,
    requester_email: Email,
) -> Amendment:
    """Ask to correct a record with documentary evidence; one open amendment per record and field.

    Args:
        record_id: The record.
        field: first_name, last_name, event_date (YYYY-MM-DD) or place.
        new_value: The corrected value; it must differ from the record's.
        evidence: The evidence (required).
        requester_email: Who asks.
    """
    rec = ctx.get(VitalRecord, record_id, field="record_id")
    if str(getattr(rec, field)) == new_value:
        raise RuleViolation(f"the {field} is already {new_value}", field="new_value", hint="nothing to correct")
    if field == "event_date":
        try:
            dt.date.fromisoformat(new_value)
        except ValueError:
            raise RuleViolation("give the date as YYYY-MM-DD", field="new_value", hint="e.g. 1990-04-12") from None
    if not evidence.strip():
        raise RuleViolation("an amendment needs evidence", field="evidence", hint="describe the documents")
    if ctx.first(Amendment, record_id=rec.id, field=field, status="submitted") is not None:
        raise Conflict(f"an amendment of {field} is already submitted", field="field", hint="wait for its decision")
    return ctx.create(
        Amendment,
        record_id=rec.id,
        field=field,
        new_value=new_value,
        evidence=evidence.strip(),
        requester_email=requester_email,
    )


@service.tool(
    intent="approve the amendment",
    write=True,
    example=first_example(Amendment, "amendment_id", where={"status": "submitted"}),
)
def approve_amendment(ctx: Ctx, amendment_id: AmendmentId) -> Amendment:
    """Approve an amendment: the record is corrected and marked amended.

    Args:
        amendment_id: The submitted amendment.
    """
    a = ctx.get(Amendment, amendment_id, field="amendment_id")
    if a.status != "submitted":
        raise Conflict(f"amendment {a.id} is {a.status}", field="amendment_id", hint="only submitted ones")
    rec = ctx.get(VitalRecord, a.record_id)
    value: Any = dt.date.fromisoformat(a.new_value) if a.field == "event_date" else a.new_value
    ctx.update(rec, **{a.field: value, "amended": True})
    return ctx.update(a, status="approved")


# -- seed -------------------------------------------------------------------------------------


@service.seeder
def seed(s: SeedContext) -> None:
    """Birth records of the world's residents, marriages and deaths, orders in every state, an amendment."""
    pop = s.population
    people = list(pop.consumers[:24])
    made: list[VitalRecord] = []
    for k, p in enumerate(people):
        made.append(
            s.create(
                VitalRecord,
                certificate_number=f"{100 + k % 7:03d}-{p.birth_date.year:04d}-{10000 + 37 * k:06d}",
                record_type="birth",
                first_name=p.first_name,
                last_name=p.last_name,
                event_date=p.birth_date,
                place=p.place.city,
                created_at=s.ago(days=3000),
                updated_at=s.ago(days=3000),
            )
        )
    for k in range(0, 8, 2):
        a, b = people[k], people[k + 1]
        made.append(
            s.create(
                VitalRecord,
                certificate_number=f"{200 + k:03d}-{2015 + k:04d}-{20000 + k:06d}",
                record_type="marriage",
                first_name=a.first_name,
                last_name=a.last_name,
                second_party=b.name,
                event_date=dt.date(2015 + k, 6, 1 + k),
                place=a.address.city,
                created_at=s.ago(days=2000),
                updated_at=s.ago(days=2000),
            )
        )
    made.append(
        s.create(
            VitalRecord,
            certificate_number=f"300-{s.now.year - 1:04d}-030001",
            record_type="death",
            first_name="Eleanor",
            last_name=people[3].last_name,
            event_date=(s.now - dt.timedelta(days=200)).date(),
            place=people[3].address.city,
            created_at=s.ago(days=190),
            updated_at=s.ago(days=190),
        )
    )
    plan: tuple[OrderStatus, ...] = (
        "identity_pending",
        "identity_pending",
        "received",
        "approved",
        "shipped",
        "shipped",
        "rejected",
        "cancelled",
    )
    for k, status in enumerate(plan):
        rec = made[k]
        p = people[k]
        shipping: Shipping = "ups_express" if k % 3 == 0 else "regular_mail"
        order = s.create(
            Order,
            order_number=f"VC{200000000 + 7717 * (k + 1):09d}",
            record_id=rec.id,
            record_type=rec.record_type,
            requester_name=p.name,
            requester_email=p.email,
            relationship="self",
            copies=1 + k % 3,
            certified=True,
            shipping=shipping,
            fee_cents=_fees(1 + k % 3, True, shipping).total_cents,
            status=status,
            reject_reason="identity could not be verified" if status == "rejected" else None,
            created_at=s.ago(days=20 - k),
            updated_at=s.ago(days=5),
        )
        if status in ("received", "approved", "shipped"):
            s.create(
                Verification,
                order_id=order.id,
                document="drivers_license",
                name_on_document=p.name,
                status="verified",
                created_at=s.ago(days=18 - k),
                updated_at=s.ago(days=18 - k),
            )
        if status == "shipped":
            s.create(
                Shipment,
                order_id=order.id,
                carrier="ups" if shipping == "ups_express" else "usps",
                tracking_number=f"9400111{k:015d}" if shipping == "regular_mail" else f"1Z999AA1{k:010d}",
                shipped_on=(s.now - dt.timedelta(days=4 + k)).date(),
                status="delivered" if k == 5 else "in_transit",
                created_at=s.ago(days=4 + k),
                updated_at=s.ago(days=2),
            )
    s.create(
        Amendment,
        record_id=made[10].id,
        field="last_name",
        new_value=f"{made[10].last_name}-Reyes",
        evidence="Court order of name correction.",
        requester_email=people[10].email,
        created_at=s.ago(days=6),
        updated_at=s.ago(days=6),
    )
