"""Success Hub: customer success for accounts with health scorecards, CTAs and playbooks, success plans, timeline.

Modeled on the Gainsight CS REST API (Company object with ARR, renewal date
and CSM; Scorecard measures with weights and an overall health score and
colour; Cockpit CTAs of type Risk, Expansion, Renewal, Lifecycle or Activity
with priority, reason, status New / Work in Progress / Closed Success / Closed
Lost and playbook tasks; Success Plans with objectives; Timeline activities)
and ChurnZero's renewals-at-risk view. Rules: a measure's score is 0-100 and a
drop of 20 points or more needs a comment; the overall score is the weighted
mean of the measures, green from 70, yellow from 40, red below; an account
going red gets a Risk CTA unless one is open; one open CTA per account, type
and reason; a playbook applies only to CTAs of its type and adds its tasks;
a CTA closes as success only when its tasks are done, and as lost with a
reason; a success plan is activated with at least one objective and completed
when every objective is achieved.
"""

from __future__ import annotations

import datetime as dt
from typing import Annotated, Any, Literal

from pydantic import Field

from compoworld.engine.context import Ctx
from compoworld.engine.entities import Company
from compoworld.engine.errors import Conflict, RuleViolation
from compoworld.engine.service import Service, Transition
from compoworld.engine.state import SeedContext
from compoworld.engine.types import Cents, CompanyName, Currency, Date, DateTime, Domain, Email, IdOf, Text, Title
from compoworld.services.kit.examples import first_example
from compoworld.services.kit.records import Timestamped, Value

__all__ = ["service"]

service = Service(
    "successhub",
    title="Success Hub",
    category="customer_success",
    modeled_on="Gainsight CS REST API (Company, Scorecard measures and health score, Cockpit CTAs with playbooks "
    "and tasks, Success Plans, Timeline activities) and ChurnZero renewals at risk",
    description="Customer success for the company's accounts: health scorecards from usage, support and NPS "
    "measures, calls to action worked through playbook tasks, success plans with objectives, the timeline of "
    "customer touchpoints, and the renewals at risk.",
)

AccountId = Annotated[str, IdOf("successhub.account")]
MeasureId = Annotated[str, IdOf("successhub.measure")]
CtaId = Annotated[str, IdOf("successhub.cta")]
TaskId = Annotated[str, IdOf("successhub.task")]
PlaybookId = Annotated[str, IdOf("successhub.playbook")]
PlanId = Annotated[str, IdOf("successhub.plan")]
ActivityId = Annotated[str, IdOf("successhub.activity")]

Score = Annotated[int, Field(ge=0, le=100)]
Color = Literal["green", "yellow", "red"]
Stage = Literal["onboarding", "adoption", "mature", "renewal", "churned"]
MeasureName = Literal["product_usage", "support_experience", "nps", "engagement", "sponsor_sentiment"]
CtaType = Literal["risk", "expansion", "renewal", "lifecycle", "activity"]
CtaStatus = Literal["new", "work_in_progress", "closed_success", "closed_lost"]
Priority = Literal["low", "medium", "high"]
PlanStatus = Literal["draft", "active", "complete"]
ActivityType = Literal["call", "meeting", "email", "update", "milestone"]
OPEN: tuple[CtaStatus, ...] = ("new", "work_in_progress")
WEIGHTS: dict[str, int] = {
    "product_usage": 35,
    "support_experience": 20,
    "nps": 15,
    "engagement": 20,
    "sponsor_sentiment": 10,
}


class Account(Timestamped):
    """A customer account (Gainsight Company)."""

    id: AccountId
    name: CompanyName
    """Company name."""
    domain: Domain
    """Company domain (unique)."""
    csm_email: Email
    """The customer success manager."""
    arr: Cents
    """Annual recurring revenue in minor units."""
    currency: Currency
    """Currency of the ARR."""
    renewal_date: Date
    """Next renewal date."""
    stage: Stage = "adoption"
    """onboarding, adoption, mature, renewal or churned."""
    health_score: Score = 50
    """Overall health, the weighted mean of the scorecard measures."""
    health_color: Color = "yellow"
    """green (70+), yellow (40-69) or red (below 40)."""


class Measure(Timestamped):
    """One scorecard measure of an account."""

    id: MeasureId
    account_id: AccountId
    """The account."""
    name: MeasureName
    """product_usage, support_experience, nps, engagement or sponsor_sentiment."""
    score: Score
    """Score 0-100."""
    weight: Annotated[int, Field(ge=1, le=100)]
    """Weight in the overall score."""
    comment: Text = ""
    """Why the score is what it is."""


class TaskTemplate(Value):
    """A task a playbook adds to a CTA."""

    title: Title
    """What to do."""
    days_after: Annotated[int, Field(ge=0, le=180)]
    """Due this many days after the CTA is created."""


class Playbook(Timestamped):
    """A reusable set of tasks for CTAs of one type."""

    id: PlaybookId
    name: Title
    """Playbook name."""
    cta_type: CtaType
    """The CTA type it applies to."""
    tasks: tuple[TaskTemplate, ...]
    """The tasks it adds."""


class Cta(Timestamped):
    """A call to action in the Cockpit."""

    id: CtaId
    account_id: AccountId
    """The account."""
    name: Title
    """What needs doing."""
    type: CtaType
    """risk, expansion, renewal, lifecycle or activity."""
    reason: Annotated[str, Field(min_length=2, max_length=80)]
    """Reason (e.g. Low usage, Champion left, Upsell opportunity)."""
    priority: Priority = "medium"
    """low, medium or high."""
    status: CtaStatus = "new"
    """new, work_in_progress, closed_success or closed_lost."""
    owner_email: Email
    """The CSM working it."""
    due_date: Date
    """When it is due."""
    playbook_id: PlaybookId | None = None
    """The playbook applied."""
    closed_reason: Text | None = None
    """Why it closed lost."""
    closed_at: DateTime | None = None
    """When it closed."""


class CtaTask(Timestamped):
    """A task of a CTA."""

    id: TaskId
    cta_id: CtaId
    """The CTA."""
    title: Title
    """What to do."""
    owner_email: Email
    """Who does it."""
    due_date: Date
    """When it is due."""
    done: bool = False
    """Whether it is complete."""


class Objective(Value):
    """An objective of a success plan."""

    title: Title
    """The goal."""
    due_date: Date
    """Target date."""
    achieved: bool = False
    """Whether it was achieved."""


class Plan(Timestamped):
    """A success plan agreed with the customer."""

    id: PlanId
    account_id: AccountId
    """The account."""
    name: Title
    """Plan name."""
    owner_email: Email
    """The CSM."""
    status: PlanStatus = "draft"
    """draft, active or complete."""
    objectives: tuple[Objective, ...] = ()
    """Its objectives."""


class Activity(Timestamped):
    """A timeline activity: a touchpoint with the customer."""

    id: ActivityId
    account_id: AccountId
    """The account."""
    type: ActivityType
    """call, meeting, email, update or milestone."""
    subject: Title
    """Subject."""
    notes: Text = ""
    """Notes."""
    author_email: Email
    """The CSM who logged it."""
    contact_email: Email | None = None
    """The customer contact involved."""
    occurred_at: DateTime
    """When it happened."""


class RenewalRisk(Value):
    """An account renewing soon and at risk."""

    account_id: AccountId
    """The account."""
    name: CompanyName
    """Its name."""
    renewal_date: Date
    """Its renewal date."""
    arr: Cents
    """Its ARR."""
    health_score: Score
    """Its health."""
    health_color: Color
    """Its colour."""
    open_risk_ctas: int
    """Open risk CTAs."""


# -- rules ------------------------------------------------------------------------------------


def _staff(ctx: Ctx, email: str, field: str) -> None:
    if email not in {p.email for p in ctx.population.employees}:
        raise RuleViolation(f"{email} is not a Gainsight user", field=field, hint="use an employee's e-mail")


def _guard_owner(ctx: Ctx, new: Any, old: Any) -> None:
    for field in ("csm_email", "owner_email"):
        if hasattr(new, field):
            _staff(ctx, getattr(new, field), field)


def _guard_plan(ctx: Ctx, new: Any, old: Any) -> None:
    _staff(ctx, new.owner_email, "owner_email")
    if old is not None and new.status != old.status:
        if new.status == "active" and not new.objectives:
            raise RuleViolation("a plan needs an objective", field="plan_id", hint="add one with add_objective first")
        if new.status == "complete" and not all(o.achieved for o in new.objectives):
            raise RuleViolation(
                "every objective must be achieved", field="plan_id", hint="achieve the objectives first"
            )


def _color(score: int) -> Color:
    return "green" if score >= 70 else "yellow" if score >= 40 else "red"


accounts = service.resource(
    Account,
    name="account",
    plural="accounts",
    prefix="acc",
    create=False,
    filters=("csm_email", "stage", "health_color", "domain"),
    search=("name", "domain"),
    update=("csm_email", "stage", "renewal_date", "arr"),
    unique=("domain",),
    delete=False,
    guard_update=_guard_owner,
)
measures = service.resource(
    Measure,
    name="measure",
    plural="measures",
    prefix="msr",
    create=False,
    get=False,
    filters=("account_id", "name"),
    delete=False,
)
playbooks = service.resource(
    Playbook, name="playbook", plural="playbooks", prefix="pb", create=False, filters=("cta_type",), delete=False
)
ctas = service.resource(
    Cta,
    name="cta",
    plural="ctas",
    prefix="cta",
    create=False,
    filters=("account_id", "type", "status", "priority", "owner_email"),
    search=("name", "reason"),
    update=("priority", "due_date", "owner_email"),
    delete=False,
    transitions={"start": Transition("status", ("new",), "work_in_progress", "start working the CTA")},
    guard_update=_guard_owner,
    title="call to action",
)
tasks = service.resource(
    CtaTask,
    name="task",
    plural="tasks",
    prefix="tsk",
    create=False,
    get=False,
    filters=("cta_id", "owner_email", "done"),
    delete=False,
)
plans = service.resource(
    Plan,
    name="plan",
    plural="plans",
    prefix="plan",
    create=("account_id", "name", "owner_email"),
    filters=("account_id", "status", "owner_email"),
    search=("name",),
    update=("name", "owner_email"),
    transitions={
        "activate": Transition("status", ("draft",), "active", "activate the success plan"),
        "complete": Transition("status", ("active",), "complete", "complete the success plan"),
    },
    guard_create=_guard_plan,
    guard_update=_guard_plan,
    title="success plan",
)
activities = service.resource(
    Activity,
    name="activity",
    plural="activities",
    prefix="act",
    create=False,
    get=False,
    filters=("account_id", "type", "author_email"),
    search=("subject", "notes"),
)


# -- domain tools -----------------------------------------------------------------------------


def _example_account(ctx: Ctx) -> dict[str, Any] | None:
    taken = {a.domain for a in ctx.scan(Account)}
    for c in ctx.population.customers:
        if c.domain not in taken:
            return {
                "name": c.name,
                "domain": c.domain,
                "csm_email": ctx.population.employees[0].email,
                "arr": 2_400_000,
                "renewal_date": (ctx.today() + dt.timedelta(days=365)).isoformat(),
            }
    return None


@service.tool(intent="create the customer account", write=True, example=_example_account)
def create_account(
    ctx: Ctx, name: CompanyName, domain: Domain, csm_email: Email, arr: Cents, renewal_date: Date
) -> Account:
    """Add a new customer account in onboarding with a neutral scorecard (every measure at 50).

    Args:
        name: Company name.
        domain: Company domain (unique).
        csm_email: The customer success manager.
        arr: Annual recurring revenue in minor units (home currency).
        renewal_date: First renewal date (in the future).
    """
    _staff(ctx, csm_email, "csm_email")
    if renewal_date <= ctx.today():
        raise RuleViolation("renewal_date must be in the future", field="renewal_date", hint="pick a later date")
    acc = ctx.create(
        Account,
        name=name,
        domain=domain,
        csm_email=csm_email,
        arr=arr,
        stage="onboarding",
        currency=ctx.population.home.place.currency,
        renewal_date=renewal_date,
    )
    for measure, weight in WEIGHTS.items():
        ctx.create(Measure, account_id=acc.id, name=measure, score=50, weight=weight)
    return acc


def _rescore(ctx: Ctx, account: Account) -> Account:
    found = ctx.where(Measure, account_id=account.id)
    total = sum(m.weight for m in found) or 1
    score = round(sum(m.score * m.weight for m in found) / total)
    was = account.health_color
    account = ctx.update(account, health_score=score, health_color=_color(score))
    if account.health_color == "red" and was != "red":
        open_risk = [c for c in ctx.where(Cta, account_id=account.id, type="risk") if c.status in OPEN]
        if not open_risk:
            _open_cta(
                ctx,
                account,
                "Health score dropped to red",
                "risk",
                "Health score red",
                "high",
                account.csm_email,
                ctx.today() + dt.timedelta(days=7),
                None,
            )
    return account


@service.tool(
    intent="score the health measure",
    write=True,
    example=first_example(Measure, "measure_id", where={"name": "nps"}, score=55, comment="Q3 survey results"),
)
def score_measure(ctx: Ctx, measure_id: MeasureId, score: Score, comment: Text = "") -> Account:
    """Set a scorecard measure's score and recompute the account's health; a drop of 20+ points needs a comment.

    When the account turns red and has no open risk CTA, one is opened for its CSM.

    Args:
        measure_id: The measure.
        score: The new score, 0-100.
        comment: Why (required for a drop of 20 points or more).
    """
    m = ctx.get(Measure, measure_id, field="measure_id")
    if m.score - score >= 20 and not comment.strip():
        raise RuleViolation(f"the score drops {m.score - score} points", field="comment", hint="say why it dropped")
    ctx.update(m, score=score, comment=comment.strip() or m.comment)
    return _rescore(ctx, ctx.get(Account, m.account_id))


def _open_cta(
    ctx: Ctx,
    account: Account,
    name: str,
    kind: str,
    reason: str,
    priority: str,
    owner: str,
    due: dt.date,
    playbook_id: str | None,
) -> Cta:
    for c in ctx.where(Cta, account_id=account.id, type=kind):
        if c.status in OPEN and c.reason.lower() == reason.lower():
            raise Conflict(
                f"open {kind} CTA {c.id} already has reason {reason!r}",
                field="reason",
                hint="work the existing CTA instead",
            )
    pb = ctx.get(Playbook, playbook_id, field="playbook_id") if playbook_id is not None else None
    if pb is not None and pb.cta_type != kind:
        raise RuleViolation(
            f"playbook {pb.name!r} is for {pb.cta_type} CTAs", field="playbook_id", hint=f"pick a {kind} playbook"
        )
    cta = ctx.create(
        Cta,
        account_id=account.id,
        name=name,
        type=kind,
        reason=reason,
        priority=priority,
        owner_email=owner,
        due_date=due,
        playbook_id=playbook_id,
    )
    for t in pb.tasks if pb is not None else ():
        ctx.create(
            CtaTask,
            cta_id=cta.id,
            title=t.title,
            owner_email=owner,
            due_date=ctx.today() + dt.timedelta(days=t.days_after),
        )
    return cta


def _example_cta(ctx: Ctx) -> dict[str, Any] | None:
    acc = ctx.first(Account, health_color="green")
    pb = ctx.first(Playbook, cta_type="expansion")
    if acc is None or pb is None:
        return None
    return {
        "account_id": acc.id,
        "name": "Upsell analytics add-on",
        "type": "expansion",
        "reason": "Upsell",
        "owner_email": acc.csm_email,
        "due_date": (ctx.today() + dt.timedelta(days=30)).isoformat(),
        "playbook_id": pb.id,
    }


@service.tool(intent="create the call to action", write=True, example=_example_cta)
def create_cta(
    ctx: Ctx,
    account_id: AccountId,
    name: Title,
    type: CtaType,
    reason: Annotated[str, Field(min_length=2, max_length=80)],
    owner_email: Email,
    due_date: Date,
    priority: Priority = "medium",
    playbook_id: PlaybookId | None = None,
) -> Cta:
    """Open a CTA on an account, optionally applying a playbook of the same type (its tasks are added).

    Args:
        account_id: The account.
        name: What needs doing.
        type: risk, expansion, renewal, lifecycle or activity.
        reason: Why (one open CTA per account, type and reason).
        owner_email: The CSM working it.
        due_date: When it is due (today or later).
        priority: low, medium or high.
        playbook_id: A playbook of the same type.
    """
    account = ctx.get(Account, account_id, field="account_id")
    _staff(ctx, owner_email, "owner_email")
    if due_date < ctx.today():
        raise RuleViolation("due_date is in the past", field="due_date", hint="pick today or later")
    if account.stage == "churned":
        raise RuleViolation(f"{account.name} has churned", field="account_id", hint="reactivate the account first")
    return _open_cta(ctx, account, name, type, reason, priority, owner_email, due_date, playbook_id)


@service.tool(
    intent="complete the CTA task", write=True, example=first_example(CtaTask, "task_id", where={"done": False})
)
def complete_task(ctx: Ctx, task_id: TaskId) -> CtaTask:
    """Complete a CTA task; the CTA moves to work in progress.

    Args:
        task_id: The task.
    """
    task = ctx.get(CtaTask, task_id, field="task_id")
    if task.done:
        raise Conflict("the task is already complete", field="task_id", hint="nothing to do")
    cta = ctx.get(Cta, task.cta_id)
    if cta.status not in OPEN:
        raise RuleViolation(f"the CTA is {cta.status}", field="task_id", hint="its CTA is closed")
    if cta.status == "new":
        ctx.update(cta, status="work_in_progress")
    return ctx.update(task, done=True)


def _example_close(ctx: Ctx) -> dict[str, Any] | None:
    for cta in ctx.where(Cta, status="work_in_progress"):
        if all(t.done for t in ctx.where(CtaTask, cta_id=cta.id)):
            return {"cta_id": cta.id, "outcome": "closed_success"}
    return None


@service.tool(intent="close the call to action", write=True, example=_example_close)
def close_cta(
    ctx: Ctx, cta_id: CtaId, outcome: Literal["closed_success", "closed_lost"], reason: Text | None = None
) -> Cta:
    """Close an open CTA: as success once all its tasks are done, or as lost with a reason.

    Args:
        cta_id: The CTA.
        outcome: closed_success or closed_lost.
        reason: Why it was lost (required for closed_lost).
    """
    cta = ctx.get(Cta, cta_id, field="cta_id")
    if cta.status not in OPEN:
        raise Conflict(f"the CTA is already {cta.status}", field="cta_id", hint="nothing to do")
    if outcome == "closed_success":
        left = [t.title for t in ctx.where(CtaTask, cta_id=cta.id) if not t.done]
        if left:
            raise RuleViolation(
                f"{len(left)} task(s) still open: {left[0]!r}",
                field="cta_id",
                hint="complete the tasks, or close it lost with a reason",
            )
    elif not (reason or "").strip():
        raise RuleViolation("closing lost needs a reason", field="reason", hint="say why it was lost")
    return ctx.update(
        cta, status=outcome, closed_reason=reason if outcome == "closed_lost" else None, closed_at=ctx.now()
    )


def _example_objective(ctx: Ctx) -> dict[str, Any] | None:
    plan = ctx.first(Plan, status="draft")
    due = (ctx.today() + dt.timedelta(days=60)).isoformat()
    return None if plan is None else {"plan_id": plan.id, "title": "Roll out to the EMEA team", "due_date": due}


@service.tool(intent="add an objective to the success plan", write=True, example=_example_objective)
def add_objective(ctx: Ctx, plan_id: PlanId, title: Title, due_date: Date) -> Plan:
    """Add an objective to a draft or active success plan (titles are unique within the plan).

    Args:
        plan_id: The plan.
        title: The goal.
        due_date: Target date (today or later).
    """
    plan = ctx.get(Plan, plan_id, field="plan_id")
    if plan.status == "complete":
        raise RuleViolation("the plan is complete", field="plan_id", hint="start a new plan")
    if any(o.title.lower() == title.lower() for o in plan.objectives):
        raise Conflict(f"the plan already has objective {title!r}", field="title", hint="pick another title")
    if due_date < ctx.today():
        raise RuleViolation("due_date is in the past", field="due_date", hint="pick today or later")
    return ctx.update(plan, objectives=(*plan.objectives, Objective(title=title, due_date=due_date)))


def _example_achieve(ctx: Ctx) -> dict[str, Any] | None:
    for plan in ctx.where(Plan, status="active"):
        for o in plan.objectives:
            if not o.achieved:
                return {"plan_id": plan.id, "title": o.title}
    return None


@service.tool(intent="mark the objective achieved", write=True, example=_example_achieve)
def achieve_objective(ctx: Ctx, plan_id: PlanId, title: Title) -> Plan:
    """Mark an objective of an active plan achieved.

    Args:
        plan_id: The plan.
        title: The objective's title.
    """
    plan = ctx.get(Plan, plan_id, field="plan_id")
    if plan.status != "active":
        raise RuleViolation(f"the plan is {plan.status}", field="plan_id", hint="activate the plan first")
    found = [o for o in plan.objectives if o.title.lower() == title.lower()]
    if not found:
        raise RuleViolation(f"no objective {title!r}", field="title", hint="use a title from the plan's objectives")
    if found[0].achieved:
        raise Conflict(f"{title!r} is already achieved", field="title", hint="nothing to do")
    done = [o.model_copy(update={"achieved": True}) if o is found[0] else o for o in plan.objectives]
    return ctx.update(plan, objectives=tuple(done))


def _example_activity(ctx: Ctx) -> dict[str, Any] | None:
    acc = ctx.first(Account)
    return (
        None
        if acc is None
        else {
            "account_id": acc.id,
            "type": "call",
            "subject": "Quarterly check-in",
            "author_email": acc.csm_email,
            "notes": "Usage is up 10%.",
        }
    )


@service.tool(intent="log the activity on the account's timeline", write=True, example=_example_activity)
def log_activity(
    ctx: Ctx,
    account_id: AccountId,
    type: ActivityType,
    subject: Title,
    author_email: Email,
    notes: Text = "",
    contact_email: Email | None = None,
    occurred_at: DateTime | None = None,
) -> Activity:
    """Log a touchpoint on an account's timeline (not in the future); a milestone needs notes.

    Args:
        account_id: The account.
        type: call, meeting, email, update or milestone.
        subject: Subject.
        author_email: The CSM logging it.
        notes: Notes (required for a milestone).
        contact_email: The customer contact involved (at the account's domain).
        occurred_at: When it happened (default: now).
    """
    acc = ctx.get(Account, account_id, field="account_id")
    _staff(ctx, author_email, "author_email")
    when = occurred_at or ctx.now()
    if when > ctx.now():
        raise RuleViolation("an activity cannot be in the future", field="occurred_at", hint="log it once it happened")
    if contact_email is not None and contact_email.split("@")[1] != acc.domain:
        raise RuleViolation(
            f"{contact_email} is not at {acc.domain}", field="contact_email", hint="use a contact of the account"
        )
    if type == "milestone" and not notes.strip():
        raise RuleViolation("a milestone needs notes", field="notes", hint="describe the milestone")
    return ctx.create(
        Activity,
        account_id=acc.id,
        type=type,
        subject=subject,
        notes=notes,
        author_email=author_email,
        contact_email=contact_email,
        occurred_at=when,
    )


@service.tool(intent="list the renewals at risk", example=lambda ctx: {"within_days": 120})
def renewals_at_risk(ctx: Ctx, within_days: Annotated[int, Field(ge=1, le=730)] = 90) -> list[RenewalRisk]:
    """Accounts renewing within a number of days that are red or yellow or have an open risk CTA, soonest first.

    Args:
        within_days: The horizon in days.
    """
    end = ctx.today() + dt.timedelta(days=within_days)
    out = []
    for acc in ctx.scan(Account):
        if acc.stage == "churned" or not ctx.today() <= acc.renewal_date <= end:
            continue
        risks = sum(c.status in OPEN for c in ctx.where(Cta, account_id=acc.id, type="risk"))
        if acc.health_color != "green" or risks:
            out.append(
                RenewalRisk(
                    account_id=acc.id,
                    name=acc.name,
                    renewal_date=acc.renewal_date,
                    arr=acc.arr,
                    health_score=acc.health_score,
                    health_color=acc.health_color,
                    open_risk_ctas=risks,
                )
            )
    return sorted(out, key=lambda r: (r.renewal_date, r.account_id))


# -- seed -------------------------------------------------------------------------------------

PLAYBOOKS: tuple[tuple[str, CtaType, tuple[tuple[str, int], ...]], ...] = (
    (
        "Low usage recovery",
        "risk",
        (("Review usage dashboard", 0), ("Call the champion", 2), ("Run enablement session", 10)),
    ),
    (
        "Renewal 90 days out",
        "renewal",
        (("Confirm decision maker", 0), ("Send renewal quote", 14), ("Sign renewal", 60)),
    ),
    ("Expansion discovery", "expansion", (("Map new teams", 0), ("Demo add-on", 7))),
    ("Onboarding kickoff", "lifecycle", (("Kickoff call", 0), ("Admin training", 5), ("First value check", 30))),
)
SHAPES: tuple[tuple[int, int, int, int, int], ...] = (
    (85, 80, 70, 75, 90),
    (60, 55, 40, 50, 60),
    (25, 30, 20, 35, 40),
    (90, 70, 80, 85, 80),
    (45, 60, 30, 40, 35),
)


@service.seeder
def seed(s: SeedContext) -> None:
    """CSMs' accounts from customer companies with scorecards, playbooks, CTAs, success plans and a timeline."""
    pop = s.population
    csms = pop.staff("Support", fallback=3)
    books: dict[str, Playbook] = {
        kind: s.create(
            Playbook,
            name=name,
            cta_type=kind,
            created_at=s.ago(days=300),
            updated_at=s.ago(days=300),
            tasks=tuple(TaskTemplate(title=t, days_after=d) for t, d in rows),
        )
        for name, kind, rows in PLAYBOOKS
    }
    for k, c in enumerate(pop.customers[:16]):
        _seed_account(s, k, c, csms[k % len(csms)].email, books)


def _seed_account(s: SeedContext, k: int, c: Company, csm: str, books: dict[str, Playbook]) -> None:
    shape = SHAPES[k % len(SHAPES)]
    score = round(sum(v * w for v, w in zip(shape, WEIGHTS.values(), strict=True)) / sum(WEIGHTS.values()))
    stage: Stage = ("onboarding", "adoption", "mature", "renewal")[k % 4] if k != 15 else "churned"
    acc = s.create(
        Account,
        name=c.name,
        domain=c.domain,
        csm_email=csm,
        arr=(12 + 7 * k) * 100_000,
        currency=s.population.home.place.currency,
        renewal_date=(s.now + dt.timedelta(days=20 + 23 * k)).date(),
        stage=stage,
        health_score=score,
        health_color=_color(score),
        created_at=s.ago(days=400 - 10 * k),
        updated_at=s.ago(days=k % 7),
    )
    for (name, weight), value in zip(WEIGHTS.items(), shape, strict=True):
        s.create(
            Measure,
            account_id=acc.id,
            name=name,
            score=value,
            weight=weight,
            created_at=s.ago(days=200),
            updated_at=s.ago(days=3 + k % 5),
        )
    if acc.health_color == "red":
        _seed_cta(s, acc, "Health score dropped to red", "risk", "Health score red", books["risk"], 1)
    if k % 4 == 3:
        _seed_cta(s, acc, "Renewal in the next quarter", "renewal", "Upcoming renewal", books["renewal"], k // 4 % 2)
    if k % 5 == 0:
        _seed_cta(s, acc, "Add analytics seats", "expansion", "Upsell", books["expansion"], 2, status="closed_success")
    if stage in ("onboarding", "adoption"):
        objectives = (
            Objective(title="Admins trained", due_date=(s.now + dt.timedelta(days=20)).date(), achieved=k % 2 == 0),
            Objective(
                title="80% weekly active users", due_date=(s.now + dt.timedelta(days=90)).date(), achieved=k % 4 == 0
            ),
        )
        s.create(
            Plan,
            account_id=acc.id,
            name=f"{c.name} adoption plan",
            owner_email=csm,
            status="active" if k % 3 else "draft",
            objectives=objectives,
            created_at=s.ago(days=40),
            updated_at=s.ago(days=4),
        )
    contact = s.population.first_contact(c)
    for j, (kind, subject) in enumerate((("meeting", "Quarterly business review"), ("email", "Release notes sent"))):
        s.create(
            Activity,
            account_id=acc.id,
            type=kind,
            subject=subject,
            author_email=csm,
            contact_email=contact.email if contact else None,
            occurred_at=s.ago(days=10 + 30 * j + k),
            notes="Discussed adoption and roadmap." if j == 0 else "",
            created_at=s.ago(days=10 + 30 * j + k),
            updated_at=s.ago(days=10 + 30 * j + k),
        )


def _seed_cta(
    s: SeedContext,
    acc: Account,
    name: str,
    kind: CtaType,
    reason: str,
    book: Playbook,
    done: int,
    status: CtaStatus | None = None,
) -> None:
    closed = status is not None and status not in OPEN
    final: CtaStatus = status or ("work_in_progress" if done else "new")
    cta = s.create(
        Cta,
        account_id=acc.id,
        name=name,
        type=kind,
        reason=reason,
        priority="high" if kind == "risk" else "medium",
        status=final,
        owner_email=acc.csm_email,
        due_date=(s.now + dt.timedelta(days=14)).date(),
        playbook_id=book.id,
        closed_at=s.ago(days=5) if closed else None,
        created_at=s.ago(days=20),
        updated_at=s.ago(days=2),
    )
    for j, t in enumerate(book.tasks):
        s.create(
            CtaTask,
            cta_id=cta.id,
            title=t.title,
            owner_email=acc.csm_email,
            done=closed or j < done,
            due_date=(s.now + dt.timedelta(days=t.days_after - 20)).date(),
            created_at=s.ago(days=20),
            updated_at=s.ago(days=2),
        )
