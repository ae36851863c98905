"""Recertify: user access reviews over the company's applications, decisions, revocations and sign-off.

Modeled on the ConductorOne API (apps with owners, app entitlements with a
privileged flag, app users and their grants; access review campaigns in
draft, active, completed or canceled; review tasks with approve/deny
decisions, reassignment, and revocation tasks for provisioning) and Vanta
access reviews (a review over several apps, reviewers, sign-off by the
review owner). Launching a campaign snapshots every active grant of its apps
into review items, each given to a reviewer: the user's manager or the app's
owner, never the user themselves. Only the assigned reviewer decides an item;
revoking needs a comment, and so does keeping a privileged entitlement.
Decisions may change until the owner signs off, which needs every item
decided and opens a revocation task (for the app owner) per revoke decision;
completing the task revokes the grant.
"""

from __future__ import annotations

import datetime as dt
from typing import Annotated, Any, Literal

from pydantic import StringConstraints

from compoworld.engine.context import Ctx
from compoworld.engine.errors import Conflict, RuleViolation
from compoworld.engine.records import CREATED, UPDATED, Record
from compoworld.engine.service import Service, Transition
from compoworld.engine.state import SeedContext
from compoworld.engine.types import Date, DateTime, Email, IdOf, Title
from compoworld.services.kit.examples import first_example
from compoworld.services.kit.records import Value
from compoworld.world.org import org_chart

__all__ = ["service"]

service = Service(
    "accessreviews",
    title="Recertify",
    category="access_reviews",
    modeled_on="ConductorOne API (apps, app entitlements, app users and grants, access review campaigns, review "
    "tasks with approve/deny/reassign, revocation tasks) and Vanta access reviews (sign-off)",
    description="User access reviews: the company's applications with owners, their entitlements and who holds "
    "them, review campaigns that ask managers and app owners to keep or revoke each grant, revocation tasks for "
    "what was revoked, and the owner's sign-off that completes the review for auditors.",
)

AppId = Annotated[str, IdOf("accessreviews.app")]
EntitlementId = Annotated[str, IdOf("accessreviews.entitlement")]
GrantId = Annotated[str, IdOf("accessreviews.grant")]
CampaignId = Annotated[str, IdOf("accessreviews.campaign")]
ItemId = Annotated[str, IdOf("accessreviews.review_item")]
TaskId = Annotated[str, IdOf("accessreviews.revocation_task")]

Username = Annotated[str, StringConstraints(pattern=r"^[a-z0-9._-]{2,64}$")]
"""The account's user name in the app."""

Risk = Literal["low", "medium", "high"]
CampaignStatus = Literal["draft", "active", "completed", "canceled"]
ReviewerMode = Literal["manager", "app_owner"]
Decision = Literal["pending", "keep", "revoke"]
GrantStatus = Literal["active", "revoked"]
TaskStatus = Literal["open", "done"]


class App(Record):
    """An application whose access is reviewed."""

    id: AppId
    name: Title
    """The app's name (unique)."""
    owner_email: Email
    """The employee who owns it and carries out revocations."""
    risk: Risk = "medium"
    """low, medium or high."""
    created_at: Annotated[DateTime, CREATED]
    """When it was connected."""


class Entitlement(Record):
    """A permission or role within an app."""

    id: EntitlementId
    app_id: AppId
    """The app."""
    name: Title
    """Its name (unique within the app)."""
    privileged: bool = False
    """Admin-level access: keeping it needs a justification."""


class Grant(Record):
    """A user's account holding one entitlement in one app."""

    id: GrantId
    app_id: AppId
    """The app."""
    entitlement_id: EntitlementId
    """The entitlement."""
    user_email: Email
    """The employee who holds it."""
    username: Username
    """Their account name in the app."""
    status: GrantStatus = "active"
    """active or revoked."""
    last_used: DateTime | None = None
    """When the account last signed in."""
    granted_at: DateTime
    """When it was granted."""
    revoked_at: DateTime | None = None
    """When it was revoked."""


class Campaign(Record):
    """An access review campaign over some apps."""

    id: CampaignId
    name: Title
    """Its name (e.g. Q4 2026 SOX access review)."""
    app_ids: tuple[AppId, ...]
    """The apps under review."""
    owner_email: Email
    """The employee who runs it and signs off."""
    reviewer_mode: ReviewerMode = "manager"
    """manager (each user's manager reviews) or app_owner."""
    status: CampaignStatus = "draft"
    """draft, active, completed or canceled."""
    due_date: Date
    """When reviewers must be done."""
    launched_at: DateTime | None = None
    """When it was launched."""
    signed_off_at: DateTime | None = None
    """When the owner signed it off."""
    created_at: Annotated[DateTime, CREATED]
    """When it was made."""
    updated_at: Annotated[DateTime, UPDATED]
    """When it last changed."""


class ReviewItem(Record):
    """One grant to keep or revoke, assigned to a reviewer."""

    id: ItemId
    campaign_id: CampaignId
    """The campaign."""
    grant_id: GrantId
    """The grant under review."""
    app_id: AppId
    """Its app."""
    user_email: Email
    """Who holds the grant."""
    entitlement: Title
    """The entitlement's name."""
    privileged: bool = False
    """Whether the entitlement is privileged."""
    reviewer_email: Email
    """Who must decide."""
    decision: Decision = "pending"
    """pending, keep or revoke."""
    comment: str = ""
    """The reviewer's justification."""
    decided_at: DateTime | None = None
    """When it was decided."""


class RevocationTask(Record):
    """A task for the app owner to remove a revoked grant."""

    id: TaskId
    campaign_id: CampaignId
    """The campaign that revoked it."""
    review_item_id: ItemId
    """The decision behind it."""
    grant_id: GrantId
    """The grant to remove."""
    assignee_email: Email
    """The app owner."""
    status: TaskStatus = "open"
    """open or done."""
    completed_at: DateTime | None = None
    """When it was done."""
    created_at: Annotated[DateTime, CREATED]
    """When it was opened."""


class Progress(Value):
    """Where a campaign stands."""

    campaign_id: CampaignId
    """The campaign."""
    status: CampaignStatus
    """Its status."""
    total: int
    """Review items."""
    pending: int
    """Items not decided."""
    kept: int
    """Items kept."""
    revoked: int
    """Items revoked."""
    pending_by_reviewer: dict[str, int]
    """Undecided items per reviewer e-mail."""


# -- rules ------------------------------------------------------------------------------------


def _staff(ctx: Ctx, email: str | None, field: str) -> None:
    if email is not None and email not in {p.email for p in ctx.population.employees}:
        raise RuleViolation(f"{email} is not in the directory", field=field, hint="use an employee's e-mail")


def _guard_app(ctx: Ctx, new: Any, old: Any) -> None:
    if new is None:
        if ctx.where(Grant, app_id=old.id, status="active"):
            raise Conflict(f"app {old.name!r} still has active grants", field="app_id", hint="revoke them first")
        for c in ctx.scan(Campaign):
            if old.id in c.app_ids and c.status in ("draft", "active"):
                raise Conflict(f"campaign {c.id} reviews {old.name!r}", field="app_id", hint="finish or cancel it")
        return
    _staff(ctx, new.owner_email, "owner_email")
    for a in ctx.where(App, name=new.name):
        if a.id != new.id:
            raise Conflict(f"an app named {new.name!r} exists", field="name", hint="pick another name")


def _guard_entitlement(ctx: Ctx, new: Any, old: Any) -> None:
    for e in ctx.where(Entitlement, app_id=new.app_id, name=new.name):
        if e.id != new.id:
            raise Conflict(f"the app already has {new.name!r}", field="name", hint="pick another name")


def _guard_campaign(ctx: Ctx, new: Any, old: Any) -> None:
    if new is None:
        if old.status != "draft":
            raise Conflict(f"campaign is {old.status}", field="campaign_id", hint="only drafts are deleted; cancel it")
        return
    if old is not None and old.status in ("completed", "canceled"):
        raise Conflict(f"campaign is {old.status}", field="campaign_id", hint="it can no longer change")
    if old is None or old.status == "draft":
        if not new.app_ids or len(set(new.app_ids)) != len(new.app_ids):
            raise RuleViolation("list one or more distinct apps", field="app_ids", hint="name each app once")
        for a in new.app_ids:
            ctx.get(App, a, field="app_ids")
        if new.due_date <= ctx.today():
            raise RuleViolation("the due date must be after today", field="due_date", hint="pick a future date")
        _staff(ctx, new.owner_email, "owner_email")
    elif old is not None and new.status == old.status and new.app_ids != old.app_ids:
        raise Conflict("apps change only while a draft", field="app_ids", hint="start another campaign")


apps = service.resource(
    App,
    name="app",
    plural="apps",
    prefix="app",
    create=("name", "owner_email", "risk"),
    filters=("owner_email", "risk", "name"),
    search=("name",),
    update=("name", "owner_email", "risk"),
    guard_create=_guard_app,
    guard_update=_guard_app,
    guard_delete=_guard_app,
)
entitlements = service.resource(
    Entitlement,
    name="entitlement",
    plural="entitlements",
    prefix="ent",
    create=("app_id", "name", "privileged"),
    get=False,
    filters=("app_id", "privileged"),
    search=("name",),
    delete=False,
    guard_create=_guard_entitlement,
)
grants = service.resource(
    Grant,
    name="grant",
    plural="grants",
    prefix="gr",
    create=False,
    filters=("app_id", "entitlement_id", "user_email", "status", "username"),
    search=("username",),
    delete=False,
)
campaigns = service.resource(
    Campaign,
    name="campaign",
    plural="campaigns",
    prefix="cmp",
    create=("name", "app_ids", "owner_email", "reviewer_mode", "due_date"),
    filters=("status", "owner_email", "reviewer_mode"),
    search=("name",),
    update=("name", "due_date", "app_ids", "reviewer_mode"),
    transitions={
        "cancel": Transition(
            "status",
            ("draft", "active"),
            "canceled",
            "cancel the access review",
            description="Cancel a draft or active campaign; its decisions are not carried out.",
            destructive=True,
        ),
    },
    guard_create=_guard_campaign,
    guard_update=_guard_campaign,
    guard_delete=_guard_campaign,
    title="access review campaign",
)
items = service.resource(
    ReviewItem,
    name="review_item",
    plural="review_items",
    prefix="ri",
    create=False,
    filters=("campaign_id", "reviewer_email", "decision", "user_email", "app_id", "privileged"),
    delete=False,
)
tasks = service.resource(
    RevocationTask,
    name="revocation_task",
    plural="revocation_tasks",
    prefix="rt",
    create=False,
    get=False,
    filters=("campaign_id", "assignee_email", "status", "grant_id"),
    delete=False,
)


# -- domain tools -----------------------------------------------------------------------------


def _example_grant(ctx: Ctx) -> dict[str, Any] | None:
    for e in ctx.scan(Entitlement):
        held = {g.user_email for g in ctx.where(Grant, entitlement_id=e.id)}
        for p in ctx.population.employees:
            if p.email not in held:
                return {"entitlement_id": e.id, "user_email": p.email}
    return None


@service.tool(intent="grant the entitlement to the user", write=True, example=_example_grant)
def grant_access(ctx: Ctx, entitlement_id: EntitlementId, user_email: Email) -> Grant:
    """Give an employee an entitlement in an app (their account name is taken from their e-mail).

    Args:
        entitlement_id: The entitlement.
        user_email: The employee.
    """
    e = ctx.get(Entitlement, entitlement_id, field="entitlement_id")
    _staff(ctx, user_email, "user_email")
    if ctx.where(Grant, entitlement_id=e.id, user_email=user_email, status="active"):
        raise Conflict(f"{user_email} already holds {e.name!r}", field="user_email", hint="nothing to do")
    return ctx.create(
        Grant,
        app_id=e.app_id,
        entitlement_id=e.id,
        user_email=user_email,
        username=user_email.split("@")[0].lower(),
        granted_at=ctx.now(),
    )


def _reviewer(ctx: Ctx, campaign: Campaign, app: App, user_email: str) -> str:
    if campaign.reviewer_mode == "manager":
        person = next((p for p in ctx.population.employees if p.email == user_email), None)
        boss = org_chart(ctx.population.employees).manager_of(person) if person is not None else None
        if boss is not None and boss.email != user_email:
            return boss.email
    if app.owner_email != user_email:
        return app.owner_email
    return campaign.owner_email


@service.tool(
    intent="launch the access review",
    write=True,
    example=first_example(Campaign, "campaign_id", where={"status": "draft"}),
)
def launch_campaign(ctx: Ctx, campaign_id: CampaignId) -> Campaign:
    """Launch a draft campaign: every active grant of its apps becomes a review item for a reviewer.

    Args:
        campaign_id: The draft campaign.
    """
    c = ctx.get(Campaign, campaign_id, field="campaign_id")
    if c.status != "draft":
        raise Conflict(f"campaign {c.id} is {c.status}", field="campaign_id", hint="only drafts are launched")
    if c.due_date <= ctx.today():
        raise RuleViolation("the due date has passed", field="campaign_id", hint="move due_date later first")
    made = 0
    for app_id in c.app_ids:
        app = ctx.get(App, app_id)
        for g in ctx.where(Grant, app_id=app.id, status="active"):
            e = ctx.get(Entitlement, g.entitlement_id)
            ctx.create(
                ReviewItem,
                campaign_id=c.id,
                grant_id=g.id,
                app_id=app.id,
                user_email=g.user_email,
                entitlement=e.name,
                privileged=e.privileged,
                reviewer_email=_reviewer(ctx, c, app, g.user_email),
            )
            made += 1
    if not made:
        raise RuleViolation("its apps have no active grants", field="campaign_id", hint="add apps with users")
    return ctx.update(c, status="active", launched_at=ctx.now())


def _open_item(ctx: Ctx, item_id: str) -> ReviewItem:
    item = ctx.get(ReviewItem, item_id, field="item_id")
    c = ctx.get(Campaign, item.campaign_id)
    if c.status != "active":
        raise Conflict(f"campaign {c.id} is {c.status}", field="item_id", hint="only active reviews take decisions")
    return item


def _example_decide(ctx: Ctx) -> dict[str, Any] | None:
    for item in ctx.where(ReviewItem, decision="pending"):
        if ctx.get(Campaign, item.campaign_id).status == "active":
            return {
                "item_id": item.id,
                "decision": "revoke",
                "reviewer_email": item.reviewer_email,
                "comment": "No longer needs this access.",
            }
    return None


@service.tool(intent="decide the review item", write=True, example=_example_decide)
def decide_item(
    ctx: Ctx, item_id: ItemId, decision: Literal["keep", "revoke"], reviewer_email: Email, comment: str = ""
) -> ReviewItem:
    """Keep or revoke a grant; only its reviewer decides, and may change it until sign-off.

    Args:
        item_id: The review item.
        decision: keep or revoke.
        reviewer_email: The assigned reviewer.
        comment: Justification: required to revoke and to keep a privileged entitlement.
    """
    item = _open_item(ctx, item_id)
    if reviewer_email != item.reviewer_email:
        raise RuleViolation(
            f"{item.id} is assigned to {item.reviewer_email}",
            field="reviewer_email",
            hint="decide as the assigned reviewer, or reassign the item",
        )
    if not comment.strip() and (decision == "revoke" or item.privileged):
        why = "revoking" if decision == "revoke" else "keeping privileged access"
        raise RuleViolation(f"{why} needs a comment", field="comment", hint="say why")
    return ctx.update(item, decision=decision, comment=comment.strip(), decided_at=ctx.now())


def _example_reassign(ctx: Ctx) -> dict[str, Any] | None:
    ex = _example_decide(ctx)
    if ex is None:
        return None
    item = ctx.get(ReviewItem, ex["item_id"])
    to = next(p.email for p in ctx.population.employees if p.email not in (item.user_email, item.reviewer_email))
    return {"item_id": item.id, "reviewer_email": to}


@service.tool(intent="reassign the review item", write=True, example=_example_reassign)
def reassign_item(ctx: Ctx, item_id: ItemId, reviewer_email: Email) -> ReviewItem:
    """Give a pending item to another reviewer (never the user under review).

    Args:
        item_id: The review item.
        reviewer_email: The new reviewer.
    """
    item = _open_item(ctx, item_id)
    _staff(ctx, reviewer_email, "reviewer_email")
    if item.decision != "pending":
        raise Conflict(f"{item.id} is already decided", field="item_id", hint="only pending items move")
    if reviewer_email == item.user_email:
        raise RuleViolation("nobody reviews their own access", field="reviewer_email", hint="pick someone else")
    if reviewer_email == item.reviewer_email:
        raise Conflict(f"{item.id} is already theirs", field="reviewer_email", hint="nothing to do")
    return ctx.update(item, reviewer_email=reviewer_email)


def _example_signoff(ctx: Ctx) -> dict[str, Any] | None:
    for c in ctx.where(Campaign, status="active"):
        if not ctx.where(ReviewItem, campaign_id=c.id, decision="pending"):
            return {"campaign_id": c.id, "signed_off_by": c.owner_email}
    return None


@service.tool(intent="sign off the access review", write=True, example=_example_signoff)
def sign_off_campaign(ctx: Ctx, campaign_id: CampaignId, signed_off_by: Email) -> Campaign:
    """Complete an active campaign once every item is decided; each revoke opens a revocation task.

    Args:
        campaign_id: The active campaign.
        signed_off_by: The campaign's owner.
    """
    c = ctx.get(Campaign, campaign_id, field="campaign_id")
    if c.status != "active":
        raise Conflict(f"campaign {c.id} is {c.status}", field="campaign_id", hint="only active reviews sign off")
    if signed_off_by != c.owner_email:
        raise RuleViolation(f"only the owner {c.owner_email} signs off", field="signed_off_by", hint="ask the owner")
    found = ctx.where(ReviewItem, campaign_id=c.id)
    pending = [i for i in found if i.decision == "pending"]
    if pending:
        raise RuleViolation(
            f"{len(pending)} items are still pending",
            field="campaign_id",
            hint="decide them or see campaign_progress",
        )
    for i in found:
        if i.decision == "revoke":
            owner = ctx.get(App, i.app_id).owner_email
            ctx.create(RevocationTask, campaign_id=c.id, review_item_id=i.id, grant_id=i.grant_id, assignee_email=owner)
    return ctx.update(c, status="completed", signed_off_at=ctx.now())


@service.tool(
    intent="complete the revocation task",
    write=True,
    example=first_example(
        RevocationTask, "task_id", where={"status": "open"}, fields={"completed_by": "assignee_email"}
    ),
)
def complete_revocation(ctx: Ctx, task_id: TaskId, completed_by: Email) -> RevocationTask:
    """Mark a revocation done: the grant is revoked in the app.

    Args:
        task_id: The open task.
        completed_by: Its assignee (the app owner).
    """
    t = ctx.get(RevocationTask, task_id, field="task_id")
    if t.status != "open":
        raise Conflict(f"task {t.id} is already done", field="task_id", hint="nothing to do")
    if completed_by != t.assignee_email:
        raise RuleViolation(f"task {t.id} is for {t.assignee_email}", field="completed_by", hint="ask the assignee")
    g = ctx.get(Grant, t.grant_id)
    if g.status == "active":
        ctx.update(g, status="revoked", revoked_at=ctx.now())
    return ctx.update(t, status="done", completed_at=ctx.now())


@service.tool(intent="show the access review's progress", example=first_example(Campaign, "campaign_id"))
def campaign_progress(ctx: Ctx, campaign_id: CampaignId) -> Progress:
    """How many items are pending, kept and revoked, and who still has to decide.

    Args:
        campaign_id: The campaign.
    """
    c = ctx.get(Campaign, campaign_id, field="campaign_id")
    found = ctx.where(ReviewItem, campaign_id=c.id)
    by: dict[str, int] = {}
    for i in found:
        if i.decision == "pending":
            by[i.reviewer_email] = by.get(i.reviewer_email, 0) + 1
    return Progress(
        campaign_id=c.id,
        status=c.status,
        total=len(found),
        pending=sum(i.decision == "pending" for i in found),
        kept=sum(i.decision == "keep" for i in found),
        revoked=sum(i.decision == "revoke" for i in found),
        pending_by_reviewer=by,
    )


# -- seed -------------------------------------------------------------------------------------

APPS: tuple[tuple[str, str, Risk, tuple[tuple[str, bool], ...]], ...] = (
    ("Code Host", "Engineering", "high", (("Member", False), ("Owner", True))),
    ("CRM", "Sales", "medium", (("Sales User", False), ("System Administrator", True))),
    ("Books", "Finance", "high", (("Viewer", False), ("Accountant", False), ("Admin", True))),
    ("HR Portal", "People", "high", (("Self-service", False), ("HR Admin", True))),
    ("Monitoring", "Engineering", "low", (("Read only", False), ("Editor", False))),
    ("Legacy Wiki", "Operations", "low", (("Reader", False),)),
)


STAGES: dict[str, CampaignStatus] = {"draft": "draft", "half": "active", "ready": "active", "completed": "completed"}


@service.seeder
def seed(s: SeedContext) -> None:
    """Apps owned by department heads, entitlements and grants, and campaigns in every state."""
    pop = s.population
    emps = list(pop.employees)
    chart = org_chart(emps)
    made: list[App] = []
    for k, (name, dept, risk, ents) in enumerate(APPS):
        head = chart.heads.get(dept, chart.top)
        app = s.create(App, name=name, owner_email=head.email, risk=risk, created_at=s.ago(days=700 - 30 * k))
        made.append(app)
        team = [p for p in emps if p.department == dept]
        others = [p for p in emps if p.department != dept][k::9]
        for j, (ename, priv) in enumerate(ents):
            e = s.create(Entitlement, app_id=app.id, name=ename, privileged=priv)
            holders = team[:2] if priv else (team + others if j == 0 else team[2::3])
            if name == "Legacy Wiki":  # retired: every account already removed
                holders = []
            for p in holders:
                s.create(
                    Grant,
                    app_id=app.id,
                    entitlement_id=e.id,
                    user_email=p.email,
                    username=p.email.split("@")[0].lower(),
                    last_used=s.ago(days=(len(p.key) * 7 + j * 13) % 120),
                    granted_at=s.ago(days=400 - j * 20),
                )
    owner = next((p for p in emps if p.department == "Finance"), emps[0]).email
    today = s.now.date()
    for name, app_ids, stage, due in (
        ("Q1 privileged access review", (made[0].id, made[3].id), "draft", 45),
        ("Q4 SOX access review", (made[0].id, made[1].id), "half", 14),
        ("Monitoring tools review", (made[4].id,), "ready", 7),
        ("Q3 SOX access review", (made[2].id, made[3].id), "completed", -40),
    ):
        status = STAGES[stage]
        c = s.create(
            Campaign,
            name=name,
            app_ids=app_ids,
            owner_email=owner,
            status=status,
            due_date=today + dt.timedelta(days=due),
            launched_at=s.ago(days=60) if status != "draft" else None,
            signed_off_at=s.ago(days=35) if status == "completed" else None,
            created_at=s.ago(days=70),
            updated_at=s.ago(days=35),
        )
        if status != "draft":
            _seed_items(s, c, made, decided=stage != "half", signed=stage == "completed")


def _seed_items(s: SeedContext, c: Campaign, made: list[App], *, decided: bool, signed: bool) -> None:
    """Review items of a launched campaign: half decided, all decided, or signed off with two revocations."""
    chart = org_chart(list(s.population.employees))
    ents = {e.id: e for e in s.records(Entitlement)}
    by_email = {p.email: p for p in s.population.employees}
    n = 0
    for app in made:
        if app.id not in c.app_ids:
            continue
        for g in s.records(Grant):
            if g.app_id != app.id:
                continue
            boss = chart.manager_of(by_email[g.user_email])
            reviewer = boss.email if boss is not None and boss.email != g.user_email else c.owner_email
            revoke = signed and n in (1, 2)
            e = ents[g.entitlement_id]
            done = decided or n % 2 == 0
            item = s.create(
                ReviewItem,
                campaign_id=c.id,
                grant_id=g.id,
                app_id=app.id,
                user_email=g.user_email,
                entitlement=e.name,
                privileged=e.privileged,
                reviewer_email=reviewer,
                decision=("revoke" if revoke else "keep") if done else "pending",
                comment="Left the project." if revoke else ("Still on the team." if done else ""),
                decided_at=s.ago(days=40) if done else None,
            )
            if revoke:
                s.create(
                    RevocationTask,
                    campaign_id=c.id,
                    review_item_id=item.id,
                    grant_id=g.id,
                    assignee_email=app.owner_email,
                    status="done" if n == 1 else "open",
                    completed_at=s.ago(days=33) if n == 1 else None,
                    created_at=s.ago(days=35),
                )
                if n == 1:
                    s.update(g, status="revoked", revoked_at=s.ago(days=33))
            n += 1
