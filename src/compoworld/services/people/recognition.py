"""Kudoboard Recognition: peer-to-peer bonuses with hashtags, monthly allowances, a rewards catalog and redemptions.

Modeled on the Bonusly API v1 (users with giving_balance and earning_balance,
bonuses with a reason carrying +amount, @receivers and #hashtags, add-on bonuses
to a parent, company values as hashtags, rewards and redemptions, admin
approvals): every active member has a monthly allowance to give; a bonus gives
1-100 points to each of one to five other active members, needs a reason and at
least one active company hashtag, and comes out of the giver's allowance; a
bonus of more than 50 points a receiver waits for an admin's approval (the
allowance is held, and given back on rejection); an add-on joins an approved
bonus with the same receivers; a giver may delete their own bonus within 24
hours; points received are redeemed for catalog rewards (gift cards are
fulfilled at once, custom rewards wait for an admin, and a canceled redemption
gives the points back); resetting allowances starts a new month, and unused
allowance does not roll over.
"""

from __future__ import annotations

import datetime as dt
from typing import Annotated, Any, Literal

from pydantic import Field, StringConstraints

from compoworld.engine.context import Ctx
from compoworld.engine.errors import Conflict, RuleViolation
from compoworld.engine.records import CREATED, UPDATED, Record
from compoworld.engine.service import Service
from compoworld.engine.state import SeedContext
from compoworld.engine.types import Cents, DateTime, Email, IdOf, PersonName, Text, Title
from compoworld.services.kit.examples import first_example
from compoworld.services.kit.records import Value

__all__ = ["service"]

service = Service(
    "recognition",
    title="Kudoboard Recognition",
    category="employee_recognition",
    modeled_on="Bonusly API v1 (users with giving/earning balances, bonuses with hashtags and add-ons, "
    "company values, rewards catalog, redemptions, admin approvals)",
    description="Peer recognition: employees give each other small bonuses out of a monthly allowance with "
    "a reason and company-value hashtags, pile on with add-ons, admins approve large bonuses, and points "
    "received are redeemed for gift cards, donations and custom rewards from the catalog.",
)

MemberId = Annotated[str, IdOf("recognition.member")]
HashtagId = Annotated[str, IdOf("recognition.hashtag")]
BonusId = Annotated[str, IdOf("recognition.bonus")]
RewardId = Annotated[str, IdOf("recognition.reward")]
RedemptionId = Annotated[str, IdOf("recognition.redemption")]

MemberRole = Literal["member", "manager", "admin"]
BonusStatus = Literal["approved", "pending_approval", "rejected"]
RewardKind = Literal["gift_card", "donation", "custom"]
RedemptionStatus = Literal["pending", "fulfilled", "canceled"]
Tag = Annotated[str, StringConstraints(pattern=r"^#[a-z][a-z0-9-]{1,39}$")]
"""A hashtag such as #customer-first."""
Points = Annotated[int, Field(ge=0, le=1_000_000)]

MAX_RECEIVERS = 5
MAX_EACH = 100
APPROVAL_ABOVE = 50
DELETE_WINDOW = dt.timedelta(hours=24)


class Member(Record):
    """An employee on the recognition program."""

    id: MemberId
    email: Email
    """The employee's e-mail."""
    display_name: PersonName
    """Their name."""
    department: Annotated[str, StringConstraints(min_length=1, max_length=80)] | None = None
    """Their department."""
    role: MemberRole = "member"
    """member, manager or admin (admins approve and fulfil)."""
    monthly_allowance: Annotated[int, Field(ge=0, le=10_000)] = 100
    """Points they may give each month."""
    giving_balance: Points = 100
    """Allowance left this month."""
    earning_balance: Points = 0
    """Points received and not yet redeemed."""
    active: bool = True
    """Whether they may give and receive."""
    created_at: Annotated[DateTime, CREATED]
    """When they joined the program."""


class Hashtag(Record):
    """A company value givers tag bonuses with."""

    id: HashtagId
    tag: Tag
    """The hashtag (unique)."""
    description: Text = ""
    """What the value means."""
    active: bool = True
    """Whether new bonuses may use it."""


class Bonus(Record):
    """A recognition: points from one member to others, for a reason."""

    id: BonusId
    giver_email: Email
    """Who gave it."""
    receiver_emails: tuple[Email, ...]
    """Who receives it."""
    amount: Annotated[int, Field(ge=1, le=MAX_EACH)]
    """Points each receiver gets."""
    reason: Text
    """Why, in the giver's words."""
    hashtags: tuple[Tag, ...]
    """Company values it shows."""
    parent_bonus_id: BonusId | None = None
    """The bonus this adds on to."""
    status: BonusStatus = "approved"
    """approved, pending_approval or rejected."""
    reviewed_by: Email | None = None
    """The admin who approved or rejected it."""
    created_at: Annotated[DateTime, CREATED]
    """When it was given."""
    updated_at: Annotated[DateTime, UPDATED]
    """When it last changed."""


class Reward(Record):
    """An item of the rewards catalog."""

    id: RewardId
    name: Title
    """Its name."""
    kind: RewardKind
    """gift_card, donation or custom."""
    points_cost: Annotated[int, Field(ge=1, le=100_000)]
    """Points it costs."""
    value_cents: Cents
    """Its cash value, in cents."""
    stock: Annotated[int, Field(ge=0, le=10_000)] | None = None
    """Items left (custom rewards; none: unlimited)."""
    active: bool = True
    """Whether it can be redeemed."""


class Redemption(Record):
    """Points a member spent on a reward."""

    id: RedemptionId
    member_email: Email
    """Who redeemed."""
    reward_id: RewardId
    """The reward."""
    points: Annotated[int, Field(ge=1, le=100_000)]
    """Points spent."""
    status: RedemptionStatus = "pending"
    """pending, fulfilled or canceled."""
    fulfilled_by: Email | None = None
    """The admin who fulfilled it (custom rewards)."""
    created_at: Annotated[DateTime, CREATED]
    """When it was redeemed."""
    updated_at: Annotated[DateTime, UPDATED]
    """When it last changed."""


class LeaderboardEntry(Value):
    """A member's recognition received in a period."""

    email: Email
    """The member."""
    display_name: PersonName
    """Their name."""
    points_received: int
    """Points from approved bonuses in the period."""
    bonuses_received: int
    """How many approved bonuses named them."""


# -- rules ------------------------------------------------------------------------------------


def _member(ctx: Ctx, email: str, field: str, *, admin: bool = False) -> Member:
    m = ctx.first(Member, email=email)
    if m is None or not m.active:
        raise RuleViolation(
            f"{email} is not an active member", field=field, hint="list members with recognition__list_members"
        )
    if admin and m.role != "admin":
        raise RuleViolation(f"{email} is not an admin", field=field, hint="ask a recognition admin")
    return m


def _guard_member(ctx: Ctx, new: Any, old: Any) -> None:
    if (
        new.role != "admin"
        and old.role == "admin"
        and not any(m.role == "admin" and m.active and m.id != new.id for m in ctx.scan(Member))
    ):
        raise RuleViolation("the program needs an admin", field="role", hint="make someone else admin first")
    if new.monthly_allowance != old.monthly_allowance and new.giving_balance > new.monthly_allowance:
        ctx.update(new, giving_balance=new.monthly_allowance)


def _guard_hashtag(ctx: Ctx, new: Any, old: Any) -> None:
    if any(old.tag in b.hashtags for b in ctx.scan(Bonus)):
        raise Conflict(f"{old.tag} is on bonuses", field="hashtag_id", hint="retire it with update active=false")


def _guard_reward(ctx: Ctx, new: Any, old: Any) -> None:
    if new.kind == "custom" and new.stock is None:
        raise RuleViolation("a custom reward needs a stock", field="stock", hint="say how many there are")


members = service.resource(
    Member,
    name="member",
    plural="members",
    prefix="usr",
    create=False,
    filters=("email", "department", "role", "active"),
    search=("display_name", "email"),
    update=("role", "monthly_allowance", "active", "department"),
    delete=False,
    guard_update=_guard_member,
)
hashtags = service.resource(
    Hashtag,
    name="hashtag",
    plural="hashtags",
    prefix="tag",
    create=False,
    filters=("active", "tag"),
    update=("description", "active"),
    guard_delete=_guard_hashtag,
    title="company value hashtag",
)
bonuses = service.resource(
    Bonus,
    name="bonus",
    plural="bonuses",
    prefix="bns",
    create=False,
    filters=("giver_email", "status", "parent_bonus_id"),
    search=("reason",),
    delete=False,
)
rewards = service.resource(
    Reward,
    name="reward",
    plural="rewards",
    prefix="rwd",
    create=("name", "kind", "points_cost", "value_cents", "stock"),
    filters=("kind", "active"),
    search=("name",),
    update=("name", "points_cost", "stock", "active"),
    delete=False,
    guard_create=_guard_reward,
    guard_update=_guard_reward,
)
redemptions = service.resource(
    Redemption,
    name="redemption",
    plural="redemptions",
    prefix="rdm",
    create=False,
    filters=("member_email", "reward_id", "status"),
    delete=False,
)


# -- domain tools -----------------------------------------------------------------------------


def _example_enroll(ctx: Ctx) -> dict[str, Any] | None:
    taken = {m.email for m in ctx.scan(Member)}
    p = next((p for p in ctx.population.employees if p.email not in taken), None)
    return None if p is None else {"email": p.email, "display_name": p.name, "department": p.department}


@service.tool(intent="enroll the employee", write=True, example=_example_enroll)
def enroll_member(
    ctx: Ctx,
    email: Email,
    display_name: PersonName,
    department: Annotated[str, StringConstraints(min_length=1, max_length=80)] | None = None,
    monthly_allowance: Annotated[int, Field(ge=0, le=10_000)] = 100,
) -> Member:
    """Add an employee to the program with a full allowance for this month.

    Args:
        email: The employee's e-mail.
        display_name: Their name.
        department: Their department.
        monthly_allowance: Points they may give each month.
    """
    if email not in {p.email for p in ctx.population.employees}:
        raise RuleViolation(f"{email} is not an employee", field="email", hint="only employees join the program")
    if ctx.first(Member, email=email) is not None:
        raise Conflict(f"{email} is already a member", field="email", hint="reactivate with update_member")
    return ctx.create(
        Member,
        email=email,
        display_name=display_name,
        department=department,
        monthly_allowance=monthly_allowance,
        giving_balance=monthly_allowance,
    )


@service.tool(
    intent="add the company value hashtag",
    write=True,
    example=lambda ctx: {"tag": "#be-kind", "description": "We assume good intent."},
)
def add_hashtag(ctx: Ctx, tag: Tag, description: Text = "") -> Hashtag:
    """Add a company value givers can tag bonuses with; hashtags are unique.

    Args:
        tag: The hashtag, lower case, starting with # (#customer-first).
        description: What the value means.
    """
    if ctx.first(Hashtag, tag=tag) is not None:
        raise Conflict(f"{tag} already exists", field="tag", hint="reactivate it with recognition__update_hashtag")
    return ctx.create(Hashtag, tag=tag, description=description)


def _check_tags(ctx: Ctx, tags: list[str]) -> None:
    if not tags:
        raise RuleViolation("a bonus needs a company hashtag", field="hashtags", hint=_TAGS)
    live = {h.tag for h in ctx.where(Hashtag, active=True)}
    for t in tags:
        if t not in live:
            raise RuleViolation(f"{t} is not an active company hashtag", field="hashtags", hint=_TAGS)


_TAGS = "list them with recognition__list_hashtags"


def _example_give(ctx: Ctx) -> dict[str, Any] | None:
    rich = [m for m in ctx.where(Member, active=True) if m.giving_balance >= 20]
    tag = ctx.first(Hashtag, active=True)
    if len(rich) < 2 or tag is None:
        return None
    return {
        "giver_email": rich[0].email,
        "receiver_emails": [rich[1].email],
        "amount": 10,
        "reason": "for staying late to get the release out",
        "hashtags": [tag.tag],
    }


def _pay(ctx: Ctx, giver: Member, receivers: list[str], amount: int, held: bool) -> None:
    total = amount * len(receivers)
    if giver.giving_balance < total:
        raise RuleViolation(
            f"{giver.email} has {giver.giving_balance} points left to give; this needs {total}",
            field="amount",
            hint="give fewer points or to fewer people",
        )
    ctx.update(giver, giving_balance=giver.giving_balance - total)
    if not held:
        _credit(ctx, receivers, amount)


def _credit(ctx: Ctx, receivers: tuple[str, ...] | list[str], amount: int) -> None:
    for email in receivers:
        m = ctx.first(Member, email=email)
        if m is not None:
            ctx.update(m, earning_balance=m.earning_balance + amount)


@service.tool(intent="give the bonus", write=True, example=_example_give)
def give_bonus(
    ctx: Ctx,
    giver_email: Email,
    receiver_emails: list[Email],
    amount: Annotated[int, Field(ge=1, le=MAX_EACH)],
    reason: Text,
    hashtags: list[Tag],
) -> Bonus:
    """Give points to one to five colleagues out of the giver's monthly allowance.

    More than 50 points a receiver waits for an admin's approval; the allowance is held meanwhile.

    Args:
        giver_email: The member giving.
        receiver_emails: One to five other active members.
        amount: Points each receiver gets (1-100).
        reason: Why they deserve it.
        hashtags: Active company hashtags (at least one).
    """
    giver = _member(ctx, giver_email, "giver_email")
    if not receiver_emails or len(receiver_emails) > MAX_RECEIVERS:
        raise RuleViolation(f"name 1 to {MAX_RECEIVERS} receivers", field="receiver_emails", hint="split the bonus")
    if len(set(receiver_emails)) != len(receiver_emails):
        raise RuleViolation("a receiver is named twice", field="receiver_emails", hint="name each once")
    if giver_email in receiver_emails:
        raise RuleViolation("members cannot give themselves a bonus", field="receiver_emails", hint="remove yourself")
    for r in receiver_emails:
        _member(ctx, r, "receiver_emails")
    if not reason.strip():
        raise RuleViolation("a bonus needs a reason", field="reason", hint="say what they did")
    _check_tags(ctx, hashtags)
    held = amount > APPROVAL_ABOVE
    _pay(ctx, giver, receiver_emails, amount, held)
    return ctx.create(
        Bonus,
        giver_email=giver_email,
        receiver_emails=tuple(receiver_emails),
        amount=amount,
        reason=reason.strip(),
        hashtags=tuple(hashtags),
        status="pending_approval" if held else "approved",
    )


def _example_addon(ctx: Ctx) -> dict[str, Any] | None:
    for b in ctx.where(Bonus, status="approved", parent_bonus_id=None):
        for m in ctx.where(Member, active=True):
            others = m.email != b.giver_email and m.email not in b.receiver_emails
            if others and m.giving_balance >= 20:
                return {"parent_bonus_id": b.id, "giver_email": m.email, "amount": 5}
    return None


@service.tool(intent="add on to the bonus", write=True, example=_example_addon)
def add_on_bonus(
    ctx: Ctx, parent_bonus_id: BonusId, giver_email: Email, amount: Annotated[int, Field(ge=1, le=APPROVAL_ABOVE)]
) -> Bonus:
    """Pile on an approved bonus: the same receivers each get amount more, from another giver.

    Args:
        parent_bonus_id: The approved bonus (not itself an add-on).
        giver_email: The member adding on (not the original giver nor a receiver).
        amount: Points each receiver gets (1-50).
    """
    parent = ctx.get(Bonus, parent_bonus_id, field="parent_bonus_id")
    if parent.parent_bonus_id is not None:
        parent = ctx.get(Bonus, parent.parent_bonus_id, field="parent_bonus_id")
    if parent.status != "approved":
        raise RuleViolation(f"bonus {parent.id} is {parent.status}", field="parent_bonus_id", hint="wait for approval")
    giver = _member(ctx, giver_email, "giver_email")
    if giver_email == parent.giver_email or giver_email in parent.receiver_emails:
        raise RuleViolation(
            "the giver and receivers of a bonus cannot add on", field="giver_email", hint="give a new bonus"
        )
    _pay(ctx, giver, list(parent.receiver_emails), amount, False)
    return ctx.create(
        Bonus,
        giver_email=giver_email,
        receiver_emails=parent.receiver_emails,
        amount=amount,
        reason=f"+{amount} {parent.reason}",
        hashtags=parent.hashtags,
        parent_bonus_id=parent.id,
    )


def _example_review(ctx: Ctx) -> dict[str, Any] | None:
    b = ctx.first(Bonus, status="pending_approval")
    admin = ctx.first(Member, role="admin", active=True)
    return None if b is None or admin is None else {"bonus_id": b.id, "approve": True, "admin_email": admin.email}


@service.tool(intent="review the bonus", write=True, example=_example_review)
def review_bonus(ctx: Ctx, bonus_id: BonusId, approve: bool, admin_email: Email) -> Bonus:
    """Approve a bonus waiting for approval (receivers are credited) or reject it (the giver gets points back).

    Args:
        bonus_id: The bonus waiting for approval.
        approve: True to approve, False to reject.
        admin_email: The admin reviewing (not the giver).
    """
    bonus = ctx.get(Bonus, bonus_id, field="bonus_id")
    if bonus.status != "pending_approval":
        raise RuleViolation(f"bonus {bonus.id} is {bonus.status}", field="bonus_id", hint="nothing to review")
    _member(ctx, admin_email, "admin_email", admin=True)
    if admin_email == bonus.giver_email:
        raise RuleViolation("givers cannot approve their own bonus", field="admin_email", hint="ask another admin")
    if approve:
        _credit(ctx, bonus.receiver_emails, bonus.amount)
    else:
        _refund(ctx, bonus)
    return ctx.update(bonus, status="approved" if approve else "rejected", reviewed_by=admin_email)


def _refund(ctx: Ctx, bonus: Bonus) -> None:
    giver = ctx.first(Member, email=bonus.giver_email)
    if giver is not None:
        back = min(giver.monthly_allowance, giver.giving_balance + bonus.amount * len(bonus.receiver_emails))
        ctx.update(giver, giving_balance=back)


@service.tool(
    intent="delete the bonus",
    write=True,
    destructive=True,
    example=first_example(
        Bonus,
        "bonus_id",
        where={"status": "approved"},
        match=lambda c, b: c.now() - b.created_at <= DELETE_WINDOW,
        fields={"giver_email": "giver_email"},
    ),
)
def delete_bonus(ctx: Ctx, bonus_id: BonusId, giver_email: Email) -> Bonus:
    """The giver takes back a bonus within 24 hours: receivers lose the points and the giver's allowance returns.

    Args:
        bonus_id: The bonus.
        giver_email: Its giver.
    """
    bonus = ctx.get(Bonus, bonus_id, field="bonus_id")
    if bonus.giver_email != giver_email:
        raise RuleViolation("only the giver can delete a bonus", field="giver_email", hint="ask the giver")
    if bonus.status == "rejected" or ctx.now() - bonus.created_at > DELETE_WINDOW:
        raise RuleViolation(
            f"bonus {bonus.id} can no longer be deleted", field="bonus_id", hint="bonuses are deleted within 24 hours"
        )
    if ctx.where(Bonus, parent_bonus_id=bonus.id):
        raise RuleViolation("others added on to this bonus", field="bonus_id", hint="it stays")
    if bonus.status == "approved":
        for email in bonus.receiver_emails:
            m = ctx.first(Member, email=email)
            if m is not None:
                if m.earning_balance < bonus.amount:
                    raise RuleViolation(f"{email} already redeemed the points", field="bonus_id", hint="it stays")
                ctx.update(m, earning_balance=m.earning_balance - bonus.amount)
    _refund(ctx, bonus)
    return ctx.update(bonus, status="rejected", reviewed_by=giver_email)


def _example_redeem(ctx: Ctx) -> dict[str, Any] | None:
    for r in ctx.where(Reward, active=True):
        for m in ctx.where(Member, active=True):
            if m.earning_balance >= r.points_cost and (r.stock is None or r.stock > 0):
                return {"member_email": m.email, "reward_id": r.id}
    return None


@service.tool(intent="redeem the reward", write=True, example=_example_redeem)
def redeem_reward(ctx: Ctx, member_email: Email, reward_id: RewardId) -> Redemption:
    """Spend earned points on a catalog reward; gift cards and donations are fulfilled at once.

    Args:
        member_email: The member redeeming.
        reward_id: An active reward in stock.
    """
    m = _member(ctx, member_email, "member_email")
    reward = ctx.get(Reward, reward_id, field="reward_id")
    if not reward.active or reward.stock == 0:
        raise RuleViolation(f"{reward.name} is not available", field="reward_id", hint="pick another reward")
    if m.earning_balance < reward.points_cost:
        raise RuleViolation(
            f"{member_email} has {m.earning_balance} points; {reward.name} costs {reward.points_cost}",
            field="reward_id",
            hint="pick a cheaper reward",
        )
    ctx.update(m, earning_balance=m.earning_balance - reward.points_cost)
    if reward.stock is not None:
        ctx.update(reward, stock=reward.stock - 1)
    status: RedemptionStatus = "pending" if reward.kind == "custom" else "fulfilled"
    return ctx.create(
        Redemption, member_email=member_email, reward_id=reward.id, points=reward.points_cost, status=status
    )


def _example_fulfil(ctx: Ctx) -> dict[str, Any] | None:
    r = ctx.first(Redemption, status="pending")
    admin = ctx.first(Member, role="admin", active=True)
    return None if r is None or admin is None else {"redemption_id": r.id, "admin_email": admin.email}


@service.tool(intent="fulfil the redemption", write=True, example=_example_fulfil)
def fulfil_redemption(ctx: Ctx, redemption_id: RedemptionId, admin_email: Email) -> Redemption:
    """An admin hands over a custom reward.

    Args:
        redemption_id: The pending redemption.
        admin_email: The admin.
    """
    red = ctx.get(Redemption, redemption_id, field="redemption_id")
    if red.status != "pending":
        raise RuleViolation(f"redemption {red.id} is {red.status}", field="redemption_id", hint="nothing to do")
    _member(ctx, admin_email, "admin_email", admin=True)
    return ctx.update(red, status="fulfilled", fulfilled_by=admin_email)


@service.tool(
    intent="cancel the redemption",
    write=True,
    example=first_example(Redemption, "redemption_id", where={"status": "pending"}),
)
def cancel_redemption(ctx: Ctx, redemption_id: RedemptionId) -> Redemption:
    """Cancel a pending redemption: the points go back to the member and the item back to stock.

    Args:
        redemption_id: The pending redemption.
    """
    red = ctx.get(Redemption, redemption_id, field="redemption_id")
    if red.status != "pending":
        raise RuleViolation(f"redemption {red.id} is {red.status}", field="redemption_id", hint="only pending ones")
    m = ctx.first(Member, email=red.member_email)
    if m is not None:
        ctx.update(m, earning_balance=m.earning_balance + red.points)
    reward = ctx.get(Reward, red.reward_id)
    if reward.stock is not None:
        ctx.update(reward, stock=reward.stock + 1)
    return ctx.update(red, status="canceled")


@service.tool(intent="reset the monthly allowances", write=True, idempotent=True, example=lambda ctx: {})
def reset_allowances(ctx: Ctx) -> list[Member]:
    """Start a new month: every active member's giving balance becomes their monthly allowance (no rollover)."""
    return [
        ctx.update(m, giving_balance=m.monthly_allowance)
        for m in ctx.where(Member, active=True)
        if m.giving_balance != m.monthly_allowance
    ]


@service.tool(intent="show the recognition leaderboard", example=lambda ctx: {"days": 30})
def leaderboard(
    ctx: Ctx, days: Annotated[int, Field(ge=1, le=365)] = 30, limit: Annotated[int, Field(ge=1, le=50)] = 10
) -> list[LeaderboardEntry]:
    """Members who received the most points from approved bonuses in the last days, most first.

    Args:
        days: The period, in days up to now.
        limit: How many members.
    """
    since = ctx.now() - dt.timedelta(days=days)
    points: dict[str, list[int]] = {}
    for b in ctx.where(Bonus, status="approved"):
        if b.created_at >= since:
            for r in b.receiver_emails:
                points.setdefault(r, []).append(b.amount)
    out = []
    for email, got in points.items():
        m = ctx.first(Member, email=email)
        if m is not None:
            out.append(
                LeaderboardEntry(
                    email=email, display_name=m.display_name, points_received=sum(got), bonuses_received=len(got)
                )
            )
    out.sort(key=lambda e: (-e.points_received, e.email))
    return out[:limit]


# -- seed -------------------------------------------------------------------------------------

VALUES: tuple[tuple[str, str, bool], ...] = (
    ("#customer-first", "We start from what the customer needs.", True),
    ("#ownership", "We act like owners and follow through.", True),
    ("#teamwork", "We win together.", True),
    ("#bias-for-action", "Speed matters; we decide and move.", True),
    ("#learn-and-grow", "We stay curious and teach each other.", True),
    ("#move-fast", "Retired in favour of #bias-for-action.", False),
)
REWARDS: tuple[tuple[str, RewardKind, int, int, int | None], ...] = (
    ("Amazon.com Gift Card $10", "gift_card", 100, 1000, None),
    ("Starbucks Gift Card $5", "gift_card", 50, 500, None),
    ("Donation to Doctors Without Borders $10", "donation", 100, 1000, None),
    ("Extra day off", "custom", 500, 0, 10),
    ("Lunch with the CEO", "custom", 300, 0, 0),
    ("Company hoodie", "custom", 150, 4500, 5),
)
REASONS = (
    "for jumping on the customer escalation on a Saturday",
    "for the clearest release notes we have ever shipped",
    "for onboarding the new hires so patiently",
    "for untangling the quarter-end numbers",
    "for covering the on-call shift at short notice",
    "for the brilliant demo at the all-hands",
)


@service.seeder
def seed(s: SeedContext) -> None:
    """Employees as members (People staff as admins) with points from earlier months, values, a catalog, bonuses."""
    pop = s.population
    people = pop.employees[:30]
    admins = {p.email for p in pop.staff("People", fallback=2)[:2]}
    made = [
        s.create(
            Member,
            email=p.email,
            display_name=p.name,
            department=p.department,
            role="admin" if p.email in admins else ("manager" if k % 7 == 0 else "member"),
            monthly_allowance=200 if k % 7 == 0 else 100,
            giving_balance=200 if k % 7 == 0 else 100,
            earning_balance=(k * 37) % 260,
            active=k != len(people) - 1,
            created_at=s.ago(days=500 - k),
        )
        for k, p in enumerate(people)
    ]
    for tag, desc, active in VALUES:
        s.create(Hashtag, tag=tag, description=desc, active=active)
    rewards = [
        s.create(Reward, name=n, kind=kind, points_cost=cost, value_cents=val, stock=stock)
        for n, kind, cost, val, stock in REWARDS
    ]
    live = [m for m in made if m.active]
    for k in range(24):
        giver = live[(k * 5) % len(live)]
        recv = [live[(k * 5 + 1 + j * 3) % len(live)] for j in range(1 + k % 3)]
        recv = [r for r in recv if r.id != giver.id]
        amount = (5, 10, 20, 25, 60, 10)[k % 6]
        held = amount > APPROVAL_ABOVE and k % 12 == 4
        recv = recv[:1] if amount > APPROVAL_ABOVE else recv
        giver = s.records(Member)[made.index(giver)]
        if giver.giving_balance < amount * len(recv):
            continue
        s.update(giver, giving_balance=giver.giving_balance - amount * len(recv))
        b = s.create(
            Bonus,
            giver_email=giver.email,
            receiver_emails=tuple(r.email for r in recv),
            amount=amount,
            reason=REASONS[k % len(REASONS)],
            hashtags=(VALUES[k % 5][0],),
            status="pending_approval" if held else "approved",
            reviewed_by=sorted(admins)[0] if amount > APPROVAL_ABOVE and not held and admins else None,
            created_at=s.ago(days=27 - k, hours=3) if k < 23 else s.ago(hours=2),
            updated_at=s.ago(days=max(0, 27 - k)),
        )
        if not held:
            for r in b.receiver_emails:
                m = next(x for x in s.records(Member) if x.email == r)
                s.update(m, earning_balance=m.earning_balance + amount)
    _seed_redemptions(s, rewards)


def _seed_redemptions(s: SeedContext, rewards: list[Reward]) -> None:
    """Some members spend points: a gift card fulfilled, a custom reward waiting."""
    for reward, status in ((rewards[1], "fulfilled"), (rewards[5], "pending")):
        m = max(s.records(Member), key=lambda x: (x.earning_balance, x.email))
        if m.earning_balance < reward.points_cost:
            continue
        s.update(m, earning_balance=m.earning_balance - reward.points_cost)
        if reward.stock is not None:
            s.update(reward, stock=reward.stock - 1)
        s.create(
            Redemption,
            member_email=m.email,
            reward_id=reward.id,
            points=reward.points_cost,
            status=status,
            created_at=s.ago(days=3),
            updated_at=s.ago(days=3),
        )
