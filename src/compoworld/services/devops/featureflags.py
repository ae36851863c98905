"""Switchyard Flags: feature flags with per-environment targeting, segments, rollouts and evaluation.

Modeled on the LaunchDarkly REST API v2 (Projects, Environments with
``requireComments``, Feature flags with variations, ``temporary`` and
``archived``, per-environment flag configuration with ``on``,
``offVariation``, ``targets``, ``rules`` of clauses, ``fallthrough`` with a
percentage ``rollout`` in thousandths of a percent, ``prerequisites``,
Segments, the audit log, flag statuses) and its SDK evaluation algorithm: an
off flag serves its off variation; a failed prerequisite serves the off
variation; then individual targets, then rules in order, then the
fallthrough; rollouts bucket a user deterministically by flag key, salt and
e-mail. Changes in environments that require comments need one; a user is
targeted to one variation at most; rollout weights sum to 100%; a flag that
is on somewhere or a prerequisite of another cannot be archived; readers
cannot change anything.
"""

from __future__ import annotations

import datetime as dt
import hashlib
from typing import Annotated, Any, Literal

from pydantic import BaseModel, Field, StringConstraints

from compoworld.engine.context import Ctx
from compoworld.engine.errors import Conflict, NotFound, RuleViolation
from compoworld.engine.records import CREATED, UPDATED, Record
from compoworld.engine.service import Service
from compoworld.engine.state import SeedContext
from compoworld.engine.types import CompanyName, Country, DateTime, Email, IdOf, PersonName, Quantity, Text, Title
from compoworld.services.kit.examples import first_example
from compoworld.services.kit.records import Created, Value

__all__ = ["service"]

service = Service(
    "featureflags",
    title="Switchyard Flags",
    category="devops",
    modeled_on="LaunchDarkly REST API v2 (Project, Environment, Feature flag, flag configuration with targets, "
    "rules, fallthrough rollouts and prerequisites, Segment, Audit log) and its SDK evaluation rules",
    description="Feature management for the company's products: flags with variations, switched on per "
    "environment, targeted at individual customers, segments and attribute rules, rolled out by percentage, "
    "and evaluated for a user with the reason for the result.",
)

MemberId = Annotated[str, IdOf("featureflags.member")]
ProjectId = Annotated[str, IdOf("featureflags.project")]
EnvId = Annotated[str, IdOf("featureflags.environment")]
FlagId = Annotated[str, IdOf("featureflags.flag")]
ConfigId = Annotated[str, IdOf("featureflags.flag_config")]
SegmentId = Annotated[str, IdOf("featureflags.segment")]
ChangeId = Annotated[str, IdOf("featureflags.flag_change")]

Key = Annotated[str, StringConstraints(pattern=r"^[a-z][a-z0-9._-]{0,63}$")]
FlagValue = Annotated[str, StringConstraints(min_length=1, max_length=200)]
Attribute = Literal["email", "country", "company", "plan", "segment"]
Operator = Literal["in", "not_in", "ends_with", "segment_match"]
Plan = Literal["free", "pro", "enterprise"]
FULL = 100_000
"""100% in rollout weights (thousandths of a percent)."""


class Member(Record):
    """A person with access to the flags."""

    id: MemberId
    name: PersonName
    """Full name."""
    email: Email
    """E-mail; unique."""
    role: Literal["reader", "writer", "admin"] = "writer"
    """reader (views only), writer (changes flags) or admin."""


class Project(Record):
    """A product whose flags are managed together."""

    id: ProjectId
    key: Key
    """Project key; unique."""
    name: Title
    """Project name."""


class Environment(Record):
    """An environment of a project with its own flag settings."""

    id: EnvId
    project_id: ProjectId
    """The project."""
    key: Key
    """Environment key (production, staging, test); unique in the project."""
    name: Title
    """Display name."""
    critical: bool = False
    """Marks production-like environments."""
    require_comments: bool = False
    """Whether every flag change here needs a comment."""


class Variation(Value):
    """A value a flag can serve."""

    value: FlagValue = Field(description="The value (true/false for boolean flags).")
    name: str = Field(default="", max_length=80, description="Human name.")


class Flag(Created):
    """A feature flag: its variations, shared by every environment."""

    id: FlagId
    project_id: ProjectId
    """The project."""
    key: Key
    """Flag key used in code; unique in the project."""
    name: Title
    """Display name."""
    description: Text = ""
    """What it controls."""
    kind: Literal["boolean", "multivariate"] = "boolean"
    """boolean (true/false) or multivariate."""
    variations: list[Variation] = Field(min_length=2, max_length=10)
    """The values it can serve, by index."""
    temporary: bool = True
    """Temporary flags are removed once launched; permanent ones stay."""
    maintainer_email: Email
    """E-mail of the member who maintains it."""
    salt: Annotated[str, StringConstraints(pattern=r"^[0-9a-f]{8}$")]
    """Salt of the rollout bucketing."""
    archived: bool = False
    """Archived flags serve nothing new and cannot change."""


class Weighted(Value):
    """A share of a percentage rollout."""

    variation: Annotated[int, Field(ge=0, le=9)] = Field(description="Variation index.")
    weight: Annotated[int, Field(ge=0, le=FULL)] = Field(
        description="Share in thousandths of a percent (100000 = 100%)."
    )


class Serve(Value):
    """What to serve: one variation or a percentage rollout."""

    variation: Annotated[int, Field(ge=0, le=9)] | None = Field(default=None, description="Variation index.")
    rollout: list[Weighted] | None = Field(default=None, max_length=10, description="Percentage rollout.")


class Clause(Value):
    """One condition on the user."""

    attribute: Attribute = Field(description="email, country, company, plan, or segment (with segment_match).")
    op: Operator = Field(description="in, not_in, ends_with (e-mail domains …) or segment_match.")
    values: list[FlagValue] = Field(
        min_length=1, max_length=50, description="Values compared (segment keys for segment_match)."
    )


class Rule(Value):
    """A targeting rule: when every clause holds, serve."""

    description: str = Field(default="", max_length=200, description="What the rule is for.")
    clauses: list[Clause] = Field(min_length=1, max_length=10, description="Conditions, all required.")
    serve: Serve = Field(description="What matching users get.")


class Target(Value):
    """Users served one variation individually."""

    variation: Annotated[int, Field(ge=0, le=9)] = Field(description="Variation index.")
    emails: list[Email] = Field(max_length=500, description="E-mails of the users.")


class Prerequisite(Value):
    """Another flag that must serve a given variation first."""

    flag_key: Key = Field(description="Key of the prerequisite flag.")
    variation: Annotated[int, Field(ge=0, le=9)] = Field(description="Variation it must serve.")


class FlagConfig(Record):
    """A flag's settings in one environment."""

    id: ConfigId
    flag_id: FlagId
    """The flag."""
    environment_id: EnvId
    """The environment."""
    on: bool = False
    """Whether targeting is on; off serves off_variation to everyone."""
    off_variation: Annotated[int, Field(ge=0, le=9)]
    """Served while off or when a prerequisite fails."""
    fallthrough: Serve
    """Served when no target or rule matches."""
    targets: list[Target] = Field(default_factory=list)
    """Individual user targets."""
    rules: list[Rule] = Field(default_factory=list, max_length=50)
    """Targeting rules, in order."""
    prerequisites: list[Prerequisite] = Field(default_factory=list, max_length=10)
    """Flags that must serve given variations first."""
    version: Quantity = 1
    """Incremented by every change."""
    updated_at: Annotated[DateTime, UPDATED]
    """When it last changed."""


class Segment(Record):
    """A reusable group of users."""

    id: SegmentId
    project_id: ProjectId
    """The project."""
    key: Key
    """Segment key; unique in the project."""
    name: Title
    """Name."""
    included: tuple[Email, ...] = ()
    """Users always in the segment."""
    excluded: tuple[Email, ...] = ()
    """Users never in it."""
    companies: tuple[CompanyName, ...] = ()
    """Users of these companies are in it (unless excluded)."""


class FlagChange(Record):
    """An audit-log entry of a flag change."""

    id: ChangeId
    flag_id: FlagId
    """The flag."""
    environment_id: EnvId | None = None
    """The environment, for per-environment changes."""
    actor_email: Email
    """Who changed it."""
    action: Literal["create", "toggle", "fallthrough", "targets", "rules", "prerequisites", "copy", "archive"]
    """What changed."""
    comment: Text = ""
    """Why."""
    at: Annotated[DateTime, CREATED]
    """When."""


# -- evaluation -------------------------------------------------------------------------------


class UserContext(Value):
    """Who a flag is evaluated for."""

    email: Email = Field(description="The user's e-mail (their key).")
    country: Country | None = Field(default=None, description="ISO country code.")
    company: CompanyName | None = Field(default=None, description="Company the user belongs to.")
    plan: Plan | None = Field(default=None, description="The user's plan.")


def _bucket(flag: Flag, email: str) -> int:
    h = hashlib.sha1(f"{flag.key}.{flag.salt}.{email}".encode()).hexdigest()[:15]
    return int(h, 16) * FULL // 0xFFFFFFFFFFFFFFF


def _serve(flag: Flag, serve: Serve, email: str) -> tuple[int, bool]:
    if serve.rollout:
        b = _bucket(flag, email)
        acc = 0
        for w in serve.rollout:
            acc += w.weight
            if b < acc:
                return w.variation, True
        return serve.rollout[-1].variation, True
    return serve.variation or 0, False


def _in_segment(seg: Segment, user: UserContext) -> bool:
    if user.email in seg.excluded:
        return False
    return user.email in seg.included or (user.company is not None and user.company in seg.companies)


def _clause(ctx: Ctx, project_id: str, c: Clause, user: UserContext) -> bool:
    if c.op == "segment_match":
        segs = [ctx.first(Segment, project_id=project_id, key=k) for k in c.values]
        return any(s is not None and _in_segment(s, user) for s in segs)
    value = {"email": user.email, "country": user.country, "company": user.company, "plan": user.plan}.get(c.attribute)
    if value is None:
        return c.op == "not_in"
    if c.op == "in":
        return value in c.values
    if c.op == "not_in":
        return value not in c.values
    return any(value.lower().endswith(v.lower()) for v in c.values)


class Evaluation(BaseModel):
    """The value a user gets and why."""

    flag_key: str = Field(description="The flag.")
    environment_key: str = Field(description="The environment.")
    email: Email = Field(description="The user.")
    value: str = Field(description="The value served.")
    variation: int = Field(description="Its index.")
    reason: Literal["OFF", "PREREQUISITE_FAILED", "TARGET_MATCH", "RULE_MATCH", "FALLTHROUGH"] = Field(
        description="Why: flag off, a prerequisite failed, individual target, a rule, or the fallthrough."
    )
    rule_index: int | None = Field(description="For RULE_MATCH: which rule (0-based).")
    in_rollout: bool = Field(description="Whether a percentage rollout decided.")


def _evaluate(ctx: Ctx, flag: Flag, env: Environment, user: UserContext, depth: int = 0) -> Evaluation:
    cfg = _config(ctx, flag, env)

    def out(var: int, reason: Any, rule: int | None = None, rollout: bool = False) -> Evaluation:
        return Evaluation(
            flag_key=flag.key,
            environment_key=env.key,
            email=user.email,
            value=flag.variations[var].value,
            variation=var,
            reason=reason,
            rule_index=rule,
            in_rollout=rollout,
        )

    if not cfg.on or flag.archived:
        return out(cfg.off_variation, "OFF")
    for pre in cfg.prerequisites:
        other = ctx.first(Flag, project_id=flag.project_id, key=pre.flag_key)
        if other is None or depth > 5:
            return out(cfg.off_variation, "PREREQUISITE_FAILED")
        got = _evaluate(ctx, other, env, user, depth + 1)
        if got.reason == "OFF" or got.variation != pre.variation:
            return out(cfg.off_variation, "PREREQUISITE_FAILED")
    for t in cfg.targets:
        if user.email in t.emails:
            return out(t.variation, "TARGET_MATCH")
    for k, rule in enumerate(cfg.rules):
        if all(_clause(ctx, flag.project_id, c, user) for c in rule.clauses):
            var, rolled = _serve(flag, rule.serve, user.email)
            return out(var, "RULE_MATCH", k, rolled)
    var, rolled = _serve(flag, cfg.fallthrough, user.email)
    return out(var, "FALLTHROUGH", None, rolled)


# -- rules ------------------------------------------------------------------------------------


def _config(ctx: Ctx, flag: Flag, env: Environment) -> FlagConfig:
    cfg = ctx.first(FlagConfig, flag_id=flag.id, environment_id=env.id)
    if cfg is None:
        raise NotFound(f"flag {flag.key} has no settings in {env.key}", field="environment_key", hint="check the keys")
    return cfg


def _flag(ctx: Ctx, project_key: str, flag_key: str) -> Flag:
    project = ctx.first(Project, key=project_key)
    if project is None:
        raise NotFound(
            f"no project {project_key}", field="project_key", hint="list projects with featureflags__list_projects"
        )
    flag = ctx.first(Flag, project_id=project.id, key=flag_key)
    if flag is None:
        raise NotFound(
            f"no flag {flag_key} in {project_key}", field="flag_key", hint="list flags with featureflags__list_flags"
        )
    return flag


def _env(ctx: Ctx, flag: Flag, env_key: str, field: str = "environment_key") -> Environment:
    env = ctx.first(Environment, project_id=flag.project_id, key=env_key)
    if env is None:
        raise NotFound(
            f"no environment {env_key} in the flag's project", field=field, hint="list environments of the project"
        )
    return env


def _writer(ctx: Ctx, email: str) -> None:
    m = ctx.first(Member, email=email)
    if m is None:
        raise NotFound(
            f"{email} is not a member", field="actor_email", hint="list members with featureflags__list_members"
        )
    if m.role == "reader":
        raise RuleViolation(
            f"{email} is a reader and cannot change flags", field="actor_email", hint="ask a writer or an admin"
        )


def _change(
    ctx: Ctx,
    project_key: str,
    flag_key: str,
    env_key: str,
    actor: str,
    comment: str,
    env_field: str = "environment_key",
) -> tuple[Flag, Environment, FlagConfig]:
    flag = _flag(ctx, project_key, flag_key)
    env = _env(ctx, flag, env_key, env_field)
    _writer(ctx, actor)
    if flag.archived:
        raise RuleViolation(f"flag {flag.key} is archived", field="flag_key", hint="archived flags cannot change")
    if env.require_comments and not comment.strip():
        raise RuleViolation(
            f"changes in {env.key} need a comment", field="comment", hint="say why you are changing the flag"
        )
    return flag, env, _config(ctx, flag, env)


def _check_serve(flag: Flag, serve: Serve, field: str) -> None:
    n = len(flag.variations)
    if (serve.variation is None) == (serve.rollout is None):
        raise RuleViolation("serve either one variation or a rollout", field=field, hint="set exactly one of the two")
    if serve.variation is not None and serve.variation >= n:
        raise RuleViolation(f"the flag has {n} variations", field=field, hint=f"use an index 0 to {n - 1}")
    if serve.rollout is not None:
        if any(w.variation >= n for w in serve.rollout):
            raise RuleViolation(f"the flag has {n} variations", field=field, hint=f"use indexes 0 to {n - 1}")
        if sum(w.weight for w in serve.rollout) != FULL:
            raise RuleViolation(
                "rollout weights must add up to 100000 (100%)", field=field, hint="e.g. 20000 and 80000 for 20/80"
            )


def _log(ctx: Ctx, flag: Flag, env: Environment | None, actor: str, action: str, comment: str) -> None:
    ctx.create(
        FlagChange,
        flag_id=flag.id,
        environment_id=env.id if env else None,
        actor_email=actor,
        action=action,
        comment=comment.strip(),
    )


def _bump(ctx: Ctx, cfg: FlagConfig, **changes: Any) -> FlagConfig:
    return ctx.update(cfg, version=cfg.version + 1, **changes)


def _guard_segment(ctx: Ctx, new: Any, old: Any) -> None:
    if any(s.id != new.id and s.key == new.key for s in ctx.where(Segment, project_id=new.project_id)):
        raise Conflict(f"segment {new.key} exists in the project", field="key", hint="pick another key")
    both = set(new.included) & set(new.excluded)
    if both:
        raise RuleViolation(
            f"{sorted(both)[0]} is both included and excluded", field="excluded", hint="keep each user on one list"
        )


def _guard_flag(ctx: Ctx, new: Any, old: Any) -> None:
    if old.archived:
        raise RuleViolation(f"flag {old.key} is archived", field="flag_id", hint="archived flags cannot change")
    if new.maintainer_email != old.maintainer_email and ctx.first(Member, email=new.maintainer_email) is None:
        raise RuleViolation(
            f"{new.maintainer_email} is not a member", field="maintainer_email", hint="pick a member as maintainer"
        )


def _guard_environment(ctx: Ctx, new: Any, old: Any) -> None:
    if old.critical and not new.require_comments:
        raise RuleViolation(
            f"{old.key} is critical and always requires comments",
            field="require_comments",
            hint="critical environments keep comments required",
        )


members = service.resource(
    Member,
    name="member",
    plural="members",
    prefix="mem",
    create=False,
    get=False,
    filters=("email", "role"),
    search=("name", "email"),
    delete=False,
    unique=("email",),
)
projects = service.resource(
    Project, name="project", plural="projects", prefix="prj", create=False, get=False, filters=("key",), delete=False
)
environments = service.resource(
    Environment,
    name="environment",
    plural="environments",
    prefix="env",
    create=False,
    get=False,
    filters=("project_id", "key", "critical"),
    update=("require_comments",),
    delete=False,
    guard_update=_guard_environment,
)
flags = service.resource(
    Flag,
    name="flag",
    plural="flags",
    prefix="flg",
    create=False,
    filters=("project_id", "key", "kind", "temporary", "archived", "maintainer_email"),
    search=("key", "name", "description"),
    update=("name", "description", "temporary", "maintainer_email"),
    delete=False,
    guard_update=_guard_flag,
    title="feature flag",
)
configs = service.resource(
    FlagConfig,
    name="flag_config",
    plural="flag_configs",
    prefix="cfg",
    create=False,
    get=False,
    filters=("flag_id", "environment_id", "on"),
    delete=False,
    title="flag configuration",
)
segments = service.resource(
    Segment,
    name="segment",
    plural="segments",
    prefix="seg",
    create=False,
    get=False,
    filters=("project_id", "key"),
    search=("name", "key"),
    update=("name", "included", "excluded", "companies"),
    delete=False,
    guard_update=_guard_segment,
)
changes = service.resource(
    FlagChange,
    name="flag_change",
    plural="flag_changes",
    prefix="chg",
    create=False,
    get=False,
    filters=("flag_id", "environment_id", "actor_email", "action"),
    search=("comment",),
    delete=False,
    title="flag change",
)


# -- examples ---------------------------------------------------------------------------------


def _a_writer(ctx: Ctx) -> str:
    m = ctx.first(Member, role="writer") or ctx.first(Member, role="admin")
    return m.email if m else "nobody@example.com"


def _live_flag(ctx: Ctx) -> tuple[str, str, str] | None:
    for flag in ctx.where(Flag, archived=False):
        project = ctx.get(Project, flag.project_id)
        env = ctx.first(Environment, project_id=project.id, key="staging")
        if env is not None:
            return project.key, flag.key, env.key
    return None


def _example_change(extra: dict[str, Any]) -> Any:
    def example(ctx: Ctx) -> dict[str, Any] | None:
        found = _live_flag(ctx)
        if found is None:
            return None
        p, f, e = found
        return {
            "project_key": p,
            "flag_key": f,
            "environment_key": e,
            "actor_email": _a_writer(ctx),
            "comment": "Testing",
            **extra,
        }

    return example


def _example_create(ctx: Ctx) -> dict[str, Any] | None:
    project = ctx.first(Project)
    if project is None:
        return None
    return {
        "project_key": project.key,
        "key": "new-onboarding",
        "name": "New onboarding",
        "actor_email": _a_writer(ctx),
    }


def _example_archive(ctx: Ctx) -> dict[str, Any] | None:
    for flag in ctx.where(Flag, archived=False):
        if any(c.on for c in ctx.where(FlagConfig, flag_id=flag.id)):
            continue
        if _dependents(ctx, flag):
            continue
        project = ctx.get(Project, flag.project_id)
        return {"project_key": project.key, "flag_key": flag.key, "actor_email": _a_writer(ctx), "comment": "Done"}
    return None


def _example_evaluate(ctx: Ctx) -> dict[str, Any] | None:
    found = _live_flag(ctx)
    if found is None:
        return None
    p, f, _ = found
    return {
        "project_key": p,
        "flag_key": f,
        "environment_key": "production",
        "user": {"email": "ada@example.com", "country": "DE"},
    }


def _example_copy(ctx: Ctx) -> dict[str, Any] | None:
    found = _live_flag(ctx)
    if found is None:
        return None
    p, f, _ = found
    return {
        "project_key": p,
        "flag_key": f,
        "from_environment": "staging",
        "to_environment": "test",
        "actor_email": _a_writer(ctx),
        "comment": "Sync test with staging",
    }


def _example_remove_rule(ctx: Ctx) -> dict[str, Any] | None:
    for cfg in ctx.scan(FlagConfig):
        env = ctx.get(Environment, cfg.environment_id)
        flag = ctx.get(Flag, cfg.flag_id)
        if cfg.rules and not flag.archived:
            project = ctx.get(Project, flag.project_id)
            return {
                "project_key": project.key,
                "flag_key": flag.key,
                "environment_key": env.key,
                "rule_index": 0,
                "actor_email": _a_writer(ctx),
                "comment": "Rule no longer needed",
            }
    return None


def _example_prereq(ctx: Ctx) -> dict[str, Any] | None:
    found = _live_flag(ctx)
    if found is None:
        return None
    p, f, e = found
    flag = _flag(ctx, p, f)
    for other in ctx.where(Flag, project_id=flag.project_id, archived=False):
        env = _env(ctx, flag, e)
        if other.id != flag.id and not _requires(ctx, other, flag.key, env.id):
            return {
                "project_key": p,
                "flag_key": f,
                "environment_key": e,
                "actor_email": _a_writer(ctx),
                "prerequisites": [{"flag_key": other.key, "variation": 0}],
                "comment": "Needs it",
            }
    return None


# -- domain tools -----------------------------------------------------------------------------


@service.tool(intent="create a feature flag", write=True, example=_example_create)
def create_flag(
    ctx: Ctx,
    project_key: Key,
    key: Key,
    name: Title,
    actor_email: Email,
    kind: Literal["boolean", "multivariate"] = "boolean",
    variations: Annotated[list[Variation], Field(min_length=2, max_length=10)] | None = None,
    description: Text = "",
    temporary: bool = True,
) -> Flag:
    """Create a flag, off in every environment of its project (serving its off variation).

    Boolean flags have the variations true and false (off serves false);
    multivariate flags need at least two distinct values (off serves the last).

    Args:
        project_key: The project.
        key: Flag key used in code; unique in the project.
        name: Display name.
        actor_email: E-mail of the member creating it; becomes its maintainer.
        kind: boolean or multivariate.
        variations: For multivariate flags: the values.
        description: What it controls.
        temporary: Whether it will be removed once launched.
    """
    project = ctx.first(Project, key=project_key)
    if project is None:
        raise NotFound(f"no project {project_key}", field="project_key", hint="list projects first")
    _writer(ctx, actor_email)
    if ctx.first(Flag, project_id=project.id, key=key) is not None:
        raise Conflict(f"flag {key} exists in {project_key}", field="key", hint="pick another key")
    if kind == "boolean":
        if variations is not None:
            raise RuleViolation("boolean flags have fixed variations", field="variations", hint="omit variations")
        vars_ = [Variation(value="true", name="On"), Variation(value="false", name="Off")]
    else:
        if variations is None or len({v.value for v in variations}) != len(variations):
            raise RuleViolation(
                "multivariate flags need at least two distinct values", field="variations", hint="list distinct values"
            )
        vars_ = list(variations)
    flag = ctx.create(
        Flag,
        project_id=project.id,
        key=key,
        name=name,
        description=description,
        kind=kind,
        variations=vars_,
        temporary=temporary,
        maintainer_email=actor_email,
        salt=hashlib.sha1(f"{project.key}.{key}".encode()).hexdigest()[:8],
    )
    off = len(vars_) - 1
    for env in ctx.where(Environment, project_id=project.id):
        ctx.create(
            FlagConfig,
            flag_id=flag.id,
            environment_id=env.id,
            on=False,
            off_variation=off,
            fallthrough=Serve(variation=0),
        )
    _log(ctx, flag, None, actor_email, "create", "")
    return flag


@service.tool(intent="switch the flag on or off", write=True, idempotent=True, example=_example_change({"on": True}))
def toggle_flag(
    ctx: Ctx, project_key: Key, flag_key: Key, environment_key: Key, on: bool, actor_email: Email, comment: Text = ""
) -> FlagConfig:
    """Switch a flag's targeting on or off in one environment.

    Args:
        project_key: The project.
        flag_key: The flag.
        environment_key: The environment.
        on: True to turn targeting on, false to serve the off variation to everyone.
        actor_email: E-mail of the member changing it.
        comment: Why (required where the environment requires comments).
    """
    flag, env, cfg = _change(ctx, project_key, flag_key, environment_key, actor_email, comment)
    if cfg.on == on:
        return cfg
    _log(ctx, flag, env, actor_email, "toggle", comment)
    return _bump(ctx, cfg, on=on)


@service.tool(
    intent="set what the flag serves by default",
    write=True,
    example=_example_change(
        {"serve": {"rollout": [{"variation": 0, "weight": 25000}, {"variation": 1, "weight": 75000}]}}
    ),
)
def set_fallthrough(
    ctx: Ctx,
    project_key: Key,
    flag_key: Key,
    environment_key: Key,
    serve: Serve,
    actor_email: Email,
    comment: Text = "",
) -> FlagConfig:
    """Set what users who match no target or rule get: one variation or a percentage rollout (weights sum to 100000).

    Args:
        project_key: The project.
        flag_key: The flag.
        environment_key: The environment.
        serve: A variation index, or a rollout.
        actor_email: E-mail of the member changing it.
        comment: Why (required where the environment requires comments).
    """
    flag, env, cfg = _change(ctx, project_key, flag_key, environment_key, actor_email, comment)
    _check_serve(flag, serve, "serve")
    _log(ctx, flag, env, actor_email, "fallthrough", comment)
    return _bump(ctx, cfg, fallthrough=serve)


@service.tool(
    intent="target users individually",
    write=True,
    example=_example_change({"variation": 0, "emails": ["beta.user@example.com"]}),
)
def set_individual_targets(
    ctx: Ctx,
    project_key: Key,
    flag_key: Key,
    environment_key: Key,
    variation: Annotated[int, Field(ge=0, le=9)],
    emails: Annotated[list[Email], Field(max_length=500)],
    actor_email: Email,
    comment: Text = "",
) -> FlagConfig:
    """Serve one variation to these users, before any rule; they leave any other variation's target list.

    An empty list clears the variation's targets.

    Args:
        project_key: The project.
        flag_key: The flag.
        environment_key: The environment.
        variation: Variation index.
        emails: E-mails of the users.
        actor_email: E-mail of the member changing it.
        comment: Why (required where the environment requires comments).
    """
    flag, env, cfg = _change(ctx, project_key, flag_key, environment_key, actor_email, comment)
    if variation >= len(flag.variations):
        raise RuleViolation(
            f"the flag has {len(flag.variations)} variations", field="variation", hint="use a valid index"
        )
    wanted = list(dict.fromkeys(emails))
    others = [
        Target(variation=t.variation, emails=[e for e in t.emails if e not in wanted])
        for t in cfg.targets
        if t.variation != variation
    ]
    targets = [t for t in others if t.emails] + ([Target(variation=variation, emails=wanted)] if wanted else [])
    targets.sort(key=lambda t: t.variation)
    _log(ctx, flag, env, actor_email, "targets", comment)
    return _bump(ctx, cfg, targets=targets)


@service.tool(
    intent="add a targeting rule to the flag",
    write=True,
    example=_example_change(
        {"rule": {"clauses": [{"attribute": "country", "op": "in", "values": ["DE"]}], "serve": {"variation": 0}}}
    ),
)
def add_targeting_rule(
    ctx: Ctx,
    project_key: Key,
    flag_key: Key,
    environment_key: Key,
    rule: Rule,
    actor_email: Email,
    comment: Text = "",
    position: Annotated[int, Field(ge=0, le=50)] | None = None,
) -> FlagConfig:
    """Add a rule (all clauses must hold) at a position in the rule list (default: last).

    segment_match clauses name segments of the project; other operators take attribute values.

    Args:
        project_key: The project.
        flag_key: The flag.
        environment_key: The environment.
        rule: The rule.
        actor_email: E-mail of the member changing it.
        comment: Why (required where the environment requires comments).
        position: Index to insert at; omit to append.
    """
    flag, env, cfg = _change(ctx, project_key, flag_key, environment_key, actor_email, comment)
    _check_serve(flag, rule.serve, "rule")
    for c in rule.clauses:
        if (c.op == "segment_match") != (c.attribute == "segment"):
            raise RuleViolation(
                "segment clauses use op segment_match (and only they do)", field="rule", hint="fix the clause's op"
            )
        if c.op == "segment_match":
            for k in c.values:
                if ctx.first(Segment, project_id=flag.project_id, key=k) is None:
                    raise RuleViolation(f"no segment {k} in the project", field="rule", hint="create it first")
    if len(cfg.rules) >= 50:
        raise RuleViolation("a flag has at most 50 rules per environment", field="rule", hint="remove one first")
    rules = list(cfg.rules)
    rules.insert(len(rules) if position is None else min(position, len(rules)), rule)
    _log(ctx, flag, env, actor_email, "rules", comment)
    return _bump(ctx, cfg, rules=rules)


@service.tool(
    intent="remove a targeting rule from the flag",
    write=True,
    destructive=True,
    example=_example_remove_rule,
)
def remove_targeting_rule(
    ctx: Ctx,
    project_key: Key,
    flag_key: Key,
    environment_key: Key,
    rule_index: Annotated[int, Field(ge=0, le=49)],
    actor_email: Email,
    comment: Text = "",
) -> FlagConfig:
    """Remove the rule at an index of a flag's rule list in one environment.

    Args:
        project_key: The project.
        flag_key: The flag.
        environment_key: The environment.
        rule_index: Index of the rule (0-based).
        actor_email: E-mail of the member changing it.
        comment: Why (required where the environment requires comments).
    """
    flag, env, cfg = _change(ctx, project_key, flag_key, environment_key, actor_email, comment)
    if rule_index >= len(cfg.rules):
        raise RuleViolation(
            f"the flag has {len(cfg.rules)} rule(s) in {env.key}", field="rule_index", hint="list its configuration"
        )
    rules = [r for k, r in enumerate(cfg.rules) if k != rule_index]
    _log(ctx, flag, env, actor_email, "rules", comment)
    return _bump(ctx, cfg, rules=rules)


def _dependents(ctx: Ctx, flag: Flag) -> list[str]:
    out = []
    for cfg in ctx.scan(FlagConfig):
        if any(p.flag_key == flag.key for p in cfg.prerequisites):
            other = ctx.get(Flag, cfg.flag_id)
            if other.project_id == flag.project_id and not other.archived:
                out.append(other.key)
    return sorted(set(out))


@service.tool(
    intent="make the flag depend on another flag",
    write=True,
    example=_example_prereq,
)
def set_prerequisites(
    ctx: Ctx,
    project_key: Key,
    flag_key: Key,
    environment_key: Key,
    prerequisites: Annotated[list[Prerequisite], Field(max_length=10)],
    actor_email: Email,
    comment: Text = "",
) -> FlagConfig:
    """Replace the flags that must serve given variations before this flag's targeting applies.

    A flag cannot require itself, a missing or archived flag, or a flag that (indirectly) requires it.

    Args:
        project_key: The project.
        flag_key: The flag.
        environment_key: The environment.
        prerequisites: The prerequisites (empty removes them all).
        actor_email: E-mail of the member changing it.
        comment: Why (required where the environment requires comments).
    """
    flag, env, cfg = _change(ctx, project_key, flag_key, environment_key, actor_email, comment)
    for pre in prerequisites:
        other = ctx.first(Flag, project_id=flag.project_id, key=pre.flag_key)
        if other is None or other.archived or other.id == flag.id:
            raise RuleViolation(
                f"{pre.flag_key} cannot be a prerequisite of {flag.key}",
                field="prerequisites",
                hint="name another live flag of the project",
            )
        if pre.variation >= len(other.variations):
            raise RuleViolation(f"{other.key} has no variation {pre.variation}", field="prerequisites", hint="fix it")
        if _requires(ctx, other, flag.key, env.id):
            raise RuleViolation(
                f"{other.key} already requires {flag.key}; this would make a cycle",
                field="prerequisites",
                hint="remove the opposite prerequisite first",
            )
    _log(ctx, flag, env, actor_email, "prerequisites", comment)
    return _bump(ctx, cfg, prerequisites=list(prerequisites))


def _requires(ctx: Ctx, flag: Flag, key: str, env_id: str, depth: int = 0) -> bool:
    cfg = ctx.first(FlagConfig, flag_id=flag.id, environment_id=env_id)
    if cfg is None or depth > 10:
        return False
    for p in cfg.prerequisites:
        if p.flag_key == key:
            return True
        other = ctx.first(Flag, project_id=flag.project_id, key=p.flag_key)
        if other is not None and _requires(ctx, other, key, env_id, depth + 1):
            return True
    return False


@service.tool(intent="copy the flag's settings to another environment", write=True, example=_example_copy)
def copy_flag_config(
    ctx: Ctx,
    project_key: Key,
    flag_key: Key,
    from_environment: Key,
    to_environment: Key,
    actor_email: Email,
    comment: Text = "",
) -> FlagConfig:
    """Copy a flag's on/off state, targets, rules, fallthrough and prerequisites from one environment to another.

    Args:
        project_key: The project.
        flag_key: The flag.
        from_environment: Source environment.
        to_environment: Target environment (its comment rule applies).
        actor_email: E-mail of the member changing it.
        comment: Why (required where the target environment requires comments).
    """
    flag, dest, cfg = _change(ctx, project_key, flag_key, to_environment, actor_email, comment, "to_environment")
    src_env = _env(ctx, flag, from_environment, "from_environment")
    if src_env.id == dest.id:
        raise RuleViolation("source and target are the same", field="to_environment", hint="pick another environment")
    src = _config(ctx, flag, src_env)
    _log(ctx, flag, dest, actor_email, "copy", comment)
    return _bump(
        ctx,
        cfg,
        on=src.on,
        off_variation=src.off_variation,
        fallthrough=src.fallthrough,
        targets=src.targets,
        rules=src.rules,
        prerequisites=src.prerequisites,
    )


@service.tool(intent="archive the flag", write=True, destructive=True, example=_example_archive)
def archive_flag(ctx: Ctx, project_key: Key, flag_key: Key, actor_email: Email, comment: Text = "") -> Flag:
    """Archive a flag; it must be off in every environment and no live flag may require it.

    Args:
        project_key: The project.
        flag_key: The flag.
        actor_email: E-mail of the member archiving it.
        comment: Why.
    """
    flag = _flag(ctx, project_key, flag_key)
    _writer(ctx, actor_email)
    if flag.archived:
        raise Conflict(f"flag {flag.key} is already archived", field="flag_key", hint="nothing to do")
    on_in = [ctx.get(Environment, c.environment_id).key for c in ctx.where(FlagConfig, flag_id=flag.id) if c.on]
    if on_in:
        raise RuleViolation(
            f"flag {flag.key} is on in {', '.join(sorted(on_in))}",
            field="flag_key",
            hint="turn it off there with featureflags__toggle_flag first",
        )
    deps = _dependents(ctx, flag)
    if deps:
        raise RuleViolation(
            f"flag {flag.key} is a prerequisite of {', '.join(deps)}",
            field="flag_key",
            hint="remove it from their prerequisites first",
        )
    _log(ctx, flag, None, actor_email, "archive", comment)
    return ctx.update(flag, archived=True)


def _example_segment(ctx: Ctx) -> dict[str, Any] | None:
    project = ctx.first(Project)
    if project is None:
        return None
    return {
        "project_key": project.key,
        "key": "vip",
        "name": "VIP customers",
        "actor_email": _a_writer(ctx),
        "included": ["vip.one@example.com"],
    }


@service.tool(intent="create a user segment", write=True, example=_example_segment)
def create_segment(
    ctx: Ctx,
    project_key: Key,
    key: Key,
    name: Title,
    actor_email: Email,
    included: list[Email] | None = None,
    excluded: list[Email] | None = None,
    companies: list[CompanyName] | None = None,
) -> Segment:
    """Create a segment of users for segment_match rules: included users, users of given companies, minus excluded.

    Args:
        project_key: The project.
        key: Segment key; unique in the project.
        name: Name.
        actor_email: E-mail of the member creating it.
        included: Users always in it.
        excluded: Users never in it.
        companies: Users of these companies are in it.
    """
    project = ctx.first(Project, key=project_key)
    if project is None:
        raise NotFound(f"no project {project_key}", field="project_key", hint="list projects first")
    _writer(ctx, actor_email)
    seg = ctx.create(
        Segment,
        project_id=project.id,
        key=key,
        name=name,
        included=tuple(dict.fromkeys(included or ())),
        excluded=tuple(dict.fromkeys(excluded or ())),
        companies=tuple(dict.fromkeys(companies or ())),
    )
    _guard_segment(ctx, seg, None)
    return seg


@service.tool(intent="evaluate the flag for a user", example=_example_evaluate)
def evaluate_flag(ctx: Ctx, project_key: Key, flag_key: Key, environment_key: Key, user: UserContext) -> Evaluation:
    """Compute the value a user gets, as the SDK does, and why.

    Order: off → off variation; a failed prerequisite → off variation;
    individual targets; rules in order; fallthrough. Rollouts bucket the user
    by flag key, salt and e-mail, so the same user always gets the same value.

    Args:
        project_key: The project.
        flag_key: The flag.
        environment_key: The environment.
        user: The user's e-mail and attributes.
    """
    flag = _flag(ctx, project_key, flag_key)
    return _evaluate(ctx, flag, _env(ctx, flag, environment_key), user)


class FlagStatus(BaseModel):
    """Where a flag stands across environments."""

    flag_key: str = Field(description="The flag.")
    status: Literal["new", "active", "launched", "inactive", "archived"] = Field(
        description="new (created this week), active, launched (every environment serves one variation to all: "
        "ready to remove), inactive (off everywhere) or archived."
    )
    on_in: list[str] = Field(description="Environments where it is on.")
    temporary: bool = Field(description="Whether it is temporary.")
    maintainer_email: Email = Field(description="Its maintainer.")


@service.tool(
    intent="see which flags are launched or stale", example=first_example(Project, None, fields={"project_key": "key"})
)
def flag_statuses(ctx: Ctx, project_key: Key) -> list[FlagStatus]:
    """Classify every flag of a project: new, active, launched (safe to clean up), inactive or archived.

    Args:
        project_key: The project.
    """
    project = ctx.first(Project, key=project_key)
    if project is None:
        raise NotFound(f"no project {project_key}", field="project_key", hint="list projects first")
    out: list[FlagStatus] = []
    for flag in ctx.where(Flag, project_id=project.id):
        cfgs = ctx.where(FlagConfig, flag_id=flag.id)
        on_in = sorted(ctx.get(Environment, c.environment_id).key for c in cfgs if c.on)
        served = {
            c.fallthrough.variation
            for c in cfgs
            if c.on and not c.rules and not c.targets and not c.prerequisites and c.fallthrough.rollout is None
        }
        fixed = all(c.on and not c.rules and not c.targets and c.fallthrough.rollout is None for c in cfgs)
        if flag.archived:
            status = "archived"
        elif flag.created_at > ctx.now() - dt.timedelta(days=7):
            status = "new"
        elif not on_in:
            status = "inactive"
        elif fixed and len(served) == 1:
            status = "launched"
        else:
            status = "active"
        out.append(
            FlagStatus(
                flag_key=flag.key,
                status=status,
                on_in=on_in,
                temporary=flag.temporary,
                maintainer_email=flag.maintainer_email,
            )
        )
    return out


# -- seed -------------------------------------------------------------------------------------


_FLAGS: tuple[dict[str, Any], ...] = (
    {
        "key": "new-checkout",
        "name": "New checkout",
        "desc": "The redesigned checkout flow.",
        "prod": {
            "on": True,
            "fallthrough": Serve(rollout=[Weighted(variation=0, weight=20000), Weighted(variation=1, weight=80000)]),
            "targeted": 2,
        },
        "staging": {"on": True, "fallthrough": Serve(variation=0)},
    },
    {
        "key": "dark-mode",
        "name": "Dark mode",
        "desc": "Dark colour scheme.",
        "prod": {
            "on": True,
            "fallthrough": Serve(variation=1),
            "rules": [
                Rule(
                    description="Beta testers",
                    serve=Serve(variation=0),
                    clauses=[Clause(attribute="segment", op="segment_match", values=["beta-testers"])],
                )
            ],
        },
        "staging": {"on": True, "fallthrough": Serve(variation=0)},
    },
    {
        "key": "pricing-page",
        "name": "Pricing page variant",
        "kind": "multivariate",
        "variations": [
            Variation(value="control", name="Control"),
            Variation(value="annual-first", name="Annual first"),
            Variation(value="calculator", name="Calculator"),
        ],
        "temporary": True,
        "desc": "Pricing page experiment.",
        "prod": {
            "on": True,
            "fallthrough": Serve(variation=0),
            "rules": [
                Rule(
                    description="EU shoppers",
                    serve=Serve(variation=1),
                    clauses=[Clause(attribute="country", op="in", values=["DE", "FR", "ES", "IT"])],
                ),
                Rule(
                    description="Enterprise",
                    serve=Serve(variation=2),
                    clauses=[Clause(attribute="segment", op="segment_match", values=["enterprise"])],
                ),
            ],
        },
        "staging": {"on": True, "fallthrough": Serve(variation=2)},
    },
    {
        "key": "advanced-reports",
        "name": "Advanced reports",
        "desc": "Reports for pro plans.",
        "temporary": False,
        "prod": {
            "on": True,
            "fallthrough": Serve(variation=1),
            "prerequisites": [Prerequisite(flag_key="new-checkout", variation=0)],
            "rules": [
                Rule(
                    description="Paid plans",
                    serve=Serve(variation=0),
                    clauses=[Clause(attribute="plan", op="in", values=["pro", "enterprise"])],
                )
            ],
        },
        "staging": {"on": True, "fallthrough": Serve(variation=0)},
    },
    {
        "key": "legacy-search",
        "name": "Legacy search removal",
        "desc": "Serve the new search to everyone.",
        "prod": {"on": True, "fallthrough": Serve(variation=0)},
        "staging": {"on": True, "fallthrough": Serve(variation=0)},
        "test": {"on": True, "fallthrough": Serve(variation=0)},
    },
    {
        "key": "maintenance-banner",
        "name": "Maintenance banner",
        "desc": "Banner during maintenance windows.",
        "temporary": False,
        "prod": {"on": False},
        "staging": {"on": False},
    },
    {
        "key": "holiday-theme",
        "name": "Holiday theme",
        "desc": "Last season's theme.",
        "archived": True,
        "prod": {"on": False},
        "staging": {"on": False},
    },
)
"""The seeded flags; boolean (On, Off) unless they list their variations. Per environment (prod, staging,
test; missing: off): on, fallthrough, rules, prerequisites, and targeted, how many of the first consumers are
individually served variation 0."""


@service.seeder
def seed(s: SeedContext) -> None:
    """Members from engineering and product, one web project with three environments, flags and segments."""
    engineers = _seed_members(s)
    project, envs = _seed_project(s)
    consumers = [p.email for p in s.population.consumers]
    _seed_segments(s, project, consumers)
    for k, spec in enumerate(_FLAGS):
        _seed_flag(s, project, envs, k, spec, engineers[k % len(engineers)], consumers)


def _seed_members(s: SeedContext) -> list[str]:
    """Engineers as writers (the first an admin), two marketers as readers; the engineers' e-mails."""
    pop = s.population
    engineers = pop.staff("Engineering", fallback=4)
    marketing = pop.staff("Marketing", fallback=0)[:2]
    for k, p in enumerate(engineers):
        s.create(Member, name=p.name, email=p.email, role="admin" if k == 0 else "writer")
    for p in marketing:
        s.create(Member, name=p.name, email=p.email, role="reader")
    return [p.email for p in engineers]


def _seed_project(s: SeedContext) -> tuple[Project, dict[str, Environment]]:
    """The web project and its environments by key; production is critical and requires comments."""
    project = s.create(Project, key="web", name=f"{s.population.home.name} web platform")
    envs = {
        "production": s.create(
            Environment,
            project_id=project.id,
            key="production",
            name="Production",
            critical=True,
            require_comments=True,
        ),
        "staging": s.create(Environment, project_id=project.id, key="staging", name="Staging"),
        "test": s.create(Environment, project_id=project.id, key="test", name="Test"),
    }
    return project, envs


def _seed_segments(s: SeedContext, project: Project, consumers: list[str]) -> None:
    pop = s.population
    enterprise = [c.name for c in pop.customers if c.employees >= 400][:5] or [pop.customers[0].name]
    s.create(
        Segment,
        project_id=project.id,
        key="beta-testers",
        name="Beta testers",
        included=tuple(consumers[:6]),
        excluded=(consumers[6],),
    )
    s.create(Segment, project_id=project.id, key="enterprise", name="Enterprise customers", companies=tuple(enterprise))


def _seed_flag(
    s: SeedContext,
    project: Project,
    envs: dict[str, Environment],
    k: int,
    spec: dict[str, Any],
    maintainer: str,
    consumers: list[str],
) -> None:
    """The k-th flag of _FLAGS, its configuration in every environment and its creation in the audit log."""
    variations = spec.get("variations", [Variation(value="true", name="On"), Variation(value="false", name="Off")])
    flag = s.create(
        Flag,
        project_id=project.id,
        key=spec["key"],
        name=spec["name"],
        description=spec["desc"],
        kind=spec.get("kind", "boolean"),
        variations=variations,
        temporary=spec.get("temporary", True),
        maintainer_email=maintainer,
        salt=hashlib.sha1(f"web.{spec['key']}".encode()).hexdigest()[:8],
        archived=spec.get("archived", False),
        created_at=s.ago(days=90 - 10 * k),
    )
    for env_key, env in envs.items():
        conf = spec.get("prod" if env_key == "production" else env_key, {"on": False})
        targeted = conf.get("targeted", 0)
        s.create(
            FlagConfig,
            flag_id=flag.id,
            environment_id=env.id,
            on=conf.get("on", False),
            off_variation=len(variations) - 1,
            fallthrough=conf.get("fallthrough", Serve(variation=0)),
            targets=[Target(variation=0, emails=consumers[:targeted])] if targeted else [],
            rules=conf.get("rules", []),
            prerequisites=conf.get("prerequisites", []),
            version=3 if conf.get("on") else 1,
            updated_at=s.ago(days=20 - k),
        )
    s.create(FlagChange, flag_id=flag.id, actor_email=flag.maintainer_email, action="create", at=flag.created_at)
