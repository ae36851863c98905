"""ClearPath Auth: prior authorization of medications and procedures with health plans, payer questions and appeals.

Modeled on the CoverMyMeds ePA API and Availity Authorizations & Referrals:
payers with standard and urgent turnaround times, members with their plan
coverage, prescribers by NPI, and PA requests (a CoverMyMeds "key") for a drug
or a CPT-coded procedure with ICD-10 diagnoses, whose status moves draft ("New")
→ submitted ("Sent to Plan") → pended ("Question Request") → submitted again once
the plan's questions are answered → approved ("Certified") or denied ("Not
certified"); appeals of a denial; expiry and renewal of an approval:

* a request needs a member covered by the payer, an active prescriber, one to
  twelve diagnoses, and a drug or a procedure code (not both); a second open
  request, or one while an unexpired approval covers the same service, is refused;
* submission sets the due time from the payer's turnaround (urgent: 24 h);
  answers must fit each question's type and choices, and every required question
  must be answered before the request goes back to the plan;
* an approval is for at most the requested quantity, from today, for at most a
  year; a denial needs a reason; a denial can be appealed within 180 days, one open
  appeal at a time and at most two levels; an overturned appeal approves the request;
* an approval ending within 30 days (or already expired) can be renewed as a new draft.
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
from compoworld.engine.types import (
    CompanyName,
    Date,
    DateTime,
    Email,
    FirstName,
    IdOf,
    LastName,
    PersonName,
    Text,
    Title,
)
from compoworld.services.kit.examples import first_example
from compoworld.services.kit.records import Created, Timestamped, Value
from compoworld.world.care import clinicians, provider_npi

__all__ = ["service"]

service = Service(
    "priorauth",
    title="ClearPath Auth",
    category="prior_authorization",
    modeled_on="CoverMyMeds ePA API and Availity Authorizations & Referrals (PA requests by key, plan question sets, "
    "Sent to Plan / Question Request / Approved / Denied statuses, appeals, renewals)",
    description="Prior authorization with health plans: payers and their turnaround, covered members, prescribers, "
    "PA requests for drugs and procedures with diagnoses, the plan's questions and the practice's answers, "
    "approvals with quantity and validity, denials and appeals, and renewal of expiring approvals.",
)

PayerId = Annotated[str, IdOf("priorauth.payer")]
MemberId = Annotated[str, IdOf("priorauth.member")]
PrescriberId = Annotated[str, IdOf("priorauth.prescriber")]
RequestId = Annotated[str, IdOf("priorauth.request")]
QuestionId = Annotated[str, IdOf("priorauth.question")]
AppealId = Annotated[str, IdOf("priorauth.appeal")]
Icd10 = Annotated[str, StringConstraints(pattern=r"^[A-TV-Z][0-9][0-9A-Z](\.[0-9A-Z]{1,4})?$")]
Cpt = Annotated[str, StringConstraints(pattern=r"^[0-9]{4}[0-9A-Z]$")]
"""A CPT or HCPCS procedure code."""
DrugName = Annotated[str, StringConstraints(min_length=2, max_length=120)]
MemberNumber = Annotated[str, StringConstraints(pattern=r"^[A-Z0-9]{8,14}$")]

Status = Literal["draft", "submitted", "pended", "approved", "denied", "appealed", "cancelled", "expired"]
Urgency = Literal["standard", "urgent"]
AnswerType = Literal["yes_no", "free_text", "date", "choice"]
AppealStatus = Literal["submitted", "upheld", "overturned"]
Outcome = Literal["approved", "denied"]
AppealOutcome = Literal["upheld", "overturned"]
OPEN: tuple[Status, ...] = ("draft", "submitted", "pended", "appealed")
MAX_APPROVAL = dt.timedelta(days=365)
APPEAL_WINDOW = dt.timedelta(days=180)


class Payer(Record):
    """A health plan that reviews authorizations."""

    id: PayerId
    name: CompanyName
    """The plan's name."""
    payer_code: Annotated[str, StringConstraints(pattern=r"^[A-Z0-9]{5}$")]
    """The payer id used in electronic transactions."""
    standard_hours: Annotated[int, Field(ge=24, le=720)]
    """Turnaround of a standard review, in hours."""
    urgent_hours: Annotated[int, Field(ge=1, le=72)] = 24
    """Turnaround of an urgent review."""


class Member(Timestamped):
    """A patient covered by a payer."""

    id: MemberId
    first_name: FirstName
    """Given name."""
    last_name: LastName
    """Family name."""
    birth_date: Date
    """Date of birth."""
    email: Email
    """E-mail."""
    payer_id: PayerId
    """Their health plan."""
    member_number: MemberNumber
    """Member id on the insurance card."""
    coverage_end: Date | None = None
    """The last day of coverage (none: ongoing)."""


class Prescriber(Record):
    """A clinician who requests authorizations."""

    id: PrescriberId
    name: PersonName
    """Full name."""
    npi: Annotated[str, StringConstraints(pattern=r"^[0-9]{10}$")]
    """National Provider Identifier."""
    email: Email
    """Where determinations are sent."""
    active: bool = True
    """Whether they may request."""


class Request(Timestamped):
    """A prior authorization request (a CoverMyMeds key)."""

    id: RequestId
    key: Annotated[str, Generated("sequence", "PA{n:06d}")]
    """The request key."""
    member_id: MemberId
    """The member."""
    prescriber_id: PrescriberId
    """The requesting clinician."""
    payer_id: PayerId
    """The plan reviewing it."""
    drug_name: DrugName | None = None
    """The medication (drug requests)."""
    procedure_code: Cpt | None = None
    """The CPT/HCPCS code (procedure requests)."""
    diagnosis_codes: tuple[Icd10, ...]
    """ICD-10 diagnoses, primary first."""
    quantity: Annotated[int, Field(ge=1, le=10000)] = 1
    """Units (tablets, visits, sessions) requested."""
    days_supply: Annotated[int, Field(ge=1, le=365)] = 30
    """Days the quantity lasts."""
    urgency: Urgency = "standard"
    """standard or urgent (expedited)."""
    clinical_notes: Text = ""
    """Supporting chart notes."""
    status: Status = "draft"
    """draft, submitted, pended, approved, denied, appealed, cancelled or expired."""
    submitted_at: DateTime | None = None
    """When it was last sent to the plan."""
    due_by: DateTime | None = None
    """When the plan owes a determination."""
    approved_quantity: int | None = None
    """Units approved."""
    valid_from: Date | None = None
    """First day of the approval."""
    valid_until: Date | None = None
    """Last day of the approval."""
    denial_reason: Text | None = None
    """Why it was denied."""
    decided_at: DateTime | None = None
    """When the plan decided."""
    renewal_of: RequestId | None = None
    """The approval this renews."""


class Question(Created):
    """A question the plan asks about a request."""

    id: QuestionId
    request_id: RequestId
    """The request."""
    text: Title
    """The question."""
    answer_type: AnswerType
    """yes_no, free_text, date or choice."""
    choices: tuple[str, ...] = ()
    """Allowed answers of a choice question."""
    required: bool = True
    """Whether it must be answered."""
    answer: str | None = None
    """The practice's answer."""


class Appeal(Timestamped):
    """An appeal of a denial."""

    id: AppealId
    request_id: RequestId
    """The denied request."""
    level: Annotated[int, Field(ge=1, le=2)]
    """First or second level."""
    reason: Text
    """The argument for approval."""
    status: AppealStatus = "submitted"
    """submitted, upheld (denial stands) or overturned."""


class CoverageCheck(Value):
    """Whether an approval covers a service for a member today."""

    member_id: MemberId
    """The member."""
    service: str
    """The drug or procedure code asked about."""
    covered: bool
    """Whether an approval is in force today."""
    request_id: RequestId | None
    """The approving request."""
    valid_until: Date | None
    """Its last day."""
    remaining_days: int
    """Days left (0 when not covered)."""


# -- rules ------------------------------------------------------------------------------------


def _guard_draft(ctx: Ctx, new: Any, old: Any) -> None:
    edited = (new.quantity, new.days_supply, new.urgency, new.clinical_notes) != (
        old.quantity,
        old.days_supply,
        old.urgency,
        old.clinical_notes,
    )
    if edited and old.status not in ("draft", "pended"):
        raise RuleViolation(
            f"request {old.key} is {old.status}; only draft or pended requests are edited",
            field="request_id",
            hint="renew or start a new request",
        )


def _service_of(r: Request) -> str:
    return r.drug_name or r.procedure_code or ""


def _in_force(ctx: Ctx, r: Request) -> bool:
    return r.status == "approved" and r.valid_until is not None and r.valid_until >= ctx.today()


payers = service.resource(
    Payer,
    name="payer",
    plural="payers",
    prefix="payer",
    create=False,
    filters=("payer_code",),
    search=("name",),
    delete=False,
    title="health plan",
)
members = service.resource(
    Member,
    name="member",
    plural="members",
    prefix="mbr",
    create=False,
    filters=("payer_id", "email", "last_name", "member_number"),
    search=("first_name", "last_name"),
    update=("email", "coverage_end"),
    delete=False,
)
prescribers = service.resource(
    Prescriber,
    name="prescriber",
    plural="prescribers",
    prefix="presc",
    create=False,
    filters=("npi", "active"),
    search=("name",),
    delete=False,
)
requests = service.resource(
    Request,
    name="request",
    plural="requests",
    prefix="pa",
    create=False,
    filters=("member_id", "prescriber_id", "payer_id", "status", "urgency", "drug_name", "procedure_code", "key"),
    search=("drug_name", "clinical_notes"),
    update=("quantity", "days_supply", "urgency", "clinical_notes"),
    delete=False,
    transitions={
        "cancel": Transition(
            "status",
            ("draft", "submitted", "pended"),
            "cancelled",
            "cancel the prior authorization request",
            description="Cancel a request that is not decided yet (draft, submitted or pended).",
            destructive=True,
        ),
    },
    guard_update=_guard_draft,
    title="prior authorization request",
)
questions = service.resource(
    Question,
    name="question",
    plural="questions",
    prefix="q",
    create=False,
    get=False,
    filters=("request_id", "required", "answer_type"),
    delete=False,
    title="plan question",
)
appeals = service.resource(
    Appeal,
    name="appeal",
    plural="appeals",
    prefix="apl",
    create=False,
    filters=("request_id", "status", "level"),
    delete=False,
)


# -- domain tools -----------------------------------------------------------------------------


def _example_create(ctx: Ctx) -> dict[str, Any] | None:
    m = ctx.first(Member, coverage_end=None)
    p = ctx.first(Prescriber, active=True)
    if m is None or p is None:
        return None
    return {
        "member_id": m.id,
        "prescriber_id": p.id,
        "drug_name": "Mounjaro 5 mg/0.5 mL pen",
        "diagnosis_codes": ["E11.65"],
        "quantity": 1,
        "days_supply": 28,
    }


@service.tool(intent="start the prior authorization request", write=True, example=_example_create)
def create_request(
    ctx: Ctx,
    member_id: MemberId,
    prescriber_id: PrescriberId,
    diagnosis_codes: list[Icd10],
    drug_name: DrugName | None = None,
    procedure_code: Cpt | None = None,
    quantity: Annotated[int, Field(ge=1, le=10000)] = 1,
    days_supply: Annotated[int, Field(ge=1, le=365)] = 30,
    urgency: Urgency = "standard",
    clinical_notes: Text = "",
) -> Request:
    """Start a draft PA request for a drug or a procedure with the member's plan.

    Args:
        member_id: The member (covered today).
        prescriber_id: The requesting clinician (active).
        diagnosis_codes: One to twelve ICD-10 codes, primary first.
        drug_name: The medication with strength and form (drug requests).
        procedure_code: The CPT/HCPCS code (procedure requests).
        quantity: Units requested.
        days_supply: Days the quantity lasts.
        urgency: standard or urgent.
        clinical_notes: Supporting chart notes.
    """
    m = ctx.get(Member, member_id, field="member_id")
    doc = ctx.get(Prescriber, prescriber_id, field="prescriber_id")
    if m.coverage_end is not None and m.coverage_end < ctx.today():
        raise RuleViolation(
            f"coverage ended on {m.coverage_end}", field="member_id", hint="update the member's coverage first"
        )
    if not doc.active:
        raise RuleViolation(f"{doc.name} is inactive", field="prescriber_id", hint="pick an active prescriber")
    if (drug_name is None) == (procedure_code is None):
        raise RuleViolation("give a drug or a procedure code, not both", field="drug_name", hint="one service")
    if not 1 <= len(diagnosis_codes) <= 12 or len(set(diagnosis_codes)) != len(diagnosis_codes):
        raise RuleViolation("give 1-12 distinct diagnoses", field="diagnosis_codes", hint="primary diagnosis first")
    wanted = drug_name or procedure_code
    for r in ctx.where(Request, member_id=m.id):
        if _service_of(r) == wanted and (r.status in OPEN or _in_force(ctx, r)):
            raise Conflict(
                f"request {r.key} for {wanted} is already {r.status}",
                field="drug_name" if drug_name else "procedure_code",
                hint="work on that request, or renew it when the approval nears its end",
            )
    return ctx.create(
        Request,
        member_id=m.id,
        prescriber_id=doc.id,
        payer_id=m.payer_id,
        drug_name=drug_name,
        procedure_code=procedure_code,
        diagnosis_codes=tuple(diagnosis_codes),
        quantity=quantity,
        days_supply=days_supply,
        urgency=urgency,
        clinical_notes=clinical_notes,
    )


def _send(ctx: Ctx, r: Request) -> Request:
    payer = ctx.get(Payer, r.payer_id)
    hours = payer.urgent_hours if r.urgency == "urgent" else payer.standard_hours
    return ctx.update(r, status="submitted", submitted_at=ctx.now(), due_by=ctx.now() + dt.timedelta(hours=hours))


@service.tool(
    intent="send the request to the plan",
    write=True,
    example=first_example(Request, "request_id", where={"status": "draft"}),
)
def submit_request(ctx: Ctx, request_id: RequestId) -> Request:
    """Send a draft to the plan, or a pended request once every required question is answered.

    Args:
        request_id: The request (draft or pended).
    """
    r = ctx.get(Request, request_id, field="request_id")
    if r.status not in ("draft", "pended"):
        raise Conflict(f"request {r.key} is {r.status}", field="request_id", hint="only draft or pended requests")
    open_q = [q.id for q in ctx.where(Question, request_id=r.id, required=True) if q.answer is None]
    if open_q:
        raise RuleViolation(
            f"{len(open_q)} required question(s) unanswered",
            field="request_id",
            hint="answer them with priorauth__answer_question",
        )
    return _send(ctx, r)


def _example_pend(ctx: Ctx) -> dict[str, Any] | None:
    r = ctx.first(Request, status="submitted")
    return None if r is None else {"request_id": r.id, "questions": ["Has the patient tried metformin for 90 days?"]}


@service.tool(intent="record the plan's questions", write=True, example=_example_pend)
def pend_request(
    ctx: Ctx, request_id: RequestId, questions: list[Title], answer_type: AnswerType = "yes_no"
) -> list[Question]:
    """Record questions the plan sent back on a submitted request (Question Request); it becomes pended.

    Args:
        request_id: The request (submitted).
        questions: The plan's questions (1-10).
        answer_type: The kind of answer they take (yes_no, free_text or date).
    """
    r = ctx.get(Request, request_id, field="request_id")
    if r.status != "submitted":
        raise Conflict(f"request {r.key} is {r.status}", field="request_id", hint="the plan asks on submitted ones")
    if not 1 <= len(questions) <= 10 or answer_type == "choice":
        raise RuleViolation("give 1-10 questions of yes_no, free_text or date", field="questions", hint="fewer")
    made = [ctx.create(Question, request_id=r.id, text=t, answer_type=answer_type) for t in questions]
    ctx.update(r, status="pended")
    return made


@service.tool(
    intent="answer the plan's question",
    write=True,
    example=first_example(Question, "question_id", where={"answer_type": "yes_no", "answer": None}, answer="yes"),
)
def answer_question(
    ctx: Ctx, question_id: QuestionId, answer: Annotated[str, StringConstraints(max_length=2000)]
) -> Question:
    """Answer a question of a pended request; the answer must fit the question's type.

    Args:
        question_id: The question.
        answer: yes/no, a date YYYY-MM-DD, one of the choices, or free text, as the question takes.
    """
    q = ctx.get(Question, question_id, field="question_id")
    r = ctx.get(Request, q.request_id)
    if r.status != "pended":
        raise Conflict(f"request {r.key} is {r.status}", field="question_id", hint="answers go on pended requests")
    value = answer.strip()
    ok = {
        "yes_no": value.lower() in ("yes", "no"),
        "choice": value in q.choices,
        "free_text": bool(value),
        "date": _is_date(value),
    }[q.answer_type]
    if not ok:
        expected = {"yes_no": "yes or no", "choice": ", ".join(q.choices), "free_text": "text", "date": "YYYY-MM-DD"}
        raise RuleViolation(
            f"this question takes {q.answer_type}", field="answer", hint=f"answer {expected[q.answer_type]}"
        )
    return ctx.update(q, answer=value.lower() if q.answer_type == "yes_no" else value)


def _is_date(text: str) -> bool:
    try:
        dt.date.fromisoformat(text)
    except ValueError:
        return False
    return len(text) == 10


def _example_decide(ctx: Ctx) -> dict[str, Any] | None:
    r = ctx.first(Request, status="submitted")
    if r is None:
        return None
    until = ctx.today() + dt.timedelta(days=180)
    return {
        "request_id": r.id,
        "outcome": "approved",
        "approved_quantity": r.quantity,
        "valid_until": until.isoformat(),
    }


@service.tool(intent="record the plan's determination", write=True, example=_example_decide)
def record_determination(
    ctx: Ctx,
    request_id: RequestId,
    outcome: Outcome,
    approved_quantity: Annotated[int, Field(ge=1, le=10000)] | None = None,
    valid_until: Date | None = None,
    denial_reason: Text | None = None,
) -> Request:
    """Record the plan's decision on a submitted request: approved (quantity, end date) or denied (reason).

    Args:
        request_id: The request (submitted).
        outcome: approved or denied.
        approved_quantity: Units approved, at most those requested (approvals).
        valid_until: Last day of the approval, after today and at most a year ahead (approvals).
        denial_reason: Why it was denied (denials).
    """
    r = ctx.get(Request, request_id, field="request_id")
    if r.status != "submitted":
        raise Conflict(f"request {r.key} is {r.status}", field="request_id", hint="the plan decides submitted ones")
    today = ctx.today()
    if outcome == "denied":
        if not (denial_reason or "").strip():
            raise RuleViolation("a denial needs a reason", field="denial_reason", hint="quote the plan's criteria")
        return ctx.update(r, status="denied", denial_reason=denial_reason, decided_at=ctx.now())
    if approved_quantity is None or approved_quantity > r.quantity:
        raise RuleViolation(
            f"approve 1-{r.quantity} units", field="approved_quantity", hint="at most the quantity requested"
        )
    if valid_until is None or not today < valid_until <= today + MAX_APPROVAL:
        raise RuleViolation(
            "valid_until must be after today and at most a year ahead",
            field="valid_until",
            hint=f"pick a date up to {today + MAX_APPROVAL}",
        )
    return ctx.update(
        r,
        status="approved",
        approved_quantity=approved_quantity,
        valid_from=today,
        valid_until=valid_until,
        decided_at=ctx.now(),
    )


@service.tool(
    intent="appeal the denial",
    write=True,
    example=first_example(
        Request, "request_id", where={"status": "denied"}, reason="Step therapy completed; chart notes attached."
    ),
)
def file_appeal(ctx: Ctx, request_id: RequestId, reason: Text) -> Appeal:
    """Appeal a denied request within 180 days of the decision; at most two levels.

    Args:
        request_id: The denied request.
        reason: Why the plan should approve (required).
    """
    r = ctx.get(Request, request_id, field="request_id")
    if r.status != "denied":
        raise RuleViolation(f"request {r.key} is {r.status}", field="request_id", hint="only denials are appealed")
    if not reason.strip():
        raise RuleViolation("an appeal needs a reason", field="reason", hint="argue medical necessity")
    if r.decided_at is not None and ctx.now() - r.decided_at > APPEAL_WINDOW:
        raise RuleViolation(
            "the 180-day appeal window has passed", field="request_id", hint="start a new request instead"
        )
    level = len(ctx.where(Appeal, request_id=r.id)) + 1
    if level > 2:
        raise RuleViolation("both appeal levels are used", field="request_id", hint="request an external review")
    ctx.update(r, status="appealed")
    return ctx.create(Appeal, request_id=r.id, level=level, reason=reason.strip())


def _example_appeal_decision(ctx: Ctx) -> dict[str, Any] | None:
    a = ctx.first(Appeal, status="submitted")
    return None if a is None else {"appeal_id": a.id, "outcome": "upheld"}


@service.tool(intent="record the appeal decision", write=True, example=_example_appeal_decision)
def decide_appeal(ctx: Ctx, appeal_id: AppealId, outcome: AppealOutcome, valid_until: Date | None = None) -> Appeal:
    """Record the plan's appeal decision: upheld (the request stays denied) or overturned (approved as requested).

    Args:
        appeal_id: The appeal (submitted).
        outcome: upheld or overturned.
        valid_until: Last day of the approval when overturned (default: a year from the request's days supply).
    """
    a = ctx.get(Appeal, appeal_id, field="appeal_id")
    if a.status != "submitted":
        raise Conflict(f"appeal {a.id} is {a.status}", field="appeal_id", hint="it was already decided")
    r = ctx.get(Request, a.request_id)
    today = ctx.today()
    if outcome == "upheld":
        ctx.update(r, status="denied")
        return ctx.update(a, status="upheld")
    until = valid_until or today + dt.timedelta(days=min(365, max(r.days_supply, 90)))
    if not today < until <= today + MAX_APPROVAL:
        raise RuleViolation("valid_until must be within a year", field="valid_until", hint="pick an earlier date")
    ctx.update(
        r, status="approved", approved_quantity=r.quantity, valid_from=today, valid_until=until, decided_at=ctx.now()
    )
    return ctx.update(a, status="overturned")


@service.tool(
    intent="renew the prior authorization",
    write=True,
    example=first_example(Request, "request_id", where={"status": "expired"}),
)
def renew_request(ctx: Ctx, request_id: RequestId) -> Request:
    """Start a renewal draft of an approval that ends within 30 days or has expired.

    Args:
        request_id: The approved or expired request.
    """
    r = ctx.get(Request, request_id, field="request_id")
    ending = r.valid_until is not None and r.valid_until <= ctx.today() + dt.timedelta(days=30)
    if r.status not in ("approved", "expired") or not ending:
        raise RuleViolation(
            f"request {r.key} is {r.status}" + (f" until {r.valid_until}" if r.valid_until else ""),
            field="request_id",
            hint="renew approvals in their last 30 days or after they expire",
        )
    if any(x.renewal_of == r.id and x.status in OPEN for x in ctx.where(Request, member_id=r.member_id)):
        raise Conflict(f"request {r.key} already has an open renewal", field="request_id", hint="submit that one")
    return ctx.create(
        Request,
        member_id=r.member_id,
        prescriber_id=r.prescriber_id,
        payer_id=r.payer_id,
        drug_name=r.drug_name,
        procedure_code=r.procedure_code,
        diagnosis_codes=r.diagnosis_codes,
        quantity=r.quantity,
        days_supply=r.days_supply,
        clinical_notes=r.clinical_notes,
        renewal_of=r.id,
    )


@service.tool(
    intent="check whether the service is authorized",
    example=first_example(
        Request, where={"status": "approved"}, fields={"member_id": "member_id", "service": "drug_name"}
    ),
)
def check_authorization(ctx: Ctx, member_id: MemberId, service: DrugName) -> CoverageCheck:
    """Whether an approval in force today covers a drug or procedure code for a member.

    Args:
        member_id: The member.
        service: The drug name or procedure code, as on the request.
    """
    ctx.get(Member, member_id, field="member_id")
    for r in ctx.where(Request, member_id=member_id):
        if _service_of(r) == service and _in_force(ctx, r) and r.valid_until is not None:
            days = (r.valid_until - ctx.today()).days
            return CoverageCheck(
                member_id=member_id,
                service=service,
                covered=True,
                request_id=r.id,
                valid_until=r.valid_until,
                remaining_days=days,
            )
    return CoverageCheck(
        member_id=member_id, service=service, covered=False, request_id=None, valid_until=None, remaining_days=0
    )


# -- seed -------------------------------------------------------------------------------------

PAYERS: tuple[tuple[str, str, int], ...] = (
    ("Aetna", "60054", 72),
    ("UnitedHealthcare", "87726", 72),
    ("Cigna Healthcare", "62308", 120),
    ("Humana", "61101", 168),
    ("Blue Cross Blue Shield", "00590", 72),
)
_SERVICES: tuple[tuple[str | None, str | None, tuple[str, ...], int, int], ...] = (
    ("Ozempic 1 mg/dose pen", None, ("E11.65",), 1, 28),
    ("Humira 40 mg/0.4 mL pen", None, ("M05.79",), 2, 28),
    (None, "72148", ("M54.16", "M51.26"), 1, 30),
    ("Eliquis 5 mg tablet", None, ("I48.91",), 60, 30),
    (None, "97110", ("M25.561",), 12, 60),
    ("Dupixent 300 mg/2 mL syringe", None, ("L20.9",), 2, 28),
    (None, "70553", ("G43.909",), 1, 30),
)
_PLAN: tuple[Status, ...] = (
    "approved",
    "draft",
    "submitted",
    "pended",
    "denied",
    "approved",
    "expired",
    "submitted",
    "appealed",
    "approved",
    "cancelled",
    "draft",
    "denied",
    "approved",
)


@service.seeder
def seed(s: SeedContext) -> None:
    """Five payers, the practice's clinicians as prescribers, consumer members, requests in every status."""
    pop = s.population
    payers_ = [s.create(Payer, name=n, payer_code=c, standard_hours=h) for n, c, h in PAYERS]
    docs = [
        s.create(Prescriber, name=p.name, npi=provider_npi(i), email=p.email, active=i != 5)
        for i, (p, _) in enumerate(clinicians(pop))
    ]
    keys = {p.key for p, _ in clinicians(pop)}
    people = [p for p in pop.consumers if p.key not in keys][:16]
    today = s.now.date()
    mems = [
        s.create(
            Member,
            first_name=p.first_name,
            last_name=p.last_name,
            birth_date=p.birth_date,
            email=p.email,
            payer_id=payers_[i % 5].id,
            member_number=f"W{200000000 + 7907 * i}",
            coverage_end=today - dt.timedelta(days=10) if i == 15 else None,
            created_at=s.ago(days=500 - 20 * i),
        )
        for i, p in enumerate(people)
    ]
    for i, status in enumerate(_PLAN):
        drug, cpt, dx, qty, days = _SERVICES[i % len(_SERVICES)]
        m = mems[i]
        made = s.ago(days=5 + 3 * i)
        sent = status not in ("draft", "cancelled")
        decided = status in ("approved", "denied", "appealed", "expired")
        until = today + dt.timedelta(days=(20, 200, 300)[i % 3]) if status == "approved" else None
        r = s.create(
            Request,
            member_id=m.id,
            prescriber_id=docs[i % 5].id,
            payer_id=m.payer_id,
            drug_name=drug,
            procedure_code=cpt,
            diagnosis_codes=dx,
            quantity=qty,
            days_supply=days,
            urgency="urgent" if i == 7 else "standard",
            status=status,
            clinical_notes="Failed first-line therapy; see attached chart notes.",
            submitted_at=made + dt.timedelta(hours=2) if sent else None,
            due_by=made + dt.timedelta(hours=74) if sent else None,
            approved_quantity=qty if status in ("approved", "expired") else None,
            valid_from=today - dt.timedelta(days=200) if status == "expired" else (today if until else None),
            valid_until=today - dt.timedelta(days=3) if status == "expired" else until,
            denial_reason="Step therapy not documented." if status in ("denied", "appealed") else None,
            decided_at=made + dt.timedelta(days=2) if decided else None,
            created_at=made,
            updated_at=made,
        )
        if status == "pended":
            s.create(
                Question, request_id=r.id, text="Has the patient tried and failed metformin?", answer_type="yes_no"
            )
            s.create(
                Question,
                request_id=r.id,
                text="Current HbA1c range",
                answer_type="choice",
                choices=("below 7%", "7-9%", "above 9%"),
            )
            s.create(Question, request_id=r.id, text="Other notes", answer_type="free_text", required=False)
        if status == "appealed":
            s.create(Appeal, request_id=r.id, level=1, reason="Contraindication to the formulary alternative.")
