"""Veriface: identity verification of customers (templates, inquiries, verifications, reports, cases, accounts).

Modeled on the Persona API: inquiry templates naming the verifications required
(government_id, selfie) and the reports run on completion (watchlist, address);
accounts (one per customer, by e-mail); inquiries that go created → pending (a
verification was submitted) → completed (every required verification passed) →
approved or declined, or to needs_review when a report matches, or failed (three
failed attempts) or expired; government ID verifications checked for expiry,
name match and allowed country, and selfie verifications checked against a
similarity threshold; watchlist reports matched against a screening list; and
cases opened for manual review, assigned to an analyst and resolved with an
approve or decline that decides the inquiry.
"""

from __future__ import annotations

import datetime as dt
from typing import Annotated, Any, Literal

from pydantic import Field

from compoworld.engine.context import Ctx
from compoworld.engine.errors import Conflict, RuleViolation
from compoworld.engine.service import Service, Transition
from compoworld.engine.state import SeedContext
from compoworld.engine.types import Country, Date, DateTime, Email, FirstName, IdOf, LastName, Text, Title
from compoworld.services.kit.examples import first_example
from compoworld.services.kit.lists import require_employee
from compoworld.services.kit.records import Created, Timestamped
from compoworld.services.kit.text import fold

__all__ = ["service"]

service = Service(
    "kyc",
    title="Veriface",
    category="identity_verification",
    modeled_on="Persona API: inquiry templates, inquiries (created/pending/completed/approved/declined/"
    "needs_review/failed/expired), government ID and selfie verifications, watchlist and address reports, "
    "cases, accounts",
    description="Identity verification of the company's customers: inquiry templates, each customer's "
    "inquiries and their status, the government ID and selfie checks they submitted, watchlist and address "
    "reports, and the manual-review cases analysts assign and resolve.",
)

TemplateId = Annotated[str, IdOf("kyc.template")]
AccountId = Annotated[str, IdOf("kyc.account")]
InquiryId = Annotated[str, IdOf("kyc.inquiry")]
VerificationId = Annotated[str, IdOf("kyc.verification")]
ReportId = Annotated[str, IdOf("kyc.report")]
CaseId = Annotated[str, IdOf("kyc.case")]

VerificationType = Literal["government_id", "selfie"]
ReportType = Literal["watchlist", "address"]
InquiryStatus = Literal["created", "pending", "completed", "needs_review", "approved", "declined", "failed", "expired"]
VerificationStatus = Literal["passed", "failed"]
IdClass = Literal["dl", "pp", "id"]
CaseStatus = Literal["open", "pending", "resolved"]
Resolution = Literal["approved", "declined"]
Similarity = Annotated[float, Field(ge=0, le=1)]

MAX_ATTEMPTS = 3
WATCHLIST: tuple[str, ...] = ("viktor sarkov", "lena moravec", "omar khalidi", "dmitri volkan")
"""Screening list (fictional sanctioned persons)."""


class Template(Timestamped):
    """An inquiry template: what a customer must verify."""

    id: TemplateId
    name: Title
    """Its name (unique)."""
    verifications: tuple[VerificationType, ...]
    """Verifications required."""
    reports: tuple[ReportType, ...] = ()
    """Reports run on completion."""
    allowed_countries: tuple[Country, ...] = ()
    """Countries whose documents are accepted (empty: all)."""
    auto_approve: bool = True
    """Approve completed inquiries without a match automatically."""
    status: Literal["active", "archived"] = "active"
    """active or archived."""


class Account(Timestamped):
    """A customer's account across inquiries."""

    id: AccountId
    email: Email
    """Their e-mail (unique)."""
    name_first: FirstName
    """First name."""
    name_last: LastName
    """Last name."""
    country: Country
    """Country of residence."""
    verified: bool = False
    """Whether an inquiry of theirs was approved."""


class Inquiry(Timestamped):
    """One verification flow of a customer."""

    id: InquiryId
    template_id: TemplateId
    """The template."""
    account_id: AccountId
    """The account."""
    email: Email
    """The customer's e-mail."""
    status: InquiryStatus = "created"
    """created, pending, completed, needs_review, approved, declined, failed or expired."""
    attempts: int = 0
    """Failed verification attempts."""
    reviewer: Email | None = None
    """Who approved or declined it."""
    decided_at: DateTime | None = None
    """When it was approved or declined."""


class Verification(Created):
    """A submitted verification."""

    id: VerificationId
    inquiry_id: InquiryId
    """The inquiry."""
    type: VerificationType
    """government_id or selfie."""
    status: VerificationStatus
    """passed or failed."""
    id_class: IdClass | None = None
    """dl (driver licence), pp (passport) or id (national ID)."""
    issuing_country: Country | None = None
    """The document's country."""
    expiration_date: Date | None = None
    """The document's expiry."""
    failed_checks: tuple[str, ...] = ()
    """Checks that failed (id_expired, name_mismatch, country_not_allowed, selfie_mismatch)."""


class Report(Created):
    """A report run on an account."""

    id: ReportId
    account_id: AccountId
    """The account."""
    inquiry_id: InquiryId | None = None
    """The inquiry that ran it."""
    type: ReportType
    """watchlist or address."""
    has_match: bool
    """Whether something matched (a listed person, an undeliverable address)."""
    detail: Text = ""
    """What matched."""


class Case(Timestamped):
    """A manual review case."""

    id: CaseId
    inquiry_id: InquiryId
    """The inquiry under review."""
    reason: Title
    """Why it was opened."""
    status: CaseStatus = "open"
    """open, pending (assigned) or resolved."""
    assignee: Email | None = None
    """The analyst working it."""
    resolution: Resolution | None = None
    """approved or declined."""


# -- rules ------------------------------------------------------------------------------------


def _guard_template(ctx: Ctx, new: Any, old: Any) -> None:
    if old is not None and old.status == "archived" and new.status == "archived":
        raise RuleViolation(f"template {old.name!r} is archived", field="template_id", hint="create a new one")
    if not new.verifications or len(set(new.verifications)) != len(new.verifications):
        raise RuleViolation("list each verification once, at least one", field="verifications", hint="government_id")
    if len(set(new.reports)) != len(new.reports):
        raise RuleViolation("a report is listed twice", field="reports", hint="list each once")
    for t in ctx.where(Template, name=new.name):
        if t.id != new.id:
            raise Conflict(f"a template is already named {new.name!r}", field="name", hint="pick another name")


def _guard_account(ctx: Ctx, new: Any, old: Any) -> None:
    for a in ctx.where(Account, email=new.email):
        if a.id != new.id:
            raise Conflict(f"{new.email} already has account {a.id}", field="email", hint="use that account")


def _guard_inquiry(ctx: Ctx, new: Any, old: Any) -> None:
    if old is not None and new.status == "expired" and ctx.first(Case, inquiry_id=new.id, status="open"):
        raise RuleViolation("the inquiry has an open case", field="inquiry_id", hint="resolve the case")


templates = service.resource(
    Template,
    name="template",
    plural="templates",
    prefix="itmpl",
    create=("name", "verifications", "reports", "allowed_countries", "auto_approve"),
    filters=("status", "name"),
    search=("name",),
    update=("name", "verifications", "reports", "allowed_countries", "auto_approve"),
    delete=False,
    transitions={"archive": Transition("status", ("active",), "archived", "archive the template")},
    guard_create=_guard_template,
    guard_update=_guard_template,
    title="inquiry template",
)
accounts = service.resource(
    Account,
    name="account",
    plural="accounts",
    prefix="act",
    guard_update=_guard_account,
    update=("name_first", "name_last", "country"),
    search=("name_first", "name_last", "email"),
    filters=("email", "country", "verified"),
    create=False,
    delete=False,
)
inquiries = service.resource(
    Inquiry,
    name="inquiry",
    plural="inquiries",
    prefix="inq",
    create=False,
    filters=("template_id", "account_id", "email", "status"),
    delete=False,
    transitions={"expire": Transition("status", ("created", "pending"), "expired", "expire the inquiry")},
    guard_update=_guard_inquiry,
)
verifications = service.resource(
    Verification,
    name="verification",
    plural="verifications",
    prefix="ver",
    create=False,
    get=False,
    filters=("inquiry_id", "type", "status"),
    delete=False,
)
reports = service.resource(
    Report,
    name="report",
    plural="reports",
    prefix="rep",
    create=False,
    get=False,
    filters=("account_id", "inquiry_id", "type", "has_match"),
    delete=False,
)
cases = service.resource(
    Case,
    name="case",
    plural="cases",
    prefix="case",
    create=False,
    filters=("inquiry_id", "status", "assignee"),
    search=("reason",),
    delete=False,
)


# -- domain tools -----------------------------------------------------------------------------


def _example_inquiry(ctx: Ctx) -> dict[str, Any] | None:
    t = ctx.first(Template, status="active")
    if t is None:
        return None
    return {
        "template_id": t.id,
        "email": "new.customer@mailbox.net",
        "name_first": "Nora",
        "name_last": "Quinn",
        "country": "US",
    }


@service.tool(intent="start an identity inquiry for the customer", write=True, example=_example_inquiry)
def create_inquiry(
    ctx: Ctx, template_id: TemplateId, email: Email, name_first: FirstName, name_last: LastName, country: Country
) -> Inquiry:
    """Start an inquiry from an active template; the customer's account is found by e-mail or created.

    A customer has one open (created or pending) inquiry at a time.

    Args:
        template_id: The template.
        email: The customer's e-mail.
        name_first: Their first name.
        name_last: Their last name.
        country: Their country of residence (two letters).
    """
    tmpl = ctx.get(Template, template_id, field="template_id")
    if tmpl.status != "active":
        raise RuleViolation(f"template {tmpl.name!r} is archived", field="template_id", hint="pick an active one")
    acct = ctx.first(Account, email=email)
    if acct is None:
        acct = ctx.create(Account, email=email, name_first=name_first, name_last=name_last, country=country)
    for inq in ctx.where(Inquiry, account_id=acct.id):
        if inq.status in ("created", "pending"):
            raise Conflict(f"{email} already has open inquiry {inq.id}", field="email", hint="finish or expire it")
    return ctx.create(Inquiry, template_id=tmpl.id, account_id=acct.id, email=email)


def _example_submit(ctx: Ctx) -> dict[str, Any] | None:
    for inq in ctx.where(Inquiry, status="created"):
        a = ctx.get(Account, inq.account_id)
        return {
            "inquiry_id": inq.id,
            "type": "government_id",
            "id_class": "pp",
            "issuing_country": a.country,
            "name_on_document": f"{a.name_first} {a.name_last}",
            "expiration_date": (ctx.today() + dt.timedelta(days=900)).isoformat(),
        }
    return None


@service.tool(intent="submit the verification", write=True, example=_example_submit)
def submit_verification(
    ctx: Ctx,
    inquiry_id: InquiryId,
    type: VerificationType,
    id_class: IdClass | None = None,
    issuing_country: Country | None = None,
    name_on_document: Title | None = None,
    expiration_date: Date | None = None,
    similarity: Similarity | None = None,
) -> Verification:
    """Submit a verification for a created or pending inquiry; it passes or fails on its checks.

    Government ID: not expired, name matches the account, country allowed by the template. Selfie:
    similarity to the ID photo at least 0.8. When every required verification has passed the inquiry is
    completed and the template's reports run; three failures fail the inquiry.

    Args:
        inquiry_id: The inquiry.
        type: government_id or selfie.
        id_class: For an ID: dl, pp or id.
        issuing_country: For an ID: the issuing country.
        name_on_document: For an ID: the full name printed on it.
        expiration_date: For an ID: its expiry date.
        similarity: For a selfie: the face match score, 0-1.
    """
    inq = ctx.get(Inquiry, inquiry_id, field="inquiry_id")
    if inq.status not in ("created", "pending"):
        raise RuleViolation(f"inquiry {inq.id} is {inq.status}", field="inquiry_id", hint="start a new inquiry")
    tmpl = ctx.get(Template, inq.template_id)
    if type not in tmpl.verifications:
        raise RuleViolation(f"template {tmpl.name!r} does not ask for {type}", field="type", hint="see the template")
    acct = ctx.get(Account, inq.account_id)
    failed: list[str] = []
    if type == "government_id":
        if id_class is None or issuing_country is None or name_on_document is None or expiration_date is None:
            raise RuleViolation("an ID needs its class, country, name and expiry", field="id_class", hint="give all")
        if expiration_date < ctx.today():
            failed.append("id_expired")
        if fold(name_on_document) != fold(f"{acct.name_first} {acct.name_last}"):
            failed.append("name_mismatch")
        if tmpl.allowed_countries and issuing_country not in tmpl.allowed_countries:
            failed.append("country_not_allowed")
    else:
        if similarity is None:
            raise RuleViolation("a selfie needs its similarity score", field="similarity", hint="0 to 1")
        if similarity < 0.8:
            failed.append("selfie_mismatch")
    made = ctx.create(
        Verification,
        inquiry_id=inq.id,
        type=type,
        status="failed" if failed else "passed",
        id_class=id_class,
        issuing_country=issuing_country,
        expiration_date=expiration_date,
        failed_checks=tuple(failed),
    )
    if failed:
        tries = inq.attempts + 1
        ctx.update(inq, attempts=tries, status="failed" if tries >= MAX_ATTEMPTS else "pending")
        return made
    passed = {v.type for v in ctx.where(Verification, inquiry_id=inq.id, status="passed")}
    if set(tmpl.verifications) <= passed:
        _complete(ctx, ctx.update(inq, status="completed"), tmpl, acct)
    else:
        ctx.update(inq, status="pending")
    return made


def _screen(ctx: Ctx, acct: Account, kind: ReportType, inquiry_id: str | None) -> Report:
    if kind == "watchlist":
        hit = fold(f"{acct.name_first} {acct.name_last}") in WATCHLIST
        detail = "Name matches a sanctions screening list entry." if hit else ""
    else:
        hit = acct.country not in {p.country for p in ctx.population.places} if ctx.population.places else False
        detail = "Country has no deliverable addresses on record." if hit else ""
    return ctx.create(Report, account_id=acct.id, inquiry_id=inquiry_id, type=kind, has_match=hit, detail=detail)


def _complete(ctx: Ctx, inq: Inquiry, tmpl: Template, acct: Account) -> None:
    hits = [r for r in (_screen(ctx, acct, k, inq.id) for k in tmpl.reports) if r.has_match]
    if hits:
        ctx.update(inq, status="needs_review")
        ctx.create(Case, inquiry_id=inq.id, reason=f"{hits[0].type} match for {acct.name_first} {acct.name_last}")
    elif tmpl.auto_approve:
        ctx.update(inq, status="approved", decided_at=ctx.now())
        ctx.update(acct, verified=True)


@service.tool(
    intent="run a report on the account",
    write=True,
    example=first_example(Account, "account_id", type="watchlist"),
)
def run_report(ctx: Ctx, account_id: AccountId, type: ReportType) -> Report:
    """Run a watchlist or address report on an account outside an inquiry (e.g. periodic re-screening).

    Args:
        account_id: The account.
        type: watchlist or address.
    """
    return _screen(ctx, ctx.get(Account, account_id, field="account_id"), type, None)


def _decide(ctx: Ctx, inq: Inquiry, outcome: Resolution, reviewer: str) -> Inquiry:
    if inq.status not in ("completed", "needs_review"):
        raise RuleViolation(f"inquiry {inq.id} is {inq.status}", field="inquiry_id", hint="only completed ones")
    require_employee(ctx, reviewer, field="reviewer", hint="inquiries are decided by our analysts")
    if outcome == "approved":
        ctx.update(ctx.get(Account, inq.account_id), verified=True)
    return ctx.update(inq, status=outcome, reviewer=reviewer, decided_at=ctx.now())


def _example_decide(ctx: Ctx) -> dict[str, Any] | None:
    inq = ctx.first(Inquiry, status="completed")
    return None if inq is None else {"inquiry_id": inq.id, "reviewer": ctx.population.employees[0].email}


@service.tool(intent="approve the inquiry", write=True, example=_example_decide)
def approve_inquiry(ctx: Ctx, inquiry_id: InquiryId, reviewer: Email) -> Inquiry:
    """Approve a completed inquiry (or one needing review with no open case); the account becomes verified.

    Args:
        inquiry_id: The inquiry.
        reviewer: The analyst approving.
    """
    inq = ctx.get(Inquiry, inquiry_id, field="inquiry_id")
    if ctx.first(Case, inquiry_id=inq.id, status="open") or ctx.first(Case, inquiry_id=inq.id, status="pending"):
        raise RuleViolation(f"inquiry {inq.id} has an open case", field="inquiry_id", hint="resolve the case")
    return _decide(ctx, inq, "approved", reviewer)


@service.tool(intent="decline the inquiry", write=True, example=_example_decide)
def decline_inquiry(ctx: Ctx, inquiry_id: InquiryId, reviewer: Email) -> Inquiry:
    """Decline a completed or needs-review inquiry; its open case is resolved as declined.

    Args:
        inquiry_id: The inquiry.
        reviewer: The analyst declining.
    """
    inq = _decide(ctx, ctx.get(Inquiry, inquiry_id, field="inquiry_id"), "declined", reviewer)
    for c in ctx.where(Case, inquiry_id=inq.id):
        if c.status != "resolved":
            ctx.update(c, status="resolved", resolution="declined", assignee=c.assignee or reviewer)
    return inq


def _example_assign(ctx: Ctx) -> dict[str, Any] | None:
    c = ctx.first(Case, status="open")
    return None if c is None else {"case_id": c.id, "assignee": ctx.population.employees[0].email}


@service.tool(intent="assign the case", write=True, example=_example_assign)
def assign_case(ctx: Ctx, case_id: CaseId, assignee: Email) -> Case:
    """Assign an open or pending case to an analyst; it becomes pending.

    Args:
        case_id: The case.
        assignee: The analyst (staff).
    """
    case = ctx.get(Case, case_id, field="case_id")
    if case.status == "resolved":
        raise Conflict(f"case {case.id} is resolved", field="case_id", hint="nothing to assign")
    require_employee(ctx, assignee, field="assignee", hint="cases are worked by our analysts")
    return ctx.update(case, status="pending", assignee=assignee)


@service.tool(
    intent="resolve the case",
    write=True,
    example=first_example(Case, "case_id", where={"status": "pending"}, resolution="approved"),
)
def resolve_case(ctx: Ctx, case_id: CaseId, resolution: Resolution) -> Case:
    """Resolve an assigned case: its inquiry is approved or declined by the assignee.

    Args:
        case_id: The case (pending, with an assignee).
        resolution: approved or declined.
    """
    case = ctx.get(Case, case_id, field="case_id")
    if case.status != "pending" or case.assignee is None:
        raise RuleViolation(f"case {case.id} is {case.status}", field="case_id", hint="assign it first")
    done = ctx.update(case, status="resolved", resolution=resolution)
    _decide(ctx, ctx.get(Inquiry, case.inquiry_id), resolution, case.assignee)
    return done


# -- seed -------------------------------------------------------------------------------------


@service.seeder
def seed(s: SeedContext) -> None:
    """Templates, customer accounts with inquiries in every status, verifications, reports and cases."""
    pop = s.population
    analysts = pop.staff("Compliance", "Finance", "Customer Support", fallback=3)
    countries = tuple(sorted({p.country for p in pop.places}))[:6] or ("US",)
    full = s.create(
        Template,
        name="KYC standard (ID + selfie)",
        verifications=("government_id", "selfie"),
        reports=("watchlist",),
        allowed_countries=countries,
        created_at=s.ago(days=300),
        updated_at=s.ago(days=60),
    )
    light = s.create(
        Template,
        name="ID only (low risk)",
        verifications=("government_id",),
        reports=("watchlist", "address"),
        auto_approve=False,
        created_at=s.ago(days=250),
        updated_at=s.ago(days=250),
    )
    s.create(
        Template,
        name="Legacy onboarding 2023",
        verifications=("government_id",),
        status="archived",
        created_at=s.ago(days=700),
        updated_at=s.ago(days=400),
    )
    plan: tuple[InquiryStatus, ...] = (
        "approved",
        "approved",
        "pending",
        "created",
        "completed",
        "declined",
        "failed",
        "expired",
        "approved",
        "needs_review",
        "needs_review",
    )
    people = (pop.consumers or pop.contacts)[: len(plan)]
    for k, (p, status) in enumerate(zip(people, plan, strict=False)):
        first, last = (p.first_name, p.last_name)
        if status == "needs_review":
            first, last = ("Viktor", "Sarkov") if k % 2 else ("Lena", "Moravec")
        acct = s.create(
            Account,
            email=p.email,
            name_first=first,
            name_last=last,
            country=p.place.country,
            verified=status == "approved",
            created_at=s.ago(days=90 - k),
            updated_at=s.ago(days=80 - k),
        )
        tmpl = light if status in ("completed", "needs_review") else full
        inq = s.create(
            Inquiry,
            template_id=tmpl.id,
            account_id=acct.id,
            email=p.email,
            status=status,
            attempts=3 if status == "failed" else 0,
            reviewer=analysts[k % len(analysts)].email if status in ("approved", "declined") else None,
            decided_at=s.ago(days=70 - k) if status in ("approved", "declined") else None,
            created_at=s.ago(days=85 - k),
            updated_at=s.ago(days=70 - k),
        )
        if status in ("created", "expired"):
            continue
        kinds: tuple[VerificationType, ...] = ("government_id",) if status == "pending" else tmpl.verifications
        for t in kinds:
            ok = status != "failed"
            s.create(
                Verification,
                inquiry_id=inq.id,
                type=t,
                status="passed" if ok else "failed",
                id_class="pp" if t == "government_id" else None,
                issuing_country=p.place.country if t == "government_id" else None,
                expiration_date=(s.now + dt.timedelta(days=700)).date() if t == "government_id" else None,
                failed_checks=() if ok else (("selfie_mismatch",) if t == "selfie" else ("id_expired",)),
                created_at=s.ago(days=84 - k),
            )
        if status in ("approved", "declined", "completed", "needs_review"):
            for rt in tmpl.reports:
                hit = status == "needs_review" and rt == "watchlist"
                s.create(
                    Report,
                    account_id=acct.id,
                    inquiry_id=inq.id,
                    type=rt,
                    has_match=hit,
                    detail="Name matches a sanctions screening list entry." if hit else "",
                    created_at=s.ago(days=80 - k),
                )
        if status == "needs_review":
            s.create(
                Case,
                inquiry_id=inq.id,
                status="pending" if k % 2 else "open",
                assignee=analysts[0].email if k % 2 else None,
                reason=f"watchlist match for {first} {last}",
                created_at=s.ago(days=2),
                updated_at=s.ago(days=2),
            )
        if status == "declined":
            s.create(
                Case,
                inquiry_id=inq.id,
                reason="Document appears altered",
                status="resolved",
                assignee=analysts[0].email,
                resolution="declined",
                created_at=s.ago(days=75),
                updated_at=s.ago(days=70),
            )
