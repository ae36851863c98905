"""Meridian Labs: a clinical laboratory's orders, specimens and results, with critical-value call-backs.

Modeled on a laboratory information system API in the shape of Quest Quanum Lab
Services Manager and HL7 v2 ORM^O01 / ORU^R01 messages: a test compendium (order
codes with LOINC, units, specimen type, reference and critical ranges), patients
(PID) and ordering providers (NPI), orders (ORC/OBR) with an ICD-10 diagnosis
for medical necessity and routine or STAT priority, specimens with collection
and accessioning (SPM), and results (OBX) with reference ranges, abnormal flags
(N, L, H, LL, HH) and result status (preliminary, final, corrected):

* an order moves pending → collected → received → in_process → final, and may be
  cancelled before the laboratory receives it; the same test is not ordered
  twice for a patient while an earlier order is open;
* collecting an order draws one specimen per specimen type its tests need;
  accessioning gives a specimen its accession number, only within the specimen
  type's stability window after collection; a rejected specimen (hemolyzed,
  clotted, QNS, unlabeled, expired) sends the order back to pending for recollection;
* a result is entered once per ordered test, on a received specimen, within the
  test's plausible range; it is flagged against the reference and critical
  ranges; a critical (LL/HH) result must be called to a person with read-back
  before the order can be released final;
* a final result may only be corrected, with a reason; the order keeps its status.
"""

from __future__ import annotations

import datetime as dt
from typing import Annotated, Any, Literal

from pydantic import Field, StringConstraints

from compoworld.engine.context import Ctx
from compoworld.engine.errors import Conflict, RuleViolation
from compoworld.engine.records import Generated, Record
from compoworld.engine.service import Service, Transition
from compoworld.engine.state import SeedContext
from compoworld.engine.types import Date, DateTime, Email, FirstName, IdOf, LastName, PersonName, Phone, Text, Title
from compoworld.services.kit.examples import first_example
from compoworld.services.kit.records import Created, Timestamped, Value
from compoworld.world.care import clinicians, provider_npi

__all__ = ["service"]

service = Service(
    "labs",
    title="Meridian Labs",
    category="lab_orders",
    modeled_on="Quest Quanum Lab Services Manager / HL7 v2 ORM^O01 and ORU^R01 (test compendium, patients, orders, "
    "specimens with collection and accessioning, OBX results with reference ranges, abnormal flags, critical calls)",
    description="The reference laboratory: its test compendium, patients and ordering providers, lab orders with "
    "diagnosis and priority, specimen collection, accessioning and rejection, results flagged against reference "
    "and critical ranges, critical-value call-backs and release of final reports.",
)

TestCode = Annotated[str, StringConstraints(pattern=r"^[0-9]{3,5}$")]
"""A compendium order code (e.g. 496 for hemoglobin A1c)."""
PatientId = Annotated[str, IdOf("labs.patient")]
ProviderId = Annotated[str, IdOf("labs.provider")]
OrderId = Annotated[str, IdOf("labs.order")]
SpecimenId = Annotated[str, IdOf("labs.specimen")]
ResultId = Annotated[str, IdOf("labs.result")]
TestId = Annotated[str, IdOf("labs.test")]
Npi = Annotated[str, StringConstraints(pattern=r"^[0-9]{10}$")]
Icd10 = Annotated[str, StringConstraints(pattern=r"^[A-TV-Z][0-9][0-9A-Z](\.[0-9A-Z]{1,4})?$")]
"""An ICD-10-CM diagnosis code."""

SpecimenType = Literal["serum", "whole_blood", "plasma", "urine"]
OrderStatus = Literal["pending", "collected", "received", "in_process", "final", "cancelled"]
SpecimenStatus = Literal["collected", "received", "rejected"]
RejectReason = Literal["hemolyzed", "clotted", "quantity_not_sufficient", "unlabeled", "expired"]
Flag = Literal["N", "L", "H", "LL", "HH"]
ResultStatus = Literal["preliminary", "final", "corrected"]
Priority = Literal["routine", "stat"]
Sex = Literal["F", "M", "U"]

STABILITY_HOURS: dict[str, int] = {"serum": 72, "whole_blood": 48, "plasma": 24, "urine": 24}
OPEN: tuple[OrderStatus, ...] = ("pending", "collected", "received", "in_process")


class LabTest(Record):
    """An orderable test of the compendium."""

    id: TestId
    code: TestCode
    """The order code (unique)."""
    name: Title
    """The test's name."""
    loinc: Annotated[str, StringConstraints(pattern=r"^[0-9]{1,5}-[0-9]$")]
    """The LOINC code of its result."""
    unit: Annotated[str, StringConstraints(min_length=1, max_length=20)]
    """The UCUM unit."""
    specimen_type: SpecimenType
    """serum, whole_blood, plasma or urine."""
    ref_low: float
    """Low end of the reference range."""
    ref_high: float
    """High end of the reference range."""
    critical_low: float | None = None
    """At or below this a result is critical (LL)."""
    critical_high: float | None = None
    """At or above this a result is critical (HH)."""
    max_plausible: float
    """The highest value the analyser can report."""
    price_cents: Annotated[int, Field(ge=0)]
    """The client bill price."""


class Patient(Timestamped):
    """A patient the laboratory has received orders for (HL7 PID)."""

    id: PatientId
    lab_patient_number: Annotated[str, Generated("sequence", "QP-{n:07d}")]
    """The laboratory's patient number."""
    first_name: FirstName
    """Given name."""
    last_name: LastName
    """Family name."""
    birth_date: Date
    """Date of birth."""
    sex: Sex = "U"
    """F, M or U."""
    email: Email
    """E-mail for the patient portal (unique)."""
    phone: Phone | None = None
    """Mobile phone."""


class Provider(Record):
    """An ordering provider (HL7 ORC-12)."""

    id: ProviderId
    name: PersonName
    """The clinician's name."""
    npi: Npi
    """National Provider Identifier."""
    email: Email
    """Where result notifications go."""
    active: bool = True
    """Whether they may order."""


class Order(Timestamped):
    """A lab order (ORC/OBR): tests for a patient, with diagnosis and priority."""

    id: OrderId
    requisition: Annotated[str, Generated("sequence", "REQ-{n:07d}")]
    """The requisition number."""
    patient_id: PatientId
    """The patient."""
    provider_id: ProviderId
    """The ordering provider."""
    test_codes: tuple[TestCode, ...]
    """The ordered tests."""
    diagnosis_code: Icd10
    """ICD-10 diagnosis supporting medical necessity."""
    priority: Priority = "routine"
    """routine or stat."""
    status: OrderStatus = "pending"
    """pending, collected, received, in_process, final or cancelled."""
    notes: Text = ""
    """Instructions (fasting, timing)."""
    released_at: DateTime | None = None
    """When the final report was released."""


class Specimen(Created):
    """A specimen drawn for an order (SPM)."""

    id: SpecimenId
    order_id: OrderId
    """The order."""
    specimen_type: SpecimenType
    """serum, whole_blood, plasma or urine."""
    collected_at: DateTime
    """When it was drawn."""
    collected_by: PersonName
    """The phlebotomist."""
    status: SpecimenStatus = "collected"
    """collected, received (accessioned) or rejected."""
    accession_number: str | None = None
    """The laboratory's accession number, given on receipt."""
    received_at: DateTime | None = None
    """When the laboratory received it."""
    reject_reason: RejectReason | None = None
    """Why it was rejected."""


class Result(Timestamped):
    """A test result (OBX) with its reference range and flag."""

    id: ResultId
    order_id: OrderId
    """The order."""
    patient_id: PatientId
    """The patient."""
    test_code: TestCode
    """The test."""
    loinc: str
    """LOINC code of the observation."""
    value: float
    """The measured value."""
    unit: str
    """Its unit."""
    reference_range: str
    """The reference range as printed (e.g. 70-99)."""
    flag: Flag
    """N, L, H, LL (critical low) or HH (critical high)."""
    critical: bool = False
    """Whether it is a critical value that must be called."""
    status: ResultStatus = "preliminary"
    """preliminary, final or corrected."""
    called_to: PersonName | None = None
    """Who took the critical-value call."""
    called_at: DateTime | None = None
    """When the critical value was called."""
    correction_reason: Text | None = None
    """Why a final result was corrected."""


class TrendPoint(Value):
    """One reported value of a test for a patient."""

    order_id: OrderId
    """The order."""
    value: float
    """The value."""
    flag: Flag
    """Its flag."""
    resulted_at: DateTime
    """When it was resulted."""


class Trend(Value):
    """A patient's cumulative results for a test, oldest first."""

    patient_id: PatientId
    """The patient."""
    test_code: TestCode
    """The test."""
    unit: str
    """The unit."""
    points: list[TrendPoint]
    """Released (final or corrected) results, oldest first."""


# -- rules ------------------------------------------------------------------------------------


def _test(ctx: Ctx, code: str, field: str) -> LabTest:
    t = ctx.first(LabTest, code=code)
    if t is None:
        raise RuleViolation(f"no test with code {code}", field=field, hint="list the compendium with labs__list_tests")
    return t


def _flag(t: LabTest, value: float) -> Flag:
    if t.critical_low is not None and value <= t.critical_low:
        return "LL"
    if t.critical_high is not None and value >= t.critical_high:
        return "HH"
    if value < t.ref_low:
        return "L"
    return "H" if value > t.ref_high else "N"


def _check_value(t: LabTest, value: float) -> None:
    if not 0 <= value <= t.max_plausible:
        raise RuleViolation(
            f"{value} {t.unit} is outside what {t.name} can report (0-{t.max_plausible})",
            field="value",
            hint="check the instrument reading; rerun the specimen",
        )


def _guard_patient(ctx: Ctx, new: Any, old: Any) -> None:
    other = ctx.first(Patient, email=new.email)
    if other is not None and other.id != new.id:
        raise Conflict(f"patient {other.id} already uses {new.email}", field="email", hint="use another e-mail")


def _guard_order(ctx: Ctx, new: Any, old: Any) -> None:
    frozen = old is not None and old.status == new.status and old.status not in ("pending", "collected")
    if frozen and (new.priority, new.notes) != (old.priority, old.notes):
        raise RuleViolation(
            f"order {old.requisition} is {old.status}; it can no longer be changed",
            field="order_id",
            hint="place a new order instead",
        )


tests = service.resource(
    LabTest,
    name="test",
    plural="tests",
    prefix="tst",
    create=False,
    filters=("code", "specimen_type", "loinc"),
    search=("name",),
    delete=False,
    title="compendium test",
)
patients = service.resource(
    Patient,
    name="patient",
    plural="patients",
    prefix="lpat",
    create=False,
    filters=("email", "last_name", "birth_date"),
    search=("first_name", "last_name", "email"),
    update=("email", "phone"),
    delete=False,
    guard_update=_guard_patient,
)
providers = service.resource(
    Provider,
    name="provider",
    plural="providers",
    prefix="lprv",
    create=False,
    filters=("npi", "email", "active"),
    search=("name",),
    delete=False,
    title="ordering provider",
)
orders = service.resource(
    Order,
    name="order",
    plural="orders",
    prefix="lord",
    create=False,
    filters=("patient_id", "provider_id", "status", "priority", "requisition"),
    search=("notes",),
    update=("priority", "notes"),
    delete=False,
    transitions={
        "cancel": Transition(
            "status",
            ("pending", "collected"),
            "cancelled",
            "cancel the lab order",
            description="Cancel an order the laboratory has not received yet (pending or collected).",
            destructive=True,
        ),
    },
    guard_update=_guard_order,
)
specimens = service.resource(
    Specimen,
    name="specimen",
    plural="specimens",
    prefix="spm",
    create=False,
    filters=("order_id", "status", "specimen_type", "accession_number"),
    delete=False,
)
results = service.resource(
    Result,
    name="result",
    plural="results",
    prefix="obx",
    create=False,
    filters=("order_id", "patient_id", "test_code", "flag", "status", "critical"),
    delete=False,
    title="lab result",
)


# -- domain tools -----------------------------------------------------------------------------


def _example_register(ctx: Ctx) -> dict[str, Any] | None:
    return {
        "first_name": "Imani",
        "last_name": "Okafor",
        "birth_date": "1988-04-12",
        "email": f"imani.okafor@mail.{ctx.population.home.domain}",
        "sex": "F",
    }


@service.tool(intent="register the lab patient", write=True, example=_example_register)
def register_patient(
    ctx: Ctx, first_name: FirstName, last_name: LastName, birth_date: Date, email: Email, sex: Sex = "U"
) -> Patient:
    """Register a patient; the same name and birth date, or the same e-mail, is not registered twice.

    Args:
        first_name: Given name.
        last_name: Family name.
        birth_date: Date of birth (in the past).
        email: E-mail for the patient portal.
        sex: F, M or U.
    """
    if birth_date >= ctx.today():
        raise RuleViolation("birth_date must be in the past", field="birth_date", hint="give the date of birth")
    for p in ctx.where(Patient, last_name=last_name, birth_date=birth_date):
        if p.first_name.lower() == first_name.lower():
            raise Conflict(f"patient {p.id} is already registered", field="last_name", hint=f"use {p.id}")
    if ctx.first(Patient, email=email) is not None:
        raise Conflict(f"{email} is already registered", field="email", hint="find the patient by e-mail")
    return ctx.create(Patient, first_name=first_name, last_name=last_name, birth_date=birth_date, email=email, sex=sex)


def _example_order(ctx: Ctx) -> dict[str, Any] | None:
    doc = ctx.first(Provider, active=True)
    for pat in ctx.scan(Patient):
        if doc is not None and not _open_codes(ctx, pat.id) & {"899"}:
            return {"patient_id": pat.id, "provider_id": doc.id, "test_codes": ["899"], "diagnosis_code": "E03.9"}
    return None


def _open_codes(ctx: Ctx, patient_id: str) -> set[str]:
    return {c for o in ctx.where(Order, patient_id=patient_id) if o.status in OPEN for c in o.test_codes}


@service.tool(intent="order the lab tests", write=True, example=_example_order)
def place_order(
    ctx: Ctx,
    patient_id: PatientId,
    provider_id: ProviderId,
    test_codes: list[TestCode],
    diagnosis_code: Icd10,
    priority: Priority = "routine",
    notes: Text = "",
) -> Order:
    """Order tests for a patient (ORM^O01); each test once, none already open for the patient.

    Args:
        patient_id: The patient.
        provider_id: The ordering provider (active).
        test_codes: Compendium codes of the tests.
        diagnosis_code: ICD-10 code supporting medical necessity.
        priority: routine or stat.
        notes: Instructions such as fasting.
    """
    ctx.get(Patient, patient_id, field="patient_id")
    doc = ctx.get(Provider, provider_id, field="provider_id")
    if not doc.active:
        raise RuleViolation(f"{doc.name} may not order tests", field="provider_id", hint="pick an active provider")
    if not test_codes or len(set(test_codes)) != len(test_codes):
        raise RuleViolation("list each test once, at least one", field="test_codes", hint="give distinct codes")
    for code in test_codes:
        _test(ctx, code, "test_codes")
    dup = sorted(set(test_codes) & _open_codes(ctx, patient_id))
    if dup:
        raise Conflict(
            f"test {', '.join(dup)} is already on an open order for this patient",
            field="test_codes",
            hint="use the open order (labs__list_orders) or cancel it first",
        )
    return ctx.create(
        Order,
        patient_id=patient_id,
        provider_id=provider_id,
        test_codes=tuple(test_codes),
        diagnosis_code=diagnosis_code,
        priority=priority,
        notes=notes,
    )


@service.tool(
    intent="collect the specimens",
    write=True,
    example=first_example(Order, "order_id", where={"status": "pending"}, collected_by="Dana Whitfield"),
)
def collect_specimens(ctx: Ctx, order_id: OrderId, collected_by: PersonName) -> list[Specimen]:
    """Draw the specimens a pending order needs (one per specimen type); the order becomes collected.

    Args:
        order_id: The order.
        collected_by: The phlebotomist.
    """
    order = ctx.get(Order, order_id, field="order_id")
    if order.status != "pending":
        raise Conflict(f"order {order.requisition} is {order.status}", field="order_id", hint="collect pending orders")
    kinds: list[SpecimenType] = []
    for code in order.test_codes:
        kind = _test(ctx, code, "order_id").specimen_type
        if kind not in kinds:
            kinds.append(kind)
    made = [
        ctx.create(Specimen, order_id=order.id, specimen_type=k, collected_at=ctx.now(), collected_by=collected_by)
        for k in kinds
    ]
    ctx.update(order, status="collected")
    return made


@service.tool(
    intent="accession the specimen",
    write=True,
    example=first_example(Specimen, "specimen_id", where={"status": "collected"}),
)
def accession_specimen(ctx: Ctx, specimen_id: SpecimenId) -> Specimen:
    """Receive a collected specimen into the laboratory and give it an accession number, within its stability window.

    Args:
        specimen_id: The specimen.
    """
    spm = ctx.get(Specimen, specimen_id, field="specimen_id")
    if spm.status != "collected":
        raise Conflict(f"specimen {spm.id} is {spm.status}", field="specimen_id", hint="only collected ones")
    limit = dt.timedelta(hours=STABILITY_HOURS[spm.specimen_type])
    if ctx.now() - spm.collected_at > limit:
        raise RuleViolation(
            f"the {spm.specimen_type} specimen is past its {limit.days * 24 + limit.seconds // 3600} h stability",
            field="specimen_id",
            hint="reject it as expired with labs__reject_specimen and recollect",
        )
    n = ctx.next_number(Specimen, "accession")
    spm = ctx.update(spm, status="received", received_at=ctx.now(), accession_number=f"AC{ctx.today():%y%m%d}{n:05d}")
    order = ctx.get(Order, spm.order_id)
    if all(s.status == "received" for s in _live_specimens(ctx, order.id)) and order.status == "collected":
        ctx.update(order, status="received")
    return spm


def _live_specimens(ctx: Ctx, order_id: str) -> list[Specimen]:
    return [s for s in ctx.where(Specimen, order_id=order_id) if s.status != "rejected"]


@service.tool(
    intent="reject the specimen",
    write=True,
    example=first_example(Specimen, "specimen_id", where={"status": "collected"}, reason="hemolyzed"),
)
def reject_specimen(ctx: Ctx, specimen_id: SpecimenId, reason: RejectReason) -> Specimen:
    """Reject a specimen that cannot be tested; its order goes back to pending for recollection.

    Args:
        specimen_id: The specimen.
        reason: hemolyzed, clotted, quantity_not_sufficient, unlabeled or expired.
    """
    spm = ctx.get(Specimen, specimen_id, field="specimen_id")
    if spm.status == "rejected":
        raise Conflict(f"specimen {spm.id} is already rejected", field="specimen_id", hint="nothing to do")
    order = ctx.get(Order, spm.order_id)
    if order.status not in ("collected", "received"):
        raise RuleViolation(
            f"order {order.requisition} is {order.status}",
            field="specimen_id",
            hint="a specimen with results entered must be corrected, not rejected",
        )
    spm = ctx.update(spm, status="rejected", reject_reason=reason)
    for other in _live_specimens(ctx, order.id):
        ctx.update(other, status="rejected", reject_reason=reason)
    ctx.update(order, status="pending")
    return spm


def _example_result(ctx: Ctx) -> dict[str, Any] | None:
    for order in ctx.where(Order, status="received"):
        done = {r.test_code for r in ctx.where(Result, order_id=order.id)}
        for code in order.test_codes:
            if code not in done:
                return {"order_id": order.id, "test_code": code, "value": _test(ctx, code, "x").ref_high * 0.9}
    return None


@service.tool(intent="enter the lab result", write=True, example=_example_result)
def enter_result(ctx: Ctx, order_id: OrderId, test_code: TestCode, value: float) -> Result:
    """Enter a preliminary result (ORU^R01 OBX) for an ordered test on a received specimen; it is flagged.

    Args:
        order_id: The order (received or in process).
        test_code: The test, one of the order's.
        value: The measured value, in the test's unit.
    """
    order = ctx.get(Order, order_id, field="order_id")
    if order.status not in ("received", "in_process"):
        raise RuleViolation(
            f"order {order.requisition} is {order.status}",
            field="order_id",
            hint="results are entered once its specimens are accessioned",
        )
    if test_code not in order.test_codes:
        raise RuleViolation(f"test {test_code} is not on the order", field="test_code", hint="use an ordered test")
    if ctx.first(Result, order_id=order.id, test_code=test_code) is not None:
        raise Conflict(
            f"test {test_code} already has a result", field="test_code", hint="use labs__correct_result once released"
        )
    t = _test(ctx, test_code, "test_code")
    _check_value(t, value)
    flag = _flag(t, value)
    made = ctx.create(
        Result,
        order_id=order.id,
        patient_id=order.patient_id,
        test_code=t.code,
        loinc=t.loinc,
        value=value,
        unit=t.unit,
        reference_range=f"{t.ref_low:g}-{t.ref_high:g}",
        flag=flag,
        critical=flag in ("LL", "HH"),
    )
    if order.status == "received":
        ctx.update(order, status="in_process")
    return made


@service.tool(
    intent="record the critical value call",
    write=True,
    example=first_example(Result, "result_id", where={"critical": True, "called_at": None}, called_to="Nurse Lee"),
)
def record_critical_call(ctx: Ctx, result_id: ResultId, called_to: PersonName, read_back: bool = True) -> Result:
    """Record that a critical result was phoned to the ordering practice and read back.

    Args:
        result_id: The critical result.
        called_to: Who took the call.
        read_back: Whether they read the value back (required).
    """
    res = ctx.get(Result, result_id, field="result_id")
    if not res.critical:
        raise RuleViolation(f"result {res.id} is not critical", field="result_id", hint="only LL/HH results are called")
    if res.called_at is not None:
        raise Conflict(f"result {res.id} was already called to {res.called_to}", field="result_id", hint="done")
    if not read_back:
        raise RuleViolation(
            "a critical value call needs a read-back", field="read_back", hint="ask the caller to read it back"
        )
    return ctx.update(res, called_to=called_to, called_at=ctx.now())


@service.tool(
    intent="release the lab report",
    write=True,
    example=first_example(
        Order,
        "order_id",
        where={"status": "in_process"},
        match=lambda ctx, o: (
            {r.test_code for r in ctx.where(Result, order_id=o.id)} == set(o.test_codes)
            and all(r.called_at is not None for r in ctx.where(Result, order_id=o.id, critical=True))
        ),
    ),
)
def release_order(ctx: Ctx, order_id: OrderId) -> Order:
    """Release the final report: every test resulted and every critical value called; results become final.

    Args:
        order_id: The order (in process).
    """
    order = ctx.get(Order, order_id, field="order_id")
    if order.status != "in_process":
        raise RuleViolation(f"order {order.requisition} is {order.status}", field="order_id", hint="enter results")
    found = ctx.where(Result, order_id=order.id)
    missing = sorted(set(order.test_codes) - {r.test_code for r in found})
    if missing:
        raise RuleViolation(
            f"test {', '.join(missing)} has no result", field="order_id", hint="enter it with labs__enter_result"
        )
    uncalled = [r.id for r in found if r.critical and r.called_at is None]
    if uncalled:
        raise RuleViolation(
            f"critical result {', '.join(uncalled)} was not called",
            field="order_id",
            hint="call it and record it with labs__record_critical_call",
        )
    for r in found:
        ctx.update(r, status="final")
    return ctx.update(order, status="final", released_at=ctx.now())


@service.tool(
    intent="correct the lab result",
    write=True,
    example=first_example(
        Result, "result_id", where={"status": "final", "critical": False}, value=5.1, reason="Transcription error"
    ),
)
def correct_result(ctx: Ctx, result_id: ResultId, value: float, reason: Text) -> Result:
    """Correct a released result with a reason; a correction to a critical value must be called again.

    Args:
        result_id: The result (final or corrected).
        value: The corrected value.
        reason: Why it was corrected (required).
    """
    res = ctx.get(Result, result_id, field="result_id")
    if res.status == "preliminary":
        raise RuleViolation("a preliminary result is not released", field="result_id", hint="release the order first")
    if not reason.strip():
        raise RuleViolation("a correction needs a reason", field="reason", hint="say what was wrong")
    t = _test(ctx, res.test_code, "result_id")
    _check_value(t, value)
    if value == res.value:
        raise RuleViolation(f"the result is already {value}", field="value", hint="give the corrected value")
    flag = _flag(t, value)
    critical = flag in ("LL", "HH")
    return ctx.update(
        res,
        value=value,
        flag=flag,
        critical=critical,
        status="corrected",
        correction_reason=reason.strip(),
        called_to=None if critical else res.called_to,
        called_at=None if critical else res.called_at,
    )


@service.tool(
    intent="show the patient's cumulative results",
    example=first_example(Result, fields={"patient_id": "patient_id", "test_code": "test_code"}),
)
def result_trend(ctx: Ctx, patient_id: PatientId, test_code: TestCode) -> Trend:
    """A patient's released results for one test over time (cumulative report), oldest first.

    Args:
        patient_id: The patient.
        test_code: The test.
    """
    ctx.get(Patient, patient_id, field="patient_id")
    t = _test(ctx, test_code, "test_code")
    found = [r for r in ctx.where(Result, patient_id=patient_id, test_code=test_code) if r.status != "preliminary"]
    found.sort(key=lambda r: r.created_at)
    return Trend(
        patient_id=patient_id,
        test_code=test_code,
        unit=t.unit,
        points=[TrendPoint(order_id=r.order_id, value=r.value, flag=r.flag, resulted_at=r.updated_at) for r in found],
    )


# -- seed -------------------------------------------------------------------------------------

COMPENDIUM: tuple[
    tuple[str, str, str, str, SpecimenType, float, float, float | None, float | None, float, int], ...
] = (
    ("496", "Hemoglobin A1c", "4548-4", "%", "whole_blood", 4.0, 5.6, None, None, 20, 2400),
    ("483", "Glucose", "2345-7", "mg/dL", "serum", 70, 99, 40, 450, 1500, 900),
    ("334", "Cholesterol, Total", "2093-3", "mg/dL", "serum", 100, 199, None, None, 800, 1100),
    ("733", "Potassium", "2823-3", "mmol/L", "serum", 3.5, 5.3, 2.8, 6.2, 15, 800),
    ("836", "Sodium", "2951-2", "mmol/L", "serum", 135, 146, 120, 160, 200, 800),
    ("375", "Creatinine", "2160-0", "mg/dL", "serum", 0.6, 1.3, None, 7.0, 30, 850),
    ("899", "TSH", "3016-3", "mIU/L", "serum", 0.4, 4.5, None, None, 150, 3100),
    ("6399", "Hemoglobin", "718-7", "g/dL", "whole_blood", 12.0, 17.5, 7.0, 20.0, 25, 1200),
    ("8847", "Prothrombin Time with INR", "6301-6", "{INR}", "plasma", 0.9, 1.1, None, 5.0, 15, 1300),
    ("6517", "Albumin, Random Urine", "14957-5", "mg/L", "urine", 0, 30, None, None, 3000, 1500),
)
_PANELS: tuple[tuple[tuple[str, ...], str, str], ...] = (
    (("496", "483"), "E11.9", "Fasting 8 hours."),
    (("334",), "E78.5", "Fasting 12 hours."),
    (("733", "836", "375"), "I10", ""),
    (("899",), "E03.9", ""),
    (("6399",), "D64.9", ""),
    (("8847",), "Z79.01", "On warfarin."),
)
_PLAN: tuple[OrderStatus, ...] = (
    "final",
    "final",
    "final",
    "in_process",
    "received",
    "collected",
    "pending",
    "final",
    "in_process",
    "pending",
    "collected",
    "cancelled",
    "final",
    "received",
)


@service.seeder
def seed(s: SeedContext) -> None:
    """The compendium, the practice's clinicians as providers, consumer patients and orders in every status."""
    pop = s.population
    for row in COMPENDIUM:
        code, name, loinc, unit, kind, lo, hi, clo, chi, top, price = row
        s.create(
            LabTest,
            code=code,
            name=name,
            loinc=loinc,
            unit=unit,
            specimen_type=kind,
            ref_low=lo,
            ref_high=hi,
            critical_low=clo,
            critical_high=chi,
            max_plausible=top,
            price_cents=price,
        )
    docs = [
        s.create(Provider, name=p.name, npi=provider_npi(i), email=p.email, active=i != 5)
        for i, (p, _) in enumerate(clinicians(pop))
    ]
    keys = {p.key for p, _ in clinicians(pop)}
    people = [p for p in pop.consumers if p.key not in keys][:16]
    pats = [
        s.create(
            Patient,
            first_name=p.first_name,
            last_name=p.last_name,
            birth_date=p.birth_date,
            sex=("F", "M")[i % 2],
            email=p.email,
            phone=p.phone,
            created_at=s.ago(days=300 - 10 * i),
        )
        for i, p in enumerate(people)
    ]
    tests_by_code = {t.code: t for t in s.records(LabTest)}
    for i, status in enumerate(_PLAN):
        codes, dx, notes = _PANELS[i % len(_PANELS)]
        placed = s.ago(hours=6 + i) if status != "final" else s.ago(days=20 + 5 * i)
        order = s.create(
            Order,
            patient_id=pats[i].id,
            provider_id=docs[i % 5].id,
            test_codes=codes,
            diagnosis_code=dx,
            priority="stat" if i in (3, 8) else "routine",
            status=status,
            notes=notes,
            created_at=placed,
            updated_at=placed,
            released_at=placed + dt.timedelta(days=1) if status == "final" else None,
        )
        if status in ("pending", "cancelled"):
            continue
        kinds = sorted({tests_by_code[c].specimen_type for c in codes})
        for k, kind in enumerate(kinds):
            got = status != "collected"
            s.create(
                Specimen,
                order_id=order.id,
                specimen_type=kind,
                collected_at=placed + dt.timedelta(hours=1),
                collected_by="Dana Whitfield",
                status="received" if got else "collected",
                accession_number=f"AC{placed:%y%m%d}{i:03d}{k:02d}" if got else None,
                received_at=placed + dt.timedelta(hours=5) if got else None,
                created_at=placed,
            )
        if status in ("final", "in_process"):
            _seed_results(s, order, tests_by_code, i)


def _seed_results(s: SeedContext, order: Order, by_code: dict[str, LabTest], i: int) -> None:
    for code in order.test_codes:
        t = by_code[code]
        span = t.ref_high - t.ref_low
        value = round(t.ref_low + span * (0.3 + 0.9 * s.rng.random()), 1)
        if order.status == "in_process" and code == order.test_codes[0]:
            value = t.critical_high if t.critical_high is not None else round(t.ref_high * 1.3, 1)
        flag = _flag(t, value)
        critical = flag in ("LL", "HH")
        final = order.status == "final"
        s.create(
            Result,
            order_id=order.id,
            patient_id=order.patient_id,
            test_code=code,
            loinc=t.loinc,
            value=value,
            unit=t.unit,
            reference_range=f"{t.ref_low:g}-{t.ref_high:g}",
            flag=flag,
            critical=critical,
            status="final" if final else "preliminary",
            called_to="Front desk" if critical and final else None,
            called_at=order.updated_at + dt.timedelta(hours=6) if critical and final else None,
            created_at=order.updated_at + dt.timedelta(hours=6),
            updated_at=order.updated_at + dt.timedelta(hours=6),
        )
