"""Bluewater Freight: freight bookings, shipments, containers, customs documents and milestones.

Modeled on the Flexport API v2 (Booking, Shipment, Container, Document,
Commercial Invoice, Customs Entry, Shipment events/milestones): a shipper's
booking request is confirmed by the forwarder, which opens a shipment with a
master bill of lading (or air waybill) number; full-container ocean shipments
carry containers, each loaded no heavier than its type's payload; a shipment
moves booked → departed → arrived → customs cleared → delivered one milestone
at a time; it cannot depart without its transport document approved (and, for
full containers, without a container), nor clear customs without an approved
commercial invoice and packing list; a commercial invoice names its invoice
number and declared value; documents are reviewed once, a rejection needs a
reason; a booking can be cancelled only until its cargo has departed.
"""

from __future__ import annotations

import datetime as dt
import random
from typing import Annotated, Any, Literal

from pydantic import BaseModel, Field, StringConstraints

from compoworld.engine.context import Ctx
from compoworld.engine.entities import Company
from compoworld.engine.errors import Conflict, NotFound, RuleViolation
from compoworld.engine.records import CREATED, UPDATED, Generated, Record
from compoworld.engine.service import Service
from compoworld.engine.state import SeedContext
from compoworld.engine.types import (
    Cents,
    City,
    CompanyName,
    Country,
    Currency,
    Date,
    DateTime,
    Email,
    FileLink,
    IdOf,
    InvoiceNumber,
    OrderNumber,
    PostalAddress,
    Text,
    TrackingNumber,
)
from compoworld.services.kit.examples import first_example

__all__ = ["service"]

service = Service(
    "freight",
    title="Bluewater Freight",
    category="shipping_logistics",
    modeled_on="Flexport API v2 (Booking, Shipment, Container, Document, Commercial Invoice, Customs Entry, "
    "Shipment milestones)",
    description="International freight forwarding: shippers' booking requests for ocean, air and truck freight, "
    "confirmed shipments with their master bill numbers, containers and their payloads, customs documents and "
    "their review, and the milestones a shipment passes from booking to delivery.",
)

BookingId = Annotated[str, IdOf("freight.booking")]
ShipmentId = Annotated[str, IdOf("freight.shipment")]
ContainerId = Annotated[str, IdOf("freight.container")]
DocumentId = Annotated[str, IdOf("freight.document")]
MilestoneId = Annotated[str, IdOf("freight.milestone")]
ContainerNumber = Annotated[str, StringConstraints(pattern=r"^[A-Z]{4}[0-9]{7}$")]
Kilograms = Annotated[int, Field(ge=1, le=1_000_000)]
Mode = Literal["ocean_fcl", "ocean_lcl", "air", "truck"]
Incoterm = Literal["EXW", "FCA", "FOB", "CIF", "DAP", "DDP"]
BookingStatus = Literal["submitted", "confirmed", "cancelled"]
ShipmentStatus = Literal["booked", "departed", "arrived", "customs_cleared", "delivered", "cancelled"]
ContainerType = Literal["20GP", "40GP", "40HC", "20RF"]
DocKind = Literal["commercial_invoice", "packing_list", "bill_of_lading", "air_waybill", "certificate_of_origin"]
DocStatus = Literal["pending_review", "approved", "rejected"]
MilestoneCode = Literal["departed", "arrived", "customs_cleared", "delivered"]

PAYLOAD_KG: dict[str, int] = {"20GP": 28_000, "40GP": 26_700, "40HC": 26_500, "20RF": 27_000}
"""The most cargo each container type may carry."""
PROGRESS: tuple[str, ...] = ("booked", "departed", "arrived", "customs_cleared", "delivered")
"""The order a shipment moves in."""


class Booking(Record):
    """A shipper's request to move cargo, until the forwarder confirms it into a shipment."""

    id: BookingId
    booking_number: Annotated[str, Generated("sequence", "BKG-{n:06d}")]
    """Booking number."""
    shipper: CompanyName
    """The company sending the cargo."""
    shipper_contact: Email
    """The shipper's contact for this booking."""
    consignee: CompanyName
    """The company receiving the cargo."""
    delivery_address: PostalAddress
    """Where the cargo is delivered."""
    origin_city: City
    """City the cargo leaves from."""
    origin_country: Country
    """Country it leaves from."""
    destination_city: City
    """City it goes to."""
    destination_country: Country
    """Country it goes to."""
    mode: Mode
    """ocean_fcl (full containers), ocean_lcl (shared container), air or truck."""
    incoterm: Incoterm
    """Who pays and carries the risk where (Incoterms 2020)."""
    cargo_description: Text
    """What is shipped."""
    weight_kg: Kilograms
    """Gross weight in kilograms."""
    cargo_ready_date: Date
    """When the cargo can be picked up."""
    po_number: OrderNumber | None = None
    """The buyer's purchase order the cargo is for."""
    status: BookingStatus = "submitted"
    """submitted (awaiting the forwarder), confirmed (a shipment exists) or cancelled."""
    shipment_id: ShipmentId | None = None
    """The shipment opened when the booking was confirmed."""
    created_at: Annotated[DateTime, CREATED]
    """When it was submitted."""


class Shipment(Record):
    """A confirmed movement of cargo, tracked by its master bill of lading or air waybill number."""

    id: ShipmentId
    booking_id: BookingId
    """The booking it came from."""
    master_bill_number: TrackingNumber
    """Master bill of lading (ocean, truck) or air waybill number; tracks the shipment."""
    mode: Mode
    """Transport mode."""
    carrier: CompanyName
    """The ocean line, airline or trucker moving it."""
    shipper: CompanyName
    """Sender."""
    consignee: CompanyName
    """Receiver."""
    origin_city: City
    """Origin."""
    destination_city: City
    """Destination."""
    status: ShipmentStatus = "booked"
    """booked, departed, arrived, customs_cleared, delivered, or cancelled."""
    estimated_departure: Date
    """Planned departure."""
    estimated_arrival: Date
    """Planned arrival."""
    departed_at: DateTime | None = None
    """When it departed."""
    arrived_at: DateTime | None = None
    """When it arrived."""
    delivered_at: DateTime | None = None
    """When it was delivered."""
    updated_at: Annotated[DateTime, UPDATED]
    """When it last changed."""


class Container(Record):
    """A shipping container on a full-container ocean shipment."""

    id: ContainerId
    shipment_id: ShipmentId
    """The shipment."""
    container_number: ContainerNumber
    """ISO 6346 number (owner code and serial), e.g. BWFU1234567; unique."""
    type: ContainerType
    """20GP, 40GP, 40HC (high cube) or 20RF (reefer)."""
    seal_number: Annotated[str, StringConstraints(pattern=r"^[A-Z0-9]{6,12}$")]
    """Seal on the doors."""
    cargo_weight_kg: Kilograms
    """Cargo weight in the container; at most its type's payload."""


class Document(Record):
    """A trade or customs document uploaded for a shipment and its review."""

    id: DocumentId
    shipment_id: ShipmentId
    """The shipment."""
    kind: DocKind
    """commercial_invoice, packing_list, bill_of_lading, air_waybill or certificate_of_origin."""
    file_url: FileLink
    """The stored file."""
    invoice_number: InvoiceNumber | None = None
    """For a commercial invoice: its number."""
    declared_value: Cents | None = None
    """For a commercial invoice: the goods' value, in cents."""
    currency: Currency | None = None
    """Currency of the declared value."""
    status: DocStatus = "pending_review"
    """pending_review, approved or rejected."""
    uploaded_by: Email
    """Who uploaded it."""
    rejection_reason: Text | None = None
    """Why it was rejected."""
    created_at: Annotated[DateTime, CREATED]
    """When it was uploaded."""


class Milestone(Record):
    """A step a shipment passed, with where and when."""

    id: MilestoneId
    shipment_id: ShipmentId
    """The shipment."""
    master_bill_number: TrackingNumber
    """Its master bill number."""
    code: MilestoneCode
    """departed, arrived, customs_cleared or delivered."""
    city: City
    """Where it happened."""
    occurred_at: DateTime
    """When."""
    note: Text = ""
    """Note."""


def _guard_booking(ctx: Ctx, new: Any, old: Any) -> None:
    if old is not None and old.status != "submitted":
        raise RuleViolation(
            f"booking {old.booking_number} is {old.status} and cannot change",
            field="booking_id",
            hint="only submitted bookings can be edited; cancel and rebook instead",
        )
    if new.origin_city.casefold() == new.destination_city.casefold():
        raise RuleViolation(
            "origin and destination are the same city", field="destination_city", hint="give another destination"
        )
    if new.cargo_ready_date < ctx.today():
        raise RuleViolation(
            f"the cargo ready date {new.cargo_ready_date} is in the past",
            field="cargo_ready_date",
            hint=f"give {ctx.today()} or later",
        )
    if new.mode == "air" and new.weight_kg > 100_000:
        raise RuleViolation(
            "air freight bookings take at most 100,000 kg", field="weight_kg", hint="split the cargo or book ocean"
        )


def _guard_container_delete(ctx: Ctx, new: Any, old: Any) -> None:
    shipment = ctx.get(Shipment, old.shipment_id)
    if shipment.status != "booked":
        raise RuleViolation(
            f"shipment {shipment.master_bill_number} has {shipment.status}; its containers are fixed",
            field="container_id",
            hint="containers can only be removed before departure",
        )


bookings = service.resource(
    Booking,
    name="booking",
    plural="bookings",
    prefix="bkg",
    create=(
        "shipper",
        "shipper_contact",
        "consignee",
        "delivery_address",
        "origin_city",
        "origin_country",
        "destination_city",
        "destination_country",
        "mode",
        "incoterm",
        "cargo_description",
        "weight_kg",
        "cargo_ready_date",
        "po_number",
    ),
    filters=("status", "shipper", "consignee", "mode", "po_number", "booking_number"),
    search=("cargo_description", "shipper", "consignee", "booking_number"),
    update=("cargo_description", "weight_kg", "cargo_ready_date", "incoterm", "delivery_address", "po_number"),
    delete=False,
    guard_create=_guard_booking,
    guard_update=_guard_booking,
    title="freight booking",
)
shipments = service.resource(
    Shipment,
    name="shipment",
    plural="shipments",
    prefix="shp",
    create=False,
    filters=("status", "mode", "master_bill_number", "shipper", "consignee", "carrier"),
    search=("shipper", "consignee", "master_bill_number"),
    delete=False,
)
containers = service.resource(
    Container,
    name="container",
    plural="containers",
    prefix="cnt",
    create=False,
    get=False,
    filters=("shipment_id", "container_number", "type"),
    unique=("container_number",),
    guard_delete=_guard_container_delete,
)
documents = service.resource(
    Document,
    name="document",
    plural="documents",
    prefix="doc",
    create=False,
    filters=("shipment_id", "kind", "status", "invoice_number"),
    delete=False,
    title="shipment document",
)
milestones = service.resource(
    Milestone,
    name="milestone",
    plural="milestones",
    prefix="mst",
    create=False,
    get=False,
    filters=("shipment_id", "master_bill_number", "code"),
    delete=False,
)


# -- helpers -----------------------------------------------------------------------------------


def _transport_doc(mode: str) -> str | None:
    return {"air": "air_waybill", "ocean_fcl": "bill_of_lading", "ocean_lcl": "bill_of_lading"}.get(mode)


def _approved(ctx: Ctx, shipment_id: str, kind: str) -> bool:
    return ctx.first(Document, shipment_id=shipment_id, kind=kind, status="approved") is not None


def _missing(ctx: Ctx, shipment: Shipment) -> list[str]:
    """What the shipment still needs for its next milestone."""
    need: list[str] = []
    if shipment.status == "booked":
        doc = _transport_doc(shipment.mode)
        if doc and not _approved(ctx, shipment.id, doc):
            need.append(f"approved {doc}")
        if shipment.mode == "ocean_fcl" and ctx.first(Container, shipment_id=shipment.id) is None:
            need.append("a container")
    elif shipment.status == "arrived":
        for doc in ("commercial_invoice", "packing_list"):
            if not _approved(ctx, shipment.id, doc):
                need.append(f"approved {doc}")
    return need


def _mbl(rng: random.Random, mode: str) -> str:
    """A new master bill number: an air waybill for air freight, else an ocean bill of lading."""
    digits = "".join(str(rng.randint(0, 9)) for _ in range(10))
    return ("176" + digits[:8]) if mode == "air" else ("BWFL" + digits)


# -- examples ----------------------------------------------------------------------------------


def _example_confirm(ctx: Ctx) -> dict[str, Any] | None:
    b = ctx.first(Booking, status="submitted")
    if b is None:
        return None
    dep = max(b.cargo_ready_date, ctx.today()) + dt.timedelta(days=3)
    return {
        "booking_id": b.id,
        "carrier": "Oceanic Star Lines",
        "estimated_departure": dep.isoformat(),
        "estimated_arrival": (dep + dt.timedelta(days=20)).isoformat(),
    }


def _example_upload(ctx: Ctx) -> dict[str, Any] | None:
    s = ctx.first(Shipment, status="booked")
    if s is None:
        return None
    return {
        "shipment_id": s.id,
        "kind": "commercial_invoice",
        "file_url": "https://files.example.com/freight/ci-7781.pdf",
        "uploaded_by": ctx.population.employees[0].email,
        "invoice_number": "CI-2026-7781",
        "declared_value": 4_500_000,
        "currency": "USD",
    }


def _example_milestone(ctx: Ctx) -> dict[str, Any] | None:
    for s in ctx.scan(Shipment):
        if s.status in PROGRESS[:-1] and not _missing(ctx, s):
            nxt = PROGRESS[PROGRESS.index(s.status) + 1]
            city = s.origin_city if nxt == "departed" else s.destination_city
            return {"shipment_id": s.id, "code": nxt, "city": city}
    return None


# -- domain tools ------------------------------------------------------------------------------


@service.tool(intent="confirm the freight booking", write=True, example=_example_confirm)
def confirm_booking(
    ctx: Ctx, booking_id: BookingId, carrier: CompanyName, estimated_departure: Date, estimated_arrival: Date
) -> Shipment:
    """Confirm a submitted booking: open its shipment with a master bill number and the planned schedule.

    The departure cannot be before the cargo is ready, and the arrival must be after the departure.

    Args:
        booking_id: The submitted booking.
        carrier: The ocean line, airline or trucker that will move it.
        estimated_departure: Planned departure date.
        estimated_arrival: Planned arrival date.
    """
    b = ctx.get(Booking, booking_id, field="booking_id")
    if b.status != "submitted":
        raise RuleViolation(
            f"booking {b.booking_number} is {b.status}",
            field="booking_id",
            hint="only submitted bookings are confirmed",
        )
    if estimated_departure < max(b.cargo_ready_date, ctx.today()):
        raise RuleViolation(
            f"departure {estimated_departure} is before the cargo is ready ({b.cargo_ready_date})",
            field="estimated_departure",
            hint=f"plan the departure on or after {max(b.cargo_ready_date, ctx.today())}",
        )
    if estimated_arrival <= estimated_departure:
        raise RuleViolation(
            "the arrival must come after the departure", field="estimated_arrival", hint="give a later arrival date"
        )
    shipment = ctx.create(
        Shipment,
        booking_id=b.id,
        master_bill_number=_mbl(ctx.rng, b.mode),
        mode=b.mode,
        carrier=carrier,
        shipper=b.shipper,
        consignee=b.consignee,
        origin_city=b.origin_city,
        destination_city=b.destination_city,
        estimated_departure=estimated_departure,
        estimated_arrival=estimated_arrival,
    )
    ctx.update(b, status="confirmed", shipment_id=shipment.id)
    return shipment


@service.tool(
    intent="cancel the freight booking",
    write=True,
    destructive=True,
    example=first_example(Booking, "booking_id", where={"status": "submitted"}),
)
def cancel_booking(ctx: Ctx, booking_id: BookingId) -> Booking:
    """Cancel a booking, and its shipment if it has not departed yet.

    Args:
        booking_id: The booking.
    """
    b = ctx.get(Booking, booking_id, field="booking_id")
    if b.status == "cancelled":
        raise Conflict(f"booking {b.booking_number} is already cancelled", field="booking_id", hint="nothing to do")
    if b.shipment_id is not None:
        s = ctx.get(Shipment, b.shipment_id)
        if s.status != "booked":
            raise RuleViolation(
                f"shipment {s.master_bill_number} has {s.status}; the booking can no longer be cancelled",
                field="booking_id",
                hint="cargo that has departed is delivered; arrange a return booking instead",
            )
        ctx.update(s, status="cancelled")
    return ctx.update(b, status="cancelled")


@service.tool(
    intent="load a container onto the shipment",
    write=True,
    example=first_example(
        Shipment,
        "shipment_id",
        where={"mode": "ocean_fcl", "status": "booked"},
        container_number="BWFU7654321",
        type="40HC",
        seal_number="SL884411",
        cargo_weight_kg=12_000,
    ),
)
def add_container(
    ctx: Ctx,
    shipment_id: ShipmentId,
    container_number: ContainerNumber,
    type: ContainerType,
    seal_number: Annotated[str, StringConstraints(pattern=r"^[A-Z0-9]{6,12}$")],
    cargo_weight_kg: Kilograms,
) -> Container:
    """Add a loaded container to a full-container ocean shipment before it departs.

    The cargo weight cannot exceed the container type's payload (20GP 28,000 kg,
    40GP 26,700 kg, 40HC 26,500 kg, 20RF 27,000 kg).

    Args:
        shipment_id: The ocean_fcl shipment.
        container_number: ISO 6346 container number; unique.
        type: Container type.
        seal_number: Seal on the doors.
        cargo_weight_kg: Cargo weight loaded, in kg.
    """
    s = ctx.get(Shipment, shipment_id, field="shipment_id")
    if s.mode != "ocean_fcl":
        raise RuleViolation(
            f"shipment {s.master_bill_number} is {s.mode}; only full-container ocean shipments have containers",
            field="shipment_id",
            hint="add containers to an ocean_fcl shipment",
        )
    if s.status != "booked":
        raise RuleViolation(
            f"shipment {s.master_bill_number} has {s.status}",
            field="shipment_id",
            hint="load containers before departure",
        )
    limit = PAYLOAD_KG[type]
    if cargo_weight_kg > limit:
        raise RuleViolation(
            f"a {type} container carries at most {limit} kg; {cargo_weight_kg} were loaded",
            field="cargo_weight_kg",
            hint="split the cargo over more containers or use a larger type",
        )
    return ctx.create(
        Container,
        shipment_id=s.id,
        container_number=container_number,
        type=type,
        seal_number=seal_number,
        cargo_weight_kg=cargo_weight_kg,
    )


@service.tool(intent="upload a document for the shipment", write=True, example=_example_upload)
def upload_document(
    ctx: Ctx,
    shipment_id: ShipmentId,
    kind: DocKind,
    file_url: FileLink,
    uploaded_by: Email,
    invoice_number: InvoiceNumber | None = None,
    declared_value: Cents | None = None,
    currency: Currency | None = None,
) -> Document:
    """Upload a trade document for a shipment; it waits for review.

    A commercial invoice needs its invoice number, declared value and currency.

    Args:
        shipment_id: The shipment.
        kind: Which document.
        file_url: Link to the stored file.
        uploaded_by: Who uploads it.
        invoice_number: For a commercial invoice: its number.
        declared_value: For a commercial invoice: the goods' value, in cents.
        currency: For a commercial invoice: the currency of the value.
    """
    s = ctx.get(Shipment, shipment_id, field="shipment_id")
    if s.status in ("delivered", "cancelled"):
        raise RuleViolation(
            f"shipment {s.master_bill_number} is {s.status}", field="shipment_id", hint="its file is closed"
        )
    if kind == "commercial_invoice":
        for name, value in (
            ("invoice_number", invoice_number),
            ("declared_value", declared_value),
            ("currency", currency),
        ):
            if value is None:
                raise RuleViolation(
                    f"a commercial invoice needs its {name.replace('_', ' ')}",
                    field=name,
                    hint="pass invoice_number, declared_value and currency",
                )
    return ctx.create(
        Document,
        shipment_id=s.id,
        kind=kind,
        file_url=file_url,
        invoice_number=invoice_number,
        declared_value=declared_value,
        currency=currency,
        uploaded_by=uploaded_by,
    )


@service.tool(
    intent="approve or reject the shipment document",
    write=True,
    example=first_example(Document, "document_id", where={"status": "pending_review"}, decision="approve"),
)
def review_document(
    ctx: Ctx, document_id: DocumentId, decision: Literal["approve", "reject"], reason: Text = ""
) -> Document:
    """Approve or reject an uploaded document; a rejection needs a reason and a new upload follows.

    Args:
        document_id: The document pending review.
        decision: approve or reject.
        reason: Why it is rejected.
    """
    d = ctx.get(Document, document_id, field="document_id")
    if d.status != "pending_review":
        raise Conflict(
            f"document {d.id} was already {d.status}", field="document_id", hint="upload a new version to review again"
        )
    if decision == "reject":
        if not reason.strip():
            raise RuleViolation(
                "a rejection needs a reason", field="reason", hint="say what is wrong with the document"
            )
        return ctx.update(d, status="rejected", rejection_reason=reason.strip())
    return ctx.update(d, status="approved")


@service.tool(intent="record the shipment's next milestone", write=True, example=_example_milestone)
def record_milestone(ctx: Ctx, shipment_id: ShipmentId, code: MilestoneCode, city: City, note: Text = "") -> Milestone:
    """Record the next milestone of a shipment (departed, arrived, customs_cleared, delivered, in that order).

    Departure needs the approved transport document (bill of lading or air
    waybill) and, for full containers, a container; customs clearance needs
    an approved commercial invoice and packing list.

    Args:
        shipment_id: The shipment.
        code: The milestone reached; must be the next one.
        city: Where it happened.
        note: Note.
    """
    s = ctx.get(Shipment, shipment_id, field="shipment_id")
    if s.status == "cancelled":
        raise RuleViolation(
            f"shipment {s.master_bill_number} is cancelled", field="shipment_id", hint="cancelled shipments do not move"
        )
    if s.status == "delivered":
        raise RuleViolation(
            f"shipment {s.master_bill_number} is delivered", field="shipment_id", hint="delivered shipments are final"
        )
    expected = PROGRESS[PROGRESS.index(s.status) + 1]
    if code != expected:
        raise RuleViolation(
            f"shipment {s.master_bill_number} is {s.status}; its next milestone is {expected}, not {code}",
            field="code",
            hint=f"record {expected} first",
        )
    need = _missing(ctx, s)
    if need:
        raise RuleViolation(
            f"shipment {s.master_bill_number} cannot be {code} without {' and '.join(need)}",
            field="shipment_id",
            hint="upload the documents (freight__upload_document), get them approved, add containers, then retry",
        )
    stamp = {"departed": "departed_at", "arrived": "arrived_at", "delivered": "delivered_at"}
    changes: dict[str, Any] = {"status": code}
    if code in stamp:
        changes[stamp[code]] = ctx.now()
    ctx.update(s, **changes)
    return ctx.create(
        Milestone,
        shipment_id=s.id,
        master_bill_number=s.master_bill_number,
        code=code,
        city=city,
        occurred_at=ctx.now(),
        note=note,
    )


class Tracking(BaseModel):
    """Where a shipment is and what it still needs."""

    shipment: Shipment = Field(description="The shipment.")
    booking_number: str = Field(description="Its booking's number.")
    po_number: OrderNumber | None = Field(description="The purchase order it carries.")
    milestones: list[Milestone] = Field(description="Milestones so far, oldest first.")
    containers: list[Container] = Field(description="Its containers.")
    total_container_weight_kg: int = Field(description="Cargo weight over its containers, in kg.")
    next_milestone: MilestoneCode | None = Field(description="The milestone it reaches next; null when done.")
    blocking: list[str] = Field(description="What must happen before the next milestone.")


@service.tool(
    intent="track the freight shipment",
    example=first_example(Shipment, fields={"master_bill_number": "master_bill_number"}),
)
def track_shipment(ctx: Ctx, master_bill_number: TrackingNumber) -> Tracking:
    """Track a shipment by its master bill of lading or air waybill number.

    Args:
        master_bill_number: The master bill number.
    """
    s = ctx.first(Shipment, master_bill_number=master_bill_number)
    if s is None:
        raise NotFound(
            f"no shipment with master bill number {master_bill_number}",
            field="master_bill_number",
            hint="list shipments with freight__list_shipments",
        )
    b = ctx.get(Booking, s.booking_id)
    boxes = ctx.where(Container, shipment_id=s.id)
    done = s.status in ("delivered", "cancelled")
    return Tracking(
        shipment=s,
        booking_number=b.booking_number,
        po_number=b.po_number,
        milestones=sorted(ctx.where(Milestone, shipment_id=s.id), key=lambda m: (m.occurred_at, m.id)),
        containers=boxes,
        total_container_weight_kg=sum(c.cargo_weight_kg for c in boxes),
        next_milestone=None if done else PROGRESS[PROGRESS.index(s.status) + 1],
        blocking=[] if done else _missing(ctx, s),
    )


# -- seed --------------------------------------------------------------------------------------

_DAY = dt.timedelta(days=1)
CARRIERS: dict[str, tuple[str, ...]] = {
    "ocean_fcl": ("Oceanic Star Lines", "Blue Anchor Shipping"),
    "ocean_lcl": ("Oceanic Star Lines", "Harbor Consolidators"),
    "air": ("Skybridge Cargo", "Northwind Air Freight"),
    "truck": ("Continental Haulage", "Roadrunner Freight"),
}
REGIONS: tuple[set[str], ...] = ({"DE", "FR", "ES", "IT", "NL", "SE", "GB"}, {"US", "CA"})
"""Countries trucks drive between."""
GOODS = ("Consumer electronics", "Office furniture", "Kitchen appliances", "Outdoor gear", "Apparel", "Spare parts")
STAGES: tuple[BookingStatus | ShipmentStatus, ...] = (
    "submitted",
    "booked",
    "departed",
    "arrived",
    "customs_cleared",
    "delivered",
    "cancelled",
    "booked",
    "arrived",
    "submitted",
    "departed",
    "delivered",
    "booked",
    "submitted",
)
"""How far each seeded booking got: its own status, or its shipment's once confirmed."""
MODES: tuple[Mode, ...] = ("ocean_fcl", "air", "ocean_lcl", "truck", "ocean_fcl", "air")
"""The mode of each seeded booking, in turn (trucks only within a region, else LCL)."""


@service.seeder
def seed(s: SeedContext) -> None:
    """Imports from the population's suppliers and exports to its customers, at every stage of the journey."""
    pop = s.population
    home = pop.home
    ops = pop.staff("Operations")
    partners = [
        (c, p) for c in pop.customers if (p := pop.first_contact(c)) is not None and c.place.city != home.place.city
    ]
    for i, stage in enumerate(STAGES):
        partner, partner_contact = partners[i % len(partners)]
        importing = i % 3 != 2
        shipper, consignee = (partner, home) if importing else (home, partner)
        contact = partner_contact.email if importing else ops[i % len(ops)].email
        booking = _seed_booking(s, i, stage, shipper, consignee, contact)
        if stage in ("submitted", "cancelled"):
            continue
        shipment = _seed_shipment(s, i, stage, booking)
        if shipment.mode == "ocean_fcl":
            _seed_containers(s, i, shipment, booking.weight_kg)
        _seed_documents(s, i, shipment, ops[i % len(ops)].email, shipper.place.currency, booking.created_at)
        _seed_milestones(s, shipment, booking.created_at)


def _seed_booking(
    s: SeedContext, i: int, stage: str, shipper: Company, consignee: Company, shipper_contact: str
) -> Booking:
    """The ``i``-th booking, submitted 40 - ``i`` days ago; confirmed unless ``stage`` says otherwise."""
    mode: Mode = MODES[i % len(MODES)]
    if mode == "truck" and not any({shipper.place.country, consignee.place.country} <= r for r in REGIONS):
        mode = "ocean_lcl"
    today = s.now.date()
    return s.create(
        Booking,
        shipper=shipper.name,
        shipper_contact=shipper_contact,
        consignee=consignee.name,
        delivery_address=consignee.address,
        origin_city=shipper.place.city,
        origin_country=shipper.place.country,
        destination_city=consignee.place.city,
        destination_country=consignee.place.country,
        mode=mode,
        incoterm=("FOB", "CIF", "DAP", "EXW", "DDP", "FCA")[i % 6],
        cargo_description=GOODS[i % len(GOODS)],
        weight_kg=(2_400 if mode == "air" else 18_000) + 130 * i,
        cargo_ready_date=today + (5 + i) * _DAY if stage == "submitted" else today - (30 - i) * _DAY,
        po_number=f"PO-{4100 + i}" if shipper is not s.population.home else None,
        status="submitted" if stage == "submitted" else "cancelled" if stage == "cancelled" else "confirmed",
        created_at=s.ago(days=40 - i),
    )


def _seed_shipment(s: SeedContext, i: int, stage: str, booking: Booking) -> Shipment:
    """The shipment of a confirmed booking, at ``stage``; the booking is linked to it."""
    created = booking.created_at
    today = s.now.date()
    dep = booking.cargo_ready_date + 2 * _DAY if stage != "booked" else today + (3 + i) * _DAY
    transit = {"air": 3, "truck": 4}.get(booking.mode, 24)
    reached = PROGRESS.index(stage)
    shipment = s.create(
        Shipment,
        booking_id=booking.id,
        master_bill_number=_mbl(s.rng, booking.mode),
        mode=booking.mode,
        carrier=CARRIERS[booking.mode][i % 2],
        shipper=booking.shipper,
        consignee=booking.consignee,
        origin_city=booking.origin_city,
        destination_city=booking.destination_city,
        status=stage,
        estimated_departure=dep,
        estimated_arrival=dep + transit * _DAY,
        departed_at=created + 10 * _DAY if reached >= 1 else None,
        arrived_at=created + 20 * _DAY if reached >= 2 else None,
        delivered_at=created + 25 * _DAY if reached >= 4 else None,
        updated_at=created + (2 + 5 * reached) * _DAY,
    )
    s.update(booking, shipment_id=shipment.id)
    return shipment


def _seed_containers(s: SeedContext, i: int, shipment: Shipment, weight_kg: int) -> None:
    """One or two sealed containers sharing the booked weight."""
    for k in range(1 + i % 2):
        s.create(
            Container,
            shipment_id=shipment.id,
            container_number=f"BWFU{1000000 + i * 10 + k:07d}",
            type=("40HC", "20GP")[k],
            seal_number=f"SL{i:02d}{k}{s.rng.randint(1000, 9999)}",
            cargo_weight_kg=weight_kg // (1 + i % 2),
        )


def _seed_documents(
    s: SeedContext, i: int, shipment: Shipment, uploader: str, currency: str, created: dt.datetime
) -> None:
    """The transport document, commercial invoice and packing list, approved as far as the shipment got."""
    reached = PROGRESS.index(shipment.status)
    transport = _transport_doc(shipment.mode)
    docs: list[tuple[str, str]] = []
    if transport:
        docs.append((transport, "approved" if reached >= 1 else "pending_review"))
    docs.append(("commercial_invoice", "approved" if reached >= 3 else "pending_review"))
    docs.append(("packing_list", "approved" if reached >= 3 else ("rejected" if i % 4 == 3 else "pending_review")))
    for kind, status in docs:
        s.create(
            Document,
            shipment_id=shipment.id,
            kind=kind,
            file_url=f"https://files.example.com/freight/{shipment.master_bill_number}-{kind}.pdf",
            invoice_number=f"CI-2026-{1000 + i}" if kind == "commercial_invoice" else None,
            declared_value=(45_000_00 + 1_250_00 * i) if kind == "commercial_invoice" else None,
            currency=currency if kind == "commercial_invoice" else None,
            status=status,
            uploaded_by=uploader,
            rejection_reason="Carton count does not match the invoice" if status == "rejected" else None,
            created_at=created + _DAY,
        )


def _seed_milestones(s: SeedContext, shipment: Shipment, created: dt.datetime) -> None:
    """One milestone per stage the shipment has passed, five days apart."""
    reached = PROGRESS.index(shipment.status)
    for k, code in enumerate(PROGRESS[1 : reached + 1]):
        s.create(
            Milestone,
            shipment_id=shipment.id,
            master_bill_number=shipment.master_bill_number,
            code=code,
            city=shipment.origin_city if code == "departed" else shipment.destination_city,
            occurred_at=created + (10 + 5 * k) * _DAY,
        )
