"""Harbor Catalog: a developer portal (software catalog, owners, scorecards, initiatives, docs and on-call links).

Modeled on Backstage's software catalog (entities of kind Component, API, System
and Resource with spec.owner, spec.lifecycle experimental/production/deprecated,
spec.system, dependsOn and providesApis relations) and Cortex's scorecards and
initiatives: teams own entities; scorecards are rules (has an owner, tech docs,
an on-call link, a repository, a production lifecycle, no deprecated
dependencies) grouped in bronze, silver and gold levels, an entity reaching the
highest level whose rules and those below all pass; initiatives ask the
components of a scorecard to reach a level by a deadline and complete only when
they all do. An entity others depend on cannot be unregistered, and nothing may
start depending on a deprecated entity.
"""

from __future__ import annotations

import datetime as dt
from typing import Annotated, Any, Literal

from pydantic import StringConstraints

from compoworld.engine.context import Ctx
from compoworld.engine.errors import Conflict, RuleViolation
from compoworld.engine.service import Service, Transition
from compoworld.engine.state import SeedContext
from compoworld.engine.types import Date, Email, IdOf, Text, Title, Url
from compoworld.services.devops._shared import org_handle
from compoworld.services.kit.examples import first_example
from compoworld.services.kit.lists import require_employee
from compoworld.services.kit.records import Timestamped, Value

__all__ = ["service"]

service = Service(
    "devportal",
    title="Harbor Catalog",
    category="developer_portal",
    modeled_on="Backstage software catalog (Component/API/System/Resource entities, owner, lifecycle, "
    "dependsOn) and Cortex scorecards, levels and initiatives",
    description="The internal developer portal: every service, API, system and resource with its owning team, "
    "lifecycle, repository, tech docs and on-call link, the dependencies between them, the scorecards that "
    "grade them bronze/silver/gold, and initiatives that push teams to a level by a deadline.",
)

TeamId = Annotated[str, IdOf("devportal.team")]
EntityId = Annotated[str, IdOf("devportal.entity")]
ScorecardId = Annotated[str, IdOf("devportal.scorecard")]
InitiativeId = Annotated[str, IdOf("devportal.initiative")]

Slug = Annotated[str, StringConstraints(pattern=r"^[a-z][a-z0-9-]{1,62}$")]
"""A lower-case catalog name (payments-api)."""

Kind = Literal["component", "api", "system", "resource"]
Lifecycle = Literal["experimental", "production", "deprecated"]
Level = Literal["bronze", "silver", "gold"]
Check = Literal["has_owner", "has_docs", "has_oncall", "has_repo", "in_production", "no_deprecated_deps"]
InitiativeStatus = Literal["active", "completed", "cancelled"]

LEVELS: tuple[Level, ...] = ("bronze", "silver", "gold")


class Team(Timestamped):
    """A team (Backstage Group) that owns entities."""

    id: TeamId
    name: Slug
    """Its slug (unique)."""
    display_name: Title
    """Its display name."""
    lead_email: Email
    """The team lead."""
    member_emails: tuple[Email, ...] = ()
    """Its members."""
    slack_channel: Annotated[str, StringConstraints(pattern=r"^#[a-z0-9-]{1,79}$")] | None = None
    """Where to reach it."""


class Entity(Timestamped):
    """A catalog entity."""

    id: EntityId
    kind: Kind
    """component, api, system or resource."""
    name: Slug
    """Its name (unique per kind)."""
    description: Text = ""
    """What it is."""
    owner_team_id: TeamId | None = None
    """The owning team."""
    lifecycle: Lifecycle = "experimental"
    """experimental, production or deprecated."""
    type: Annotated[str, StringConstraints(max_length=40)] = ""
    """service, website, library (components); openapi, grpc (APIs); database, queue (resources)."""
    system_id: EntityId | None = None
    """The system it belongs to."""
    depends_on: tuple[EntityId, ...] = ()
    """Entities it depends on."""
    repo_url: Url | None = None
    """Its source repository."""
    docs_url: Url | None = None
    """Its TechDocs."""
    oncall_url: Url | None = None
    """Its on-call schedule."""


class Rule(Value):
    """A scorecard rule."""

    check: Check
    """What it checks."""
    level: Level
    """The level it belongs to."""


class Scorecard(Timestamped):
    """Rules that grade components."""

    id: ScorecardId
    name: Title
    """Its name (unique)."""
    rules: tuple[Rule, ...]
    """Its rules."""
    kind: Kind = "component"
    """The kind of entity it grades."""
    owner_email: Email
    """Who maintains it."""


class Initiative(Timestamped):
    """A push for entities to reach a scorecard level by a deadline."""

    id: InitiativeId
    name: Title
    """Its name."""
    scorecard_id: ScorecardId
    """The scorecard."""
    target_level: Level
    """The level to reach."""
    deadline: Date
    """By when."""
    owner_email: Email
    """Who drives it."""
    status: InitiativeStatus = "active"
    """active, completed or cancelled."""


class Grade(Value):
    """An entity's result on a scorecard."""

    entity_id: EntityId
    """The entity."""
    name: Slug
    """Its name."""
    level: Level | None
    """The level reached (none: not even bronze)."""
    failing: list[Check]
    """Rules it fails."""


# -- rules ------------------------------------------------------------------------------------


def _guard_team(ctx: Ctx, new: Any, old: Any) -> None:
    require_employee(ctx, new.lead_email, field="lead_email", hint="teams are led by staff")
    for email in new.member_emails:
        require_employee(ctx, email, field="member_emails", hint="teams are made of staff")


def _guard_entity(ctx: Ctx, new: Any, old: Any) -> None:
    if new.owner_team_id is not None:
        ctx.get(Team, new.owner_team_id, field="owner_team_id")
    if new.system_id is not None:
        sys_ = ctx.get(Entity, new.system_id, field="system_id")
        if sys_.kind != "system" or new.kind == "system":
            raise RuleViolation("system_id must name a system (and systems have none)", field="system_id", hint="")
    added = set(new.depends_on) - set(old.depends_on if old is not None else ())
    for did in added:
        dep = ctx.get(Entity, did, field="depends_on")
        if dep.id == new.id:
            raise RuleViolation("an entity cannot depend on itself", field="depends_on", hint="remove it")
        if dep.lifecycle == "deprecated":
            raise RuleViolation(f"{dep.name} is deprecated", field="depends_on", hint="depend on its replacement")


def _delete_entity(ctx: Ctx, new: Any, old: Any) -> None:
    for e in ctx.scan(Entity):
        if old.id in e.depends_on or e.system_id == old.id:
            raise Conflict(f"{e.name} still refers to {old.name}", field="entity_id", hint="remove that relation")


def _guard_scorecard(ctx: Ctx, new: Any, old: Any) -> None:
    if not new.rules or len({r.check for r in new.rules}) != len(new.rules):
        raise RuleViolation("list each check once, at least one", field="rules", hint="e.g. has_owner at bronze")
    require_employee(ctx, new.owner_email, field="owner_email", hint="scorecards are kept by staff")
    for s in ctx.where(Scorecard, name=new.name):
        if s.id != new.id:
            raise Conflict(f"a scorecard is already named {new.name!r}", field="name", hint="pick another name")


def _delete_scorecard(ctx: Ctx, new: Any, old: Any) -> None:
    if ctx.first(Initiative, scorecard_id=old.id, status="active") is not None:
        raise Conflict("an active initiative uses this scorecard", field="scorecard_id", hint="cancel it first")


def _guard_initiative(ctx: Ctx, new: Any, old: Any) -> None:
    ctx.get(Scorecard, new.scorecard_id, field="scorecard_id")
    require_employee(ctx, new.owner_email, field="owner_email", hint="initiatives are driven by staff")
    if old is None and new.deadline <= ctx.today():
        raise RuleViolation("the deadline must be in the future", field="deadline", hint="pick a later date")


teams = service.resource(
    Team,
    name="team",
    plural="teams",
    prefix="grp",
    create=False,
    filters=("name", "lead_email"),
    search=("name", "display_name"),
    update=("display_name", "lead_email", "member_emails", "slack_channel"),
    delete=False,
    guard_update=_guard_team,
)
entities = service.resource(
    Entity,
    name="entity",
    plural="entities",
    prefix="ent",
    create=False,
    filters=("kind", "name", "owner_team_id", "lifecycle", "system_id", "type"),
    search=("name", "description"),
    update=("description", "owner_team_id", "type", "system_id", "depends_on", "repo_url", "docs_url", "oncall_url"),
    transitions={
        "promote": Transition("lifecycle", ("experimental",), "production", "promote the entity to production"),
        "deprecate": Transition("lifecycle", ("experimental", "production"), "deprecated", "deprecate the entity"),
    },
    guard_update=_guard_entity,
    guard_delete=_delete_entity,
)
scorecards = service.resource(
    Scorecard,
    name="scorecard",
    plural="scorecards",
    prefix="sc",
    create=("name", "rules", "kind", "owner_email"),
    filters=("kind", "owner_email"),
    search=("name",),
    update=("name", "rules", "owner_email"),
    guard_create=_guard_scorecard,
    guard_update=_guard_scorecard,
    guard_delete=_delete_scorecard,
)
initiatives = service.resource(
    Initiative,
    name="initiative",
    plural="initiatives",
    prefix="init",
    create=("name", "scorecard_id", "target_level", "deadline", "owner_email"),
    filters=("scorecard_id", "status", "owner_email", "target_level"),
    search=("name",),
    update=("name", "target_level", "deadline", "owner_email"),
    delete=False,
    transitions={"cancel": Transition("status", ("active",), "cancelled", "cancel the initiative")},
    guard_create=_guard_initiative,
    guard_update=_guard_initiative,
)


# -- domain tools -----------------------------------------------------------------------------


def _example_team(ctx: Ctx) -> dict[str, Any] | None:
    lead = ctx.population.employees[0].email
    return {"name": "developer-experience", "display_name": "Developer Experience", "lead_email": lead}


@service.tool(intent="create the team", write=True, example=_example_team)
def create_team(
    ctx: Ctx, name: Slug, display_name: Title, lead_email: Email, member_emails: list[Email] | None = None
) -> Team:
    """Create a team that can own catalog entities.

    Args:
        name: Its slug (unique).
        display_name: Its display name.
        lead_email: The team lead (staff).
        member_emails: Its members (staff).
    """
    if ctx.first(Team, name=name) is not None:
        raise Conflict(f"team {name} exists", field="name", hint="pick another name")
    made = ctx.create(
        Team, name=name, display_name=display_name, lead_email=lead_email, member_emails=tuple(member_emails or ())
    )
    _guard_team(ctx, made, None)
    return made


def _example_register(ctx: Ctx) -> dict[str, Any] | None:
    team = ctx.first(Team)
    return {"kind": "component", "name": "label-printer", "type": "service", "owner_team_id": team.id if team else None}


@service.tool(intent="register the entity in the catalog", write=True, example=_example_register)
def register_entity(
    ctx: Ctx,
    kind: Kind,
    name: Slug,
    type: Annotated[str, StringConstraints(max_length=40)] = "",
    owner_team_id: TeamId | None = None,
    description: Text = "",
    system_id: EntityId | None = None,
    depends_on: list[EntityId] | None = None,
    repo_url: Url | None = None,
) -> Entity:
    """Register a component, API, system or resource; its name is unique within its kind.

    New entities are experimental until promoted.

    Args:
        kind: component, api, system or resource.
        name: Its slug.
        type: service, website, library, openapi, grpc, database, queue…
        owner_team_id: The owning team.
        description: What it is.
        system_id: The system it belongs to.
        depends_on: Entities it depends on (none deprecated).
        repo_url: Its source repository.
    """
    if ctx.first(Entity, kind=kind, name=name) is not None:
        raise Conflict(f"a {kind} named {name} is registered", field="name", hint="update it instead")
    fields = {
        "kind": kind,
        "name": name,
        "type": type,
        "owner_team_id": owner_team_id,
        "description": description,
        "system_id": system_id,
        "depends_on": tuple(depends_on or ()),
        "repo_url": repo_url,
    }
    made = ctx.create(Entity, **fields)
    _guard_entity(ctx, made, None)
    return made


def _passes(ctx: Ctx, e: Entity, check: Check) -> bool:
    if check == "has_owner":
        return e.owner_team_id is not None
    if check == "has_docs":
        return e.docs_url is not None
    if check == "has_oncall":
        return e.oncall_url is not None
    if check == "has_repo":
        return e.repo_url is not None
    if check == "in_production":
        return e.lifecycle == "production"
    return all(ctx.get(Entity, d).lifecycle != "deprecated" for d in e.depends_on)


def _grade(ctx: Ctx, card: Scorecard, e: Entity) -> Grade:
    failing = [r.check for r in card.rules if not _passes(ctx, e, r.check)]
    reached: Level | None = None
    for lvl in LEVELS:
        if any(r.level == lvl and r.check in failing for r in card.rules):
            break
        reached = lvl
    return Grade(entity_id=e.id, name=e.name, level=reached, failing=failing)


@service.tool(intent="grade the catalog against the scorecard", example=first_example(Scorecard, "scorecard_id"))
def scorecard_report(ctx: Ctx, scorecard_id: ScorecardId, owner_team_id: TeamId | None = None) -> list[Grade]:
    """Grade every entity of the scorecard's kind (optionally one team's) and list failing rules.

    Args:
        scorecard_id: The scorecard.
        owner_team_id: Only this team's entities.
    """
    card = ctx.get(Scorecard, scorecard_id, field="scorecard_id")
    if owner_team_id is not None:
        ctx.get(Team, owner_team_id, field="owner_team_id")
    out = []
    for e in ctx.where(Entity, kind=card.kind):
        if owner_team_id is None or e.owner_team_id == owner_team_id:
            out.append(_grade(ctx, card, e))
    return out


def _rank(level: Level | None) -> int:
    return 0 if level is None else LEVELS.index(level) + 1


@service.tool(
    intent="complete the initiative",
    write=True,
    example=first_example(Initiative, "initiative_id", where={"status": "active", "target_level": "bronze"}),
)
def complete_initiative(ctx: Ctx, initiative_id: InitiativeId) -> Initiative:
    """Complete an active initiative once every non-deprecated entity of its scorecard reaches the target.

    Args:
        initiative_id: The initiative.
    """
    ini = ctx.get(Initiative, initiative_id, field="initiative_id")
    if ini.status != "active":
        raise Conflict(f"initiative {ini.id} is {ini.status}", field="initiative_id", hint="nothing to do")
    card = ctx.get(Scorecard, ini.scorecard_id)
    behind = [
        e.name
        for e in ctx.where(Entity, kind=card.kind)
        if e.lifecycle != "deprecated" and _rank(_grade(ctx, card, e).level) < _rank(ini.target_level)
    ]
    if behind:
        raise RuleViolation(
            f"{len(behind)} entities are below {ini.target_level}: {', '.join(behind[:5])}",
            field="initiative_id",
            hint="see scorecard_report",
        )
    return ctx.update(ini, status="completed")


# -- seed -------------------------------------------------------------------------------------

COMPONENTS: tuple[tuple[str, str, int, Lifecycle, bool, bool], ...] = (
    ("checkout-web", "website", 0, "production", True, True),
    ("orders-service", "service", 0, "production", True, True),
    ("payments-service", "service", 1, "production", True, False),
    ("legacy-billing", "service", 1, "deprecated", False, False),
    ("shipment-tracker", "service", 2, "production", False, True),
    ("route-optimizer", "service", 2, "experimental", False, False),
    ("ui-kit", "library", 0, "production", True, False),
)


@service.seeder
def seed(s: SeedContext) -> None:
    """Teams of engineers, systems, components, APIs and resources with relations, scorecards, initiatives."""
    pop = s.population
    org = org_handle(pop)
    eng = pop.staff("Engineering", "IT", "Product", fallback=6)
    made: list[Team] = []
    for k, (slug, title) in enumerate(
        (("storefront", "Storefront"), ("payments", "Payments"), ("logistics", "Logistics"))
    ):
        made.append(
            s.create(
                Team,
                name=slug,
                display_name=title,
                lead_email=eng[k % len(eng)].email,
                member_emails=tuple(p.email for p in eng[k::3][:4]),
                slack_channel=f"#team-{slug}",
                created_at=s.ago(days=500),
                updated_at=s.ago(days=60),
            )
        )
    systems = {
        slug: s.create(
            Entity,
            kind="system",
            name=slug,
            description=desc,
            owner_team_id=made[k].id,
            lifecycle="production",
            created_at=s.ago(days=480),
            updated_at=s.ago(days=100),
        )
        for k, (slug, desc) in enumerate(
            (
                ("commerce", "Online ordering"),
                ("billing", "Invoicing and payments"),
                ("fulfilment", "Shipping and delivery"),
            )
        )
    }
    db = s.create(
        Entity,
        kind="resource",
        name="orders-db",
        type="database",
        owner_team_id=made[0].id,
        lifecycle="production",
        system_id=systems["commerce"].id,
        created_at=s.ago(days=470),
        updated_at=s.ago(days=100),
    )
    names: dict[str, Entity] = {}
    for k, (name, typ, team, life, docs, oncall) in enumerate(COMPONENTS):
        system = ("commerce", "billing", "fulfilment")[team]
        names[name] = s.create(
            Entity,
            kind="component",
            name=name,
            type=typ,
            owner_team_id=made[team].id if k != 5 else None,
            lifecycle=life,
            system_id=systems[system].id,
            description=f"{name.replace('-', ' ').title()}.",
            repo_url=f"https://git.{pop.home.domain}/{org}/{name}",
            docs_url=f"https://docs.{pop.home.domain}/catalog/{name}" if docs else None,
            oncall_url=f"https://oncall.{pop.home.domain}/schedules/{made[team].name}" if oncall else None,
            created_at=s.ago(days=400 - 30 * k),
            updated_at=s.ago(days=20 + k),
        )
    s.update(names["orders-service"], depends_on=(db.id, names["payments-service"].id))
    s.update(names["checkout-web"], depends_on=(names["orders-service"].id, names["ui-kit"].id))
    s.update(names["payments-service"], depends_on=(names["legacy-billing"].id,))
    s.create(
        Entity,
        kind="api",
        name="orders-api",
        type="openapi",
        owner_team_id=made[0].id,
        lifecycle="production",
        system_id=systems["commerce"].id,
        docs_url=f"https://docs.{pop.home.domain}/apis/orders",
        created_at=s.ago(days=390),
        updated_at=s.ago(days=40),
    )
    api_card = s.create(
        Scorecard,
        name="API hygiene",
        kind="api",
        owner_email=eng[0].email,
        rules=(Rule(check="has_owner", level="bronze"), Rule(check="has_docs", level="bronze")),
        created_at=s.ago(days=100),
        updated_at=s.ago(days=100),
    )
    s.create(
        Initiative,
        name="Document every API",
        scorecard_id=api_card.id,
        target_level="bronze",
        deadline=(s.now + dt.timedelta(days=30)).date(),
        owner_email=eng[0].email,
        created_at=s.ago(days=15),
        updated_at=s.ago(days=15),
    )
    card = s.create(
        Scorecard,
        name="Production readiness",
        owner_email=eng[0].email,
        rules=(
            Rule(check="has_owner", level="bronze"),
            Rule(check="has_repo", level="bronze"),
            Rule(check="has_docs", level="silver"),
            Rule(check="has_oncall", level="silver"),
            Rule(check="in_production", level="gold"),
            Rule(check="no_deprecated_deps", level="gold"),
        ),
        created_at=s.ago(days=200),
        updated_at=s.ago(days=50),
    )
    s.create(
        Scorecard,
        name="Ownership basics",
        owner_email=eng[1 % len(eng)].email,
        rules=(Rule(check="has_owner", level="bronze"),),
        created_at=s.ago(days=150),
        updated_at=s.ago(days=150),
    )
    for name, lvl, days, st in (
        ("Every service on call", "silver", 45, "active"),
        ("Owners for all", "bronze", 20, "active"),
        ("Gold by Q4", "gold", 120, "cancelled"),
    ):
        s.create(
            Initiative,
            name=name,
            scorecard_id=card.id,
            target_level=lvl,
            deadline=(s.now + dt.timedelta(days=days)).date(),
            owner_email=eng[0].email,
            status=st,
            created_at=s.ago(days=30),
            updated_at=s.ago(days=10),
        )
