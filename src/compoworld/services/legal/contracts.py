"""Covenant CLM: contract lifecycle management with templates, a clause library, approvals, renewals, obligations.

Modeled on the Ironclad Public API v1 (Workflows launched from templates,
clause library with standard and fallback positions, approval steps by role,
signed Records with key dates, renewals and obligations): a contract is drafted
from an active template with the template's required clauses; only approved
clauses are added, one per category (a fallback replaces the standard one);
required categories cannot be removed; review sends it to legal, to finance at
or above the template's value threshold, and to the general counsel when a
non-standard clause is used; any rejection returns it to draft; only an
approved contract is signed; a renewal is allowed in the last 120 days of the
term; a termination needs the contract's notice period.
"""

from __future__ import annotations

import datetime as dt
from typing import Annotated, Any, Literal

from pydantic import BaseModel, Field, StringConstraints

from compoworld.engine.context import Ctx
from compoworld.engine.errors import Conflict, NotFound, RuleViolation
from compoworld.engine.records import CREATED, UPDATED, Generated, Record
from compoworld.engine.service import Service, Transition
from compoworld.engine.state import SeedContext
from compoworld.engine.types import (
    Cents,
    CompanyName,
    Currency,
    Date,
    DateTime,
    Email,
    FileLink,
    IdOf,
    PersonName,
    Text,
    Title,
)
from compoworld.services.kit.examples import first_example
from compoworld.services.kit.time import add_months

__all__ = ["service"]

service = Service(
    "contracts",
    title="Covenant CLM",
    category="legal",
    modeled_on="Ironclad Public API v1 (Workflows from templates, clause library, approvals, Records with key "
    "dates, renewals, obligations)",
    description="Contract lifecycle management: contracts drafted from templates with a governed clause library, "
    "legal, finance and general-counsel approvals, signature, key dates, renewals, terminations and the "
    "obligations each contract creates.",
)

TemplateId = Annotated[str, IdOf("contracts.template")]
ClauseId = Annotated[str, IdOf("contracts.clause")]
ContractId = Annotated[str, IdOf("contracts.contract")]
ApprovalId = Annotated[str, IdOf("contracts.approval")]
ObligationId = Annotated[str, IdOf("contracts.obligation")]
ReviewerId = Annotated[str, IdOf("contracts.reviewer")]

ClauseKey = Annotated[str, StringConstraints(pattern=r"^[a-z][a-z0-9_]{2,40}$")]
ContractType = Literal["nda", "msa", "sow", "order_form", "dpa", "vendor_agreement"]
ClauseCategory = Literal[
    "confidentiality",
    "liability",
    "payment",
    "termination",
    "data_protection",
    "indemnity",
    "governing_law",
    "renewal",
]
Position = Literal["standard", "fallback", "non_standard"]
ContractStatus = Literal["draft", "in_review", "approved", "signed", "active", "expired", "terminated"]
ReviewRole = Literal["legal", "finance", "general_counsel"]
Months = Annotated[int, Field(ge=1, le=120)]
RENEWAL_WINDOW_DAYS = 120


class Template(Record):
    """A contract template."""

    id: TemplateId
    name: Title
    """Template name."""
    contract_type: ContractType
    """nda, msa, sow, order_form, dpa or vendor_agreement."""
    required_categories: list[ClauseCategory] = Field(max_length=8)
    """Clause categories every contract of the template must cover."""
    default_clause_keys: list[ClauseKey] = Field(max_length=8)
    """The standard clauses a new contract starts with."""
    default_term_months: Months = 12
    """Default term."""
    finance_threshold: Cents
    """Contracts worth this much or more (cents) need finance approval."""
    active: bool = True
    """Inactive templates start no contracts."""


class Clause(Record):
    """A clause of the clause library."""

    id: ClauseId
    key: ClauseKey
    """Unique key."""
    title: Title
    """Clause title."""
    category: ClauseCategory
    """What it governs."""
    position: Position
    """standard, fallback (pre-approved alternative) or non_standard (needs the general counsel)."""
    body: Text
    """The clause text."""
    status: Literal["approved", "deprecated"] = "approved"
    """Deprecated clauses cannot be added to contracts."""


class Reviewer(Record):
    """Someone who approves contracts in a role."""

    id: ReviewerId
    name: PersonName
    """Full name."""
    email: Email
    """Work e-mail."""
    role: ReviewRole
    """legal, finance or general_counsel."""


class Contract(Record):
    """A contract with a counterparty."""

    id: ContractId
    number: Annotated[str, Generated("sequence", "CTR-{n:05d}")]
    """Contract number."""
    title: Title
    """Title."""
    template_id: TemplateId
    """The template it was drafted from."""
    contract_type: ContractType
    """Its type."""
    counterparty_name: CompanyName
    """The other party."""
    counterparty_contact: PersonName
    """The other party's signatory."""
    counterparty_email: Email
    """The signatory's e-mail."""
    owner_name: PersonName
    """The employee responsible for the contract."""
    owner_email: Email
    """The owner's e-mail."""
    value: Cents
    """Total contract value in cents."""
    currency: Currency
    """Currency."""
    status: ContractStatus = "draft"
    """draft, in_review, approved, signed (not yet effective), active, expired or terminated."""
    clause_keys: list[ClauseKey] = Field(max_length=16)
    """Clauses in the contract."""
    term_months: Months
    """Length of the term."""
    auto_renew: bool = False
    """Whether it renews itself unless notice is given."""
    notice_days: Annotated[int, Field(ge=0, le=365)] = 30
    """Notice needed to terminate or to stop a renewal, in days."""
    effective_date: Date | None = None
    """First day of the term."""
    end_date: Date | None = None
    """Last day of the current term."""
    signed_document: FileLink | None = None
    """The executed contract."""
    signed_at: Date | None = None
    """When it was signed."""
    renewal_count: int = 0
    """How many times it was renewed."""
    termination_reason: Text | None = None
    """Why it was terminated."""
    updated_at: Annotated[DateTime, UPDATED]
    """When it last changed."""


class Approval(Record):
    """One approval step of a contract's review."""

    id: ApprovalId
    contract_id: ContractId
    """The contract."""
    role: ReviewRole
    """legal, finance or general_counsel."""
    approver_name: PersonName
    """Who must decide."""
    approver_email: Email
    """Their e-mail."""
    status: Literal["pending", "approved", "rejected", "cancelled"] = "pending"
    """pending, approved, rejected or cancelled (the review ended)."""
    comment: Text | None = None
    """The decision's comment."""
    created_at: Annotated[DateTime, CREATED]
    """When it was requested."""


class Obligation(Record):
    """Something a contract requires by a date."""

    id: ObligationId
    contract_id: ContractId
    """The contract."""
    title: Title
    """What must be done."""
    kind: Literal["payment", "delivery", "report", "renewal_notice", "audit"]
    """payment, delivery, report, renewal_notice or audit."""
    owner_email: Email
    """Who is responsible."""
    due_date: Date
    """When it is due."""
    amount: Cents | None = None
    """Amount due, for payments."""
    status: Literal["open", "done", "waived"] = "open"
    """open, done or waived."""


# -- rules ------------------------------------------------------------------------------------


def _draft(ctx: Ctx, contract_id: str, field: str = "contract_id") -> Contract:
    c = ctx.get(Contract, contract_id, field=field)
    if c.status != "draft":
        raise RuleViolation(
            f"contract {c.number} is {c.status}; only drafts change",
            field=field,
            hint="a contract in review returns to draft when an approver rejects it",
        )
    return c


def _employee(ctx: Ctx, email: str, field: str) -> Any:
    for p in ctx.population.employees:
        if p.email == email:
            return p
    raise NotFound(f"{email} is not an employee", field=field, hint="contracts are owned by employees of the company")


def _clauses_of(ctx: Ctx, keys: list[str]) -> list[Clause]:
    out = []
    for k in keys:
        found = ctx.first(Clause, key=k)
        if found is not None:
            out.append(found)
    return out


def _guard_contract(ctx: Ctx, new: Any, old: Any) -> None:
    if old.status != "draft":
        raise RuleViolation(
            f"contract {old.number} is {old.status}; only drafts change",
            field="contract_id",
            hint="a contract in review returns to draft when an approver rejects it",
        )


def _guard_obligation(ctx: Ctx, new: Any, old: Any) -> None:
    if old is not None and old.status != "open" and new.status == old.status:
        raise RuleViolation(f"the obligation is {old.status}", field="obligation_id", hint="only open ones change")
    if old is None:
        c = ctx.get(Contract, new.contract_id, field="contract_id")
        if c.status not in ("signed", "active"):
            raise RuleViolation(
                f"contract {c.number} is {c.status}",
                field="contract_id",
                hint="obligations are tracked on signed or active contracts",
            )


templates = service.resource(
    Template,
    name="template",
    plural="templates",
    prefix="tpl",
    create=False,
    filters=("contract_type", "active"),
    search=("name",),
    delete=False,
    title="contract template",
)
clauses = service.resource(
    Clause,
    name="clause",
    plural="clauses",
    prefix="cl",
    create=False,
    get=False,
    filters=("category", "position", "status", "key"),
    search=("title", "body", "key"),
    delete=False,
    transitions={"deprecate": Transition("status", ("approved",), "deprecated", "retire the clause")},
)
reviewers = service.resource(
    Reviewer,
    name="reviewer",
    plural="reviewers",
    prefix="rev",
    create=False,
    get=False,
    filters=("role", "email"),
    delete=False,
    title="contract reviewer",
)
contracts = service.resource(
    Contract,
    name="contract",
    plural="contracts",
    prefix="ctr",
    create=False,
    filters=("status", "contract_type", "counterparty_name", "owner_email", "template_id", "number", "auto_renew"),
    search=("title", "counterparty_name", "number"),
    update=("title", "value", "counterparty_contact", "counterparty_email", "term_months", "auto_renew", "notice_days"),
    delete=False,
    guard_update=_guard_contract,
)
approvals = service.resource(
    Approval,
    name="approval",
    plural="approvals",
    prefix="apv",
    create=False,
    filters=("contract_id", "status", "role", "approver_email"),
    delete=False,
    title="contract approval",
)
obligations = service.resource(
    Obligation,
    name="obligation",
    plural="obligations",
    prefix="obl",
    create=("contract_id", "title", "kind", "owner_email", "due_date", "amount"),
    filters=("contract_id", "status", "kind", "owner_email", "due_date"),
    search=("title",),
    update=("title", "owner_email", "due_date", "amount"),
    delete=False,
    transitions={
        "complete": Transition("status", ("open",), "done", "mark the obligation done"),
        "waive": Transition("status", ("open",), "waived", "waive the obligation"),
    },
    guard_create=_guard_obligation,
    guard_update=_guard_obligation,
    title="contract obligation",
)


# -- examples ---------------------------------------------------------------------------------


def _example_create(ctx: Ctx) -> dict[str, Any] | None:
    tpl = ctx.first(Template, active=True, contract_type="msa")
    company = ctx.population.customers[0]
    contact = ctx.population.first_contact(company)
    if tpl is None or contact is None:
        return None
    return {
        "template_id": tpl.id,
        "title": f"Master services agreement with {company.name}",
        "counterparty_name": company.name,
        "counterparty_contact": contact.name,
        "counterparty_email": contact.email,
        "owner_email": ctx.population.staff("Sales")[0].email,
        "value": 120_000_00,
    }


def _example_add(ctx: Ctx) -> dict[str, Any] | None:
    for c in ctx.where(Contract, status="draft"):
        have = {cl.category for cl in _clauses_of(ctx, c.clause_keys)}
        for cl in ctx.where(Clause, status="approved"):
            if cl.key not in c.clause_keys and cl.category not in have:
                return {"contract_id": c.id, "clause_key": cl.key}
    return None


def _example_remove(ctx: Ctx) -> dict[str, Any] | None:
    for c in ctx.where(Contract, status="draft"):
        tpl = ctx.get(Template, c.template_id)
        for cl in _clauses_of(ctx, c.clause_keys):
            if cl.category not in tpl.required_categories:
                return {"contract_id": c.id, "clause_key": cl.key}
    return None


def _example_sign(ctx: Ctx) -> dict[str, Any] | None:
    c = ctx.first(Contract, status="approved")
    if c is None:
        return None
    return {"contract_id": c.id, "signed_document": f"https://files.example.com/contracts/{c.number}-signed.pdf"}


def _example_terminate(ctx: Ctx) -> dict[str, Any] | None:
    today = ctx.today()
    for c in ctx.where(Contract, status="active"):
        when = today + dt.timedelta(days=c.notice_days)
        if c.end_date is not None and when <= c.end_date:
            return {"contract_id": c.id, "reason": "Vendor consolidation", "termination_date": when.isoformat()}
    return None


# -- domain tools -----------------------------------------------------------------------------


@service.tool(intent="draft a contract from the template", write=True, example=_example_create)
def create_contract(
    ctx: Ctx,
    template_id: TemplateId,
    title: Title,
    counterparty_name: CompanyName,
    counterparty_contact: PersonName,
    counterparty_email: Email,
    owner_email: Email,
    value: Cents = 0,
    term_months: Months | None = None,
    auto_renew: bool = False,
    notice_days: Annotated[int, Field(ge=0, le=365)] = 30,
) -> Contract:
    """Draft a contract from an active template; it starts with the template's standard clauses.

    The owner must be an employee of the company.

    Args:
        template_id: The template.
        title: Contract title.
        counterparty_name: The other party.
        counterparty_contact: The other party's signatory.
        counterparty_email: The signatory's e-mail.
        owner_email: E-mail of the employee responsible for it.
        value: Total contract value in cents.
        term_months: Length of the term; default the template's.
        auto_renew: Whether it renews itself unless notice is given.
        notice_days: Notice needed to terminate or stop a renewal, in days.
    """
    tpl = ctx.get(Template, template_id, field="template_id")
    if not tpl.active:
        raise RuleViolation(f"template {tpl.name} is inactive", field="template_id", hint="pick an active template")
    owner = _employee(ctx, owner_email, "owner_email")
    return ctx.create(
        Contract,
        title=title,
        template_id=tpl.id,
        contract_type=tpl.contract_type,
        counterparty_name=counterparty_name,
        counterparty_contact=counterparty_contact,
        counterparty_email=counterparty_email,
        owner_name=owner.name,
        owner_email=owner.email,
        value=value,
        currency=ctx.population.home.place.currency,
        clause_keys=list(tpl.default_clause_keys),
        term_months=term_months or tpl.default_term_months,
        auto_renew=auto_renew,
        notice_days=notice_days,
    )


@service.tool(intent="add the clause to the contract", write=True, example=_example_add)
def add_clause(ctx: Ctx, contract_id: ContractId, clause_key: ClauseKey) -> Contract:
    """Add an approved library clause to a draft; it replaces the contract's clause of the same category.

    Args:
        contract_id: The draft contract.
        clause_key: The clause's key.
    """
    c = _draft(ctx, contract_id)
    clause = ctx.first(Clause, key=clause_key)
    if clause is None:
        raise NotFound(
            f"no clause {clause_key}", field="clause_key", hint="search the library with contracts__list_clauses"
        )
    if clause.status != "approved":
        raise RuleViolation(
            f"clause {clause.key} is deprecated", field="clause_key", hint="use an approved clause of the same category"
        )
    if clause.key in c.clause_keys:
        raise Conflict(f"clause {clause.key} is already in the contract", field="clause_key", hint="nothing to do")
    keep = [cl.key for cl in _clauses_of(ctx, c.clause_keys) if cl.category != clause.category]
    return ctx.update(c, clause_keys=[*keep, clause.key])


@service.tool(intent="remove the clause from the contract", write=True, example=_example_remove)
def remove_clause(ctx: Ctx, contract_id: ContractId, clause_key: ClauseKey) -> Contract:
    """Remove a clause from a draft; clauses of the template's required categories cannot be removed.

    Args:
        contract_id: The draft contract.
        clause_key: The clause's key.
    """
    c = _draft(ctx, contract_id)
    if clause_key not in c.clause_keys:
        raise RuleViolation(
            f"clause {clause_key} is not in contract {c.number}",
            field="clause_key",
            hint="see the contract's clause_keys",
        )
    clause = ctx.first(Clause, key=clause_key)
    tpl = ctx.get(Template, c.template_id)
    if clause is not None and clause.category in tpl.required_categories:
        raise RuleViolation(
            f"{tpl.name} requires a {clause.category.replace('_', ' ')} clause",
            field="clause_key",
            hint="replace it with a fallback of the same category using contracts__add_clause instead",
        )
    return ctx.update(c, clause_keys=[k for k in c.clause_keys if k != clause_key])


def _reviewer(ctx: Ctx, role: str) -> Reviewer:
    found = ctx.where(Reviewer, role=role)
    if not found:
        raise RuleViolation(f"nobody reviews as {role}", field="contract_id", hint="add a reviewer for the role")
    # The reviewer of the role with the fewest pending approvals takes it.
    return min(found, key=lambda r: (len(ctx.where(Approval, approver_email=r.email, status="pending")), r.id))


@service.tool(
    intent="send the contract for internal approval",
    write=True,
    example=first_example(Contract, "contract_id", where={"status": "draft"}),
)
def submit_for_review(ctx: Ctx, contract_id: ContractId) -> Contract:
    """Send a draft for approval by legal, finance and the general counsel as its value and clauses require.

    Legal always reviews; finance when the value is at or above the
    template's threshold; the general counsel when a non-standard clause is
    used. Every category the template requires must be covered first.

    Args:
        contract_id: The draft contract.
    """
    c = _draft(ctx, contract_id)
    tpl = ctx.get(Template, c.template_id)
    used = _clauses_of(ctx, c.clause_keys)
    missing = [cat for cat in tpl.required_categories if cat not in {cl.category for cl in used}]
    if missing:
        raise RuleViolation(
            f"contract {c.number} lacks required clauses: {', '.join(missing)}",
            field="contract_id",
            hint="add library clauses of those categories with contracts__add_clause",
        )
    roles: list[str] = ["legal"]
    if c.value >= tpl.finance_threshold:
        roles.append("finance")
    if any(cl.position == "non_standard" for cl in used):
        roles.append("general_counsel")
    for role in roles:
        r = _reviewer(ctx, role)
        ctx.create(Approval, contract_id=c.id, role=role, approver_name=r.name, approver_email=r.email)
    return ctx.update(c, status="in_review")


@service.tool(
    intent="approve or reject the contract",
    write=True,
    example=first_example(
        Approval,
        "approval_id",
        where={"status": "pending"},
        fields={"approver_email": "approver_email"},
        decision="approved",
    ),
)
def decide_approval(
    ctx: Ctx,
    approval_id: ApprovalId,
    approver_email: Email,
    decision: Literal["approved", "rejected"],
    comment: Text = "",
) -> Approval:
    """Decide one approval step as its approver; a rejection (with a comment) returns the contract to draft.

    The contract is approved when its last pending step is approved.

    Args:
        approval_id: The approval step.
        approver_email: E-mail of the person deciding; must be the step's approver.
        decision: approved or rejected.
        comment: Why; required for a rejection.
    """
    step = ctx.get(Approval, approval_id, field="approval_id")
    if step.status != "pending":
        raise RuleViolation(f"the step is already {step.status}", field="approval_id", hint="nothing to decide")
    if approver_email != step.approver_email:
        raise RuleViolation(
            f"this {step.role} step is for {step.approver_email}",
            field="approver_email",
            hint=f"only {step.approver_name} decides it",
        )
    if decision == "rejected" and not comment.strip():
        raise RuleViolation("a rejection needs a comment", field="comment", hint="tell the owner what to change")
    done = ctx.update(step, status=decision, comment=comment.strip() or None)
    c = ctx.get(Contract, step.contract_id)
    if decision == "rejected":
        for other in ctx.where(Approval, contract_id=c.id, status="pending"):
            ctx.update(other, status="cancelled")
        ctx.update(c, status="draft")
    elif ctx.first(Approval, contract_id=c.id, status="pending") is None:
        ctx.update(c, status="approved")
    return done


@service.tool(intent="record the signed contract", write=True, example=_example_sign)
def record_signature(
    ctx: Ctx,
    contract_id: ContractId,
    signed_document: FileLink,
    signed_date: Date | None = None,
    effective_date: Date | None = None,
) -> Contract:
    """Record that an approved contract was signed: its term starts on the effective date.

    It becomes active when the effective date has come (else signed), and
    its end date is the effective date plus the term. An auto-renewing
    contract gets a renewal-notice obligation for its owner.

    Args:
        contract_id: The approved contract.
        signed_document: Link to the executed document.
        signed_date: When it was signed; default today, never in the future.
        effective_date: First day of the term; default the signing date.
    """
    c = ctx.get(Contract, contract_id, field="contract_id")
    if c.status != "approved":
        raise RuleViolation(
            f"contract {c.number} is {c.status}", field="contract_id", hint="only approved contracts are signed"
        )
    today = ctx.today()
    signed = signed_date or today
    if signed > today:
        raise RuleViolation("the signing date is in the future", field="signed_date", hint="record it once signed")
    start = effective_date or signed
    end = add_months(start, c.term_months) - dt.timedelta(days=1)
    done = ctx.update(
        c,
        status="active" if start <= today else "signed",
        signed_document=signed_document,
        signed_at=signed,
        effective_date=start,
        end_date=end,
    )
    if c.auto_renew:
        ctx.create(
            Obligation,
            contract_id=c.id,
            title=f"Decide on renewal of {c.number}",
            kind="renewal_notice",
            owner_email=c.owner_email,
            due_date=end - dt.timedelta(days=c.notice_days),
        )
    return done


@service.tool(
    intent="renew the contract for another term",
    write=True,
    example=first_example(
        Contract,
        "contract_id",
        where={"status": "active"},
        match=lambda ctx, c: c.end_date is not None and (c.end_date - ctx.today()).days <= RENEWAL_WINDOW_DAYS,
    ),
)
def renew_contract(ctx: Ctx, contract_id: ContractId, term_months: Months | None = None) -> Contract:
    """Renew an active contract in the last 120 days of its term: the end date moves by the new term.

    Args:
        contract_id: The active contract.
        term_months: Length of the renewal; default the contract's term.
    """
    c = ctx.get(Contract, contract_id, field="contract_id")
    if c.status != "active" or c.end_date is None:
        raise RuleViolation(
            f"contract {c.number} is {c.status}", field="contract_id", hint="only active contracts renew"
        )
    left = (c.end_date - ctx.today()).days
    if left > RENEWAL_WINDOW_DAYS:
        raise RuleViolation(
            f"contract {c.number} runs until {c.end_date}; renewals open {RENEWAL_WINDOW_DAYS} days before the end",
            field="contract_id",
            hint=f"renew on or after {c.end_date - dt.timedelta(days=RENEWAL_WINDOW_DAYS)}",
        )
    months = term_months or c.term_months
    end = add_months(c.end_date + dt.timedelta(days=1), months) - dt.timedelta(days=1)
    for ob in ctx.where(Obligation, contract_id=c.id, kind="renewal_notice", status="open"):
        ctx.update(ob, status="done")
    return ctx.update(c, end_date=end, term_months=months, renewal_count=c.renewal_count + 1)


@service.tool(intent="terminate the contract", write=True, destructive=True, example=_example_terminate)
def terminate_contract(ctx: Ctx, contract_id: ContractId, reason: Text, termination_date: Date) -> Contract:
    """Terminate a signed or active contract on a date at least its notice period away; later obligations are waived.

    Args:
        contract_id: The contract.
        reason: Why.
        termination_date: Last day of the contract.
    """
    c = ctx.get(Contract, contract_id, field="contract_id")
    if c.status not in ("signed", "active"):
        raise RuleViolation(
            f"contract {c.number} is {c.status}", field="contract_id", hint="only signed or active contracts terminate"
        )
    earliest = ctx.today() + dt.timedelta(days=c.notice_days)
    if termination_date < earliest:
        raise RuleViolation(
            f"contract {c.number} needs {c.notice_days} days' notice; the earliest end is {earliest}",
            field="termination_date",
            hint=f"terminate on or after {earliest}",
        )
    if c.end_date is not None and termination_date > c.end_date:
        raise RuleViolation(
            f"the contract already ends on {c.end_date}",
            field="termination_date",
            hint="it expires by itself; turn auto_renew off instead",
        )
    if not reason.strip():
        raise RuleViolation("a termination needs a reason", field="reason", hint="say why")
    for ob in ctx.where(Obligation, contract_id=c.id, status="open"):
        if ob.due_date > termination_date:
            ctx.update(ob, status="waived")
    return ctx.update(c, status="terminated", end_date=termination_date, termination_reason=reason.strip())


class Renewal(BaseModel):
    """An active contract coming up for renewal."""

    contract_id: ContractId = Field(description="The contract.")
    number: str = Field(description="Its number.")
    counterparty_name: CompanyName = Field(description="The other party.")
    owner_email: Email = Field(description="Its owner.")
    end_date: Date = Field(description="Last day of the term.")
    notice_deadline: Date = Field(description="Last day to give notice.")
    auto_renew: bool = Field(description="Whether it renews itself.")
    value: Cents = Field(description="Contract value in cents.")


@service.tool(intent="list the contracts coming up for renewal")
def upcoming_renewals(ctx: Ctx, within_days: Annotated[int, Field(ge=1, le=730)] = 90) -> list[Renewal]:
    """Active contracts whose term ends within the given number of days, soonest first.

    Args:
        within_days: How far ahead to look.
    """
    today = ctx.today()
    out = []
    for c in ctx.where(Contract, status="active"):
        if c.end_date is not None and 0 <= (c.end_date - today).days <= within_days:
            out.append(
                Renewal(
                    contract_id=c.id,
                    number=c.number,
                    counterparty_name=c.counterparty_name,
                    owner_email=c.owner_email,
                    end_date=c.end_date,
                    notice_deadline=c.end_date - dt.timedelta(days=c.notice_days),
                    auto_renew=c.auto_renew,
                    value=c.value,
                )
            )
    out.sort(key=lambda r: (r.end_date, r.contract_id))
    return out


# -- seed -------------------------------------------------------------------------------------

CLAUSES: tuple[tuple[str, str, ClauseCategory, Position, str, bool], ...] = (
    (
        "mutual_confidentiality",
        "Mutual confidentiality",
        "confidentiality",
        "standard",
        "Each party keeps the other's confidential information secret for five years.",
        True,
    ),
    (
        "one_way_confidentiality",
        "One-way confidentiality",
        "confidentiality",
        "fallback",
        "The recipient keeps the discloser's confidential information secret for three years.",
        True,
    ),
    (
        "liability_cap_12m",
        "Liability cap of 12 months' fees",
        "liability",
        "standard",
        "Each party's liability is capped at the fees paid in the preceding twelve months.",
        True,
    ),
    (
        "liability_cap_24m",
        "Liability cap of 24 months' fees",
        "liability",
        "fallback",
        "Each party's liability is capped at the fees paid in the preceding twenty-four months.",
        True,
    ),
    (
        "unlimited_liability",
        "Unlimited liability",
        "liability",
        "non_standard",
        "Neither party's liability is limited.",
        True,
    ),
    ("net_30_payment", "Payment net 30", "payment", "standard", "Invoices are payable within 30 days.", True),
    ("net_60_payment", "Payment net 60", "payment", "fallback", "Invoices are payable within 60 days.", True),
    ("net_90_payment", "Payment net 90", "payment", "non_standard", "Invoices are payable within 90 days.", True),
    (
        "termination_convenience",
        "Termination for convenience",
        "termination",
        "standard",
        "Either party may terminate with the agreed notice.",
        True,
    ),
    (
        "termination_cause_only",
        "Termination for cause only",
        "termination",
        "fallback",
        "Either party may terminate only for an uncured material breach.",
        True,
    ),
    (
        "standard_dpa_terms",
        "Standard data processing terms",
        "data_protection",
        "standard",
        "The processor follows the controller's documented instructions and applicable data protection law.",
        True,
    ),
    (
        "customer_audit_rights",
        "Customer audit rights",
        "data_protection",
        "non_standard",
        "The customer may audit the processor's facilities on ten days' notice.",
        True,
    ),
    (
        "mutual_indemnity",
        "Mutual IP indemnity",
        "indemnity",
        "standard",
        "Each party defends the other against third-party IP claims.",
        True,
    ),
    (
        "governing_law_home",
        "Governing law: home jurisdiction",
        "governing_law",
        "standard",
        "The agreement is governed by the laws of the provider's home jurisdiction.",
        True,
    ),
    (
        "governing_law_customer",
        "Governing law: customer jurisdiction",
        "governing_law",
        "fallback",
        "The agreement is governed by the laws of the customer's jurisdiction.",
        True,
    ),
    (
        "auto_renewal_12m",
        "Automatic 12-month renewal",
        "renewal",
        "standard",
        "The agreement renews for successive twelve-month terms unless notice is given.",
        True,
    ),
    (
        "evergreen_renewal",
        "Evergreen renewal",
        "renewal",
        "non_standard",
        "The agreement renews indefinitely until terminated.",
        False,
    ),
)
TEMPLATES: tuple[tuple[str, ContractType, tuple[ClauseCategory, ...], tuple[str, ...], int, int, bool], ...] = (
    (
        "Mutual NDA",
        "nda",
        ("confidentiality", "governing_law"),
        ("mutual_confidentiality", "governing_law_home"),
        24,
        10**11,
        True,
    ),
    (
        "Master Services Agreement",
        "msa",
        ("confidentiality", "liability", "payment", "termination", "governing_law", "indemnity"),
        (
            "mutual_confidentiality",
            "liability_cap_12m",
            "net_30_payment",
            "termination_convenience",
            "governing_law_home",
            "mutual_indemnity",
        ),
        36,
        100_000_00,
        True,
    ),
    (
        "Statement of Work",
        "sow",
        ("payment", "termination"),
        ("net_30_payment", "termination_convenience"),
        6,
        50_000_00,
        True,
    ),
    ("Order Form", "order_form", ("payment", "renewal"), ("net_30_payment", "auto_renewal_12m"), 12, 25_000_00, True),
    (
        "Data Processing Agreement",
        "dpa",
        ("data_protection", "confidentiality"),
        ("standard_dpa_terms", "mutual_confidentiality"),
        36,
        10**11,
        True,
    ),
    (
        "Vendor Agreement",
        "vendor_agreement",
        ("liability", "payment", "termination", "governing_law"),
        ("liability_cap_12m", "net_30_payment", "termination_convenience", "governing_law_home"),
        12,
        50_000_00,
        True,
    ),
    ("Reseller Agreement (retired)", "msa", ("payment",), ("net_30_payment",), 12, 50_000_00, False),
)


CONTRACT_PLANS: tuple[tuple[str, ContractStatus], ...] = (
    ("Master Services Agreement", "active"),
    ("Order Form", "active"),
    ("Mutual NDA", "active"),
    ("Statement of Work", "active"),
    ("Data Processing Agreement", "active"),
    ("Order Form", "draft"),
    ("Master Services Agreement", "in_review"),
    ("Statement of Work", "approved"),
    ("Order Form", "expired"),
    ("Vendor Agreement", "active"),
    ("Mutual NDA", "draft"),
    ("Order Form", "terminated"),
    ("Vendor Agreement", "in_review"),
    ("Order Form", "signed"),
)
"""The template and status of the k-th seeded contract, in turn."""
BASE_VALUES: dict[str, int] = {
    "nda": 0,
    "msa": 240_000_00,
    "sow": 60_000_00,
    "order_form": 18_000_00,
    "dpa": 0,
    "vendor_agreement": 45_000_00,
}
"""Value of a contract of each type in cents; the k-th seeded one is worth (1 + k % 3) halves of it."""


def _seed_library(s: SeedContext) -> dict[str, Template]:
    """The clause library and the templates; returns the templates by name."""
    for key, title, cat, pos, body, live in CLAUSES:
        s.create(
            Clause,
            key=key,
            title=title,
            category=cat,
            position=pos,
            body=body,
            status="approved" if live else "deprecated",
        )
    tpl: dict[str, Template] = {}
    for name, kind, required, defaults, term, threshold, active in TEMPLATES:
        tpl[name] = s.create(
            Template,
            name=name,
            contract_type=kind,
            required_categories=list(required),
            default_clause_keys=list(defaults),
            default_term_months=term,
            finance_threshold=threshold,
            active=active,
        )
    return tpl


def _seed_reviewers(s: SeedContext) -> dict[str, list[Reviewer]]:
    """The longest-serving employee as general counsel, two legal and two finance reviewers; by role."""
    staff = list(s.population.employees)
    senior = min(staff, key=lambda p: (p.hire_date, p.key))
    finance = [p for p in staff if p.department == "Finance" and p.key != senior.key][:2]
    legal = [p for p in staff if p.department in ("Operations", "People") and p.key != senior.key][:2]
    reviewers_: dict[str, list[Reviewer]] = {"legal": [], "finance": [], "general_counsel": []}
    for role, people in (("general_counsel", [senior]), ("legal", legal), ("finance", finance)):
        for p in people:
            reviewers_[role].append(s.create(Reviewer, name=p.name, email=p.email, role=role))
    return reviewers_


def _clause_keys(k: int, template: Template, status: ContractStatus) -> list[str]:
    """The template's clauses, with the k-th contract's negotiated changes and a draft's optional extra."""
    keys = list(template.default_clause_keys)
    if k % 5 == 1 and template.contract_type == "msa":
        keys = [x if x != "liability_cap_12m" else "unlimited_liability" for x in keys]
    if k % 4 == 3 and "net_30_payment" in keys:
        keys = [x if x != "net_30_payment" else "net_60_payment" for x in keys]
    if status == "draft":
        # Drafts carry an optional clause the owner may still drop.
        extra = "mutual_indemnity" if "indemnity" not in template.required_categories else "auto_renewal_12m"
        if extra not in keys:
            keys.append(extra)
    return keys


def _term_dates(
    k: int, term: int, status: ContractStatus, today: dt.date
) -> tuple[dt.date | None, dt.date | None, dt.date | None]:
    """The k-th contract's start, end and signature dates; None until it is signed."""
    if status not in ("active", "expired", "terminated", "signed"):
        return None, None, None
    if status == "expired":
        start = today - dt.timedelta(days=400 + k)
    elif status == "signed":
        start = today + dt.timedelta(days=10 + k)
    elif k % 3 == 0:
        # Ending soon: in the renewal window.
        start = add_months(today + dt.timedelta(days=20 + 3 * k), -term)
    else:
        # Well inside the term: at least about 130 days left.
        start = today - dt.timedelta(days=(30 + 11 * k) % max(31, term * 30 - 130))
    end = add_months(start, term) - dt.timedelta(days=1)
    signed = min(start, today) - dt.timedelta(days=3)
    if status == "terminated":
        end = today - dt.timedelta(days=5)
    return start, end, signed


def _seed_approvals(
    s: SeedContext,
    k: int,
    contract: Contract,
    template: Template,
    reviewers_: dict[str, list[Reviewer]],
    load: dict[str, int],
) -> None:
    """The reviews the contract's value and clauses call for, each by the least loaded reviewer of the role."""
    roles = ["legal"]
    if contract.value >= template.finance_threshold:
        roles.append("finance")
    if any(x in ("unlimited_liability", "net_90_payment", "customer_audit_rights") for x in contract.clause_keys):
        roles.append("general_counsel")
    for role in roles:
        r = min(reviewers_[role], key=lambda r: (load[r.id], r.id))
        pending = contract.status == "in_review"
        if pending:
            load[r.id] += 1
        s.create(
            Approval,
            contract_id=contract.id,
            role=role,
            approver_name=r.name,
            approver_email=r.email,
            status="pending" if pending else "approved",
            comment=None if pending else "Reviewed, fine.",
            created_at=s.ago(days=10 + k),
        )


def _seed_obligations(s: SeedContext, contract: Contract, start: dt.date, end: dt.date) -> None:
    """A signed contract's renewal decision, quarterly invoices and (for a DPA) the annual security report."""
    today = s.now.date()
    if contract.auto_renew:
        s.create(
            Obligation,
            contract_id=contract.id,
            title=f"Decide on renewal of {contract.number}",
            kind="renewal_notice",
            owner_email=contract.owner_email,
            due_date=end - dt.timedelta(days=contract.notice_days),
        )
    if contract.value:
        for m in range(1, 4):
            due = add_months(start, 3 * m)
            s.create(
                Obligation,
                contract_id=contract.id,
                title=f"Quarterly invoice {m}",
                kind="payment",
                owner_email=contract.owner_email,
                due_date=due,
                amount=contract.value // max(1, contract.term_months // 3),
                status="done" if due < today else "open",
            )
    if contract.contract_type == "dpa":
        s.create(
            Obligation,
            contract_id=contract.id,
            title="Annual security report",
            kind="report",
            owner_email=contract.owner_email,
            due_date=today + dt.timedelta(days=s.rng.randint(20, 200)),
        )


def _seed_contracts(s: SeedContext, tpl: dict[str, Template], reviewers_: dict[str, list[Reviewer]]) -> None:
    """Contracts with customers (and suppliers, for vendor agreements) at every stage, reviews and obligations."""
    pop = s.population
    today = s.now.date()
    sales = pop.staff("Sales")
    ops = pop.staff("Operations")
    companies = [(c, p) for c in pop.customers if (p := pop.first_contact(c)) is not None]
    pending_load = {r.id: 0 for rs in reviewers_.values() for r in rs}
    for k in range(min(len(companies), 28)):
        name, status = CONTRACT_PLANS[k % len(CONTRACT_PLANS)]
        template = tpl[name]
        company, contact = companies[k]
        vendor = template.contract_type == "vendor_agreement"
        owner = (ops if vendor else sales)[k % len(ops if vendor else sales)]
        term = template.default_term_months
        start, end, signed = _term_dates(k, term, status, today)
        contract = s.create(
            Contract,
            title=f"{template.name} with {company.name}",
            template_id=template.id,
            contract_type=template.contract_type,
            counterparty_name=company.name,
            counterparty_contact=contact.name,
            counterparty_email=contact.email,
            owner_name=owner.name,
            owner_email=owner.email,
            value=BASE_VALUES[template.contract_type] * (1 + k % 3) // 2,
            currency=pop.home.place.currency,
            status=status,
            clause_keys=_clause_keys(k, template, status),
            term_months=term,
            auto_renew=template.contract_type in ("order_form", "msa"),
            notice_days=(30, 60, 90)[k % 3],
            effective_date=start,
            end_date=end,
            signed_document=f"https://files.example.com/contracts/CTR-{k + 1:05d}-signed.pdf" if signed else None,
            signed_at=signed,
            termination_reason="Customer consolidated vendors" if status == "terminated" else None,
            updated_at=s.ago(days=1 + k),
        )
        if status != "draft":
            _seed_approvals(s, k, contract, template, reviewers_, pending_load)
        if status in ("active", "signed") and end is not None and start is not None:
            _seed_obligations(s, contract, start, end)


@service.seeder
def seed(s: SeedContext) -> None:
    """Clause library, templates, reviewers from the staff, contracts with customers and suppliers at every stage."""
    tpl = _seed_library(s)
    _seed_contracts(s, tpl, _seed_reviewers(s))
