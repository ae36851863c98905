"""Homeward Medical Supply: DME orders, certificates of medical necessity, deliveries, capped rentals, pickups.

Modeled on Brightree (a durable medical equipment supplier's patients and
payers; an item catalog by HCPCS code with rental or purchase pricing and
whether the payer needs a certificate of medical necessity (CMN) or detailed
written order; sales orders that wait for documents, are delivered with the
serial number and the patient's signature, or cancelled; CMNs sent to the
ordering physician and signed with a length of need; rentals billed month
by month under Medicare's 13-month capped rental, after which the patient owns
the item; pickups that end a rental): an order needs an active patient and
a physician with an NPI, it is delivered only once its CMN is signed where one
is needed, a rental bills once a month and never past the cap, and a capped
or owned item is never picked up.
"""

from __future__ import annotations

import datetime as dt
from typing import Annotated, Any, Literal

from pydantic import Field, StringConstraints

from compoworld.engine.context import Ctx
from compoworld.engine.errors import Conflict, RuleViolation
from compoworld.engine.service import Service, Transition
from compoworld.engine.state import SeedContext
from compoworld.engine.types import Cents, Date, Email, IdOf, PersonName, Phone, Text, Title
from compoworld.services.kit.examples import first_example
from compoworld.services.kit.records import Timestamped
from compoworld.services.kit.time import add_months
from compoworld.world.care import clinicians, provider_npi

__all__ = ["service"]

service = Service(
    "dme",
    title="Homeward Medical Supply",
    category="durable_medical_equipment",
    modeled_on="Brightree DME: patients and payers, HCPCS item catalog, sales orders, CMN/DWO documentation, "
    "deliveries with serial numbers and signatures, 13-month capped rentals billed monthly, pickups",
    description="A durable medical equipment supplier: patients and their payers, hospital beds, oxygen, CPAPs and "
    "wheelchairs by HCPCS code, orders waiting on the physician's certificate of medical necessity, deliveries to "
    "the home, rentals billed month by month to the cap, and pickups.",
)

PatientId = Annotated[str, IdOf("dme.patient")]
ItemId = Annotated[str, IdOf("dme.item")]
OrderId = Annotated[str, IdOf("dme.order")]
CmnId = Annotated[str, IdOf("dme.cmn")]
DeliveryId = Annotated[str, IdOf("dme.delivery")]
RentalId = Annotated[str, IdOf("dme.rental")]

Npi = Annotated[str, StringConstraints(pattern=r"^[0-9]{10}$")]
Icd10 = Annotated[str, StringConstraints(pattern=r"^[A-TV-Z][0-9][0-9A-Z](\.[0-9A-Z]{1,4})?$")]
Serial = Annotated[str, StringConstraints(pattern=r"^[A-Z0-9-]{5,24}$")]

Payer = Literal["medicare", "medicaid", "commercial", "self_pay"]
OrderStatus = Literal["pending_documents", "ready", "delivered", "cancelled"]
CmnStatus = Literal["sent", "signed", "expired"]
DeliveryStatus = Literal["scheduled", "delivered", "failed"]
RentalStatus = Literal["active", "capped", "pickup_scheduled", "picked_up"]

RENTAL_CAP = 13


class Patient(Timestamped):
    """A patient the supplier serves."""

    id: PatientId
    name: PersonName
    """Name on the delivery ticket."""
    email: Email
    """Where delivery notices go (one account per address)."""
    phone: Phone
    """Number the driver calls before arriving."""
    birth_date: Date
    """Birth date (payer eligibility checks)."""
    payer: Payer = "medicare"
    """medicare, medicaid, commercial or self_pay."""
    active: bool = True
    """Whether the account is open."""


class Item(Timestamped):
    """An item of the catalog."""

    id: ItemId
    hcpcs: Annotated[str, StringConstraints(pattern=r"^[A-Z][0-9]{4}$")]
    """HCPCS code."""
    name: Title
    """Description."""
    rental: bool
    """Whether it is rented monthly (capped rental) rather than sold."""
    price_cents: Cents
    """Monthly rental fee, or the sale price."""
    needs_cmn: bool = False
    """Whether a signed certificate of medical necessity is needed before delivery."""


class Order(Timestamped):
    """A sales order for an item."""

    id: OrderId
    patient_id: PatientId
    """The patient."""
    item_id: ItemId
    """The item."""
    physician: PersonName
    """The ordering physician."""
    physician_npi: Npi
    """Their NPI."""
    diagnosis: Icd10
    """ICD-10 justifying the item."""
    status: OrderStatus = "pending_documents"
    """pending_documents, ready, delivered or cancelled."""


class Cmn(Timestamped):
    """A certificate of medical necessity."""

    id: CmnId
    order_id: OrderId
    """The order."""
    physician_npi: Npi
    """The physician asked to sign."""
    sent_on: Date
    """When it was sent."""
    signed_on: Date | None = None
    """When it was signed."""
    length_of_need_months: Annotated[int, Field(ge=1, le=99)] | None = None
    """Months of need the physician certified (99: lifetime)."""
    status: CmnStatus = "sent"
    """sent, signed or expired."""


class Delivery(Timestamped):
    """A delivery to the patient's home."""

    id: DeliveryId
    order_id: OrderId
    """The order."""
    scheduled_for: Date
    """The day."""
    status: DeliveryStatus = "scheduled"
    """scheduled, delivered or failed."""
    serial_number: Serial | None = None
    """The serial delivered."""
    signed_by: PersonName | None = None
    """Who signed the proof of delivery."""
    note: Text = ""
    """Why it failed."""


class Rental(Timestamped):
    """A capped rental of a delivered item."""

    id: RentalId
    order_id: OrderId
    """The order."""
    patient_id: PatientId
    """The patient."""
    item_id: ItemId
    """The item."""
    serial_number: Serial
    """The unit at the home."""
    start_date: Date
    """First day."""
    months_billed: Annotated[int, Field(ge=0, le=RENTAL_CAP)] = 0
    """Months billed so far."""
    last_billed_on: Date | None = None
    """When the last month was billed."""
    billed_cents: Cents = 0
    """Billed so far."""
    pickup_on: Date | None = None
    """The scheduled pickup day."""
    status: RentalStatus = "active"
    """active, capped (patient owns it), pickup_scheduled or picked_up."""


# -- rules ------------------------------------------------------------------------------------

patients = service.resource(
    Patient,
    name="patient",
    plural="patients",
    prefix="pt",
    create=("name", "email", "phone", "birth_date", "payer"),
    filters=("email", "payer", "active"),
    search=("name",),
    update=("email", "phone", "payer", "active"),
    delete=False,
    unique=("email",),
)
items = service.resource(
    Item,
    name="item",
    plural="items",
    prefix="itm",
    create=False,
    filters=("hcpcs", "rental", "needs_cmn"),
    search=("name",),
    delete=False,
)
orders = service.resource(
    Order,
    name="order",
    plural="orders",
    prefix="so",
    create=False,
    filters=("patient_id", "item_id", "status", "physician_npi"),
    delete=False,
    transitions={
        "cancel": Transition("status", ("pending_documents", "ready"), "cancelled", "cancel the equipment order"),
    },
)
cmns = service.resource(
    Cmn,
    name="cmn",
    plural="cmns",
    prefix="cmn",
    create=False,
    filters=("order_id", "status", "physician_npi"),
    delete=False,
    title="certificate of medical necessity",
)
deliveries = service.resource(
    Delivery,
    name="delivery",
    plural="deliveries",
    prefix="dlv",
    create=False,
    filters=("order_id", "status", "scheduled_for"),
    delete=False,
)
rentals = service.resource(
    Rental,
    name="rental",
    plural="rentals",
    prefix="rnt",
    create=False,
    filters=("patient_id", "item_id", "status", "serial_number"),
    delete=False,
)


# -- domain tools -----------------------------------------------------------------------------


def _example_order(ctx: Ctx) -> dict[str, Any] | None:
    pt = ctx.first(Patient, active=True)
    item = ctx.first(Item, hcpcs="E0143")
    if pt is None or item is None:
        return None
    return {
        "patient_id": pt.id,
        "item_id": item.id,
        "physician": "Dr. Maya Lin",
        "physician_npi": "1234567893",
        "diagnosis": "R26.81",
    }


@service.tool(intent="order equipment for the patient", write=True, example=_example_order)
def create_order(
    ctx: Ctx, patient_id: PatientId, item_id: ItemId, physician: PersonName, physician_npi: Npi, diagnosis: Icd10
) -> Order:
    """Open an order for an active patient; it is ready at once unless the item needs a CMN first.

    The patient may not have another open order or active rental of the same item.

    Args:
        patient_id: The patient.
        item_id: The catalog item.
        physician: Ordering physician.
        physician_npi: Their NPI.
        diagnosis: ICD-10 justification.
    """
    pt = ctx.get(Patient, patient_id, field="patient_id")
    if not pt.active:
        raise RuleViolation(f"{pt.name}'s account is closed", field="patient_id", hint="reopen the account")
    item = ctx.get(Item, item_id, field="item_id")
    for o in ctx.where(Order, patient_id=pt.id, item_id=item.id):
        if o.status in ("pending_documents", "ready"):
            raise Conflict(f"order {o.id} for {item.name} is open", field="item_id", hint="work that order")
    for r in ctx.where(Rental, patient_id=pt.id, item_id=item.id):
        if r.status in ("active", "pickup_scheduled"):
            raise Conflict(f"{pt.name} already rents {item.name}", field="item_id", hint="no duplicate equipment")
    return ctx.create(
        Order,
        patient_id=pt.id,
        item_id=item.id,
        physician=physician,
        physician_npi=physician_npi,
        diagnosis=diagnosis,
        status="pending_documents" if item.needs_cmn else "ready",
    )


@service.tool(
    intent="send the certificate of medical necessity to the physician",
    write=True,
    example=first_example(
        Order,
        "order_id",
        where={"status": "pending_documents"},
        match=lambda c, o: c.first(Cmn, order_id=o.id, status="sent") is None,
    ),
)
def send_cmn(ctx: Ctx, order_id: OrderId) -> Cmn:
    """Send a CMN for an order waiting on documents to its ordering physician (one outstanding at a time).

    Args:
        order_id: An order pending documents.
    """
    o = ctx.get(Order, order_id, field="order_id")
    if o.status != "pending_documents":
        raise RuleViolation(f"order {o.id} is {o.status}", field="order_id", hint="only orders waiting on documents")
    if ctx.first(Cmn, order_id=o.id, status="sent") is not None:
        raise Conflict("a CMN is already out for signature", field="order_id", hint="wait for the physician")
    return ctx.create(Cmn, order_id=o.id, physician_npi=o.physician_npi, sent_on=ctx.today())


@service.tool(
    intent="record the physician's signature on the CMN",
    write=True,
    example=first_example(Cmn, "cmn_id", where={"status": "sent"}, length_of_need_months=99),
)
def sign_cmn(ctx: Ctx, cmn_id: CmnId, length_of_need_months: Annotated[int, Field(ge=1, le=99)]) -> Cmn:
    """Record a sent CMN as signed with the length of need; its order becomes ready for delivery.

    Args:
        cmn_id: A sent CMN.
        length_of_need_months: Months of need (99: lifetime).
    """
    cmn = ctx.get(Cmn, cmn_id, field="cmn_id")
    if cmn.status != "sent":
        raise RuleViolation(f"CMN {cmn.id} is {cmn.status}", field="cmn_id", hint="send a new CMN")
    o = ctx.get(Order, cmn.order_id)
    if o.status == "pending_documents":
        ctx.update(o, status="ready")
    return ctx.update(cmn, status="signed", signed_on=ctx.today(), length_of_need_months=length_of_need_months)


@service.tool(
    intent="schedule the equipment delivery",
    write=True,
    example=lambda ctx: next(
        (
            {"order_id": o.id, "scheduled_for": (ctx.today() + dt.timedelta(days=2)).isoformat()}
            for o in ctx.where(Order, status="ready")
            if not any(d.status == "scheduled" for d in ctx.where(Delivery, order_id=o.id))
        ),
        None,
    ),
)
def schedule_delivery(ctx: Ctx, order_id: OrderId, scheduled_for: Date) -> Delivery:
    """Schedule delivery of a ready order (CMN signed where needed) on a day from today.

    Args:
        order_id: A ready order.
        scheduled_for: The day (today or later).
    """
    o = ctx.get(Order, order_id, field="order_id")
    if o.status != "ready":
        raise RuleViolation(
            f"order {o.id} is {o.status}",
            field="order_id",
            hint="get the CMN signed first" if o.status == "pending_documents" else "only ready orders ship",
        )
    if scheduled_for < ctx.today():
        raise RuleViolation("the day has passed", field="scheduled_for", hint="pick today or later")
    if any(d.status == "scheduled" for d in ctx.where(Delivery, order_id=o.id)):
        raise Conflict(f"order {o.id} already has a delivery scheduled", field="order_id", hint="use that one")
    return ctx.create(Delivery, order_id=o.id, scheduled_for=scheduled_for)


@service.tool(
    intent="complete the delivery",
    write=True,
    example=first_example(
        Delivery,
        "delivery_id",
        where={"status": "scheduled"},
        match=lambda c, d: d.scheduled_for <= c.today(),
        serial_number="CPAP-55120-A",
        signed_by="Ruth Ames",
    ),
)
def complete_delivery(ctx: Ctx, delivery_id: DeliveryId, serial_number: Serial, signed_by: PersonName) -> Delivery:
    """Deliver a scheduled delivery due today or earlier, with the serial and the proof-of-delivery signature.

    The order is delivered; a rental item starts its capped rental.

    Args:
        delivery_id: A scheduled delivery.
        serial_number: The unit delivered.
        signed_by: Who signed for it.
    """
    d = ctx.get(Delivery, delivery_id, field="delivery_id")
    if d.status != "scheduled" or d.scheduled_for > ctx.today():
        raise RuleViolation(
            f"delivery {d.id} is {d.status} for {d.scheduled_for}",
            field="delivery_id",
            hint="complete a scheduled delivery on or after its day",
        )
    if ctx.first(Rental, serial_number=serial_number) is not None:
        raise Conflict(f"serial {serial_number} is already out on rental", field="serial_number", hint="check it")
    o = ctx.get(Order, d.order_id)
    ctx.update(o, status="delivered")
    item = ctx.get(Item, o.item_id)
    if item.rental:
        ctx.create(
            Rental,
            order_id=o.id,
            patient_id=o.patient_id,
            item_id=item.id,
            serial_number=serial_number,
            start_date=ctx.today(),
        )
    return ctx.update(d, status="delivered", serial_number=serial_number, signed_by=signed_by)


@service.tool(
    intent="record the delivery as failed",
    write=True,
    example=first_example(Delivery, "delivery_id", where={"status": "scheduled"}, note="No one home."),
)
def fail_delivery(ctx: Ctx, delivery_id: DeliveryId, note: Text) -> Delivery:
    """Record that a scheduled delivery could not be made; the order stays ready to schedule again.

    Args:
        delivery_id: A scheduled delivery.
        note: Why (required).
    """
    d = ctx.get(Delivery, delivery_id, field="delivery_id")
    if d.status != "scheduled":
        raise RuleViolation(f"delivery {d.id} is {d.status}", field="delivery_id", hint="only scheduled deliveries")
    if not note.strip():
        raise RuleViolation("say why the delivery failed", field="note", hint="write a note")
    return ctx.update(d, status="failed", note=note.strip())


@service.tool(
    intent="bill the rental's month",
    write=True,
    example=first_example(
        Rental,
        "rental_id",
        where={"status": "active"},
        match=lambda c, r: r.last_billed_on is None or add_months(r.last_billed_on, 1) <= c.today(),
    ),
)
def bill_rental_month(ctx: Ctx, rental_id: RentalId) -> Rental:
    """Bill the next month of an active rental, once a month; the 13th month caps it and the patient owns the item.

    Args:
        rental_id: An active rental.
    """
    r = ctx.get(Rental, rental_id, field="rental_id")
    if r.status != "active":
        raise RuleViolation(f"rental {r.id} is {r.status}", field="rental_id", hint="only active rentals bill")
    if r.last_billed_on is not None and add_months(r.last_billed_on, 1) > ctx.today():
        raise Conflict(
            f"this month was billed on {r.last_billed_on}",
            field="rental_id",
            hint=f"bill again from {add_months(r.last_billed_on, 1)}",
        )
    fee = ctx.get(Item, r.item_id).price_cents
    months = r.months_billed + 1
    return ctx.update(
        r,
        months_billed=months,
        last_billed_on=ctx.today(),
        billed_cents=r.billed_cents + fee,
        status="capped" if months >= RENTAL_CAP else "active",
    )


@service.tool(
    intent="schedule the equipment pickup",
    write=True,
    example=lambda ctx: (
        None
        if (r := ctx.first(Rental, status="active")) is None
        else {"rental_id": r.id, "pickup_on": (ctx.today() + dt.timedelta(days=3)).isoformat()}
    ),
)
def schedule_pickup(ctx: Ctx, rental_id: RentalId, pickup_on: Date) -> Rental:
    """Schedule pickup of an active rental (no longer needed); capped items belong to the patient.

    Args:
        rental_id: An active rental.
        pickup_on: The day (not before the rental started).
    """
    r = ctx.get(Rental, rental_id, field="rental_id")
    if r.status != "active":
        raise RuleViolation(
            f"rental {r.id} is {r.status}",
            field="rental_id",
            hint="capped items are the patient's; picked-up ones are done",
        )
    if pickup_on < r.start_date:
        raise RuleViolation("the pickup is before the rental started", field="pickup_on", hint="pick a later day")
    return ctx.update(r, status="pickup_scheduled", pickup_on=pickup_on)


@service.tool(
    intent="complete the equipment pickup",
    write=True,
    example=first_example(Rental, "rental_id", where={"status": "pickup_scheduled"}),
)
def complete_pickup(ctx: Ctx, rental_id: RentalId) -> Rental:
    """Record the item collected from the home; the rental ends.

    Args:
        rental_id: A rental with a pickup scheduled.
    """
    r = ctx.get(Rental, rental_id, field="rental_id")
    if r.status != "pickup_scheduled":
        raise RuleViolation(f"rental {r.id} is {r.status}", field="rental_id", hint="schedule the pickup first")
    return ctx.update(r, status="picked_up")


# -- seed -------------------------------------------------------------------------------------

CATALOG: tuple[tuple[str, str, bool, int, bool], ...] = (
    ("E0260", "Hospital bed, semi-electric, with mattress", True, 14500, True),
    ("E1390", "Oxygen concentrator, 5 L/min", True, 18900, True),
    ("E0601", "CPAP device", True, 9800, False),
    ("K0001", "Standard wheelchair", True, 5200, False),
    ("E0143", "Walker, folding, wheeled", False, 8900, False),
    ("E0163", "Commode chair, stationary", False, 11200, False),
)
DX = ("M62.81", "J44.9", "G47.33", "R26.89", "R26.81", "M62.81")


@service.seeder
def seed(s: SeedContext) -> None:
    """The catalog, consumer patients, orders in every status with CMNs, deliveries, rentals in every stage."""
    pop = s.population
    today = s.now.date()
    cat = [s.create(Item, hcpcs=h, name=n, rental=r, price_cents=c, needs_cmn=cm) for h, n, r, c, cm in CATALOG]
    docs = clinicians(pop)
    keys = {p.key for p, _ in docs}
    people = [p for p in pop.consumers if p.key not in keys][30:40]
    for k, p in enumerate(people):
        pt = s.create(
            Patient,
            name=p.name,
            email=p.email,
            phone=p.phone,
            birth_date=p.birth_date,
            payer=("medicare", "medicaid", "commercial", "medicare", "self_pay")[k % 5],
            active=k != 9,
        )
        if k == 9:
            continue
        item = cat[k % len(cat)]
        doc, _ = docs[k % len(docs)]
        stage = ("rented", "rented", "pending", "ready", "rented", "sold", "pending", "rented", "scheduled")[k]
        o = s.create(
            Order,
            patient_id=pt.id,
            item_id=item.id,
            physician=doc.name,
            physician_npi=provider_npi(k % len(docs)),
            diagnosis=DX[k % len(DX)],
            status={"pending": "pending_documents", "ready": "ready", "scheduled": "ready"}.get(stage, "delivered"),
        )
        if item.needs_cmn:
            signed = stage != "pending"
            s.create(
                Cmn,
                order_id=o.id,
                physician_npi=o.physician_npi,
                sent_on=today - dt.timedelta(days=20 + k),
                signed_on=today - dt.timedelta(days=15) if signed else None,
                length_of_need_months=99 if signed else None,
                status="signed" if signed else "sent",
            )
        if stage == "scheduled":
            s.create(Delivery, order_id=o.id, scheduled_for=today)
        if stage in ("rented", "sold"):
            months = (2, 12, 0, 0, 13, 0, 0, 5)[k]
            start = add_months(today, -months) - dt.timedelta(days=3)
            serial = f"{item.hcpcs}-{40210 + 7 * k}"
            s.create(
                Delivery, order_id=o.id, scheduled_for=start, status="delivered", serial_number=serial, signed_by=p.name
            )
            if item.rental:
                s.create(
                    Rental,
                    order_id=o.id,
                    patient_id=pt.id,
                    item_id=item.id,
                    serial_number=serial,
                    start_date=start,
                    months_billed=months,
                    last_billed_on=add_months(start, months - 1) if months else None,
                    billed_cents=months * item.price_cents,
                    status="capped" if months >= RENTAL_CAP else ("pickup_scheduled" if k == 7 else "active"),
                    pickup_on=today + dt.timedelta(days=2) if k == 7 else None,
                )
