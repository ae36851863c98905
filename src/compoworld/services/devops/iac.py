"""Terraform Deck: infrastructure as code: workspaces, variables, plan and apply runs, policies and state.

Modeled on the Terraform Cloud / HCP Terraform API v2: an organization with
owners; workspaces (names unique in the organization, execution mode, auto
apply) with variables (terraform or env category, unique key per category,
sensitive values never shown again); runs that plan on creation and then wait
for confirmation: pending (queued behind the workspace's active run) →
planned, or planned_and_finished when nothing changes; with policy sets on the
workspace the plan is checked (policy_checked, policy_soft_failed for a
soft-mandatory failure, errored for a hard-mandatory one); an owner may
override a soft failure (policy_override); apply needs confirmation and an
unlocked workspace and writes a new state version; a run is discarded or
canceled instead; auto-apply workspaces apply a clean plan at once. Locks are
held by one user, released by them or force-unlocked by an owner; a state
version rollback needs the workspace locked by the caller. A workspace that
still manages resources or is locked cannot be deleted. The policies are
Sentinel-style limits on how many resources a plan may destroy.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import Field, StringConstraints

from compoworld.engine.context import Ctx
from compoworld.engine.errors import Conflict, RuleViolation
from compoworld.engine.records import CREATED, UPDATED, Record
from compoworld.engine.service import Service
from compoworld.engine.state import SeedContext
from compoworld.engine.types import DateTime, Email, IdOf, Text
from compoworld.services.devops._shared import org_handle
from compoworld.services.kit.examples import first_example

__all__ = ["service"]

service = Service(
    "iac",
    title="Terraform Deck",
    category="infrastructure_as_code",
    modeled_on="Terraform Cloud / HCP Terraform API v2 (organizations, workspaces, vars, runs with apply, discard, "
    "cancel and policy override, policy-sets, workspace lock/unlock/force-unlock, state-versions and rollback)",
    description="Infrastructure as code for the engineering team: Terraform workspaces with their variables, runs "
    "that plan and wait for confirmation to apply, policy sets that limit destructive plans, workspace locks and "
    "the state versions every apply writes.",
)

OrganizationId = Annotated[str, IdOf("iac.organization")]
WorkspaceId = Annotated[str, IdOf("iac.workspace")]
VariableId = Annotated[str, IdOf("iac.variable")]
RunId = Annotated[str, IdOf("iac.run")]
PolicySetId = Annotated[str, IdOf("iac.policy_set")]
StateVersionId = Annotated[str, IdOf("iac.state_version")]

WorkspaceName = Annotated[str, StringConstraints(pattern=r"^[A-Za-z0-9_-]{1,90}$")]
"""A workspace name: letters, digits, dashes and underscores."""
VarKey = Annotated[str, StringConstraints(pattern=r"^[A-Za-z_][A-Za-z0-9_]{0,127}$")]
"""A variable name."""
TfVersion = Annotated[str, StringConstraints(pattern=r"^1\.\d{1,2}\.\d{1,2}$")]
"""A Terraform version such as 1.7.5."""
Count = Annotated[int, Field(ge=0, le=100000)]
"""A resource count."""

Plan = Literal["free", "standard", "plus"]
ExecutionMode = Literal["remote", "local", "agent"]
Category = Literal["terraform", "env"]
RunStatus = Literal[
    "pending",
    "planned",
    "planned_and_finished",
    "policy_checked",
    "policy_soft_failed",
    "policy_override",
    "applied",
    "discarded",
    "canceled",
    "errored",
]
Enforcement = Literal["advisory", "soft-mandatory", "hard-mandatory"]
CONFIRMABLE: tuple[RunStatus, ...] = ("planned", "policy_checked", "policy_override")
DISCARDABLE: tuple[RunStatus, ...] = (*CONFIRMABLE, "policy_soft_failed")
FINAL: tuple[RunStatus, ...] = ("planned_and_finished", "applied", "discarded", "canceled", "errored")


class Organization(Record):
    """A Terraform organization."""

    id: OrganizationId
    name: Annotated[str, StringConstraints(pattern=r"^[A-Za-z0-9_-]{3,40}$")]
    """Its name."""
    email: Email
    """Its notification e-mail."""
    owner_emails: tuple[Email, ...]
    """Members of the owners team."""
    plan: Plan = "standard"
    """free, standard or plus."""
    created_at: Annotated[DateTime, CREATED]
    """When it was created."""


class Workspace(Record):
    """A workspace: one Terraform configuration and its state."""

    id: WorkspaceId
    organization_id: OrganizationId
    """Its organization."""
    name: WorkspaceName
    """Its name (unique in the organization)."""
    description: Text = ""
    """What it manages."""
    terraform_version: TfVersion = "1.7.5"
    """The Terraform version runs use."""
    execution_mode: ExecutionMode = "remote"
    """remote, local or agent."""
    auto_apply: bool = False
    """Apply clean plans without confirmation."""
    working_directory: Annotated[str, StringConstraints(max_length=200)] = ""
    """The configuration's folder in the repository."""
    locked: bool = False
    """Whether it is locked."""
    locked_by: Email | None = None
    """Who holds the lock."""
    lock_reason: str = ""
    """Why it is locked."""
    resource_count: Count = 0
    """Resources in the current state."""
    current_state_version_id: StateVersionId | None = None
    """The current state version."""
    created_at: Annotated[DateTime, CREATED]
    """When it was created."""
    updated_at: Annotated[DateTime, UPDATED]
    """When it last changed."""


class Variable(Record):
    """A workspace variable."""

    id: VariableId
    workspace_id: WorkspaceId
    """Its workspace."""
    key: VarKey
    """Its name (unique per workspace and category)."""
    value: Annotated[str, StringConstraints(max_length=4000)] | None = None
    """Its value (None when sensitive)."""
    category: Category = "terraform"
    """terraform (input variable) or env (environment variable)."""
    hcl: bool = False
    """Whether the value is HCL."""
    sensitive: bool = False
    """Write-only: the value is never shown again."""
    description: Text = ""
    """What it is."""
    created_at: Annotated[DateTime, CREATED]
    """When it was created."""


class Run(Record):
    """A plan, and its apply once confirmed."""

    id: RunId
    workspace_id: WorkspaceId
    """Its workspace."""
    message: Annotated[str, StringConstraints(min_length=1, max_length=500)]
    """Why it was queued."""
    created_by: Email
    """Who queued it."""
    is_destroy: bool = False
    """A destroy plan."""
    status: RunStatus = "pending"
    """pending, planned, planned_and_finished, policy_checked, policy_soft_failed, policy_override, applied,
    discarded, canceled or errored."""
    additions: Count = 0
    """Resources the plan adds."""
    changes: Count = 0
    """Resources it changes."""
    destructions: Count = 0
    """Resources it destroys."""
    policy_results: tuple[str, ...] = ()
    """Failed policy set names with their enforcement."""
    confirmed_by: Email | None = None
    """Who confirmed the apply or overrode the policy."""
    comment: str = ""
    """The apply, discard or override comment."""
    created_at: Annotated[DateTime, CREATED]
    """When it was queued."""
    updated_at: Annotated[DateTime, UPDATED]
    """When it last changed."""


class PolicySet(Record):
    """A Sentinel-style policy set limiting destroys in its workspaces."""

    id: PolicySetId
    organization_id: OrganizationId
    """Its organization."""
    name: WorkspaceName
    """Its name (unique in the organization)."""
    enforcement: Enforcement = "soft-mandatory"
    """advisory, soft-mandatory or hard-mandatory."""
    max_destructions: Count = 0
    """Most resources a plan may destroy."""
    workspace_ids: tuple[WorkspaceId, ...] = ()
    """The workspaces it applies to."""
    created_at: Annotated[DateTime, CREATED]
    """When it was created."""


class StateVersion(Record):
    """A snapshot of a workspace's state."""

    id: StateVersionId
    workspace_id: WorkspaceId
    """Its workspace."""
    serial: int
    """Its serial, increasing per workspace."""
    resource_count: Count
    """Resources in it."""
    run_id: RunId | None = None
    """The run that wrote it (None: uploaded or rolled back)."""
    created_by: Email
    """Who wrote it."""
    created_at: Annotated[DateTime, CREATED]
    """When it was written."""


# -- rules ------------------------------------------------------------------------------------


def _staff(ctx: Ctx, email: str | None, field: str) -> None:
    if email is not None and email not in {p.email for p in ctx.population.employees}:
        raise RuleViolation(f"{email} is not a member of the organization", field=field, hint="use an employee")


def _owner(ctx: Ctx, ws: Workspace, email: str, field: str) -> None:
    org = ctx.get(Organization, ws.organization_id)
    if email not in org.owner_emails:
        raise RuleViolation(f"{email} is not in the owners team", field=field, hint=f"ask one of {org.owner_emails}")


def _guard_workspace(ctx: Ctx, new: Any, old: Any) -> None:
    for other in ctx.where(Workspace, organization_id=new.organization_id, name=new.name):
        if other.id != new.id:
            raise Conflict(f"workspace {new.name} already exists", field="name", hint="pick another name")


def _guard_workspace_delete(ctx: Ctx, new: Any, old: Any) -> None:
    if old.locked:
        raise RuleViolation(f"workspace {old.name} is locked", field="workspace_id", hint="unlock it first")
    if old.resource_count:
        raise RuleViolation(
            f"workspace {old.name} still manages {old.resource_count} resources",
            field="workspace_id",
            hint="queue a destroy run (iac__create_run with is_destroy) and apply it first",
        )
    for model in (Variable, Run, StateVersion):
        for rec in ctx.where(model, workspace_id=old.id):
            ctx.delete(rec)


def _guard_variable(ctx: Ctx, new: Any, old: Any) -> None:
    for other in ctx.where(Variable, workspace_id=new.workspace_id, key=new.key, category=new.category):
        if other.id != new.id:
            raise Conflict(f"{new.category} variable {new.key} exists", field="key", hint="update that variable")
    if old is not None and old.sensitive and not new.sensitive:
        raise RuleViolation("a sensitive variable stays sensitive", field="sensitive", hint="delete and recreate it")
    if new.sensitive and new.value is not None:
        ctx.update(new, value=None)


organizations = service.resource(
    Organization,
    name="organization",
    plural="organizations",
    prefix="org",
    create=False,
    filters=("name",),
    update=("email", "owner_emails", "plan"),
    delete=False,
)
workspaces = service.resource(
    Workspace,
    name="workspace",
    plural="workspaces",
    prefix="ws",
    create=False,
    filters=("organization_id", "name", "locked", "execution_mode", "auto_apply", "locked_by"),
    search=("name", "description"),
    update=("name", "description", "terraform_version", "execution_mode", "auto_apply", "working_directory"),
    guard_update=_guard_workspace,
    guard_delete=_guard_workspace_delete,
)
variables = service.resource(
    Variable,
    name="variable",
    plural="variables",
    prefix="var",
    create=False,
    get=False,
    filters=("workspace_id", "key", "category", "sensitive"),
    update=("value", "hcl", "sensitive", "description"),
    guard_update=_guard_variable,
)
runs = service.resource(
    Run,
    name="run",
    plural="runs",
    prefix="run",
    create=False,
    filters=("workspace_id", "status", "created_by", "is_destroy"),
    search=("message",),
    delete=False,
)
policy_sets = service.resource(
    PolicySet,
    name="policy_set",
    plural="policy_sets",
    prefix="polset",
    create=False,
    filters=("organization_id", "enforcement", "name"),
    update=("enforcement", "max_destructions", "workspace_ids"),
    title="policy set",
)
state_versions = service.resource(
    StateVersion,
    name="state_version",
    plural="state_versions",
    prefix="sv",
    create=False,
    filters=("workspace_id", "run_id", "serial"),
    delete=False,
    title="state version",
)


# -- workspaces, variables --------------------------------------------------------------------


def _example_org(ctx: Ctx) -> dict[str, Any] | None:
    org = ctx.first(Organization)
    return None if org is None else {"organization_id": org.id, "name": "networking-dr", "auto_apply": False}


@service.tool(intent="create the workspace", write=True, example=_example_org)
def create_workspace(
    ctx: Ctx,
    organization_id: OrganizationId,
    name: WorkspaceName,
    description: Text = "",
    terraform_version: TfVersion = "1.7.5",
    execution_mode: ExecutionMode = "remote",
    auto_apply: bool = False,
) -> Workspace:
    """Create an empty workspace; names are unique in the organization.

    Args:
        organization_id: The organization.
        name: Letters, digits, dashes and underscores.
        description: What it manages.
        terraform_version: The Terraform version.
        execution_mode: remote, local or agent.
        auto_apply: Apply clean plans without confirmation.
    """
    ctx.get(Organization, organization_id, field="organization_id")
    if ctx.first(Workspace, organization_id=organization_id, name=name) is not None:
        raise Conflict(f"workspace {name} already exists", field="name", hint="pick another name")
    return ctx.create(
        Workspace,
        organization_id=organization_id,
        name=name,
        description=description,
        terraform_version=terraform_version,
        execution_mode=execution_mode,
        auto_apply=auto_apply,
    )


@service.tool(
    intent="add the variable to the workspace",
    write=True,
    example=first_example(Workspace, "workspace_id", key="region", value="eu-west-1"),
)
def create_variable(
    ctx: Ctx,
    workspace_id: WorkspaceId,
    key: VarKey,
    value: Annotated[str, StringConstraints(max_length=4000)],
    category: Category = "terraform",
    hcl: bool = False,
    sensitive: bool = False,
    description: Text = "",
) -> Variable:
    """Add a variable; keys are unique per workspace and category; a sensitive value is never shown again.

    Args:
        workspace_id: The workspace.
        key: The variable's name.
        value: Its value.
        category: terraform (input variable) or env (environment variable).
        hcl: Whether the value is HCL (terraform variables only).
        sensitive: Write-only.
        description: What it is.
    """
    ctx.get(Workspace, workspace_id, field="workspace_id")
    if hcl and category == "env":
        raise RuleViolation("environment variables cannot be HCL", field="hcl", hint="set hcl false")
    if ctx.first(Variable, workspace_id=workspace_id, key=key, category=category) is not None:
        raise Conflict(f"{category} variable {key} exists", field="key", hint="update it with iac__update_variable")
    return ctx.create(
        Variable,
        workspace_id=workspace_id,
        key=key,
        value=None if sensitive else value,
        category=category,
        hcl=hcl,
        sensitive=sensitive,
        description=description,
    )


def _example_lock(ctx: Ctx) -> dict[str, Any] | None:
    ws = ctx.first(Workspace, locked=False)
    return (
        None
        if ws is None
        else {"workspace_id": ws.id, "user_email": ctx.population.employees[0].email, "reason": "Manual state surgery"}
    )


@service.tool(intent="lock the workspace", write=True, example=_example_lock)
def lock_workspace(ctx: Ctx, workspace_id: WorkspaceId, user_email: Email, reason: str = "") -> Workspace:
    """Lock a workspace so that no run applies until it is unlocked.

    Args:
        workspace_id: The workspace.
        user_email: The user taking the lock.
        reason: Why.
    """
    ws = ctx.get(Workspace, workspace_id, field="workspace_id")
    if ws.locked:
        raise Conflict(
            f"workspace {ws.name} is already locked by {ws.locked_by}",
            field="workspace_id",
            hint="ask them to unlock it",
        )
    _staff(ctx, user_email, "user_email")
    return ctx.update(ws, locked=True, locked_by=user_email, lock_reason=reason)


def _example_unlock(ctx: Ctx) -> dict[str, Any] | None:
    ws = ctx.first(Workspace, locked=True)
    return None if ws is None else {"workspace_id": ws.id, "user_email": ws.locked_by}


@service.tool(intent="unlock the workspace", write=True, example=_example_unlock)
def unlock_workspace(ctx: Ctx, workspace_id: WorkspaceId, user_email: Email, force: bool = False) -> Workspace:
    """Release a lock: the holder unlocks; anyone else needs force, which only owners may use.

    Args:
        workspace_id: The workspace.
        user_email: Who unlocks.
        force: Force-unlock a lock someone else holds (owners only).
    """
    ws = ctx.get(Workspace, workspace_id, field="workspace_id")
    if not ws.locked:
        raise Conflict(f"workspace {ws.name} is not locked", field="workspace_id", hint="nothing to unlock")
    if user_email != ws.locked_by:
        if not force:
            raise RuleViolation(f"the lock is held by {ws.locked_by}", field="user_email", hint="use force (owners)")
        _owner(ctx, ws, user_email, "user_email")
    return ctx.update(ws, locked=False, locked_by=None, lock_reason="")


# -- runs -------------------------------------------------------------------------------------


def _active(ctx: Ctx, ws: Workspace, but: str = "") -> Run | None:
    for run in ctx.where(Run, workspace_id=ws.id):
        if run.id != but and run.status not in FINAL:
            return run
    return None


def _plan(ctx: Ctx, run: Run) -> Run:
    ws = ctx.get(Workspace, run.workspace_id)
    if run.is_destroy:
        add, change, destroy = 0, 0, ws.resource_count
    else:
        add, change = ctx.rng.randint(0, 4), ctx.rng.randint(0, 3)
        destroy = ctx.rng.randint(0, min(2, ws.resource_count))
    if add + change + destroy == 0:
        return ctx.update(run, status="planned_and_finished")
    failed = [
        f"{p.name} ({p.enforcement})"
        for p in ctx.where(PolicySet, organization_id=ws.organization_id)
        if ws.id in p.workspace_ids and destroy > p.max_destructions
    ]
    status: RunStatus = "planned"
    if any("hard-mandatory" in f for f in failed):
        status = "errored"
    elif any("soft-mandatory" in f for f in failed):
        status = "policy_soft_failed"
    elif any(ws.id in p.workspace_ids for p in ctx.where(PolicySet, organization_id=ws.organization_id)):
        status = "policy_checked"
    run = ctx.update(
        run, status=status, additions=add, changes=change, destructions=destroy, policy_results=tuple(failed)
    )
    if ws.auto_apply and status in ("planned", "policy_checked") and not ws.locked:
        return _apply(ctx, run, run.created_by, "auto-apply")
    return run


def _apply(ctx: Ctx, run: Run, by: str, comment: str) -> Run:
    ws = ctx.get(Workspace, run.workspace_id)
    count = max(0, ws.resource_count + run.additions - run.destructions)
    serial = max((s.serial for s in ctx.where(StateVersion, workspace_id=ws.id)), default=0) + 1
    sv = ctx.create(StateVersion, workspace_id=ws.id, serial=serial, resource_count=count, run_id=run.id, created_by=by)
    ctx.update(ws, resource_count=count, current_state_version_id=sv.id)
    return _finish(ctx, run, status="applied", confirmed_by=by, comment=comment)


def _finish(ctx: Ctx, run: Run, **changes: Any) -> Run:
    run = ctx.update(run, **changes)
    ws = ctx.get(Workspace, run.workspace_id)
    queued = ctx.first(Run, workspace_id=ws.id, status="pending")
    if queued is not None and _active(ctx, ws, but=queued.id) is None:
        _plan(ctx, queued)
    return run


def _example_run(ctx: Ctx) -> dict[str, Any] | None:
    ws = ctx.first(Workspace, auto_apply=False, locked=False)
    return (
        None
        if ws is None
        else {"workspace_id": ws.id, "message": "Add NAT gateway", "created_by": ctx.population.employees[0].email}
    )


@service.tool(intent="queue a plan in the workspace", write=True, example=_example_run)
def create_run(
    ctx: Ctx,
    workspace_id: WorkspaceId,
    message: Annotated[str, StringConstraints(min_length=1, max_length=500)],
    created_by: Email,
    is_destroy: bool = False,
) -> Run:
    """Queue a run: it plans at once, or waits (pending) behind the workspace's active run.

    Args:
        workspace_id: The workspace.
        message: Why.
        created_by: Who queues it.
        is_destroy: Plan to destroy every resource.
    """
    ws = ctx.get(Workspace, workspace_id, field="workspace_id")
    if ws.execution_mode == "local":
        raise RuleViolation(
            f"workspace {ws.name} runs locally", field="workspace_id", hint="switch execution_mode to remote or agent"
        )
    _staff(ctx, created_by, "created_by")
    run = ctx.create(Run, workspace_id=ws.id, message=message, created_by=created_by, is_destroy=is_destroy)
    return run if _active(ctx, ws, but=run.id) is not None else _plan(ctx, run)


def _example_apply(ctx: Ctx) -> dict[str, Any] | None:
    for run in ctx.scan(Run):
        if run.status in CONFIRMABLE and not ctx.get(Workspace, run.workspace_id).locked:
            return {"run_id": run.id, "confirmed_by": run.created_by, "comment": "LGTM"}
    return None


@service.tool(intent="apply the run", write=True, example=_example_apply)
def apply_run(ctx: Ctx, run_id: RunId, confirmed_by: Email, comment: str = "") -> Run:
    """Confirm and apply a planned run: a new state version is written; the next queued run plans.

    Args:
        run_id: The run (planned, policy_checked or policy_override).
        confirmed_by: Who confirms.
        comment: A comment.
    """
    run = ctx.get(Run, run_id, field="run_id")
    if run.status not in CONFIRMABLE:
        raise RuleViolation(
            f"run {run.id} is {run.status}, not confirmable",
            field="run_id",
            hint="only planned, policy_checked or policy_override runs apply",
        )
    ws = ctx.get(Workspace, run.workspace_id)
    if ws.locked:
        raise Conflict(f"workspace {ws.name} is locked by {ws.locked_by}", field="run_id", hint="unlock it first")
    _staff(ctx, confirmed_by, "confirmed_by")
    return _apply(ctx, run, confirmed_by, comment)


def _example_override(ctx: Ctx) -> dict[str, Any] | None:
    run = ctx.first(Run, status="policy_soft_failed")
    if run is None:
        return None
    owner = ctx.get(Organization, ctx.get(Workspace, run.workspace_id).organization_id).owner_emails[0]
    return {"run_id": run.id, "user_email": owner, "comment": "Approved decommission"}


@service.tool(
    intent="override the policy check of the run",
    write=True,
    example=_example_override,
)
def override_policy(ctx: Ctx, run_id: RunId, user_email: Email, comment: str) -> Run:
    """Override a soft-mandatory policy failure (owners only, with a comment); the run can then apply.

    Args:
        run_id: The run (policy_soft_failed).
        user_email: The owner overriding.
        comment: Why (required).
    """
    run = ctx.get(Run, run_id, field="run_id")
    if run.status != "policy_soft_failed":
        raise RuleViolation(f"run {run.id} is {run.status}", field="run_id", hint="only soft failures override")
    _owner(ctx, ctx.get(Workspace, run.workspace_id), user_email, "user_email")
    if not comment.strip():
        raise RuleViolation("an override needs a comment", field="comment", hint="say why")
    return ctx.update(run, status="policy_override", confirmed_by=user_email, comment=comment.strip())


@service.tool(
    intent="discard the run",
    write=True,
    example=first_example(Run, "run_id", where={"status": "policy_checked"}, comment="Superseded"),
)
def discard_run(ctx: Ctx, run_id: RunId, comment: str = "") -> Run:
    """Discard a run waiting for confirmation; the next queued run plans.

    Args:
        run_id: The run.
        comment: Why.
    """
    run = ctx.get(Run, run_id, field="run_id")
    if run.status not in DISCARDABLE:
        raise RuleViolation(f"run {run.id} is {run.status}", field="run_id", hint="cancel a pending run instead")
    return _finish(ctx, run, status="discarded", comment=comment)


@service.tool(intent="cancel the run", write=True, example=first_example(Run, "run_id", where={"status": "pending"}))
def cancel_run(ctx: Ctx, run_id: RunId) -> Run:
    """Cancel a queued (pending) run.

    Args:
        run_id: The run.
    """
    run = ctx.get(Run, run_id, field="run_id")
    if run.status != "pending":
        raise RuleViolation(f"run {run.id} is {run.status}", field="run_id", hint="discard a planned run instead")
    return ctx.update(run, status="canceled")


# -- policy sets, state -----------------------------------------------------------------------


@service.tool(
    intent="create the policy set",
    write=True,
    example=first_example(Organization, "organization_id", name="no-prod-destroys", max_destructions=0),
)
def create_policy_set(
    ctx: Ctx,
    organization_id: OrganizationId,
    name: WorkspaceName,
    max_destructions: Count = 0,
    enforcement: Enforcement = "soft-mandatory",
    workspace_ids: tuple[WorkspaceId, ...] = (),
) -> PolicySet:
    """Create a policy set that checks how many resources a plan destroys in its workspaces.

    Args:
        organization_id: The organization.
        name: Unique in the organization.
        max_destructions: Most resources a plan may destroy.
        enforcement: advisory, soft-mandatory (owners may override) or hard-mandatory.
        workspace_ids: Its workspaces (of the organization).
    """
    ctx.get(Organization, organization_id, field="organization_id")
    if ctx.first(PolicySet, organization_id=organization_id, name=name) is not None:
        raise Conflict(f"policy set {name} exists", field="name", hint="pick another name")
    for wid in workspace_ids:
        if ctx.get(Workspace, wid, field="workspace_ids").organization_id != organization_id:
            raise RuleViolation(f"{wid} is in another organization", field="workspace_ids", hint="drop it")
    return ctx.create(
        PolicySet,
        organization_id=organization_id,
        name=name,
        max_destructions=max_destructions,
        enforcement=enforcement,
        workspace_ids=tuple(dict.fromkeys(workspace_ids)),
    )


def _example_rollback(ctx: Ctx) -> dict[str, Any] | None:
    for ws in ctx.where(Workspace, locked=True):
        for sv in ctx.where(StateVersion, workspace_id=ws.id):
            if sv.id != ws.current_state_version_id:
                return {"state_version_id": sv.id, "user_email": ws.locked_by}
    return None


@service.tool(intent="roll back the workspace's state", write=True, example=_example_rollback)
def rollback_state(ctx: Ctx, state_version_id: StateVersionId, user_email: Email) -> StateVersion:
    """Make an earlier state version current again (a new version copying it); the caller must hold the lock.

    Args:
        state_version_id: The earlier state version.
        user_email: Who rolls back (the lock holder).
    """
    old = ctx.get(StateVersion, state_version_id, field="state_version_id")
    ws = ctx.get(Workspace, old.workspace_id)
    if not ws.locked or ws.locked_by != user_email:
        raise RuleViolation(
            f"{user_email} does not hold the lock on {ws.name}",
            field="user_email",
            hint="lock the workspace with iac__lock_workspace first",
        )
    if old.id == ws.current_state_version_id:
        raise Conflict("that is already the current state", field="state_version_id", hint="pick an older one")
    serial = max(s.serial for s in ctx.where(StateVersion, workspace_id=ws.id)) + 1
    sv = ctx.create(
        StateVersion, workspace_id=ws.id, serial=serial, resource_count=old.resource_count, created_by=user_email
    )
    ctx.update(ws, resource_count=old.resource_count, current_state_version_id=sv.id)
    return sv


# -- seed -------------------------------------------------------------------------------------

WORKSPACES: tuple[tuple[str, str, int, bool, ExecutionMode], ...] = (
    ("networking-prod", "VPCs, subnets and transit gateway", 64, False, "remote"),
    ("app-prod", "Production application stack", 128, False, "remote"),
    ("app-staging", "Staging application stack", 96, True, "remote"),
    ("data-platform", "Warehouse, buckets and IAM", 41, False, "agent"),
    ("sandbox", "Engineers' scratch space", 0, True, "local"),
)


@service.seeder
def seed(s: SeedContext) -> None:
    """One organization, workspaces with variables and state history, runs in every status, policy sets."""
    pop = s.population
    eng = pop.staff("Engineering", "IT", fallback=4)
    org = s.create(
        Organization,
        name=org_handle(pop),
        email=f"platform@{pop.home.domain}",
        owner_emails=(eng[0].email,),
        created_at=s.ago(days=800),
    )
    made: list[Workspace] = []
    for k, (name, desc, count, auto, mode) in enumerate(WORKSPACES):
        ws = s.create(
            Workspace,
            organization_id=org.id,
            name=name,
            description=desc,
            auto_apply=auto,
            execution_mode=mode,
            working_directory=f"envs/{name}",
            resource_count=count,
            created_at=s.ago(days=700 - 60 * k),
            updated_at=s.ago(days=2 + k),
        )
        made.append(ws)
        for key, value, cat, sens in (
            ("region", "us-east-1" if pop.home.place.country == "US" else "eu-central-1", "terraform", False),
            ("environment", name.split("-")[-1], "terraform", False),
            ("AWS_SECRET_ACCESS_KEY", None, "env", True),
        ):
            s.create(
                Variable,
                workspace_id=ws.id,
                key=key,
                value=value,
                category=cat,
                sensitive=sens,
                created_at=s.ago(days=600 - 60 * k),
            )
        if count:
            prev = None
            for serial in range(1, 4):
                prev = s.create(
                    StateVersion,
                    workspace_id=ws.id,
                    serial=serial,
                    resource_count=count - 3 + serial,
                    created_by=eng[serial % len(eng)].email,
                    created_at=s.ago(days=90 - 30 * serial),
                )
            s.update(ws, current_state_version_id=prev.id if prev else None)
    runs: tuple[tuple[int, str, RunStatus, int, int, int, tuple[str, ...]], ...] = (
        (0, "Add private subnets for EKS", "applied", 6, 1, 0, ()),
        (
            0,
            "Rotate transit gateway attachments",
            "policy_soft_failed",
            2,
            0,
            3,
            ("prod-no-destroys (soft-mandatory)",),
        ),
        (1, "Bump RDS instance class", "policy_checked", 0, 1, 0, ()),
        (1, "Add CloudFront distribution", "pending", 0, 0, 0, ()),
        (2, "Scale worker pool", "applied", 0, 2, 0, ()),
        (3, "Add raw-events bucket", "policy_checked", 1, 0, 0, ()),
        (3, "Remove legacy warehouse", "discarded", 0, 0, 12, ()),
    )
    for k, (w, msg, status, add, change, destroy, results) in enumerate(runs):
        s.create(
            Run,
            workspace_id=made[w].id,
            message=msg,
            created_by=eng[k % len(eng)].email,
            status=status,
            additions=add,
            changes=change,
            destructions=destroy,
            policy_results=results,
            confirmed_by=eng[0].email if status == "applied" else None,
            created_at=s.ago(hours=50 - 6 * k),
            updated_at=s.ago(hours=48 - 6 * k),
        )
    s.create(
        PolicySet,
        organization_id=org.id,
        name="prod-no-destroys",
        enforcement="soft-mandatory",
        max_destructions=0,
        workspace_ids=(made[0].id, made[1].id),
        created_at=s.ago(days=300),
    )
    s.create(
        PolicySet,
        organization_id=org.id,
        name="limit-mass-destroy",
        enforcement="hard-mandatory",
        max_destructions=10,
        workspace_ids=(made[0].id, made[1].id, made[3].id),
        created_at=s.ago(days=200),
    )
    s.update(
        s.records(Workspace)[3],
        locked=True,
        locked_by=eng[1 % len(eng)].email,
        lock_reason="Migrating state to new bucket",
    )
