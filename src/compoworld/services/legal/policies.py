"""Rulebook: policy management with versions, owners, scheduled reviews, approvals and attestations.

Modeled on PolicyTech (NAVEX) and ConvergePoint: policies owned by an employee, with versions that go
draft → in_review → approved → published (the previous published version is superseded) and a policy
status draft → in_review → published → retired; review by named approvers, every one of whom must approve
(one rejection sends the draft back); publishing sets the next review date from the review cycle and
assigns attestations to the staff of the policy's department, each attested once; retiring a policy
cancels its pending attestations.
"""

from __future__ import annotations

import datetime as dt
from typing import Annotated, Any, Literal

from pydantic import Field

from compoworld.engine.context import Ctx
from compoworld.engine.errors import Conflict, RuleViolation
from compoworld.engine.records import CREATED, UPDATED, Record
from compoworld.engine.service import Service, Transition
from compoworld.engine.state import SeedContext
from compoworld.engine.types import Date, DateTime, Email, IdOf, Text, Title
from compoworld.services.kit.examples import first_example
from compoworld.services.kit.records import Value
from compoworld.services.kit.time import add_months

__all__ = ["service"]

service = Service(
    "policies",
    title="Rulebook",
    category="policy_management",
    modeled_on="PolicyTech / ConvergePoint: policies, versions, owners, review schedules, approvals, "
    "publication, employee attestations",
    description="The company's policy library: policies with owners and review cycles, versioned drafts "
    "sent to approvers, publication to a department, and the employees' attestations that they read them.",
)

PolicyId = Annotated[str, IdOf("policies.policy")]
VersionId = Annotated[str, IdOf("policies.version")]
ApprovalId = Annotated[str, IdOf("policies.approval")]
AttestationId = Annotated[str, IdOf("policies.attestation")]

PolicyStatus = Literal["draft", "in_review", "published", "retired"]
VersionStatus = Literal["draft", "in_review", "approved", "published", "superseded"]
Decision = Literal["pending", "approved", "rejected"]
AttestStatus = Literal["pending", "attested", "cancelled"]
ReviewMonths = Annotated[int, Field(ge=1, le=60)]
Department = Annotated[str, Field(min_length=1, max_length=60)]


class Policy(Record):
    """A policy of the company."""

    id: PolicyId
    title: Title
    """Its title (unique)."""
    department: Department
    """The department it applies to."""
    owner_email: Email
    """The employee who owns it."""
    review_months: ReviewMonths = 12
    """Months between reviews."""
    status: PolicyStatus = "draft"
    """draft, in_review, published or retired."""
    current_version: int = 0
    """The published version number (0: never published)."""
    next_review_on: Date | None = None
    """When it is next due for review."""
    updated_at: Annotated[DateTime, UPDATED]
    """When it last changed."""


class Version(Record):
    """A version of a policy's text."""

    id: VersionId
    policy_id: PolicyId
    """The policy."""
    number: int
    """The version number, from 1."""
    body: Text
    """The policy text."""
    change_summary: Text = ""
    """What changed."""
    status: VersionStatus = "draft"
    """draft, in_review, approved, published or superseded."""
    created_at: Annotated[DateTime, CREATED]
    """When it was drafted."""


class Approval(Record):
    """An approver's decision on a version."""

    id: ApprovalId
    version_id: VersionId
    """The version."""
    approver_email: Email
    """The approver."""
    decision: Decision = "pending"
    """pending, approved or rejected."""
    comment: Text = ""
    """Their comment."""
    updated_at: Annotated[DateTime, UPDATED]
    """When it last changed."""


class Attestation(Record):
    """An employee's acknowledgement that they read a published version."""

    id: AttestationId
    policy_id: PolicyId
    """The policy."""
    version: int
    """The version number."""
    employee_email: Email
    """The employee."""
    status: AttestStatus = "pending"
    """pending, attested or cancelled."""
    due_on: Date
    """When it is due."""
    attested_at: DateTime | None = None
    """When they attested."""


def _staff(ctx: Ctx, email: str, field: str) -> None:
    if email not in {p.email for p in ctx.population.employees}:
        raise RuleViolation(f"{email} is not an employee", field=field, hint="use an employee's e-mail")


def _draft(ctx: Ctx, p: Policy) -> Version | None:
    for v in ctx.where(Version, policy_id=p.id):
        if v.status in ("draft", "in_review", "approved"):
            return v
    return None


def _cancel(ctx: Ctx, p: Policy) -> None:
    for a in ctx.where(Attestation, policy_id=p.id, status="pending"):
        ctx.update(a, status="cancelled")


def _guard_policy(ctx: Ctx, new: Any, old: Any) -> None:
    if new.status == "retired" and old.status != "retired":
        _cancel(ctx, new)
        for v in ctx.where(Version, policy_id=new.id):
            if v.status in ("draft", "in_review", "approved"):
                ctx.update(v, status="superseded")


policies = service.resource(
    Policy,
    name="policy",
    plural="policies",
    prefix="pol",
    create=False,
    filters=("department", "owner_email", "status", "next_review_on"),
    search=("title",),
    update=("department", "review_months"),
    delete=False,
    transitions={"retire": Transition("status", ("published", "draft"), "retired", "retire the policy")},
    guard_update=_guard_policy,
)
versions = service.resource(
    Version,
    name="version",
    plural="versions",
    prefix="ver",
    create=False,
    filters=("policy_id", "status", "number"),
    search=("body",),
    delete=False,
)
approvals = service.resource(
    Approval,
    name="approval",
    plural="approvals",
    prefix="apr",
    create=False,
    filters=("version_id", "approver_email", "decision"),
    delete=False,
)
attestations = service.resource(
    Attestation,
    name="attestation",
    plural="attestations",
    prefix="att",
    create=False,
    filters=("policy_id", "employee_email", "status", "version"),
    delete=False,
)


def _example_create(ctx: Ctx) -> dict[str, Any] | None:
    return {
        "title": "Remote Work Policy",
        "department": "Engineering",
        "owner_email": ctx.population.employees[0].email,
        "body": "Employees may work remotely up to three days a week.",
    }


@service.tool(intent="create the policy", write=True, example=_example_create)
def create_policy(
    ctx: Ctx, title: Title, department: Department, owner_email: Email, body: Text, review_months: ReviewMonths = 12
) -> Policy:
    """Create a policy with its first draft version; titles are unique and the owner is an employee.

    Args:
        title: Its title.
        department: The department it applies to.
        owner_email: The employee who owns it.
        body: The first draft's text.
        review_months: Months between reviews.
    """
    if ctx.first(Policy, title=title) is not None:
        raise Conflict(f"a policy titled {title!r} exists", field="title", hint="revise that policy instead")
    _staff(ctx, owner_email, "owner_email")
    p = ctx.create(Policy, title=title, department=department, owner_email=owner_email, review_months=review_months)
    ctx.create(Version, policy_id=p.id, number=1, body=body, change_summary="Initial version")
    return p


def _example_revise(ctx: Ctx) -> dict[str, Any] | None:
    for p in ctx.where(Policy, status="published"):
        if _draft(ctx, p) is None:
            return {"policy_id": p.id, "body": "Updated text.", "change_summary": "Annual review edits"}
    return None


@service.tool(intent="start a revision of the policy", write=True, example=_example_revise)
def revise_policy(ctx: Ctx, policy_id: PolicyId, body: Text, change_summary: Text) -> Version:
    """Draft the next version of a published policy; one open draft at a time.

    Args:
        policy_id: The policy.
        body: The new text.
        change_summary: What changed.
    """
    p = ctx.get(Policy, policy_id, field="policy_id")
    if p.status != "published":
        raise Conflict(f"policy is {p.status}", field="policy_id", hint="only published policies are revised")
    if _draft(ctx, p) is not None:
        raise Conflict("a revision is already open", field="policy_id", hint="finish it first")
    n = max((v.number for v in ctx.where(Version, policy_id=p.id)), default=0) + 1
    return ctx.create(Version, policy_id=p.id, number=n, body=body, change_summary=change_summary)


def _example_submit(ctx: Ctx) -> dict[str, Any] | None:
    p = ctx.first(Policy, status="draft")
    if p is None:
        return None
    others = [e.email for e in ctx.population.employees if e.email != p.owner_email]
    return {"policy_id": p.id, "approver_emails": others[:2]}


@service.tool(intent="send the draft for approval", write=True, example=_example_submit)
def submit_for_review(ctx: Ctx, policy_id: PolicyId, approver_emails: list[Email]) -> Version:
    """Send a policy's draft to named approvers (employees other than the owner).

    Args:
        policy_id: The policy.
        approver_emails: The approvers.
    """
    p = ctx.get(Policy, policy_id, field="policy_id")
    v = _draft(ctx, p)
    if v is None or v.status != "draft":
        raise Conflict("no draft to submit", field="policy_id", hint="start a revision first")
    if not approver_emails or len(set(approver_emails)) != len(approver_emails):
        raise RuleViolation("list each approver once", field="approver_emails", hint="name at least one approver")
    for e in approver_emails:
        _staff(ctx, e, "approver_emails")
        if e == p.owner_email:
            raise RuleViolation(
                "the owner cannot approve their own policy", field="approver_emails", hint="pick others"
            )
    for e in approver_emails:
        ctx.create(Approval, version_id=v.id, approver_email=e)
    if p.status == "draft":
        ctx.update(p, status="in_review")
    return ctx.update(v, status="in_review")


@service.tool(
    intent="record the approver's decision",
    write=True,
    example=first_example(Approval, "approval_id", where={"decision": "pending"}, decision="approved"),
)
def decide_approval(
    ctx: Ctx, approval_id: ApprovalId, decision: Literal["approved", "rejected"], comment: Text = ""
) -> Approval:
    """Approve or reject a version under review; all approvals approve it, one rejection returns it to draft.

    Args:
        approval_id: The approval.
        decision: approved or rejected.
        comment: Why (required to reject).
    """
    a = ctx.get(Approval, approval_id, field="approval_id")
    if a.decision != "pending":
        raise Conflict(f"already {a.decision}", field="approval_id", hint="nothing to do")
    v = ctx.get(Version, a.version_id)
    if v.status != "in_review":
        raise Conflict(f"version is {v.status}", field="approval_id", hint="no longer under review")
    if decision == "rejected" and not comment.strip():
        raise RuleViolation("a rejection needs a comment", field="comment", hint="say what to change")
    a = ctx.update(a, decision=decision, comment=comment)
    p = ctx.get(Policy, v.policy_id)
    if decision == "rejected":
        for other in ctx.where(Approval, version_id=v.id, decision="pending"):
            ctx.update(other, decision="rejected", comment="Closed by another approver's rejection")
        ctx.update(v, status="draft")
        if p.current_version == 0:
            ctx.update(p, status="draft")
    elif all(x.decision == "approved" for x in ctx.where(Approval, version_id=v.id)):
        ctx.update(v, status="approved")
    return a


def _example_publish(ctx: Ctx) -> dict[str, Any] | None:
    for p in ctx.where(Policy, status="in_review"):
        v = _draft(ctx, p)
        if v is not None and v.status == "approved":
            return {"policy_id": p.id}
    return None


@service.tool(intent="publish the policy", write=True, example=_example_publish)
def publish_policy(
    ctx: Ctx, policy_id: PolicyId, attest_within_days: Annotated[int, Field(ge=1, le=90)] = 14
) -> Policy:
    """Publish an approved version: the old one is superseded, the department's staff must attest.

    Args:
        policy_id: The policy.
        attest_within_days: Days the staff have to attest.
    """
    p = ctx.get(Policy, policy_id, field="policy_id")
    v = _draft(ctx, p)
    if v is None or v.status != "approved":
        raise Conflict("no approved version to publish", field="policy_id", hint="get the draft approved first")
    for old in ctx.where(Version, policy_id=p.id, status="published"):
        ctx.update(old, status="superseded")
    _cancel(ctx, p)
    ctx.update(v, status="published")
    due = ctx.today() + dt.timedelta(days=attest_within_days)
    for person in ctx.population.staff(p.department, fallback=3):
        ctx.create(Attestation, policy_id=p.id, version=v.number, employee_email=person.email, due_on=due)
    return ctx.update(
        p, status="published", current_version=v.number, next_review_on=add_months(ctx.today(), p.review_months)
    )


@service.tool(
    intent="attest to the policy",
    write=True,
    example=first_example(Attestation, "attestation_id", where={"status": "pending"}),
)
def attest(ctx: Ctx, attestation_id: AttestationId) -> Attestation:
    """Record that the employee read and accepts the published version.

    Args:
        attestation_id: The attestation.
    """
    a = ctx.get(Attestation, attestation_id, field="attestation_id")
    if a.status != "pending":
        raise Conflict(f"attestation is {a.status}", field="attestation_id", hint="nothing to do")
    return ctx.update(a, status="attested", attested_at=ctx.now())


class AttestationSummary(Value):
    """Attestation progress of a policy's current version."""

    policy_id: PolicyId
    """The policy."""
    version: int
    """The current version."""
    attested: int
    """Attested."""
    pending: int
    """Still pending."""
    overdue_emails: list[Email]
    """Employees past their due date."""


@service.tool(
    intent="summarize the policy's attestations",
    example=first_example(Policy, "policy_id", where={"status": "published"}),
)
def attestation_summary(ctx: Ctx, policy_id: PolicyId) -> AttestationSummary:
    """How many employees attested to the current version, and who is overdue.

    Args:
        policy_id: The policy.
    """
    p = ctx.get(Policy, policy_id, field="policy_id")
    rows = ctx.where(Attestation, policy_id=p.id, version=p.current_version)
    today = ctx.today()
    return AttestationSummary(
        policy_id=p.id,
        version=p.current_version,
        attested=sum(a.status == "attested" for a in rows),
        pending=sum(a.status == "pending" for a in rows),
        overdue_emails=[a.employee_email for a in rows if a.status == "pending" and a.due_on < today],
    )


@service.tool(intent="list the policies due for review", example=lambda ctx: {"within_days": 60})
def due_for_review(ctx: Ctx, within_days: Annotated[int, Field(ge=0, le=365)] = 30) -> list[Policy]:
    """Published policies whose next review falls within the given number of days (or is past).

    Args:
        within_days: How far ahead to look.
    """
    limit = ctx.today() + dt.timedelta(days=within_days)
    out = [
        p for p in ctx.where(Policy, status="published") if p.next_review_on is not None and p.next_review_on <= limit
    ]
    return sorted(out, key=lambda p: p.next_review_on or limit)


@service.tool(
    intent="transfer the policy's ownership",
    write=True,
    example=lambda ctx: (
        None
        if (p := ctx.first(Policy, status="published")) is None
        else {"policy_id": p.id, "owner_email": ctx.population.employees[-1].email}
    ),
)
def change_owner(ctx: Ctx, policy_id: PolicyId, owner_email: Email) -> Policy:
    """Hand a live policy to another employee; a pending approver cannot become its owner.

    Args:
        policy_id: The policy.
        owner_email: The new owner.
    """
    p = ctx.get(Policy, policy_id, field="policy_id")
    if p.status == "retired":
        raise Conflict("policy is retired", field="policy_id", hint="retired policies keep their owner")
    _staff(ctx, owner_email, "owner_email")
    v = _draft(ctx, p)
    if v is not None and ctx.first(Approval, version_id=v.id, approver_email=owner_email, decision="pending"):
        raise RuleViolation("that employee is approving the draft", field="owner_email", hint="pick someone else")
    return ctx.update(p, owner_email=owner_email)


@service.tool(
    intent="withdraw the draft from review",
    write=True,
    example=first_example(Policy, "policy_id", where={"status": "in_review"}),
)
def withdraw_review(ctx: Ctx, policy_id: PolicyId) -> Version:
    """Pull a version under review back to draft; pending approvals are dropped.

    Args:
        policy_id: The policy.
    """
    p = ctx.get(Policy, policy_id, field="policy_id")
    v = _draft(ctx, p)
    if v is None or v.status not in ("in_review", "approved"):
        raise Conflict("nothing under review", field="policy_id", hint="submit a draft first")
    for a in ctx.where(Approval, version_id=v.id, decision="pending"):
        ctx.update(a, decision="rejected", comment="Withdrawn by the owner")
    if p.current_version == 0:
        ctx.update(p, status="draft")
    return ctx.update(v, status="draft")


POLICIES: tuple[tuple[str, str, int], ...] = (
    ("Code of Conduct", "Legal", 12),
    ("Information Security Policy", "Engineering", 12),
    ("Travel and Expense Policy", "Finance", 24),
    ("Anti-Bribery Policy", "Legal", 12),
    ("Data Retention Policy", "Engineering", 36),
    ("Whistleblower Policy", "Legal", 12),
)


@service.seeder
def seed(s: SeedContext) -> None:
    """Published policies with attestations, one under review, one draft and one retired."""
    pop = s.population
    today = s.now.date()
    for k, (title, dept, months) in enumerate(POLICIES):
        owner = pop.staff(dept, fallback=3)[0]
        status: Any = ("published", "published", "in_review", "draft", "retired", "in_review")[k]
        published = status in ("published", "retired")
        p = s.create(
            Policy,
            title=title,
            department=dept,
            owner_email=owner.email,
            review_months=months,
            status=status,
            current_version=1 if published else 0,
            next_review_on=add_months(today, months - 13 + 6 * k) if status == "published" else None,
            updated_at=s.ago(days=30),
        )
        vstatus: Any = (
            "approved"
            if k == 5
            else {"published": "published", "retired": "superseded", "in_review": "in_review", "draft": "draft"}[status]
        )
        v = s.create(
            Version,
            policy_id=p.id,
            number=1,
            body=f"{title}: the rules every employee follows.",
            change_summary="Initial version",
            status=vstatus,
            created_at=s.ago(days=400),
        )
        if status == "in_review":
            for j, person in enumerate(pop.employees[1:3]):
                s.create(
                    Approval,
                    version_id=v.id,
                    approver_email=person.email,
                    decision="approved" if j == 0 or k == 5 else "pending",
                    updated_at=s.ago(days=2),
                )
        if status == "published":
            for j, person in enumerate(pop.staff(dept, fallback=3)):
                done = j % 2 == 0
                s.create(
                    Attestation,
                    policy_id=p.id,
                    version=1,
                    employee_email=person.email,
                    status="attested" if done else "pending",
                    due_on=today + dt.timedelta(days=7 - 10 * k),
                    attested_at=s.ago(days=5) if done else None,
                )
