"""Benchline LIMS: QC samples with chain of custody, methods and specifications, instruments, results, OOS, CoAs.

Modeled on LabWare LIMS / LabVantage (Sample, Test, Result, Specification, Instrument and
Calibration, Investigation, Certificate of Analysis objects and their REST web services): a sample is
logged for a product lot against the product's approved specifications, which create one test per
specified method; it goes logged → received → in_testing → complete → reviewed → released or
rejected, and is disposed only after a decision. Every hand-over is a chain-of-custody entry from the
current custodian to an employee. A result needs an analyst, an in-service instrument of the method's
technique whose calibration is not overdue; a value outside the specification limits puts the test out
of specification (OOS) and opens an investigation: a phase I lab error invalidates the result and
opens a retest, a confirmed OOS fails the test. Review needs every test finished, no open investigation
and a reviewer who entered none of the results (four-eyes); a sample with a failed test is rejected,
never released; certificates of analysis are issued once, for released samples only.
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
from compoworld.engine.types import CompanyName, Date, DateTime, Email, IdOf, Sku, Text, Title
from compoworld.services.kit.examples import first_example
from compoworld.services.kit.records import Value

__all__ = ["service"]

service = Service(
    "lims",
    title="Benchline LIMS",
    category="lims",
    modeled_on="LabWare LIMS / LabVantage REST web services (samples, tests, results, specifications, "
    "instruments and calibrations, OOS investigations, review and release, certificates of analysis)",
    description="Quality-control laboratory information management: test methods and product specifications, "
    "lab instruments and their calibration, samples of product lots with chain of custody, test results with "
    "out-of-specification investigations, four-eyes review and release, and certificates of analysis.",
)

MethodId = Annotated[str, IdOf("lims.method")]
SpecId = Annotated[str, IdOf("lims.specification")]
InstrumentId = Annotated[str, IdOf("lims.instrument")]
SampleId = Annotated[str, IdOf("lims.sample")]
TestId = Annotated[str, IdOf("lims.test")]
CustodyId = Annotated[str, IdOf("lims.custody_entry")]
InvestigationId = Annotated[str, IdOf("lims.investigation")]
CoaId = Annotated[str, IdOf("lims.certificate")]

MethodCode = Annotated[str, StringConstraints(pattern=r"^[A-Z]{2,6}-\d{2,4}$")]
LotNumber = Annotated[str, StringConstraints(pattern=r"^[A-Z0-9-]{4,20}$")]
Technique = Literal["hplc", "gc", "ph_meter", "karl_fischer", "viscometer", "icp_ms", "incubator"]
SampleType = Literal["raw_material", "in_process", "finished_product", "stability"]
SampleStatus = Literal["logged", "received", "in_testing", "complete", "reviewed", "released", "rejected", "disposed"]
TestStatus = Literal["pending", "complete", "oos", "failed", "invalidated"]
SpecStatus = Literal["draft", "approved", "retired"]
InstrumentStatus = Literal["in_service", "out_of_service"]
Finding = Literal["lab_error", "confirmed_oos"]

CUSTODY_FROM_START = "sampling"


class Method(Record):
    """A test method (SOP) measuring one analyte on one technique."""

    id: MethodId
    code: MethodCode
    """Method code, e.g. HPLC-101 (unique)."""
    name: Title
    """Method name."""
    analyte: Title
    """What it measures."""
    unit: Annotated[str, StringConstraints(min_length=1, max_length=20)]
    """Unit of the result."""
    technique: Technique
    """The instrument technique it needs."""


class Specification(Record):
    """Acceptance limits of one method for one product."""

    id: SpecId
    product_sku: Sku
    """The product."""
    method_id: MethodId
    """The method."""
    min_value: float | None = None
    """Lowest acceptable result (none: no lower limit)."""
    max_value: float | None = None
    """Highest acceptable result (none: no upper limit)."""
    status: SpecStatus = "draft"
    """draft, approved or retired; only approved ones create tests."""


class Instrument(Record):
    """A lab instrument."""

    id: InstrumentId
    name: Title
    """Instrument name and asset tag."""
    technique: Technique
    """Its technique."""
    serial_number: Annotated[str, StringConstraints(pattern=r"^[A-Z0-9-]{4,30}$")]
    """Manufacturer serial number."""
    calibration_interval_days: Annotated[int, Field(ge=1, le=730)] = 180
    """Days between calibrations."""
    last_calibrated_on: Date
    """Last calibration."""
    calibration_due_on: Date
    """When the next calibration is due."""
    status: InstrumentStatus = "in_service"
    """in_service or out_of_service."""


class Sample(Record):
    """A sample of a product lot."""

    id: SampleId
    sample_number: Annotated[str, Generated("sequence", "S-{n:06d}")]
    """Sample number."""
    product_sku: Sku
    """The product."""
    product_name: Title
    """Its name."""
    lot_number: LotNumber
    """The lot sampled."""
    sample_type: SampleType
    """raw_material, in_process, finished_product or stability."""
    customer_name: CompanyName | None = None
    """The customer the lot ships to, for its certificate."""
    custodian_email: Email
    """Who holds the sample now."""
    status: SampleStatus = "logged"
    """logged, received, in_testing, complete, reviewed, released, rejected or disposed."""
    reviewed_by: Email | None = None
    """The reviewer."""
    collected_at: DateTime
    """When it was drawn."""
    updated_at: Annotated[DateTime, UPDATED]
    """When it last changed."""


class Test(Record):
    """One method run on a sample, with its result."""

    id: TestId
    sample_id: SampleId
    """The sample."""
    method_id: MethodId
    """The method."""
    spec_id: SpecId
    """The specification it is judged by."""
    status: TestStatus = "pending"
    """pending, complete, oos (under investigation), failed or invalidated."""
    value: float | None = None
    """The result."""
    in_spec: bool | None = None
    """Whether the result meets the specification."""
    analyst_email: Email | None = None
    """Who entered the result."""
    instrument_id: InstrumentId | None = None
    """Instrument used."""
    retest_of: TestId | None = None
    """The invalidated test this one repeats."""
    updated_at: Annotated[DateTime, UPDATED]
    """When it last changed."""


class CustodyEntry(Record):
    """A hand-over in a sample's chain of custody."""

    id: CustodyId
    sample_id: SampleId
    """The sample."""
    from_party: Annotated[str, StringConstraints(min_length=1, max_length=200)]
    """Who gave it (an e-mail, or sampling)."""
    to_email: Email
    """Who took it."""
    purpose: Title
    """Why."""
    at: Annotated[DateTime, CREATED]
    """When."""


class Investigation(Record):
    """An out-of-specification investigation of a result."""

    id: InvestigationId
    test_id: TestId
    """The OOS test."""
    sample_id: SampleId
    """Its sample."""
    status: Literal["open", "closed"] = "open"
    """open or closed."""
    finding: Finding | None = None
    """lab_error (result invalidated, retest) or confirmed_oos (test failed)."""
    root_cause: Text = ""
    """What was found."""
    opened_at: Annotated[DateTime, CREATED]
    """When it opened."""


class CoaLine(Value):
    """A reported result on a certificate."""

    method_code: MethodCode
    """Method."""
    analyte: Title
    """Analyte."""
    result: float
    """Result."""
    unit: str
    """Unit."""
    limits: str
    """Specification limits as text."""


class Certificate(Record):
    """A certificate of analysis for a released sample."""

    id: CoaId
    sample_id: SampleId
    """The sample."""
    recipient_email: Email
    """Who it is sent to."""
    lines: tuple[CoaLine, ...]
    """One line per reportable test."""
    issued_by: Email
    """The QA approver."""
    issued_at: Annotated[DateTime, CREATED]
    """When."""


# -- rules ------------------------------------------------------------------------------------


def _staff(ctx: Ctx, email: str, field: str) -> None:
    if email not in {p.email for p in ctx.population.employees}:
        raise RuleViolation(f"{email} is not lab staff", field=field, hint="use an employee's e-mail")


def _guard_spec(ctx: Ctx, new: Any, old: Any) -> None:
    ctx.get(Method, new.method_id, field="method_id")
    if new.min_value is None and new.max_value is None:
        raise RuleViolation("a specification needs a limit", field="min_value", hint="give a minimum or maximum")
    if new.min_value is not None and new.max_value is not None and new.min_value > new.max_value:
        raise RuleViolation("min_value is above max_value", field="min_value", hint="swap the limits")
    for other in ctx.where(Specification, product_sku=new.product_sku, method_id=new.method_id):
        if other.id != new.id and other.status == "approved" and new.status == "approved":
            raise Conflict(
                f"{other.id} is already approved for this product and method",
                field="specification_id",
                hint="retire it first",
            )


methods = service.resource(
    Method,
    name="method",
    plural="methods",
    prefix="mth",
    create=False,
    filters=("technique", "code"),
    search=("name", "analyte"),
    delete=False,
    unique=("code",),
    title="test method",
)
specs = service.resource(
    Specification,
    name="specification",
    plural="specifications",
    prefix="spec",
    create=("product_sku", "method_id", "min_value", "max_value"),
    get=False,
    filters=("product_sku", "method_id", "status"),
    delete=False,
    transitions={
        "approve": Transition("status", ("draft",), "approved", "approve the specification"),
        "retire": Transition("status", ("approved",), "retired", "retire the specification"),
    },
    guard_create=_guard_spec,
    guard_update=_guard_spec,
)
instruments = service.resource(
    Instrument,
    name="instrument",
    plural="instruments",
    prefix="ins",
    create=False,
    filters=("technique", "status"),
    search=("name", "serial_number"),
    delete=False,
    transitions={
        "take_out_of_service": Transition(
            "status", ("in_service",), "out_of_service", "take the instrument out of service"
        )
    },
)
samples = service.resource(
    Sample,
    name="sample",
    plural="samples",
    prefix="smp",
    create=False,
    filters=("product_sku", "lot_number", "status", "sample_type", "custodian_email", "customer_name"),
    search=("product_name", "lot_number"),
    delete=False,
)
tests = service.resource(
    Test,
    name="test",
    plural="tests",
    prefix="tst",
    create=False,
    get=False,
    filters=("sample_id", "method_id", "status", "analyst_email"),
    delete=False,
)
custody = service.resource(
    CustodyEntry,
    name="custody_entry",
    plural="custody_entries",
    prefix="coc",
    create=False,
    get=False,
    filters=("sample_id", "to_email"),
    delete=False,
    title="chain-of-custody entry",
)
investigations = service.resource(
    Investigation,
    name="investigation",
    plural="investigations",
    prefix="oos",
    create=False,
    filters=("sample_id", "test_id", "status", "finding"),
    delete=False,
    title="OOS investigation",
)
certificates = service.resource(
    Certificate,
    name="certificate",
    plural="certificates",
    prefix="coa",
    create=False,
    filters=("sample_id", "recipient_email"),
    delete=False,
    title="certificate of analysis",
)


# -- domain tools -----------------------------------------------------------------------------


@service.tool(
    intent="define the test method",
    write=True,
    example=lambda c: {
        "code": "GC-710",
        "name": "Residual solvents by GC",
        "analyte": "Ethanol",
        "unit": "ppm",
        "technique": "gc",
    },
)
def define_method(
    ctx: Ctx,
    code: MethodCode,
    name: Title,
    analyte: Title,
    unit: Annotated[str, StringConstraints(min_length=1, max_length=20)],
    technique: Technique,
) -> Method:
    """Define a test method; codes are unique.

    Args:
        code: Method code, 2-6 capitals, a dash and 2-4 digits (e.g. HPLC-101).
        name: Method name.
        analyte: What it measures.
        unit: Unit of its results.
        technique: The instrument technique it needs.
    """
    other = ctx.first(Method, code=code)
    if other is not None:
        raise Conflict(f"method {code} already exists ({other.id})", field="code", hint="pick another code")
    return ctx.create(Method, code=code, name=name, analyte=analyte, unit=unit, technique=technique)


def _example_log(ctx: Ctx) -> dict[str, Any] | None:
    spec = ctx.first(Specification, status="approved")
    if spec is None:
        return None
    return {
        "product_sku": spec.product_sku,
        "lot_number": "LOT-24-0999",
        "sample_type": "finished_product",
        "collected_by": ctx.population.employees[0].email,
    }


@service.tool(intent="log the sample", write=True, example=_example_log)
def log_sample(
    ctx: Ctx,
    product_sku: Sku,
    lot_number: LotNumber,
    sample_type: SampleType,
    collected_by: Email,
    customer_name: CompanyName | None = None,
) -> Sample:
    """Log a sample of a product lot: one pending test per approved specification of the product.

    Args:
        product_sku: A product with approved specifications.
        lot_number: The lot sampled.
        sample_type: raw_material, in_process, finished_product or stability.
        collected_by: The employee who drew it (its first custodian).
        customer_name: The customer the lot ships to.
    """
    product = next((p for p in ctx.population.products if p.sku == product_sku), None)
    if product is None:
        raise RuleViolation(f"unknown product {product_sku}", field="product_sku", hint="use a catalog SKU")
    approved = ctx.where(Specification, product_sku=product_sku, status="approved")
    if not approved:
        raise RuleViolation(
            f"{product.name} has no approved specification", field="product_sku", hint="approve a specification first"
        )
    _staff(ctx, collected_by, "collected_by")
    sample = ctx.create(
        Sample,
        product_sku=product_sku,
        product_name=product.name,
        lot_number=lot_number,
        sample_type=sample_type,
        customer_name=customer_name,
        custodian_email=collected_by,
        collected_at=ctx.now(),
    )
    for spec in approved:
        ctx.create(Test, sample_id=sample.id, method_id=spec.method_id, spec_id=spec.id)
    ctx.create(
        CustodyEntry, sample_id=sample.id, from_party=CUSTODY_FROM_START, to_email=collected_by, purpose="collected"
    )
    return sample


def _example_transfer(ctx: Ctx, status: str) -> dict[str, Any] | None:
    s = ctx.first(Sample, status=status)
    if s is None:
        return None
    other = next(p.email for p in ctx.population.employees if p.email != s.custodian_email)
    return {"sample_id": s.id, "to_email": other}


@service.tool(intent="receive the sample in the lab", write=True, example=lambda c: _example_transfer(c, "logged"))
def receive_sample(ctx: Ctx, sample_id: SampleId, to_email: Email) -> Sample:
    """Receive a logged sample in the lab: custody passes to the receiving employee.

    Args:
        sample_id: A logged sample.
        to_email: The lab employee receiving it.
    """
    s = ctx.get(Sample, sample_id, field="sample_id")
    if s.status != "logged":
        raise RuleViolation(f"sample {s.sample_number} is {s.status}", field="sample_id", hint="it was received")
    return _hand_over(ctx, s, to_email, "received in lab", status="received")


def _hand_over(ctx: Ctx, s: Sample, to_email: str, purpose: str, **changes: Any) -> Sample:
    _staff(ctx, to_email, "to_email")
    if to_email == s.custodian_email:
        raise RuleViolation(f"{to_email} already holds the sample", field="to_email", hint="hand it to someone else")
    ctx.create(CustodyEntry, sample_id=s.id, from_party=s.custodian_email, to_email=to_email, purpose=purpose)
    return ctx.update(s, custodian_email=to_email, **changes)


@service.tool(intent="transfer custody of the sample", write=True, example=lambda c: _example_transfer(c, "received"))
def transfer_custody(ctx: Ctx, sample_id: SampleId, to_email: Email, purpose: Title = "analysis") -> Sample:
    """Hand a received sample to another employee, recorded in its chain of custody.

    Args:
        sample_id: A sample in the lab (received to reviewed).
        to_email: The employee taking it.
        purpose: Why it changes hands.
    """
    s = ctx.get(Sample, sample_id, field="sample_id")
    if s.status in ("logged", "disposed"):
        raise RuleViolation(f"sample {s.sample_number} is {s.status}", field="sample_id", hint="receive it first")
    return _hand_over(ctx, s, to_email, purpose)


def _limits(spec: Specification) -> str:
    low = "" if spec.min_value is None else f"≥ {spec.min_value:g}"
    high = "" if spec.max_value is None else f"≤ {spec.max_value:g}"
    return " and ".join(x for x in (low, high) if x)


def _example_result(ctx: Ctx) -> dict[str, Any] | None:
    for t in ctx.where(Test, status="pending"):
        s = ctx.get(Sample, t.sample_id)
        if s.status not in ("received", "in_testing"):
            continue
        method = ctx.get(Method, t.method_id)
        for ins in ctx.where(Instrument, technique=method.technique, status="in_service"):
            if ins.calibration_due_on >= ctx.today():
                spec = ctx.get(Specification, t.spec_id)
                value = spec.min_value if spec.min_value is not None else spec.max_value
                return {"test_id": t.id, "value": value, "instrument_id": ins.id, "analyst_email": s.custodian_email}
    return None


@service.tool(intent="enter the test result", write=True, example=_example_result)
def enter_result(ctx: Ctx, test_id: TestId, value: float, instrument_id: InstrumentId, analyst_email: Email) -> Test:
    """Enter a pending test's result; outside the limits it goes OOS and an investigation opens.

    Args:
        test_id: A pending test of a received sample.
        value: The result, in the method's unit.
        instrument_id: An in-service instrument of the method's technique, calibration not overdue.
        analyst_email: The analyst (an employee).
    """
    t = ctx.get(Test, test_id, field="test_id")
    if t.status != "pending":
        raise Conflict(f"test {t.id} is {t.status}", field="test_id", hint="only pending tests take results")
    s = ctx.get(Sample, t.sample_id)
    if s.status not in ("received", "in_testing"):
        raise RuleViolation(f"sample {s.sample_number} is {s.status}", field="test_id", hint="receive the sample")
    _staff(ctx, analyst_email, "analyst_email")
    ins = ctx.get(Instrument, instrument_id, field="instrument_id")
    method = ctx.get(Method, t.method_id)
    if ins.technique != method.technique:
        raise RuleViolation(
            f"{method.code} needs a {method.technique} instrument",
            field="instrument_id",
            hint="pick an instrument of that technique",
        )
    if ins.status != "in_service" or ins.calibration_due_on < ctx.today():
        raise RuleViolation(
            f"{ins.name} is out of service or overdue for calibration",
            field="instrument_id",
            hint="calibrate it or use another",
        )
    spec = ctx.get(Specification, t.spec_id)
    ok = (spec.min_value is None or value >= spec.min_value) and (spec.max_value is None or value <= spec.max_value)
    t = ctx.update(
        t,
        value=value,
        in_spec=ok,
        analyst_email=analyst_email,
        instrument_id=ins.id,
        status="complete" if ok else "oos",
    )
    if not ok:
        ctx.create(Investigation, test_id=t.id, sample_id=s.id)
    _progress(ctx, s)
    return t


def _progress(ctx: Ctx, s: Sample) -> None:
    live = [t for t in ctx.where(Test, sample_id=s.id) if t.status != "invalidated"]
    done = all(t.status in ("complete", "failed") for t in live)
    ctx.update(s, status="complete" if done else "in_testing")


@service.tool(
    intent="conclude the OOS investigation",
    write=True,
    example=first_example(
        Investigation,
        "investigation_id",
        where={"status": "open"},
        finding="lab_error",
        root_cause="Standard solution prepared at the wrong concentration.",
    ),
)
def conclude_investigation(
    ctx: Ctx, investigation_id: InvestigationId, finding: Finding, root_cause: Text
) -> Investigation:
    """Close an OOS investigation: a lab error invalidates the result and opens a retest; a confirmed OOS fails it.

    Args:
        investigation_id: An open investigation.
        finding: lab_error or confirmed_oos.
        root_cause: What was found (required).
    """
    inv = ctx.get(Investigation, investigation_id, field="investigation_id")
    if inv.status != "open":
        raise Conflict(f"investigation {inv.id} is closed", field="investigation_id", hint="nothing to do")
    if not root_cause.strip():
        raise RuleViolation("a conclusion needs the root cause", field="root_cause", hint="say what was found")
    t = ctx.get(Test, inv.test_id)
    if finding == "lab_error":
        ctx.update(t, status="invalidated")
        ctx.create(Test, sample_id=t.sample_id, method_id=t.method_id, spec_id=t.spec_id, retest_of=t.id)
    else:
        ctx.update(t, status="failed")
    _progress(ctx, ctx.get(Sample, t.sample_id))
    return ctx.update(inv, status="closed", finding=finding, root_cause=root_cause.strip())


@service.tool(
    intent="calibrate the instrument",
    write=True,
    example=first_example(Instrument, "instrument_id"),
)
def record_calibration(ctx: Ctx, instrument_id: InstrumentId, passed: bool = True) -> Instrument:
    """Record a calibration: a pass puts the instrument in service until the next due date, a fail takes it out.

    Args:
        instrument_id: The instrument.
        passed: Whether it met its calibration criteria.
    """
    ins = ctx.get(Instrument, instrument_id, field="instrument_id")
    if not passed:
        return ctx.update(ins, status="out_of_service")
    due = ctx.today() + dt.timedelta(days=ins.calibration_interval_days)
    return ctx.update(ins, status="in_service", last_calibrated_on=ctx.today(), calibration_due_on=due)


@service.tool(
    intent="review the sample's results",
    write=True,
    example=lambda c: next(
        (
            {"sample_id": s.id, "reviewer_email": e.email}
            for s in c.where(Sample, status="complete")
            for e in c.population.employees
            if e.email not in {t.analyst_email for t in c.where(Test, sample_id=s.id)}
        ),
        None,
    ),
)
def review_sample(ctx: Ctx, sample_id: SampleId, reviewer_email: Email) -> Sample:
    """Second-person review of a complete sample: no open investigation, and not by one of its analysts.

    Args:
        sample_id: A complete sample.
        reviewer_email: The reviewer (an employee who entered none of its results).
    """
    s = ctx.get(Sample, sample_id, field="sample_id")
    if s.status != "complete":
        raise RuleViolation(f"sample {s.sample_number} is {s.status}", field="sample_id", hint="finish its tests")
    if ctx.first(Investigation, sample_id=s.id, status="open") is not None:
        raise RuleViolation("an OOS investigation is open", field="sample_id", hint="conclude it first")
    _staff(ctx, reviewer_email, "reviewer_email")
    if reviewer_email in {t.analyst_email for t in ctx.where(Test, sample_id=s.id)}:
        raise RuleViolation(
            "a reviewer cannot review their own results", field="reviewer_email", hint="ask another employee"
        )
    return ctx.update(s, status="reviewed", reviewed_by=reviewer_email)


@service.tool(
    intent="decide the sample's disposition",
    write=True,
    example=first_example(Sample, "sample_id", where={"status": "reviewed"}),
)
def disposition_sample(ctx: Ctx, sample_id: SampleId) -> Sample:
    """Release a reviewed sample whose tests all met specification, or reject it if any failed.

    Args:
        sample_id: A reviewed sample.
    """
    s = ctx.get(Sample, sample_id, field="sample_id")
    if s.status != "reviewed":
        raise RuleViolation(f"sample {s.sample_number} is {s.status}", field="sample_id", hint="review it first")
    failed = any(t.status == "failed" for t in ctx.where(Test, sample_id=s.id))
    return ctx.update(s, status="rejected" if failed else "released")


@service.tool(
    intent="dispose of the sample",
    write=True,
    destructive=True,
    example=first_example(Sample, "sample_id", where={"status": "rejected"}),
)
def dispose_sample(ctx: Ctx, sample_id: SampleId) -> Sample:
    """Dispose of a released or rejected sample (its record and custody chain stay).

    Args:
        sample_id: A released or rejected sample.
    """
    s = ctx.get(Sample, sample_id, field="sample_id")
    if s.status not in ("released", "rejected"):
        raise RuleViolation(f"sample {s.sample_number} is {s.status}", field="sample_id", hint="decide it first")
    return ctx.update(s, status="disposed")


def _example_coa(ctx: Ctx) -> dict[str, Any] | None:
    for s in ctx.where(Sample, status="released"):
        if ctx.first(Certificate, sample_id=s.id) is None:
            co = next((c for c in ctx.population.customers if c.name == s.customer_name), None)
            who = ctx.population.first_contact(co) if co else None
            to = who.email if who else ctx.population.employees[1].email
            return {"sample_id": s.id, "recipient_email": to, "issued_by": ctx.population.employees[0].email}
    return None


@service.tool(intent="issue the certificate of analysis", write=True, example=_example_coa)
def issue_certificate(ctx: Ctx, sample_id: SampleId, recipient_email: Email, issued_by: Email) -> Certificate:
    """Issue the certificate of analysis of a released sample, once, listing every valid result.

    Args:
        sample_id: A released sample without a certificate.
        recipient_email: Who receives it (usually the customer's quality contact).
        issued_by: The QA employee signing it.
    """
    s = ctx.get(Sample, sample_id, field="sample_id")
    if s.status != "released":
        raise RuleViolation(f"sample {s.sample_number} is {s.status}", field="sample_id", hint="release it first")
    if ctx.first(Certificate, sample_id=s.id) is not None:
        raise Conflict(f"sample {s.sample_number} already has a certificate", field="sample_id", hint="resend it")
    _staff(ctx, issued_by, "issued_by")
    lines = []
    for t in ctx.where(Test, sample_id=s.id, status="complete"):
        m, spec = ctx.get(Method, t.method_id), ctx.get(Specification, t.spec_id)
        lines.append(
            CoaLine(method_code=m.code, analyte=m.analyte, result=t.value or 0.0, unit=m.unit, limits=_limits(spec))
        )
    return ctx.create(
        Certificate, sample_id=s.id, recipient_email=recipient_email, lines=tuple(lines), issued_by=issued_by
    )


# -- seed -------------------------------------------------------------------------------------

METHODS: tuple[tuple[str, str, str, str, Technique, float | None, float | None], ...] = (
    ("HPLC-101", "Assay by HPLC", "Active content", "%", "hplc", 98.0, 102.0),
    ("KF-210", "Water by Karl Fischer", "Water content", "% w/w", "karl_fischer", None, 0.5),
    ("PH-305", "pH of 10% solution", "pH", "pH", "ph_meter", 6.0, 8.0),
    ("VIS-410", "Brookfield viscosity", "Viscosity", "mPa·s", "viscometer", 800.0, 1200.0),
    ("ICP-520", "Heavy metals by ICP-MS", "Lead", "ppm", "icp_ms", None, 10.0),
    ("MIC-601", "Total aerobic count", "TAMC", "CFU/g", "incubator", None, 1000.0),
)


@service.seeder
def seed(s: SeedContext) -> None:
    """Methods, instruments (one overdue), specs for a few products, samples in every state with custody."""
    pop = s.population
    lab = pop.staff("Operations", fallback=4)
    made: list[Method] = []
    for code, name, analyte, unit, tech, _low, _high in METHODS:
        made.append(s.create(Method, code=code, name=name, analyte=analyte, unit=unit, technique=tech))
    for k, m in enumerate(made):
        last = (s.now - dt.timedelta(days=10 + 25 * k)).date()
        due = last + dt.timedelta(days=180) if k != 3 else (s.now - dt.timedelta(days=2)).date()
        s.create(
            Instrument,
            name=f"{m.technique.upper()} unit {k + 1} (LAB-{100 + k})",
            technique=m.technique,
            serial_number=f"SN-{m.technique.upper().replace('_', '')}-{4400 + k}",
            last_calibrated_on=last,
            calibration_due_on=due,
        )
    s.create(
        Instrument,
        name="HPLC unit 7 (LAB-107)",
        technique="hplc",
        serial_number="SN-HPLC-4407",
        last_calibrated_on=s.now.date(),
        calibration_due_on=(s.now + dt.timedelta(days=180)).date(),
    )
    products = pop.products[:4]
    for j, prod in enumerate(products):
        for k, m in enumerate(made):
            if (j + k) % 2 and k > 1:
                continue
            low, high = METHODS[k][5], METHODS[k][6]
            s.create(
                Specification,
                product_sku=prod.sku,
                method_id=m.id,
                min_value=low,
                max_value=high,
                status="approved" if j < 3 else "draft",
            )
    _seed_samples(s, lab, list(products[:3]))


def _seed_samples(s: SeedContext, lab: list[Any], products: list[Any]) -> None:
    """Samples logged, received, in testing (one OOS open), complete, reviewed, released (with CoA), rejected."""
    pop = s.population
    flow: tuple[SampleStatus, ...] = (
        "logged",
        "received",
        "in_testing",
        "complete",
        "reviewed",
        "released",
        "rejected",
        "released",
    )
    specs = s.records(Specification)
    instruments = s.records(Instrument)
    methods = {m.id: m for m in s.records(Method)}
    for k, status in enumerate(flow):
        prod = products[k % len(products)]
        co = pop.customers[k % len(pop.customers)]
        holder = lab[k % len(lab)].email
        sample = s.create(
            Sample,
            product_sku=prod.sku,
            product_name=prod.name,
            lot_number=f"LOT-{2400 + k}-A",
            sample_type="finished_product" if k % 3 else "raw_material",
            customer_name=co.name,
            custodian_email=holder,
            status=status,
            collected_at=s.ago(days=12 - k),
            updated_at=s.ago(days=10 - k),
        )
        s.create(
            CustodyEntry,
            sample_id=sample.id,
            from_party=CUSTODY_FROM_START,
            to_email=holder,
            purpose="collected",
            at=s.ago(days=12 - k),
        )
        for n, spec in enumerate(x for x in specs if x.product_sku == prod.sku and x.status == "approved"):
            analysed = status not in ("logged", "received") and not (status == "in_testing" and n > 1)
            oos = analysed and ((status == "in_testing" and n == 1) or (status == "rejected" and n == 0))
            value = None
            if analysed:
                value = (spec.max_value or 0) * 0.5 if spec.min_value is None else spec.min_value * 1.01
                if oos:
                    value = (spec.max_value or 0) * 1.5 + 1
            ins = next(i for i in instruments if i.technique == methods[spec.method_id].technique)
            t = s.create(
                Test,
                sample_id=sample.id,
                method_id=spec.method_id,
                spec_id=spec.id,
                status=("oos" if status == "in_testing" else "failed")
                if oos
                else ("complete" if analysed else "pending"),
                value=value,
                in_spec=None if value is None else not oos,
                analyst_email=lab[0].email if analysed else None,
                instrument_id=ins.id if analysed else None,
                updated_at=s.ago(days=8 - k),
            )
            if oos:
                done = status == "rejected"
                s.create(
                    Investigation,
                    test_id=t.id,
                    sample_id=sample.id,
                    status="closed" if done else "open",
                    finding="confirmed_oos" if done else None,
                    root_cause="Lot re-assayed by a second analyst; result confirmed." if done else "",
                    opened_at=s.ago(days=6 - k),
                )
        if status in ("reviewed", "released", "rejected"):
            s.update(sample, reviewed_by=lab[-1].email)
        if status == "released" and k == 5:
            who = pop.first_contact(co)
            s.create(
                Certificate,
                sample_id=sample.id,
                recipient_email=who.email if who else lab[1].email,
                lines=(),
                issued_by=lab[-1].email,
                issued_at=s.ago(days=1),
            )
