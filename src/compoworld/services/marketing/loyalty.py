"""Stamp Rewards: a shop's loyalty program of members, a points ledger, earning rules, VIP tiers and rewards.

Modeled on the Yotpo Loyalty & Referrals API v2 (customers, points
adjustments, campaigns as earning rules, VIP tiers, redemption options,
redemptions with coupon codes) and the Smile.io REST API (points transactions,
points expiry). Members are the shop's customers (staff cannot join), one per
e-mail; excluded members neither earn nor redeem. Every change of a balance
is a ledger entry and a balance never goes below zero. Earning rules give
points per dollar of an order (each order once, multiplied by the member's
VIP tier), or a fixed amount for signing up (once), a birthday (once a
calendar year) or a review. Points expire 365 days after they were earned;
spending uses the oldest points first. A member's VIP tier follows the points
earned (spending does not lower it). A reward costs points, may need a
minimum tier, and its redemption issues a unique discount code valid for 90
days; an unused redemption can be cancelled and its points come back.
"""

from __future__ import annotations

import datetime as dt
from typing import Annotated, Any, Literal

from pydantic import BaseModel, Field, StringConstraints

from compoworld.engine.context import Ctx
from compoworld.engine.errors import Conflict, RuleViolation
from compoworld.engine.records import Record
from compoworld.engine.service import Service, Transition
from compoworld.engine.state import SeedContext
from compoworld.engine.types import (
    Cents,
    Date,
    Email,
    FirstName,
    IdOf,
    LastName,
    OrderNumber,
    Text,
    Title,
)
from compoworld.services.kit.examples import first_example, fixed_example
from compoworld.services.kit.records import Created
from compoworld.world.commerce import first_order_numbers

__all__ = ["service"]

service = Service(
    "loyalty",
    title="Stamp Rewards",
    category="loyalty",
    modeled_on="Yotpo Loyalty & Referrals API v2 (customers, points adjustments, campaigns, VIP tiers, "
    "redemption options, redemptions) and Smile.io REST API (points transactions, points expiry)",
    description="A shop's loyalty program: customers as members, a points ledger that never goes negative, "
    "earning rules for orders, sign-ups, birthdays and reviews, VIP tiers by points earned, rewards redeemed "
    "for discount codes, and points that expire a year after they were earned.",
)

MemberId = Annotated[str, IdOf("loyalty.member")]
RuleId = Annotated[str, IdOf("loyalty.earning_rule")]
TierId = Annotated[str, IdOf("loyalty.tier")]
RewardId = Annotated[str, IdOf("loyalty.reward")]
RedemptionId = Annotated[str, IdOf("loyalty.redemption")]
EntryId = Annotated[str, IdOf("loyalty.ledger_entry")]
DiscountCode = Annotated[str, StringConstraints(pattern=r"^[A-Z0-9-]{6,32}$")]
"""A discount code for the shop's checkout, e.g. STAMP-7KQ2M9."""

RuleKind = Literal["purchase", "signup", "birthday", "review"]
EntryKind = Literal["earn", "redeem", "refund", "adjust", "expire"]
POINTS_LIFE = dt.timedelta(days=365)
CODE_LIFE = dt.timedelta(days=90)
CODE_CHARS = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"
MAX_ADJUST = 100_000


class Tier(Record):
    """A VIP tier reached by points earned."""

    id: TierId
    name: Title
    """Tier name."""
    threshold: int
    """Points earned needed to reach it."""
    multiplier: float = 1.0
    """How purchase points are multiplied for members in it."""


class Member(Created):
    """A shop customer in the loyalty program."""

    id: MemberId
    email: Email
    """The customer's e-mail; one member per e-mail."""
    first_name: FirstName
    """Given name."""
    last_name: LastName
    """Family name."""
    birthday: Date | None = None
    """Date of birth, for the birthday rule."""
    points_balance: int = 0
    """Points available to spend; never below 0."""
    points_earned: int = 0
    """Points earned in all (the VIP tier follows it)."""
    tier_id: TierId | None = None
    """The member's VIP tier."""
    status: Literal["active", "excluded"] = "active"
    """active, or excluded from earning and redeeming."""


class EarningRule(Record):
    """A way to earn points."""

    id: RuleId
    name: Title
    """Rule name."""
    kind: RuleKind
    """purchase (per dollar), signup (once), birthday (once a year) or review."""
    points: int = 0
    """Points given, for fixed rules."""
    points_per_dollar: int = 0
    """Points per whole dollar of an order, for purchase rules."""
    active: bool = True
    """Whether it gives points now."""


class Reward(Record):
    """Something members buy with points."""

    id: RewardId
    name: Title
    """Reward name."""
    points_cost: int
    """Points it costs."""
    discount_type: Literal["fixed_amount", "percentage", "free_shipping"]
    """What the code takes off."""
    discount_value: float = 0.0
    """Cents off (fixed_amount) or percent off (percentage)."""
    min_tier_id: TierId | None = None
    """The lowest VIP tier that may redeem it."""
    active: bool = True
    """Whether it can be redeemed."""


class Redemption(Created):
    """A reward a member bought, with its discount code."""

    id: RedemptionId
    member_id: MemberId
    """The member."""
    reward_id: RewardId
    """The reward."""
    points_spent: int
    """Points it cost."""
    discount_code: DiscountCode
    """The code to use at checkout."""
    status: Literal["issued", "used", "cancelled"] = "issued"
    """issued, used (at checkout) or cancelled (points refunded)."""
    expires_on: Date
    """The last day the code works."""


class LedgerEntry(Created):
    """One change of a member's points."""

    id: EntryId
    member_id: MemberId
    """The member."""
    kind: EntryKind
    """earn, redeem, refund, adjust or expire."""
    delta: int
    """Points added (positive) or taken (negative)."""
    balance_after: int
    """The balance after it; never below 0."""
    reason: Text = ""
    """Why."""
    rule_id: RuleId | None = None
    """The earning rule, for earn entries."""
    order_number: OrderNumber | None = None
    """The shop order, for purchase points."""
    redemption_id: RedemptionId | None = None
    """The redemption, for redeem and refund entries."""
    expires_on: Date | None = None
    """When points added by it expire."""
    remaining: int = 0
    """How many of the points it added are still unspent and unexpired."""


# -- rules ------------------------------------------------------------------------------------


def _tier_for(ctx: Ctx, earned: int) -> Tier | None:
    best = None
    for tier in ctx.scan(Tier):
        if tier.threshold <= earned and (best is None or tier.threshold > best.threshold):
            best = tier
    return best


def _active_member(ctx: Ctx, member_id: str) -> Member:
    member = ctx.get(Member, member_id, field="member_id")
    if member.status != "active":
        raise RuleViolation(
            f"member {member.email} is excluded from the program",
            field="member_id",
            hint="reinstate them with loyalty__reinstate_member first",
        )
    return member


def _consume(ctx: Ctx, member: Member, points: int) -> None:
    """Take ``points`` from the member's oldest unexpired positive entries (first in, first out)."""
    lots = [e for e in ctx.where(LedgerEntry, member_id=member.id) if e.remaining > 0]
    lots.sort(key=lambda e: (e.expires_on or dt.date.max, e.created_at, e.id))
    left = points
    for lot in lots:
        if left == 0:
            break
        take = min(lot.remaining, left)
        ctx.update(lot, remaining=lot.remaining - take)
        left -= take


def _post(ctx: Ctx, member: Member, kind: EntryKind, delta: int, **fields: Any) -> tuple[Member, LedgerEntry]:
    """Write a ledger entry and move the balance; refuses anything that would make it negative."""
    balance = member.points_balance + delta
    if balance < 0:
        raise RuleViolation(
            f"member {member.email} has {member.points_balance} points; {-delta} cannot be taken",
            field="points",
            hint="a balance never goes below 0",
        )
    if delta < 0:
        _consume(ctx, member, -delta)
    lot = {"expires_on": ctx.today() + POINTS_LIFE, "remaining": delta} if delta > 0 else {}
    entry = ctx.create(LedgerEntry, member_id=member.id, kind=kind, delta=delta, balance_after=balance, **lot, **fields)
    changes: dict[str, Any] = {"points_balance": balance}
    if kind in ("earn", "adjust") and delta > 0:
        earned = member.points_earned + delta
        tier = _tier_for(ctx, earned)
        changes |= {"points_earned": earned, "tier_id": tier.id if tier else None}
    return ctx.update(member, **changes), entry


def _guard_member_create(ctx: Ctx, new: Any, old: Any) -> None:
    if new.email in {p.email for p in ctx.population.employees}:
        raise RuleViolation(
            f"{new.email} is a staff address; staff cannot join the loyalty program",
            field="email",
            hint="enrol the customer's own e-mail",
        )
    for other in ctx.where(Member, email=new.email):
        if other.id != new.id:
            raise Conflict(f"{new.email} is already a member ({other.id})", field="email", hint="use that member")
    tier = _tier_for(ctx, 0)
    ctx.update(new, tier_id=tier.id if tier else None)
    rule = ctx.first(EarningRule, kind="signup", active=True)
    if rule is not None:
        _post(ctx, ctx.get(Member, new.id), "earn", rule.points, reason=rule.name, rule_id=rule.id)


def _code(ctx: Ctx) -> str:
    while True:
        code = "STAMP-" + "".join(ctx.rng.choice(CODE_CHARS) for _ in range(6))
        if ctx.first(Redemption, discount_code=code) is None:
            return code


tiers = service.resource(
    Tier,
    name="tier",
    plural="tiers",
    prefix="tier",
    create=False,
    get=False,
    filters=(),
    delete=False,
    title="VIP tier",
)
members = service.resource(
    Member,
    name="member",
    plural="members",
    prefix="mbr",
    create=("email", "first_name", "last_name", "birthday"),
    filters=("email", "tier_id", "status"),
    search=("first_name", "last_name", "email"),
    update=("first_name", "last_name", "birthday"),
    delete=False,
    transitions={
        "exclude": Transition(
            "status",
            ("active",),
            "excluded",
            "exclude the member from the loyalty program",
            description="Exclude a member: they keep their points but neither earn nor redeem.",
        ),
        "reinstate": Transition("status", ("excluded",), "active", "reinstate the excluded member"),
    },
    guard_create=_guard_member_create,
)
rules = service.resource(
    EarningRule,
    name="earning_rule",
    plural="earning_rules",
    prefix="rule",
    create=False,
    get=False,
    filters=("kind", "active"),
    delete=False,
    title="earning rule",
)
rewards = service.resource(
    Reward,
    name="reward",
    plural="rewards",
    prefix="rwd",
    create=False,
    get=False,
    filters=("discount_type", "active", "min_tier_id"),
    search=("name",),
    delete=False,
)
redemptions = service.resource(
    Redemption,
    name="redemption",
    plural="redemptions",
    prefix="rdm",
    create=False,
    get=False,
    filters=("member_id", "reward_id", "status", "discount_code"),
    delete=False,
)
ledger = service.resource(
    LedgerEntry,
    name="ledger_entry",
    plural="ledger_entries",
    prefix="led",
    create=False,
    get=False,
    filters=("member_id", "kind", "order_number", "redemption_id"),
    delete=False,
    title="points ledger entry",
)


# -- examples ---------------------------------------------------------------------------------


def _example_award(ctx: Ctx) -> dict[str, Any] | None:
    rule = ctx.first(EarningRule, kind="purchase", active=True)
    member = ctx.first(Member, status="active")
    if rule is None or member is None:
        return None
    return {"member_id": member.id, "rule_id": rule.id, "order_number": "#90001", "order_amount": 8450}


def _example_redeem(ctx: Ctx) -> dict[str, Any] | None:
    for member in ctx.where(Member, status="active"):
        for reward in ctx.where(Reward, active=True):
            if member.points_balance >= reward.points_cost and _tier_ok(ctx, member, reward):
                return {"member_id": member.id, "reward_id": reward.id}
    return None


def _tier_ok(ctx: Ctx, member: Member, reward: Reward) -> bool:
    if reward.min_tier_id is None:
        return True
    need = ctx.get(Tier, reward.min_tier_id).threshold
    have = ctx.get(Tier, member.tier_id).threshold if member.tier_id else 0
    return have >= need


# -- tools ------------------------------------------------------------------------------------


@service.tool(intent="award the member points by an earning rule", write=True, example=_example_award)
def award_points(
    ctx: Ctx,
    member_id: MemberId,
    rule_id: RuleId,
    order_number: OrderNumber | None = None,
    order_amount: Cents | None = None,
) -> LedgerEntry:
    """Give a member the points an active earning rule grants.

    A purchase rule needs the order's number and amount and gives points per
    whole dollar times the member's tier multiplier, once per order; a sign-up
    rule pays once per member, a birthday rule once a calendar year.

    Args:
        member_id: The member.
        rule_id: The earning rule.
        order_number: The shop order (purchase rules).
        order_amount: What the order cost, in cents (purchase rules).
    """
    member = _active_member(ctx, member_id)
    rule = ctx.get(EarningRule, rule_id, field="rule_id")
    if not rule.active:
        raise RuleViolation(f"rule {rule.name} is inactive", field="rule_id", hint="use an active earning rule")
    mine = ctx.where(LedgerEntry, member_id=member.id, rule_id=rule.id)
    if rule.kind == "purchase":
        if order_number is None or not order_amount:
            raise RuleViolation(
                "a purchase rule needs the order number and a positive amount",
                field="order_number" if order_number is None else "order_amount",
                hint="pass the order's number and what it cost",
            )
        if ctx.first(LedgerEntry, member_id=member.id, order_number=order_number) is not None:
            raise Conflict(
                f"order {order_number} already earned {member.email} points",
                field="order_number",
                hint="each order earns once",
            )
        multiplier = ctx.get(Tier, member.tier_id).multiplier if member.tier_id else 1.0
        points = int(order_amount // 100 * rule.points_per_dollar * multiplier)
        if points <= 0:
            raise RuleViolation(
                "the order is too small to earn points", field="order_amount", hint="orders earn per whole dollar"
            )
        return _post(ctx, member, "earn", points, reason=rule.name, rule_id=rule.id, order_number=order_number)[1]
    if order_number is not None:
        raise RuleViolation(
            f"{rule.kind} rules take no order", field="order_number", hint="omit the order for this rule"
        )
    if rule.kind == "signup" and mine:
        raise Conflict(f"{member.email} already got the sign-up points", field="rule_id", hint="sign-up pays once")
    if rule.kind == "birthday":
        if member.birthday is None:
            raise RuleViolation(
                f"{member.email} has no birthday on file", field="member_id", hint="set it with loyalty__update_member"
            )
        if any(e.created_at.year == ctx.today().year for e in mine):
            raise Conflict(
                f"{member.email} already got birthday points in {ctx.today().year}",
                field="rule_id",
                hint="birthday points are given once a year",
            )
    return _post(ctx, member, "earn", rule.points, reason=rule.name, rule_id=rule.id)[1]


@service.tool(
    intent="adjust the member's points by hand",
    write=True,
    example=first_example(
        Member, "member_id", where={"status": "active"}, points=250, reason="Goodwill for a late parcel"
    ),
)
def adjust_points(ctx: Ctx, member_id: MemberId, points: int, reason: Text) -> LedgerEntry:
    """Add or take points by hand (a goodwill gesture, a correction), with a reason.

    Taking points may not make the balance negative; at most 100,000 either way.

    Args:
        member_id: The member.
        points: Points to add (positive) or take (negative).
        reason: Why, for the ledger.
    """
    member = ctx.get(Member, member_id, field="member_id")
    if points == 0 or abs(points) > MAX_ADJUST:
        raise RuleViolation("points must be non-zero and at most 100,000", field="points", hint="pass the change")
    if not reason.strip():
        raise RuleViolation("an adjustment needs a reason", field="reason", hint="say why, for the ledger")
    return _post(ctx, member, "adjust", points, reason=reason)[1]


@service.tool(intent="redeem a reward for the member", write=True, example=_example_redeem)
def redeem_reward(ctx: Ctx, member_id: MemberId, reward_id: RewardId) -> Redemption:
    """Spend a member's points on a reward and issue its discount code (valid 90 days).

    The reward must be active, the member's tier at least the reward's
    minimum and the balance at least its cost.

    Args:
        member_id: The member.
        reward_id: The reward.
    """
    member = _active_member(ctx, member_id)
    reward = ctx.get(Reward, reward_id, field="reward_id")
    if not reward.active:
        raise RuleViolation(f"reward {reward.name} is inactive", field="reward_id", hint="pick an active reward")
    if not _tier_ok(ctx, member, reward):
        need = ctx.get(Tier, reward.min_tier_id or "").name
        raise RuleViolation(
            f"reward {reward.name} is for {need} members and above",
            field="reward_id",
            hint="pick a reward of their tier",
        )
    if member.points_balance < reward.points_cost:
        raise RuleViolation(
            f"{member.email} has {member.points_balance} points; {reward.name} costs {reward.points_cost}",
            field="reward_id",
            hint="pick a cheaper reward or earn more points",
        )
    red = ctx.create(
        Redemption,
        member_id=member.id,
        reward_id=reward.id,
        points_spent=reward.points_cost,
        discount_code=_code(ctx),
        expires_on=ctx.today() + CODE_LIFE,
    )
    _post(ctx, member, "redeem", -reward.points_cost, reason=reward.name, redemption_id=red.id)
    return red


@service.tool(
    intent="cancel the redemption and refund its points",
    write=True,
    example=first_example(Redemption, "redemption_id", where={"status": "issued"}),
)
def cancel_redemption(ctx: Ctx, redemption_id: RedemptionId) -> Redemption:
    """Cancel an unused redemption: its code stops working and its points come back.

    Args:
        redemption_id: The redemption.
    """
    red = ctx.get(Redemption, redemption_id, field="redemption_id")
    if red.status != "issued":
        raise RuleViolation(
            f"redemption {red.discount_code} is {red.status}",
            field="redemption_id",
            hint="only unused codes can be cancelled",
        )
    member = ctx.get(Member, red.member_id)
    _post(ctx, member, "refund", red.points_spent, reason=f"cancelled {red.discount_code}", redemption_id=red.id)
    return ctx.update(red, status="cancelled")


class Expiry(BaseModel):
    """What a points-expiry run took."""

    as_of: Date = Field(description="The day of the run.")
    entries: list[LedgerEntry] = Field(description="The expire entries written, one per member.")
    points_expired: int = Field(description="Points expired in all.")


@service.tool(intent="expire points earned more than a year ago", write=True, example=fixed_example())
def expire_points(ctx: Ctx) -> Expiry:
    """Expire every member's unspent points whose 365 days have passed."""
    today = ctx.today()
    due: dict[str, int] = {}
    for entry in ctx.scan(LedgerEntry):
        if entry.remaining > 0 and entry.expires_on is not None and entry.expires_on < today:
            due[entry.member_id] = due.get(entry.member_id, 0) + entry.remaining
    written = []
    for member_id in sorted(due):
        member = ctx.get(Member, member_id)
        points = min(due[member_id], member.points_balance)
        if points > 0:
            written.append(_post(ctx, member, "expire", -points, reason="points older than 365 days")[1])
    return Expiry(as_of=today, entries=written, points_expired=sum(-e.delta for e in written))


# -- seeding ----------------------------------------------------------------------------------


@service.seeder
def seed(s: SeedContext) -> None:
    """Tiers, rules and rewards; the population's consumers as members with a year of ledger history."""
    bronze = s.create(Tier, name="Bronze", threshold=0, multiplier=1.0)
    silver = s.create(Tier, name="Silver", threshold=800, multiplier=1.25)
    gold = s.create(Tier, name="Gold", threshold=2000, multiplier=1.5)
    tiers_ = (bronze, silver, gold)
    purchase = s.create(EarningRule, name="Points per dollar spent", kind="purchase", points_per_dollar=5)
    signup = s.create(EarningRule, name="Join the program", kind="signup", points=200)
    birthday = s.create(EarningRule, name="Birthday treat", kind="birthday", points=300)
    s.create(EarningRule, name="Write a product review", kind="review", points=100)
    s.create(EarningRule, name="Follow us on social (ended)", kind="review", points=50, active=False)
    five = s.create(Reward, name="$5 off", points_cost=500, discount_type="fixed_amount", discount_value=500)
    s.create(Reward, name="$15 off", points_cost=1400, discount_type="fixed_amount", discount_value=1500)
    s.create(Reward, name="Free shipping", points_cost=400, discount_type="free_shipping")
    s.create(
        Reward,
        name="20% off for Gold",
        points_cost=1500,
        discount_type="percentage",
        discount_value=20,
        min_tier_id=gold.id,
    )
    s.create(Reward, name="Tote bag (sold out)", points_cost=800, discount_type="fixed_amount", active=False)
    orders = first_order_numbers(s.population)
    for n, person in enumerate(s.population.consumers[:40]):
        joined = s.now - dt.timedelta(days=420 - 9 * n)
        member = s.create(
            Member,
            email=person.email,
            first_name=person.first_name,
            last_name=person.last_name,
            birthday=person.birth_date if n % 3 else None,
            status="excluded" if n % 13 == 12 else "active",
            created_at=joined,
        )
        book = _Book(s, member, tiers_)
        book.add("earn", signup.points, joined, reason=signup.name, rule_id=signup.id)
        for k in range(1 + n % 4):
            when = joined + dt.timedelta(days=30 + 70 * k)
            if when >= s.now:
                break
            amount = s.rng.randint(10, 160)
            number = orders.get(person.email) if k == 0 else None
            book.add(
                "earn",
                int(amount * purchase.points_per_dollar * book.multiplier()),
                when,
                reason=purchase.name,
                rule_id=purchase.id,
                order_number=number or f"#{70000 + 10 * n + k}",
            )
        if n % 3 == 1 and person.birth_date is not None:
            book.add("earn", birthday.points, s.now - dt.timedelta(days=40), reason=birthday.name, rule_id=birthday.id)
        if n % 4 == 2 and book.balance >= five.points_cost:
            when = s.now - dt.timedelta(days=20 + n)
            red = s.create(
                Redemption,
                member_id=member.id,
                reward_id=five.id,
                points_spent=five.points_cost,
                discount_code=f"STAMP-S{n:05d}",
                status="used" if n % 8 == 2 else "issued",
                expires_on=(when + CODE_LIFE).date(),
                created_at=when,
            )
            book.add("redeem", -five.points_cost, when, reason=five.name, redemption_id=red.id)
        book.close()


class _Book:
    """A seeded member's ledger, kept in date order with the same FIFO and tier rules as the tools."""

    def __init__(self, s: SeedContext, member: Member, tiers_: tuple[Tier, ...]) -> None:
        self.s, self.member, self.tiers = s, member, tiers_
        self.balance = self.earned = 0
        self.lots: list[LedgerEntry] = []

    def multiplier(self) -> float:
        return self.tier().multiplier

    def tier(self) -> Tier:
        return max((t for t in self.tiers if t.threshold <= self.earned), key=lambda t: t.threshold)

    def add(self, kind: EntryKind, delta: int, when: dt.datetime, **fields: Any) -> None:
        self.balance += delta
        if delta < 0:
            left = -delta
            for i, lot in enumerate(self.lots):
                take = min(lot.remaining, left)
                if take:
                    self.lots[i] = self.s.update(lot, remaining=lot.remaining - take)
                    left -= take
        extra: dict[str, Any] = {}
        if delta > 0:
            extra = {"expires_on": (when + POINTS_LIFE).date(), "remaining": delta}
            self.earned += delta
        entry = self.s.create(
            LedgerEntry,
            member_id=self.member.id,
            kind=kind,
            delta=delta,
            balance_after=self.balance,
            created_at=when,
            **extra,
            **fields,
        )
        if delta > 0:
            self.lots.append(entry)

    def close(self) -> None:
        self.s.update(self.member, points_balance=self.balance, points_earned=self.earned, tier_id=self.tier().id)
