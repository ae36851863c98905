"""County Tax Roll: property tax: parcels, assessments, exemptions, appeals, tax bills with installments, payments.

Modeled on Tyler Technologies iasWorld (assessment and the tax roll) and Harris
Govern (tax billing and collections): parcels with a parcel number, owner and
property class; an assessment per parcel and tax year (preliminary →
certified) whose taxable value is the market value less approved exemptions
(homestead $50,000 for a residential owner-occupied parcel, senior $25,000 from
age 65, veteran $5,000, disability $5,000; one of each kind per parcel and
year); appeals filed by the owner until the appeal deadline of a preliminary
assessment (filed → hearing_scheduled → granted with a revised value, denied,
or withdrawn) that hold certification until decided; tax bills from a
certified assessment at the county's millage, due in two halves; and payments
applied to the earliest unpaid installment, never above what is owed, with a
10% penalty on an installment paid after its due date.
"""

from __future__ import annotations

import datetime as dt
from typing import Annotated, Any, Literal

from pydantic import Field, StringConstraints

from compoworld.engine.context import Ctx
from compoworld.engine.errors import Conflict, RuleViolation
from compoworld.engine.service import Service, Transition
from compoworld.engine.state import SeedContext
from compoworld.engine.types import Cents, City, Date, Email, IdOf, PersonName, PostalCode, Text
from compoworld.services.kit.examples import first_example
from compoworld.services.kit.records import Timestamped, Value
from compoworld.services.kit.time import age_on

__all__ = ["service"]

service = Service(
    "propertytax",
    title="County Tax Roll",
    category="property_tax",
    modeled_on="Tyler Technologies iasWorld and Harris Govern: parcels, assessments, exemptions, value "
    "appeals, tax bills with installments, payments",
    description="The county assessor's and tax collector's roll: parcels and their owners, yearly assessments "
    "and exemptions, owners' value appeals, tax bills due in two installments, and payments with penalties.",
)

ParcelId = Annotated[str, IdOf("propertytax.parcel")]
AssessmentId = Annotated[str, IdOf("propertytax.assessment")]
ExemptionId = Annotated[str, IdOf("propertytax.exemption")]
AppealId = Annotated[str, IdOf("propertytax.appeal")]
BillId = Annotated[str, IdOf("propertytax.bill")]
InstallmentId = Annotated[str, IdOf("propertytax.installment")]
PaymentId = Annotated[str, IdOf("propertytax.payment")]

ParcelNumber = Annotated[str, StringConstraints(pattern=r"^\d{2}-\d{4}-\d{3}$")]
"""The parcel number, e.g. 14-0312-007."""
TaxYear = Annotated[int, Field(ge=2000, le=2100)]

PropertyClass = Literal["residential", "commercial", "agricultural", "vacant"]
ExemptionKind = Literal["homestead", "senior", "veteran", "disability"]
AppealStatus = Literal["filed", "hearing_scheduled", "granted", "denied", "withdrawn"]
InstallmentStatus = Literal["due", "paid"]

EXEMPT_CENTS: dict[str, int] = {"homestead": 5000000, "senior": 2500000, "veteran": 500000, "disability": 500000}
MILLAGE = 18.5
"""Mills (dollars per $1,000 of taxable value)."""
PENALTY_PCT = 10
OPEN_APPEAL: tuple[AppealStatus, ...] = ("filed", "hearing_scheduled")


class Parcel(Timestamped):
    """A parcel of real property on the roll."""

    id: ParcelId
    parcel_number: ParcelNumber
    """The parcel number (unique)."""
    street: Annotated[str, StringConstraints(min_length=1, max_length=200)]
    """Situs address."""
    city: City
    """City."""
    postal_code: PostalCode
    """ZIP code."""
    owner_name: PersonName
    """Owner of record."""
    owner_email: Email | None = None
    """The owner's e-mail for e-billing."""
    property_class: PropertyClass
    """residential, commercial, agricultural or vacant."""


class Assessment(Timestamped):
    """A parcel's value for one tax year."""

    id: AssessmentId
    parcel_id: ParcelId
    """The parcel."""
    tax_year: TaxYear
    """The tax year."""
    market_value_cents: Cents
    """Just (market) value."""
    exemptions_cents: int = 0
    """Approved exemptions."""
    taxable_value_cents: int
    """Market value less exemptions."""
    status: Literal["preliminary", "certified"] = "preliminary"
    """preliminary (notice sent, appealable) or certified to the tax roll."""
    appeal_deadline: Date
    """Last day to file an appeal."""


class Exemption(Timestamped):
    """An exemption application for a parcel and year."""

    id: ExemptionId
    parcel_id: ParcelId
    """The parcel."""
    tax_year: TaxYear
    """The tax year."""
    kind: ExemptionKind
    """homestead, senior, veteran or disability."""
    amount_cents: int
    """Value exempted."""
    status: Literal["pending", "approved", "denied"] = "pending"
    """pending, approved or denied."""


class Appeal(Timestamped):
    """An owner's petition to lower an assessment."""

    id: AppealId
    assessment_id: AssessmentId
    """The assessment."""
    parcel_id: ParcelId
    """The parcel."""
    owner_email: Email | None = None
    """The petitioner's e-mail."""
    requested_value_cents: Cents
    """The value the owner asks for."""
    reason: Text
    """The owner's evidence (comparable sales, condition)."""
    status: AppealStatus = "filed"
    """filed, hearing_scheduled, granted, denied or withdrawn."""
    hearing_on: Date | None = None
    """The value adjustment board hearing."""
    decided_value_cents: int | None = None
    """The value set when granted."""


class Bill(Timestamped):
    """A tax bill for a parcel and year."""

    id: BillId
    bill_number: Annotated[str, StringConstraints(pattern=r"^\d{4}-\d{6}$")]
    """The bill number, e.g. 2026-000123."""
    parcel_id: ParcelId
    """The parcel."""
    parcel_number: ParcelNumber
    """Its number."""
    tax_year: TaxYear
    """The tax year."""
    amount_cents: int
    """Taxes levied."""
    paid_cents: int = 0
    """Paid so far (penalties included)."""
    status: Literal["open", "paid"] = "open"
    """open or paid."""


class Installment(Timestamped):
    """Half of a bill, with its due date."""

    id: InstallmentId
    bill_id: BillId
    """The bill."""
    number: Literal[1, 2]
    """First or second half."""
    due_on: Date
    """Due date."""
    amount_cents: int
    """Amount due."""
    penalty_cents: int = 0
    """Late penalty charged."""
    status: InstallmentStatus = "due"
    """due or paid."""


class Payment(Timestamped):
    """A payment on a bill."""

    id: PaymentId
    bill_id: BillId
    """The bill."""
    amount_cents: int
    """Amount paid."""
    payer_email: Email | None = None
    """Who paid."""
    paid_on: Date
    """When."""


class TaxEstimate(Value):
    """A parcel's estimated tax for its latest assessment."""

    parcel_number: ParcelNumber
    """The parcel."""
    tax_year: int
    """The year."""
    taxable_value_cents: int
    """Taxable value."""
    millage: float
    """Mills."""
    tax_cents: int
    """Estimated tax."""


# -- rules ------------------------------------------------------------------------------------


def _tax(taxable: int) -> int:
    return round(taxable * MILLAGE / 1000)


def _parcel(ctx: Ctx, number: str) -> Parcel:
    found = ctx.first(Parcel, parcel_number=number)
    if found is None:
        raise RuleViolation(f"no parcel {number}", field="parcel_number", hint="search parcels by address")
    return found


def _revalue(ctx: Ctx, a: Assessment, market: int | None = None) -> Assessment:
    value = a.market_value_cents if market is None else market
    approved = ctx.where(Exemption, parcel_id=a.parcel_id, tax_year=a.tax_year, status="approved")
    exempt = min(value, sum(e.amount_cents for e in approved))
    return ctx.update(a, market_value_cents=value, exemptions_cents=exempt, taxable_value_cents=value - exempt)


def _guard_exemption(ctx: Ctx, new: Any, old: Any) -> None:
    if new.status != old.status:
        a = ctx.first(Assessment, parcel_id=new.parcel_id, tax_year=new.tax_year)
        if a is not None and a.status == "certified":
            raise RuleViolation(
                f"the {new.tax_year} roll is certified", field="exemption_id", hint="apply for next year"
            )
        if a is not None and new.status == "approved":
            _count_exemption(ctx, a, new)


def _count_exemption(ctx: Ctx, a: Assessment, ex: Exemption) -> None:
    approved = ctx.where(Exemption, parcel_id=a.parcel_id, tax_year=a.tax_year, status="approved")
    total = sum(e.amount_cents for e in approved if e.id != ex.id) + ex.amount_cents
    exempt = min(a.market_value_cents, total)
    ctx.update(a, exemptions_cents=exempt, taxable_value_cents=a.market_value_cents - exempt)


parcels = service.resource(
    Parcel,
    name="parcel",
    plural="parcels",
    prefix="prc",
    create=False,
    filters=("parcel_number", "owner_email", "property_class", "city", "postal_code"),
    search=("street", "owner_name"),
    update=("owner_email",),
    delete=False,
)
assessments = service.resource(
    Assessment,
    name="assessment",
    plural="assessments",
    prefix="asm",
    create=False,
    filters=("parcel_id", "tax_year", "status"),
    delete=False,
)
exemptions = service.resource(
    Exemption,
    name="exemption",
    plural="exemptions",
    prefix="exm",
    create=False,
    filters=("parcel_id", "tax_year", "kind", "status"),
    delete=False,
    transitions={
        "approve": Transition("status", ("pending",), "approved", "approve the exemption"),
        "deny": Transition("status", ("pending",), "denied", "deny the exemption"),
    },
    guard_update=_guard_exemption,
)
appeals = service.resource(
    Appeal,
    name="appeal",
    plural="appeals",
    prefix="apl",
    create=False,
    filters=("assessment_id", "parcel_id", "owner_email", "status"),
    delete=False,
    transitions={"withdraw": Transition("status", OPEN_APPEAL, "withdrawn", "withdraw the value appeal")},
)
bills = service.resource(
    Bill,
    name="bill",
    plural="bills",
    prefix="bill",
    create=False,
    filters=("bill_number", "parcel_id", "parcel_number", "tax_year", "status"),
    delete=False,
    title="tax bill",
)
installments = service.resource(
    Installment,
    name="installment",
    plural="installments",
    prefix="inst",
    create=False,
    get=False,
    filters=("bill_id", "status", "number"),
    delete=False,
)
payments = service.resource(
    Payment,
    name="payment",
    plural="payments",
    prefix="pmt",
    create=False,
    filters=("bill_id", "payer_email", "paid_on"),
    delete=False,
)


# -- domain tools -----------------------------------------------------------------------------


def _example_exemption(ctx: Ctx) -> dict[str, Any] | None:
    for a in ctx.where(Assessment, status="preliminary"):
        p = ctx.get(Parcel, a.parcel_id)
        if ctx.first(Exemption, parcel_id=p.id, tax_year=a.tax_year, kind="veteran") is None:
            return {"parcel_number": p.parcel_number, "kind": "veteran"}
    return None


@service.tool(intent="apply for a property tax exemption", write=True, example=_example_exemption)
def apply_exemption(
    ctx: Ctx, parcel_number: ParcelNumber, kind: ExemptionKind, owner_birth_date: Date | None = None
) -> Exemption:
    """Apply for an exemption on the parcel's preliminary assessment; one of each kind per year.

    Args:
        parcel_number: The parcel.
        kind: homestead (residential parcels), senior (owner 65 or older), veteran or disability.
        owner_birth_date: The owner's date of birth (senior exemption).
    """
    p = _parcel(ctx, parcel_number)
    a = max(ctx.where(Assessment, parcel_id=p.id), key=lambda x: x.tax_year, default=None)
    if a is None or a.status != "preliminary":
        raise RuleViolation("the roll for this year is certified", field="parcel_number", hint="apply next year")
    if kind == "homestead" and p.property_class != "residential":
        raise RuleViolation("homestead is for residential parcels", field="kind", hint="pick another exemption")
    if kind == "senior" and (owner_birth_date is None or age_on(owner_birth_date, dt.date(a.tax_year, 1, 1)) < 65):
        raise RuleViolation(
            "the senior exemption needs an owner 65 or older on January 1",
            field="owner_birth_date",
            hint="give the owner's date of birth",
        )
    for e in ctx.where(Exemption, parcel_id=p.id, tax_year=a.tax_year, kind=kind):
        if e.status != "denied":
            raise Conflict(f"{kind} exemption {e.id} is already {e.status}", field="kind", hint="nothing to do")
    return ctx.create(Exemption, parcel_id=p.id, tax_year=a.tax_year, kind=kind, amount_cents=EXEMPT_CENTS[kind])


def _example_appeal(ctx: Ctx) -> dict[str, Any] | None:
    for a in ctx.where(Assessment, status="preliminary"):
        if ctx.today() <= a.appeal_deadline and not [
            x for x in ctx.where(Appeal, assessment_id=a.id) if x.status in OPEN_APPEAL
        ]:
            return {
                "assessment_id": a.id,
                "requested_value_cents": a.market_value_cents * 9 // 10,
                "reason": "Three comparable sales on the street closed 10% lower.",
            }
    return None


@service.tool(intent="file a value appeal on the assessment", write=True, example=_example_appeal)
def file_appeal(ctx: Ctx, assessment_id: AssessmentId, requested_value_cents: Cents, reason: Text) -> Appeal:
    """Petition to lower a preliminary assessment, by its appeal deadline; one open appeal at a time.

    Args:
        assessment_id: The assessment.
        requested_value_cents: The market value the owner asks for (below the assessed one).
        reason: The evidence (required).
    """
    a = ctx.get(Assessment, assessment_id, field="assessment_id")
    if a.status != "preliminary" or ctx.today() > a.appeal_deadline:
        raise RuleViolation(
            f"the appeal deadline was {a.appeal_deadline}", field="assessment_id", hint="appeal next year's notice"
        )
    if requested_value_cents >= a.market_value_cents:
        raise RuleViolation(
            "the requested value must be below the assessed value", field="requested_value_cents", hint="ask lower"
        )
    if not reason.strip():
        raise RuleViolation("an appeal needs evidence", field="reason", hint="cite comparable sales or condition")
    for x in ctx.where(Appeal, assessment_id=a.id):
        if x.status in OPEN_APPEAL:
            raise Conflict(f"appeal {x.id} is already {x.status}", field="assessment_id", hint="wait for its decision")
    p = ctx.get(Parcel, a.parcel_id)
    return ctx.create(
        Appeal,
        assessment_id=a.id,
        parcel_id=p.id,
        owner_email=p.owner_email,
        requested_value_cents=requested_value_cents,
        reason=reason.strip(),
    )


def _example_hearing(ctx: Ctx) -> dict[str, Any] | None:
    x = ctx.first(Appeal, status="filed")
    return None if x is None else {"appeal_id": x.id, "hearing_on": (ctx.today() + dt.timedelta(days=21)).isoformat()}


@service.tool(intent="schedule the appeal hearing", write=True, example=_example_hearing)
def schedule_hearing(ctx: Ctx, appeal_id: AppealId, hearing_on: Date) -> Appeal:
    """Set the value adjustment board hearing of a filed appeal, at least 15 days' notice ahead.

    Args:
        appeal_id: The appeal.
        hearing_on: The hearing day.
    """
    x = ctx.get(Appeal, appeal_id, field="appeal_id")
    if x.status != "filed":
        raise Conflict(f"appeal {x.id} is {x.status}", field="appeal_id", hint="only filed appeals get a hearing")
    if hearing_on < ctx.today() + dt.timedelta(days=15):
        raise RuleViolation("owners get 15 days' notice", field="hearing_on", hint="pick a later day")
    return ctx.update(x, status="hearing_scheduled", hearing_on=hearing_on)


@service.tool(
    intent="decide the value appeal",
    write=True,
    example=first_example(Appeal, "appeal_id", where={"status": "hearing_scheduled"}, granted=False),
)
def decide_appeal(ctx: Ctx, appeal_id: AppealId, granted: bool, decided_value_cents: Cents | None = None) -> Appeal:
    """Record the board's decision after the hearing: granted revalues the assessment, denied keeps it.

    Args:
        appeal_id: The appeal with a hearing.
        granted: Whether the value is lowered.
        decided_value_cents: The new market value (granted): below the assessed value, not below what was asked.
    """
    x = ctx.get(Appeal, appeal_id, field="appeal_id")
    if x.status != "hearing_scheduled":
        raise RuleViolation(f"appeal {x.id} is {x.status}", field="appeal_id", hint="schedule its hearing first")
    if not granted:
        return ctx.update(x, status="denied")
    a = ctx.get(Assessment, x.assessment_id)
    if decided_value_cents is None or not x.requested_value_cents <= decided_value_cents < a.market_value_cents:
        raise RuleViolation(
            "a granted appeal sets a value between the requested and the assessed value",
            field="decided_value_cents",
            hint=f"pick {x.requested_value_cents} to {a.market_value_cents - 1}",
        )
    _revalue(ctx, a, decided_value_cents)
    return ctx.update(x, status="granted", decided_value_cents=decided_value_cents)


@service.tool(
    intent="certify the assessment to the tax roll",
    write=True,
    example=first_example(
        Assessment,
        "assessment_id",
        where={"status": "preliminary"},
        match=lambda ctx, a: not [x for x in ctx.where(Appeal, assessment_id=a.id) if x.status in OPEN_APPEAL],
    ),
)
def certify_assessment(ctx: Ctx, assessment_id: AssessmentId) -> Assessment:
    """Certify a preliminary assessment; open appeals and pending exemptions must be decided first.

    Args:
        assessment_id: The assessment.
    """
    a = ctx.get(Assessment, assessment_id, field="assessment_id")
    if a.status != "preliminary":
        raise Conflict(f"assessment {a.id} is already certified", field="assessment_id", hint="nothing to do")
    if [x for x in ctx.where(Appeal, assessment_id=a.id) if x.status in OPEN_APPEAL]:
        raise RuleViolation("an appeal is open", field="assessment_id", hint="decide or withdraw it first")
    if ctx.where(Exemption, parcel_id=a.parcel_id, tax_year=a.tax_year, status="pending"):
        raise RuleViolation("an exemption is pending", field="assessment_id", hint="approve or deny it first")
    return ctx.update(a, status="certified")


@service.tool(
    intent="issue the tax bill",
    write=True,
    example=first_example(
        Assessment,
        "assessment_id",
        where={"status": "certified"},
        match=lambda ctx, a: ctx.first(Bill, parcel_id=a.parcel_id, tax_year=a.tax_year) is None,
    ),
)
def generate_bill(ctx: Ctx, assessment_id: AssessmentId) -> Bill:
    """Bill a certified assessment at the county millage, in two halves due in 30 and 150 days.

    Args:
        assessment_id: The certified assessment.
    """
    a = ctx.get(Assessment, assessment_id, field="assessment_id")
    if a.status != "certified":
        raise RuleViolation("only certified assessments are billed", field="assessment_id", hint="certify it first")
    if ctx.first(Bill, parcel_id=a.parcel_id, tax_year=a.tax_year) is not None:
        raise Conflict(f"the {a.tax_year} bill exists", field="assessment_id", hint="find it with list_bills")
    p = ctx.get(Parcel, a.parcel_id)
    total = _tax(a.taxable_value_cents)
    bill = ctx.create(
        Bill,
        bill_number=f"{a.tax_year}-{ctx.next_number(Bill, 'number') + 800:06d}",
        parcel_id=p.id,
        parcel_number=p.parcel_number,
        tax_year=a.tax_year,
        amount_cents=total,
        status="open" if total else "paid",
    )
    for n, days, amount in ((1, 30, total // 2), (2, 150, total - total // 2)):
        ctx.create(
            Installment,
            bill_id=bill.id,
            number=n,
            due_on=ctx.today() + dt.timedelta(days=days),
            amount_cents=amount,
            status="due" if amount else "paid",
        )
    return bill


def _example_pay(ctx: Ctx) -> dict[str, Any] | None:
    for inst in ctx.where(Installment, status="due"):
        bill = ctx.get(Bill, inst.bill_id)
        late = inst.amount_cents * PENALTY_PCT // 100 if ctx.today() > inst.due_on else 0
        return {"bill_number": bill.bill_number, "amount_cents": inst.amount_cents + late}
    return None


@service.tool(intent="pay the tax bill", write=True, example=_example_pay)
def pay_bill(
    ctx: Ctx,
    bill_number: Annotated[str, StringConstraints(pattern=r"^\d{4}-\d{6}$")],
    amount_cents: Annotated[int, Field(ge=1)],
    payer_email: Email | None = None,
) -> Payment:
    """Pay a bill: the amount settles installments in order, each late one with a 10% penalty; no overpaying.

    Args:
        bill_number: The bill number.
        amount_cents: Amount paid; it must settle whole installments.
        payer_email: Who pays.
    """
    bill = ctx.first(Bill, bill_number=bill_number)
    if bill is None:
        raise RuleViolation(f"no bill {bill_number}", field="bill_number", hint="find it with list_bills")
    due = sorted(ctx.where(Installment, bill_id=bill.id, status="due"), key=lambda i: i.number)
    if not due:
        raise Conflict(f"bill {bill_number} is paid", field="bill_number", hint="nothing is owed")
    today = ctx.today()
    left = amount_cents
    owed = [(i, i.amount_cents * PENALTY_PCT // 100 if today > i.due_on else 0) for i in due]
    settled = []
    for inst, penalty in owed:
        if left >= inst.amount_cents + penalty:
            left -= inst.amount_cents + penalty
            settled.append((inst, penalty))
    if left or not settled:
        sums = []
        running = 0
        for inst, penalty in owed:
            running += inst.amount_cents + penalty
            sums.append(str(running))
        raise RuleViolation(
            f"the payment must settle whole installments: {' or '.join(sums)} cents",
            field="amount_cents",
            hint="pay the next installment (with any penalty) or the whole balance",
        )
    for inst, penalty in settled:
        ctx.update(inst, status="paid", penalty_cents=penalty)
    done = len(settled) == len(due)
    ctx.update(bill, paid_cents=bill.paid_cents + amount_cents, status="paid" if done else "open")
    return ctx.create(Payment, bill_id=bill.id, amount_cents=amount_cents, payer_email=payer_email, paid_on=today)


@service.tool(
    intent="estimate the parcel's property tax",
    example=first_example(Parcel, None, fields={"parcel_number": "parcel_number"}),
)
def tax_estimate(ctx: Ctx, parcel_number: ParcelNumber) -> TaxEstimate:
    """The tax the parcel's latest assessment comes to at the county millage.

    Args:
        parcel_number: The parcel.
    """
    p = _parcel(ctx, parcel_number)
    a = max(ctx.where(Assessment, parcel_id=p.id), key=lambda x: x.tax_year, default=None)
    if a is None:
        raise RuleViolation("the parcel has no assessment", field="parcel_number", hint="ask the assessor")
    return TaxEstimate(
        parcel_number=p.parcel_number,
        tax_year=a.tax_year,
        taxable_value_cents=a.taxable_value_cents,
        millage=MILLAGE,
        tax_cents=_tax(a.taxable_value_cents),
    )


# -- seed -------------------------------------------------------------------------------------

CLASSES: tuple[PropertyClass, ...] = ("residential",) * 5 + ("commercial", "agricultural", "vacant")


@service.seeder
def seed(s: SeedContext) -> None:
    """Parcels of the world's residents, last year's certified roll and bills, this year's preliminary roll."""
    pop = s.population
    today = s.now.date()
    year = today.year
    for k, p in enumerate(pop.consumers[:20]):
        cls = CLASSES[k % len(CLASSES)]
        parcel = s.create(
            Parcel,
            parcel_number=f"{10 + k % 7:02d}-{300 + 13 * k:04d}-{k % 9 + 1:03d}",
            street=p.address.street,
            city=p.address.city,
            postal_code=p.address.postal_code,
            owner_name=p.name,
            owner_email=p.email if k % 5 else None,
            property_class=cls,
            created_at=s.ago(days=3000),
            updated_at=s.ago(days=100),
        )
        base = (18000000 + 2300000 * (k % 11)) * (3 if cls == "commercial" else 1)
        homestead = cls == "residential" and k % 2 == 0
        for y, value in ((year - 1, base), (year, base * 106 // 100)):
            exempt = min(value, EXEMPT_CENTS["homestead"]) if homestead else 0
            current = y == year
            a = s.create(
                Assessment,
                parcel_id=parcel.id,
                tax_year=y,
                market_value_cents=value,
                exemptions_cents=exempt,
                taxable_value_cents=value - exempt,
                status="certified" if not current or k == 19 else "preliminary",
                appeal_deadline=dt.date(y, 1, 1) + dt.timedelta(days=(today - dt.date(year, 1, 1)).days + 25),
                created_at=s.ago(days=60 + 365 * (year - y)),
                updated_at=s.ago(days=30 + 365 * (year - y)),
            )
            if homestead:
                s.create(
                    Exemption,
                    parcel_id=parcel.id,
                    tax_year=y,
                    kind="homestead",
                    amount_cents=EXEMPT_CENTS["homestead"],
                    status="approved",
                    created_at=s.ago(days=90 + 365 * (year - y)),
                    updated_at=s.ago(days=80 + 365 * (year - y)),
                )
            if current:
                if k in (3, 5, 8):
                    s.create(
                        Appeal,
                        assessment_id=a.id,
                        parcel_id=parcel.id,
                        owner_email=parcel.owner_email,
                        requested_value_cents=value * 85 // 100,
                        reason="Roof damage and comparable sales below the assessed value.",
                        status="filed" if k != 5 else "hearing_scheduled",
                        hearing_on=today + dt.timedelta(days=20) if k == 5 else None,
                        created_at=s.ago(days=10),
                        updated_at=s.ago(days=5),
                    )
                if k in (1, 7):
                    s.create(
                        Exemption,
                        parcel_id=parcel.id,
                        tax_year=y,
                        kind="veteran",
                        amount_cents=EXEMPT_CENTS["veteran"],
                        created_at=s.ago(days=12),
                        updated_at=s.ago(days=12),
                    )
                continue
            total = _tax(value - exempt)
            paid_halves = k % 3  # 0: nothing paid (delinquent), 1: first half, 2: all
            bill = s.create(
                Bill,
                bill_number=f"{y}-{100 + k:06d}",
                parcel_id=parcel.id,
                parcel_number=parcel.parcel_number,
                tax_year=y,
                amount_cents=total,
                paid_cents=total if paid_halves == 2 else (total // 2 if paid_halves else 0),
                status="paid" if paid_halves == 2 else "open",
                created_at=s.ago(days=300),
                updated_at=s.ago(days=40),
            )
            for n, due, amount in ((1, 270, total // 2), (2, 150 - 170 * (k % 2), total - total // 2)):
                s.create(
                    Installment,
                    bill_id=bill.id,
                    number=n,
                    due_on=today - dt.timedelta(days=due),
                    amount_cents=amount,
                    status="paid" if n <= paid_halves else "due",
                    created_at=s.ago(days=300),
                    updated_at=s.ago(days=40),
                )
                if n <= paid_halves:
                    s.create(
                        Payment,
                        bill_id=bill.id,
                        amount_cents=amount,
                        payer_email=parcel.owner_email,
                        paid_on=today - dt.timedelta(days=due + 3),
                        created_at=s.ago(days=due + 3),
                        updated_at=s.ago(days=due + 3),
                    )
