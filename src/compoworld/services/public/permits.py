"""Civic Permit Portal: the city's permit records, fees, inspections, applicants and parcels.

Modeled on the Accela Civic Platform Construct API v4 (``/v4/records`` with
record types such as Building/Residential/Alteration, record statuses and
their workflow, ``/v4/records/{id}/fees`` with the fee schedule, invoicing and
``/v4/payments``, ``/v4/inspections`` with scheduling and results,
``/v4/records/{id}/contacts`` and the reference addresses and parcels).

An application is SUBMITTED, then IN_REVIEW (plan review), then APPROVED or
DENIED; an approved permit is ISSUED only when every fee assessed on it is
paid and every inspection its record type requires before issuance has
passed; an issued permit EXPIRES when its validity (180 days for building
work, as IBC 105.5 sets it) has run out. Submitting an application assesses
its filing fee from the fee schedule; a fee code is assessed once per record
(re-inspection fees may repeat) and no fee is added to a denied, issued or
expired record. A payment settles the record's whole balance and must equal
it to the cent. Inspections are scheduled only on approved or issued
records, for the inspection types the record type lists, on a working day
at least one day ahead, one open request per type; an inspection is resulted
only on or after its date, a failure needs the inspector's comment, and
scheduling again after a failure assesses a re-inspection fee. Electrical and
plumbing work needs a licensed contractor; one address has at most one open
application of a record type.
"""

from __future__ import annotations

import datetime as dt
from typing import Annotated, Any, Literal

from pydantic import StringConstraints

from compoworld.engine.context import Ctx
from compoworld.engine.errors import Conflict, RuleViolation
from compoworld.engine.records import Record
from compoworld.engine.service import Service, Transition
from compoworld.engine.state import SeedContext
from compoworld.engine.types import (
    Cents,
    City,
    CompanyName,
    Country,
    Date,
    DateTime,
    Email,
    FirstName,
    IdOf,
    LastName,
    Phone,
    PostalCode,
    Text,
)
from compoworld.services.kit.examples import first_example
from compoworld.services.kit.records import Created, Value

__all__ = ["service"]

service = Service(
    "permits",
    title="Civic Permit Portal",
    category="government_permits",
    modeled_on="Accela Civic Platform Construct API v4 (records and record types with status workflow, record "
    "fees with the fee schedule, invoices and payments, inspections scheduling and results, record contacts, "
    "reference addresses and parcels)",
    description="The city's building and trade permit portal: parcels and addresses, applicants and licensed "
    "contractors, permit applications through plan review to issuance and expiry, assessed fees and payments, "
    "and scheduled inspections with their results.",
)

AddressId = Annotated[str, IdOf("permits.address")]
ContactId = Annotated[str, IdOf("permits.contact")]
PermitId = Annotated[str, IdOf("permits.permit")]
FeeId = Annotated[str, IdOf("permits.fee")]
InspectionId = Annotated[str, IdOf("permits.inspection")]

RecordType = Literal["building_residential", "building_commercial", "electrical", "plumbing", "demolition"]
PermitStatus = Literal["submitted", "in_review", "approved", "denied", "issued", "expired"]
InspectionType = Literal["site_review", "footing", "framing", "rough_electrical", "rough_plumbing", "final"]
InspectionStatus = Literal["scheduled", "passed", "failed"]
FeeCode = Literal["FILING", "PLAN_CHECK", "PERMIT", "REINSPECT", "TECH_SURCHARGE"]
ContactType = Literal["applicant", "owner", "contractor"]
PayMethod = Literal["credit_card", "check", "ach", "cash"]
StreetLine = Annotated[str, StringConstraints(min_length=1, max_length=200, strip_whitespace=True)]
ParcelNumber = Annotated[str, StringConstraints(pattern=r"^[0-9]{3}-[0-9]{3}-[0-9]{3}$")]
"""An assessor's parcel number, e.g. 123-456-789."""
LicenseNumber = Annotated[str, StringConstraints(pattern=r"^[A-Z]{1,3}-[0-9]{5,8}$")]
"""A state contractor license, e.g. EC-1048823."""
Description = Annotated[str, StringConstraints(min_length=5, max_length=2000, strip_whitespace=True)]


class TypeRule(Value):
    """What a record type asks for (the agency's record type configuration)."""

    prefix: str
    """Prefix of its record numbers."""
    inspections: tuple[InspectionType, ...]
    """Inspection types that can be requested on it."""
    required: tuple[InspectionType, ...]
    """Inspection types that must pass before the permit is issued."""
    filing_cents: int
    """The filing fee assessed on submission."""
    permit_rate: float
    """The permit fee as a share of the declared job valuation (0: flat)."""
    flat_permit_cents: int
    """The permit fee when it is flat."""
    validity_days: int
    """How long an issued permit stays valid."""
    contractor: bool
    """Whether a licensed contractor must be named."""


_TYPE_TABLE: tuple[tuple[str, str, tuple[InspectionType, ...], int, float, int, int, bool], ...] = (
    # record type, prefix, inspection types (site_review, where listed, is required before issuance),
    # filing fee, permit fee rate of the valuation, flat permit fee, validity days, licensed contractor needed
    ("building_residential", "BLD", ("site_review", "footing", "framing", "final"), 7_500, 0.012, 0, 180, False),
    ("building_commercial", "COM", ("site_review", "footing", "framing", "final"), 25_000, 0.015, 0, 180, False),
    ("electrical", "ELE", ("rough_electrical", "final"), 4_500, 0.0, 18_000, 180, True),
    ("plumbing", "PLM", ("rough_plumbing", "final"), 4_500, 0.0, 15_000, 180, True),
    ("demolition", "DEM", ("site_review", "final"), 10_000, 0.0, 35_000, 90, False),
)
RECORD_TYPES: dict[str, TypeRule] = {
    name: TypeRule(
        prefix=prefix,
        inspections=inspections,
        required=("site_review",) if "site_review" in inspections else (),
        filing_cents=filing,
        permit_rate=rate,
        flat_permit_cents=flat,
        validity_days=days,
        contractor=contractor,
    )
    for name, prefix, inspections, filing, rate, flat, days, contractor in _TYPE_TABLE
}
"""The agency's record types and what each requires."""
REINSPECT_CENTS = 9_500
PLAN_CHECK_SHARE = 0.65
"""Plan check fee as a share of the permit fee (the usual IBC fee schedule)."""
TECH_SURCHARGE_SHARE = 0.04
OPEN: frozenset[str] = frozenset({"submitted", "in_review", "approved", "issued"})
CLOSED_TO_FEES: frozenset[str] = frozenset({"denied", "issued", "expired"})
REPEATABLE: frozenset[str] = frozenset({"REINSPECT"})
INSPECTORS: tuple[tuple[str, str], ...] = (
    ("Dana Whitfield", "dwhitfield@permits.city.gov"),
    ("Marco Ibarra", "mibarra@permits.city.gov"),
    ("Priya Raman", "praman@permits.city.gov"),
)


class Address(Created):
    """A reference address with its parcel, where permitted work happens."""

    id: AddressId
    street: StreetLine
    """House number and street."""
    city: City
    """City."""
    postal_code: PostalCode
    """Postal code."""
    country: Country
    """ISO country code."""
    parcel_number: ParcelNumber
    """The assessor's parcel number; unique."""
    owner_name: Annotated[str, StringConstraints(min_length=1, max_length=160)] | None = None
    """The owner of record."""


class Contact(Created):
    """A person on permit records: an applicant, a property owner or a licensed contractor."""

    id: ContactId
    first_name: FirstName
    """First name."""
    last_name: LastName
    """Last name."""
    email: Email
    """E-mail; unique among contacts."""
    phone: Phone | None = None
    """Phone number."""
    contact_type: ContactType
    """applicant, owner or contractor."""
    business_name: CompanyName | None = None
    """A contractor's business."""
    license_number: LicenseNumber | None = None
    """A contractor's state license (required for contractors)."""


class Permit(Record):
    """A permit record: an application for work at an address, through review to issuance and expiry."""

    id: PermitId
    record_number: Annotated[str, StringConstraints(pattern=r"^[A-Z]{3}-[0-9]{4}-[0-9]{5}$")]
    """The agency's record number, e.g. BLD-2026-00012."""
    record_type: RecordType
    """building_residential, building_commercial, electrical, plumbing or demolition."""
    status: PermitStatus = "submitted"
    """submitted, in_review, approved, denied, issued or expired."""
    address_id: AddressId
    """Where the work happens."""
    applicant_id: ContactId
    """Who applied."""
    contractor_id: ContactId | None = None
    """The licensed contractor doing the work."""
    description: Description
    """The work, as the applicant describes it."""
    valuation_cents: Cents = 0
    """The declared job valuation; building permit fees follow it."""
    submitted_at: DateTime
    """When it was submitted."""
    decided_on: Date | None = None
    """When review approved or denied it."""
    issued_on: Date | None = None
    """When the permit was issued."""
    expires_on: Date | None = None
    """When the issued permit stops being valid."""


class Fee(Created):
    """A fee assessed on a permit record from the fee schedule."""

    id: FeeId
    permit_id: PermitId
    """The record."""
    code: FeeCode
    """FILING, PLAN_CHECK, PERMIT, REINSPECT or TECH_SURCHARGE."""
    amount_cents: Cents
    """The amount."""
    status: Literal["invoiced", "paid"] = "invoiced"
    """invoiced (owed) or paid."""
    paid_on: Date | None = None
    """When it was paid."""
    receipt_number: Annotated[str, StringConstraints(pattern=r"^RCPT-[0-9]{6}$")] | None = None
    """The receipt of the payment that settled it."""


class Inspection(Created):
    """An inspection requested on a permit record, and its result."""

    id: InspectionId
    permit_id: PermitId
    """The record."""
    inspection_type: InspectionType
    """What is inspected."""
    scheduled_date: Date
    """The day the inspector comes."""
    inspector_name: Annotated[str, StringConstraints(min_length=1, max_length=120)]
    """The city inspector assigned."""
    inspector_email: Email
    """Their e-mail."""
    status: InspectionStatus = "scheduled"
    """scheduled, passed or failed."""
    result_comment: Text = ""
    """The inspector's comment (required on a failure)."""
    resulted_on: Date | None = None
    """When the result was entered."""


class PaymentReceipt(Value):
    """A payment applied to a record's balance."""

    permit_id: PermitId
    """The record."""
    receipt_number: str
    """The receipt."""
    amount_cents: Cents
    """What was paid."""
    method: PayMethod
    """How."""
    fee_ids: list[FeeId]
    """The fees it settled."""


# -- guards -----------------------------------------------------------------------------------


def _guard_contact(ctx: Ctx, new: Any, old: Any) -> None:
    for other in ctx.where(Contact, email=new.email):
        if other.id != new.id:
            raise Conflict(
                f"{new.email} is already a contact ({other.id})", field="email", hint="use the existing contact"
            )
    if new.contact_type == "contractor" and (new.license_number is None or new.business_name is None):
        raise RuleViolation(
            "a contractor needs a state license number and a business name",
            field="license_number",
            hint="give the license, e.g. EC-1048823, and the business name",
        )


def _guard_permit(ctx: Ctx, new: Any, old: Any) -> None:
    if new.status in ("approved", "denied") and old.status == "in_review":
        ctx.update(new, decided_on=ctx.today())


addresses = service.resource(
    Address,
    name="address",
    plural="addresses",
    prefix="addr",
    create=False,
    get=False,
    filters=("parcel_number", "city", "postal_code"),
    search=("street", "owner_name"),
    delete=False,
)
contacts = service.resource(
    Contact,
    name="contact",
    plural="contacts",
    prefix="pc",
    get=False,
    filters=("email", "contact_type", "license_number"),
    search=("first_name", "last_name", "business_name"),
    delete=False,
    guard_create=_guard_contact,
)
permits = service.resource(
    Permit,
    name="permit",
    plural="permits",
    prefix="rec",
    create=False,
    filters=("record_number", "record_type", "status", "address_id", "applicant_id", "contractor_id"),
    search=("description", "record_number"),
    delete=False,
    transitions={
        "review": Transition(
            "status",
            ("submitted",),
            "in_review",
            "start plan review of the permit application",
            description="Accept a submitted application into plan review.",
        ),
        "approve": Transition(
            "status",
            ("in_review",),
            "approved",
            "approve the permit application",
            description="Plan review approves the application; the permit can be issued once its fees are paid "
            "and its required inspections passed.",
        ),
        "deny": Transition(
            "status",
            ("in_review",),
            "denied",
            "deny the permit application",
            description="Plan review denies the application; it is closed for good.",
            destructive=True,
        ),
    },
    guard_update=_guard_permit,
    title="permit record",
)
fees = service.resource(
    Fee,
    name="fee",
    plural="fees",
    prefix="fee",
    create=False,
    get=False,
    filters=("permit_id", "code", "status"),
    delete=False,
)
inspections = service.resource(
    Inspection,
    name="inspection",
    plural="inspections",
    prefix="insp",
    create=False,
    get=False,
    filters=("permit_id", "inspection_type", "status", "scheduled_date", "inspector_email"),
    delete=False,
)


# -- rules ------------------------------------------------------------------------------------


def permit_fee(record_type: str, valuation_cents: int) -> int:
    """The permit fee of a record type for a declared valuation."""
    rule = RECORD_TYPES[record_type]
    return round(valuation_cents * rule.permit_rate) if rule.permit_rate else rule.flat_permit_cents


def schedule_amount(code: str, permit: Permit) -> int:
    """What the fee schedule charges for ``code`` on ``permit``."""
    if code == "FILING":
        return RECORD_TYPES[permit.record_type].filing_cents
    if code == "PERMIT":
        return permit_fee(permit.record_type, permit.valuation_cents)
    if code in ("PLAN_CHECK", "TECH_SURCHARGE") and not RECORD_TYPES[permit.record_type].permit_rate:
        return 0
    if code == "PLAN_CHECK":
        return round(permit_fee(permit.record_type, permit.valuation_cents) * PLAN_CHECK_SHARE)
    if code == "TECH_SURCHARGE":
        return round(permit_fee(permit.record_type, permit.valuation_cents) * TECH_SURCHARGE_SHARE)
    return REINSPECT_CENTS


def _balance(ctx: Ctx, permit_id: str) -> list[Fee]:
    return ctx.where(Fee, permit_id=permit_id, status="invoiced")


def _missing_inspections(ctx: Ctx, permit: Permit) -> list[str]:
    passed = {i.inspection_type for i in ctx.where(Inspection, permit_id=permit.id, status="passed")}
    return [t for t in RECORD_TYPES[permit.record_type].required if t not in passed]


def _add_fee(ctx: Ctx, permit: Permit, code: str) -> Fee:
    if permit.status in CLOSED_TO_FEES:
        raise RuleViolation(
            f"{permit.record_number} is {permit.status}: no fee can be added",
            field="permit_id",
            hint="assess fees before the permit is issued",
        )
    if code not in REPEATABLE and ctx.first(Fee, permit_id=permit.id, code=code) is not None:
        raise Conflict(
            f"{code} is already assessed on {permit.record_number}",
            field="code",
            hint="see it with permits__list_fees",
        )
    amount = schedule_amount(code, permit)
    if amount <= 0:
        raise RuleViolation(
            f"the fee schedule charges nothing for {code} on a {permit.record_type} record",
            field="code",
            hint="PLAN_CHECK and TECH_SURCHARGE follow a valuation-based permit fee",
        )
    return ctx.create(Fee, permit_id=permit.id, code=code, amount_cents=amount)


def _inspector(ctx: Ctx, day: dt.date) -> tuple[str, str]:
    return INSPECTORS[day.toordinal() % len(INSPECTORS)]


# -- examples ---------------------------------------------------------------------------------


def _example_apply(ctx: Ctx) -> dict[str, Any] | None:
    applicant = ctx.first(Contact, contact_type="applicant")
    for address in ctx.scan(Address):
        busy = any(p.status in OPEN for p in ctx.where(Permit, address_id=address.id, record_type="demolition"))
        if applicant is not None and not busy:
            return {
                "record_type": "demolition",
                "address_id": address.id,
                "applicant_id": applicant.id,
                "description": "Demolish detached garage, 400 sq ft",
                "valuation_cents": 1_200_000,
            }
    return None


def _issuable(ctx: Ctx, permit: Permit) -> bool:
    return not _balance(ctx, permit.id) and not _missing_inspections(ctx, permit)


def _expirable(ctx: Ctx, permit: Permit) -> bool:
    return permit.expires_on is not None and permit.expires_on <= ctx.today()


def _example_fee(ctx: Ctx) -> dict[str, Any] | None:
    for permit in ctx.scan(Permit):
        fresh = ctx.first(Fee, permit_id=permit.id, code="TECH_SURCHARGE") is None
        if permit.status in ("in_review", "approved") and permit.valuation_cents and fresh:
            return {"permit_id": permit.id, "code": "TECH_SURCHARGE"}
    return None


def _example_pay(ctx: Ctx) -> dict[str, Any] | None:
    for permit in ctx.where(Permit, status="approved"):
        owed = sum(f.amount_cents for f in _balance(ctx, permit.id))
        if owed:
            return {"permit_id": permit.id, "amount_cents": owed, "method": "credit_card"}
    return None


def _next_workday(day: dt.date) -> dt.date:
    day += dt.timedelta(days=1)
    while day.weekday() >= 5:
        day += dt.timedelta(days=1)
    return day


def _example_schedule(ctx: Ctx) -> dict[str, Any] | None:
    for permit in [*ctx.where(Permit, status="approved"), *ctx.where(Permit, status="issued")]:
        if _expirable(ctx, permit):
            continue
        for kind in RECORD_TYPES[permit.record_type].inspections:
            done = ctx.where(Inspection, permit_id=permit.id, inspection_type=kind)
            if not any(i.status in ("scheduled", "passed") for i in done):
                day = _next_workday(ctx.today())
                return {"permit_id": permit.id, "inspection_type": kind, "scheduled_date": day.isoformat()}
    return None


def _example_result(ctx: Ctx) -> dict[str, Any] | None:
    for insp in ctx.where(Inspection, status="scheduled"):
        if insp.scheduled_date <= ctx.today():
            return {"inspection_id": insp.id, "result": "passed", "comment": "Meets code."}
    return None


# -- addresses and records ----------------------------------------------------------------------


def _example_address(ctx: Ctx) -> dict[str, Any] | None:
    taken = {a.street for a in ctx.scan(Address)}
    for p in ctx.population.consumers:
        if p.address.street not in taken:
            return {
                "street": p.address.street,
                "city": p.address.city,
                "postal_code": p.address.postal_code,
                "country": p.address.country,
                "parcel_number": "902-118-447",
                "owner_name": p.name,
            }
    return None


@service.tool(intent="add a reference address", write=True, example=_example_address)
def create_address(
    ctx: Ctx,
    street: StreetLine,
    city: City,
    postal_code: PostalCode,
    country: Country,
    parcel_number: ParcelNumber,
    owner_name: Annotated[str, StringConstraints(min_length=1, max_length=160)] | None = None,
) -> Address:
    """Add an address with its parcel to the reference data; a parcel and a street address are on file once.

    Args:
        street: House number and street.
        city: City.
        postal_code: Postal code.
        country: ISO country code, e.g. US.
        parcel_number: The assessor's parcel number, e.g. 123-456-789.
        owner_name: The owner of record.
    """
    for other in ctx.where(Address, parcel_number=parcel_number):
        raise Conflict(
            f"parcel {parcel_number} is already on file at {other.street} ({other.id})",
            field="parcel_number",
            hint="use that address (permits__list_addresses parcel_number=...)",
        )
    for other in ctx.where(Address, postal_code=postal_code):
        if other.street.casefold() == street.strip().casefold():
            raise Conflict(
                f"{street} {postal_code} is already on file with parcel {other.parcel_number} ({other.id})",
                field="street",
                hint="use that address",
            )
    return ctx.create(
        Address,
        street=street,
        city=city,
        postal_code=postal_code,
        country=country,
        parcel_number=parcel_number,
        owner_name=owner_name,
    )


@service.tool(intent="submit a permit application", write=True, example=_example_apply)
def apply_for_permit(
    ctx: Ctx,
    record_type: RecordType,
    address_id: AddressId,
    applicant_id: ContactId,
    description: Description,
    valuation_cents: Cents = 0,
    contractor_id: ContactId | None = None,
) -> Permit:
    """Submit a permit application; its filing fee is assessed at once.

    Building permits need the job valuation (their fees follow it); electrical and
    plumbing work needs a licensed contractor. An address has at most one open
    application or permit of each record type.

    Args:
        record_type: building_residential, building_commercial, electrical, plumbing or demolition.
        address_id: Where the work happens.
        applicant_id: Who applies.
        description: The work.
        valuation_cents: The declared job valuation (required for building permits).
        contractor_id: The licensed contractor (required for electrical and plumbing work).
    """
    rule = RECORD_TYPES[record_type]
    address = ctx.get(Address, address_id, field="address_id")
    ctx.get(Contact, applicant_id, field="applicant_id")
    if rule.permit_rate and valuation_cents <= 0:
        raise RuleViolation(
            "a building permit needs the declared job valuation",
            field="valuation_cents",
            hint="give the valuation of the work in cents",
        )
    if rule.contractor:
        contractor = None if contractor_id is None else ctx.get(Contact, contractor_id, field="contractor_id")
        if contractor is None or contractor.contact_type != "contractor":
            raise RuleViolation(
                f"{record_type} work needs a licensed contractor",
                field="contractor_id",
                hint="name a contact of type contractor (permits__list_contacts contact_type=contractor)",
            )
    elif contractor_id is not None:
        contractor = ctx.get(Contact, contractor_id, field="contractor_id")
        if contractor.contact_type != "contractor":
            raise RuleViolation(
                f"{contractor.email} is not a contractor", field="contractor_id", hint="name a licensed contractor"
            )
    for other in ctx.where(Permit, address_id=address.id, record_type=record_type):
        if other.status in OPEN and not (other.expires_on is not None and other.expires_on <= ctx.today()):
            raise Conflict(
                f"{address.street} already has an open {record_type} record {other.record_number} ({other.status})",
                field="address_id",
                hint="amend or finish that record instead",
            )
    number = 1000 + ctx.next_number(Permit, f"{rule.prefix}-{ctx.today().year}")
    permit = ctx.create(
        Permit,
        record_number=f"{rule.prefix}-{ctx.today().year}-{number:05d}",
        record_type=record_type,
        address_id=address.id,
        applicant_id=applicant_id,
        contractor_id=contractor_id,
        description=description,
        valuation_cents=valuation_cents,
        submitted_at=ctx.now(),
    )
    _add_fee(ctx, permit, "FILING")
    return permit


@service.tool(
    intent="issue the permit",
    write=True,
    example=first_example(Permit, "permit_id", where={"status": "approved"}, match=_issuable),
)
def issue_permit(ctx: Ctx, permit_id: PermitId) -> Permit:
    """Issue an approved permit: every assessed fee must be paid and every required inspection passed.

    The permit is valid from today for its record type's validity (180 days; 90 for demolition).

    Args:
        permit_id: The record.
    """
    permit = ctx.get(Permit, permit_id, field="permit_id")
    if permit.status != "approved":
        raise RuleViolation(
            f"{permit.record_number} is {permit.status}; only approved records are issued",
            field="permit_id",
            hint="take it through review (permits__review_permit, permits__approve_permit) first",
        )
    owed = _balance(ctx, permit.id)
    if owed:
        total = sum(f.amount_cents for f in owed)
        raise RuleViolation(
            f"{permit.record_number} has {len(owed)} unpaid fee(s) totalling {total} cents",
            field="permit_id",
            hint="pay the balance with permits__pay_fees",
        )
    missing = _missing_inspections(ctx, permit)
    if missing:
        raise RuleViolation(
            f"{permit.record_number} needs passed inspection(s) before issuance: {', '.join(missing)}",
            field="permit_id",
            hint="schedule them with permits__schedule_inspection and record the results",
        )
    today = ctx.today()
    days = RECORD_TYPES[permit.record_type].validity_days
    return ctx.update(permit, status="issued", issued_on=today, expires_on=today + dt.timedelta(days=days))


@service.tool(
    intent="expire the permit",
    write=True,
    destructive=True,
    example=first_example(Permit, "permit_id", where={"status": "issued"}, match=_expirable),
)
def expire_permit(ctx: Ctx, permit_id: PermitId) -> Permit:
    """Mark an issued permit expired once its expiry date has come.

    Args:
        permit_id: The record.
    """
    permit = ctx.get(Permit, permit_id, field="permit_id")
    if permit.status != "issued" or permit.expires_on is None:
        raise RuleViolation(
            f"{permit.record_number} is {permit.status}; only issued permits expire",
            field="permit_id",
            hint="pick an issued permit",
        )
    if permit.expires_on > ctx.today():
        raise RuleViolation(
            f"{permit.record_number} is valid until {permit.expires_on}",
            field="permit_id",
            hint="a permit expires only on or after its expiry date",
        )
    return ctx.update(permit, status="expired")


# -- fees -------------------------------------------------------------------------------------


@service.tool(intent="assess a fee on the permit", write=True, example=_example_fee)
def assess_fee(ctx: Ctx, permit_id: PermitId, code: FeeCode) -> Fee:
    """Assess a fee from the fee schedule on a record; the schedule sets the amount.

    PERMIT follows the valuation for building work (1.2% residential, 1.5%
    commercial) and is flat for trades and demolition; PLAN_CHECK is 65% and
    TECH_SURCHARGE 4% of a valuation-based permit fee; REINSPECT is 95.00 and may
    repeat, every other code once per record. Denied, issued and expired records
    take no fees.

    Args:
        permit_id: The record.
        code: FILING, PLAN_CHECK, PERMIT, REINSPECT or TECH_SURCHARGE.
    """
    permit = ctx.get(Permit, permit_id, field="permit_id")
    return _add_fee(ctx, permit, code)


@service.tool(intent="pay the permit's fees", write=True, example=_example_pay)
def pay_fees(ctx: Ctx, permit_id: PermitId, amount_cents: Cents, method: PayMethod) -> PaymentReceipt:
    """Pay a record's whole balance of invoiced fees; the amount must equal it to the cent.

    Args:
        permit_id: The record.
        amount_cents: The amount paid.
        method: credit_card, check, ach or cash.
    """
    permit = ctx.get(Permit, permit_id, field="permit_id")
    if permit.status in ("denied", "expired"):
        raise RuleViolation(
            f"{permit.record_number} is {permit.status}", field="permit_id", hint="closed records take no payments"
        )
    owed = _balance(ctx, permit.id)
    total = sum(f.amount_cents for f in owed)
    if not owed:
        raise Conflict(f"{permit.record_number} has no balance", field="permit_id", hint="nothing to pay")
    if amount_cents != total:
        raise RuleViolation(
            f"the balance of {permit.record_number} is {total} cents, not {amount_cents}",
            field="amount_cents",
            hint=f"pay exactly {total}",
        )
    receipt = f"RCPT-{100000 + ctx.next_number(Fee, 'receipt'):06d}"
    for fee in owed:
        ctx.update(fee, status="paid", paid_on=ctx.today(), receipt_number=receipt)
    return PaymentReceipt(
        permit_id=permit.id,
        receipt_number=receipt,
        amount_cents=total,
        method=method,
        fee_ids=[f.id for f in owed],
    )


# -- inspections ------------------------------------------------------------------------------


@service.tool(intent="schedule an inspection", write=True, example=_example_schedule)
def schedule_inspection(
    ctx: Ctx, permit_id: PermitId, inspection_type: InspectionType, scheduled_date: Date
) -> Inspection:
    """Request an inspection on an approved or issued permit.

    The type must be one the record type lists and not already passed or
    requested; the day must be a working day at least one day ahead. Asking again
    after a failed inspection of the type assesses a re-inspection fee.

    Args:
        permit_id: The record.
        inspection_type: What is to be inspected.
        scheduled_date: The day (Monday to Friday, after today).
    """
    permit = ctx.get(Permit, permit_id, field="permit_id")
    if permit.status not in ("approved", "issued") or _expirable(ctx, permit):
        raise RuleViolation(
            f"{permit.record_number} is {permit.status}; inspections are requested on approved or valid issued permits",
            field="permit_id",
            hint="get the application approved first",
        )
    allowed = RECORD_TYPES[permit.record_type].inspections
    if inspection_type not in allowed:
        raise RuleViolation(
            f"a {permit.record_type} record takes {', '.join(allowed)} inspections",
            field="inspection_type",
            hint=f"pick one of {', '.join(allowed)}",
        )
    if scheduled_date <= ctx.today() or scheduled_date.weekday() >= 5:
        raise RuleViolation(
            f"{scheduled_date} is not a working day after today",
            field="scheduled_date",
            hint=f"the first possible day is {_next_workday(ctx.today())}",
        )
    earlier = ctx.where(Inspection, permit_id=permit.id, inspection_type=inspection_type)
    for insp in earlier:
        if insp.status in ("scheduled", "passed"):
            raise Conflict(
                f"{inspection_type} on {permit.record_number} is already {insp.status} ({insp.id})",
                field="inspection_type",
                hint="one open request per type; a passed inspection is not repeated",
            )
    if any(i.status == "failed" for i in earlier):
        ctx.create(Fee, permit_id=permit.id, code="REINSPECT", amount_cents=REINSPECT_CENTS)
    name, email = _inspector(ctx, scheduled_date)
    return ctx.create(
        Inspection,
        permit_id=permit.id,
        inspection_type=inspection_type,
        scheduled_date=scheduled_date,
        inspector_name=name,
        inspector_email=email,
    )


@service.tool(intent="record the inspection result", write=True, example=_example_result)
def result_inspection(
    ctx: Ctx, inspection_id: InspectionId, result: Literal["passed", "failed"], comment: Text = ""
) -> Inspection:
    """Enter an inspection's result, on or after its scheduled day; a failure needs the inspector's comment.

    Args:
        inspection_id: The inspection.
        result: passed or failed.
        comment: What the inspector found.
    """
    insp = ctx.get(Inspection, inspection_id, field="inspection_id")
    if insp.status != "scheduled":
        raise Conflict(f"{insp.id} is already {insp.status}", field="inspection_id", hint="schedule a new one")
    if insp.scheduled_date > ctx.today():
        raise RuleViolation(
            f"{insp.id} is scheduled for {insp.scheduled_date}",
            field="inspection_id",
            hint="enter the result on or after the inspection day",
        )
    if result == "failed" and not comment.strip():
        raise RuleViolation(
            "a failed inspection needs the inspector's comment", field="comment", hint="say what must be corrected"
        )
    return ctx.update(insp, status=result, result_comment=comment.strip(), resulted_on=ctx.today())


# -- seed -------------------------------------------------------------------------------------

JOBS: tuple[tuple[RecordType, str, int], ...] = (
    ("building_residential", "Kitchen remodel with removal of a load-bearing wall", 4_500_000),
    ("building_residential", "Rear deck, 320 sq ft, pressure-treated framing", 1_850_000),
    ("electrical", "Upgrade service panel to 200 A", 0),
    ("plumbing", "Replace water heater and re-pipe second floor bath", 0),
    ("building_commercial", "Tenant improvement: open-plan office, 2,400 sq ft", 18_000_000),
    ("demolition", "Demolish detached garage", 0),
    ("building_residential", "Second-story addition, 600 sq ft", 12_000_000),
    ("electrical", "EV charger circuit, 60 A", 0),
    ("building_residential", "Basement finish with egress window", 3_200_000),
    ("plumbing", "New gas line to outdoor kitchen", 0),
    ("building_commercial", "Storefront facade and signage", 6_500_000),
    ("building_residential", "Roof replacement with new sheathing", 2_200_000),
)
STAGES: tuple[str, ...] = (
    "submitted",
    "approved_uninspected",
    "approved_unpaid",
    "in_review",
    "approved_ready",
    "issued",
    "issued_old",
    "denied",
    "expired",
    "in_review",
    "approved_failed",
    "submitted",
)
"""The stage each seeded job has reached (status, then what is still outstanding)."""


@service.seeder
def seed(s: SeedContext) -> None:
    """Parcels of the population's homes and firms, applicants and contractors, records in every stage."""
    pop = s.population
    today = s.now.date()
    owners = list(pop.consumers[:12])
    address_rows: list[Address] = []
    for k, p in enumerate(owners):
        address_rows.append(
            s.create(
                Address,
                street=p.address.street,
                city=p.address.city,
                postal_code=p.address.postal_code,
                country=p.address.country,
                parcel_number=f"{100 + 7 * k:03d}-{200 + 13 * k:03d}-{300 + 31 * k:03d}",
                owner_name=p.name,
                created_at=s.now - dt.timedelta(days=900 - k),
            )
        )
    applicants = [
        s.create(
            Contact,
            first_name=p.first_name,
            last_name=p.last_name,
            email=p.email,
            phone=p.phone,
            contact_type="applicant",
            created_at=s.now - dt.timedelta(days=400 - k),
        )
        for k, p in enumerate(owners)
    ]
    trades = ("EC", "PL", "GC")
    contractors = []
    for k, company in enumerate(pop.customers[:6]):
        person = pop.first_contact(company)
        if person is None:
            continue
        contractors.append(
            s.create(
                Contact,
                first_name=person.first_name,
                last_name=person.last_name,
                email=person.email,
                phone=person.phone,
                contact_type="contractor",
                business_name=company.name,
                license_number=f"{trades[k % 3]}-{1_040_000 + 8_117 * k}",
                created_at=s.now - dt.timedelta(days=700 - k),
            )
        )
    for k, ((kind, text, valuation), stage) in enumerate(zip(JOBS, STAGES, strict=True)):
        _seed_permit(s, today, k, kind, text, valuation, stage, address_rows[k], applicants[k], contractors)


def _seed_permit(
    s: SeedContext,
    today: dt.date,
    k: int,
    kind: RecordType,
    text: str,
    valuation: int,
    stage: str,
    address: Address,
    applicant: Contact,
    contractors: list[Contact],
) -> None:
    rule = RECORD_TYPES[kind]
    submitted = s.now - dt.timedelta(days=10 + 9 * k + (300 if stage in ("issued_old", "expired") else 0))
    status = stage if stage == "in_review" else stage.split("_")[0]
    decided = (submitted + dt.timedelta(days=7)).date() if status not in ("submitted", "in_review") else None
    issued = (submitted + dt.timedelta(days=12)).date() if status in ("issued", "expired") else None
    contractor = contractors[k % len(contractors)] if (rule.contractor or k % 4 == 0) and contractors else None
    permit = s.create(
        Permit,
        record_number=f"{rule.prefix}-{submitted.year}-{100 + k:05d}",
        record_type=kind,
        status=status,
        address_id=address.id,
        applicant_id=applicant.id,
        contractor_id=contractor.id if contractor else None,
        description=text,
        valuation_cents=valuation,
        submitted_at=submitted,
        decided_on=decided,
        issued_on=issued,
        expires_on=issued + dt.timedelta(days=rule.validity_days) if issued else None,
    )
    unpaid = stage in ("submitted", "in_review", "approved_unpaid", "denied")
    codes = ["FILING"] + (["PERMIT"] if status not in ("submitted", "in_review", "denied") else [])
    if rule.permit_rate and "PERMIT" in codes:
        codes.append("PLAN_CHECK")
    for n, code in enumerate(codes):
        paid = not unpaid
        s.create(
            Fee,
            permit_id=permit.id,
            code=code,
            amount_cents=schedule_amount(code, permit),
            status="paid" if paid else "invoiced",
            paid_on=(submitted + dt.timedelta(days=8)).date() if paid else None,
            receipt_number=f"RCPT-{10_000 + 10 * k + n:06d}" if paid else None,
            created_at=submitted,
        )
    if status not in ("approved", "issued", "expired"):
        return
    for kind_ in rule.required:
        if stage == "approved_uninspected":
            day = today
            result: InspectionStatus = "scheduled"
        else:
            day = (submitted + dt.timedelta(days=9)).date()
            result = "failed" if stage == "approved_failed" else "passed"
        name, email = INSPECTORS[k % len(INSPECTORS)]
        s.create(
            Inspection,
            permit_id=permit.id,
            inspection_type=kind_,
            scheduled_date=day,
            inspector_name=name,
            inspector_email=email,
            status=result,
            result_comment="Setback to rear lot line short by 2 ft; revise site plan." if result == "failed" else "",
            resulted_on=day if result != "scheduled" else None,
            created_at=submitted,
        )
    if stage == "issued":
        name, email = INSPECTORS[0]
        s.create(
            Inspection,
            permit_id=permit.id,
            inspection_type="final",
            scheduled_date=today,
            inspector_name=name,
            inspector_email=email,
            created_at=s.now - dt.timedelta(days=2),
        )
