"""Meridian Aid: student financial aid with ISIRs, verification, cost of attendance, award packages, disbursements, SAP.

Modeled on PowerFAIDS / Ellucian Banner Financial Aid (students with ISIR
transactions carrying the Student Aid Index (SAI) and a verification flag,
verification documents requested, received and accepted, a cost of attendance
by housing, award packages of Pell and institutional grants, Direct
subsidized and unsubsidized loans and Federal Work-Study that students accept
in full or in part or decline, disbursements per term, and satisfactory
academic progress): awards need an active ISIR; a new ISIR transaction
supersedes the last; Pell goes only to SAIs under the Pell cut-off and need-
based aid never exceeds need (cost of attendance minus SAI), all aid never the
cost of attendance, Direct loans stay inside their annual limits by grade
level and dependency; nothing is disbursed to a student selected for
verification until every document is accepted, under SAP suspension, or (for
loans) enrolled less than half time; each accepted award is disbursed once a
term, half a year's amount; a SAP evaluation moves meeting → warning →
suspension, and an approved appeal moves suspension to probation.
"""

from __future__ import annotations

import datetime as dt
from typing import Annotated, Any, Literal

from pydantic import Field

from compoworld.engine.context import Ctx
from compoworld.engine.errors import Conflict, RuleViolation
from compoworld.engine.records import Generated
from compoworld.engine.service import Service, Transition
from compoworld.engine.state import SeedContext
from compoworld.engine.types import Cents, Date, DateTime, Email, IdOf, Percent, PersonName, Text, Title
from compoworld.services.kit.examples import first_example
from compoworld.services.kit.records import Timestamped, Value

__all__ = ["service"]

service = Service(
    "financialaid",
    title="Meridian Aid",
    category="financial_aid",
    modeled_on="PowerFAIDS / Ellucian Banner Financial Aid: ISIR records, verification tracking and documents, "
    "cost of attendance budgets, award packages (grants, loans, work-study), acceptance, term disbursements, SAP",
    description="A college's financial aid office: students and their ISIRs with the Student Aid Index, "
    "verification documents, cost of attendance, award packages of grants, loans and work-study that students "
    "accept or decline, disbursements each term, and satisfactory academic progress reviews and appeals.",
)

TermId = Annotated[str, IdOf("financialaid.term")]
StudentId = Annotated[str, IdOf("financialaid.student")]
IsirId = Annotated[str, IdOf("financialaid.isir")]
DocumentId = Annotated[str, IdOf("financialaid.document")]
AwardId = Annotated[str, IdOf("financialaid.award")]
DisbursementId = Annotated[str, IdOf("financialaid.disbursement")]

AidYear = Literal["2025-26", "2026-27"]
Sai = Annotated[int, Field(ge=-1500, le=999999)]
"""Student Aid Index in whole dollars (-1500 to 999999)."""
GradeLevel = Annotated[int, Field(ge=1, le=5)]
"""Year in school (1 = first year)."""
Dependency = Literal["dependent", "independent"]
Housing = Literal["on_campus", "off_campus", "with_parents"]
Enrollment = Literal["full_time", "three_quarter", "half_time", "less_than_half"]
SapStatus = Literal["meeting", "warning", "suspension", "probation"]
Verification = Literal["not_selected", "pending", "complete"]
IsirStatus = Literal["active", "superseded"]
DocKind = Literal["tax_return_transcript", "verification_worksheet", "identity_statement", "hs_completion"]
DocStatus = Literal["requested", "received", "accepted", "rejected"]
Fund = Literal["pell_grant", "institutional_grant", "subsidized_loan", "unsubsidized_loan", "federal_work_study"]
AwardStatus = Literal["offered", "accepted", "declined", "cancelled"]
DisbStatus = Literal["disbursed", "reversed"]

PELL_MAX = 739500
PELL_MIN = 74000
NEED_BASED: frozenset[str] = frozenset({"pell_grant", "institutional_grant", "subsidized_loan", "federal_work_study"})
LOANS: frozenset[str] = frozenset({"subsidized_loan", "unsubsidized_loan"})
SUB_LIMIT = {1: 350000, 2: 450000, 3: 550000, 4: 550000, 5: 550000}
TOTAL_DEP = {1: 550000, 2: 650000, 3: 750000, 4: 750000, 5: 750000}
INDEPENDENT_EXTRA = {1: 400000, 2: 400000, 3: 500000, 4: 500000, 5: 500000}
COA_PARTS: dict[str, dict[str, int]] = {
    "on_campus": {
        "tuition": 1450000,
        "housing_food": 1320000,
        "books": 120000,
        "transportation": 60000,
        "personal": 180000,
    },
    "off_campus": {
        "tuition": 1450000,
        "housing_food": 1500000,
        "books": 120000,
        "transportation": 180000,
        "personal": 220000,
    },
    "with_parents": {
        "tuition": 1450000,
        "housing_food": 520000,
        "books": 120000,
        "transportation": 200000,
        "personal": 180000,
    },
}
TERMS_A_YEAR = 2


class Term(Timestamped):
    """An academic term aid is paid in."""

    id: TermId
    name: Title
    """Its name (Fall 2026)."""
    aid_year: AidYear
    """The aid year."""
    start_date: Date
    """First day of classes."""
    census_date: Date
    """The day enrollment is counted; aid is paid from then."""


class Student(Timestamped):
    """A student who applies for aid."""

    id: StudentId
    student_number: Annotated[str, Generated("sequence", "S{n:07d}")]
    """The college's student id."""
    name: PersonName
    """Full name."""
    email: Email
    """E-mail."""
    birth_date: Date
    """Date of birth."""
    dependency: Dependency = "dependent"
    """dependent or independent (for aid)."""
    grade_level: GradeLevel = 1
    """Year in school."""
    housing: Housing = "on_campus"
    """on_campus, off_campus or with_parents."""
    enrollment: Enrollment = "full_time"
    """full_time, three_quarter, half_time or less_than_half."""
    sap_status: SapStatus = "meeting"
    """Satisfactory academic progress: meeting, warning, suspension or probation."""


class Isir(Timestamped):
    """An ISIR transaction from the FAFSA."""

    id: IsirId
    student_id: StudentId
    """The student."""
    aid_year: AidYear
    """The aid year."""
    transaction_number: Annotated[int, Field(ge=1, le=99)]
    """The FAFSA transaction (1 = original)."""
    sai: Sai
    """Student Aid Index, dollars."""
    pell_eligible: bool
    """Whether the SAI qualifies for Pell."""
    verification: Verification = "not_selected"
    """not_selected, pending or complete."""
    status: IsirStatus = "active"
    """active or superseded."""


class Document(Timestamped):
    """A verification document requested from the student."""

    id: DocumentId
    student_id: StudentId
    """The student."""
    aid_year: AidYear
    """The aid year."""
    kind: DocKind
    """tax_return_transcript, verification_worksheet, identity_statement or hs_completion."""
    status: DocStatus = "requested"
    """requested, received, accepted or rejected."""
    rejection_reason: Text | None = None
    """Why it was rejected."""


class Award(Timestamped):
    """One fund of a student's package."""

    id: AwardId
    student_id: StudentId
    """The student."""
    aid_year: AidYear
    """The aid year."""
    fund: Fund
    """pell_grant, institutional_grant, subsidized_loan, unsubsidized_loan or federal_work_study."""
    offered_cents: Cents
    """Amount offered for the year."""
    accepted_cents: Cents = 0
    """Amount the student accepted."""
    status: AwardStatus = "offered"
    """offered, accepted, declined or cancelled."""


class Disbursement(Timestamped):
    """A term's payment of an award to the student account."""

    id: DisbursementId
    award_id: AwardId
    """The award."""
    term_id: TermId
    """The term."""
    amount_cents: Cents
    """Amount paid."""
    status: DisbStatus = "disbursed"
    """disbursed or reversed."""
    disbursed_at: DateTime
    """When it was paid."""


class Budget(Value):
    """A student's cost of attendance and need."""

    student_id: StudentId
    """The student."""
    aid_year: AidYear
    """The aid year."""
    components: dict[str, int]
    """Cost by component, cents."""
    cost_of_attendance_cents: int
    """The total."""
    sai_cents: int | None
    """The active ISIR's SAI in cents (none without an ISIR)."""
    need_cents: int | None
    """Cost minus SAI, at least 0."""
    offered_cents: int
    """Aid offered or accepted (not declined or cancelled)."""
    need_based_cents: int
    """Of which need-based."""


# -- rules ------------------------------------------------------------------------------------


def _isir(ctx: Ctx, student_id: str, year: str) -> Isir | None:
    return ctx.first(Isir, student_id=student_id, aid_year=year, status="active")


def _coa(student: Student) -> int:
    return sum(COA_PARTS[student.housing].values())


def _live(ctx: Ctx, student_id: str, year: str) -> list[Award]:
    return [a for a in ctx.where(Award, student_id=student_id, aid_year=year) if a.status in ("offered", "accepted")]


def _amount(a: Award) -> int:
    return a.accepted_cents if a.status == "accepted" else a.offered_cents


def _loan_limits(student: Student) -> tuple[int, int]:
    total = TOTAL_DEP[student.grade_level]
    if student.dependency == "independent":
        total += INDEPENDENT_EXTRA[student.grade_level]
    return SUB_LIMIT[student.grade_level], total


def _guard_doc(ctx: Ctx, new: Any, old: Any) -> None:
    if new.status != "accepted" or old.status == "accepted":
        return
    isir = _isir(ctx, new.student_id, new.aid_year)
    docs = ctx.where(Document, student_id=new.student_id, aid_year=new.aid_year)
    if isir is not None and isir.verification == "pending" and all(d.status == "accepted" for d in docs):
        ctx.update(isir, verification="complete")


terms = service.resource(
    Term, name="term", plural="terms", prefix="term", create=False, get=False, filters=("aid_year",), delete=False
)
students = service.resource(
    Student,
    name="student",
    plural="students",
    prefix="stu",
    create=("name", "email", "birth_date", "dependency", "grade_level", "housing", "enrollment"),
    filters=("dependency", "grade_level", "housing", "enrollment", "sap_status", "email", "student_number"),
    search=("name",),
    update=("housing", "enrollment", "grade_level"),
    delete=False,
    unique=("email",),
)
isirs = service.resource(
    Isir,
    name="isir",
    plural="isirs",
    prefix="isir",
    create=False,
    get=False,
    filters=("student_id", "aid_year", "status", "verification"),
    delete=False,
    title="ISIR",
)
documents = service.resource(
    Document,
    name="document",
    plural="documents",
    prefix="vdoc",
    create=False,
    get=False,
    filters=("student_id", "aid_year", "kind", "status"),
    delete=False,
    transitions={
        "receive": Transition("status", ("requested", "rejected"), "received", "mark the document received"),
        "accept": Transition("status", ("received",), "accepted", "accept the verification document"),
    },
    guard_update=_guard_doc,
    title="verification document",
)
awards = service.resource(
    Award,
    name="award",
    plural="awards",
    prefix="awd",
    create=False,
    filters=("student_id", "aid_year", "fund", "status"),
    delete=False,
    transitions={"decline": Transition("status", ("offered",), "declined", "decline the aid award")},
)
disbursements = service.resource(
    Disbursement,
    name="disbursement",
    plural="disbursements",
    prefix="dsb",
    create=False,
    get=False,
    filters=("award_id", "term_id", "status"),
    delete=False,
)


# -- domain tools -----------------------------------------------------------------------------


def _example_isir(ctx: Ctx) -> dict[str, Any] | None:
    s = ctx.first(Student)
    return (
        None
        if s is None
        else {"student_id": s.id, "aid_year": "2026-27", "sai": 1200, "selected_for_verification": True}
    )


@service.tool(intent="import the student's ISIR", write=True, example=_example_isir)
def import_isir(ctx: Ctx, student_id: StudentId, aid_year: AidYear, sai: Sai, selected_for_verification: bool) -> Isir:
    """Load an ISIR transaction: it supersedes the year's active one; selection for verification requests documents.

    Args:
        student_id: The student.
        aid_year: The aid year.
        sai: The Student Aid Index in dollars.
        selected_for_verification: Whether the Department selected it for verification.
    """
    student = ctx.get(Student, student_id, field="student_id")
    old = _isir(ctx, student.id, aid_year)
    number = 1 if old is None else old.transaction_number + 1
    verification: Verification = "not_selected"
    if selected_for_verification:
        verification = "complete" if old is not None and old.verification == "complete" else "pending"
    if old is not None:
        ctx.update(old, status="superseded")
    isir = ctx.create(
        Isir,
        student_id=student.id,
        aid_year=aid_year,
        transaction_number=number,
        sai=sai,
        pell_eligible=_pell(sai) > 0,
        verification=verification,
    )
    if verification == "pending":
        have = {d.kind for d in ctx.where(Document, student_id=student.id, aid_year=aid_year)}
        for kind in ("tax_return_transcript", "verification_worksheet"):
            if kind not in have:
                ctx.create(Document, student_id=student.id, aid_year=aid_year, kind=kind)
    return isir


def _pell(sai: int) -> int:
    amount = PELL_MAX if sai <= 0 else PELL_MAX - sai * 100
    return amount if amount >= PELL_MIN else 0


@service.tool(
    intent="reject the verification document",
    write=True,
    example=first_example(Document, "document_id", where={"status": "received"}, reason="Unsigned worksheet."),
)
def reject_document(ctx: Ctx, document_id: DocumentId, reason: Text) -> Document:
    """Reject a received document with a reason; the student resubmits it.

    Args:
        document_id: A received document.
        reason: What is wrong (required).
    """
    doc = ctx.get(Document, document_id, field="document_id")
    if doc.status != "received":
        raise RuleViolation(f"document {doc.id} is {doc.status}", field="document_id", hint="review received documents")
    if not reason.strip():
        raise RuleViolation("a rejection needs a reason", field="reason", hint="say what to fix")
    return ctx.update(doc, status="rejected", rejection_reason=reason.strip())


@service.tool(
    intent="show the student's cost of attendance", example=first_example(Student, "student_id", aid_year="2026-27")
)
def cost_of_attendance(ctx: Ctx, student_id: StudentId, aid_year: AidYear) -> Budget:
    """The cost of attendance by component, the SAI, the need and the aid already packaged.

    Args:
        student_id: The student.
        aid_year: The aid year.
    """
    student = ctx.get(Student, student_id, field="student_id")
    isir = _isir(ctx, student.id, aid_year)
    coa = _coa(student)
    sai = None if isir is None else isir.sai * 100
    live = _live(ctx, student.id, aid_year)
    return Budget(
        student_id=student.id,
        aid_year=aid_year,
        components=dict(COA_PARTS[student.housing]),
        cost_of_attendance_cents=coa,
        sai_cents=sai,
        need_cents=None if sai is None else max(0, coa - sai),
        offered_cents=sum(_amount(a) for a in live),
        need_based_cents=sum(_amount(a) for a in live if a.fund in NEED_BASED),
    )


def _example_offer(ctx: Ctx) -> dict[str, Any] | None:
    for isir in ctx.where(Isir, status="active", aid_year="2026-27"):
        if not any(a.fund == "unsubsidized_loan" for a in _live(ctx, isir.student_id, isir.aid_year)):
            return {
                "student_id": isir.student_id,
                "aid_year": isir.aid_year,
                "fund": "unsubsidized_loan",
                "amount_cents": 100000,
            }
    return None


@service.tool(intent="offer the student an aid award", write=True, example=_example_offer)
def offer_award(
    ctx: Ctx,
    student_id: StudentId,
    aid_year: AidYear,
    fund: Fund,
    amount_cents: Annotated[int, Field(ge=100, le=10**7)],
) -> Award:
    """Add a fund to the student's package, within Pell eligibility, need, the cost of attendance and loan limits.

    Args:
        student_id: A student with an active ISIR for the year.
        aid_year: The aid year.
        fund: The fund; each once a year.
        amount_cents: Amount for the year.
    """
    student = ctx.get(Student, student_id, field="student_id")
    isir = _isir(ctx, student.id, aid_year)
    if isir is None:
        raise RuleViolation(f"{student.name} has no {aid_year} ISIR", field="student_id", hint="import the ISIR first")
    live = _live(ctx, student.id, aid_year)
    if any(a.fund == fund for a in live):
        raise Conflict(f"{fund} is already in the {aid_year} package", field="fund", hint="cancel it to change it")
    coa = _coa(student)
    if fund == "pell_grant" and amount_cents > _pell(isir.sai):
        raise RuleViolation(
            f"the SAI of {isir.sai} allows {_pell(isir.sai)} cents of Pell",
            field="amount_cents",
            hint="offer the scheduled Pell amount or less",
        )
    if fund in NEED_BASED:
        need = max(0, coa - isir.sai * 100)
        used = sum(_amount(a) for a in live if a.fund in NEED_BASED)
        if used + amount_cents > need:
            raise RuleViolation(
                f"need-based aid would exceed the need of {need} cents by {used + amount_cents - need}",
                field="amount_cents",
                hint="offer an unsubsidized loan instead",
            )
    if sum(_amount(a) for a in live) + amount_cents > coa:
        raise RuleViolation(
            f"the package would exceed the cost of attendance of {coa} cents",
            field="amount_cents",
            hint="reduce the amount",
        )
    if fund in LOANS:
        sub_limit, total_limit = _loan_limits(student)
        sub = sum(_amount(a) for a in live if a.fund == "subsidized_loan") + (
            amount_cents if fund == "subsidized_loan" else 0
        )
        loans = sum(_amount(a) for a in live if a.fund in LOANS) + amount_cents
        if sub > sub_limit or loans > total_limit:
            raise RuleViolation(
                f"Direct loans for grade level {student.grade_level} are limited to {sub_limit} cents "
                f"subsidized and {total_limit} in all",
                field="amount_cents",
                hint="reduce the loan",
            )
    return ctx.create(Award, student_id=student.id, aid_year=aid_year, fund=fund, offered_cents=amount_cents)


@service.tool(
    intent="accept the aid award",
    write=True,
    example=first_example(Award, "award_id", where={"status": "offered"}, fields={"amount_cents": "offered_cents"}),
)
def accept_award(ctx: Ctx, award_id: AwardId, amount_cents: Annotated[int, Field(ge=1)]) -> Award:
    """The student accepts an offered award in full or in part.

    Args:
        award_id: An offered award.
        amount_cents: Amount accepted, at most the offer.
    """
    award = ctx.get(Award, award_id, field="award_id")
    if award.status != "offered":
        raise RuleViolation(f"award {award.id} is {award.status}", field="award_id", hint="accept offered awards")
    if amount_cents > award.offered_cents:
        raise RuleViolation(
            f"the offer is {award.offered_cents} cents", field="amount_cents", hint="accept at most that"
        )
    return ctx.update(award, status="accepted", accepted_cents=amount_cents)


@service.tool(
    intent="cancel the aid award",
    write=True,
    example=first_example(Award, "award_id", where={"status": "offered"}, reason="Outside scholarship received."),
)
def cancel_award(ctx: Ctx, award_id: AwardId, reason: Text) -> Award:
    """Cancel an offered or accepted award that has nothing disbursed.

    Args:
        award_id: The award.
        reason: Why (required).
    """
    award = ctx.get(Award, award_id, field="award_id")
    if award.status not in ("offered", "accepted"):
        raise RuleViolation(f"award {award.id} is {award.status}", field="award_id", hint="nothing to cancel")
    if not reason.strip():
        raise RuleViolation("a cancellation needs a reason", field="reason", hint="say why")
    if any(d.status == "disbursed" for d in ctx.where(Disbursement, award_id=award.id)):
        raise RuleViolation("the award was disbursed", field="award_id", hint="return the funds before cancelling")
    return ctx.update(award, status="cancelled")


def _blocker(ctx: Ctx, award: Award, term: Term) -> tuple[str, str] | None:
    """Why ``award`` cannot be paid in ``term`` (message, field), or None."""
    student = ctx.get(Student, award.student_id)
    isir = _isir(ctx, student.id, award.aid_year)
    if award.status != "accepted":
        return f"award {award.id} is {award.status}", "award_id"
    if award.fund == "federal_work_study":
        return "work-study is paid through payroll as it is earned", "award_id"
    if term.aid_year != award.aid_year:
        return f"{term.name} is in aid year {term.aid_year}", "term_id"
    if term.census_date > ctx.today():
        return f"{term.name}'s census date is {term.census_date}", "term_id"
    if isir is None or isir.verification == "pending":
        return "verification is not complete", "award_id"
    if student.sap_status == "suspension":
        return f"{student.name} is on SAP suspension", "award_id"
    if award.fund in LOANS and student.enrollment == "less_than_half":
        return "loans need at least half-time enrollment", "award_id"
    if ctx.where(Disbursement, award_id=award.id, term_id=term.id, status="disbursed"):
        return f"award {award.id} was already paid for {term.name}", "term_id"
    return None


def _example_disburse(ctx: Ctx) -> dict[str, Any] | None:
    for award in ctx.where(Award, status="accepted"):
        for term in ctx.where(Term, aid_year=award.aid_year):
            if _blocker(ctx, award, term) is None:
                return {"award_id": award.id, "term_id": term.id}
    return None


@service.tool(intent="disburse the award for the term", write=True, example=_example_disburse)
def disburse(ctx: Ctx, award_id: AwardId, term_id: TermId) -> Disbursement:
    """Pay half of an accepted award for a term after its census date, once; verification, SAP and enrollment checked.

    Args:
        award_id: An accepted award.
        term_id: A term of its aid year.
    """
    award = ctx.get(Award, award_id, field="award_id")
    term = ctx.get(Term, term_id, field="term_id")
    why = _blocker(ctx, award, term)
    if why is not None:
        raise RuleViolation(why[0], field=why[1], hint="resolve it, then disburse again")
    return ctx.create(
        Disbursement,
        award_id=award.id,
        term_id=term.id,
        amount_cents=award.accepted_cents // TERMS_A_YEAR,
        disbursed_at=ctx.now(),
    )


@service.tool(
    intent="return the disbursed funds",
    write=True,
    destructive=True,
    example=first_example(Disbursement, "disbursement_id", where={"status": "disbursed"}, reason="Student withdrew."),
)
def return_disbursement(ctx: Ctx, disbursement_id: DisbursementId, reason: Text) -> Disbursement:
    """Return a disbursement to its fund (a withdrawal or an over-award); the term may be paid again later.

    Args:
        disbursement_id: A disbursed payment.
        reason: Why (required).
    """
    d = ctx.get(Disbursement, disbursement_id, field="disbursement_id")
    if d.status != "disbursed":
        raise RuleViolation(f"disbursement {d.id} is {d.status}", field="disbursement_id", hint="already returned")
    if not reason.strip():
        raise RuleViolation("a return needs a reason", field="reason", hint="say why the funds go back")
    return ctx.update(d, status="reversed")


@service.tool(
    intent="evaluate the student's academic progress",
    write=True,
    example=first_example(
        Student, "student_id", where={"sap_status": "meeting"}, cumulative_gpa=3.1, completion_rate=90.0
    ),
)
def evaluate_sap(
    ctx: Ctx, student_id: StudentId, cumulative_gpa: Annotated[float, Field(ge=0, le=4)], completion_rate: Percent
) -> Student:
    """Apply the SAP standard (GPA 2.0 and 67% of credits completed): meeting, else warning, then suspension.

    Args:
        student_id: The student.
        cumulative_gpa: Cumulative GPA, 0-4.
        completion_rate: Percent of attempted credits completed.
    """
    student = ctx.get(Student, student_id, field="student_id")
    if cumulative_gpa >= 2.0 and completion_rate >= 67:
        status: SapStatus = "meeting"
    elif student.sap_status == "meeting":
        status = "warning"
    else:
        status = "suspension"
    return ctx.update(student, sap_status=status)


@service.tool(
    intent="approve the student's SAP appeal",
    write=True,
    example=first_example(
        Student, "student_id", where={"sap_status": "suspension"}, plan="Reduced load with tutoring."
    ),
)
def approve_sap_appeal(ctx: Ctx, student_id: StudentId, plan: Text) -> Student:
    """Approve a suspended student's appeal with an academic plan: they move to probation and aid may be paid.

    Args:
        student_id: A student on SAP suspension.
        plan: The academic plan (required).
    """
    student = ctx.get(Student, student_id, field="student_id")
    if student.sap_status != "suspension":
        raise RuleViolation(f"{student.name} is {student.sap_status}", field="student_id", hint="only suspensions")
    if not plan.strip():
        raise RuleViolation("an appeal needs an academic plan", field="plan", hint="describe the plan")
    return ctx.update(student, sap_status="probation")


# -- seed -------------------------------------------------------------------------------------

PLANS: tuple[tuple[int, bool, SapStatus, Housing, Enrollment, int], ...] = (
    (-1500, False, "meeting", "on_campus", "full_time", 1),
    (2500, True, "meeting", "off_campus", "full_time", 2),
    (9000, False, "warning", "with_parents", "three_quarter", 3),
    (0, True, "meeting", "on_campus", "full_time", 1),
    (30000, False, "suspension", "off_campus", "half_time", 4),
    (4000, False, "meeting", "on_campus", "less_than_half", 2),
    (1200, False, "meeting", "off_campus", "full_time", 3),
)


@service.seeder
def seed(s: SeedContext) -> None:
    """Two terms, students from the consumers with ISIRs, verification in every state, packages and disbursements."""
    pop = s.population
    today = s.now.date()
    fall = s.create(
        Term,
        name="Fall 2025",
        aid_year="2025-26",
        start_date=today - dt.timedelta(days=180),
        census_date=today - dt.timedelta(days=160),
    )
    spring = s.create(
        Term,
        name="Spring 2026",
        aid_year="2025-26",
        start_date=today - dt.timedelta(days=40),
        census_date=today - dt.timedelta(days=20),
    )
    s.create(
        Term,
        name="Fall 2026",
        aid_year="2026-27",
        start_date=today + dt.timedelta(days=180),
        census_date=today + dt.timedelta(days=200),
    )
    for k, (sai, selected, sap, housing, enrollment, grade) in enumerate(PLANS):
        p = pop.consumers[40 + k]
        st = s.create(
            Student,
            name=p.name,
            email=p.email,
            birth_date=p.birth_date,
            grade_level=grade,
            housing=housing,
            enrollment=enrollment,
            sap_status=sap,
            dependency="independent" if k % 3 == 2 else "dependent",
        )
        if k == 6:
            continue
        verification: Verification = "not_selected" if not selected else "pending" if k == 1 else "complete"
        s.create(
            Isir,
            student_id=st.id,
            aid_year="2025-26",
            transaction_number=1 + k % 2,
            sai=sai,
            pell_eligible=_pell(sai) > 0,
            verification=verification,
        )
        if selected:
            for kind, ds in (
                ("tax_return_transcript", "accepted"),
                ("verification_worksheet", "received" if k == 1 else "accepted"),
            ):
                s.create(Document, student_id=st.id, aid_year="2025-26", kind=kind, status=ds)
            if k == 1:
                s.create(Document, student_id=st.id, aid_year="2025-26", kind="identity_statement")
        coa = sum(COA_PARTS[housing].values())
        need = max(0, coa - sai * 100)
        pell = min(_pell(sai), need)
        package: list[tuple[Fund, int]] = [("pell_grant", pell)] if pell else []
        package.append(("subsidized_loan", min(SUB_LIMIT[grade], max(0, need - pell))))
        package.append(("unsubsidized_loan", 200000))
        if k in (0, 3):
            package.append(("federal_work_study", 250000))
        for n, (fund, amount) in enumerate(package):
            if amount <= 0:
                continue
            status: AwardStatus = (
                "offered" if k == 3 and n > 0 else "declined" if k == 2 and fund in LOANS and n == 2 else "accepted"
            )
            award = s.create(
                Award,
                student_id=st.id,
                aid_year="2025-26",
                fund=fund,
                offered_cents=amount,
                accepted_cents=amount if status == "accepted" else 0,
                status=status,
            )
            if status == "accepted" and fund != "federal_work_study" and verification != "pending" and k != 4:
                s.create(
                    Disbursement,
                    award_id=award.id,
                    term_id=fall.id,
                    amount_cents=amount // 2,
                    disbursed_at=s.ago(days=158),
                )
                if k == 0:
                    s.create(
                        Disbursement,
                        award_id=award.id,
                        term_id=spring.id,
                        amount_cents=amount // 2,
                        disbursed_at=s.ago(days=18),
                    )
