"""Roadwise: product management of customer notes, insights, features, components, releases and portal cards.

Modeled on the Productboard Public API (``/notes`` with ``state``
unprocessed / processed / archived, the customer's e-mail and company, and
``/notes/{id}/links`` to features as insights with an importance;
``/features`` with a ``status`` (New idea, Candidate, Planned, In progress,
Released, Won't do), an owner, a parent ``component`` and prioritization
drivers; ``/components``; ``/releases`` in release groups with a state
upcoming / in progress / completed and ``feature-release-assignments``; and
Portal cards customers vote on, each vote recorded as a note linked to the
card's feature).

A feature's user impact is the sum of its insights' importance (nice to have
1, important 2, critical 3); its priority score is (user impact + business
value) × 10 / effort. Insights link processed or unprocessed notes to
features once each; linking processes the note. Feature names are unique in
their component. A feature is released only when assigned to a release that
is not upcoming, and a completed release takes no features; completing a
release needs all its features released or moved out. A portal card shows a
feature that is not "won't do", once; a customer votes on a card once.
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
from compoworld.engine.types import CompanyName, Date, DateTime, Email, IdOf, PersonName, Text, Title
from compoworld.services.kit.examples import first_example
from compoworld.services.kit.lists import require_employee
from compoworld.services.kit.records import Value

__all__ = ["service"]

service = Service(
    "roadmaps",
    title="Roadwise",
    category="product_management",
    modeled_on="Productboard Public API: notes (state, customer, company, links to features as insights with "
    "importance), features (status, owner, component, prioritization drivers), components, releases and release "
    "groups with feature assignments, portal cards and votes",
    description="Product management for the product team: customer notes and the insights they give about features, "
    "features with status, components, prioritization scores from user impact, value and effort, releases with "
    "their features, and the customer portal where customers vote on cards.",
)

NoteId = Annotated[str, IdOf("roadmaps.note")]
InsightId = Annotated[str, IdOf("roadmaps.insight")]
FeatureId = Annotated[str, IdOf("roadmaps.feature")]
ComponentId = Annotated[str, IdOf("roadmaps.component")]
ReleaseId = Annotated[str, IdOf("roadmaps.release")]
CardId = Annotated[str, IdOf("roadmaps.portal_card")]

Importance = Literal["nice_to_have", "important", "critical"]
FeatureStatus = Literal["new_idea", "candidate", "planned", "in_progress", "released", "wont_do"]
WEIGHT: dict[str, int] = {"nice_to_have": 1, "important": 2, "critical": 3}


class Note(Record):
    """Feedback from a customer or colleague."""

    id: NoteId
    title: Title
    """Its title."""
    content: Text
    """What was said."""
    source: Literal["email", "support_ticket", "call", "portal", "manual"] = "manual"
    """Where it came from."""
    customer_email: Email | None = None
    """The customer who gave it."""
    customer_name: PersonName | None = None
    """Their name."""
    company_name: CompanyName | None = None
    """Their company."""
    owner_email: Email | None = None
    """The product manager processing it."""
    state: Literal["unprocessed", "processed", "archived"] = "unprocessed"
    """unprocessed, processed or archived."""
    created_at: Annotated[DateTime, CREATED]
    """When it was captured."""
    updated_at: Annotated[DateTime, UPDATED]
    """When it last changed."""


class Component(Record):
    """A part of the product that features belong to."""

    id: ComponentId
    name: Title
    """Its unique name."""
    owner_email: Email | None = None
    """The product manager responsible."""
    created_at: Annotated[DateTime, CREATED]
    """When it was made."""


class Release(Record):
    """A release in a release group."""

    id: ReleaseId
    name: Title
    """Its name."""
    release_group: Title = "Quarterly releases"
    """Its release group."""
    start_date: Date
    """When work starts."""
    end_date: Date
    """When it ships."""
    state: Literal["upcoming", "in_progress", "completed"] = "upcoming"
    """upcoming, in_progress or completed."""
    created_at: Annotated[DateTime, CREATED]
    """When it was made."""


class Feature(Record):
    """A feature on the roadmap."""

    id: FeatureId
    component_id: ComponentId
    """Its component."""
    name: Title
    """Its name (unique in its component)."""
    description: Text = ""
    """What it is."""
    status: FeatureStatus = "new_idea"
    """new_idea, candidate, planned, in_progress, released or wont_do."""
    owner_email: Email | None = None
    """The product manager who owns it."""
    release_id: ReleaseId | None = None
    """The release it is assigned to."""
    business_value: Annotated[int, Field(ge=0, le=10)] = 0
    """Business value driver, 0-10."""
    effort: Annotated[int, Field(ge=1, le=13)] = 3
    """Effort in story points, 1-13."""
    created_at: Annotated[DateTime, CREATED]
    """When it was created."""
    updated_at: Annotated[DateTime, UPDATED]
    """When it last changed."""


class Insight(Record):
    """A link from a note to a feature, with how much it matters."""

    id: InsightId
    note_id: NoteId
    """The note."""
    feature_id: FeatureId
    """The feature."""
    importance: Importance = "important"
    """nice_to_have, important or critical."""
    created_at: Annotated[DateTime, CREATED]
    """When it was linked."""


class PortalCard(Record):
    """A feature shown on the customer portal."""

    id: CardId
    feature_id: FeatureId
    """The feature."""
    title: Title
    """What customers see."""
    description: Text = ""
    """Its text."""
    voters: tuple[Email, ...] = ()
    """Customers who voted."""
    status: Literal["published", "unpublished"] = "published"
    """published or unpublished."""
    created_at: Annotated[DateTime, CREATED]
    """When it was made."""


class Score(Value):
    """A feature's prioritization."""

    feature_id: FeatureId
    """The feature."""
    insights: int
    """Linked insights."""
    user_impact: int
    """Sum of their importance (1-3 each)."""
    business_value: int
    """Its value driver."""
    effort: int
    """Its effort."""
    priority_score: float
    """(user impact + business value) × 10 / effort."""


# -- rules ------------------------------------------------------------------------------------


def _guard_feature(ctx: Ctx, new: Any, old: Any) -> None:
    if new.owner_email is not None and (old is None or old.owner_email != new.owner_email):
        require_employee(ctx, new.owner_email, field="owner_email", hint="features are owned by staff")


def _guard_feature_delete(ctx: Ctx, new: Any, old: Any) -> None:
    if ctx.first(Insight, feature_id=old.id) is not None:
        raise Conflict("the feature has insights", field="feature_id", hint="set it to wont_do instead of deleting it")
    for card in ctx.where(PortalCard, feature_id=old.id):
        ctx.delete(card)


def _guard_component(ctx: Ctx, new: Any, old: Any) -> None:
    same = ctx.first(Component, name=new.name)
    if same is not None and same.id != new.id:
        raise Conflict(f"component {new.name!r} exists", field="name", hint="pick another name")
    if new.owner_email is not None:
        require_employee(ctx, new.owner_email, field="owner_email", hint="components are owned by staff")


def _guard_release(ctx: Ctx, new: Any, old: Any) -> None:
    if new.end_date < new.start_date:
        raise RuleViolation("the release ends before it starts", field="end_date", hint="pick a later end date")
    if old is not None and new.state == "completed" and old.state != "completed":
        open_ = [f.name for f in ctx.where(Feature, release_id=old.id) if f.status != "released"]
        if open_:
            raise RuleViolation(
                f"features not released: {open_}", field="release_id", hint="release them or move them out first"
            )


notes = service.resource(
    Note,
    name="note",
    plural="notes",
    prefix="note",
    create=False,
    filters=("state", "customer_email", "company_name", "owner_email", "source"),
    search=("title", "content", "company_name"),
    transitions={
        "process": Transition("state", ("unprocessed",), "processed", "mark the note processed"),
        "archive": Transition("state", ("unprocessed", "processed"), "archived", "archive the note"),
    },
    update=("title", "owner_email"),
    delete=False,
)
insights = service.resource(
    Insight,
    name="insight",
    plural="insights",
    prefix="ins",
    create=False,
    get=False,
    filters=("note_id", "feature_id", "importance"),
)
components = service.resource(
    Component,
    name="component",
    plural="components",
    prefix="comp",
    create=("name", "owner_email"),
    filters=("name", "owner_email"),
    delete=False,
    guard_create=_guard_component,
)
releases = service.resource(
    Release,
    name="release",
    plural="releases",
    prefix="rel",
    create=("name", "release_group", "start_date", "end_date"),
    filters=("state", "release_group"),
    search=("name",),
    update=("name", "end_date"),
    delete=False,
    transitions={
        "start": Transition("state", ("upcoming",), "in_progress", "start the release"),
        "complete": Transition("state", ("in_progress",), "completed", "complete the release"),
    },
    guard_create=_guard_release,
    guard_update=_guard_release,
)
features = service.resource(
    Feature,
    name="feature",
    plural="features",
    prefix="feat",
    create=False,
    filters=("component_id", "status", "owner_email", "release_id"),
    search=("name", "description"),
    update=("description", "owner_email", "business_value", "effort"),
    guard_update=_guard_feature,
    guard_delete=_guard_feature_delete,
)
cards = service.resource(
    PortalCard,
    name="portal_card",
    plural="portal_cards",
    prefix="card",
    create=False,
    filters=("feature_id", "status"),
    search=("title",),
    update=("title", "description"),
    delete=False,
    transitions={
        "unpublish": Transition("status", ("published",), "unpublished", "unpublish the portal card"),
        "publish": Transition("status", ("unpublished",), "published", "publish the portal card"),
    },
    title="portal card",
)


# -- domain tools -----------------------------------------------------------------------------


def _example_note(ctx: Ctx) -> dict[str, Any] | None:
    p = ctx.population.contacts[0]
    company = ctx.population.company_of(p)
    return {
        "title": "Bulk export request",
        "content": "We need to export all invoices at once.",
        "customer_email": p.email,
        "customer_name": p.name,
        "company_name": company.name if company else None,
        "source": "call",
    }


@service.tool(intent="capture the customer note", write=True, example=_example_note)
def create_note(
    ctx: Ctx,
    title: Title,
    content: Text,
    customer_email: Email | None = None,
    customer_name: PersonName | None = None,
    company_name: CompanyName | None = None,
    source: Literal["email", "support_ticket", "call", "portal", "manual"] = "manual",
    owner_email: Email | None = None,
) -> Note:
    """Capture feedback as an unprocessed note, with the customer and company it came from.

    Args:
        title: Its title.
        content: What was said (required).
        customer_email: The customer's e-mail.
        customer_name: Their name.
        company_name: Their company.
        source: email, support_ticket, call, portal or manual.
        owner_email: The product manager to process it.
    """
    if not content.strip():
        raise RuleViolation("a note needs content", field="content", hint="paste what the customer said")
    if owner_email is not None:
        require_employee(ctx, owner_email, field="owner_email", hint="notes are processed by staff")
    return ctx.create(
        Note,
        title=title,
        content=content.strip(),
        customer_email=customer_email,
        customer_name=customer_name,
        company_name=company_name,
        source=source,
        owner_email=owner_email,
    )


def _example_link(ctx: Ctx) -> dict[str, Any] | None:
    note = ctx.first(Note, state="unprocessed")
    if note is None:
        return None
    linked = {i.feature_id for i in ctx.where(Insight, note_id=note.id)}
    f = next((f for f in ctx.scan(Feature) if f.id not in linked), None)
    return None if f is None else {"note_id": note.id, "feature_id": f.id, "importance": "critical"}


@service.tool(intent="link the note to a feature as an insight", write=True, example=_example_link)
def link_insight(ctx: Ctx, note_id: NoteId, feature_id: FeatureId, importance: Importance = "important") -> Insight:
    """Link a note that is not archived to a feature (once); the note becomes processed.

    Args:
        note_id: The note.
        feature_id: The feature it is about.
        importance: nice_to_have, important or critical.
    """
    note = ctx.get(Note, note_id, field="note_id")
    if note.state == "archived":
        raise RuleViolation("the note is archived", field="note_id", hint="archived notes give no insights")
    feature = ctx.get(Feature, feature_id, field="feature_id")
    if ctx.first(Insight, note_id=note.id, feature_id=feature.id) is not None:
        raise Conflict(f"the note is already linked to {feature.name!r}", field="feature_id", hint="change importance")
    if note.state == "unprocessed":
        ctx.update(note, state="processed")
    return ctx.create(Insight, note_id=note.id, feature_id=feature.id, importance=importance)


def _example_feature(ctx: Ctx) -> dict[str, Any] | None:
    comp = ctx.first(Component)
    return None if comp is None else {"name": "Bulk invoice export", "component_id": comp.id, "business_value": 6}


@service.tool(intent="create the feature", write=True, example=_example_feature)
def create_feature(
    ctx: Ctx,
    name: Title,
    component_id: ComponentId,
    description: Text = "",
    owner_email: Email | None = None,
    business_value: Annotated[int, Field(ge=0, le=10)] = 0,
    effort: Annotated[int, Field(ge=1, le=13)] = 3,
) -> Feature:
    """Create a feature (a new idea) in a component; names are unique in the component.

    Args:
        name: Its name.
        component_id: Its component.
        description: What it is.
        owner_email: The product manager who owns it.
        business_value: Value driver, 0-10.
        effort: Story points, 1-13.
    """
    comp = ctx.get(Component, component_id, field="component_id")
    for f in ctx.where(Feature, component_id=comp.id):
        if f.name.casefold() == name.casefold():
            raise Conflict(f"{comp.name} already has {f.name!r}", field="name", hint="link notes to it instead")
    made = ctx.create(
        Feature,
        name=name,
        component_id=comp.id,
        description=description,
        owner_email=owner_email,
        business_value=business_value,
        effort=effort,
    )
    _guard_feature(ctx, made, None)
    return made


def _example_status(ctx: Ctx) -> dict[str, Any] | None:
    f = ctx.first(Feature, status="new_idea")
    return None if f is None else {"feature_id": f.id, "status": "candidate"}


@service.tool(intent="change the feature's status", write=True, example=_example_status)
def set_feature_status(ctx: Ctx, feature_id: FeatureId, status: FeatureStatus) -> Feature:
    """Move a feature to another status; released needs a release that has started.

    Args:
        feature_id: The feature.
        status: new_idea, candidate, planned, in_progress, released or wont_do.
    """
    f = ctx.get(Feature, feature_id, field="feature_id")
    if f.status == status:
        raise Conflict(f"the feature is already {status}", field="status", hint="nothing to change")
    if status == "released":
        rel = None if f.release_id is None else ctx.get(Release, f.release_id)
        if rel is None or rel.state == "upcoming":
            raise RuleViolation(
                "a released feature needs a started release", field="status", hint="assign it to a release in progress"
            )
    if status == "wont_do":
        for card in ctx.where(PortalCard, feature_id=f.id, status="published"):
            ctx.update(card, status="unpublished")
    return ctx.update(f, status=status)


def _example_assign(ctx: Ctx) -> dict[str, Any] | None:
    rel = ctx.first(Release, state="upcoming")
    f = ctx.first(Feature, status="planned")
    return None if rel is None or f is None else {"feature_id": f.id, "release_id": rel.id}


@service.tool(intent="assign the feature to a release", write=True, example=_example_assign)
def assign_release(ctx: Ctx, feature_id: FeatureId, release_id: ReleaseId | None = None) -> Feature:
    """Assign a feature to a release that is not completed, or (no release) take it out of its release.

    Args:
        feature_id: The feature.
        release_id: The release; omit to unassign.
    """
    f = ctx.get(Feature, feature_id, field="feature_id")
    if f.status == "released":
        raise RuleViolation("released features keep their release", field="feature_id", hint="nothing to move")
    if release_id is None:
        if f.release_id is None:
            raise Conflict("the feature has no release", field="release_id", hint="give a release")
        return ctx.update(f, release_id=None)
    rel = ctx.get(Release, release_id, field="release_id")
    if rel.state == "completed":
        raise RuleViolation(f"release {rel.name} is completed", field="release_id", hint="pick a later release")
    return ctx.update(f, release_id=rel.id)


@service.tool(intent="score the feature's priority", example=first_example(Feature, "feature_id"))
def feature_score(ctx: Ctx, feature_id: FeatureId) -> Score:
    """A feature's user impact from its insights and its priority score.

    Args:
        feature_id: The feature.
    """
    f = ctx.get(Feature, feature_id, field="feature_id")
    ins = ctx.where(Insight, feature_id=f.id)
    impact = sum(WEIGHT[i.importance] for i in ins)
    return Score(
        feature_id=f.id,
        insights=len(ins),
        user_impact=impact,
        business_value=f.business_value,
        effort=f.effort,
        priority_score=round((impact + f.business_value) * 10 / f.effort, 1),
    )


def _example_card(ctx: Ctx) -> dict[str, Any] | None:
    for f in ctx.where(Feature, status="candidate"):
        if ctx.first(PortalCard, feature_id=f.id) is None:
            return {"feature_id": f.id}
    return None


@service.tool(intent="publish the feature on the portal", write=True, example=_example_card)
def create_portal_card(
    ctx: Ctx, feature_id: FeatureId, title: Title | None = None, description: Text = ""
) -> PortalCard:
    """Show a feature on the customer portal (once; not for won't-do features).

    Args:
        feature_id: The feature.
        title: What customers see (default: the feature's name).
        description: Its text.
    """
    f = ctx.get(Feature, feature_id, field="feature_id")
    if f.status == "wont_do":
        raise RuleViolation("the feature will not be done", field="feature_id", hint="pick another feature")
    if ctx.first(PortalCard, feature_id=f.id) is not None:
        raise Conflict("the feature is already on the portal", field="feature_id", hint="update its card")
    return ctx.create(PortalCard, feature_id=f.id, title=title or f.name, description=description or f.description)


def _example_vote(ctx: Ctx) -> dict[str, Any] | None:
    card = ctx.first(PortalCard, status="published")
    if card is None:
        return None
    p = next((p for p in ctx.population.contacts if p.email not in card.voters), None)
    return None if p is None else {"card_id": card.id, "email": p.email, "name": p.name}


@service.tool(intent="vote on the portal card", write=True, example=_example_vote)
def vote_on_card(
    ctx: Ctx,
    card_id: CardId,
    email: Email,
    name: PersonName,
    importance: Importance = "important",
    comment: Text = "",
) -> Insight:
    """A customer's vote on a published card (once): it becomes a portal note linked to the card's feature.

    Args:
        card_id: The portal card.
        email: The customer's e-mail.
        name: Their name.
        importance: nice_to_have, important or critical.
        comment: What they said.
    """
    card = ctx.get(PortalCard, card_id, field="card_id")
    if card.status != "published":
        raise RuleViolation("the card is not published", field="card_id", hint="vote on a published card")
    if email in card.voters:
        raise Conflict(f"{email} already voted", field="email", hint="one vote per customer")
    ctx.update(card, voters=(*card.voters, email))
    note = ctx.create(
        Note,
        title=f"Portal vote: {card.title}",
        content=comment.strip() or f"{name} voted for {card.title}.",
        customer_email=email,
        customer_name=name,
        source="portal",
        state="processed",
    )
    return ctx.create(Insight, note_id=note.id, feature_id=card.feature_id, importance=importance)


# -- seed -------------------------------------------------------------------------------------

FEATURES = (
    ("Billing", "Bulk invoice export", "candidate", 6, 3),
    ("Billing", "Multi-currency invoices", "planned", 8, 8),
    ("Billing", "Dunning e-mails", "released", 5, 2),
    ("Reporting", "Scheduled reports", "in_progress", 7, 5),
    ("Reporting", "Custom dashboards", "new_idea", 4, 13),
    ("Integrations", "Salesforce sync", "planned", 9, 8),
    ("Integrations", "Legacy FTP import", "wont_do", 1, 5),
)


@service.seeder
def seed(s: SeedContext) -> None:
    """Components, features in every status, releases, notes from customer contacts linked as insights, portal votes."""
    pop = s.population
    pms = pop.staff("Engineering", "Marketing", fallback=2)
    comps = {
        name: s.create(Component, name=name, owner_email=pms[k % len(pms)].email, created_at=s.ago(days=400))
        for k, name in enumerate(("Billing", "Reporting", "Integrations"))
    }
    today = s.now.date()
    done = s.create(
        Release,
        name="2026 Q1",
        start_date=today - dt.timedelta(days=80),
        end_date=today - dt.timedelta(days=1),
        state="completed",
        created_at=s.ago(days=120),
    )
    now = s.create(
        Release,
        name="2026 Q2",
        start_date=today,
        end_date=today + dt.timedelta(days=90),
        state="in_progress",
        created_at=s.ago(days=60),
    )
    nxt = s.create(
        Release,
        name="2026 Q3",
        start_date=today + dt.timedelta(days=91),
        end_date=today + dt.timedelta(days=180),
        created_at=s.ago(days=30),
    )
    s.create(
        Release,
        name="2026 Q2 hotfixes",
        release_group="Hotfixes",
        start_date=today - dt.timedelta(days=7),
        end_date=today + dt.timedelta(days=7),
        state="in_progress",
        created_at=s.ago(days=7),
    )
    feats = []
    for k, (comp, name, status, value, effort) in enumerate(FEATURES):
        rel = {"released": done.id, "in_progress": now.id, "planned": nxt.id if k == 1 else now.id}.get(status)
        feats.append(
            s.create(
                Feature,
                name=name,
                component_id=comps[comp].id,
                description=f"{name} for {comp.lower()} users.",
                status=status,
                owner_email=pms[k % len(pms)].email,
                release_id=rel,
                business_value=value,
                effort=effort,
                created_at=s.ago(days=300 - 20 * k),
                updated_at=s.ago(days=10 + k),
            )
        )
    weights: tuple[Importance, ...] = ("critical", "important", "nice_to_have")
    for k, company in enumerate(pop.customers[:8]):
        person = pop.first_contact(company)
        if person is None:
            continue
        f = feats[k % 4]
        note = s.create(
            Note,
            title=f"{company.name}: {f.name.lower()}",
            content=f"{person.first_name} from {company.name} asked about {f.name.lower()}.",
            source=("email", "support_ticket", "call")[k % 3],
            customer_email=person.email,
            customer_name=person.name,
            company_name=company.name,
            owner_email=f.owner_email,
            state="processed" if k < 6 else "unprocessed",
            created_at=s.ago(days=40 - k),
            updated_at=s.ago(days=30 - k),
        )
        if k < 6:
            s.create(
                Insight, note_id=note.id, feature_id=f.id, importance=weights[k % 3], created_at=s.ago(days=30 - k)
            )
    s.create(
        Note,
        title="Old request",
        content="Fax integration, please.",
        state="archived",
        created_at=s.ago(days=300),
        updated_at=s.ago(days=200),
    )
    card = s.create(
        PortalCard,
        feature_id=feats[0].id,
        title="Export all invoices at once",
        description=feats[0].description,
        created_at=s.ago(days=20),
    )
    s.create(
        PortalCard,
        feature_id=feats[4].id,
        title="Build your own dashboards",
        status="unpublished",
        created_at=s.ago(days=20),
    )
    voters = []
    for k, p in enumerate(pop.consumers[:3]):
        note = s.create(
            Note,
            title=f"Portal vote: {card.title}",
            content=f"{p.name} voted for {card.title}.",
            source="portal",
            customer_email=p.email,
            customer_name=p.name,
            state="processed",
            created_at=s.ago(days=15 - k),
            updated_at=s.ago(days=15 - k),
        )
        s.create(
            Insight, note_id=note.id, feature_id=feats[0].id, importance="important", created_at=s.ago(days=15 - k)
        )
        voters.append(p.email)
    s.update(card, voters=tuple(voters))
