"""Riskwise: fraud detection for the company's customers (events, scores, decisions, workflows, review queues).

Modeled on the Sift API (Events API, Score API, Decisions API, Workflows, Review
Queues, chargeback labels): customer users known by their e-mail; events sent
for them ($create_account, $login, $transaction, $create_order,
$update_account, $chargeback) with amounts and IP addresses; scores from 0 to
100 per abuse type (payment_abuse, account_takeover, account_abuse), recomputed
from the user's events on every event; decisions (block, watch or accept for one
abuse type) applied to users by analysts or workflows, the latest per abuse type
being the user's standing; workflows that run on an event type and send users
whose score reaches a threshold to a review queue or block them automatically
(active, draft or inactive, evaluated by priority); and review items that an
analyst claims and resolves with a decision of the queue's abuse type.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import Field, StringConstraints

from compoworld.engine.context import Ctx
from compoworld.engine.errors import Conflict, RuleViolation
from compoworld.engine.records import Record
from compoworld.engine.service import Service, Transition
from compoworld.engine.state import SeedContext
from compoworld.engine.types import Cents, Currency, DateTime, Email, IdOf, PersonName, Text, Title
from compoworld.services.kit.examples import first_example
from compoworld.services.kit.lists import require_employee
from compoworld.services.kit.records import Created, Timestamped, Value

__all__ = ["service"]

service = Service(
    "fraud",
    title="Riskwise",
    category="fraud_detection",
    modeled_on="Sift API: Events API ($create_account, $login, $transaction, $chargeback), Score API by abuse "
    "type, Decisions API, Workflows, Review Queues",
    description="Fraud detection for the company's customers: every account, login, order and payment event "
    "sent for a user, their risk scores per abuse type, the block/watch/accept decisions analysts and "
    "workflows apply, the workflows that route risky users, and the review queue analysts work through.",
)

UserId = Annotated[str, IdOf("fraud.user")]
EventId = Annotated[str, IdOf("fraud.event")]
DecisionId = Annotated[str, IdOf("fraud.decision")]
AppliedId = Annotated[str, IdOf("fraud.applied_decision")]
WorkflowId = Annotated[str, IdOf("fraud.workflow")]
ReviewId = Annotated[str, IdOf("fraud.review")]

Ipv4 = Annotated[
    str, StringConstraints(pattern=r"^((25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)\.){3}(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)$")
]
"""An IPv4 address."""
Score = Annotated[int, Field(ge=0, le=100)]
"""A risk score, 0-100."""

AbuseType = Literal["payment_abuse", "account_takeover", "account_abuse"]
EventType = Literal["create_account", "login", "transaction", "create_order", "update_account", "chargeback"]
EventStatus = Literal["success", "failure"]
Category = Literal["block", "watch", "accept"]
Source = Literal["manual_review", "automated_rule", "api"]
WorkflowAction = Literal["review", "block"]
WorkflowStatus = Literal["draft", "active", "inactive"]
ReviewStatus = Literal["pending", "claimed", "resolved"]

SCORE_FIELD: dict[str, str] = {
    "payment_abuse": "payment_abuse_score",
    "account_takeover": "account_takeover_score",
    "account_abuse": "account_abuse_score",
}


class User(Timestamped):
    """A customer as the fraud engine knows them."""

    id: UserId
    email: Email
    """Their e-mail (unique)."""
    name: PersonName
    """Their name."""
    payment_abuse_score: Score = 0
    """Payment abuse score."""
    account_takeover_score: Score = 0
    """Account takeover score."""
    account_abuse_score: Score = 0
    """Fake or duplicate account score."""
    blocked: bool = False
    """Whether their latest decision of any abuse type is a block."""


class Event(Record):
    """An event sent for a user."""

    id: EventId
    user_id: UserId
    """The user."""
    type: EventType
    """create_account, login, transaction, create_order, update_account or chargeback."""
    status: EventStatus = "success"
    """success or failure."""
    amount: Cents = 0
    """The amount in cents (orders, transactions, chargebacks)."""
    currency: Currency = "USD"
    """Its currency."""
    ip: Ipv4
    """The client's IP address."""
    order_id: Annotated[str, StringConstraints(max_length=40)] = ""
    """The order it concerns."""
    occurred_at: DateTime
    """When."""


class Decision(Timestamped):
    """A decision configured in the console (block_user_payment_abuse, looks_ok…)."""

    id: DecisionId
    name: Title
    """Its name (unique)."""
    category: Category
    """block, watch or accept."""
    abuse_type: AbuseType
    """The abuse type it decides."""
    description: Text = ""
    """When to use it."""
    archived: bool = False
    """Archived decisions can no longer be applied."""


class AppliedDecision(Created):
    """A decision applied to a user."""

    id: AppliedId
    user_id: UserId
    """The user."""
    decision_id: DecisionId
    """The decision."""
    abuse_type: AbuseType
    """Its abuse type."""
    category: Category
    """Its category."""
    source: Source
    """manual_review, automated_rule or api."""
    analyst: Email | None = None
    """The analyst, for manual decisions."""
    description: Text = ""
    """Notes."""


class Workflow(Timestamped):
    """A workflow: on an event type, route users whose score reaches a threshold."""

    id: WorkflowId
    name: Title
    """Its name."""
    event_type: EventType
    """The event that runs it."""
    abuse_type: AbuseType
    """The score it looks at."""
    threshold: Score
    """The least score that matches."""
    action: WorkflowAction
    """review (queue for an analyst) or block (apply block_decision_id)."""
    block_decision_id: DecisionId | None = None
    """The block decision an automatic block applies."""
    priority: Annotated[int, Field(ge=1, le=100)] = 10
    """Lower runs first; the first match wins."""
    status: WorkflowStatus = "draft"
    """draft, active or inactive."""


class Review(Created):
    """A user waiting in a review queue."""

    id: ReviewId
    user_id: UserId
    """The user."""
    workflow_id: WorkflowId
    """The workflow that queued them."""
    abuse_type: AbuseType
    """The queue's abuse type."""
    score: Score
    """The score when queued."""
    status: ReviewStatus = "pending"
    """pending, claimed or resolved."""
    analyst: Email | None = None
    """Who claimed it."""
    applied_id: AppliedId | None = None
    """The decision that resolved it."""


class ScoreCard(Value):
    """A user's scores and standing."""

    user_id: UserId
    """The user."""
    email: Email
    """Their e-mail."""
    scores: dict[AbuseType, int]
    """Score per abuse type."""
    latest: dict[AbuseType, Category]
    """Latest decision category per abuse type (absent: none)."""


# -- rules ------------------------------------------------------------------------------------


def _scores(ctx: Ctx, user_id: str) -> dict[str, int]:
    evs = ctx.where(Event, user_id=user_id)
    ips = {e.ip for e in evs}
    failed_pay = sum(e.type == "transaction" and e.status == "failure" for e in evs)
    chargebacks = sum(e.type == "chargeback" for e in evs)
    big = sum(e.type in ("transaction", "create_order") and e.amount >= 100_000 for e in evs)
    failed_login = sum(e.type == "login" and e.status == "failure" for e in evs)
    changes = sum(e.type == "update_account" for e in evs)
    shared = sum(1 for o in ctx.scan(Event) if o.user_id != user_id and o.type == "create_account" and o.ip in ips)
    return {
        "payment_abuse": min(99, 5 + 20 * failed_pay + 45 * chargebacks + 10 * big),
        "account_takeover": min(99, 3 + 18 * failed_login + 8 * max(0, len(ips) - 1) + 6 * changes),
        "account_abuse": min(99, 4 + 30 * shared),
    }


def _apply(ctx: Ctx, user: User, dec: Decision, source: Source, analyst: str | None, note: str) -> AppliedDecision:
    if dec.archived:
        raise RuleViolation(f"decision {dec.name!r} is archived", field="decision_id", hint="pick an active decision")
    made = ctx.create(
        AppliedDecision,
        user_id=user.id,
        decision_id=dec.id,
        abuse_type=dec.abuse_type,
        category=dec.category,
        source=source,
        analyst=analyst,
        description=note,
    )
    latest = {}
    for a in ctx.where(AppliedDecision, user_id=user.id):
        latest[a.abuse_type] = a.category
    ctx.update(user, blocked="block" in latest.values())
    return made


def _guard_workflow(ctx: Ctx, new: Any, old: Any) -> None:
    if new.action == "block":
        if new.block_decision_id is None:
            raise RuleViolation("a block workflow needs a block decision", field="block_decision_id", hint="name one")
        dec = ctx.get(Decision, new.block_decision_id, field="block_decision_id")
        if dec.category != "block" or dec.abuse_type != new.abuse_type or dec.archived:
            raise RuleViolation(
                f"decision {dec.name!r} is not an active {new.abuse_type} block",
                field="block_decision_id",
                hint="pick a block decision of the same abuse type",
            )
    if old is not None and old.status == "active" and new.status == "active" and old.action != new.action:
        raise RuleViolation(
            "the workflow is active", field="workflow_id", hint="deactivate it before changing its action"
        )


def _guard_decision(ctx: Ctx, new: Any, old: Any) -> None:
    for d in ctx.where(Decision, name=new.name):
        if d.id != new.id:
            raise Conflict(f"a decision is already named {new.name!r}", field="name", hint="pick another name")
    if old is not None and new.archived and not old.archived:
        for w in ctx.where(Workflow, block_decision_id=new.id):
            if w.status == "active":
                raise RuleViolation(f"active workflow {w.name!r} uses it", field="decision_id", hint="deactivate it")


users = service.resource(
    User,
    name="user",
    plural="users",
    prefix="usr",
    create=False,
    filters=("email", "blocked"),
    search=("name", "email"),
    delete=False,
)
events = service.resource(
    Event,
    name="event",
    plural="events",
    prefix="evt",
    create=False,
    get=False,
    filters=("user_id", "type", "status", "ip", "order_id"),
    delete=False,
)
decisions = service.resource(
    Decision,
    name="decision",
    plural="decisions",
    prefix="dec",
    create=("name", "category", "abuse_type", "description"),
    filters=("category", "abuse_type", "archived"),
    search=("name", "description"),
    update=("name", "description"),
    delete=False,
    transitions={"archive": Transition("archived", (False,), True, "archive the decision")},
    guard_create=_guard_decision,
    guard_update=_guard_decision,
)
applied = service.resource(
    AppliedDecision,
    name="applied_decision",
    plural="applied_decisions",
    prefix="app",
    create=False,
    get=False,
    filters=("user_id", "decision_id", "abuse_type", "category", "source", "analyst"),
    delete=False,
)
workflows = service.resource(
    Workflow,
    name="workflow",
    plural="workflows",
    prefix="wf",
    create=("name", "event_type", "abuse_type", "threshold", "action", "block_decision_id", "priority"),
    filters=("status", "event_type", "abuse_type", "action"),
    search=("name",),
    update=("name", "threshold", "action", "block_decision_id", "priority"),
    transitions={
        "activate": Transition("status", ("draft", "inactive"), "active", "activate the workflow"),
        "deactivate": Transition("status", ("active",), "inactive", "deactivate the workflow"),
    },
    guard_create=_guard_workflow,
    guard_update=_guard_workflow,
)
reviews = service.resource(
    Review,
    name="review",
    plural="reviews",
    prefix="rev",
    create=False,
    filters=("status", "abuse_type", "user_id", "analyst", "workflow_id"),
    delete=False,
    title="review item",
)


# -- domain tools -----------------------------------------------------------------------------


def _example_track(ctx: Ctx) -> dict[str, Any] | None:
    u = ctx.first(User, blocked=False)
    return None if u is None else {"email": u.email, "type": "login", "ip": "203.0.113.50", "status": "failure"}


@service.tool(intent="send the event for the customer", write=True, example=_example_track)
def track_event(
    ctx: Ctx,
    email: Email,
    type: EventType,
    ip: Ipv4,
    status: EventStatus = "success",
    amount: Cents = 0,
    currency: Currency = "USD",
    order_id: Annotated[str, StringConstraints(max_length=40)] = "",
    name: PersonName | None = None,
) -> Event:
    """Send an event for a customer; their scores are recomputed and active workflows run.

    The user is created on first sight. Active workflows on this event type run by priority: the first
    whose threshold the user's score reaches acts (queues a review, or applies its block decision).

    Args:
        email: The customer's e-mail.
        type: create_account, login, transaction, create_order, update_account or chargeback.
        ip: The client's IP address.
        status: success or failure.
        amount: The amount in cents (orders, transactions, chargebacks).
        currency: Its currency.
        order_id: The order it concerns.
        name: The customer's name (needed the first time).
    """
    user = ctx.first(User, email=email)
    if user is None:
        if name is None:
            raise RuleViolation(f"{email} is a new user: give their name", field="name", hint="pass name")
        user = ctx.create(User, email=email, name=name)
    if type == "chargeback" and not order_id:
        raise RuleViolation("a chargeback names its order", field="order_id", hint="the disputed order id")
    if type == "chargeback" and ctx.first(Event, user_id=user.id, type="chargeback", order_id=order_id):
        raise Conflict(f"order {order_id} already has a chargeback", field="order_id", hint="nothing to do")
    ev = ctx.create(
        Event,
        user_id=user.id,
        type=type,
        status=status,
        amount=amount,
        currency=currency,
        ip=ip,
        order_id=order_id,
        occurred_at=ctx.now(),
    )
    scores = _scores(ctx, user.id)
    user = ctx.update(user, **{SCORE_FIELD[k]: v for k, v in scores.items()})
    flows = sorted(ctx.where(Workflow, status="active", event_type=type), key=lambda w: (w.priority, w.id))
    for wf in flows:
        if scores[wf.abuse_type] < wf.threshold:
            continue
        if wf.action == "block" and wf.block_decision_id is not None:
            _apply(ctx, user, ctx.get(Decision, wf.block_decision_id), "automated_rule", None, wf.name)
        elif ctx.first(Review, user_id=user.id, abuse_type=wf.abuse_type, status="pending") is None:
            ctx.create(
                Review, user_id=user.id, workflow_id=wf.id, abuse_type=wf.abuse_type, score=scores[wf.abuse_type]
            )
        break
    return ev


@service.tool(intent="look up the customer's fraud scores", example=first_example(User, "user_id"))
def get_scores(ctx: Ctx, user_id: UserId) -> ScoreCard:
    """A user's scores per abuse type and the category of their latest decision per abuse type.

    Args:
        user_id: The user.
    """
    user = ctx.get(User, user_id, field="user_id")
    latest: dict[AbuseType, Category] = {}
    for a in ctx.where(AppliedDecision, user_id=user.id):
        latest[a.abuse_type] = a.category
    scores: dict[AbuseType, int] = {
        "payment_abuse": user.payment_abuse_score,
        "account_takeover": user.account_takeover_score,
        "account_abuse": user.account_abuse_score,
    }
    return ScoreCard(user_id=user.id, email=user.email, scores=scores, latest=latest)


def _example_apply(ctx: Ctx) -> dict[str, Any] | None:
    u = ctx.first(User, blocked=False)
    d = ctx.first(Decision, category="watch", archived=False)
    a = ctx.population.employees[0].email
    return None if u is None or d is None else {"user_id": u.id, "decision_id": d.id, "analyst": a}


@service.tool(intent="apply the decision to the customer", write=True, example=_example_apply)
def apply_decision(
    ctx: Ctx, user_id: UserId, decision_id: DecisionId, analyst: Email, description: Text = ""
) -> AppliedDecision:
    """Apply a decision to a user by hand; it becomes their standing for its abuse type.

    Args:
        user_id: The user.
        decision_id: The decision (not archived).
        analyst: The analyst deciding (staff).
        description: Notes.
    """
    user = ctx.get(User, user_id, field="user_id")
    dec = ctx.get(Decision, decision_id, field="decision_id")
    require_employee(ctx, analyst, field="analyst", hint="decisions are made by our analysts")
    return _apply(ctx, user, dec, "manual_review", analyst, description)


def _example_claim(ctx: Ctx) -> dict[str, Any] | None:
    r = ctx.first(Review, status="pending")
    return None if r is None else {"review_id": r.id, "analyst": ctx.population.employees[0].email}


@service.tool(intent="claim the review item", write=True, example=_example_claim)
def claim_review(ctx: Ctx, review_id: ReviewId, analyst: Email) -> Review:
    """Claim a pending review item for an analyst.

    Args:
        review_id: The review item.
        analyst: The analyst (staff).
    """
    rev = ctx.get(Review, review_id, field="review_id")
    if rev.status != "pending":
        raise Conflict(f"review {rev.id} is {rev.status}", field="review_id", hint="pick a pending item")
    require_employee(ctx, analyst, field="analyst", hint="reviews are worked by our analysts")
    return ctx.update(rev, status="claimed", analyst=analyst)


def _example_resolve(ctx: Ctx) -> dict[str, Any] | None:
    for r in ctx.where(Review, status="claimed"):
        d = ctx.first(Decision, abuse_type=r.abuse_type, category="accept", archived=False)
        if d is not None:
            return {"review_id": r.id, "decision_id": d.id}
    return None


@service.tool(intent="resolve the review item", write=True, example=_example_resolve)
def resolve_review(ctx: Ctx, review_id: ReviewId, decision_id: DecisionId, description: Text = "") -> Review:
    """Resolve a claimed review item by applying a decision of the queue's abuse type to its user.

    Args:
        review_id: The review item (claimed).
        decision_id: The decision to apply.
        description: Notes.
    """
    rev = ctx.get(Review, review_id, field="review_id")
    if rev.status != "claimed" or rev.analyst is None:
        raise RuleViolation(f"review {rev.id} is {rev.status}", field="review_id", hint="claim it first")
    dec = ctx.get(Decision, decision_id, field="decision_id")
    if dec.abuse_type != rev.abuse_type:
        raise RuleViolation(
            f"decision {dec.name!r} is for {dec.abuse_type}", field="decision_id", hint=f"pick a {rev.abuse_type} one"
        )
    made = _apply(ctx, ctx.get(User, rev.user_id), dec, "manual_review", rev.analyst, description)
    return ctx.update(rev, status="resolved", applied_id=made.id)


# -- seed -------------------------------------------------------------------------------------

DECISIONS: tuple[tuple[str, Category, AbuseType], ...] = (
    ("Block payment abuse", "block", "payment_abuse"),
    ("Watch payment abuse", "watch", "payment_abuse"),
    ("Looks OK payment", "accept", "payment_abuse"),
    ("Lock account (takeover)", "block", "account_takeover"),
    ("Trusted login", "accept", "account_takeover"),
    ("Ban fake account", "block", "account_abuse"),
    ("Legacy manual block", "block", "payment_abuse"),
)


@service.seeder
def seed(s: SeedContext) -> None:
    """Decisions, workflows, consumers with events and scores, a chargeback, applied decisions, a queue."""
    pop = s.population
    analysts = pop.staff("Finance", "Customer Support", "Security", fallback=3)
    decs = {
        n: s.create(
            Decision,
            name=n,
            category=c,
            abuse_type=a,
            archived=n.startswith("Legacy"),
            created_at=s.ago(days=300),
            updated_at=s.ago(days=300),
        )
        for n, c, a in DECISIONS
    }
    flows = (
        ("High-risk payments to review", "transaction", "payment_abuse", 40, "review", None, 10, "active"),
        (
            "Auto-block chargeback repeaters",
            "chargeback",
            "payment_abuse",
            90,
            "block",
            "Block payment abuse",
            5,
            "active",
        ),
        ("Suspicious logins", "login", "account_takeover", 35, "review", None, 10, "active"),
        ("Duplicate signups", "create_account", "account_abuse", 60, "block", "Ban fake account", 10, "draft"),
    )
    made = []
    for name, et, ab, th, act, bd, pr, st in flows:
        made.append(
            s.create(
                Workflow,
                name=name,
                event_type=et,
                abuse_type=ab,
                threshold=th,
                action=act,
                block_decision_id=decs[bd].id if bd else None,
                priority=pr,
                status=st,
                created_at=s.ago(days=200),
                updated_at=s.ago(days=50),
            )
        )
    people = (pop.consumers or pop.contacts)[:12]
    for k, p in enumerate(people):
        ip = f"198.51.100.{10 + k}"
        user = s.create(User, email=p.email, name=p.name, created_at=s.ago(days=120 - 5 * k), updated_at=s.ago(days=2))
        kinds: list[tuple[EventType, EventStatus, int, str]] = [("create_account", "success", 0, ip)]
        kinds.append(("login", "failure" if k % 4 == 1 else "success", 0, ip))
        kinds.append(("transaction", "failure" if k % 5 == 2 else "success", 2500 + 3000 * k, ip))
        if k % 4 == 1:
            kinds += [("login", "failure", 0, "203.0.113.77"), ("update_account", "success", 0, "203.0.113.77")]
        if k == 3:
            kinds.append(("chargeback", "success", 11500, ip))
        for j, (et, es, amt, addr) in enumerate(kinds):
            s.create(
                Event,
                user_id=user.id,
                type=et,
                status=es,
                amount=amt,
                ip=addr,
                order_id=f"ORD-{5000 + k}" if et in ("transaction", "chargeback") else "",
                occurred_at=s.ago(days=100 - 5 * k - j),
            )
    for user in s.records(User):
        evs = [e for e in s.records(Event) if e.user_id == user.id]
        ips = {e.ip for e in evs}
        fp = sum(e.type == "transaction" and e.status == "failure" for e in evs)
        cb = sum(e.type == "chargeback" for e in evs)
        fl = sum(e.type == "login" and e.status == "failure" for e in evs)
        ch = sum(e.type == "update_account" for e in evs)
        s.update(
            user,
            payment_abuse_score=min(99, 5 + 20 * fp + 45 * cb),
            account_takeover_score=min(99, 3 + 18 * fl + 8 * max(0, len(ips) - 1) + 6 * ch),
            account_abuse_score=4,
        )
    all_users = s.records(User)
    for k, user in enumerate(all_users):
        if user.account_takeover_score >= 35:
            rev_status: ReviewStatus = "claimed" if not s.records(Review) else "pending"
            s.create(
                Review,
                user_id=user.id,
                workflow_id=made[2].id,
                abuse_type="account_takeover",
                score=user.account_takeover_score,
                status=rev_status,
                analyst=analysts[0].email if rev_status == "claimed" else None,
                created_at=s.ago(days=3),
            )
        if user.payment_abuse_score >= 50:
            s.create(
                AppliedDecision,
                user_id=user.id,
                decision_id=decs["Block payment abuse"].id,
                abuse_type="payment_abuse",
                category="block",
                source="manual_review",
                analyst=analysts[0].email,
                description="Chargeback on first order.",
                created_at=s.ago(days=20),
            )
            s.update(user, blocked=True)
        elif k % 3 == 0:
            s.create(
                AppliedDecision,
                user_id=user.id,
                decision_id=decs["Looks OK payment"].id,
                abuse_type="payment_abuse",
                category="accept",
                source="api",
                created_at=s.ago(days=15),
            )
