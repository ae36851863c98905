"""Rightwork I-9: employment eligibility verification (Form I-9 and E-Verify) for the home company's hires.

Modeled on Equifax I-9 Management and the USCIS E-Verify API: a Form I-9 per
employee and start date moves section1_pending → section2_pending → complete
(or voided); section 1 is due by the first day of work and names a
citizenship status (an authorized alien must give the date their work
authorization expires); section 2 is due within three business days of the
start date and needs either one List A document, or one List B and one List C
document, none expired; a late section 2 is flagged. E-Verify cases open only
for a complete form, once at a time, and move open → employment_authorized,
or → tentative_nonconfirmation (TNC) → referred (the employee contests, with a
response due in 8 federal working days) → employment_authorized or
final_nonconfirmation; a case closes with a closure reason, and an
uncontested TNC closes as final. Reverification (section 3) of an expiring
work authorization takes a new List A or C document expiring later.
"""

from __future__ import annotations

import datetime as dt
from typing import Annotated, Any, Literal

from pydantic import Field, StringConstraints

from compoworld.engine.context import Ctx
from compoworld.engine.errors import Conflict, RuleViolation
from compoworld.engine.service import Service, Transition
from compoworld.engine.state import SeedContext
from compoworld.engine.types import Date, DateTime, Email, IdOf, PersonName, Text
from compoworld.services.kit.examples import first_example, fixed_example
from compoworld.services.kit.records import Timestamped, Value

__all__ = ["service"]

service = Service(
    "i9",
    title="Rightwork I-9",
    category="employment_verification",
    modeled_on="Equifax I-9 Management / USCIS E-Verify API: Form I-9 sections 1-3, List A/B/C documents, "
    "E-Verify cases (employment authorized, tentative nonconfirmation, referral, final nonconfirmation, closure)",
    description="Employment eligibility for the home company's hires: Form I-9 with its section 1 and section 2 "
    "deadlines, the identity and work-authorization documents examined, E-Verify cases with tentative "
    "nonconfirmations and referrals, and reverification of expiring work authorization.",
)

FormId = Annotated[str, IdOf("i9.form")]
DocumentId = Annotated[str, IdOf("i9.document")]
CaseId = Annotated[str, IdOf("i9.case")]

DocNumber = Annotated[str, StringConstraints(pattern=r"^[A-Z0-9-]{5,20}$")]
"""A document number (upper-case letters, digits and dashes)."""

FormStatus = Literal["section1_pending", "section2_pending", "complete", "voided"]
Citizenship = Literal["citizen", "noncitizen_national", "permanent_resident", "authorized_alien"]
DocList = Literal["A", "B", "C"]
DocType = Literal[
    "us_passport",
    "permanent_resident_card",
    "employment_authorization_card",
    "drivers_license",
    "state_id_card",
    "social_security_card",
    "birth_certificate",
]
CaseStatus = Literal[
    "open", "employment_authorized", "tentative_nonconfirmation", "referred", "final_nonconfirmation", "closed"
]
Closure = Literal["employee_continues", "employee_terminated", "invalid_query", "self_terminated"]

LIST_OF: dict[str, DocList] = {
    "us_passport": "A",
    "permanent_resident_card": "A",
    "employment_authorization_card": "A",
    "drivers_license": "B",
    "state_id_card": "B",
    "social_security_card": "C",
    "birth_certificate": "C",
}
LIVE_CASE: tuple[CaseStatus, ...] = ("open", "tentative_nonconfirmation", "referred")


def business_days_after(day: dt.date, n: int) -> dt.date:
    """The day ``n`` business days (Mon-Fri) after ``day``."""
    while n:
        day += dt.timedelta(days=1)
        if day.weekday() < 5:
            n -= 1
    return day


class Form(Timestamped):
    """A Form I-9 for one employee and start date."""

    id: FormId
    employee_email: Email
    """The employee."""
    employee_name: PersonName
    """Their legal name."""
    start_date: Date
    """Their first day of work."""
    status: FormStatus = "section1_pending"
    """section1_pending, section2_pending, complete or voided."""
    citizenship: Citizenship | None = None
    """The status attested in section 1."""
    work_auth_expires: Date | None = None
    """When an authorized alien's work authorization expires."""
    section1_due: Date
    """Section 1 deadline: the start date."""
    section2_due: Date
    """Section 2 deadline: three business days after the start date."""
    section1_signed_on: Date | None = None
    """When the employee signed section 1."""
    section2_signed_on: Date | None = None
    """When the employer signed section 2."""
    reviewer_email: Email | None = None
    """The employer representative who examined the documents."""
    section2_late: bool = False
    """Section 2 was completed after its deadline."""
    reverified_on: Date | None = None
    """When section 3 last reverified work authorization."""
    void_reason: Text | None = None
    """Why the form was voided."""


class Document(Timestamped):
    """A document examined for a form."""

    id: DocumentId
    form_id: FormId
    """The form."""
    doc_type: DocType
    """The kind of document."""
    list: DocList
    """List A (identity and authorization), B (identity) or C (authorization)."""
    document_number: DocNumber
    """Its number."""
    issuing_authority: Annotated[str, StringConstraints(min_length=2, max_length=80)]
    """Who issued it."""
    expiration_date: Date | None = None
    """When it expires (none: it does not)."""
    for_reverification: bool = False
    """Examined for section 3."""


class Case(Timestamped):
    """An E-Verify case for a completed form."""

    id: CaseId
    case_number: Annotated[str, StringConstraints(pattern=r"^\d{4}\d{3}\d{6}[A-Z]{2}$")]
    """The E-Verify case number."""
    form_id: FormId
    """The form."""
    employee_email: Email
    """The employee."""
    status: CaseStatus = "open"
    """open, employment_authorized, tentative_nonconfirmation, referred, final_nonconfirmation or closed."""
    late_reason: Text | None = None
    """Why the case was opened after the third business day."""
    referral_response_due: Date | None = None
    """When the contested TNC must be resolved (8 federal working days)."""
    closure_reason: Closure | None = None
    """Why the case was closed."""
    closed_at: DateTime | None = None
    """When it was closed."""


class Deadline(Value):
    """A form with a section still due."""

    form_id: FormId
    """The form."""
    employee_email: Email
    """The employee."""
    section: Literal["section1", "section2", "reverification"]
    """What is due."""
    due: Date
    """When."""
    overdue: bool
    """Past due today."""


# -- rules ------------------------------------------------------------------------------------


def _employee(ctx: Ctx, email: str, field: str) -> Any:
    person = next((p for p in ctx.population.employees if p.email == email), None)
    if person is None:
        raise RuleViolation(f"{email} is not an employee", field=field, hint="use an employee's e-mail")
    return person


def _form_open(ctx: Ctx, form_id: str, status: FormStatus, hint: str) -> Form:
    form = ctx.get(Form, form_id, field="form_id")
    if form.status != status:
        raise RuleViolation(f"form is {form.status}, not {status}", field="form_id", hint=hint)
    return form


def _guard_delete_document(ctx: Ctx, new: Any, old: Any) -> None:
    form = ctx.get(Form, old.form_id)
    if form.status == "complete":
        raise RuleViolation(
            "documents of a complete form are kept", field="document_id", hint="void the form to start over"
        )


forms = service.resource(
    Form,
    name="form",
    plural="forms",
    prefix="i9f",
    create=False,
    filters=("employee_email", "status", "citizenship", "section2_late"),
    search=("employee_name",),
    delete=False,
    title="Form I-9",
)
documents = service.resource(
    Document,
    name="document",
    plural="documents",
    prefix="doc",
    create=False,
    filters=("form_id", "doc_type", "list"),
    guard_delete=_guard_delete_document,
)
cases = service.resource(
    Case,
    name="case",
    plural="cases",
    prefix="ev",
    create=False,
    filters=("status", "form_id", "employee_email", "case_number"),
    delete=False,
    transitions={
        "confirm": Transition(
            "status",
            ("open", "referred"),
            "employment_authorized",
            "record employment authorized",
            description="Record E-Verify's result: the employee is authorized to work.",
        ),
        "issue_tnc": Transition(
            "status",
            ("open",),
            "tentative_nonconfirmation",
            "record a tentative nonconfirmation",
            description="Record E-Verify's result: a tentative nonconfirmation (mismatch) the employee may contest.",
        ),
    },
    title="E-Verify case",
)


# -- domain tools -----------------------------------------------------------------------------


def _example_form(ctx: Ctx) -> dict[str, Any] | None:
    for p in ctx.population.employees:
        if all(f.status == "voided" for f in ctx.where(Form, employee_email=p.email)):
            return {"employee_email": p.email, "start_date": (ctx.today() + dt.timedelta(days=7)).isoformat()}
    return None


@service.tool(intent="start a Form I-9 for the employee", write=True, example=_example_form)
def create_form(ctx: Ctx, employee_email: Email, start_date: Date) -> Form:
    """Start a Form I-9 for an employee; an employee has one form that is not voided.

    Args:
        employee_email: The employee.
        start_date: Their first day of work (section 1 is due that day, section 2 three business days later).
    """
    person = _employee(ctx, employee_email, "employee_email")
    live = [f for f in ctx.where(Form, employee_email=employee_email) if f.status != "voided"]
    if live:
        raise Conflict(f"form {live[0].id} is already on file", field="employee_email", hint="void it first")
    return ctx.create(
        Form,
        employee_email=employee_email,
        employee_name=person.name,
        start_date=start_date,
        section1_due=start_date,
        section2_due=business_days_after(start_date, 3),
    )


@service.tool(
    intent="complete section 1",
    write=True,
    example=first_example(Form, "form_id", where={"status": "section1_pending"}, citizenship="citizen"),
)
def complete_section1(
    ctx: Ctx, form_id: FormId, citizenship: Citizenship, work_auth_expires: Date | None = None
) -> Form:
    """The employee attests their citizenship status and signs section 1.

    Args:
        form_id: The form.
        citizenship: citizen, noncitizen_national, permanent_resident or authorized_alien.
        work_auth_expires: When an authorized alien's work authorization expires (required for them, after today).
    """
    form = _form_open(ctx, form_id, "section1_pending", "section 1 is signed once")
    if citizenship == "authorized_alien":
        if work_auth_expires is None or work_auth_expires <= ctx.today():
            raise RuleViolation(
                "an authorized alien gives a future work authorization expiry",
                field="work_auth_expires",
                hint="give the date on their employment authorization",
            )
    elif work_auth_expires is not None:
        raise RuleViolation(
            f"a {citizenship} has no work authorization expiry", field="work_auth_expires", hint="leave it out"
        )
    return ctx.update(
        form,
        status="section2_pending",
        citizenship=citizenship,
        work_auth_expires=work_auth_expires,
        section1_signed_on=ctx.today(),
    )


def _example_document(ctx: Ctx) -> dict[str, Any] | None:
    form = ctx.first(Form, status="section2_pending")
    if form is None:
        return None
    return {
        "form_id": form.id,
        "doc_type": "drivers_license",
        "document_number": "D1234-5678",
        "issuing_authority": "California DMV",
        "expiration_date": (ctx.today() + dt.timedelta(days=900)).isoformat(),
    }


@service.tool(intent="record a document examined for the form", write=True, example=_example_document)
def add_document(
    ctx: Ctx,
    form_id: FormId,
    doc_type: DocType,
    document_number: DocNumber,
    issuing_authority: Annotated[str, StringConstraints(min_length=2, max_length=80)],
    expiration_date: Date | None = None,
) -> Document:
    """Record a document examined for section 2 of a form awaiting it; it must not be expired.

    Args:
        form_id: The form (section2_pending).
        doc_type: The kind of document; it decides the list (A, B or C).
        document_number: Its number (once per form).
        issuing_authority: Who issued it.
        expiration_date: When it expires (omit if it does not).
    """
    form = _form_open(ctx, form_id, "section2_pending", "complete section 1 first; a complete form is reverified")
    if expiration_date is not None and expiration_date < ctx.today():
        raise RuleViolation("the document is expired", field="expiration_date", hint="examine an unexpired document")
    if ctx.first(Document, form_id=form.id, document_number=document_number) is not None:
        raise Conflict("that document is already recorded", field="document_number", hint="record another")
    kind = LIST_OF[doc_type]
    if any(d.list == kind and not d.for_reverification for d in ctx.where(Document, form_id=form.id)):
        raise Conflict(f"a List {kind} document is already recorded", field="doc_type", hint="delete it to replace it")
    return ctx.create(
        Document,
        form_id=form.id,
        doc_type=doc_type,
        list=kind,
        document_number=document_number,
        issuing_authority=issuing_authority,
        expiration_date=expiration_date,
    )


def _example_section2(ctx: Ctx) -> dict[str, Any] | None:
    for form in ctx.where(Form, status="section2_pending"):
        lists = {d.list for d in ctx.where(Document, form_id=form.id)}
        if "A" in lists or {"B", "C"} <= lists:
            return {"form_id": form.id, "reviewer_email": ctx.population.employees[0].email}
    return None


@service.tool(intent="complete section 2", write=True, example=_example_section2)
def complete_section2(ctx: Ctx, form_id: FormId, reviewer_email: Email) -> Form:
    """The employer examines the documents and signs section 2: one List A, or one List B and one List C.

    Args:
        form_id: The form (section2_pending).
        reviewer_email: The employee who examined the documents (not the form's own employee).
    """
    form = _form_open(ctx, form_id, "section2_pending", "complete section 1 first")
    _employee(ctx, reviewer_email, "reviewer_email")
    if reviewer_email == form.employee_email:
        raise RuleViolation("an employee cannot review their own form", field="reviewer_email", hint="ask HR")
    lists = {d.list for d in ctx.where(Document, form_id=form.id)}
    if "A" not in lists and not {"B", "C"} <= lists:
        raise RuleViolation(
            "section 2 needs one List A document, or one List B and one List C",
            field="form_id",
            hint="record the documents with i9__add_document",
        )
    today = ctx.today()
    return ctx.update(
        form,
        status="complete",
        section2_signed_on=today,
        reviewer_email=reviewer_email,
        section2_late=today > form.section2_due,
    )


@service.tool(
    intent="void the Form I-9",
    write=True,
    destructive=True,
    example=first_example(Form, "form_id", where={"status": "section1_pending"}, reason="Start date withdrawn."),
)
def void_form(ctx: Ctx, form_id: FormId, reason: Text) -> Form:
    """Void a form (a wrong start date, a withdrawn hire); not while an E-Verify case on it is live.

    Args:
        form_id: The form.
        reason: Why.
    """
    form = ctx.get(Form, form_id, field="form_id")
    if form.status == "voided":
        raise RuleViolation("form is already voided", field="form_id", hint="nothing to do")
    if not reason.strip():
        raise RuleViolation("voiding needs a reason", field="reason", hint="say why")
    if any(c.status in LIVE_CASE for c in ctx.where(Case, form_id=form.id)):
        raise Conflict("an E-Verify case on the form is still live", field="form_id", hint="close the case first")
    return ctx.update(form, status="voided", void_reason=reason.strip())


def _example_reverify(ctx: Ctx) -> dict[str, Any] | None:
    form = ctx.first(Form, status="complete", citizenship="authorized_alien")
    if form is None or form.work_auth_expires is None:
        return None
    return {
        "form_id": form.id,
        "doc_type": "employment_authorization_card",
        "document_number": "EAC2690012345",
        "new_expiration": (form.work_auth_expires + dt.timedelta(days=540)).isoformat(),
    }


@service.tool(intent="reverify the employee's work authorization", write=True, example=_example_reverify)
def reverify(ctx: Ctx, form_id: FormId, doc_type: DocType, document_number: DocNumber, new_expiration: Date) -> Form:
    """Section 3: reverify an authorized alien's expiring work authorization with a List A or C document.

    Args:
        form_id: The complete form.
        doc_type: The new document (List A or C).
        document_number: Its number.
        new_expiration: When the new authorization expires (after the current expiry and today).
    """
    form = _form_open(ctx, form_id, "complete", "complete sections 1 and 2 first")
    if form.work_auth_expires is None:
        raise RuleViolation(
            f"a {form.citizenship} is never reverified", field="form_id", hint="only expiring authorizations are"
        )
    if LIST_OF[doc_type] == "B":
        raise RuleViolation("reverification takes a List A or C document", field="doc_type", hint="not an ID card")
    if new_expiration <= max(form.work_auth_expires, ctx.today()):
        raise RuleViolation(
            f"the new authorization must run past {max(form.work_auth_expires, ctx.today())}",
            field="new_expiration",
            hint="give the new document's expiry",
        )
    ctx.create(
        Document,
        form_id=form.id,
        doc_type=doc_type,
        list=LIST_OF[doc_type],
        document_number=document_number,
        issuing_authority="USCIS",
        expiration_date=new_expiration,
        for_reverification=True,
    )
    return ctx.update(form, work_auth_expires=new_expiration, reverified_on=ctx.today())


@service.tool(intent="list the I-9 deadlines", example=fixed_example(within_days=120))
def upcoming_deadlines(ctx: Ctx, within_days: Annotated[int, Field(ge=0, le=365)] = 30) -> list[Deadline]:
    """Sections due and work authorizations to reverify within some days (overdue ones included).

    Args:
        within_days: How far ahead to look, in days.
    """
    today = ctx.today()
    horizon = today + dt.timedelta(days=within_days)
    out: list[Deadline] = []
    for form in ctx.scan(Form):
        due: tuple[Any, dt.date | None] = (None, None)
        if form.status == "section1_pending":
            due = ("section1", form.section1_due)
        elif form.status == "section2_pending":
            due = ("section2", form.section2_due)
        elif form.status == "complete" and form.work_auth_expires is not None:
            due = ("reverification", form.work_auth_expires)
        section, day = due
        if section is not None and day is not None and day <= horizon:
            out.append(
                Deadline(
                    form_id=form.id, employee_email=form.employee_email, section=section, due=day, overdue=day < today
                )
            )
    return sorted(out, key=lambda d: (d.due, d.form_id))


@service.tool(
    intent="open an E-Verify case",
    write=True,
    example=first_example(Form, "form_id", where={"status": "complete"}, late_reason="Awaiting Social Security card."),
)
def open_case(ctx: Ctx, form_id: FormId, late_reason: Text | None = None) -> Case:
    """Open an E-Verify case for a complete form; one live case per form; after the third business day a reason.

    Args:
        form_id: The complete form.
        late_reason: Why the case is late (required after three business days from the start date).
    """
    form = _form_open(ctx, form_id, "complete", "complete sections 1 and 2 first")
    if any(c.status in LIVE_CASE or c.status == "employment_authorized" for c in ctx.where(Case, form_id=form.id)):
        raise Conflict("the form already has an E-Verify case", field="form_id", hint="see i9__list_cases")
    if ctx.today() > form.section2_due and not (late_reason or "").strip():
        raise RuleViolation(
            f"the case is late (due {form.section2_due})", field="late_reason", hint="say why it is late"
        )
    n = ctx.next_number(Case, "case_number")
    today = ctx.today()
    return ctx.create(
        Case,
        case_number=f"{today.year}{today.timetuple().tm_yday:03d}{500000 + n:06d}FC",
        form_id=form.id,
        employee_email=form.employee_email,
        late_reason=(late_reason or "").strip() or None,
    )


@service.tool(
    intent="refer the tentative nonconfirmation",
    write=True,
    example=first_example(Case, "case_id", where={"status": "tentative_nonconfirmation"}),
)
def refer_case(ctx: Ctx, case_id: CaseId) -> Case:
    """The employee contests a TNC: the case is referred and must be resolved within 8 federal working days.

    Args:
        case_id: The case (tentative_nonconfirmation).
    """
    case = ctx.get(Case, case_id, field="case_id")
    if case.status != "tentative_nonconfirmation":
        raise RuleViolation(f"case is {case.status}", field="case_id", hint="only a TNC is referred")
    return ctx.update(case, status="referred", referral_response_due=business_days_after(ctx.today(), 8))


@service.tool(
    intent="record a final nonconfirmation",
    write=True,
    example=first_example(Case, "case_id", where={"status": "referred"}),
)
def final_nonconfirm(ctx: Ctx, case_id: CaseId) -> Case:
    """Record E-Verify's final nonconfirmation of a referred case (the contest failed).

    Args:
        case_id: The case (referred).
    """
    case = ctx.get(Case, case_id, field="case_id")
    if case.status != "referred":
        raise RuleViolation(f"case is {case.status}", field="case_id", hint="only a referred case gets a final result")
    return ctx.update(case, status="final_nonconfirmation")


@service.tool(
    intent="close the E-Verify case",
    write=True,
    example=first_example(
        Case, "case_id", where={"status": "employment_authorized"}, closure_reason="employee_continues"
    ),
)
def close_case(ctx: Ctx, case_id: CaseId, closure_reason: Closure) -> Case:
    """Close a case: an authorized one with the employee continuing; a final or uncontested TNC otherwise.

    Args:
        case_id: The case.
        closure_reason: employee_continues, employee_terminated, invalid_query or self_terminated.
    """
    case = ctx.get(Case, case_id, field="case_id")
    if case.status in ("closed", "open", "referred"):
        raise RuleViolation(
            f"case is {case.status}", field="case_id", hint="close it once E-Verify has a result that is not pending"
        )
    if case.status == "employment_authorized" and closure_reason not in ("employee_continues", "invalid_query"):
        raise RuleViolation("an authorized employee continues", field="closure_reason", hint="use employee_continues")
    if case.status != "employment_authorized" and closure_reason == "employee_continues":
        raise RuleViolation(
            "an employee who is not authorized cannot continue",
            field="closure_reason",
            hint="use employee_terminated or self_terminated",
        )
    return ctx.update(case, status="closed", closure_reason=closure_reason, closed_at=ctx.now())


# -- seed -------------------------------------------------------------------------------------

A_DOCS: tuple[tuple[DocType, str], ...] = (
    ("us_passport", "U.S. Department of State"),
    ("permanent_resident_card", "USCIS"),
    ("employment_authorization_card", "USCIS"),
)
SEED_CASES: tuple[CaseStatus | None, ...] = (
    "closed",
    "employment_authorized",
    "tentative_nonconfirmation",
    "referred",
    "open",
    None,
    "closed",
    None,
)


@service.seeder
def seed(s: SeedContext) -> None:
    """Complete forms with E-Verify cases in every state, forms awaiting sections 1 and 2, one to reverify."""
    people = s.population.employees
    reviewer = s.population.staff("HR", "People", fallback=1)[0].email
    today = s.now.date()
    citizenships: tuple[Citizenship, ...] = ("citizen", "permanent_resident", "authorized_alien", "citizen")
    for k, p in enumerate(people[1:13]):
        pending = k >= 8
        start = today + dt.timedelta(days=k - 9) if pending else (p.hire_date or today - dt.timedelta(days=300 + k))
        cit = citizenships[k % 4]
        expires = today + dt.timedelta(days=20 + 200 * (k % 2)) if cit == "authorized_alien" else None
        status: FormStatus = "complete" if not pending else ("section1_pending" if k >= 10 else "section2_pending")
        form = s.create(
            Form,
            employee_email=p.email,
            employee_name=p.name,
            start_date=start,
            section1_due=start,
            section2_due=business_days_after(start, 3),
            status=status,
            citizenship=None if status == "section1_pending" else cit,
            work_auth_expires=None if status == "section1_pending" else expires,
            section1_signed_on=None if status == "section1_pending" else start - dt.timedelta(days=2),
            section2_signed_on=start + dt.timedelta(days=1) if status == "complete" else None,
            reviewer_email=reviewer if status == "complete" else None,
            created_at=s.ago(days=max((today - start).days + 5, 1)),
        )
        if status == "section2_pending" and k == 8:
            continue
        if status == "section1_pending":
            continue
        if cit == "citizen" and k % 3 == 0:
            docs: list[tuple[DocType, str]] = [("drivers_license", "State DMV"), ("social_security_card", "SSA")]
        else:
            docs = [A_DOCS[0] if cit == "citizen" else A_DOCS[1] if cit == "permanent_resident" else A_DOCS[2]]
        for j, (dtype, issuer) in enumerate(docs):
            s.create(
                Document,
                form_id=form.id,
                doc_type=dtype,
                list=LIST_OF[dtype],
                document_number=f"{dtype[:2].upper()}{40000 + 97 * k + j}",
                issuing_authority=issuer,
                expiration_date=expires or (today + dt.timedelta(days=1500)),
            )
        case_status = SEED_CASES[k] if k < len(SEED_CASES) else None
        if status != "complete" or case_status is None:
            continue
        made = start + dt.timedelta(days=2)
        s.create(
            Case,
            case_number=f"{made.year}{made.timetuple().tm_yday:03d}{100001 + k:06d}FC",
            form_id=form.id,
            employee_email=p.email,
            status=case_status,
            referral_response_due=business_days_after(today, 5) if case_status == "referred" else None,
            closure_reason="employee_continues" if case_status == "closed" else None,
            closed_at=s.ago(days=max((today - made).days - 3, 0)) if case_status == "closed" else None,
        )
