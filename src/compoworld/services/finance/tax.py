"""Levyline Tax: sales tax and VAT calculation by nexus and jurisdiction, exemptions, transactions and returns.

Modeled on the Avalara AvaTax REST API v2 (Companies, Nexus, TaxCodes, tax
rates by address, CreateTransaction / Commit / Void / Adjust, exemption
certificates, filing returns): tax is charged only where the company has
nexus, at the jurisdiction's rate for the line's tax code (full, reduced or
exempt), and not at all for a customer with a valid exemption certificate for
the destination; a document code is used once per company; a return is filed
for a month that is over, once, and only when every transaction of the month
is committed or voided; a reported transaction can no longer be voided or
adjusted.
"""

from __future__ import annotations

import calendar
import datetime as dt
from dataclasses import dataclass
from typing import Annotated, Any, Literal

from pydantic import BaseModel, Field, StringConstraints

from compoworld.engine.context import Ctx
from compoworld.engine.errors import Conflict, RuleViolation
from compoworld.engine.records import CREATED, UPDATED, Record
from compoworld.engine.service import Service, Transition
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
    IdOf,
    InvoiceNumber,
    Percent,
    PostalAddress,
    Sku,
    Text,
    Title,
)
from compoworld.services.finance._shared import percent_of
from compoworld.services.kit.records import Value
from compoworld.services.kit.time import add_months, utc_at

__all__ = ["service"]

service = Service(
    "tax",
    title="Levyline Tax",
    category="accounting",
    modeled_on="Avalara AvaTax REST API v2 (Companies, Nexus, TaxCodes, TaxRatesByAddress, Transactions "
    "create/commit/void/adjust, exemption certificates, filing returns)",
    description="Indirect tax compliance: where each company has nexus, the tax rates of each jurisdiction, "
    "product tax codes, customers' exemption certificates, sales transactions with line-level tax computed at "
    "the destination, their commit/void/adjust lifecycle and monthly returns.",
)

CompanyId = Annotated[str, IdOf("tax.company")]
NexusId = Annotated[str, IdOf("tax.nexus")]
JurisdictionId = Annotated[str, IdOf("tax.jurisdiction")]
TaxCodeId = Annotated[str, IdOf("tax.tax_code")]
CertificateId = Annotated[str, IdOf("tax.exemption_certificate")]
TransactionId = Annotated[str, IdOf("tax.transaction")]
FilingId = Annotated[str, IdOf("tax.filing")]

Code = Annotated[str, StringConstraints(pattern=r"^[A-Z0-9]{2,10}$")]
Taxability = Literal["full", "reduced", "exempt"]
TxStatus = Literal["saved", "committed", "voided"]
Month = Annotated[int, Field(ge=1, le=12)]
Year = Annotated[int, Field(ge=2000, le=2100)]
ExemptReason = Literal["resale", "charity", "government", "manufacturing", "diplomat"]


class Company(Record):
    """A legal entity that collects tax."""

    id: CompanyId
    company_code: Code
    """Short unique code."""
    name: CompanyName
    """Legal name."""
    country: Country
    """Country of establishment."""
    currency: Currency
    """Currency of its transactions."""
    tax_id: Annotated[str, StringConstraints(max_length=32)]
    """VAT or tax registration number."""
    is_default: bool = False
    """Whether it is the default company."""


class Jurisdiction(Record):
    """Tax rates of a place: the country's and the city's."""

    id: JurisdictionId
    country: Country
    """Country."""
    city: City
    """City."""
    country_rate: Percent
    """Standard national rate (VAT, GST or state rate) in percent."""
    reduced_rate: Percent
    """National rate for reduced tax codes in percent."""
    city_rate: Percent = 0.0
    """Local rate added on top, in percent."""


class Nexus(Record):
    """A place where a company must collect tax."""

    id: NexusId
    company_id: CompanyId
    """The company."""
    country: Country
    """Country of the nexus."""
    effective_date: Date
    """From when tax is collected."""
    created_at: Annotated[DateTime, CREATED]
    """When it was declared."""


class TaxCode(Record):
    """A product taxability code."""

    id: TaxCodeId
    code: Code
    """The code used on transaction lines."""
    description: Title
    """What it covers."""
    taxability: Taxability
    """full (standard rate), reduced (reduced rate) or exempt."""


class ExemptionCertificate(Record):
    """A customer's certificate exempting its purchases from tax in a country."""

    id: CertificateId
    customer_name: CompanyName
    """The exempt customer."""
    customer_email: Email | None = None
    """Where certificate renewals are requested."""
    country: Country
    """Where the exemption applies."""
    reason: ExemptReason
    """resale, charity, government, manufacturing or diplomat."""
    valid_from: Date
    """First day it applies."""
    valid_to: Date
    """Last day it applies."""
    status: Literal["valid", "revoked"] = "valid"
    """Revoked certificates exempt nothing."""
    created_at: Annotated[DateTime, CREATED]
    """When it was recorded."""


class TaxLine(Value):
    """A transaction line with its computed tax."""

    number: int = Field(description="Line number.")
    description: Text = Field(description="What was sold.")
    sku: Sku | None = Field(default=None, description="Product code.")
    tax_code: Code = Field(description="Tax code.")
    quantity: int = Field(description="Quantity.")
    amount: Cents = Field(description="Line amount before tax in cents.")
    taxable_amount: Cents = Field(description="Part of the amount that is taxed, in cents.")
    rate: Percent = Field(description="Rate applied in percent.")
    tax: Cents = Field(description="Tax in cents.")


class LineInput(Value):
    """A line to calculate tax for."""

    amount: Cents = Field(description="Line amount before tax in cents (quantity × unit price).")
    tax_code: Code = Field(default="P0000000", description="Tax code; default tangible goods.")
    quantity: int = Field(default=1, ge=1, le=1_000_000, description="Quantity.")
    description: Text = Field(default="", description="What is sold.")
    sku: Sku | None = Field(default=None, description="Product code.")


class Transaction(Record):
    """A sales document with the tax computed for it."""

    id: TransactionId
    company_id: CompanyId
    """The selling company."""
    code: InvoiceNumber
    """Document code (the invoice number); unique per company."""
    type: Literal["sales_invoice", "return_invoice"]
    """sales_invoice, or return_invoice (a refund: it reduces the tax owed)."""
    status: TxStatus
    """saved (uncommitted), committed (to be reported) or voided."""
    date: Date
    """Document date."""
    customer_name: CompanyName
    """The buyer."""
    customer_email: Email | None = None
    """The buyer's e-mail."""
    ship_to: PostalAddress
    """Destination that sets the jurisdiction."""
    currency: Currency
    """Currency."""
    lines: list[TaxLine] = Field(max_length=100)
    """Lines with their tax."""
    total_amount: Cents
    """Sum of the line amounts in cents."""
    total_taxable: Cents
    """Sum of the taxable amounts in cents."""
    total_tax: Cents
    """Sum of the tax in cents."""
    exemption_certificate_id: CertificateId | None = None
    """The certificate that exempted the document."""
    filing_id: FilingId | None = None
    """The return it was reported on; reported documents are locked."""
    adjustment_count: int = 0
    """How many times it was adjusted."""
    adjustment_reason: Text | None = None
    """Why it was last adjusted."""
    void_reason: Text | None = None
    """Why it was voided."""
    updated_at: Annotated[DateTime, UPDATED]
    """When it last changed."""


class Filing(Record):
    """A filed monthly return for one company and country."""

    id: FilingId
    company_id: CompanyId
    """The company."""
    country: Country
    """The country it was filed in."""
    year: Year
    """Year of the period."""
    month: Month
    """Month of the period."""
    transaction_count: int
    """Documents reported."""
    total_sales: int
    """Sales less returns in cents."""
    total_taxable: int
    """Taxable sales less returns in cents."""
    total_tax: int
    """Tax owed (returns deducted) in cents."""
    confirmation: Annotated[str, StringConstraints(max_length=40)]
    """The authority's confirmation number."""
    filed_at: Annotated[DateTime, CREATED]
    """When it was filed."""


# -- computation ------------------------------------------------------------------------------


def _has_nexus(ctx: Ctx, company_id: str, country: str, day: dt.date) -> bool:
    return any(n.effective_date <= day for n in ctx.where(Nexus, company_id=company_id, country=country))


def _jurisdiction(ctx: Ctx, address: PostalAddress) -> Jurisdiction | None:
    exact = ctx.first(Jurisdiction, country=address.country, city=address.city)
    if exact is not None:
        return exact
    return ctx.first(Jurisdiction, country=address.country)


def _certificate(ctx: Ctx, customer: str, country: str, day: dt.date) -> ExemptionCertificate | None:
    for c in ctx.where(ExemptionCertificate, customer_name=customer, country=country, status="valid"):
        if c.valid_from <= day <= c.valid_to:
            return c
    return None


class TaxResult(BaseModel):
    """Computed tax of a document."""

    lines: list[TaxLine] = Field(description="Lines with their tax.")
    total_amount: Cents = Field(description="Sum of the amounts in cents.")
    total_taxable: Cents = Field(description="Sum of the taxable amounts in cents.")
    total_tax: Cents = Field(description="Sum of the tax in cents.")
    has_nexus: bool = Field(description="Whether the company collects tax at the destination.")
    exemption_certificate_id: CertificateId | None = Field(description="The certificate that exempted the document.")


def _compute(
    ctx: Ctx, company: Company, customer: str, ship_to: PostalAddress, day: dt.date, lines: list[LineInput]
) -> TaxResult:
    nexus = _has_nexus(ctx, company.id, ship_to.country, day)
    place = _jurisdiction(ctx, ship_to) if nexus else None
    cert = _certificate(ctx, customer, ship_to.country, day) if place is not None else None
    out: list[TaxLine] = []
    for k, ln in enumerate(lines):
        code = ctx.first(TaxCode, code=ln.tax_code)
        if code is None:
            raise RuleViolation(
                f"unknown tax code {ln.tax_code}",
                field=f"lines.{k}.tax_code",
                hint="pick a code from tax__list_tax_codes",
            )
        rate = 0.0
        if place is not None and cert is None and code.taxability != "exempt":
            national = place.country_rate if code.taxability == "full" else place.reduced_rate
            local = place.city_rate if place.city == ship_to.city else 0.0
            rate = round(national + local, 4)
        taxable = ln.amount if rate > 0 else 0
        out.append(
            TaxLine(
                number=k + 1,
                description=ln.description,
                sku=ln.sku,
                tax_code=code.code,
                quantity=ln.quantity,
                amount=ln.amount,
                taxable_amount=taxable,
                rate=rate,
                tax=percent_of(taxable, rate),
            )
        )
    return TaxResult(
        lines=out,
        total_amount=sum(ln.amount for ln in out),
        total_taxable=sum(ln.taxable_amount for ln in out),
        total_tax=sum(ln.tax for ln in out),
        has_nexus=nexus,
        exemption_certificate_id=cert.id if cert else None,
    )


def _unlocked(tx: Transaction, field: str) -> None:
    if tx.status == "voided":
        raise RuleViolation(f"transaction {tx.code} is voided", field=field, hint="voided documents are final")
    if tx.filing_id is not None:
        raise RuleViolation(
            f"transaction {tx.code} was reported on a filed return",
            field=field,
            hint="correct it with a return_invoice in an open period instead",
        )


def _guard_nexus(ctx: Ctx, new: Any, old: Any) -> None:
    if ctx.first(Jurisdiction, country=new.country) is None:
        raise RuleViolation(
            f"no tax rates are known for {new.country}", field="country", hint="declare nexus where rates are listed"
        )
    for other in ctx.where(Nexus, company_id=new.company_id, country=new.country):
        if other.id != new.id:
            raise Conflict(
                f"the company already has nexus in {new.country} ({other.id})",
                field="country",
                hint="one nexus per country",
            )


def _guard_nexus_delete(ctx: Ctx, new: Any, old: Any) -> None:
    for tx in ctx.where(Transaction, company_id=old.company_id, status="committed"):
        if tx.ship_to.country == old.country and tx.filing_id is None:
            raise RuleViolation(
                f"committed transactions to {old.country} are not reported yet (e.g. {tx.code})",
                field="nexus_id",
                hint="file the open returns for that country first",
            )


def _guard_certificate(ctx: Ctx, new: Any, old: Any) -> None:
    if new.valid_to < new.valid_from:
        raise RuleViolation(
            "the certificate ends before it starts", field="valid_to", hint="give a valid_to after valid_from"
        )


companies = service.resource(
    Company,
    name="company",
    plural="companies",
    prefix="co",
    create=False,
    filters=("country", "company_code"),
    search=("name",),
    delete=False,
    title="tax company",
)
jurisdictions = service.resource(
    Jurisdiction,
    name="jurisdiction",
    plural="jurisdictions",
    prefix="jur",
    create=False,
    get=False,
    filters=("country", "city"),
    delete=False,
    title="tax jurisdiction",
)
nexuses = service.resource(
    Nexus,
    name="nexus",
    plural="nexuses",
    prefix="nx",
    create=("company_id", "country", "effective_date"),
    get=False,
    filters=("company_id", "country"),
    guard_create=_guard_nexus,
    guard_delete=_guard_nexus_delete,
)
tax_codes = service.resource(
    TaxCode,
    name="tax_code",
    plural="tax_codes",
    prefix="tc",
    create=False,
    filters=("taxability", "code"),
    search=("description", "code"),
    delete=False,
    title="tax code",
)
certificates = service.resource(
    ExemptionCertificate,
    name="exemption_certificate",
    plural="exemption_certificates",
    prefix="cert",
    create=("customer_name", "customer_email", "country", "reason", "valid_from", "valid_to"),
    filters=("customer_name", "country", "status", "reason"),
    search=("customer_name",),
    delete=False,
    transitions={"revoke": Transition("status", ("valid",), "revoked", "revoke the exemption certificate")},
    guard_create=_guard_certificate,
    title="exemption certificate",
)
transactions = service.resource(
    Transaction,
    name="transaction",
    plural="transactions",
    prefix="tx",
    create=False,
    filters=("company_id", "code", "status", "type", "customer_name", "date", "filing_id"),
    search=("code", "customer_name"),
    delete=False,
    title="tax transaction",
)
filings = service.resource(
    Filing,
    name="filing",
    plural="filings",
    prefix="fil",
    create=False,
    filters=("company_id", "country", "year", "month"),
    delete=False,
    title="tax return",
)


# -- examples ---------------------------------------------------------------------------------


def _default_company(ctx: Ctx) -> Company:
    co = ctx.first(Company, is_default=True)
    assert co is not None
    return co


def _example_calc(ctx: Ctx) -> dict[str, Any]:
    co = _default_company(ctx)
    customer = ctx.population.customers[0]
    return {
        "company_id": co.id,
        "customer_name": customer.name,
        "ship_to": customer.address.model_dump(),
        "lines": [
            {"amount": 12_000, "quantity": 2, "description": "Desk lamps"},
            {"amount": 1_500, "tax_code": "FR020100"},
        ],
    }


def _example_create(ctx: Ctx) -> dict[str, Any]:
    return {**_example_calc(ctx), "code": "INV-98001", "customer_email": "buyer@example.com", "commit": True}


def _example_status(status: str, **extra: Any) -> Any:
    def example(ctx: Ctx) -> dict[str, Any] | None:
        for tx in ctx.where(Transaction, status=status):
            if tx.filing_id is None:
                return {"transaction_id": tx.id, **extra}
        return None

    return example


def _example_adjust(ctx: Ctx) -> dict[str, Any] | None:
    for tx in ctx.where(Transaction, status="committed"):
        if tx.filing_id is None:
            return {
                "transaction_id": tx.id,
                "lines": [{"amount": ln.amount // 2 or 1, "tax_code": ln.tax_code, "sku": ln.sku} for ln in tx.lines],
                "reason": "Price corrected",
            }
    return None


def _example_file(ctx: Ctx) -> dict[str, Any] | None:
    co = _default_company(ctx)
    today = ctx.today()
    for back in range(1, 13):
        period = add_months(today, -back)
        y, m = period.year, period.month
        for nx in ctx.where(Nexus, company_id=co.id):
            if ctx.first(Filing, company_id=co.id, country=nx.country, year=y, month=m) is not None:
                continue
            open_ = [
                t
                for t in ctx.where(Transaction, company_id=co.id, status="saved")
                if t.ship_to.country == nx.country and (t.date.year, t.date.month) == (y, m)
            ]
            if not open_:
                return {"company_id": co.id, "country": nx.country, "year": y, "month": m}
    return None


def _example_address(ctx: Ctx) -> dict[str, Any]:
    return {"address": ctx.population.customers[0].address.model_dump()}


# -- domain tools -----------------------------------------------------------------------------


@service.tool(intent="estimate the tax on the sale", example=_example_calc)
def calculate_tax(
    ctx: Ctx,
    company_id: CompanyId,
    customer_name: CompanyName,
    ship_to: PostalAddress,
    lines: Annotated[list[LineInput], Field(min_length=1, max_length=100)],
    date: Date | None = None,
) -> TaxResult:
    """Compute the tax of a prospective sale without recording anything (a quote or a cart).

    Tax is charged only where the company has nexus, at the destination's
    rates for each line's tax code, and nothing for a customer holding a valid
    exemption certificate for the destination country.

    Args:
        company_id: The selling company.
        customer_name: The buyer.
        ship_to: Destination address.
        lines: Amounts with their tax codes.
        date: Sale date; default today.
    """
    company = ctx.get(Company, company_id, field="company_id")
    return _compute(ctx, company, customer_name, ship_to, date or ctx.today(), lines)


@service.tool(intent="record the sale's tax transaction", write=True, example=_example_create)
def create_transaction(
    ctx: Ctx,
    company_id: CompanyId,
    code: InvoiceNumber,
    customer_name: CompanyName,
    ship_to: PostalAddress,
    lines: Annotated[list[LineInput], Field(min_length=1, max_length=100)],
    date: Date | None = None,
    customer_email: Email | None = None,
    type: Literal["sales_invoice", "return_invoice"] = "sales_invoice",
    commit: bool = False,
) -> Transaction:
    """Record a sales (or return) invoice with its computed tax, saved or committed at once.

    The document code (the invoice number) is used once per company unless
    the earlier document was voided. Documents cannot be dated in a month
    whose return for the destination country was already filed.

    Args:
        company_id: The selling company.
        code: Document code, normally the invoice number.
        customer_name: The buyer.
        ship_to: Destination address.
        lines: Amounts with their tax codes.
        date: Document date; default today.
        customer_email: The buyer's e-mail.
        type: sales_invoice, or return_invoice for a refund.
        commit: Commit it at once (it will be reported).
    """
    company = ctx.get(Company, company_id, field="company_id")
    for other in ctx.where(Transaction, company_id=company.id, code=code):
        if other.status != "voided":
            raise Conflict(
                f"document {code} already exists ({other.id}, {other.status})",
                field="code",
                hint="adjust the existing document with tax__adjust_transaction, or void it first",
            )
    day = date or ctx.today()
    filed = ctx.first(Filing, company_id=company.id, country=ship_to.country, year=day.year, month=day.month)
    if filed is not None:
        raise RuleViolation(
            f"the {day:%B %Y} return for {ship_to.country} is already filed",
            field="date",
            hint="date the document in an open period",
        )
    res = _compute(ctx, company, customer_name, ship_to, day, lines)
    return ctx.create(
        Transaction,
        company_id=company.id,
        code=code,
        type=type,
        status="committed" if commit else "saved",
        date=day,
        customer_name=customer_name,
        customer_email=customer_email,
        ship_to=ship_to,
        currency=company.currency,
        lines=res.lines,
        total_amount=res.total_amount,
        total_taxable=res.total_taxable,
        total_tax=res.total_tax,
        exemption_certificate_id=res.exemption_certificate_id,
    )


@service.tool(intent="commit the tax transaction", write=True, example=_example_status("saved"))
def commit_transaction(ctx: Ctx, transaction_id: TransactionId) -> Transaction:
    """Commit a saved transaction so that it is reported on the month's return.

    Args:
        transaction_id: The saved transaction.
    """
    tx = ctx.get(Transaction, transaction_id, field="transaction_id")
    if tx.status != "saved":
        raise RuleViolation(
            f"transaction {tx.code} is {tx.status}",
            field="transaction_id",
            hint="only saved transactions are committed",
        )
    return ctx.update(tx, status="committed")


@service.tool(
    intent="void the tax transaction",
    write=True,
    destructive=True,
    example=_example_status("committed", reason="Order cancelled"),
)
def void_transaction(ctx: Ctx, transaction_id: TransactionId, reason: Text) -> Transaction:
    """Void a saved or committed transaction that was not reported yet.

    Args:
        transaction_id: The transaction.
        reason: Why (e.g. the order was cancelled).
    """
    tx = ctx.get(Transaction, transaction_id, field="transaction_id")
    _unlocked(tx, "transaction_id")
    if not reason.strip():
        raise RuleViolation("voiding needs a reason", field="reason", hint="say why the document is voided")
    return ctx.update(tx, status="voided", void_reason=reason.strip())


@service.tool(intent="correct the tax transaction's lines", write=True, example=_example_adjust)
def adjust_transaction(
    ctx: Ctx,
    transaction_id: TransactionId,
    lines: Annotated[list[LineInput], Field(min_length=1, max_length=100)],
    reason: Text,
) -> Transaction:
    """Replace the lines of a transaction that was not reported yet; its tax is computed again.

    Args:
        transaction_id: The transaction.
        lines: The corrected lines.
        reason: Why it is adjusted.
    """
    tx = ctx.get(Transaction, transaction_id, field="transaction_id")
    _unlocked(tx, "transaction_id")
    if not reason.strip():
        raise RuleViolation("an adjustment needs a reason", field="reason", hint="say what was corrected")
    company = ctx.get(Company, tx.company_id)
    res = _compute(ctx, company, tx.customer_name, tx.ship_to, tx.date, lines)
    return ctx.update(
        tx,
        lines=res.lines,
        total_amount=res.total_amount,
        total_taxable=res.total_taxable,
        total_tax=res.total_tax,
        exemption_certificate_id=res.exemption_certificate_id,
        adjustment_count=tx.adjustment_count + 1,
        adjustment_reason=reason.strip(),
    )


@service.tool(intent="file the monthly tax return", write=True, example=_example_file)
def file_return(ctx: Ctx, company_id: CompanyId, country: Country, year: Year, month: Month) -> Filing:
    """File a company's return for one country and a month that is over; its committed documents are locked.

    Every document of the month to that country must be committed or voided
    first, and a month is filed once. Return invoices are deducted.

    Args:
        company_id: The company.
        country: The country of the return.
        year: Year of the period.
        month: Month of the period.
    """
    company = ctx.get(Company, company_id, field="company_id")
    last = dt.date(year, month, calendar.monthrange(year, month)[1])
    if last >= ctx.today():
        raise RuleViolation(f"{last:%B %Y} is not over yet", field="month", hint="file a past month")
    if ctx.first(Nexus, company_id=company.id, country=country) is None:
        raise RuleViolation(
            f"{company.name} has no nexus in {country}", field="country", hint="file where the company has nexus"
        )
    if ctx.first(Filing, company_id=company.id, country=country, year=year, month=month) is not None:
        raise Conflict(f"the {last:%B %Y} return for {country} is already filed", field="month", hint="nothing to do")
    period = [
        t
        for t in ctx.where(Transaction, company_id=company.id)
        if t.ship_to.country == country and (t.date.year, t.date.month) == (year, month)
    ]
    saved = [t.code for t in period if t.status == "saved"]
    if saved:
        raise RuleViolation(
            f"{len(saved)} document(s) of the period are not committed: {', '.join(saved[:5])}",
            field="month",
            hint="commit or void them with tax__commit_transaction or tax__void_transaction first",
        )
    done = [t for t in period if t.status == "committed"]

    def signed(t: Transaction, value: int) -> int:
        return -value if t.type == "return_invoice" else value

    n = ctx.next_number(Filing, "confirmation")
    filing = ctx.create(
        Filing,
        company_id=company.id,
        country=country,
        year=year,
        month=month,
        transaction_count=len(done),
        total_sales=sum(signed(t, t.total_amount) for t in done),
        total_taxable=sum(signed(t, t.total_taxable) for t in done),
        total_tax=sum(signed(t, t.total_tax) for t in done),
        confirmation=f"{country}-{year}{month:02d}-{70_000 + n}",
    )
    for t in done:
        ctx.update(t, filing_id=filing.id)
    return filing


class RateLookup(BaseModel):
    """The rates at an address."""

    address: PostalAddress = Field(description="The address.")
    jurisdiction_id: JurisdictionId | None = Field(description="The jurisdiction found, if any.")
    standard_rate: Percent = Field(description="National plus local rate for fully taxed goods, in percent.")
    reduced_rate: Percent = Field(description="National plus local rate for reduced tax codes, in percent.")


@service.tool(intent="look up the tax rate at the address", example=_example_address)
def lookup_tax_rate(ctx: Ctx, address: PostalAddress) -> RateLookup:
    """Look up the combined tax rates at an address (national rate plus the city's, if listed).

    Args:
        address: The address.
    """
    place = _jurisdiction(ctx, address)
    if place is None:
        return RateLookup(address=address, jurisdiction_id=None, standard_rate=0.0, reduced_rate=0.0)
    local = place.city_rate if place.city == address.city else 0.0
    return RateLookup(
        address=address,
        jurisdiction_id=place.id,
        standard_rate=round(place.country_rate + local, 4),
        reduced_rate=round(place.reduced_rate + local, 4),
    )


# -- seed -------------------------------------------------------------------------------------

RATES: dict[str, tuple[float, float]] = {
    "DE": (19.0, 7.0),
    "FR": (20.0, 5.5),
    "ES": (21.0, 10.0),
    "IT": (22.0, 10.0),
    "NL": (21.0, 9.0),
    "SE": (25.0, 12.0),
    "GB": (20.0, 5.0),
    "US": (0.0, 0.0),
    "CA": (5.0, 5.0),
    "JP": (10.0, 8.0),
    "SG": (9.0, 9.0),
    "AU": (10.0, 10.0),
    "BR": (17.0, 7.0),
}
CITY_RATES: dict[str, float] = {
    "New York": 8.875,
    "Chicago": 10.25,
    "Austin": 8.25,
    "San Francisco": 8.625,
    "Seattle": 10.25,
    "Toronto": 8.0,
    "Sao Paulo": 1.0,
}
TAX_CODES: tuple[tuple[str, str, Taxability], ...] = (
    ("P0000000", "Tangible personal property", "full"),
    ("SW050000", "Prewritten software, electronically delivered", "full"),
    ("SC080000", "Professional services", "full"),
    ("PB100000", "Books and printed matter", "reduced"),
    ("PF050000", "Food and groceries", "reduced"),
    ("FR020100", "Freight and delivery charges", "exempt"),
    ("NT", "Non-taxable items", "exempt"),
)


def _seed_rates(s: SeedContext) -> None:
    """A jurisdiction for every city of the population, and the tax codes."""
    for place in s.population.places:
        national, reduced = RATES.get(place.country, (0.0, 0.0))
        s.create(
            Jurisdiction,
            country=place.country,
            city=place.city,
            country_rate=national,
            reduced_rate=reduced,
            city_rate=CITY_RATES.get(place.city, 0.0),
        )
    for code, desc, taxability in TAX_CODES:
        s.create(TaxCode, code=code, description=desc, taxability=taxability)


def _seed_companies(s: SeedContext) -> tuple[Company, set[str]]:
    """The home company and a subsidiary abroad, with their nexus; returns the home company and its nexus countries."""
    pop = s.population
    home = pop.home
    main = s.create(
        Company,
        company_code="HOME",
        name=home.name,
        country=home.place.country,
        currency=home.place.currency,
        tax_id=f"{home.place.country}{pop.seed:03d}{len(home.name):02d}4471",
        is_default=True,
    )
    abroad = next(p for p in pop.places if p.country not in (home.place.country,) and p.country in ("GB", "US", "DE"))
    sub = s.create(
        Company,
        company_code="INTL",
        name=f"{home.name} International",
        country=abroad.country,
        currency=abroad.currency,
        tax_id=f"{abroad.country}{pop.seed:03d}9902",
    )
    # Nexus: at home and in the countries most customers are in.
    counts: dict[str, int] = {}
    for c in pop.customers:
        counts[c.place.country] = counts.get(c.place.country, 0) + 1
    busy = [c for c, _ in sorted(counts.items(), key=lambda kv: (-kv[1], kv[0])) if c != home.place.country][:3]
    for k, country in enumerate([home.place.country, *busy]):
        s.create(
            Nexus,
            company_id=main.id,
            country=country,
            effective_date=dt.date(2024, 1 + k, 1),
            created_at=s.ago(days=700 - k),
        )
    s.create(
        Nexus,
        company_id=sub.id,
        country=abroad.country,
        effective_date=dt.date(2025, 1, 1),
        created_at=s.ago(days=400),
    )
    return main, {home.place.country, *busy}


def _seed_certificates(s: SeedContext) -> dict[str, ExemptionCertificate]:
    """Exemption certificates of the first customers (one expired, one revoked), by customer name."""
    pop = s.population
    certs: dict[str, ExemptionCertificate] = {}
    for k, company in enumerate(pop.customers[:5]):
        contact = pop.first_contact(company)
        certs[company.name] = s.create(
            ExemptionCertificate,
            customer_name=company.name,
            customer_email=contact.email if contact else None,
            country=company.place.country,
            reason=("resale", "charity", "manufacturing", "resale", "government")[k],
            valid_from=dt.date(2025, 1, 1),
            valid_to=dt.date(2025, 12, 31) if k == 3 else dt.date(2027, 12, 31),
            status="revoked" if k == 4 else "valid",
            created_at=s.ago(days=420),
        )
    return certs


@dataclass(frozen=True)
class _Seller:
    """What the seeded documents of the home company are taxed by.

    Attributes:
        s: The seed context.
        company: The home company.
        nexus: The countries it collects tax in.
        certs: Exemption certificates by customer name.
    """

    s: SeedContext
    company: Company
    nexus: set[str]
    certs: dict[str, ExemptionCertificate]

    def document(
        self, n: int, customer: Any, day: dt.date, status: TxStatus, kind: str = "sales_invoice"
    ) -> Transaction:
        """A document selling a few random products (and maybe shipping) to ``customer``, taxed as the service would."""
        pop = self.s.population
        rng = self.s.rng
        lines: list[TaxLine] = []
        place = next(
            (p for p in pop.places if p.country == customer.place.country and p.city == customer.address.city), None
        )
        taxed = customer.place.country in self.nexus
        cert = self.certs.get(customer.name)
        exempt = cert is not None and cert.status == "valid" and cert.valid_from <= day <= cert.valid_to
        national = RATES.get(customer.place.country, (0.0, 0.0))[0]
        local = CITY_RATES.get(customer.address.city, 0.0) if place is not None else 0.0
        for k, product in enumerate(rng.sample(list(pop.products), k=rng.randint(1, 3))):
            qty = rng.randint(1, 6)
            amount = qty * product.price_cents
            rate = round(national + local, 4) if taxed and not exempt else 0.0
            lines.append(
                TaxLine(
                    number=k + 1,
                    description=product.name,
                    sku=product.sku,
                    tax_code="P0000000",
                    quantity=qty,
                    amount=amount,
                    taxable_amount=amount if rate > 0 else 0,
                    rate=rate,
                    tax=percent_of(amount if rate > 0 else 0, rate),
                )
            )
        if rng.random() < 0.4:
            lines.append(
                TaxLine(
                    number=len(lines) + 1,
                    description="Shipping",
                    tax_code="FR020100",
                    quantity=1,
                    amount=24_90,
                    taxable_amount=0,
                    rate=0.0,
                    tax=0,
                )
            )
        contact = pop.first_contact(customer)
        return self.s.create(
            Transaction,
            company_id=self.company.id,
            code=f"SI-{day:%Y%m}-{n:03d}" if kind == "sales_invoice" else f"RI-{day:%Y%m}-{n:03d}",
            type=kind,
            status=status,
            date=day,
            customer_name=customer.name,
            customer_email=contact.email if contact else None,
            ship_to=customer.address,
            currency=self.company.currency,
            lines=lines,
            total_amount=sum(ln.amount for ln in lines),
            total_taxable=sum(ln.taxable_amount for ln in lines),
            total_tax=sum(ln.tax for ln in lines),
            exemption_certificate_id=cert.id if exempt and taxed and cert is not None else None,
            updated_at=utc_at(day, 12),
        )


def _seed_documents(seller: _Seller) -> list[Transaction]:
    """Three months of sales invoices (this month's still saved, a few voided) and three return invoices."""
    today = seller.s.now.date()
    docs: list[Transaction] = []
    customers = list(seller.s.population.customers)
    for n in range(48):
        company = customers[(n * 7) % len(customers)]
        day = today - dt.timedelta(days=2 + (n * 5) % 85)
        status: TxStatus = (
            "voided" if n % 13 == 5 else ("saved" if day.month == today.month or n % 9 == 4 else "committed")
        )
        docs.append(seller.document(n + 1, company, day, status))
    for n in range(3):
        company = customers[n * 5 % len(customers)]
        docs.append(
            seller.document(n + 1, company, today - dt.timedelta(days=20 + n * 15), "committed", "return_invoice")
        )
    return docs


def _signed(t: Transaction, v: int) -> int:
    return -v if t.type == "return_invoice" else v


def _seed_filings(seller: _Seller, docs: list[Transaction]) -> None:
    """The two months before last, filed for every nexus country (their open documents committed first)."""
    s = seller.s
    first = s.now.date().replace(day=1)
    periods = [(d.year, d.month) for d in (add_months(first, -3), add_months(first, -2))]
    for country in sorted(seller.nexus):
        for y, m in periods:
            period = [t for t in docs if t.ship_to.country == country and (t.date.year, t.date.month) == (y, m)]
            done = []
            for t in period:
                if t.status == "saved":
                    t = s.update(t, status="committed")
                if t.status == "committed":
                    done.append(t)
            filing = s.create(
                Filing,
                company_id=seller.company.id,
                country=country,
                year=y,
                month=m,
                transaction_count=len(done),
                total_sales=sum(_signed(t, t.total_amount) for t in done),
                total_taxable=sum(_signed(t, t.total_taxable) for t in done),
                total_tax=sum(_signed(t, t.total_tax) for t in done),
                confirmation=f"{country}-{y}{m:02d}-{60_000 + len(done)}",
                filed_at=utc_at(add_months(dt.date(y, m, 15), 1), 10),
            )
            for t in done:
                s.update(t, filing_id=filing.id)


@service.seeder
def seed(s: SeedContext) -> None:
    """Rates for the population's cities, the home company and a subsidiary, nexus, documents and returns."""
    _seed_rates(s)
    main, nexus = _seed_companies(s)
    seller = _Seller(s, main, nexus, _seed_certificates(s))
    _seed_filings(seller, _seed_documents(seller))
