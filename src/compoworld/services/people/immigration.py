"""Passage Immigration: employment immigration cases for foreign national employees, petitions and documents.

Modeled on Envoy Global's and Boundless's employer immigration platforms
(foreign nationals, cases such as H-1B, H-1B extension, L-1 and the green card,
document questionnaires, petitions to USCIS with receipt numbers, RFEs and
decisions): a case moves intake → collecting_documents → preparing → filed
(↔ rfe) → approved or denied, or is withdrawn; H-1B and L-1 cases need an
offered wage at least the prevailing wage; a foreign national has one open case
of a type; a case is prepared only once every requested document is accepted;
a petition is filed on a prepared case with the form its type needs and a
unique USCIS receipt number (three letters and ten digits); a request for
evidence is answered before its due date (at most 87 days); premium processing
is bought once for I-129 and I-140 petitions; approving a nonimmigrant petition
gives the foreign national the new status with its expiry.
"""

from __future__ import annotations

import datetime as dt
from typing import Annotated, Any, Literal

from pydantic import Field, StringConstraints

from compoworld.engine.context import Ctx
from compoworld.engine.errors import Conflict, RuleViolation
from compoworld.engine.records import CREATED, UPDATED, Record
from compoworld.engine.service import Service, Transition
from compoworld.engine.state import SeedContext
from compoworld.engine.types import Cents, Country, Date, DateTime, Email, FileLink, IdOf, JobTitle, PersonName, Text
from compoworld.services.kit.examples import first_example
from compoworld.services.kit.records import Value

__all__ = ["service"]

service = Service(
    "immigration",
    title="Passage Immigration",
    category="immigration",
    modeled_on="Envoy Global and Boundless employer immigration platforms (foreign nationals, cases, "
    "document requests, USCIS petitions with receipt numbers, RFEs, approvals)",
    description="Employment immigration for the company's foreign national employees: their current visa "
    "status and its expiry, cases (H-1B, extensions, L-1, O-1, green card) run with outside counsel, the "
    "documents each case needs, petitions filed with USCIS and tracked by receipt number through requests "
    "for evidence to a decision, and upcoming status expirations.",
)

NationalId = Annotated[str, IdOf("immigration.foreign_national")]
CaseId = Annotated[str, IdOf("immigration.case")]
PetitionId = Annotated[str, IdOf("immigration.petition")]
DocumentId = Annotated[str, IdOf("immigration.document")]

VisaStatus = Literal["F-1 OPT", "H-1B", "L-1A", "L-1B", "O-1", "TN", "permanent_resident"]
CaseType = Literal["h1b", "h1b_extension", "l1", "o1", "green_card"]
CaseStatus = Literal["intake", "collecting_documents", "preparing", "filed", "rfe", "approved", "denied", "withdrawn"]
Form = Literal["I-129", "I-140", "I-485"]
PetitionStatus = Literal["pending", "rfe_issued", "approved", "denied", "withdrawn"]
DocKind = Literal[
    "passport", "degree", "resume", "offer_letter", "pay_stubs", "i94", "experience_letter", "employment_history"
]
DocStatus = Literal["requested", "submitted", "accepted", "rejected"]
ReceiptNumber = Annotated[str, StringConstraints(pattern=r"^(EAC|WAC|LIN|SRC|IOE|MSC)\d{10}$")]
"""A USCIS receipt number: service-center code and ten digits (WAC2490012345)."""

OPEN: tuple[CaseStatus, ...] = ("intake", "collecting_documents", "preparing", "filed", "rfe")
FORMS: dict[CaseType, tuple[Form, ...]] = {
    "h1b": ("I-129",),
    "h1b_extension": ("I-129",),
    "l1": ("I-129",),
    "o1": ("I-129",),
    "green_card": ("I-140", "I-485"),
}
GRANTS: dict[CaseType, tuple[VisaStatus, int]] = {
    "h1b": ("H-1B", 3),
    "h1b_extension": ("H-1B", 3),
    "l1": ("L-1A", 3),
    "o1": ("O-1", 3),
    "green_card": ("permanent_resident", 10),
}
WAGE_TYPES: tuple[CaseType, ...] = ("h1b", "h1b_extension", "l1")
MAX_RFE_DAYS = 87
PREMIUM_FEE = 280_500


class ForeignNational(Record):
    """An employee who needs the company's sponsorship to work."""

    id: NationalId
    employee_email: Email
    """The employee."""
    name: PersonName
    """Their name as on the passport."""
    citizenship: Country
    """Country of citizenship."""
    current_status: VisaStatus
    """Their current work status."""
    status_expires_on: Date | None = None
    """When that status ends (none for permanent residents)."""
    passport_expires_on: Date
    """When their passport expires."""
    created_at: Annotated[DateTime, CREATED]
    """When they were added."""


class Case(Record):
    """An immigration matter for one foreign national."""

    id: CaseId
    foreign_national_id: NationalId
    """Who it is for."""
    case_type: CaseType
    """h1b, h1b_extension, l1, o1 or green_card."""
    status: CaseStatus = "intake"
    """intake, collecting_documents, preparing, filed, rfe, approved, denied or withdrawn."""
    job_title: JobTitle
    """The sponsored position."""
    offered_wage_cents: Cents
    """Annual wage offered, in cents."""
    prevailing_wage_cents: Cents
    """Prevailing wage for the position and area, in cents."""
    hr_owner_email: Email
    """The HR partner running it."""
    attorney_email: Email | None = None
    """Outside counsel."""
    target_file_by: Date
    """When it must be filed."""
    notes: Text = ""
    """Working notes."""
    created_at: Annotated[DateTime, CREATED]
    """When it was opened."""
    updated_at: Annotated[DateTime, UPDATED]
    """When it last changed."""


class Petition(Record):
    """A form filed with USCIS for a case."""

    id: PetitionId
    case_id: CaseId
    """The case."""
    form: Form
    """I-129, I-140 or I-485."""
    receipt_number: ReceiptNumber
    """The USCIS receipt number."""
    status: PetitionStatus = "pending"
    """pending, rfe_issued, approved, denied or withdrawn."""
    filed_on: Date
    """When it was filed."""
    premium_processing: bool = False
    """Whether premium processing was bought."""
    fee_cents: Cents
    """Filing fees paid, in cents."""
    rfe_due_on: Date | None = None
    """When the response to a request for evidence is due."""
    decided_on: Date | None = None
    """When USCIS decided."""
    valid_until: Date | None = None
    """End of the granted status (approved)."""
    updated_at: Annotated[DateTime, UPDATED]
    """When it last changed."""


class Document(Record):
    """A document requested from the foreign national for a case."""

    id: DocumentId
    case_id: CaseId
    """The case."""
    kind: DocKind
    """What is asked for."""
    status: DocStatus = "requested"
    """requested, submitted, accepted or rejected."""
    due_on: Date
    """When it is needed."""
    file_url: FileLink | None = None
    """The uploaded file."""
    rejection_reason: Text | None = None
    """Why it was rejected."""
    created_at: Annotated[DateTime, CREATED]
    """When it was requested."""


class Expiring(Value):
    """A foreign national whose status or passport ends soon."""

    foreign_national_id: NationalId
    """Who."""
    employee_email: Email
    """Their e-mail."""
    what: Literal["status", "passport"]
    """What expires."""
    expires_on: Date
    """When."""
    days_left: int
    """Days from today."""
    open_case_id: CaseId | None
    """An open case that may resolve it."""


# -- rules ------------------------------------------------------------------------------------


def _staff(ctx: Ctx, email: str | None, field: str) -> None:
    if email is not None and email not in {p.email for p in ctx.population.employees}:
        raise RuleViolation(f"{email} is not an employee", field=field, hint="use an employee's e-mail")


def _guard_national(ctx: Ctx, new: Any, old: Any) -> None:
    if new.current_status != "permanent_resident" and new.status_expires_on is None:
        raise RuleViolation(
            f"a {new.current_status} status has an expiry", field="status_expires_on", hint="give the I-94 end date"
        )


def _guard_case(ctx: Ctx, new: Any, old: Any) -> None:
    if new.status == "withdrawn" and old.status != "withdrawn":
        for pet in ctx.where(Petition, case_id=new.id):
            if pet.status in ("pending", "rfe_issued"):
                ctx.update(pet, status="withdrawn", decided_on=ctx.today())
    if new.attorney_email != old.attorney_email and new.attorney_email in {p.email for p in ctx.population.employees}:
        raise RuleViolation("outside counsel is not an employee", field="attorney_email", hint="use the law firm's")
    if new.target_file_by != old.target_file_by and new.target_file_by < ctx.today():
        raise RuleViolation("target_file_by is in the past", field="target_file_by", hint="pick a future date")


nationals = service.resource(
    ForeignNational,
    name="foreign_national",
    plural="foreign_nationals",
    prefix="fn",
    create=False,
    filters=("employee_email", "citizenship", "current_status"),
    search=("name",),
    update=("current_status", "status_expires_on", "passport_expires_on"),
    delete=False,
    guard_update=_guard_national,
)
cases = service.resource(
    Case,
    name="case",
    plural="cases",
    prefix="case",
    create=False,
    filters=("foreign_national_id", "case_type", "status", "hr_owner_email", "attorney_email"),
    search=("job_title", "notes"),
    update=("attorney_email", "target_file_by", "notes"),
    delete=False,
    transitions={
        "withdraw": Transition(
            "status",
            OPEN,
            "withdrawn",
            "withdraw the case",
            description="Withdraw an open case; its pending petitions are withdrawn with USCIS.",
            destructive=True,
        )
    },
    guard_update=_guard_case,
    title="immigration case",
)
petitions = service.resource(
    Petition,
    name="petition",
    plural="petitions",
    prefix="pet",
    create=False,
    filters=("case_id", "form", "status", "receipt_number", "premium_processing"),
    delete=False,
)
documents = service.resource(
    Document,
    name="document",
    plural="documents",
    prefix="doc",
    create=False,
    filters=("case_id", "kind", "status"),
    delete=False,
    title="document request",
)


# -- domain tools -----------------------------------------------------------------------------


def _example_add(ctx: Ctx) -> dict[str, Any] | None:
    taken = {n.employee_email for n in ctx.scan(ForeignNational)}
    for p in ctx.population.employees:
        if p.email not in taken:
            return {
                "employee_email": p.email,
                "name": p.name,
                "citizenship": "IN",
                "current_status": "F-1 OPT",
                "status_expires_on": (ctx.today() + dt.timedelta(days=200)).isoformat(),
                "passport_expires_on": (ctx.today() + dt.timedelta(days=2000)).isoformat(),
            }
    return None


@service.tool(intent="add the foreign national", write=True, example=_example_add)
def add_foreign_national(
    ctx: Ctx,
    employee_email: Email,
    name: PersonName,
    citizenship: Country,
    current_status: VisaStatus,
    passport_expires_on: Date,
    status_expires_on: Date | None = None,
) -> ForeignNational:
    """Add an employee who needs sponsorship (once per employee).

    Args:
        employee_email: The employee.
        name: Their name as on the passport.
        citizenship: Country of citizenship (ISO code).
        current_status: F-1 OPT, H-1B, L-1A, L-1B, O-1, TN or permanent_resident.
        passport_expires_on: Passport expiry.
        status_expires_on: When the current status ends (required unless permanent resident).
    """
    _staff(ctx, employee_email, "employee_email")
    if ctx.first(ForeignNational, employee_email=employee_email) is not None:
        raise Conflict(f"{employee_email} is already a foreign national here", field="employee_email", hint="get it")
    if citizenship == "US":
        raise RuleViolation("US citizens need no sponsorship", field="citizenship", hint="check the passport")
    return ctx.create(
        ForeignNational,
        employee_email=employee_email,
        name=name,
        citizenship=citizenship,
        current_status=current_status,
        status_expires_on=status_expires_on,
        passport_expires_on=passport_expires_on,
    )


def _example_open(ctx: Ctx) -> dict[str, Any] | None:
    for n in ctx.scan(ForeignNational):
        if not any(c.status in OPEN for c in ctx.where(Case, foreign_national_id=n.id, case_type="o1")):
            return {
                "foreign_national_id": n.id,
                "case_type": "o1",
                "job_title": "Principal Research Scientist",
                "offered_wage_cents": 21_000_000,
                "prevailing_wage_cents": 15_000_000,
                "hr_owner_email": ctx.population.employees[0].email,
                "target_file_by": (ctx.today() + dt.timedelta(days=60)).isoformat(),
            }
    return None


@service.tool(intent="open the immigration case", write=True, example=_example_open)
def open_case(
    ctx: Ctx,
    foreign_national_id: NationalId,
    case_type: CaseType,
    job_title: JobTitle,
    offered_wage_cents: Cents,
    prevailing_wage_cents: Cents,
    hr_owner_email: Email,
    target_file_by: Date,
    attorney_email: Email | None = None,
) -> Case:
    """Open a case; one open case of a type per person, and H-1B/L-1 wages at least the prevailing wage.

    Args:
        foreign_national_id: Who it is for.
        case_type: h1b, h1b_extension, l1, o1 or green_card.
        job_title: The sponsored position.
        offered_wage_cents: Annual wage offered, in cents.
        prevailing_wage_cents: Prevailing wage for the position and area, in cents.
        hr_owner_email: The HR partner running it.
        target_file_by: When it must be filed (a future date).
        attorney_email: Outside counsel.
    """
    fn = ctx.get(ForeignNational, foreign_national_id, field="foreign_national_id")
    _staff(ctx, hr_owner_email, "hr_owner_email")
    for c in ctx.where(Case, foreign_national_id=fn.id, case_type=case_type):
        if c.status in OPEN:
            raise Conflict(f"{fn.name} already has open {case_type} case {c.id}", field="case_type", hint="use it")
    if fn.current_status == "permanent_resident":
        raise RuleViolation(f"{fn.name} is a permanent resident", field="foreign_national_id", hint="no case needed")
    if case_type == "h1b_extension" and fn.current_status != "H-1B":
        raise RuleViolation(
            "an extension needs a current H-1B status", field="case_type", hint="open an h1b case instead"
        )
    if case_type in WAGE_TYPES and offered_wage_cents < prevailing_wage_cents:
        raise RuleViolation(
            "the offered wage is below the prevailing wage",
            field="offered_wage_cents",
            hint=f"offer at least {prevailing_wage_cents} cents",
        )
    if target_file_by <= ctx.today():
        raise RuleViolation("target_file_by must be in the future", field="target_file_by", hint="pick a date")
    if attorney_email in {p.email for p in ctx.population.employees}:
        raise RuleViolation("outside counsel is not an employee", field="attorney_email", hint="use the law firm's")
    return ctx.create(
        Case,
        foreign_national_id=fn.id,
        case_type=case_type,
        job_title=job_title,
        offered_wage_cents=offered_wage_cents,
        prevailing_wage_cents=prevailing_wage_cents,
        hr_owner_email=hr_owner_email,
        attorney_email=attorney_email,
        target_file_by=target_file_by,
    )


def _case(ctx: Ctx, case_id: str, *allowed: CaseStatus) -> Case:
    case = ctx.get(Case, case_id, field="case_id")
    if case.status not in allowed:
        raise RuleViolation(
            f"case {case.id} is {case.status}", field="case_id", hint=f"it must be {', '.join(allowed)}"
        )
    return case


@service.tool(
    intent="request the document",
    write=True,
    example=first_example(Case, "case_id", where={"status": "intake"}, kind="degree", due_in_days=14),
)
def request_document(
    ctx: Ctx, case_id: CaseId, kind: DocKind, due_in_days: Annotated[int, Field(ge=1, le=90)] = 14
) -> Document:
    """Ask the foreign national for a document; the case starts collecting documents.

    Args:
        case_id: A case in intake or collecting documents.
        kind: The document.
        due_in_days: Days until it is due.
    """
    case = _case(ctx, case_id, "intake", "collecting_documents")
    for d in ctx.where(Document, case_id=case.id, kind=kind):
        if d.status != "rejected":
            raise Conflict(f"{kind} is already requested ({d.id}, {d.status})", field="kind", hint="review that one")
    if case.status == "intake":
        ctx.update(case, status="collecting_documents")
    return ctx.create(Document, case_id=case.id, kind=kind, due_on=ctx.today() + dt.timedelta(days=due_in_days))


@service.tool(
    intent="submit the document",
    write=True,
    example=first_example(
        Document, "document_id", where={"status": "requested"}, file_url="https://files.example/p.pdf"
    ),
)
def submit_document(ctx: Ctx, document_id: DocumentId, file_url: FileLink) -> Document:
    """The foreign national uploads a requested (or rejected) document.

    Args:
        document_id: The document request.
        file_url: The uploaded file.
    """
    doc = ctx.get(Document, document_id, field="document_id")
    if doc.status not in ("requested", "rejected"):
        raise RuleViolation(f"document {doc.id} is {doc.status}", field="document_id", hint="nothing to upload")
    return ctx.update(doc, status="submitted", file_url=file_url, rejection_reason=None)


@service.tool(
    intent="review the document",
    write=True,
    example=first_example(Document, "document_id", where={"status": "submitted"}, accept=True),
)
def review_document(ctx: Ctx, document_id: DocumentId, accept: bool, reason: Text | None = None) -> Document:
    """Accept a submitted document, or reject it with a reason so it is uploaded again.

    Args:
        document_id: The submitted document.
        accept: Whether it is acceptable.
        reason: Why it is rejected (required to reject).
    """
    doc = ctx.get(Document, document_id, field="document_id")
    if doc.status != "submitted":
        raise RuleViolation(f"document {doc.id} is {doc.status}", field="document_id", hint="wait for an upload")
    if accept:
        return ctx.update(doc, status="accepted")
    if not (reason or "").strip():
        raise RuleViolation("a rejection needs a reason", field="reason", hint="say what is wrong")
    return ctx.update(doc, status="rejected", rejection_reason=reason)


def _example_prepare(ctx: Ctx) -> dict[str, Any] | None:
    for c in ctx.where(Case, status="collecting_documents"):
        docs = ctx.where(Document, case_id=c.id)
        if docs and all(d.status == "accepted" for d in docs):
            return {"case_id": c.id}
    return None


@service.tool(intent="start preparing the case", write=True, example=_example_prepare)
def prepare_case(ctx: Ctx, case_id: CaseId) -> Case:
    """Move a case to preparation once every requested document is accepted.

    Args:
        case_id: A case collecting documents.
    """
    case = _case(ctx, case_id, "collecting_documents")
    waiting = [d.kind for d in ctx.where(Document, case_id=case.id) if d.status != "accepted"]
    if waiting:
        raise RuleViolation(
            f"documents not accepted yet: {', '.join(waiting)}",
            field="case_id",
            hint="review them with immigration__review_document",
        )
    return ctx.update(case, status="preparing")


def _example_file(ctx: Ctx) -> dict[str, Any] | None:
    c = ctx.first(Case, status="preparing")
    if c is None:
        return None
    return {"case_id": c.id, "form": FORMS[c.case_type][0], "receipt_number": "WAC2690099999", "fee_cents": 178_000}


@service.tool(intent="file the petition", write=True, example=_example_file)
def file_petition(ctx: Ctx, case_id: CaseId, form: Form, receipt_number: ReceiptNumber, fee_cents: Cents) -> Petition:
    """Record a petition filed with USCIS for a prepared case (or a further form of a filed green card case).

    Args:
        case_id: A case in preparation (green card: also filed, for the I-485).
        form: The form its type needs (I-129; green card: I-140 then I-485).
        receipt_number: The USCIS receipt number.
        fee_cents: Filing fees paid, in cents.
    """
    case = ctx.get(Case, case_id, field="case_id")
    allowed: tuple[CaseStatus, ...] = ("preparing", "filed") if case.case_type == "green_card" else ("preparing",)
    _case(ctx, case_id, *allowed)
    if form not in FORMS[case.case_type]:
        raise RuleViolation(
            f"a {case.case_type} case files {' or '.join(FORMS[case.case_type])}", field="form", hint="pick that form"
        )
    if ctx.first(Petition, case_id=case.id, form=form) is not None:
        raise Conflict(f"{form} is already filed for case {case.id}", field="form", hint="track that petition")
    if ctx.first(Petition, receipt_number=receipt_number) is not None:
        raise Conflict(f"receipt {receipt_number} is already recorded", field="receipt_number", hint="check it")
    ctx.update(case, status="filed")
    return ctx.create(
        Petition, case_id=case.id, form=form, receipt_number=receipt_number, filed_on=ctx.today(), fee_cents=fee_cents
    )


def _petition(ctx: Ctx, petition_id: str, *allowed: PetitionStatus) -> Petition:
    pet = ctx.get(Petition, petition_id, field="petition_id")
    if pet.status not in allowed:
        raise RuleViolation(f"petition {pet.id} is {pet.status}", field="petition_id", hint=f"it must be {allowed[0]}")
    return pet


@service.tool(
    intent="record the request for evidence",
    write=True,
    example=first_example(Petition, "petition_id", where={"status": "pending"}, due_in_days=60),
)
def record_rfe(
    ctx: Ctx, petition_id: PetitionId, due_in_days: Annotated[int, Field(ge=1, le=MAX_RFE_DAYS)]
) -> Petition:
    """Record a request for evidence USCIS issued on a pending petition; the case waits on the response.

    Args:
        petition_id: The pending petition.
        due_in_days: Days until the response is due (at most 87).
    """
    pet = _petition(ctx, petition_id, "pending")
    ctx.update(ctx.get(Case, pet.case_id), status="rfe")
    return ctx.update(pet, status="rfe_issued", rfe_due_on=ctx.today() + dt.timedelta(days=due_in_days))


@service.tool(
    intent="respond to the request for evidence",
    write=True,
    example=first_example(
        Petition,
        "petition_id",
        where={"status": "rfe_issued"},
        match=lambda c, p: bool(p.rfe_due_on and p.rfe_due_on >= c.today()),
    ),
)
def respond_rfe(ctx: Ctx, petition_id: PetitionId) -> Petition:
    """Send the response to a request for evidence by its due date; the petition is pending again.

    Args:
        petition_id: The petition with an open request for evidence.
    """
    pet = _petition(ctx, petition_id, "rfe_issued")
    if pet.rfe_due_on is not None and pet.rfe_due_on < ctx.today():
        raise RuleViolation(
            f"the response was due {pet.rfe_due_on}", field="petition_id", hint="withdraw the case or refile"
        )
    ctx.update(ctx.get(Case, pet.case_id), status="filed")
    return ctx.update(pet, status="pending")


@service.tool(
    intent="record the decision on the petition",
    write=True,
    example=first_example(Petition, "petition_id", where={"status": "pending"}, approved=True),
)
def decide_petition(ctx: Ctx, petition_id: PetitionId, approved: bool) -> Petition:
    """Record USCIS's decision on a pending petition.

    Approving the case's last form approves the case and gives the foreign national the new status and its expiry.

    Args:
        petition_id: The pending petition.
        approved: True when approved, False when denied.
    """
    pet = _petition(ctx, petition_id, "pending")
    case = ctx.get(Case, pet.case_id)
    today = ctx.today()
    if not approved:
        ctx.update(case, status="denied")
        return ctx.update(pet, status="denied", decided_on=today)
    visa, years = GRANTS[case.case_type]
    until = today.replace(year=today.year + years, day=min(today.day, 28))
    pet = ctx.update(pet, status="approved", decided_on=today, valid_until=until)
    if pet.form == FORMS[case.case_type][-1]:
        ctx.update(case, status="approved")
        fn = ctx.get(ForeignNational, case.foreign_national_id)
        ctx.update(fn, current_status=visa, status_expires_on=None if visa == "permanent_resident" else until)
    return pet


@service.tool(
    intent="upgrade the petition to premium processing",
    write=True,
    example=first_example(Petition, "petition_id", where={"status": "pending", "premium_processing": False}),
)
def upgrade_premium(ctx: Ctx, petition_id: PetitionId) -> Petition:
    """Buy premium processing (Form I-907) for a pending I-129 or I-140 petition, once.

    Args:
        petition_id: The pending petition.
    """
    pet = _petition(ctx, petition_id, "pending", "rfe_issued")
    if pet.form == "I-485":
        raise RuleViolation("premium processing is not offered for I-485", field="petition_id", hint="none")
    if pet.premium_processing:
        raise Conflict(f"petition {pet.id} already has premium processing", field="petition_id", hint="nothing to do")
    return ctx.update(pet, premium_processing=True, fee_cents=pet.fee_cents + PREMIUM_FEE)


@service.tool(intent="list the expiring statuses", example=lambda ctx: {"within_days": 180})
def expiring_statuses(ctx: Ctx, within_days: Annotated[int, Field(ge=1, le=730)] = 180) -> list[Expiring]:
    """Foreign nationals whose status or passport ends within the window, soonest first, with any open case.

    Args:
        within_days: The window, in days from today.
    """
    today = ctx.today()
    out: list[Expiring] = []
    for fn in ctx.scan(ForeignNational):
        open_case = next((c.id for c in ctx.where(Case, foreign_national_id=fn.id) if c.status in OPEN), None)
        for what, when in (("status", fn.status_expires_on), ("passport", fn.passport_expires_on)):
            if when is not None and (when - today).days <= within_days:
                out.append(
                    Expiring(
                        foreign_national_id=fn.id,
                        employee_email=fn.employee_email,
                        what=what,
                        expires_on=when,
                        days_left=(when - today).days,
                        open_case_id=open_case,
                    )
                )
    return sorted(out, key=lambda e: (e.expires_on, e.foreign_national_id))


# -- seed -------------------------------------------------------------------------------------

PEOPLE: tuple[tuple[str, VisaStatus, int, CaseType | None, CaseStatus], ...] = (
    ("IN", "F-1 OPT", 75, "h1b", "filed"),
    ("CN", "H-1B", 120, "h1b_extension", "collecting_documents"),
    ("BR", "L-1A", 400, "green_card", "filed"),
    ("IN", "H-1B", 700, "green_card", "preparing"),
    ("MX", "TN", 40, None, "intake"),
    ("KR", "F-1 OPT", 200, "h1b", "rfe"),
    ("DE", "H-1B", 900, "h1b_extension", "approved"),
    ("NG", "O-1", 300, "o1", "collecting_documents"),
    ("PH", "F-1 OPT", 250, "h1b", "intake"),
    ("CA", "TN", 500, "l1", "withdrawn"),
)
DOCS: tuple[DocKind, ...] = ("passport", "degree", "resume", "offer_letter", "i94")


@service.seeder
def seed(s: SeedContext) -> None:
    """Engineers as foreign nationals with cases in every status, documents, petitions with receipt numbers."""
    pop = s.population
    hr = pop.staff("People", fallback=2)
    counsel = [p.email for p in pop.contacts[:2]]
    eng = pop.staff("Engineering", fallback=3)
    staff = eng + [e for e in pop.employees if e not in eng and e not in hr]
    today = s.now.date()
    for k, (country, visa, days, ctype, status) in enumerate(PEOPLE):
        p = staff[k]
        fn = s.create(
            ForeignNational,
            employee_email=p.email,
            name=p.name,
            citizenship=country,
            current_status=visa,
            status_expires_on=today + dt.timedelta(days=days),
            passport_expires_on=today + dt.timedelta(days=150 if k == 4 else 1500 + 30 * k),
            created_at=s.ago(days=400),
        )
        if ctype is None:
            continue
        opened = s.ago(days=120 - 5 * k)
        wage = 13_500_000 + 500_000 * k
        case = s.create(
            Case,
            foreign_national_id=fn.id,
            case_type=ctype,
            status=status,
            job_title=p.job_title,
            offered_wage_cents=wage,
            prevailing_wage_cents=wage - 1_200_000,
            hr_owner_email=hr[k % len(hr)].email,
            attorney_email=counsel[k % len(counsel)] if counsel else None,
            target_file_by=today + dt.timedelta(days=20 + 10 * k),
            created_at=opened,
            updated_at=opened,
        )
        _seed_docs(s, case, k, opened)
        if status in ("filed", "rfe", "approved"):
            form = FORMS[ctype][0]
            s.create(
                Petition,
                case_id=case.id,
                form=form,
                receipt_number=f"{('WAC', 'EAC', 'LIN', 'SRC')[k % 4]}259{k:07d}",
                status={"filed": "pending", "rfe": "rfe_issued"}.get(status, "approved"),
                filed_on=opened.date() + dt.timedelta(days=30),
                premium_processing=k == 0,
                fee_cents=178_000 + (PREMIUM_FEE if k == 0 else 0),
                rfe_due_on=today + dt.timedelta(days=40) if status == "rfe" else None,
                decided_on=today - dt.timedelta(days=10) if status == "approved" else None,
                valid_until=today + dt.timedelta(days=1085) if status == "approved" else None,
                updated_at=opened,
            )


def _seed_docs(s: SeedContext, case: Case, k: int, opened: dt.datetime) -> None:
    if case.status == "intake":
        return
    for j, kind in enumerate(DOCS[: 3 + k % 3]):
        st: DocStatus = "accepted"
        if case.status == "collecting_documents" and k == 1:
            st = ("accepted", "submitted", "requested", "rejected", "accepted")[j]
        s.create(
            Document,
            case_id=case.id,
            kind=kind,
            status=st,
            due_on=opened.date() + dt.timedelta(days=21),
            file_url=None if st == "requested" else f"https://files.example/imm/{case.id}/{kind}.pdf",
            rejection_reason="Scan is cut off on the right edge." if st == "rejected" else None,
            created_at=opened,
        )
