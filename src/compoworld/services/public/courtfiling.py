"""Clerk Connect eFiling: court cases, envelopes of filings, fees, service contacts and the clerk's review.

Modeled on Tyler Technologies Odyssey eFileAndServe (the ECF 4.0 based EFSP
API: case initiation and subsequent filings grouped in envelopes, filing
codes with their statutory fees plus a per-envelope e-filing fee, payment
accounts, firm service contacts attached to cases for e-service, and the
clerk's review with envelope status Draft, Submitted, Under Review, Accepted,
Rejected or Cancelled, with rejection reasons and file-stamped documents).

An envelope starts as a draft and is submitted only with at least one
filing and an active payment account; its fees are fixed at submission
(each filing code's fee plus one e-filing fee; a fee waiver account pays
nothing). A case initiation envelope must lead with a complaint or petition
and opens the case (with its case number) only when the clerk accepts it; a
rejected initiation leaves no case. Subsequent filings go only into open
cases. The filer cancels an envelope only before the clerk starts the
review; the clerk accepts or rejects only envelopes under review, and a
rejection needs a reason. Accepting file-stamps every filing and e-serves
it on the case's service contacts. A service contact is attached to a case
once, and a case is closed only with no envelope pending.
"""

from __future__ import annotations

import datetime as dt
from typing import Annotated, Any, Literal

from pydantic import StringConstraints

from compoworld.engine.context import Ctx
from compoworld.engine.errors import Conflict, RuleViolation
from compoworld.engine.service import Service, Transition
from compoworld.engine.state import SeedContext
from compoworld.engine.types import Cents, CompanyName, DateTime, Email, IdOf, PersonName, Text, Title
from compoworld.services.kit.examples import first_example
from compoworld.services.kit.records import Created, Timestamped, Value

__all__ = ["service"]

service = Service(
    "courtfiling",
    title="Clerk Connect eFiling",
    category="court_filing",
    modeled_on="Tyler Technologies Odyssey eFileAndServe (ECF 4.0 EFSP API: case initiation and subsequent "
    "filing envelopes, filing codes and fees, payment accounts, service contacts and e-service, clerk review "
    "with envelope status Submitted/Under Review/Accepted/Rejected/Cancelled)",
    description="Electronic filing with the county court: cases and their parties, envelopes of documents "
    "filed by the company's legal team with filing fees and payment accounts, the clerk's acceptance or "
    "rejection, file stamps, and e-service on the case's service contacts.",
)

CaseId = Annotated[str, IdOf("courtfiling.case")]
PartyId = Annotated[str, IdOf("courtfiling.party")]
ContactId = Annotated[str, IdOf("courtfiling.service_contact")]
EnvelopeId = Annotated[str, IdOf("courtfiling.envelope")]
FilingId = Annotated[str, IdOf("courtfiling.filing")]
AccountId = Annotated[str, IdOf("courtfiling.payment_account")]

CaseType = Literal["civil_unlimited", "civil_limited", "small_claims", "family", "probate"]
CaseStatus = Literal["pending", "open", "closed"]
EnvelopeStatus = Literal["draft", "submitted", "under_review", "accepted", "rejected", "cancelled"]
FilingCode = Literal[
    "complaint", "petition", "answer", "motion", "opposition", "notice", "proof_of_service", "proposed_order"
]
PartyRole = Literal["plaintiff", "defendant", "petitioner", "respondent"]
RejectReason = Literal[
    "missing_signature", "wrong_case", "incorrect_filing_code", "illegible_document", "missing_information"
]
CaseNumber = Annotated[str, StringConstraints(pattern=r"^[0-9]{4}-[A-Z]{2}-[0-9]{6}$")]
"""A court case number, e.g. 2026-CV-000123."""
PartyName = Annotated[str, StringConstraints(min_length=1, max_length=160, strip_whitespace=True)]
"""A party's name as captioned: a person or an organisation."""
BarNumber = Annotated[str, StringConstraints(pattern=r"^[0-9]{5,7}$")]

FEES: dict[str, int] = {
    "complaint": 43_500,
    "petition": 43_500,
    "answer": 43_500,
    "motion": 6_000,
    "opposition": 6_000,
    "notice": 0,
    "proof_of_service": 0,
    "proposed_order": 0,
}
"""Statutory first-paper and motion fees per filing code (California Government Code 70611, 70617)."""
EFILING_FEE = 500
INITIATING: frozenset[str] = frozenset({"complaint", "petition"})
PENDING: tuple[EnvelopeStatus, ...] = ("submitted", "under_review")
CASE_CODES: dict[str, str] = {
    "civil_unlimited": "CV",
    "civil_limited": "CL",
    "small_claims": "SC",
    "family": "FL",
    "probate": "PR",
}


class Case(Timestamped):
    """A court case."""

    id: CaseId
    case_number: CaseNumber | None = None
    """Assigned by the clerk when the initiating envelope is accepted."""
    title: Title
    """The caption, e.g. Acme Corp v. Jones."""
    case_type: CaseType
    """civil_unlimited, civil_limited, small_claims, family or probate."""
    court: Annotated[str, StringConstraints(min_length=1, max_length=120)]
    """The court location."""
    status: CaseStatus = "pending"
    """pending (initiation not accepted yet), open or closed."""
    opened_at: DateTime | None = None
    """When it was opened."""
    service_contact_ids: tuple[ContactId, ...] = ()
    """Service contacts e-served on its filings."""


class Party(Created):
    """A party to a case."""

    id: PartyId
    case_id: CaseId
    """The case."""
    name: PartyName
    """The party's name (a person or an organisation)."""
    role: PartyRole
    """plaintiff, defendant, petitioner or respondent."""
    organization: CompanyName | None = None
    """The organisation, when the party is one."""


class ServiceContact(Created):
    """A person who receives e-service: an attorney or assistant of some firm."""

    id: ContactId
    name: PersonName
    """Their name."""
    email: Email
    """Where e-service goes; unique."""
    firm: CompanyName | None = None
    """Their firm."""
    bar_number: BarNumber | None = None
    """Their state bar number, if an attorney."""
    public: bool = False
    """Listed in the court's public service list."""


class PaymentAccount(Created):
    """How envelopes are paid."""

    id: AccountId
    name: Title
    """Its name."""
    kind: Literal["credit_card", "firm_account", "fee_waiver"]
    """credit_card, firm_account or fee_waiver (pays nothing)."""
    active: bool = True
    """Whether it can pay."""


class Envelope(Timestamped):
    """A submission to the court of one or more filings in one case."""

    id: EnvelopeId
    case_id: CaseId
    """The case (pending for a case initiation)."""
    initiation: bool = False
    """Whether it opens the case."""
    filer_email: Email
    """The attorney or paralegal filing."""
    status: EnvelopeStatus = "draft"
    """draft, submitted, under_review, accepted, rejected or cancelled."""
    payment_account_id: AccountId | None = None
    """The account paying."""
    filing_fees_cents: Cents = 0
    """Filing fees fixed at submission."""
    efiling_fee_cents: Cents = 0
    """The e-filing fee fixed at submission."""
    submitted_at: DateTime | None = None
    """When it was submitted."""
    reviewed_at: DateTime | None = None
    """When the clerk accepted or rejected it."""
    rejection_reason: RejectReason | None = None
    """Why the clerk rejected it."""
    clerk_comment: Text = ""
    """The clerk's note."""


class Filing(Created):
    """One document in an envelope."""

    id: FilingId
    envelope_id: EnvelopeId
    """The envelope."""
    case_id: CaseId
    """The case."""
    code: FilingCode
    """The filing code."""
    document_title: Title
    """The document's title."""
    fee_cents: Cents
    """Its statutory fee."""
    status: Literal["pending", "accepted", "rejected"] = "pending"
    """pending, accepted or rejected (with its envelope)."""
    file_stamped_at: DateTime | None = None
    """The court's file stamp."""


class ServiceRecord(Created):
    """E-service of an accepted filing on a service contact."""

    id: Annotated[str, IdOf("courtfiling.service_record")]
    filing_id: FilingId
    """The filing served."""
    contact_id: ContactId
    """Who was served."""
    email: Email
    """Where it went."""


class FeeQuote(Value):
    """What an envelope would cost."""

    envelope_id: EnvelopeId
    """The envelope."""
    filing_fees_cents: int
    """Sum of its filings' fees."""
    efiling_fee_cents: int
    """The e-filing fee."""
    total_cents: int
    """What the account pays (0 under a fee waiver)."""


# -- rules ------------------------------------------------------------------------------------


def _staff(ctx: Ctx, email: str) -> None:
    if email not in {p.email for p in ctx.population.employees}:
        raise RuleViolation(f"{email} is not on the legal team", field="filer_email", hint="file as an employee")


def _guard_contact(ctx: Ctx, new: Any, old: Any) -> None:
    for other in ctx.where(ServiceContact, email=new.email):
        if other.id != new.id:
            raise Conflict(f"{new.email} is already {other.id}", field="email", hint="use that service contact")


def _guard_case(ctx: Ctx, new: Any, old: Any) -> None:
    busy = any(e.status in (*PENDING, "draft") for e in ctx.where(Envelope, case_id=new.id))
    if new.status == "closed" and old.status == "open" and busy:
        raise RuleViolation(
            f"case {new.case_number} has envelopes pending", field="case_id", hint="wait for the clerk's review"
        )


cases = service.resource(
    Case,
    name="case",
    plural="cases",
    prefix="case",
    create=False,
    filters=("case_number", "case_type", "status", "court"),
    search=("title",),
    delete=False,
    transitions={
        "close": Transition("status", ("open",), "closed", "close the case", destructive=True),
    },
    guard_update=_guard_case,
)
parties = service.resource(
    Party,
    name="party",
    plural="parties",
    prefix="pty",
    create=False,
    get=False,
    filters=("case_id", "role", "organization"),
    search=("name",),
    delete=False,
)
service_contacts = service.resource(
    ServiceContact,
    name="service_contact",
    plural="service_contacts",
    prefix="sc",
    create=("name", "email", "firm", "bar_number", "public"),
    filters=("email", "firm", "bar_number", "public"),
    search=("name", "firm"),
    update=("name", "email", "firm", "public"),
    delete=False,
    guard_create=_guard_contact,
    guard_update=_guard_contact,
)
payment_accounts = service.resource(
    PaymentAccount,
    name="payment_account",
    plural="payment_accounts",
    prefix="pay",
    create=("name", "kind"),
    get=False,
    filters=("kind", "active"),
    update=("active",),
    delete=False,
)
envelopes = service.resource(
    Envelope,
    name="envelope",
    plural="envelopes",
    prefix="env",
    create=False,
    filters=("case_id", "status", "filer_email", "initiation", "rejection_reason"),
    delete=False,
    transitions={
        "review": Transition(
            "status",
            ("submitted",),
            "under_review",
            "start the clerk's review of the envelope",
            description="The clerk opens a submitted envelope for review; the filer can no longer cancel it.",
        ),
    },
)
filings = service.resource(
    Filing,
    name="filing",
    plural="filings",
    prefix="fil",
    create=False,
    filters=("envelope_id", "case_id", "code", "status"),
    search=("document_title",),
    delete=False,
)
service_records = service.resource(
    ServiceRecord,
    name="service_record",
    plural="service_records",
    prefix="svc",
    create=False,
    get=False,
    filters=("filing_id", "contact_id", "email"),
    delete=False,
    title="e-service record",
)


# -- envelopes --------------------------------------------------------------------------------


def _filer(ctx: Ctx) -> str:
    return ctx.population.employees[0].email


@service.tool(
    intent="start a new case",
    write=True,
    example=lambda ctx: {
        "title": f"{ctx.population.home.name} v. Harbor Logistics",
        "case_type": "civil_limited",
        "court": "Superior Court, Central Division",
        "filer_email": _filer(ctx),
        "plaintiff": ctx.population.home.name,
        "defendant": ctx.population.customers[0].name,
    },
)
def initiate_case(
    ctx: Ctx,
    title: Title,
    case_type: CaseType,
    court: Annotated[str, StringConstraints(min_length=1, max_length=120)],
    filer_email: Email,
    plaintiff: PartyName,
    defendant: PartyName,
) -> Envelope:
    """Start a case: a pending case with its two parties and a draft initiation envelope to add filings to.

    Args:
        title: The caption, e.g. Acme Corp v. Jones.
        case_type: civil_unlimited, civil_limited, small_claims, family or probate.
        court: The court location.
        filer_email: The employee filing.
        plaintiff: The plaintiff (petitioner in family and probate cases).
        defendant: The defendant (respondent in family and probate cases).
    """
    _staff(ctx, filer_email)
    if plaintiff.strip().lower() == defendant.strip().lower():
        raise RuleViolation("a party cannot sue itself", field="defendant", hint="name the other side")
    case = ctx.create(Case, title=title, case_type=case_type, court=court)
    family = case_type in ("family", "probate")
    ctx.create(Party, case_id=case.id, name=plaintiff, role="petitioner" if family else "plaintiff")
    ctx.create(Party, case_id=case.id, name=defendant, role="respondent" if family else "defendant")
    return ctx.create(Envelope, case_id=case.id, initiation=True, filer_email=filer_email)


@service.tool(
    intent="start an envelope in the case",
    write=True,
    example=lambda ctx: (lambda c: None if c is None else {"case_id": c.id, "filer_email": _filer(ctx)})(
        ctx.first(Case, status="open")
    ),
)
def create_envelope(ctx: Ctx, case_id: CaseId, filer_email: Email) -> Envelope:
    """Start a draft envelope for subsequent filings in an open case.

    Args:
        case_id: The open case.
        filer_email: The employee filing.
    """
    case = ctx.get(Case, case_id, field="case_id")
    if case.status != "open":
        raise RuleViolation(f"case {case.id} is {case.status}", field="case_id", hint="file into an open case")
    _staff(ctx, filer_email)
    return ctx.create(Envelope, case_id=case.id, filer_email=filer_email)


def _draft(ctx: Ctx, envelope_id: str) -> Envelope:
    env = ctx.get(Envelope, envelope_id, field="envelope_id")
    if env.status != "draft":
        raise RuleViolation(f"envelope {env.id} is {env.status}", field="envelope_id", hint="only drafts change")
    return env


@service.tool(
    intent="add the document to the envelope",
    write=True,
    example=first_example(
        Envelope,
        "envelope_id",
        where={"status": "draft"},
        code="complaint",
        document_title="Complaint for breach of contract",
    ),
)
def add_filing(ctx: Ctx, envelope_id: EnvelopeId, code: FilingCode, document_title: Title) -> Filing:
    """Add a document to a draft envelope; an initiation leads with a complaint or petition.

    Args:
        envelope_id: The draft envelope.
        code: The filing code (its fee follows the court's schedule).
        document_title: The document's title.
    """
    env = _draft(ctx, envelope_id)
    existing = ctx.where(Filing, envelope_id=env.id)
    if env.initiation and not existing and code not in INITIATING:
        raise RuleViolation(
            "a case initiation leads with a complaint or petition", field="code", hint="add the complaint first"
        )
    if not env.initiation and code in INITIATING:
        raise RuleViolation(f"a {code} starts a new case", field="code", hint="use courtfiling__initiate_case")
    return ctx.create(
        Filing, envelope_id=env.id, case_id=env.case_id, code=code, document_title=document_title, fee_cents=FEES[code]
    )


@service.tool(
    intent="remove the document from the envelope",
    write=True,
    example=lambda ctx: next(
        (
            {"filing_id": f.id}
            for f in ctx.where(Filing, status="pending")
            if ctx.get(Envelope, f.envelope_id).status == "draft"
        ),
        None,
    ),
)
def remove_filing(ctx: Ctx, filing_id: FilingId) -> Envelope:
    """Remove a document from a draft envelope.

    Args:
        filing_id: The filing.
    """
    filing = ctx.get(Filing, filing_id, field="filing_id")
    env = _draft(ctx, filing.envelope_id)
    ctx.delete(filing)
    return env


def _quote(ctx: Ctx, env: Envelope, account: PaymentAccount | None) -> FeeQuote:
    fees = sum(f.fee_cents for f in ctx.where(Filing, envelope_id=env.id))
    waived = account is not None and account.kind == "fee_waiver"
    return FeeQuote(
        envelope_id=env.id,
        filing_fees_cents=fees,
        efiling_fee_cents=EFILING_FEE,
        total_cents=0 if waived else fees + EFILING_FEE,
    )


@service.tool(intent="quote the envelope's fees", example=first_example(Envelope, "envelope_id"))
def fee_quote(ctx: Ctx, envelope_id: EnvelopeId, payment_account_id: AccountId | None = None) -> FeeQuote:
    """What the envelope costs: its filings' fees plus the e-filing fee (nothing under a fee waiver).

    Args:
        envelope_id: The envelope.
        payment_account_id: The account that would pay.
    """
    env = ctx.get(Envelope, envelope_id, field="envelope_id")
    acct = (
        None if payment_account_id is None else ctx.get(PaymentAccount, payment_account_id, field="payment_account_id")
    )
    return _quote(ctx, env, acct)


def _example_submit(ctx: Ctx) -> dict[str, Any] | None:
    acct = ctx.first(PaymentAccount, active=True, kind="firm_account")
    for env in ctx.where(Envelope, status="draft"):
        if acct is not None and ctx.where(Filing, envelope_id=env.id):
            return {"envelope_id": env.id, "payment_account_id": acct.id}
    return None


@service.tool(intent="submit the envelope to the court", write=True, example=_example_submit)
def submit_envelope(ctx: Ctx, envelope_id: EnvelopeId, payment_account_id: AccountId) -> Envelope:
    """Submit a draft envelope with its filings; the fees are fixed now.

    Args:
        envelope_id: The draft envelope.
        payment_account_id: An active payment account.
    """
    env = _draft(ctx, envelope_id)
    acct = ctx.get(PaymentAccount, payment_account_id, field="payment_account_id")
    if not acct.active:
        raise RuleViolation(f"{acct.name} is inactive", field="payment_account_id", hint="pick an active account")
    if not ctx.where(Filing, envelope_id=env.id):
        raise RuleViolation("the envelope is empty", field="envelope_id", hint="add a filing first")
    case = ctx.get(Case, env.case_id)
    if not env.initiation and case.status != "open":
        raise RuleViolation(
            f"case {case.case_number} is {case.status}", field="envelope_id", hint="it takes no filings"
        )
    q = _quote(ctx, env, acct)
    return ctx.update(
        env,
        status="submitted",
        payment_account_id=acct.id,
        submitted_at=ctx.now(),
        filing_fees_cents=0 if q.total_cents == 0 else q.filing_fees_cents,
        efiling_fee_cents=0 if q.total_cents == 0 else q.efiling_fee_cents,
    )


@service.tool(
    intent="cancel the envelope",
    write=True,
    example=first_example(Envelope, "envelope_id", where={"status": "submitted"}),
)
def cancel_envelope(ctx: Ctx, envelope_id: EnvelopeId) -> Envelope:
    """Cancel a draft or submitted envelope before the clerk starts reviewing it; nothing is charged.

    Args:
        envelope_id: The envelope.
    """
    env = ctx.get(Envelope, envelope_id, field="envelope_id")
    if env.status not in ("draft", "submitted"):
        raise RuleViolation(
            f"envelope {env.id} is {env.status}", field="envelope_id", hint="the clerk has it; it cannot be cancelled"
        )
    if env.initiation:
        ctx.update(ctx.get(Case, env.case_id), status="closed")
    return ctx.update(env, status="cancelled", filing_fees_cents=0, efiling_fee_cents=0)


def _under_review(ctx: Ctx, envelope_id: str) -> Envelope:
    env = ctx.get(Envelope, envelope_id, field="envelope_id")
    if env.status != "under_review":
        raise RuleViolation(
            f"envelope {env.id} is {env.status}",
            field="envelope_id",
            hint="start the review with courtfiling__review_envelope first",
        )
    return env


@service.tool(
    intent="accept the envelope",
    write=True,
    destructive=True,
    example=first_example(Envelope, "envelope_id", where={"status": "under_review"}),
)
def accept_envelope(ctx: Ctx, envelope_id: EnvelopeId, clerk_comment: Text = "") -> Envelope:
    """The clerk accepts an envelope under review: filings are file-stamped and e-served; an initiation opens the case.

    Args:
        envelope_id: The envelope under review.
        clerk_comment: A note to the filer.
    """
    env = _under_review(ctx, envelope_id)
    now = ctx.now()
    case = ctx.get(Case, env.case_id)
    if env.initiation and case.status == "pending":
        n = ctx.next_number(Case, "case_number")
        number = f"{now.year}-{CASE_CODES[case.case_type]}-{500 + n:06d}"
        case = ctx.update(case, status="open", case_number=number, opened_at=now)
    for f in ctx.where(Filing, envelope_id=env.id):
        ctx.update(f, status="accepted", file_stamped_at=now)
        for cid in case.service_contact_ids:
            ctx.create(ServiceRecord, filing_id=f.id, contact_id=cid, email=ctx.get(ServiceContact, cid).email)
    return ctx.update(env, status="accepted", reviewed_at=now, clerk_comment=clerk_comment)


@service.tool(
    intent="reject the envelope",
    write=True,
    destructive=True,
    example=first_example(Envelope, "envelope_id", where={"status": "under_review"}, reason="missing_signature"),
)
def reject_envelope(ctx: Ctx, envelope_id: EnvelopeId, reason: RejectReason, clerk_comment: Text = "") -> Envelope:
    """The clerk rejects an envelope under review with a reason; fees are not charged and an initiation leaves no case.

    Args:
        envelope_id: The envelope under review.
        reason: missing_signature, wrong_case, incorrect_filing_code, illegible_document or missing_information.
        clerk_comment: What to correct.
    """
    env = _under_review(ctx, envelope_id)
    for f in ctx.where(Filing, envelope_id=env.id):
        ctx.update(f, status="rejected")
    if env.initiation:
        ctx.update(ctx.get(Case, env.case_id), status="closed")
    return ctx.update(
        env,
        status="rejected",
        reviewed_at=ctx.now(),
        rejection_reason=reason,
        clerk_comment=clerk_comment,
        filing_fees_cents=0,
        efiling_fee_cents=0,
    )


# -- service list -----------------------------------------------------------------------------


def _example_attach(ctx: Ctx) -> dict[str, Any] | None:
    for case in ctx.where(Case, status="open"):
        for c in ctx.scan(ServiceContact):
            if c.id not in case.service_contact_ids:
                return {"case_id": case.id, "contact_id": c.id}
    return None


@service.tool(intent="add the service contact to the case", write=True, example=_example_attach)
def attach_service_contact(ctx: Ctx, case_id: CaseId, contact_id: ContactId) -> Case:
    """Attach a service contact to an open case: they are e-served on its accepted filings.

    Args:
        case_id: The case.
        contact_id: The service contact.
    """
    case = ctx.get(Case, case_id, field="case_id")
    contact = ctx.get(ServiceContact, contact_id, field="contact_id")
    if case.status != "open":
        raise RuleViolation(f"case {case.id} is {case.status}", field="case_id", hint="attach to an open case")
    if contact.id in case.service_contact_ids:
        raise Conflict(f"{contact.email} is already on the case", field="contact_id", hint="nothing to do")
    return ctx.update(case, service_contact_ids=(*case.service_contact_ids, contact.id))


@service.tool(
    intent="remove the service contact from the case",
    write=True,
    example=lambda ctx: next(
        ({"case_id": c.id, "contact_id": c.service_contact_ids[0]} for c in ctx.scan(Case) if c.service_contact_ids),
        None,
    ),
)
def detach_service_contact(ctx: Ctx, case_id: CaseId, contact_id: ContactId) -> Case:
    """Detach a service contact from a case.

    Args:
        case_id: The case.
        contact_id: A service contact on the case.
    """
    case = ctx.get(Case, case_id, field="case_id")
    if contact_id not in case.service_contact_ids:
        raise RuleViolation(f"{contact_id} is not on the case", field="contact_id", hint="see service_contact_ids")
    return ctx.update(case, service_contact_ids=tuple(c for c in case.service_contact_ids if c != contact_id))


# -- seed -------------------------------------------------------------------------------------

COURT = "Superior Court, Central Division"
MATTERS: tuple[tuple[CaseType, str, tuple[tuple[FilingCode, str, EnvelopeStatus], ...]], ...] = (
    (
        "civil_unlimited",
        "open",
        (
            ("complaint", "Complaint for breach of contract", "accepted"),
            ("answer", "Answer to complaint", "accepted"),
            ("motion", "Motion to compel discovery", "under_review"),
        ),
    ),
    (
        "civil_limited",
        "open",
        (
            ("complaint", "Complaint for unpaid invoices", "accepted"),
            ("notice", "Notice of case management conference", "submitted"),
        ),
    ),
    (
        "small_claims",
        "open",
        (
            ("complaint", "Small claims complaint", "accepted"),
            ("proof_of_service", "Proof of personal service", "rejected"),
        ),
    ),
    ("civil_unlimited", "closed", (("complaint", "Complaint for trade secret misappropriation", "accepted"),)),
    ("civil_limited", "pending", (("complaint", "Complaint for property damage", "submitted"),)),
    ("civil_unlimited", "pending", (("complaint", "Complaint for declaratory relief", "draft"),)),
)


@service.seeder
def seed(s: SeedContext) -> None:
    """Payment accounts, opposing counsel as service contacts, cases against customers with envelopes in every state."""
    pop = s.population
    home = pop.home
    legal = pop.staff("Legal", "Finance", fallback=3)
    accounts = [
        s.create(PaymentAccount, name=n, kind=k, active=a, created_at=s.ago(days=800))
        for n, k, a in (
            ("Firm trust account", "firm_account", True),
            ("Legal dept. Visa", "credit_card", True),
            ("Expired Amex", "credit_card", False),
            ("Fee waiver (FW-003)", "fee_waiver", True),
        )
    ]
    contacts = []
    for k, company in enumerate(pop.customers[:6]):
        person = pop.first_contact(company)
        if person is not None:
            contacts.append(
                s.create(
                    ServiceContact,
                    name=person.name,
                    email=person.email,
                    firm=company.name,
                    bar_number=f"{210_000 + 3_137 * k}",
                    public=k % 2 == 0,
                    created_at=s.ago(days=600 - k),
                )
            )
    number = 0
    for k, (ctype, cstatus, steps) in enumerate(MATTERS):
        other = pop.customers[(k + 1) % len(pop.customers)]
        start = s.ago(days=200 - 30 * k)
        opened = cstatus in ("open", "closed")
        if opened:
            number += 1
        case = s.create(
            Case,
            title=f"{home.name} v. {other.name}",
            case_type=ctype,
            court=COURT,
            status=cstatus,
            case_number=f"{start.year}-{CASE_CODES[ctype]}-{number:06d}" if opened else None,
            opened_at=start + dt.timedelta(days=1) if opened else None,
            service_contact_ids=tuple(c.id for c in contacts[k % len(contacts) :][:2]) if opened else (),
            created_at=start,
            updated_at=start,
        )
        s.create(Party, case_id=case.id, name=home.name, role="plaintiff", organization=home.name, created_at=start)
        s.create(Party, case_id=case.id, name=other.name, role="defendant", organization=other.name, created_at=start)
        for n, (code, title, estatus) in enumerate(steps):
            when = start + dt.timedelta(days=20 * n)
            charged = estatus in ("submitted", "under_review", "accepted")
            env = s.create(
                Envelope,
                case_id=case.id,
                initiation=n == 0,
                filer_email=legal[k % len(legal)].email,
                status=estatus,
                payment_account_id=accounts[n % 2].id if estatus != "draft" else None,
                filing_fees_cents=FEES[code] if charged else 0,
                efiling_fee_cents=EFILING_FEE if charged else 0,
                submitted_at=when if estatus != "draft" else None,
                reviewed_at=when + dt.timedelta(days=1) if estatus in ("accepted", "rejected") else None,
                rejection_reason="missing_signature" if estatus == "rejected" else None,
                created_at=when,
                updated_at=when,
            )
            fstatus = {"accepted": "accepted", "rejected": "rejected"}.get(estatus, "pending")
            filing = s.create(
                Filing,
                envelope_id=env.id,
                case_id=case.id,
                code=code,
                document_title=title,
                fee_cents=FEES[code],
                status=fstatus,
                file_stamped_at=env.reviewed_at if fstatus == "accepted" else None,
                created_at=when,
            )
            if fstatus == "accepted":
                for cid in case.service_contact_ids:
                    c = next(x for x in contacts if x.id == cid)
                    s.create(ServiceRecord, filing_id=filing.id, contact_id=cid, email=c.email, created_at=when)
