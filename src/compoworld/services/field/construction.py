"""Sitebook: construction project management for a general contractor's jobs.

Modeled on the Procore REST API (v1.0): projects with a stage (bidding →
pre_construction → course_of_construction → post_construction → closed) and an
owner, the project directory of people from the contractor and its
subcontractors, RFIs numbered per project (draft → open → closed) whose "ball
in court" passes from the RFI manager to the assignee and back when the
assignee answers, submittals (shop drawings, product data, samples) that move
through an ordered approval workflow (draft → open → approved,
approved_as_noted, revise_and_resubmit or rejected; a revision reopens it as a
new revision), change orders (draft → pending → approved, rejected or void)
whose approval changes the project's revised contract value (a single change
is at most a quarter of the original contract). A project closes only when no
RFI, submittal or change order is still open or pending; stages never go back.
Amounts are cents. Nothing changes on a closed project.
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
from compoworld.engine.types import City, CompanyName, Date, DateTime, Email, IdOf, PersonName, Text, Title
from compoworld.services.kit.examples import first_example

__all__ = ["service"]

service = Service(
    "construction",
    title="Sitebook",
    category="construction",
    modeled_on="Procore REST API v1.0: projects, project directory, RFIs (ball in court), submittals with "
    "approval workflows (ball in court), prime contract change orders",
    description="Construction project management for a general contractor: projects and their directory of "
    "subcontractor contacts, RFIs that pass the ball in court, submittals reviewed along an approval "
    "workflow, and change orders that move the contract value and the completion date.",
)

ProjectId = Annotated[str, IdOf("construction.project")]
MemberId = Annotated[str, IdOf("construction.member")]
RfiId = Annotated[str, IdOf("construction.rfi")]
SubmittalId = Annotated[str, IdOf("construction.submittal")]
ChangeOrderId = Annotated[str, IdOf("construction.change_order")]

ProjectNumber = Annotated[str, StringConstraints(pattern=r"^[A-Z0-9-]{3,20}$")]
"""The contractor's job number, e.g. 2026-014."""
SpecSection = Annotated[str, StringConstraints(pattern=r"^\d{2} \d{2} \d{2}$")]
"""A CSI MasterFormat section such as 08 71 00."""
SignedCents = Annotated[int, Field(ge=-(10**11), le=10**11)]
"""An amount in cents; negative for a deduction."""

Stage = Literal["bidding", "pre_construction", "course_of_construction", "post_construction", "closed"]
Permission = Literal["admin", "standard", "read_only"]
RfiStatus = Literal["draft", "open", "closed"]
SubmittalType = Literal["shop_drawing", "product_data", "sample", "mock_up", "warranty"]
SubmittalStatus = Literal["draft", "open", "approved", "approved_as_noted", "revise_and_resubmit", "rejected"]
Response = Literal["approved", "approved_as_noted", "revise_and_resubmit", "rejected"]
CoStatus = Literal["draft", "pending", "approved", "rejected", "void"]

STAGES: tuple[Stage, ...] = ("bidding", "pre_construction", "course_of_construction", "post_construction", "closed")
MAX_CO_FRACTION = 0.25
"""A single change order may not move the contract by more than a quarter of its original value."""


class Project(Record):
    """A construction project (a job) the contractor builds for an owner."""

    id: ProjectId
    number: ProjectNumber = Field(description="The job number (unique).")
    name: Title = Field(description="The project's name.")
    owner_company: CompanyName = Field(description="The client who owns the building.")
    city: City = Field(description="Where the site is.")
    stage: Stage = "pre_construction"
    """bidding, pre_construction, course_of_construction, post_construction or closed."""
    project_manager: Email = Field(description="The contractor's project manager (an employee).")
    original_contract: Annotated[int, Field(ge=0, le=10**12)]
    """The original contract value in cents."""
    revised_contract: Annotated[int, Field(ge=0, le=10**12)]
    """Original value plus approved change orders, in cents."""
    start_date: Date = Field(description="Planned start.")
    completion_date: Date = Field(description="Planned substantial completion.")
    created_at: Annotated[DateTime, CREATED] = Field(description="When it was set up.")


class Member(Record):
    """A person in a project's directory: the contractor's staff or a subcontractor's contact."""

    id: MemberId
    project_id: ProjectId = Field(description="The project.")
    name: PersonName = Field(description="Their full name.")
    email: Email = Field(description="Their e-mail (unique in the project).")
    company: CompanyName = Field(description="The company they work for.")
    permission: Permission = Field("standard", description="admin (may approve), standard or read_only.")


class Rfi(Record):
    """A request for information: a question to the design team, with the ball in someone's court."""

    id: RfiId
    project_id: ProjectId = Field(description="The project.")
    number: Annotated[int, Field(ge=1)] = Field(description="Its number within the project.")
    subject: Title = Field(description="What it is about.")
    question: Text = Field(description="The question.")
    rfi_manager: Email = Field(description="Who manages it (a project member).")
    assignee: Email = Field(description="Who must answer (a project member).")
    ball_in_court: Email | None = None
    """Who must act now: the assignee while open and unanswered, then the RFI manager."""
    status: RfiStatus = Field("draft", description="draft, open or closed.")
    due_date: Date | None = Field(None, description="When the answer is due.")
    official_answer: Text | None = Field(None, description="The answer.")
    cost_impact: bool = Field(False, description="Whether the answer changes the cost.")
    schedule_impact_days: Annotated[int, Field(ge=0, le=365)] = 0
    """Days the answer adds to the schedule."""
    created_at: Annotated[DateTime, CREATED] = Field(description="When it was written.")
    updated_at: Annotated[DateTime, UPDATED] = Field(description="When it last changed.")


class Submittal(Record):
    """A document or sample a subcontractor submits for approval before building or buying."""

    id: SubmittalId
    project_id: ProjectId = Field(description="The project.")
    number: Annotated[int, Field(ge=1)] = Field(description="Its number within the project.")
    revision: Annotated[int, Field(ge=0)] = Field(0, description="The revision (0 the first submission).")
    title: Title = Field(description="What is submitted.")
    spec_section: SpecSection = Field(description="The specification section it answers.")
    submittal_type: SubmittalType = "shop_drawing"
    """shop_drawing, product_data, sample, mock_up or warranty."""
    submitted_by: Email = Field(description="The subcontractor contact who submits it (a project member).")
    approvers: tuple[Email, ...] = Field(description="The workflow: reviewers in order.")
    step: Annotated[int, Field(ge=0)] = 0
    """The index in ``approvers`` of the reviewer who must act now."""
    ball_in_court: Email | None = Field(None, description="Who must act now.")
    status: SubmittalStatus = "draft"
    """draft, open (in review), approved, approved_as_noted, revise_and_resubmit or rejected."""
    required_on_site: Date | None = Field(None, description="When the material must be on site.")
    created_at: Annotated[DateTime, CREATED] = Field(description="When it was created.")
    updated_at: Annotated[DateTime, UPDATED] = Field(description="When it last changed.")


class ChangeOrder(Record):
    """A prime contract change order: a change of scope and price agreed with the owner."""

    id: ChangeOrderId
    project_id: ProjectId = Field(description="The project.")
    number: Annotated[int, Field(ge=1)] = Field(description="Its number within the project.")
    title: Title = Field(description="The change.")
    reason: Literal["owner_request", "design_error", "unforeseen_condition", "allowance", "value_engineering"]
    """Why the scope changes."""
    amount: SignedCents = Field(description="Its price in cents (negative: a credit to the owner).")
    schedule_impact_days: Annotated[int, Field(ge=0, le=365)] = Field(0, description="Days it adds.")
    rfi_id: RfiId | None = Field(None, description="The RFI it comes from.")
    status: CoStatus = Field("draft", description="draft → pending → approved, rejected or void.")
    approved_by: Email | None = Field(None, description="The admin who approved it.")
    created_at: Annotated[DateTime, CREATED] = Field(description="When it was drafted.")


# -- rules ------------------------------------------------------------------------------------


def _live(ctx: Ctx, project_id: str, field: str = "project_id") -> Project:
    project = ctx.get(Project, project_id, field=field)
    if project.stage == "closed":
        raise RuleViolation(
            f"project {project.number} is closed", field=field, hint="closed projects take no new items"
        )
    return project


def _member(ctx: Ctx, project_id: str, email: str, field: str, *, admin: bool = False) -> Member:
    m = ctx.first(Member, project_id=project_id, email=email)
    if m is None:
        raise RuleViolation(
            f"{email} is not in the project's directory",
            field=field,
            hint="add them with construction__add_member or pick someone from construction__list_members",
        )
    if admin and m.permission != "admin":
        raise RuleViolation(
            f"{email} has {m.permission} permission", field=field, hint="only a project admin may approve"
        )
    if m.permission == "read_only":
        raise RuleViolation(f"{email} is read-only on the project", field=field, hint="pick a standard or admin member")
    return m


def _next(ctx: Ctx, model: type[Rfi] | type[Submittal] | type[ChangeOrder], project_id: str) -> int:
    return max((r.number for r in ctx.where(model, project_id=project_id)), default=0) + 1


def _guard_project(ctx: Ctx, new: Any, old: Any) -> None:
    if old is not None and old.stage == "closed":
        raise RuleViolation(f"project {old.number} is closed", field="project_id", hint="closed projects are final")
    if new.completion_date < new.start_date:
        raise RuleViolation("completion is before start", field="completion_date", hint="pick a later date")
    if old is not None and new.project_manager != old.project_manager:
        _staff(ctx, new.project_manager, "project_manager")
    if old is not None and STAGES.index(new.stage) < STAGES.index(old.stage):
        raise RuleViolation(
            f"a project cannot go back from {old.stage} to {new.stage}", field="stage", hint="stages only move on"
        )
    if new.stage == "closed" and old is not None and old.stage != "closed":
        left = (
            len(ctx.where(Rfi, project_id=new.id, status="open")),
            len(ctx.where(Submittal, project_id=new.id, status="open")),
            len(ctx.where(ChangeOrder, project_id=new.id, status="pending")),
        )
        if any(left):
            raise RuleViolation(
                "{} RFIs, {} submittals and {} change orders are still open".format(*left),
                field="project_id",
                hint="close the RFIs, finish the reviews and settle pending change orders first",
            )


def _guard_rfi(ctx: Ctx, new: Any, old: Any) -> None:
    _live(ctx, new.project_id)
    if old.status == "draft" and new.status == "open":
        ctx.update(new, ball_in_court=new.assignee)
    elif old.status == "open" and new.status == "closed":
        if not new.official_answer:
            raise RuleViolation(
                f"RFI #{new.number} has no official answer",
                field="rfi_id",
                hint="the assignee answers with construction__respond_to_rfi first",
            )
        ctx.update(new, ball_in_court=None)
    elif old.status == new.status and old.status != "draft":
        raise RuleViolation(f"RFI #{new.number} is {old.status}", field="rfi_id", hint="only drafts are edited")
    for name in ("rfi_manager", "assignee"):
        if getattr(new, name) != getattr(old, name):
            _member(ctx, new.project_id, getattr(new, name), name)


def _guard_change_order(ctx: Ctx, new: Any, old: Any) -> None:
    project = _live(ctx, new.project_id, "change_order_id")
    if new.status == old.status:
        if old.status != "draft":
            raise RuleViolation(
                f"change order #{old.number} is {old.status}", field="change_order_id", hint="only drafts are edited"
            )
        _co_limit(project, new.amount)


def _co_limit(project: Project, amount: int) -> None:
    if abs(amount) > project.original_contract * MAX_CO_FRACTION:
        raise RuleViolation(
            f"{amount} is more than a quarter of the original contract",
            field="amount",
            hint="split the change or renegotiate the contract",
        )
    if project.revised_contract + amount < 0:
        raise RuleViolation("the credit exceeds the contract value", field="amount", hint="lower the credit")


projects = service.resource(
    Project,
    name="project",
    plural="projects",
    prefix="prj",
    create=False,
    filters=("stage", "project_manager", "owner_company", "city", "number"),
    search=("name", "owner_company"),
    update=("name", "stage", "project_manager", "completion_date"),
    delete=False,
    guard_update=_guard_project,
)
members = service.resource(
    Member,
    name="member",
    plural="members",
    prefix="mbr",
    create=False,
    get=False,
    filters=("project_id", "email", "company", "permission"),
    search=("name", "company"),
    update=("permission",),
    delete=False,
    title="directory member",
)
rfis = service.resource(
    Rfi,
    name="rfi",
    plural="rfis",
    prefix="rfi",
    create=False,
    filters=("project_id", "status", "ball_in_court", "assignee", "rfi_manager"),
    search=("subject", "question"),
    update=("subject", "question", "assignee", "due_date"),
    delete=False,
    transitions={
        "open": Transition(
            "status", ("draft",), "open", "open the RFI", "Send a draft RFI: the ball goes to the assignee."
        ),
        "close": Transition("status", ("open",), "closed", "close the RFI", "Close an answered RFI."),
    },
    guard_update=_guard_rfi,
    title="RFI",
)
submittals = service.resource(
    Submittal,
    name="submittal",
    plural="submittals",
    prefix="sbm",
    create=False,
    filters=("project_id", "status", "ball_in_court", "submitted_by", "spec_section", "submittal_type"),
    search=("title",),
    delete=False,
)
change_orders = service.resource(
    ChangeOrder,
    name="change_order",
    plural="change_orders",
    prefix="pco",
    create=False,
    filters=("project_id", "status", "reason", "rfi_id"),
    search=("title",),
    update=("title", "amount", "schedule_impact_days"),
    delete=False,
    transitions={
        "submit": Transition("status", ("draft",), "pending", "submit the change order to the owner"),
        "reject": Transition("status", ("pending",), "rejected", "record the owner's rejection of the change order"),
        "void": Transition("status", ("draft", "pending"), "void", "void the change order"),
    },
    guard_update=_guard_change_order,
    title="change order",
)
# -- domain tools -----------------------------------------------------------------------------


def _staff(ctx: Ctx, email: str, field: str) -> None:
    if email not in {p.email for p in ctx.population.employees}:
        raise RuleViolation(f"{email} is not one of our employees", field=field, hint="use an employee's e-mail")


def _example_project(ctx: Ctx) -> dict[str, Any] | None:
    today = ctx.today()
    return {
        "number": "2027-001",
        "name": "Riverside Clinic Fit-Out",
        "owner_company": ctx.population.customers[0].name,
        "city": ctx.population.customers[0].place.city,
        "project_manager": ctx.population.employees[0].email,
        "original_contract": 240_000_000,
        "start_date": (today + dt.timedelta(days=30)).isoformat(),
        "completion_date": (today + dt.timedelta(days=240)).isoformat(),
    }


@service.tool(intent="create the construction project", write=True, example=_example_project)
def create_project(
    ctx: Ctx,
    number: ProjectNumber,
    name: Title,
    owner_company: CompanyName,
    city: City,
    project_manager: Email,
    original_contract: Annotated[int, Field(ge=0, le=10**12)],
    start_date: Date,
    completion_date: Date,
) -> Project:
    """Set up a project; the project manager joins its directory as an admin.

    Args:
        number: The job number (unique).
        name: The project's name.
        owner_company: The client who owns the building.
        city: Where the site is.
        project_manager: The employee managing it.
        original_contract: The contract value in cents.
        start_date: Planned start.
        completion_date: Planned substantial completion (not before start).
    """
    if ctx.first(Project, number=number) is not None:
        raise Conflict(f"project number {number} is taken", field="number", hint="pick another job number")
    _staff(ctx, project_manager, "project_manager")
    if completion_date < start_date:
        raise RuleViolation("completion is before start", field="completion_date", hint="pick a later date")
    project = ctx.create(
        Project,
        number=number,
        name=name,
        owner_company=owner_company,
        city=city,
        project_manager=project_manager,
        original_contract=original_contract,
        revised_contract=original_contract,
        start_date=start_date,
        completion_date=completion_date,
    )
    pm, home = next(p for p in ctx.population.employees if p.email == project_manager), ctx.population.home
    ctx.create(Member, project_id=project.id, name=pm.name, email=pm.email, company=home.name, permission="admin")
    return project


def _example_member(ctx: Ctx) -> dict[str, Any] | None:
    p = ctx.first(Project, stage="course_of_construction")
    taken = {m.email for m in ctx.where(Member, project_id=p.id)} if p else set()
    for person in ctx.population.contacts:
        company = ctx.population.company_of(person)
        if p is not None and company is not None and person.email not in taken:
            return {"project_id": p.id, "name": person.name, "email": person.email, "company": company.name}
    return None


@service.tool(intent="add the person to the project directory", write=True, example=_example_member)
def add_member(
    ctx: Ctx,
    project_id: ProjectId,
    name: PersonName,
    email: Email,
    company: CompanyName,
    permission: Permission = "standard",
) -> Member:
    """Add someone to a project's directory (once per project).

    Args:
        project_id: The project.
        name: Their full name.
        email: Their e-mail.
        company: Their company.
        permission: admin, standard or read_only.
    """
    _live(ctx, project_id)
    if ctx.first(Member, project_id=project_id, email=email) is not None:
        raise Conflict(f"{email} is already in the directory", field="email", hint="update their member record")
    return ctx.create(Member, project_id=project_id, name=name, email=email, company=company, permission=permission)


def _example_rfi(ctx: Ctx) -> dict[str, Any] | None:
    p = ctx.first(Project, stage="course_of_construction")
    if p is None:
        return None
    sub = next((m for m in ctx.where(Member, project_id=p.id) if m.permission == "standard"), None)
    if sub is None:
        return None
    return {
        "project_id": p.id,
        "subject": "Beam pocket depth at grid C4",
        "question": "Drawing S-201 shows 300 mm, detail 5/S-501 shows 250 mm. Which governs?",
        "rfi_manager": p.project_manager,
        "assignee": sub.email,
    }


@service.tool(intent="write the RFI", write=True, example=_example_rfi)
def create_rfi(
    ctx: Ctx,
    project_id: ProjectId,
    subject: Title,
    question: Text,
    rfi_manager: Email,
    assignee: Email,
    due_date: Date | None = None,
    send: bool = False,
) -> Rfi:
    """Write an RFI, numbered next in the project; send it at once or keep it as a draft.

    Args:
        project_id: The project.
        subject: What it is about.
        question: The question.
        rfi_manager: Who manages it (a project member).
        assignee: Who must answer (a project member other than the manager).
        due_date: When the answer is due (after today).
        send: Open it now (the ball goes to the assignee).
    """
    _live(ctx, project_id)
    _member(ctx, project_id, rfi_manager, "rfi_manager")
    _member(ctx, project_id, assignee, "assignee")
    if assignee == rfi_manager:
        raise RuleViolation("the manager cannot answer their own RFI", field="assignee", hint="assign someone else")
    if due_date is not None and due_date <= ctx.today():
        raise RuleViolation("the due date has passed", field="due_date", hint="pick a date after today")
    if not question.strip():
        raise RuleViolation("an RFI needs a question", field="question", hint="write the question")
    return ctx.create(
        Rfi,
        project_id=project_id,
        number=_next(ctx, Rfi, project_id),
        subject=subject,
        question=question,
        rfi_manager=rfi_manager,
        assignee=assignee,
        due_date=due_date,
        status="open" if send else "draft",
        ball_in_court=assignee if send else None,
    )


@service.tool(
    intent="answer the RFI",
    write=True,
    example=first_example(
        Rfi,
        "rfi_id",
        match=lambda ctx, r: r.status == "open" and r.ball_in_court == r.assignee,
        fields={"responder": "assignee"},
        answer="Detail 5/S-501 governs; 250 mm.",
    ),
)
def respond_to_rfi(
    ctx: Ctx,
    rfi_id: RfiId,
    responder: Email,
    answer: Text,
    cost_impact: bool = False,
    schedule_impact_days: Annotated[int, Field(ge=0, le=365)] = 0,
) -> Rfi:
    """The assignee answers an open RFI: the answer becomes official and the ball returns to the RFI manager.

    Args:
        rfi_id: The RFI.
        responder: Who answers (must hold the ball).
        answer: The answer.
        cost_impact: Whether it changes the cost.
        schedule_impact_days: Days it adds.
    """
    rfi = ctx.get(Rfi, rfi_id, field="rfi_id")
    _live(ctx, rfi.project_id, "rfi_id")
    if rfi.status != "open":
        raise RuleViolation(f"RFI #{rfi.number} is {rfi.status}", field="rfi_id", hint="only open RFIs are answered")
    if rfi.ball_in_court != responder:
        raise RuleViolation(
            f"the ball is in {rfi.ball_in_court}'s court", field="responder", hint="the assignee answers the RFI"
        )
    if not answer.strip():
        raise RuleViolation("the answer is empty", field="answer", hint="write the answer")
    return ctx.update(
        rfi,
        official_answer=answer.strip(),
        ball_in_court=rfi.rfi_manager,
        cost_impact=cost_impact,
        schedule_impact_days=schedule_impact_days,
    )


def _example_submittal(ctx: Ctx) -> dict[str, Any] | None:
    p = ctx.first(Project, stage="course_of_construction")
    if p is None:
        return None
    subs = [m for m in ctx.where(Member, project_id=p.id) if m.permission == "standard"]
    if not subs:
        return None
    return {
        "project_id": p.id,
        "title": "Curtain wall shop drawings",
        "spec_section": "08 44 13",
        "submitted_by": subs[0].email,
        "approvers": [p.project_manager],
    }


@service.tool(intent="create the submittal", write=True, example=_example_submittal)
def create_submittal(
    ctx: Ctx,
    project_id: ProjectId,
    title: Title,
    spec_section: SpecSection,
    submitted_by: Email,
    approvers: list[Email],
    submittal_type: SubmittalType = "shop_drawing",
    required_on_site: Date | None = None,
) -> Submittal:
    """Log a submittal as a draft with its approval workflow (reviewers in order, each a project member).

    Args:
        project_id: The project.
        title: What is submitted.
        spec_section: The specification section (NN NN NN).
        submitted_by: The subcontractor contact submitting.
        approvers: Reviewers in order, distinct, without the submitter.
        submittal_type: shop_drawing, product_data, sample, mock_up or warranty.
        required_on_site: When the material must be on site.
    """
    _live(ctx, project_id)
    _member(ctx, project_id, submitted_by, "submitted_by")
    if not approvers or len(set(approvers)) != len(approvers) or submitted_by in approvers:
        raise RuleViolation(
            "the workflow needs distinct approvers other than the submitter",
            field="approvers",
            hint="list each reviewer once, in review order",
        )
    for a in approvers:
        _member(ctx, project_id, a, "approvers")
    return ctx.create(
        Submittal,
        project_id=project_id,
        number=_next(ctx, Submittal, project_id),
        title=title,
        spec_section=spec_section,
        submittal_type=submittal_type,
        submitted_by=submitted_by,
        approvers=tuple(approvers),
        required_on_site=required_on_site,
    )


@service.tool(
    intent="distribute the submittal for review",
    write=True,
    example=first_example(Submittal, "submittal_id", where={"status": "draft"}),
)
def distribute_submittal(ctx: Ctx, submittal_id: SubmittalId) -> Submittal:
    """Send a draft submittal into its workflow: the ball goes to the first approver.

    Args:
        submittal_id: The submittal.
    """
    sub = ctx.get(Submittal, submittal_id, field="submittal_id")
    _live(ctx, sub.project_id, "submittal_id")
    if sub.status != "draft":
        raise RuleViolation(
            f"submittal #{sub.number} is {sub.status}", field="submittal_id", hint="only drafts are distributed"
        )
    return ctx.update(sub, status="open", step=0, ball_in_court=sub.approvers[0])


@service.tool(
    intent="review the submittal",
    write=True,
    example=first_example(
        Submittal,
        "submittal_id",
        where={"status": "open"},
        fields={"reviewer": "ball_in_court"},
        response="approved_as_noted",
    ),
)
def review_submittal(ctx: Ctx, submittal_id: SubmittalId, reviewer: Email, response: Response) -> Submittal:
    """The reviewer holding the ball responds; the last approver's approval is final.

    An approval passes the ball to the next approver; revise_and_resubmit or rejected ends the review and
    returns the ball to the submitter.

    Args:
        submittal_id: The submittal.
        reviewer: The approver whose turn it is.
        response: approved, approved_as_noted, revise_and_resubmit or rejected.
    """
    sub = ctx.get(Submittal, submittal_id, field="submittal_id")
    _live(ctx, sub.project_id, "submittal_id")
    if sub.status != "open":
        raise RuleViolation(
            f"submittal #{sub.number} is {sub.status}", field="submittal_id", hint="distribute it first"
        )
    if sub.ball_in_court != reviewer:
        raise RuleViolation(
            f"it is {sub.ball_in_court}'s turn to review", field="reviewer", hint="reviewers act in workflow order"
        )
    if response in ("revise_and_resubmit", "rejected"):
        return ctx.update(sub, status=response, ball_in_court=sub.submitted_by)
    if sub.step + 1 < len(sub.approvers):
        return ctx.update(sub, step=sub.step + 1, ball_in_court=sub.approvers[sub.step + 1])
    return ctx.update(sub, status=response, ball_in_court=None)


@service.tool(
    intent="create a revision of the submittal",
    write=True,
    example=first_example(Submittal, "submittal_id", where={"status": "revise_and_resubmit"}),
)
def revise_submittal(ctx: Ctx, submittal_id: SubmittalId) -> Submittal:
    """Resubmit a submittal returned as revise_and_resubmit: a new revision restarts the workflow.

    Args:
        submittal_id: The submittal.
    """
    sub = ctx.get(Submittal, submittal_id, field="submittal_id")
    _live(ctx, sub.project_id, "submittal_id")
    if sub.status != "revise_and_resubmit":
        raise RuleViolation(
            f"submittal #{sub.number} is {sub.status}",
            field="submittal_id",
            hint="only a submittal returned for revision gets a new revision",
        )
    return ctx.update(sub, revision=sub.revision + 1, status="open", step=0, ball_in_court=sub.approvers[0])


def _example_co(ctx: Ctx) -> dict[str, Any] | None:
    p = ctx.first(Project, stage="course_of_construction")
    if p is None:
        return None
    return {
        "project_id": p.id,
        "title": "Add floor boxes in conference rooms",
        "reason": "owner_request",
        "amount": 1_250_000,
    }


@service.tool(intent="draft the change order", write=True, example=_example_co)
def create_change_order(
    ctx: Ctx,
    project_id: ProjectId,
    title: Title,
    reason: Literal["owner_request", "design_error", "unforeseen_condition", "allowance", "value_engineering"],
    amount: SignedCents,
    schedule_impact_days: Annotated[int, Field(ge=0, le=365)] = 0,
    rfi_id: RfiId | None = None,
) -> ChangeOrder:
    """Draft a prime contract change order, numbered next in the project.

    Args:
        project_id: The project.
        title: The change.
        reason: owner_request, design_error, unforeseen_condition, allowance or value_engineering.
        amount: Price in cents (negative: a credit); at most a quarter of the original contract.
        schedule_impact_days: Days it adds.
        rfi_id: The RFI it comes from (same project, answered with a cost impact).
    """
    project = _live(ctx, project_id)
    if rfi_id is not None:
        rfi = ctx.get(Rfi, rfi_id, field="rfi_id")
        if rfi.project_id != project_id or not rfi.cost_impact:
            raise RuleViolation(
                f"RFI #{rfi.number} has no cost impact on this project",
                field="rfi_id",
                hint="link an answered RFI of the same project flagged with a cost impact",
            )
    _co_limit(project, amount)
    return ctx.create(
        ChangeOrder,
        project_id=project_id,
        number=_next(ctx, ChangeOrder, project_id),
        title=title,
        reason=reason,
        amount=amount,
        schedule_impact_days=schedule_impact_days,
        rfi_id=rfi_id,
    )


def _example_approve(ctx: Ctx) -> dict[str, Any] | None:
    co = ctx.first(ChangeOrder, status="pending")
    if co is None:
        return None
    return {"change_order_id": co.id, "approved_by": ctx.get(Project, co.project_id).project_manager}


@service.tool(intent="approve the change order", write=True, example=_example_approve)
def approve_change_order(ctx: Ctx, change_order_id: ChangeOrderId, approved_by: Email) -> ChangeOrder:
    """Approve a pending change order: the project's revised contract and completion date move by it.

    Args:
        change_order_id: The change order.
        approved_by: A project admin.
    """
    co = ctx.get(ChangeOrder, change_order_id, field="change_order_id")
    project = _live(ctx, co.project_id, "change_order_id")
    if co.status != "pending":
        raise RuleViolation(
            f"change order #{co.number} is {co.status}", field="change_order_id", hint="submit it to the owner first"
        )
    _member(ctx, co.project_id, approved_by, "approved_by", admin=True)
    if project.revised_contract + co.amount < 0:
        raise RuleViolation("the credit exceeds the contract value", field="change_order_id", hint="void it")
    ctx.update(
        project,
        revised_contract=project.revised_contract + co.amount,
        completion_date=project.completion_date + dt.timedelta(days=co.schedule_impact_days),
    )
    return ctx.update(co, status="approved", approved_by=approved_by)


# -- seed -------------------------------------------------------------------------------------

JOBS: tuple[tuple[str, Stage, int], ...] = (
    ("Office Tower Core & Shell", "course_of_construction", 1_850_000_000),
    ("Warehouse Expansion Phase 2", "course_of_construction", 620_000_000),
    ("Medical Office Renovation", "post_construction", 340_000_000),
    ("Elementary School Addition", "pre_construction", 910_000_000),
    ("Retail Pad Site", "bidding", 150_000_000),
    ("Parking Structure Repairs", "closed", 95_000_000),
)


@service.seeder
def seed(s: SeedContext) -> None:
    """Projects in every stage for customer companies; subcontractor contacts; RFIs, submittals, changes, logs."""
    pop = s.population
    pms = pop.staff("Operations", "Engineering", fallback=4)
    owners = list(pop.customers)
    subs = [(p, c) for p in pop.contacts if (c := pop.company_of(p)) is not None][:12]
    today = s.now.date()
    for k, (name, stage, value) in enumerate(JOBS):
        owner = owners[k % len(owners)]
        pm = pms[k % len(pms)]
        start = today - dt.timedelta(days=200 - 30 * k)
        p = s.create(
            Project,
            number=f"{today.year - 1}-{k + 1:03d}",
            name=name,
            owner_company=owner.name,
            city=owner.place.city,
            stage=stage,
            project_manager=pm.email,
            original_contract=value,
            revised_contract=value,
            start_date=start,
            completion_date=start + dt.timedelta(days=420),
            created_at=s.ago(days=260 - 30 * k),
        )
        s.create(Member, project_id=p.id, name=pm.name, email=pm.email, company=pop.home.name, permission="admin")
        crew = [
            s.create(Member, project_id=p.id, name=c.name, email=c.email, company=co.name, permission=perm)
            for j, perm in enumerate(("standard", "standard", "read_only"))
            for c, co in [subs[(2 * k + j) % len(subs)]]
        ]
        if stage in ("course_of_construction", "post_construction", "closed"):
            _seed_work(s, p, pm.email, crew, k)


def _seed_work(s: SeedContext, p: Project, pm: str, crew: list[Member], k: int) -> None:
    closed = p.stage == "closed"
    sub = crew[0]
    for n, (subject, status) in enumerate(
        (("Slab edge embed conflict", "closed"), ("Door hardware set 4", "open"), ("Roof drain location", "draft"))
    ):
        st: Any = "closed" if closed else status
        answered = st == "closed" or (n == 1 and k == 0)
        s.create(
            Rfi,
            project_id=p.id,
            number=n + 1,
            subject=subject,
            question=f"Please clarify: {subject.lower()}.",
            rfi_manager=pm,
            assignee=sub.email,
            ball_in_court=None if st in ("closed", "draft") else (pm if answered else sub.email),
            status=st,
            due_date=s.now.date() + dt.timedelta(days=7 - 10 * n),
            official_answer="Per architect's sketch ASK-12." if answered else None,
            cost_impact=n == 0,
            created_at=s.ago(days=60 - 10 * n),
            updated_at=s.ago(days=20 - 5 * n),
        )
    for n, (title, section, status) in enumerate(
        (
            ("Switchgear product data", "26 24 13", "approved"),
            ("Storefront shop drawings", "08 41 13", "open"),
            ("Concrete mix design", "03 30 00", "revise_and_resubmit"),
            ("Door hardware schedule", "08 71 00", "draft"),
        )
    ):
        stt: Any = "approved" if closed else status
        ball = {"open": pm, "revise_and_resubmit": sub.email}.get(stt)
        s.create(
            Submittal,
            project_id=p.id,
            number=n + 1,
            title=title,
            spec_section=section,
            submitted_by=sub.email,
            approvers=(pm,),
            ball_in_court=ball,
            status=stt,
            created_at=s.ago(days=50 - 8 * n),
            updated_at=s.ago(days=10),
        )
    approved = 0
    for n, (title, reason, frac, status) in enumerate(
        (
            ("Rock removal at footings", "unforeseen_condition", 0.02, "approved"),
            ("Upgrade lobby finishes", "owner_request", 0.01, "pending"),
            ("Delete exterior canopy", "value_engineering", -0.005, "draft"),
        )
    ):
        co_status: Any = "approved" if closed and n == 0 else ("void" if closed else status)
        amount = int(p.original_contract * frac)
        approved += amount if co_status == "approved" else 0
        s.create(
            ChangeOrder,
            project_id=p.id,
            number=n + 1,
            title=title,
            reason=reason,
            amount=amount,
            schedule_impact_days=5 if n == 0 else 0,
            status=co_status,
            approved_by=pm if co_status == "approved" else None,
            created_at=s.ago(days=40 - 10 * n),
        )
    s.update(p, revised_contract=p.original_contract + approved)
