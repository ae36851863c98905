"""Rightsbook: rights and royalties for the company's titles: rights in, deals out, availability, statements.

Modeled on Rightsline (Rights Cloud): catalog items (properties such as films,
series, books and music catalogs), rights in (acquired from a licensor for
media, territories and a term, exclusive or not), deals out to licensees
(draft → pending_approval → executed, or cancelled; executed deals past their
term are expired) with their media, territories, term, exclusivity, fee and
royalty rate, the availability check ("avails") that a deal must pass to be
executed (the rights in cover every media and territory for the whole term;
no executed exclusive deal overlaps, and an exclusive deal overlaps no other
executed deal), and royalty statements per deal and quarter (draft → sent →
paid) computed from gross receipts. Territory "WW" means worldwide.
"""

from __future__ import annotations

import datetime as dt
from typing import Annotated, Any, Literal

from pydantic import Field, StringConstraints

from compoworld.engine.context import Ctx
from compoworld.engine.errors import Conflict, RuleViolation
from compoworld.engine.service import Service, Transition
from compoworld.engine.state import SeedContext
from compoworld.engine.types import Cents, CompanyName, Country, Date, Email, IdOf, Percent, Title
from compoworld.services.kit.examples import first_example
from compoworld.services.kit.lists import require_employee
from compoworld.services.kit.records import Created, Timestamped, Value

__all__ = ["service"]

service = Service(
    "rights",
    title="Rightsbook",
    category="rights_management",
    modeled_on="Rightsline Rights Cloud (catalog items, rights in from licensors, deals out by media, territory "
    "and term, availability checks, exclusivity conflicts, royalty statements)",
    description="Rights and royalties management for the company's titles: the rights acquired from licensors, "
    "licensing deals with licensees by media, territory and term, availability checks that catch conflicts, "
    "and quarterly royalty statements.",
)

PropertyId = Annotated[str, IdOf("rights.property")]
RightsInId = Annotated[str, IdOf("rights.rights_in")]
DealId = Annotated[str, IdOf("rights.deal")]
StatementId = Annotated[str, IdOf("rights.statement")]

Territory = Country
"""An ISO country code, or WW for worldwide."""
Quarter = Annotated[str, StringConstraints(pattern=r"^20[0-9]{2}-Q[1-4]$")]
"""A quarter, e.g. 2026-Q1."""
Media = Literal["theatrical", "tv", "svod", "avod", "home_video", "print", "ebook", "audio"]
PropertyType = Literal["film", "series", "book", "music_catalog", "format"]
DealStatus = Literal["draft", "pending_approval", "executed", "cancelled", "expired"]
StatementStatus = Literal["draft", "sent", "paid"]


class Property(Timestamped):
    """A title whose rights are managed."""

    id: PropertyId
    title: Title
    """The title."""
    type: PropertyType
    """film, series, book, music_catalog or format."""
    year: Annotated[int, Field(ge=1900, le=2100)]
    """Year of release."""
    manager_email: Email
    """The employee managing its rights."""


class RightsIn(Created):
    """Rights acquired for a property from a licensor."""

    id: RightsInId
    property_id: PropertyId
    """The property."""
    licensor: CompanyName
    """Who granted them."""
    media: tuple[Media, ...]
    """Media covered."""
    territories: tuple[Territory, ...]
    """Territories covered (WW: worldwide)."""
    starts_on: Date
    """First day."""
    ends_on: Date
    """Last day."""
    exclusive: bool = True
    """Whether exclusive to the company."""


class Deal(Timestamped):
    """A license out of a property to a licensee."""

    id: DealId
    property_id: PropertyId
    """The property."""
    licensee: CompanyName
    """The licensee company."""
    licensee_email: Email
    """The licensee's contact."""
    media: tuple[Media, ...]
    """Media licensed."""
    territories: tuple[Territory, ...]
    """Territories licensed."""
    starts_on: Date
    """First day of the term."""
    ends_on: Date
    """Last day."""
    exclusive: bool = False
    """Exclusive license."""
    fee: Cents = 0
    """Minimum guarantee or flat fee, cents."""
    royalty_rate: Percent = 0
    """Royalty on gross receipts, percent."""
    status: DealStatus = "draft"
    """draft, pending_approval, executed, cancelled or expired."""


class Statement(Created):
    """A quarterly royalty statement of a deal."""

    id: StatementId
    deal_id: DealId
    """The deal."""
    quarter: Quarter
    """The quarter."""
    gross_receipts: Cents
    """Licensee's reported gross, cents."""
    royalty_due: Cents
    """Royalty owed, cents."""
    status: StatementStatus = "draft"
    """draft, sent or paid."""


class Availability(Value):
    """Whether rights are available for a deal."""

    available: bool
    """True when nothing blocks it."""
    reasons: list[str]
    """What blocks it."""
    conflicting_deal_ids: list[DealId]
    """Executed deals in conflict."""


# -- rules ------------------------------------------------------------------------------------


def _covers(have: tuple[str, ...], want: str) -> bool:
    return want in have or "WW" in have


def _overlap(a: tuple[str, ...], b: tuple[str, ...]) -> bool:
    return "WW" in a or "WW" in b or bool(set(a) & set(b))


def _avails(
    ctx: Ctx,
    pid: str,
    media: tuple[str, ...],
    terr: tuple[str, ...],
    start: dt.date,
    end: dt.date,
    exclusive: bool,
    skip: str | None = None,
) -> Availability:
    reasons: list[str] = []
    held = [r for r in ctx.where(RightsIn, property_id=pid) if r.starts_on <= start and end <= r.ends_on]
    for m in media:
        for t in terr:
            if not any(m in r.media and _covers(r.territories, t) for r in held):
                reasons.append(f"no rights in for {m} in {t} over the whole term")
    clash: list[str] = []
    for d in ctx.where(Deal, property_id=pid, status="executed"):
        if d.id == skip or d.ends_on < start or end < d.starts_on:
            continue
        if (d.exclusive or exclusive) and set(d.media) & set(media) and _overlap(d.territories, terr):
            clash.append(d.id)
            reasons.append(f"{'exclusive ' if d.exclusive else ''}deal {d.id} with {d.licensee} overlaps")
    return Availability(available=not reasons, reasons=reasons, conflicting_deal_ids=clash)


def _guard_property(ctx: Ctx, new: Any, old: Any) -> None:
    require_employee(ctx, new.manager_email, field="manager_email", hint="rights are managed by staff")


def _guard_deal(ctx: Ctx, new: Any, old: Any) -> None:
    if old is not None and old.status != "draft" and new.status == old.status:
        raise RuleViolation(f"deal {old.id} is {old.status}", field="deal_id", hint="only draft deals are edited")
    if new.ends_on < new.starts_on:
        raise RuleViolation("the term ends before it starts", field="ends_on", hint="fix the dates")
    if not new.media or not new.territories:
        raise RuleViolation("a deal needs media and territories", field="media", hint="list both")
    ctx.get(Property, new.property_id, field="property_id")


def _guard_deal_delete(ctx: Ctx, new: Any, old: Any) -> None:
    if old.status != "draft":
        raise RuleViolation(f"deal {old.id} is {old.status}", field="deal_id", hint="cancel it instead")


properties = service.resource(
    Property,
    name="property",
    plural="properties",
    prefix="prop",
    create=("title", "type", "year", "manager_email"),
    filters=("type", "manager_email", "year"),
    search=("title",),
    update=("title", "manager_email"),
    delete=False,
    guard_create=_guard_property,
    guard_update=_guard_property,
)
rights_in = service.resource(
    RightsIn,
    name="rights_in",
    plural="rights_in",
    prefix="rin",
    create=False,
    filters=("property_id", "licensor", "exclusive"),
    delete=False,
    title="rights in",
)
deals = service.resource(
    Deal,
    name="deal",
    plural="deals",
    prefix="deal",
    create=False,
    filters=("property_id", "licensee", "licensee_email", "status", "exclusive"),
    search=("licensee",),
    update=("media", "territories", "starts_on", "ends_on", "exclusive", "fee", "royalty_rate"),
    transitions={
        "submit": Transition("status", ("draft",), "pending_approval", "submit the deal for approval"),
        "cancel": Transition(
            "status", ("draft", "pending_approval", "executed"), "cancelled", "cancel the deal", destructive=True
        ),
    },
    guard_update=_guard_deal,
    guard_delete=_guard_deal_delete,
)
statements = service.resource(
    Statement,
    name="statement",
    plural="statements",
    prefix="stmt",
    create=False,
    filters=("deal_id", "quarter", "status"),
    delete=False,
    transitions={
        "send": Transition("status", ("draft",), "sent", "send the royalty statement"),
        "pay": Transition("status", ("sent",), "paid", "mark the royalty statement paid"),
    },
    title="royalty statement",
)


# -- domain tools -----------------------------------------------------------------------------


@service.tool(
    intent="check the rights availability",
    example=first_example(
        Property, "property_id", media=["svod"], territories=["US"], starts_on="2027-01-01", ends_on="2027-12-31"
    ),
)
def check_availability(
    ctx: Ctx,
    property_id: PropertyId,
    media: list[Media],
    territories: list[Territory],
    starts_on: Date,
    ends_on: Date,
    exclusive: bool = False,
) -> Availability:
    """Whether a property's rights are free for these media, territories and term (an "avails" check).

    Args:
        property_id: The property.
        media: Media wanted.
        territories: Territories wanted (WW: worldwide).
        starts_on: First day.
        ends_on: Last day.
        exclusive: Whether the license would be exclusive.
    """
    prop = ctx.get(Property, property_id, field="property_id")
    if ends_on < starts_on:
        raise RuleViolation("the term ends before it starts", field="ends_on", hint="fix the dates")
    return _avails(ctx, prop.id, tuple(media), tuple(territories), starts_on, ends_on, exclusive)


def _example_acquire(ctx: Ctx) -> dict[str, Any] | None:
    prop = ctx.first(Property)
    return (
        None
        if prop is None
        else {
            "property_id": prop.id,
            "licensor": "Northwind Pictures",
            "media": ["audio"],
            "territories": ["GB"],
            "starts_on": ctx.today().isoformat(),
            "ends_on": (ctx.today() + dt.timedelta(days=730)).isoformat(),
        }
    )


@service.tool(intent="record the rights acquired", write=True, example=_example_acquire)
def acquire_rights(
    ctx: Ctx,
    property_id: PropertyId,
    licensor: CompanyName,
    media: list[Media],
    territories: list[Territory],
    starts_on: Date,
    ends_on: Date,
    exclusive: bool = True,
) -> RightsIn:
    """Record rights in for a property from a licensor.

    Args:
        property_id: The property.
        licensor: The company granting them.
        media: Media acquired (at least one).
        territories: Territories (WW: worldwide).
        starts_on: First day.
        ends_on: Last day (after the first).
        exclusive: Exclusive to the company.
    """
    prop = ctx.get(Property, property_id, field="property_id")
    if not media or not territories:
        raise RuleViolation("list media and territories", field="media", hint="give at least one of each")
    if ends_on <= starts_on:
        raise RuleViolation("the term ends before it starts", field="ends_on", hint="fix the dates")
    return ctx.create(
        RightsIn,
        property_id=prop.id,
        licensor=licensor,
        media=tuple(media),
        territories=tuple(territories),
        starts_on=starts_on,
        ends_on=ends_on,
        exclusive=exclusive,
    )


def _example_draft(ctx: Ctx) -> dict[str, Any] | None:
    prop = ctx.first(Property, type="film")
    return (
        None
        if prop is None
        else {
            "property_id": prop.id,
            "licensee": "Streamly Media",
            "licensee_email": "rights@streamly.example",
            "media": ["avod"],
            "territories": ["CA"],
            "starts_on": (ctx.today() + dt.timedelta(days=30)).isoformat(),
            "ends_on": (ctx.today() + dt.timedelta(days=395)).isoformat(),
            "fee": 1500000,
            "royalty_rate": 12.5,
        }
    )


@service.tool(intent="draft a licensing deal", write=True, example=_example_draft)
def draft_deal(
    ctx: Ctx,
    property_id: PropertyId,
    licensee: CompanyName,
    licensee_email: Email,
    media: list[Media],
    territories: list[Territory],
    starts_on: Date,
    ends_on: Date,
    exclusive: bool = False,
    fee: Cents = 0,
    royalty_rate: Percent = 0,
) -> Deal:
    """Draft a license of a property to a licensee; it is checked for availability when executed.

    Args:
        property_id: The property.
        licensee: The licensee company.
        licensee_email: Their contact's e-mail.
        media: Media licensed.
        territories: Territories (WW: worldwide).
        starts_on: First day of the term.
        ends_on: Last day.
        exclusive: Exclusive license.
        fee: Flat fee or minimum guarantee, cents.
        royalty_rate: Royalty on gross receipts, percent.
    """
    deal = ctx.create(
        Deal,
        property_id=property_id,
        licensee=licensee,
        licensee_email=licensee_email,
        media=tuple(media),
        territories=tuple(territories),
        starts_on=starts_on,
        ends_on=ends_on,
        exclusive=exclusive,
        fee=fee,
        royalty_rate=royalty_rate,
    )
    _guard_deal(ctx, deal, None)
    return deal


def _example_execute(ctx: Ctx) -> dict[str, Any] | None:
    for d in ctx.where(Deal, status="pending_approval"):
        if _avails(ctx, d.property_id, d.media, d.territories, d.starts_on, d.ends_on, d.exclusive).available:
            return {"deal_id": d.id, "approver_email": ctx.population.employees[0].email}
    return None


@service.tool(intent="execute the deal", write=True, example=_example_execute)
def execute_deal(ctx: Ctx, deal_id: DealId, approver_email: Email) -> Deal:
    """Approve and execute a pending deal; refused when the rights are not available.

    Args:
        deal_id: The deal (pending approval).
        approver_email: The employee approving it.
    """
    deal = ctx.get(Deal, deal_id, field="deal_id")
    require_employee(ctx, approver_email, field="approver_email", hint="deals are approved by staff")
    if deal.status != "pending_approval":
        raise RuleViolation(f"deal {deal.id} is {deal.status}", field="deal_id", hint="submit it for approval")
    av = _avails(
        ctx, deal.property_id, deal.media, deal.territories, deal.starts_on, deal.ends_on, deal.exclusive, skip=deal.id
    )
    if not av.available:
        raise Conflict("; ".join(av.reasons), field="deal_id", hint="change the deal's media, territories or term")
    return ctx.update(deal, status="executed")


def _example_statement(ctx: Ctx) -> dict[str, Any] | None:
    for d in ctx.where(Deal, status="executed"):
        if not ctx.where(Statement, deal_id=d.id, quarter="2025-Q4"):
            return {"deal_id": d.id, "quarter": "2025-Q4", "gross_receipts": 1250000}
    return None


@service.tool(intent="create the royalty statement", write=True, example=_example_statement)
def create_statement(ctx: Ctx, deal_id: DealId, quarter: Quarter, gross_receipts: Cents) -> Statement:
    """Compute a deal's royalty for a quarter from the licensee's gross receipts; one statement per quarter.

    Args:
        deal_id: An executed or expired deal.
        quarter: The quarter, e.g. 2026-Q1.
        gross_receipts: Gross receipts reported, cents.
    """
    deal = ctx.get(Deal, deal_id, field="deal_id")
    if deal.status not in ("executed", "expired"):
        raise RuleViolation(f"deal {deal.id} is {deal.status}", field="deal_id", hint="only executed deals earn")
    if ctx.where(Statement, deal_id=deal.id, quarter=quarter):
        raise Conflict(f"deal {deal.id} already has a {quarter} statement", field="quarter", hint="update that one")
    due = round(gross_receipts * deal.royalty_rate / 100)
    return ctx.create(Statement, deal_id=deal.id, quarter=quarter, gross_receipts=gross_receipts, royalty_due=due)


# -- seed -------------------------------------------------------------------------------------

TITLES: tuple[tuple[str, PropertyType, int], ...] = (
    ("The Lighthouse Keeper", "film", 2021),
    ("Harbor City", "series", 2023),
    ("Ninety Days North", "book", 2019),
    ("Blue Hour Sessions", "music_catalog", 2018),
    ("Kitchen Masters", "format", 2022),
)


@service.seeder
def seed(s: SeedContext) -> None:
    """Titles with rights in, deals out to the world's companies in every state, and statements."""
    pop = s.population
    staff = pop.staff("Legal", "Finance", "Marketing", fallback=3)
    today = s.now.date()
    companies = [c for c in pop.customers if pop.first_contact(c) is not None][:6] or list(pop.customers[:6])
    for k, (title, ptype, year) in enumerate(TITLES):
        prop = s.create(
            Property,
            title=title,
            type=ptype,
            year=year,
            manager_email=staff[k % len(staff)].email,
            created_at=s.ago(days=800 - 50 * k),
            updated_at=s.ago(days=10 + k),
        )
        media: tuple[Media, ...] = (
            ("print", "ebook", "audio")
            if ptype == "book"
            else ("audio",)
            if ptype == "music_catalog"
            else ("tv", "svod", "avod", "home_video")
        )
        s.create(
            RightsIn,
            property_id=prop.id,
            licensor=("Northwind Pictures", "Atlas Literary")[k % 2],
            media=media,
            territories=("WW",) if k % 2 == 0 else ("US", "CA", "GB"),
            starts_on=today - dt.timedelta(days=700),
            ends_on=today + dt.timedelta(days=1500 - 100 * k),
            created_at=s.ago(days=700),
        )
        plan: tuple[tuple[DealStatus, int, int, bool], ...] = (
            ("executed", -200, 400, True),
            ("pending_approval", 30, 365, False),
            ("draft", 60, 200, False),
            ("expired", -600, 300, False),
        )
        for j, (status, start, length, exclusive) in enumerate(plan[: 2 + k % 3]):
            company = companies[(k + j) % len(companies)]
            contact = pop.first_contact(company)
            deal = s.create(
                Deal,
                property_id=prop.id,
                licensee=company.name,
                licensee_email=contact.email if contact else f"rights@{company.domain}",
                media=media[:1],
                territories=("US",) if j != 1 else ("GB",) if k % 2 else ("DE",),
                starts_on=today + dt.timedelta(days=start),
                ends_on=today + dt.timedelta(days=start + length),
                exclusive=exclusive,
                fee=2_500_000 + 500_000 * k,
                royalty_rate=10 + 2.5 * j,
                status=status,
                created_at=s.ago(days=max(5, 30 - start)),
                updated_at=s.ago(days=3 + j),
            )
            if status in ("executed", "expired"):
                for q, qs in enumerate(("2025-Q2", "2025-Q3")):
                    gross = 4_000_000 + 730_000 * (k + q)
                    s.create(
                        Statement,
                        deal_id=deal.id,
                        quarter=qs,
                        gross_receipts=gross,
                        royalty_due=round(gross * deal.royalty_rate / 100),
                        status="paid" if q == 0 else "sent" if k % 2 else "draft",
                        created_at=s.ago(days=120 - 90 * q),
                    )
