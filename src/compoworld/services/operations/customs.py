"""Borderline Customs: customs brokerage for the company's imports, from commercial invoice to release.

Modeled on the Descartes Customs Filing / Flexport customs API (and the U.S. CBP ACE
entry summary it files): importers of record with their customs bond; an HTS
tariff table (general duty rate, Section 301 surcharge on goods of Chinese
origin); product classifications a broker proposes and approves; commercial
invoices with lines (SKU, HTS code, country of origin, quantity, unit value,
currency and exchange rate); and entries (type 01 formal consumption, 11
informal) that go draft → filed → accepted → released → liquidated, with holds
(CBP exam, FDA, USDA, documents) that put an accepted entry on hold until every
hold is released. Filing needs an importer with a live bond, at least one
invoice whose lines all carry a known HTS code, and an informal entry stays
under USD 2,500; duties are the lines' duty plus merchandise processing fee
(0.3464 %, min $32.71, max $634.62) and harbor maintenance fee (0.125 %, ocean
only); an entry is released only with its duties paid and no open hold.
"""

from __future__ import annotations

import datetime as dt
from typing import Annotated, Any, Literal

from pydantic import Field, StringConstraints

from compoworld.engine.context import Ctx
from compoworld.engine.errors import Conflict, RuleViolation
from compoworld.engine.records import CREATED, UPDATED, Generated, Record
from compoworld.engine.service import Service, Transition
from compoworld.engine.state import SeedContext
from compoworld.engine.types import (
    Cents,
    CompanyName,
    Country,
    Currency,
    Date,
    DateTime,
    Email,
    IdOf,
    InvoiceNumber,
    Quantity,
    SemanticType,
    Sku,
    Text,
    Title,
    TrackingNumber,
)
from compoworld.services.kit.examples import first_example
from compoworld.services.kit.records import Value
from compoworld.services.operations._shared import require_staff

__all__ = ["service"]

service = Service(
    "customs",
    title="Borderline Customs",
    category="customs_trade",
    modeled_on="Descartes Customs Filing / Flexport customs API (importers of record, HTS classification, "
    "commercial invoices, entries 01/11, duties, MPF/HMF, CBP holds and releases, liquidation)",
    description="Customs brokerage for the company's imports: importers of record and their bonds, the HTS "
    "tariff table, product classifications, commercial invoices and their lines, customs entries with their "
    "duties and fees, holds by customs and partner agencies, duty payment, release and liquidation.",
)

ImporterId = Annotated[str, IdOf("customs.importer")]
TariffId = Annotated[str, IdOf("customs.tariff_line")]
ClassificationId = Annotated[str, IdOf("customs.classification")]
InvoiceId = Annotated[str, IdOf("customs.commercial_invoice")]
EntryId = Annotated[str, IdOf("customs.entry")]
HoldId = Annotated[str, IdOf("customs.hold")]

HtsCode = Annotated[
    str, SemanticType("customs.hts_code", kind="ref"), StringConstraints(pattern=r"^\d{4}\.\d{2}\.\d{4}$")
]
"""A 10-digit HTS code written 8471.30.0100."""
IorNumber = Annotated[
    str, SemanticType("customs.ior_number", kind="ref"), StringConstraints(pattern=r"^\d{2}-[0-9A-Z-]{7,16}$")
]
"""An importer of record number (EIN plus suffix), e.g. 12-3456789AA."""
EntryNumber = Annotated[
    str, SemanticType("customs.entry_number", kind="ref"), StringConstraints(pattern=r"^[A-Z0-9]{3}-\d{7}-\d$")
]
"""A customs entry number: filer code, serial and check digit."""
PortCode = Annotated[str, SemanticType("customs.port_code", kind="ref"), StringConstraints(pattern=r"^\d{4}$")]
"""A CBP port code (4 digits, e.g. 2704 Los Angeles)."""
Rate = Annotated[float, Field(ge=0, le=100)]
"""A duty rate in percent."""

BondType = Literal["continuous", "single"]
EntryType = Literal["01", "11"]
EntryStatus = Literal["draft", "filed", "accepted", "on_hold", "released", "liquidated", "cancelled"]
Mode = Literal["ocean", "air", "truck"]
HoldType = Literal["cbp_exam", "fda", "usda", "documents"]

INFORMAL_LIMIT = 250_000
MPF_RATE, MPF_MIN, MPF_MAX = 0.003464, 3271, 63462
INFORMAL_MPF = 262
HMF_RATE = 0.00125


class Importer(Record):
    """An importer of record the broker files for, with its customs bond."""

    id: ImporterId
    name: CompanyName
    """The importing company."""
    ior_number: IorNumber
    """Importer of record number (unique)."""
    contact_email: Email
    """Who receives entry notices."""
    bond_type: BondType = "continuous"
    """continuous (all entries of a year) or single (one entry)."""
    bond_amount: Cents = 5_000_000
    """Bond amount in cents (USD)."""
    bond_expires_on: Date
    """The last day the bond covers."""
    created_at: Annotated[DateTime, CREATED]
    """When it was added."""


class TariffLine(Record):
    """A line of the Harmonized Tariff Schedule."""

    id: TariffId
    hts_code: HtsCode
    """The HTS code (unique)."""
    description: Title
    """What the heading covers."""
    general_rate: Rate
    """General (MFN) duty rate, percent."""
    section_301_rate: Rate = 0.0
    """Additional duty on goods of Chinese origin, percent."""
    pga: Literal["none", "fda", "usda"] = "none"
    """The partner agency that regulates it."""


class Classification(Record):
    """A product's HTS classification for an importer, proposed by a broker and approved."""

    id: ClassificationId
    importer_id: ImporterId
    """The importer."""
    sku: Sku
    """The product."""
    description: Title
    """The product as described on invoices."""
    hts_code: HtsCode
    """The code chosen."""
    country_of_origin: Country
    """Where it is made."""
    status: Literal["proposed", "approved", "rejected"] = "proposed"
    """proposed → approved or rejected."""
    classified_by: Email
    """The broker (an employee) who classified it."""
    created_at: Annotated[DateTime, CREATED]
    """When it was proposed."""


class InvoiceLine(Value):
    """One line of a commercial invoice."""

    sku: Sku = Field(description="The product.")
    description: Title = Field(description="The goods.")
    hts_code: HtsCode = Field(description="The HTS code.")
    country_of_origin: Country = Field(description="Where the goods were made.")
    quantity: Quantity = Field(description="Units.")
    unit_value: Cents = Field(description="Value per unit in the invoice's currency, in cents.")


class CommercialInvoice(Record):
    """A seller's commercial invoice for goods imported by an importer."""

    id: InvoiceId
    importer_id: ImporterId
    """The importer."""
    invoice_number: InvoiceNumber
    """The seller's invoice number."""
    seller_name: CompanyName
    """The seller (foreign supplier)."""
    seller_country: Country
    """The seller's country."""
    currency: Currency = "USD"
    """The invoice's currency."""
    exchange_rate: Annotated[float, Field(gt=0, le=1000)] = 1.0
    """USD per unit of the currency."""
    incoterm: Literal["EXW", "FOB", "FCA", "CIF", "DAP", "DDP"] = "FOB"
    """The delivery terms."""
    lines: tuple[InvoiceLine, ...] = ()
    """The goods."""
    entry_id: EntryId | None = None
    """The entry it is filed on."""
    created_at: Annotated[DateTime, CREATED]
    """When it was received."""


class Entry(Record):
    """A customs entry for one arrival of goods."""

    id: EntryId
    entry_number: Annotated[EntryNumber, Generated("sequence", "BRL-{n:07d}-4")]
    """The entry number."""
    importer_id: ImporterId
    """The importer of record."""
    entry_type: EntryType = "01"
    """01 formal consumption entry, 11 informal (under USD 2,500)."""
    mode: Mode
    """ocean, air or truck."""
    port_code: PortCode
    """The port of entry."""
    master_bill_number: TrackingNumber
    """The master bill of lading or air waybill the goods arrive under."""
    arrival_date: Date
    """When the goods arrive."""
    status: EntryStatus = "draft"
    """draft → filed → accepted (↔ on_hold) → released → liquidated; cancelled."""
    entered_value: Cents = 0
    """Customs value in USD cents, set when filed."""
    duty: Cents = 0
    """Duties, set when filed."""
    mpf: Cents = 0
    """Merchandise processing fee."""
    hmf: Cents = 0
    """Harbor maintenance fee."""
    total_due: Cents = 0
    """Duty plus fees."""
    paid: bool = False
    """Whether duties are paid."""
    filer_email: Email
    """The broker (an employee) handling it."""
    filed_at: DateTime | None = None
    """When it was filed."""
    released_at: DateTime | None = None
    """When customs released the goods."""
    updated_at: Annotated[DateTime, UPDATED]
    """When it last changed."""


class Hold(Record):
    """A hold customs or a partner agency put on an entry."""

    id: HoldId
    entry_id: EntryId
    """The entry."""
    hold_type: HoldType
    """cbp_exam, fda, usda or documents."""
    reason: Text
    """Why."""
    status: Literal["open", "released"] = "open"
    """open → released."""
    placed_at: Annotated[DateTime, CREATED]
    """When it was placed."""
    released_at: DateTime | None = None
    """When it was released."""


class DutyLine(Value):
    """The duty of one invoice line."""

    sku: Sku
    hts_code: HtsCode
    value: Cents
    rate: Rate
    duty: Cents


class DutyEstimate(Value):
    """An entry's duties and fees, line by line."""

    entry_id: EntryId
    entered_value: Cents
    lines: tuple[DutyLine, ...]
    duty: Cents
    mpf: Cents
    hmf: Cents
    total_due: Cents


# -- rules ------------------------------------------------------------------------------------


def _tariff(ctx: Ctx, code: str, field: str) -> TariffLine:
    line = ctx.first(TariffLine, hts_code=code)
    if line is None:
        raise RuleViolation(
            f"HTS code {code} is not in the tariff table",
            field=field,
            hint="find the code with customs__list_tariff_lines",
        )
    return line


def _guard_classification(ctx: Ctx, new: Any, old: Any) -> None:
    if old is None:
        ctx.get(Importer, new.importer_id, field="importer_id")
        _tariff(ctx, new.hts_code, "hts_code")
        require_staff(ctx, new.classified_by, "classified_by")
        for c in ctx.where(Classification, importer_id=new.importer_id, sku=new.sku):
            if c.status != "rejected" and c.id != new.id:
                raise Conflict(
                    f"{new.sku} already has classification {c.id} ({c.status})",
                    field="sku",
                    hint="reject the existing classification first",
                )


def _guard_invoice_create(ctx: Ctx, new: Any, old: Any) -> None:
    ctx.get(Importer, new.importer_id, field="importer_id")
    if ctx.first(CommercialInvoice, importer_id=new.importer_id, invoice_number=new.invoice_number) not in (None, new):
        raise Conflict(
            f"invoice {new.invoice_number} is already recorded for this importer",
            field="invoice_number",
            hint="find it with customs__list_commercial_invoices",
        )


def _guard_invoice_delete(ctx: Ctx, new: Any, old: Any) -> None:
    rec = old if old is not None else new
    if rec.entry_id is not None:
        raise RuleViolation(
            f"invoice {rec.invoice_number} is on entry {rec.entry_id}",
            field="commercial_invoice_id",
            hint="cancel the entry first",
        )


def _guard_entry(ctx: Ctx, new: Any, old: Any) -> None:
    if old is None:
        ctx.get(Importer, new.importer_id, field="importer_id")
        require_staff(ctx, new.filer_email, "filer_email")


importers = service.resource(
    Importer,
    name="importer",
    plural="importers",
    prefix="ior",
    create=("name", "ior_number", "contact_email", "bond_type", "bond_amount", "bond_expires_on"),
    filters=("bond_type", "ior_number"),
    search=("name",),
    update=("contact_email", "bond_type", "bond_amount", "bond_expires_on"),
    delete=False,
    unique=("ior_number",),
    title="importer of record",
)
tariff_lines = service.resource(
    TariffLine,
    name="tariff_line",
    plural="tariff_lines",
    prefix="hts",
    create=False,
    filters=("hts_code", "pga"),
    search=("description", "hts_code"),
    delete=False,
    unique=("hts_code",),
    title="tariff line",
)
classifications = service.resource(
    Classification,
    name="classification",
    plural="classifications",
    prefix="cls",
    create=("importer_id", "sku", "description", "hts_code", "country_of_origin", "classified_by"),
    get=False,
    filters=("importer_id", "sku", "status", "hts_code"),
    search=("description", "sku"),
    delete=False,
    transitions={
        "approve": Transition("status", ("proposed",), "approved", "approve the classification"),
        "reject": Transition("status", ("proposed", "approved"), "rejected", "reject the classification"),
    },
    guard_create=_guard_classification,
)
invoices = service.resource(
    CommercialInvoice,
    name="commercial_invoice",
    plural="commercial_invoices",
    prefix="ci",
    create=("importer_id", "invoice_number", "seller_name", "seller_country", "currency", "exchange_rate", "incoterm"),
    filters=("importer_id", "invoice_number", "seller_name", "entry_id"),
    search=("invoice_number", "seller_name"),
    delete=True,
    guard_create=_guard_invoice_create,
    guard_delete=_guard_invoice_delete,
    title="commercial invoice",
)
entries = service.resource(
    Entry,
    name="entry",
    plural="entries",
    prefix="ent",
    create=("importer_id", "entry_type", "mode", "port_code", "master_bill_number", "arrival_date", "filer_email"),
    filters=("importer_id", "status", "entry_type", "mode", "port_code", "entry_number", "filer_email"),
    search=("entry_number", "master_bill_number"),
    delete=False,
    transitions={
        "liquidate": Transition(
            "status",
            ("released",),
            "liquidated",
            "liquidate the entry",
            description="Liquidate a released entry: customs finalizes its duties.",
            destructive=True,
        ),
    },
    guard_create=_guard_entry,
)
holds = service.resource(
    Hold,
    name="hold",
    plural="holds",
    prefix="hold",
    create=False,
    get=False,
    filters=("entry_id", "hold_type", "status"),
    delete=False,
)


def _entry_in(ctx: Ctx, entry_id: str, *statuses: str) -> Entry:
    entry = ctx.get(Entry, entry_id, field="entry_id")
    if entry.status not in statuses:
        raise RuleViolation(
            f"entry {entry.entry_number} is {entry.status}",
            field="entry_id",
            hint=f"this needs an entry that is {' or '.join(statuses)}",
        )
    return entry


def _estimate(entry: Entry, invoices: list[CommercialInvoice], table: dict[str, TariffLine]) -> DutyEstimate:
    """Duty per line (general rate, plus Section 301 for Chinese origin), MPF and HMF of an entry's invoices."""
    out: list[DutyLine] = []
    for inv in invoices:
        for line in inv.lines:
            tl = table.get(line.hts_code)
            rate = (
                0.0 if tl is None else tl.general_rate + (tl.section_301_rate if line.country_of_origin == "CN" else 0)
            )
            value = round(line.quantity * line.unit_value * inv.exchange_rate)
            out.append(
                DutyLine(sku=line.sku, hts_code=line.hts_code, value=value, rate=rate, duty=round(value * rate / 100))
            )
    value = sum(d.value for d in out)
    mpf = INFORMAL_MPF if entry.entry_type == "11" else min(max(round(value * MPF_RATE), MPF_MIN), MPF_MAX)
    hmf = round(value * HMF_RATE) if entry.mode == "ocean" else 0
    duty = sum(d.duty for d in out)
    return DutyEstimate(
        entry_id=entry.id,
        entered_value=value,
        lines=tuple(out),
        duty=duty,
        mpf=mpf,
        hmf=hmf,
        total_due=duty + mpf + hmf,
    )


def _estimate_entry(ctx: Ctx, entry: Entry) -> DutyEstimate:
    table = {t.hts_code: t for t in ctx.scan(TariffLine)}
    return _estimate(entry, ctx.where(CommercialInvoice, entry_id=entry.id), table)


# -- domain tools -----------------------------------------------------------------------------


def _example_line(ctx: Ctx) -> dict[str, Any] | None:
    inv = next((i for i in ctx.scan(CommercialInvoice) if i.entry_id is None), None)
    tl = ctx.first(TariffLine, pga="none")
    if inv is None or tl is None:
        return None
    return {
        "commercial_invoice_id": inv.id,
        "sku": "CW-NEW-001",
        "description": "Aluminium enclosure",
        "hts_code": tl.hts_code,
        "country_of_origin": "VN",
        "quantity": 40,
        "unit_value": 1250,
    }


@service.tool(intent="add a line to the commercial invoice", write=True, example=_example_line)
def add_invoice_line(
    ctx: Ctx,
    commercial_invoice_id: InvoiceId,
    sku: Sku,
    description: Title,
    hts_code: HtsCode,
    country_of_origin: Country,
    quantity: Quantity,
    unit_value: Cents,
) -> CommercialInvoice:
    """Add goods to an invoice not yet filed on an entry; the HTS code must be in the tariff table.

    Args:
        commercial_invoice_id: The invoice.
        sku: The product.
        description: The goods.
        hts_code: The HTS code (e.g. 8471.30.0100).
        country_of_origin: Where the goods were made (ISO code).
        quantity: Units, at least 1.
        unit_value: Value per unit in the invoice's currency, in cents; at least 1.
    """
    inv = ctx.get(CommercialInvoice, commercial_invoice_id, field="commercial_invoice_id")
    _guard_invoice_delete(ctx, inv, None)
    _tariff(ctx, hts_code, "hts_code")
    if quantity < 1 or unit_value < 1:
        raise RuleViolation(
            "a line needs a quantity and a value",
            field="quantity" if quantity < 1 else "unit_value",
            hint="use 1 or more",
        )
    if any(line.sku == sku for line in inv.lines):
        raise Conflict(f"{sku} is already on invoice {inv.invoice_number}", field="sku", hint="remove the line first")
    line = InvoiceLine(
        sku=sku,
        description=description,
        hts_code=hts_code,
        country_of_origin=country_of_origin,
        quantity=quantity,
        unit_value=unit_value,
    )
    return ctx.update(inv, lines=(*inv.lines, line))


def _example_remove_line(ctx: Ctx) -> dict[str, Any] | None:
    for inv in ctx.scan(CommercialInvoice):
        if inv.entry_id is None and inv.lines:
            return {"commercial_invoice_id": inv.id, "sku": inv.lines[0].sku}
    return None


@service.tool(
    intent="remove the line from the commercial invoice", write=True, destructive=True, example=_example_remove_line
)
def remove_invoice_line(ctx: Ctx, commercial_invoice_id: InvoiceId, sku: Sku) -> CommercialInvoice:
    """Remove a product's line from an invoice not yet filed on an entry.

    Args:
        commercial_invoice_id: The invoice.
        sku: The product whose line goes.
    """
    inv = ctx.get(CommercialInvoice, commercial_invoice_id, field="commercial_invoice_id")
    _guard_invoice_delete(ctx, inv, None)
    rest = tuple(line for line in inv.lines if line.sku != sku)
    if len(rest) == len(inv.lines):
        raise RuleViolation(f"{sku} is not on invoice {inv.invoice_number}", field="sku", hint="read the invoice")
    return ctx.update(inv, lines=rest)


def _example_attach(ctx: Ctx) -> dict[str, Any] | None:
    for entry in ctx.where(Entry, status="draft"):
        for inv in ctx.where(CommercialInvoice, importer_id=entry.importer_id, entry_id=None):
            return {"entry_id": entry.id, "commercial_invoice_id": inv.id}
    return None


@service.tool(intent="attach the commercial invoice to the entry", write=True, example=_example_attach)
def attach_invoice(ctx: Ctx, entry_id: EntryId, commercial_invoice_id: InvoiceId) -> CommercialInvoice:
    """Put a commercial invoice of the entry's importer on a draft entry.

    Args:
        entry_id: The draft entry.
        commercial_invoice_id: An invoice of the same importer not on another entry.
    """
    entry = _entry_in(ctx, entry_id, "draft")
    inv = ctx.get(CommercialInvoice, commercial_invoice_id, field="commercial_invoice_id")
    if inv.importer_id != entry.importer_id:
        raise RuleViolation(
            "the invoice belongs to another importer", field="commercial_invoice_id", hint="use one of its invoices"
        )
    if inv.entry_id is not None:
        raise Conflict(
            f"invoice {inv.invoice_number} is already on entry {inv.entry_id}",
            field="commercial_invoice_id",
            hint="an invoice is filed once",
        )
    return ctx.update(inv, entry_id=entry.id)


@service.tool(
    intent="estimate the entry's duties and fees",
    example=first_example(Entry, "entry_id", where={"status": "draft"}),
)
def calculate_duties(ctx: Ctx, entry_id: EntryId) -> DutyEstimate:
    """The entry's customs value, duty per line (general rate, plus Section 301 for Chinese origin), MPF and HMF.

    Args:
        entry_id: The entry.
    """
    return _estimate_entry(ctx, ctx.get(Entry, entry_id, field="entry_id"))


def _fileable(ctx: Ctx, entry: Entry) -> bool:
    invs = ctx.where(CommercialInvoice, entry_id=entry.id)
    imp = ctx.get(Importer, entry.importer_id)
    return bool(invs) and all(i.lines for i in invs) and imp.bond_expires_on >= ctx.today()


@service.tool(
    intent="file the entry with customs",
    write=True,
    example=first_example(Entry, "entry_id", where={"status": "draft"}, match=_fileable),
)
def file_entry(ctx: Ctx, entry_id: EntryId) -> Entry:
    """File a draft entry: fixes its value, duties and fees (draft → filed).

    The importer's bond must be live, the entry needs at least one invoice and
    every invoice at least one line; an informal entry (type 11) must stay under
    USD 2,500.

    Args:
        entry_id: The draft entry.
    """
    entry = _entry_in(ctx, entry_id, "draft")
    imp = ctx.get(Importer, entry.importer_id)
    if imp.bond_expires_on < ctx.today():
        raise RuleViolation(
            f"the bond of {imp.name} expired on {imp.bond_expires_on}",
            field="entry_id",
            hint="renew the bond with customs__update_importer first",
        )
    invs = ctx.where(CommercialInvoice, entry_id=entry.id)
    if not invs or any(not i.lines for i in invs):
        raise RuleViolation(
            "the entry needs invoices with lines",
            field="entry_id",
            hint="attach an invoice with customs__attach_invoice and add lines with customs__add_invoice_line",
        )
    est = _estimate_entry(ctx, entry)
    if entry.entry_type == "11" and est.entered_value >= INFORMAL_LIMIT:
        raise RuleViolation(
            f"an informal entry must be under USD 2,500; this one is {est.entered_value / 100:.2f}",
            field="entry_id",
            hint="file it as a formal entry (type 01)",
        )
    return ctx.update(
        entry,
        status="filed",
        entered_value=est.entered_value,
        duty=est.duty,
        mpf=est.mpf,
        hmf=est.hmf,
        total_due=est.total_due,
        filed_at=ctx.now(),
    )


@service.tool(
    intent="record that customs accepted the entry",
    write=True,
    example=first_example(Entry, "entry_id", where={"status": "filed"}),
)
def accept_entry(ctx: Ctx, entry_id: EntryId) -> Entry:
    """Record customs' acceptance of a filed entry (filed → accepted).

    Args:
        entry_id: The filed entry.
    """
    return ctx.update(_entry_in(ctx, entry_id, "filed"), status="accepted")


@service.tool(
    intent="pay the entry's duties",
    write=True,
    example=first_example(
        Entry, "entry_id", where={"status": "accepted", "paid": False}, fields={"amount": "total_due"}
    ),
)
def pay_duties(ctx: Ctx, entry_id: EntryId, amount: Cents) -> Entry:
    """Pay the duties and fees of a filed or accepted entry, in full.

    Args:
        entry_id: The entry.
        amount: The amount in cents; must equal its total due.
    """
    entry = _entry_in(ctx, entry_id, "filed", "accepted", "on_hold")
    if entry.paid:
        raise Conflict(f"entry {entry.entry_number} is already paid", field="entry_id", hint="nothing to pay")
    if amount != entry.total_due:
        raise RuleViolation(
            f"the entry's total due is {entry.total_due} cents",
            field="amount",
            hint=f"pay exactly {entry.total_due}",
        )
    return ctx.update(entry, paid=True)


def _example_hold(ctx: Ctx) -> dict[str, Any] | None:
    entry = ctx.first(Entry, status="accepted")
    return None if entry is None else {"entry_id": entry.id, "hold_type": "cbp_exam", "reason": "Intensive exam"}


@service.tool(intent="put the entry on hold", write=True, example=_example_hold)
def place_hold(ctx: Ctx, entry_id: EntryId, hold_type: HoldType, reason: Text) -> Hold:
    """Record a hold by customs or an agency on a filed or accepted entry; it goes on hold.

    Args:
        entry_id: The entry.
        hold_type: cbp_exam, fda, usda or documents.
        reason: Why (required).
    """
    entry = _entry_in(ctx, entry_id, "filed", "accepted", "on_hold")
    if not reason.strip():
        raise RuleViolation("a hold needs a reason", field="reason", hint="say why the goods are held")
    if ctx.first(Hold, entry_id=entry.id, hold_type=hold_type, status="open") is not None:
        raise Conflict(f"entry already has an open {hold_type} hold", field="hold_type", hint="release it first")
    hold = ctx.create(Hold, entry_id=entry.id, hold_type=hold_type, reason=reason.strip())
    ctx.update(entry, status="on_hold")
    return hold


@service.tool(
    intent="release the hold",
    write=True,
    example=first_example(Hold, "hold_id", where={"status": "open"}),
)
def release_hold(ctx: Ctx, hold_id: HoldId) -> Hold:
    """Release an open hold; when none is left the entry is accepted again.

    Args:
        hold_id: The hold.
    """
    hold = ctx.get(Hold, hold_id, field="hold_id")
    if hold.status != "open":
        raise Conflict(f"hold {hold.id} is already released", field="hold_id", hint="nothing to do")
    hold = ctx.update(hold, status="released", released_at=ctx.now())
    if ctx.first(Hold, entry_id=hold.entry_id, status="open") is None:
        entry = ctx.get(Entry, hold.entry_id)
        ctx.update(entry, status="accepted")
    return hold


@service.tool(
    intent="release the goods of the entry",
    write=True,
    example=first_example(Entry, "entry_id", where={"status": "accepted", "paid": True}),
)
def release_entry(ctx: Ctx, entry_id: EntryId) -> Entry:
    """Release an accepted entry's goods: its duties must be paid and no hold open.

    Args:
        entry_id: The accepted entry.
    """
    entry = ctx.get(Entry, entry_id, field="entry_id")
    if entry.status == "on_hold":
        raise RuleViolation(
            f"entry {entry.entry_number} has open holds",
            field="entry_id",
            hint="release them with customs__release_hold",
        )
    entry = _entry_in(ctx, entry_id, "accepted")
    if not entry.paid:
        raise RuleViolation(
            f"the duties of entry {entry.entry_number} are unpaid",
            field="entry_id",
            hint="pay them with customs__pay_duties",
        )
    return ctx.update(entry, status="released", released_at=ctx.now())


@service.tool(
    intent="cancel the entry",
    write=True,
    destructive=True,
    example=first_example(Entry, "entry_id", where={"status": "draft"}),
)
def cancel_entry(ctx: Ctx, entry_id: EntryId) -> Entry:
    """Cancel a draft or filed, unpaid entry; its invoices are freed for another entry.

    Args:
        entry_id: The entry.
    """
    entry = _entry_in(ctx, entry_id, "draft", "filed")
    if entry.paid:
        raise RuleViolation("a paid entry cannot be cancelled", field="entry_id", hint="ask customs for a refund")
    for inv in ctx.where(CommercialInvoice, entry_id=entry.id):
        ctx.update(inv, entry_id=None)
    return ctx.update(entry, status="cancelled")


# -- seed -------------------------------------------------------------------------------------

TARIFF: tuple[tuple[str, str, float, float, str], ...] = (
    ("8471.30.0100", "Portable automatic data processing machines (laptops)", 0.0, 0.0, "none"),
    ("8517.62.0090", "Machines for the reception and transmission of data", 0.0, 25.0, "none"),
    ("8504.40.9580", "Static converters (power supplies)", 1.5, 25.0, "none"),
    ("9403.30.8061", "Wooden office furniture", 0.0, 25.0, "none"),
    ("7318.15.2095", "Steel bolts and screws", 0.0, 25.0, "none"),
    ("3926.90.9985", "Other articles of plastics", 5.3, 7.5, "none"),
    ("6109.10.0012", "Cotton T-shirts, men's", 16.5, 7.5, "none"),
    ("4202.92.3031", "Travel bags of synthetic textile", 17.6, 25.0, "none"),
    ("0901.21.0050", "Roasted coffee, not decaffeinated", 0.0, 0.0, "fda"),
    ("2106.90.9998", "Food preparations, other", 6.4, 7.5, "fda"),
    ("4407.11.0001", "Coniferous lumber, sawn", 0.0, 0.0, "usda"),
    ("8523.51.0000", "Solid-state storage devices", 0.0, 0.0, "none"),
)
ORIGINS = ("CN", "VN", "DE", "MX", "TW", "IN")
PORTS = ("2704", "1001", "4601", "3901", "5301")


@service.seeder
def seed(s: SeedContext) -> None:
    """The tariff table, importers from the world's companies, invoices of the catalogue's products, entries in every state."""
    pop = s.population
    table: dict[str, TariffLine] = {}
    for code, desc, rate, s301, pga in TARIFF:
        table[code] = s.create(
            TariffLine, hts_code=code, description=desc, general_rate=rate, section_301_rate=s301, pga=pga
        )
    brokers = pop.staff("Operations", "Finance", fallback=3)
    companies = [pop.home, *pop.customers[:3]]
    imps: list[Importer] = []
    for k, company in enumerate(companies):
        contact = pop.employees[0] if company.home else pop.first_contact(company)
        imps.append(
            s.create(
                Importer,
                name=company.name,
                ior_number=f"{12 + k * 7:02d}-{4_100_000 + k * 373_911:07d}{'AB'[k % 2]}{k}",
                contact_email=(contact.email if contact else f"imports@{company.domain}"),
                bond_type="single" if k == 3 else "continuous",
                bond_amount=5_000_000 if k < 3 else 1_000_000,
                bond_expires_on=(s.now + dt.timedelta(days=-10 if k == 3 else 200 + 30 * k)).date(),
                created_at=s.ago(days=400 - 30 * k),
            )
        )
    sellers = list(pop.customers[3:9]) or list(pop.customers)
    products = list(pop.products[:12])
    statuses: tuple[EntryStatus, ...] = (
        "draft",
        "draft",
        "filed",
        "accepted",
        "accepted",
        "on_hold",
        "released",
        "released",
        "liquidated",
        "cancelled",
    )
    for n, status in enumerate(statuses):
        imp = imps[n % 3]
        entry = s.create(
            Entry,
            importer_id=imp.id,
            entry_type="11" if n == 1 else "01",
            mode=("ocean", "air", "truck")[n % 3],
            port_code=PORTS[n % len(PORTS)],
            master_bill_number=f"MAEU{240_000_000 + n * 1_337:09d}",
            arrival_date=(s.now + dt.timedelta(days=5 - n)).date(),
            filer_email=brokers[n % len(brokers)].email,
            updated_at=s.ago(days=max(1, 10 - n)),
        )
        seller = sellers[n % len(sellers)]
        origin = ORIGINS[n % len(ORIGINS)]
        lines = []
        for j in range(1 if n == 1 else 3):
            prod = products[(n + j) % len(products)]
            tl = TARIFF[(n * 3 + j) % 8]
            lines.append(
                InvoiceLine(
                    sku=prod.sku,
                    description=prod.name,
                    hts_code=tl[0],
                    country_of_origin=origin,
                    quantity=2 if n == 1 else s.rng.randint(20, 300),
                    unit_value=max(100, prod.cost_cents),
                )
            )
        s.create(
            CommercialInvoice,
            importer_id=imp.id,
            invoice_number=f"EXP-{2400 + n}",
            seller_name=seller.name,
            seller_country=origin,
            lines=tuple(lines),
            entry_id=None if status == "cancelled" else entry.id,
            created_at=s.ago(days=20 - n),
        )
        if status != "draft" and status != "cancelled":
            est = _estimate(entry, [i for i in s.records(CommercialInvoice) if i.entry_id == entry.id], table)
            paid = status in ("released", "liquidated") or n == 4
            s.update(
                entry,
                status=status,
                entered_value=est.entered_value,
                duty=est.duty,
                mpf=est.mpf,
                hmf=est.hmf,
                total_due=est.total_due,
                paid=paid,
                filed_at=s.ago(days=12 - n),
                released_at=s.ago(days=3) if status in ("released", "liquidated") else None,
            )
        elif status == "cancelled":
            s.update(entry, status="cancelled")
        if status == "on_hold":
            s.create(Hold, entry_id=entry.id, hold_type="cbp_exam", reason="Selected for VACIS exam.")
        if status == "released":
            s.create(
                Hold,
                entry_id=entry.id,
                hold_type="documents",
                reason="Packing list missing.",
                status="released",
                released_at=s.ago(days=4),
            )
    s.create(
        CommercialInvoice,
        importer_id=imps[0].id,
        invoice_number="EXP-3001",
        seller_name=sellers[0].name,
        seller_country="DE",
        currency="EUR",
        exchange_rate=1.08,
        incoterm="FCA",
    )
    for k, prod in enumerate(products[:6]):
        s.create(
            Classification,
            importer_id=imps[0].id,
            sku=prod.sku,
            description=prod.name,
            hts_code=TARIFF[k][0],
            country_of_origin=ORIGINS[k % len(ORIGINS)],
            status=("approved", "approved", "proposed", "proposed", "rejected", "approved")[k],
            classified_by=brokers[k % len(brokers)].email,
            created_at=s.ago(days=60 - k),
        )
