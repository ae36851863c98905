"""Lighthouse Awareness: security awareness training campaigns and simulated phishing for the company's staff.

Modeled on KnowBe4's APIs (Reporting API v1: users, groups, training campaigns
and enrollments, phishing security tests and their recipients; the User
Event API for reported events). Users are the home company's staff; archived
users join nothing. Groups have unique names. A training campaign enrolls the
active members of its groups when it starts (it needs at least one), and only
a started campaign takes completions: a score at or above the module's passing
score passes the enrollment, a lower one counts as an attempt; closing the
campaign marks every unfinished enrollment past due. A phishing security test
(PST) is scheduled, then launched to the active members of its groups; while
it runs, recipients' events follow the e-mail's path: a click needs an open,
entered data or an opened attachment needs a click, each event happens once,
and a report can come at any point after delivery. A user's phish-prone
percentage is the share of their delivered tests in which they clicked.
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
from compoworld.engine.types import Date, DateTime, Email, IdOf, PersonName, Title
from compoworld.services.kit.examples import first_example
from compoworld.services.kit.records import Created, Value

__all__ = ["service"]

service = Service(
    "awareness",
    title="Lighthouse Awareness",
    category="security_awareness",
    modeled_on="KnowBe4 Reporting API v1 (users, groups, training campaigns, training enrollments, phishing "
    "security tests and recipients) and User Event API",
    description="Security awareness for the company's staff: users and groups, training campaigns that enroll "
    "groups in modules with passing scores and due dates, simulated phishing tests sent to groups with each "
    "recipient's opens, clicks and reports, and phish-prone percentages.",
)

UserId = Annotated[str, IdOf("awareness.user")]
GroupId = Annotated[str, IdOf("awareness.group")]
CampaignId = Annotated[str, IdOf("awareness.campaign")]
EnrollmentId = Annotated[str, IdOf("awareness.enrollment")]
PstId = Annotated[str, IdOf("awareness.phishing_test")]
RecipientId = Annotated[str, IdOf("awareness.recipient")]

Score = Annotated[int, Field(ge=0, le=100)]
"""A score in percent."""

CampaignStatus = Literal["created", "in_progress", "closed"]
EnrollmentStatus = Literal["not_started", "in_progress", "passed", "past_due"]
PstStatus = Literal["scheduled", "running", "closed"]
PhishEvent = Literal["opened", "clicked", "data_entered", "attachment_opened", "reported"]
TemplateCategory = Literal["banking", "shipping", "hr", "it_support", "social_media", "invoice"]

EVENT_FIELD = {
    "opened": "opened_at",
    "clicked": "clicked_at",
    "data_entered": "data_entered_at",
    "attachment_opened": "attachment_opened_at",
    "reported": "reported_at",
}
NEEDS = {"clicked": "opened", "data_entered": "clicked", "attachment_opened": "opened"}


class User(Record):
    """A member of staff enrolled in the awareness program."""

    id: UserId
    email: Email
    """Their work e-mail."""
    name: PersonName
    """Their name."""
    department: Annotated[str, StringConstraints(min_length=1, max_length=60)] | None = None
    """Their department."""
    status: Literal["active", "archived"] = "active"
    """active, or archived (left: joins no campaign or test)."""
    group_ids: tuple[GroupId, ...] = ()
    """The groups they belong to."""
    joined_on: Date | None = None
    """When they joined the company."""


class Group(Created):
    """A group of users that campaigns and tests target."""

    id: GroupId
    name: Title
    """Its name (unique)."""


class Campaign(Record):
    """A training campaign: a module assigned to groups with a due date."""

    id: CampaignId
    name: Title
    """Its name."""
    module: Title
    """The training module."""
    passing_score: Score = 80
    """The score needed to pass."""
    group_ids: tuple[GroupId, ...]
    """The groups it enrolls."""
    due_date: Date
    """When enrollments are due; a campaign cannot start once it is due."""
    status: CampaignStatus = "created"
    """created, in_progress or closed."""
    started_at: DateTime | None = None
    """When it started."""
    created_at: Annotated[DateTime, CREATED]
    """When it was made."""
    updated_at: Annotated[DateTime, UPDATED]
    """When it last changed."""


class Enrollment(Record):
    """A user's enrollment in a campaign's module."""

    id: EnrollmentId
    campaign_id: CampaignId
    """The campaign."""
    user_id: UserId
    """The user."""
    user_email: Email
    """The user's e-mail."""
    status: EnrollmentStatus = "not_started"
    """not_started, in_progress, passed or past_due."""
    attempts: int = 0
    """How many times they took the assessment."""
    score: Score | None = None
    """Their best score."""
    completed_at: DateTime | None = None
    """When they passed."""
    enrolled_at: Annotated[DateTime, CREATED]
    """When they were enrolled."""


class PhishingTest(Record):
    """A simulated phishing test sent to groups."""

    id: PstId
    name: Title
    """Its name."""
    template: Title
    """The phishing e-mail template."""
    category: TemplateCategory
    """banking, shipping, hr, it_support, social_media or invoice."""
    difficulty: Annotated[int, Field(ge=1, le=5)] = 3
    """1 (obvious) to 5 (very convincing)."""
    group_ids: tuple[GroupId, ...]
    """The groups it targets."""
    status: PstStatus = "scheduled"
    """scheduled, running or closed."""
    sent_at: DateTime | None = None
    """When it was launched."""
    created_at: Annotated[DateTime, CREATED]
    """When it was made."""


class Recipient(Record):
    """One user's copy of a phishing test and what they did with it."""

    id: RecipientId
    pst_id: PstId
    """The test."""
    user_id: UserId
    """The user."""
    user_email: Email
    """The user's e-mail."""
    delivered_at: DateTime
    """When the e-mail arrived."""
    opened_at: DateTime | None = None
    """When they opened it."""
    clicked_at: DateTime | None = None
    """When they clicked its link."""
    data_entered_at: DateTime | None = None
    """When they typed data into the landing page."""
    attachment_opened_at: DateTime | None = None
    """When they opened its attachment."""
    reported_at: DateTime | None = None
    """When they reported it with the phish alert button."""


class UserRisk(Value):
    """One user's phishing record."""

    user_id: UserId
    """The user."""
    email: Email
    """Their e-mail."""
    delivered: int
    """Tests delivered to them."""
    clicked: int
    """Tests they clicked."""
    reported: int
    """Tests they reported."""
    phish_prone_percentage: float
    """clicked / delivered, in percent."""


class PhishReport(Value):
    """Phish-prone percentages for the organisation or a group."""

    group_id: GroupId | None
    """The group, or none for the whole organisation."""
    users: int
    """Active users counted."""
    phish_prone_percentage: float
    """Share of delivered tests that were clicked, in percent."""
    riskiest: tuple[UserRisk, ...]
    """Up to five users with the highest percentage (at least one click)."""


# -- rules ------------------------------------------------------------------------------------


def _guard_group(ctx: Ctx, new: Any, old: Any) -> None:
    for other in ctx.where(Group, name=new.name):
        if other.id != new.id:
            raise Conflict(f"group {new.name!r} already exists ({other.id})", field="name", hint="use that group")


def _targets(ctx: Ctx, new: Any, old: Any) -> None:
    if not new.group_ids or len(set(new.group_ids)) != len(new.group_ids):
        raise RuleViolation(
            "target at least one group, each once", field="group_ids", hint="list the group ids to enroll"
        )


def _guard_campaign(ctx: Ctx, new: Any, old: Any) -> None:
    _targets(ctx, new, old)


def _guard_close(ctx: Ctx, new: Any, old: Any) -> None:
    if new.status == "closed" and old.status != "closed":
        for e in ctx.where(Enrollment, campaign_id=new.id):
            if e.status in ("not_started", "in_progress"):
                ctx.update(e, status="past_due")


users = service.resource(
    User,
    name="user",
    plural="users",
    prefix="usr",
    create=False,
    get=False,
    filters=("email", "status", "department"),
    search=("name", "email"),
    delete=False,
)
groups = service.resource(
    Group,
    name="group",
    plural="groups",
    prefix="grp",
    create=("name",),
    get=False,
    search=("name",),
    delete=False,
    guard_create=_guard_group,
)
campaigns = service.resource(
    Campaign,
    name="campaign",
    plural="campaigns",
    prefix="camp",
    create=("name", "module", "passing_score", "group_ids", "due_date"),
    get=False,
    filters=("status",),
    search=("name", "module"),
    delete=False,
    transitions={
        "close": Transition(
            "status",
            ("in_progress",),
            "closed",
            "close the training campaign",
            description="Close a running campaign: unfinished enrollments become past due.",
        )
    },
    guard_create=_guard_campaign,
    guard_update=_guard_close,
    title="training campaign",
)
enrollments = service.resource(
    Enrollment,
    name="enrollment",
    plural="enrollments",
    prefix="enr",
    create=False,
    get=False,
    filters=("campaign_id", "user_id", "user_email", "status"),
    delete=False,
    title="training enrollment",
)
psts = service.resource(
    PhishingTest,
    name="phishing_test",
    plural="phishing_tests",
    prefix="pst",
    create=("name", "template", "category", "difficulty", "group_ids"),
    get=False,
    filters=("status", "category", "difficulty"),
    search=("name", "template"),
    delete=False,
    guard_create=_targets,
    title="phishing security test",
)
recipients = service.resource(
    Recipient,
    name="recipient",
    plural="recipients",
    prefix="rcp",
    create=False,
    get=False,
    filters=("pst_id", "user_id", "user_email"),
    delete=False,
    title="phishing test recipient",
)


# -- tools ------------------------------------------------------------------------------------


def _members(ctx: Ctx, group_ids: tuple[str, ...]) -> list[User]:
    wanted = set(group_ids)
    return [u for u in ctx.where(User, status="active") if wanted & set(u.group_ids)]


def _example_add(ctx: Ctx) -> dict[str, Any] | None:
    for g in ctx.scan(Group):
        for u in ctx.where(User, status="active"):
            if g.id not in u.group_ids:
                return {"group_id": g.id, "user_id": u.id}
    return None


@service.tool(intent="add the user to the group", write=True, example=_example_add)
def add_user_to_group(ctx: Ctx, group_id: GroupId, user_id: UserId) -> User:
    """Add an active user to a group.

    Args:
        group_id: The group.
        user_id: The user.
    """
    group = ctx.get(Group, group_id, field="group_id")
    user = ctx.get(User, user_id, field="user_id")
    if user.status == "archived":
        raise RuleViolation(f"{user.email} is archived", field="user_id", hint="archived users join no group")
    if group.id in user.group_ids:
        raise Conflict(f"{user.email} is already in {group.name}", field="user_id", hint="nothing to do")
    return ctx.update(user, group_ids=(*user.group_ids, group.id))


@service.tool(
    intent="start the training campaign",
    write=True,
    example=first_example(Campaign, "campaign_id", where={"status": "created"}),
)
def start_campaign(ctx: Ctx, campaign_id: CampaignId) -> Campaign:
    """Start a campaign: every active member of its groups is enrolled once.

    Args:
        campaign_id: The campaign.
    """
    camp = ctx.get(Campaign, campaign_id, field="campaign_id")
    if camp.status != "created":
        raise Conflict(f"campaign {camp.name!r} is already {camp.status}", field="campaign_id", hint="nothing to do")
    if camp.due_date <= ctx.today():
        raise RuleViolation(
            f"campaign {camp.name!r} was due on {camp.due_date}",
            field="campaign_id",
            hint="create it with a later due date",
        )
    members = _members(ctx, camp.group_ids)
    if not members:
        raise RuleViolation(
            f"the groups of {camp.name!r} have no active users",
            field="campaign_id",
            hint="add users to its groups with awareness__add_user_to_group",
        )
    for u in members:
        ctx.create(Enrollment, campaign_id=camp.id, user_id=u.id, user_email=u.email)
    return ctx.update(camp, status="in_progress", started_at=ctx.now())


def _example_complete(ctx: Ctx) -> dict[str, Any] | None:
    for e in ctx.where(Enrollment, status="not_started"):
        if ctx.get(Campaign, e.campaign_id).status == "in_progress":
            return {"enrollment_id": e.id, "score": 90}
    return None


@service.tool(intent="record the training assessment score", write=True, example=_example_complete)
def record_training_score(ctx: Ctx, enrollment_id: EnrollmentId, score: Score) -> Enrollment:
    """Record an assessment attempt: a score at or above the passing score passes the enrollment.

    Args:
        enrollment_id: The enrollment.
        score: The assessment score, 0-100.
    """
    e = ctx.get(Enrollment, enrollment_id, field="enrollment_id")
    camp = ctx.get(Campaign, e.campaign_id)
    if camp.status != "in_progress":
        raise RuleViolation(
            f"campaign {camp.name!r} is {camp.status}",
            field="enrollment_id",
            hint="only a running campaign takes scores",
        )
    if e.status == "passed":
        raise Conflict(f"{e.user_email} already passed {camp.module}", field="enrollment_id", hint="nothing to do")
    best = max(score, e.score or 0)
    passed = score >= camp.passing_score
    return ctx.update(
        e,
        attempts=e.attempts + 1,
        score=best,
        status="passed" if passed else "in_progress",
        completed_at=ctx.now() if passed else None,
    )


@service.tool(
    intent="launch the phishing test",
    write=True,
    example=first_example(PhishingTest, "pst_id", where={"status": "scheduled"}),
)
def launch_phishing_test(ctx: Ctx, pst_id: PstId) -> PhishingTest:
    """Send a scheduled phishing test to every active member of its groups.

    Args:
        pst_id: The test.
    """
    pst = ctx.get(PhishingTest, pst_id, field="pst_id")
    if pst.status != "scheduled":
        raise Conflict(f"test {pst.name!r} is already {pst.status}", field="pst_id", hint="schedule a new test")
    members = _members(ctx, pst.group_ids)
    if not members:
        raise RuleViolation(
            f"the groups of {pst.name!r} have no active users",
            field="pst_id",
            hint="add users to its groups with awareness__add_user_to_group",
        )
    for u in members:
        ctx.create(Recipient, pst_id=pst.id, user_id=u.id, user_email=u.email, delivered_at=ctx.now())
    return ctx.update(pst, status="running", sent_at=ctx.now())


def _example_event(ctx: Ctx) -> dict[str, Any] | None:
    for pst in ctx.where(PhishingTest, status="running"):
        for r in ctx.where(Recipient, pst_id=pst.id):
            if r.reported_at is None:
                return {"recipient_id": r.id, "event": "reported"}
    return None


@service.tool(intent="record the recipient's phishing event", write=True, example=_example_event)
def record_phish_event(ctx: Ctx, recipient_id: RecipientId, event: PhishEvent) -> Recipient:
    """Record what a recipient did with a running test's e-mail (the phish alert button, the landing page …).

    Args:
        recipient_id: The recipient.
        event: opened, clicked, data_entered, attachment_opened or reported.
    """
    r = ctx.get(Recipient, recipient_id, field="recipient_id")
    pst = ctx.get(PhishingTest, r.pst_id)
    if pst.status != "running":
        raise RuleViolation(
            f"test {pst.name!r} is {pst.status}", field="recipient_id", hint="only running tests record events"
        )
    field = EVENT_FIELD[event]
    if getattr(r, field) is not None:
        raise Conflict(
            f"{r.user_email} already {event.replace('_', ' ')} this test", field="event", hint="nothing to do"
        )
    need = NEEDS.get(event)
    if need is not None and getattr(r, EVENT_FIELD[need]) is None:
        raise RuleViolation(
            f"{event.replace('_', ' ')} needs {need} first", field="event", hint=f"record {need} before {event}"
        )
    return ctx.update(r, **{field: ctx.now()})


def _risk(ctx: Ctx, user: User) -> UserRisk:
    rows = ctx.where(Recipient, user_id=user.id)
    clicked = sum(r.clicked_at is not None for r in rows)
    return UserRisk(
        user_id=user.id,
        email=user.email,
        delivered=len(rows),
        clicked=clicked,
        reported=sum(r.reported_at is not None for r in rows),
        phish_prone_percentage=round(100 * clicked / len(rows), 1) if rows else 0.0,
    )


@service.tool(intent="report phish-prone percentages")
def phish_prone_report(ctx: Ctx, group_id: GroupId | None = None) -> PhishReport:
    """Phish-prone percentage of the organisation's (or one group's) active users, and the riskiest users.

    Args:
        group_id: Only this group's members.
    """
    if group_id is not None:
        ctx.get(Group, group_id, field="group_id")
        people = _members(ctx, (group_id,))
    else:
        people = ctx.where(User, status="active")
    risks = [_risk(ctx, u) for u in people]
    delivered = sum(r.delivered for r in risks)
    clicked = sum(r.clicked for r in risks)
    ranked = sorted((r for r in risks if r.clicked), key=lambda r: (-r.phish_prone_percentage, r.email))
    return PhishReport(
        group_id=group_id,
        users=len(people),
        phish_prone_percentage=round(100 * clicked / delivered, 1) if delivered else 0.0,
        riskiest=tuple(ranked[:5]),
    )


# -- seed -------------------------------------------------------------------------------------

TESTS: tuple[tuple[str, str, TemplateCategory, int, int], ...] = (
    ("Q3 baseline", "Your package could not be delivered", "shipping", 2, 120),
    ("Q4 invoices", "Overdue invoice #88213 attached", "invoice", 3, 60),
    ("Payroll update", "Action required: confirm your direct deposit", "hr", 4, 12),
    ("Gift card request", "Quick favour: can you buy gift cards for a client?", "social_media", 5, 0),
)


@service.seeder
def seed(s: SeedContext) -> None:
    """Staff as users in department groups, past and running campaigns and phishing tests with results."""
    pop = s.population
    today = s.now.date()
    depts = sorted({p.department or "General" for p in pop.employees})
    grp = {d: s.create(Group, name=d, created_at=s.ago(days=500)) for d in depts}
    everyone = s.create(Group, name="All staff", created_at=s.ago(days=500))
    s.create(Group, name="New hires", created_at=s.ago(days=30))
    made: list[User] = []
    for k, p in enumerate(pop.employees):
        made.append(
            s.create(
                User,
                email=p.email,
                name=p.name,
                department=p.department,
                status="archived" if k % 17 == 16 else "active",
                group_ids=(everyone.id, grp[p.department or "General"].id),
                joined_on=p.hire_date,
            )
        )
    active = [u for u in made if u.status == "active"]
    for name, module, due, status in (
        ("2025 annual training", "Security Awareness Fundamentals", -40, "closed"),
        ("Phishing refresher", "Spot the Phish", 20, "in_progress"),
        ("Data privacy", "GDPR Essentials", 60, "created"),
    ):
        camp = s.create(
            Campaign,
            name=name,
            module=module,
            group_ids=(everyone.id,),
            due_date=today + dt.timedelta(days=due),
            status=status,
            started_at=s.ago(days=30 - due) if status != "created" else None,
            created_at=s.ago(days=40 - due),
            updated_at=s.ago(days=max(1, -due)),
        )
        if status == "created":
            continue
        for k, u in enumerate(active):
            passed = k % 4 != 1 if status == "closed" else k % 3 == 0
            started = passed or k % 2 == 0
            s.create(
                Enrollment,
                campaign_id=camp.id,
                user_id=u.id,
                user_email=u.email,
                status="passed"
                if passed
                else ("past_due" if status == "closed" else ("in_progress" if started else "not_started")),
                attempts=(1 + k % 2) if started else 0,
                score=(80 + k % 21) if passed else ((50 + k % 25) if started else None),
                completed_at=s.ago(days=25 - due) if passed else None,
                enrolled_at=s.ago(days=30 - due),
            )
    for n, (name, template, category, difficulty, days) in enumerate(TESTS):
        pst = s.create(
            PhishingTest,
            name=name,
            template=template,
            category=category,
            difficulty=difficulty,
            group_ids=(everyone.id,),
            status=("closed", "closed", "running", "scheduled")[n],
            sent_at=s.ago(days=days) if days else None,
            created_at=s.ago(days=days + 2),
        )
        if pst.status == "scheduled":
            continue
        for k, u in enumerate(active):
            sent = s.ago(days=days)
            roll = s.rng.random()
            opened = roll < 0.7
            clicked = opened and roll < 0.15 + 0.05 * difficulty
            s.create(
                Recipient,
                pst_id=pst.id,
                user_id=u.id,
                user_email=u.email,
                delivered_at=sent,
                opened_at=sent + dt.timedelta(hours=2) if opened else None,
                clicked_at=sent + dt.timedelta(hours=2, minutes=1) if clicked else None,
                data_entered_at=sent + dt.timedelta(hours=2, minutes=3) if clicked and k % 3 == 0 else None,
                reported_at=sent + dt.timedelta(hours=3) if opened and not clicked and k % 2 == 0 else None,
            )
