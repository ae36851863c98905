"""Harvest Share: food bank: client households and visits, partner agencies, inventory, distributions, donations.

Modeled on Link2Feed (client intake, households, visits with visit limits,
TEFAP eligibility) and Oasis Insight, with the food bank side of Primarius /
Ceres (partner agencies with monitoring, agency orders and distributions,
inventory by lot, donations received at Feeding America's fair market value of
$1.93 a pound): households registered once by e-mail, one pantry visit per
household per calendar month, TEFAP commodities only for households under 185%
of the poverty guideline, partner agencies (pantries, soup kitchens,
shelters) that must have a monitoring visit in the last 12 months to receive
food and may not exceed their monthly allocation, distributions that draw
down inventory and are refused when stock is short or expired, and donations
that add stock.
"""

from __future__ import annotations

import datetime as dt
from typing import Annotated, Any, Literal

from pydantic import Field, StringConstraints

from compoworld.engine.context import Ctx
from compoworld.engine.errors import Conflict, RuleViolation
from compoworld.engine.service import Service, Transition
from compoworld.engine.state import SeedContext
from compoworld.engine.types import Cents, CompanyName, Date, Email, FirstName, IdOf, LastName, PostalCode, Title
from compoworld.services.kit.examples import first_example
from compoworld.services.kit.records import Timestamped, Value
from compoworld.services.kit.time import add_months

__all__ = ["service"]

service = Service(
    "foodbank",
    title="Harvest Share",
    category="food_bank",
    modeled_on="Link2Feed and Oasis Insight (client households, visits, visit limits, TEFAP eligibility) with "
    "Primarius / Ceres food bank operations (partner agencies, monitoring, distributions, inventory, donations)",
    description="The regional food bank: households registered at its pantry and their monthly visits, partner "
    "agencies that receive food, the warehouse inventory by lot, distributions to agencies, and donations "
    "received from grocers and food drives.",
)

ClientId = Annotated[str, IdOf("foodbank.client")]
VisitId = Annotated[str, IdOf("foodbank.visit")]
AgencyId = Annotated[str, IdOf("foodbank.agency")]
ItemId = Annotated[str, IdOf("foodbank.item")]
DistributionId = Annotated[str, IdOf("foodbank.distribution")]
DonationId = Annotated[str, IdOf("foodbank.donation")]
Pounds = Annotated[int, Field(ge=1, le=100000)]

Program = Literal["pantry", "tefap", "produce"]
AgencyKind = Literal["pantry", "soup_kitchen", "shelter", "after_school"]
Category = Literal["produce", "protein", "dairy", "grains", "canned", "baby"]
Source = Literal["donated", "tefap", "purchased"]

TEFAP_PCT = 185
FMV_CENTS_PER_LB = 193
MONITOR_MONTHS = 12


class Client(Timestamped):
    """A household registered at the pantry."""

    id: ClientId
    first_name: FirstName
    """Head of household's first name."""
    last_name: LastName
    """Head of household's last name."""
    email: Email
    """E-mail (unique)."""
    postal_code: PostalCode
    """ZIP code."""
    household_size: Annotated[int, Field(ge=1, le=20)]
    """People in the household."""
    seniors: Annotated[int, Field(ge=0, le=20)] = 0
    """Members 60 or older."""
    children: Annotated[int, Field(ge=0, le=20)] = 0
    """Members under 18."""
    monthly_income_cents: Cents
    """Self-declared gross monthly income."""
    status: Literal["active", "inactive"] = "active"
    """active or inactive."""
    last_visit_on: Date | None = None
    """The last pantry visit."""


class Visit(Timestamped):
    """A household's visit."""

    id: VisitId
    client_id: ClientId
    """The household."""
    client_email: Email
    """The household's e-mail."""
    program: Program
    """pantry, tefap or produce."""
    visited_on: Date
    """The day."""
    pounds: Pounds
    """Food given."""
    people_served: int
    """Household size at the visit."""


class Agency(Timestamped):
    """A partner agency that receives food."""

    id: AgencyId
    name: CompanyName
    """The agency's name."""
    kind: AgencyKind
    """pantry, soup_kitchen, shelter or after_school."""
    contact_email: Email
    """The agency coordinator."""
    monthly_allocation_lbs: Pounds
    """Most pounds a calendar month."""
    monitored_on: Date | None = None
    """The last monitoring visit."""
    status: Literal["active", "suspended"] = "active"
    """active or suspended."""


class Item(Timestamped):
    """A lot of food in the warehouse."""

    id: ItemId
    sku: Annotated[str, StringConstraints(pattern=r"^FB-\d{4}$")]
    """The lot's code."""
    name: Title
    """What it is."""
    category: Category
    """produce, protein, dairy, grains, canned or baby."""
    source: Source
    """donated, tefap or purchased."""
    on_hand_lbs: Annotated[int, Field(ge=0)]
    """Pounds on hand."""
    expires_on: Date | None = None
    """Best-by date."""


class Distribution(Timestamped):
    """Food released to a partner agency."""

    id: DistributionId
    agency_id: AgencyId
    """The agency."""
    item_id: ItemId
    """The lot."""
    pounds: Pounds
    """Pounds."""
    pickup_on: Date
    """Pickup day."""
    status: Literal["scheduled", "picked_up", "cancelled"] = "scheduled"
    """scheduled, picked_up or cancelled (the pounds go back to stock)."""


class Donation(Timestamped):
    """Food received from a donor."""

    id: DonationId
    donor_name: CompanyName
    """The donor (a grocer, farm or food drive)."""
    donor_email: Email | None = None
    """Where the receipt goes."""
    item_id: ItemId
    """The lot it went into."""
    pounds: Pounds
    """Pounds received."""
    received_on: Date
    """When."""
    fair_market_value_cents: int
    """Value for the donor's receipt ($1.93 a pound)."""


class Screening(Value):
    """A household's eligibility for the programs."""

    email: str
    """The household."""
    tefap_limit_cents: int
    """TEFAP income limit for the household size."""
    tefap_eligible: bool
    """Whether it may receive TEFAP commodities."""
    pantry_visit_available: bool
    """Whether this month's pantry visit is still open."""


# -- rules ------------------------------------------------------------------------------------


def _tefap_limit(size: int) -> int:
    return (1506000 + 538000 * (size - 1)) * TEFAP_PCT // 100 // 12


def _month_start(day: dt.date) -> dt.date:
    return day.replace(day=1)


def _client(ctx: Ctx, email: str) -> Client:
    found = ctx.first(Client, email=email)
    if found is None:
        raise RuleViolation(
            f"no household uses {email}", field="email", hint="register it with foodbank__create_client"
        )
    return found


def _guard_client(ctx: Ctx, new: Any, old: Any) -> None:
    if old is None or new.email != old.email:
        dup = ctx.first(Client, email=new.email)
        if dup is not None and dup.id != new.id:
            raise Conflict(f"household {dup.id} uses {new.email}", field="email", hint="record a visit for it")
    if new.seniors + new.children > new.household_size:
        raise RuleViolation("seniors and children exceed the household size", field="household_size", hint="recount")


def _agency_pounds(ctx: Ctx, agency_id: str, day: dt.date) -> int:
    start = _month_start(day)
    return sum(
        d.pounds
        for d in ctx.where(Distribution, agency_id=agency_id)
        if d.status != "cancelled" and _month_start(d.pickup_on) == start
    )


def _guard_distribution(ctx: Ctx, new: Any, old: Any) -> None:
    if new.status == "cancelled" and old.status != "cancelled":
        item = ctx.get(Item, new.item_id)
        ctx.update(item, on_hand_lbs=item.on_hand_lbs + new.pounds)


clients = service.resource(
    Client,
    name="client",
    plural="clients",
    prefix="cli",
    create=(
        "first_name",
        "last_name",
        "email",
        "postal_code",
        "household_size",
        "seniors",
        "children",
        "monthly_income_cents",
    ),
    filters=("email", "last_name", "postal_code", "status"),
    search=("first_name", "last_name"),
    update=("household_size", "seniors", "children", "monthly_income_cents", "postal_code", "status"),
    delete=False,
    guard_create=_guard_client,
    guard_update=_guard_client,
)
visits = service.resource(
    Visit,
    name="visit",
    plural="visits",
    prefix="vis",
    create=False,
    filters=("client_id", "client_email", "program", "visited_on"),
    delete=False,
)
agencies = service.resource(
    Agency,
    name="agency",
    plural="agencies",
    prefix="agy",
    create=False,
    filters=("name", "kind", "status", "contact_email"),
    search=("name",),
    update=("contact_email", "monthly_allocation_lbs"),
    delete=False,
    transitions={
        "suspend": Transition("status", ("active",), "suspended", "suspend the partner agency"),
        "reinstate": Transition("status", ("suspended",), "active", "reinstate the partner agency"),
    },
    title="partner agency",
)
items = service.resource(
    Item,
    name="item",
    plural="items",
    prefix="itm",
    create=False,
    filters=("sku", "category", "source"),
    search=("name",),
    delete=False,
    title="inventory lot",
)
distributions = service.resource(
    Distribution,
    name="distribution",
    plural="distributions",
    prefix="dst",
    create=False,
    filters=("agency_id", "item_id", "status", "pickup_on"),
    delete=False,
    transitions={
        "pick_up": Transition("status", ("scheduled",), "picked_up", "record the distribution as picked up"),
        "cancel": Transition("status", ("scheduled",), "cancelled", "cancel the distribution"),
    },
    guard_update=_guard_distribution,
)
donations = service.resource(
    Donation,
    name="donation",
    plural="donations",
    prefix="don",
    create=False,
    filters=("donor_name", "donor_email", "item_id", "received_on"),
    delete=False,
)


# -- domain tools -----------------------------------------------------------------------------


@service.tool(
    intent="screen the household's eligibility",
    example=first_example(Client, None, fields={"email": "email"}),
)
def screen_household(ctx: Ctx, email: Email) -> Screening:
    """Whether a household qualifies for TEFAP (income under 185% of poverty) and still has this month's visit.

    Args:
        email: The household's e-mail.
    """
    c = _client(ctx, email)
    limit = _tefap_limit(c.household_size)
    used = c.last_visit_on is not None and _month_start(c.last_visit_on) == _month_start(ctx.today())
    return Screening(
        email=c.email,
        tefap_limit_cents=limit,
        tefap_eligible=c.monthly_income_cents <= limit,
        pantry_visit_available=not used,
    )


def _example_visit(ctx: Ctx) -> dict[str, Any] | None:
    month = _month_start(ctx.today())
    for c in ctx.where(Client, status="active"):
        if c.last_visit_on is None or _month_start(c.last_visit_on) != month:
            return {"email": c.email, "program": "pantry", "pounds": 35}
    return None


@service.tool(intent="record the household's pantry visit", write=True, example=_example_visit)
def record_visit(ctx: Ctx, email: Email, program: Program, pounds: Pounds) -> Visit:
    """Record a visit: one pantry visit a calendar month; TEFAP only for income-eligible households.

    Args:
        email: The household's e-mail.
        program: pantry (monthly limit), tefap (USDA commodities) or produce (no limit).
        pounds: Pounds of food given.
    """
    c = _client(ctx, email)
    if c.status != "active":
        raise RuleViolation(f"household {email} is inactive", field="email", hint="reactivate it first")
    today = ctx.today()
    if program == "pantry" and c.last_visit_on is not None and _month_start(c.last_visit_on) == _month_start(today):
        raise RuleViolation(
            f"the household visited on {c.last_visit_on}",
            field="program",
            hint="one pantry visit a month; offer produce",
        )
    if program == "tefap" and c.monthly_income_cents > _tefap_limit(c.household_size):
        raise RuleViolation("income is above the TEFAP limit", field="program", hint="give a pantry visit instead")
    if program == "pantry":
        ctx.update(c, last_visit_on=today)
    return ctx.create(
        Visit,
        client_id=c.id,
        client_email=c.email,
        program=program,
        visited_on=today,
        pounds=pounds,
        people_served=c.household_size,
    )


def _example_distribution(ctx: Ctx) -> dict[str, Any] | None:
    item = max(ctx.scan(Item), key=lambda i: i.on_hand_lbs, default=None)
    for agency in ctx.where(Agency, status="active"):
        room = agency.monthly_allocation_lbs - _agency_pounds(ctx, agency.id, ctx.today())
        if item is not None and room >= 50 and item.on_hand_lbs >= 50:
            return {
                "agency_id": agency.id,
                "sku": item.sku,
                "pounds": 50,
                "pickup_on": (ctx.today() + dt.timedelta(days=2)).isoformat(),
            }
    return None


@service.tool(intent="schedule a distribution to the partner agency", write=True, example=_example_distribution)
def schedule_distribution(
    ctx: Ctx,
    agency_id: AgencyId,
    sku: Annotated[str, StringConstraints(pattern=r"^FB-\d{4}$")],
    pounds: Pounds,
    pickup_on: Date,
) -> Distribution:
    """Release food from a lot to an active, monitored agency within its monthly allocation.

    Args:
        agency_id: The agency.
        sku: The lot's code.
        pounds: Pounds.
        pickup_on: Pickup day (today or later, before the lot's best-by date).
    """
    agency = ctx.get(Agency, agency_id, field="agency_id")
    if agency.status != "active":
        raise RuleViolation(f"{agency.name} is suspended", field="agency_id", hint="reinstate it first")
    today = ctx.today()
    if agency.monitored_on is None or agency.monitored_on < add_months(today, -MONITOR_MONTHS):
        raise RuleViolation(
            f"{agency.name} has no monitoring visit in the last 12 months",
            field="agency_id",
            hint="record a monitoring visit first",
        )
    item = ctx.first(Item, sku=sku)
    if item is None:
        raise RuleViolation(f"no lot {sku}", field="sku", hint="list the inventory")
    if pickup_on < today:
        raise RuleViolation("pickups are scheduled ahead", field="pickup_on", hint="pick today or later")
    if item.expires_on is not None and item.expires_on < pickup_on:
        raise RuleViolation(f"lot {sku} expires {item.expires_on}", field="sku", hint="pick a fresher lot")
    if pounds > item.on_hand_lbs:
        raise RuleViolation(f"only {item.on_hand_lbs} lbs of {sku} on hand", field="pounds", hint="release less")
    used = _agency_pounds(ctx, agency.id, pickup_on)
    if used + pounds > agency.monthly_allocation_lbs:
        raise RuleViolation(
            f"{agency.name} has {agency.monthly_allocation_lbs - used} lbs left this month",
            field="pounds",
            hint="release less or wait for next month",
        )
    ctx.update(item, on_hand_lbs=item.on_hand_lbs - pounds)
    return ctx.create(Distribution, agency_id=agency.id, item_id=item.id, pounds=pounds, pickup_on=pickup_on)


@service.tool(
    intent="record the agency's monitoring visit",
    write=True,
    example=first_example(Agency, "agency_id"),
)
def record_monitoring(ctx: Ctx, agency_id: AgencyId) -> Agency:
    """Record today's monitoring visit of an agency (food safety, records, civil rights posters).

    Args:
        agency_id: The agency.
    """
    agency = ctx.get(Agency, agency_id, field="agency_id")
    return ctx.update(agency, monitored_on=ctx.today())


def _example_donation(ctx: Ctx) -> dict[str, Any] | None:
    return {
        "donor_name": "Fresh Valley Grocers",
        "sku": "FB-2001",
        "name": "Mixed produce",
        "category": "produce",
        "pounds": 420,
        "donor_email": "giving@freshvalley.example",
    }


@service.tool(intent="receive the food donation", write=True, example=_example_donation)
def receive_donation(
    ctx: Ctx,
    donor_name: CompanyName,
    sku: Annotated[str, StringConstraints(pattern=r"^FB-\d{4}$")],
    pounds: Pounds,
    name: Title | None = None,
    category: Category | None = None,
    expires_on: Date | None = None,
    donor_email: Email | None = None,
) -> Donation:
    """Receive donated food into a lot (a new lot needs a name and category); the receipt values it at $1.93/lb.

    Args:
        donor_name: The donor.
        sku: The lot's code (an existing donated lot, or a new one).
        pounds: Pounds received.
        name: The new lot's description.
        category: The new lot's category.
        expires_on: The new lot's best-by date.
        donor_email: Where the receipt goes.
    """
    item = ctx.first(Item, sku=sku)
    if item is None:
        if name is None or category is None:
            raise RuleViolation(f"lot {sku} is new", field="name", hint="give the new lot's name and category")
        if expires_on is not None and expires_on <= ctx.today():
            raise RuleViolation("the food is past its date", field="expires_on", hint="refuse expired food")
        item = ctx.create(
            Item, sku=sku, name=name, category=category, source="donated", on_hand_lbs=0, expires_on=expires_on
        )
    elif item.source != "donated":
        raise RuleViolation(f"lot {sku} is {item.source} stock", field="sku", hint="receive into a donated lot")
    ctx.update(item, on_hand_lbs=item.on_hand_lbs + pounds)
    return ctx.create(
        Donation,
        donor_name=donor_name,
        donor_email=donor_email,
        item_id=item.id,
        pounds=pounds,
        received_on=ctx.today(),
        fair_market_value_cents=pounds * FMV_CENTS_PER_LB,
    )


# -- seed -------------------------------------------------------------------------------------

LOTS: tuple[tuple[str, Category, Source, int, int | None], ...] = (
    ("Canned green beans", "canned", "tefap", 2400, 400),
    ("Frozen chicken leg quarters", "protein", "tefap", 1800, 120),
    ("Fresh apples", "produce", "donated", 900, 12),
    ("Whole grain pasta", "grains", "purchased", 1500, 300),
    ("Shelf-stable milk", "dairy", "donated", 600, 90),
    ("Infant formula", "baby", "purchased", 150, 200),
    ("Day-old bread", "grains", "donated", 200, 1),
)
KINDS: tuple[AgencyKind, ...] = ("pantry", "soup_kitchen", "shelter", "after_school", "pantry", "pantry")


@service.seeder
def seed(s: SeedContext) -> None:
    """Households of the world's residents with visits, partner agencies from its companies, lots and donations."""
    pop = s.population
    today = s.now.date()
    lots = [
        s.create(
            Item,
            sku=f"FB-{1001 + k:04d}",
            name=name,
            category=cat,
            source=src,
            on_hand_lbs=lbs,
            expires_on=today + dt.timedelta(days=days) if days else None,
            created_at=s.ago(days=30),
            updated_at=s.ago(days=2),
        )
        for k, (name, cat, src, lbs, days) in enumerate(LOTS)
    ]
    for k, p in enumerate(pop.consumers[:22]):
        size = 1 + k % 6
        last = today - dt.timedelta(days=(3 + 11 * k) % 70)
        c = s.create(
            Client,
            first_name=p.first_name,
            last_name=p.last_name,
            email=p.email,
            postal_code=p.address.postal_code,
            household_size=size,
            seniors=1 if k % 4 == 0 else 0,
            children=max(0, size - 2),
            monthly_income_cents=_tefap_limit(size) * (50 + 13 * k % 90) // 100,
            status="inactive" if k == 21 else "active",
            last_visit_on=last,
            created_at=s.ago(days=500 - 10 * k),
            updated_at=s.ago(days=(today - last).days),
        )
        s.create(
            Visit,
            client_id=c.id,
            client_email=c.email,
            program="pantry",
            visited_on=last,
            pounds=30 + 2 * size,
            people_served=size,
            created_at=s.ago(days=(today - last).days),
            updated_at=s.ago(days=(today - last).days),
        )
    donors = [co for co in pop.companies if not co.home][:6]
    for k, co in enumerate(donors[:5]):
        contact = pop.first_contact(co)
        agency = s.create(
            Agency,
            name=f"{co.name} Community Pantry" if k % 2 else f"{co.name} Outreach",
            kind=KINDS[k % len(KINDS)],
            contact_email=contact.email if contact else f"pantry@{co.domain}",
            monthly_allocation_lbs=800 + 200 * k,
            monitored_on=today - dt.timedelta(days=400 if k == 3 else 30 + 40 * k),
            status="suspended" if k == 4 else "active",
            created_at=s.ago(days=1000),
            updated_at=s.ago(days=30),
        )
        for j in range(2):
            lot = lots[(k + j) % 4]
            s.create(
                Distribution,
                agency_id=agency.id,
                item_id=lot.id,
                pounds=150 + 50 * j,
                pickup_on=today + dt.timedelta(days=2 - 5 * j),
                status="scheduled" if j == 0 else "picked_up",
                created_at=s.ago(days=7),
                updated_at=s.ago(days=1),
            )
    for k, co in enumerate(donors):
        lot = lots[(2, 4, 6)[k % 3]]
        s.create(
            Donation,
            donor_name=co.name,
            donor_email=f"giving@{co.domain}",
            item_id=lot.id,
            pounds=100 + 40 * k,
            received_on=today - dt.timedelta(days=3 + 4 * k),
            fair_market_value_cents=(100 + 40 * k) * FMV_CENTS_PER_LB,
            created_at=s.ago(days=3 + 4 * k),
            updated_at=s.ago(days=3 + 4 * k),
        )
