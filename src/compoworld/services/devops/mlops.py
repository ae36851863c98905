"""Gradient Lab: the data team's ML platform: experiments, tracked runs, registered models and their versions.

Modeled on the MLflow REST API 2.0 (experiments create/delete/restore, runs
create/update/delete/restore with log-parameter and log-metric, registered
models with aliases, model versions with transition-stage) and the Databricks
Model Registry's transition requests. Experiment names are unique and the
Default experiment cannot be deleted; deleting an experiment deletes its runs.
A run goes RUNNING → FINISHED, FAILED or KILLED; a param, once logged, cannot
change (INVALID_PARAMETER_VALUE), and a deleted run takes no params or
metrics. A model version is registered from an active run; its stage goes
None, Staging, Production or Archived; moving a version to Production can
archive the versions already there. A registered model's owner transitions
directly; anyone else opens a transition request that the owner (never the
requester) approves or rejects. Aliases (champion, challenger) point to one
version each; "latest" and v<digits> are reserved. Versions in Staging or
Production cannot be deleted, nor a model that still has such versions.
"""

from __future__ import annotations

import re
from typing import Annotated, Any, Literal

from pydantic import Field, StringConstraints

from compoworld.engine.context import Ctx
from compoworld.engine.errors import Conflict, RuleViolation
from compoworld.engine.records import CREATED, UPDATED, Record
from compoworld.engine.service import Service, Transition
from compoworld.engine.state import SeedContext
from compoworld.engine.types import DateTime, Email, IdOf, Text
from compoworld.services.kit.examples import first_example

__all__ = ["service"]

service = Service(
    "mlops",
    title="Gradient Lab",
    category="ml_platform",
    modeled_on="MLflow REST API 2.0 (experiments, runs, log-parameter, log-metric, registered-models with aliases, "
    "model-versions, transition-stage) and Databricks Model Registry transition requests",
    description="The data team's machine-learning platform: experiments and their tracked training runs with "
    "parameters and metrics, the model registry with versions moving through Staging and Production, aliases, "
    "and stage transition requests approved by a model's owner.",
)

ExperimentId = Annotated[str, IdOf("mlops.experiment")]
RunId = Annotated[str, IdOf("mlops.run")]
ModelId = Annotated[str, IdOf("mlops.registered_model")]
VersionId = Annotated[str, IdOf("mlops.model_version")]
RequestId = Annotated[str, IdOf("mlops.transition_request")]

Name = Annotated[str, StringConstraints(pattern=r"^[A-Za-z0-9][A-Za-z0-9_.\-/ ]{0,99}$")]
"""An experiment or model name."""
ParamKey = Annotated[str, StringConstraints(pattern=r"^[A-Za-z0-9_.\-/ ]{1,250}$")]
"""A param or metric key."""
Alias = Annotated[str, StringConstraints(pattern=r"^[A-Za-z_][A-Za-z0-9_\-]{0,99}$")]
"""A model alias such as champion."""

RunStatus = Literal["RUNNING", "FINISHED", "FAILED", "KILLED"]
EndStatus = Literal["FINISHED", "FAILED", "KILLED"]
Lifecycle = Literal["active", "deleted"]
Stage = Literal["None", "Staging", "Production", "Archived"]
RequestStatus = Literal["pending", "approved", "rejected", "canceled"]
LIVE_STAGES: tuple[Stage, ...] = ("Staging", "Production")
RESERVED = re.compile(r"^(latest|v\d+)$", re.IGNORECASE)


class Experiment(Record):
    """An experiment grouping training runs."""

    id: ExperimentId
    name: Name
    """Its name (unique)."""
    artifact_location: Annotated[str, StringConstraints(max_length=300)] = ""
    """Where its runs store artifacts."""
    lifecycle_stage: Lifecycle = "active"
    """active or deleted."""
    owner_email: Email | None = None
    """Who created it."""
    is_default: bool = False
    """The Default experiment (cannot be deleted)."""
    created_at: Annotated[DateTime, CREATED]
    """When it was created."""


class Run(Record):
    """A tracked training run with its params and latest metrics."""

    id: RunId
    experiment_id: ExperimentId
    """Its experiment."""
    run_name: Annotated[str, StringConstraints(min_length=1, max_length=100)]
    """Its name."""
    user_email: Email
    """Who ran it."""
    status: RunStatus = "RUNNING"
    """RUNNING, FINISHED, FAILED or KILLED."""
    lifecycle_stage: Lifecycle = "active"
    """active or deleted."""
    params: dict[str, str] = Field(default_factory=dict)
    """Logged hyperparameters (immutable once logged)."""
    metrics: dict[str, float] = Field(default_factory=dict)
    """The latest value of each logged metric."""
    git_commit: Annotated[str, StringConstraints(pattern=r"^[0-9a-f]{7,40}$")] | None = None
    """The source commit."""
    start_time: Annotated[DateTime, CREATED]
    """When it started."""
    end_time: DateTime | None = None
    """When it ended."""


class RegisteredModel(Record):
    """A model in the registry."""

    id: ModelId
    name: Name
    """Its name (unique)."""
    description: Text = ""
    """What it predicts."""
    owner_email: Email
    """Its owner (may transition stages directly and approves requests)."""
    aliases: dict[str, int] = Field(default_factory=dict)
    """Alias → version number."""
    created_at: Annotated[DateTime, CREATED]
    """When it was registered."""
    updated_at: Annotated[DateTime, UPDATED]
    """When it last changed."""


class ModelVersion(Record):
    """A version of a registered model, made from a run."""

    id: VersionId
    model_id: ModelId
    """The registered model."""
    name: Name
    """The model's name."""
    version: int
    """Its number, from 1 per model."""
    run_id: RunId
    """The run it came from."""
    source: Annotated[str, StringConstraints(max_length=300)]
    """The artifact URI, runs:/<run>/model."""
    current_stage: Stage = "None"
    """None, Staging, Production or Archived."""
    description: Text = ""
    """What changed."""
    created_by: Email
    """Who registered it."""
    created_at: Annotated[DateTime, CREATED]
    """When it was registered."""
    updated_at: Annotated[DateTime, UPDATED]
    """When it last changed."""


class TransitionRequest(Record):
    """A request to move a model version to another stage."""

    id: RequestId
    version_id: VersionId
    """The model version."""
    to_stage: Stage
    """The stage asked for."""
    requested_by: Email
    """Who asks."""
    comment: Text = ""
    """Why."""
    status: RequestStatus = "pending"
    """pending, approved, rejected or canceled."""
    decided_by: Email | None = None
    """Who approved or rejected it."""
    created_at: Annotated[DateTime, CREATED]
    """When it was opened."""
    updated_at: Annotated[DateTime, UPDATED]
    """When it last changed."""


# -- rules ------------------------------------------------------------------------------------


def _staff(ctx: Ctx, email: str | None, field: str) -> None:
    if email is not None and email not in {p.email for p in ctx.population.employees}:
        raise RuleViolation(f"{email} is not a workspace user", field=field, hint="use an employee's e-mail")


def _guard_experiment(ctx: Ctx, new: Any, old: Any) -> None:
    _staff(ctx, new.owner_email, "owner_email")
    if old is not None and old.is_default and new.lifecycle_stage == "deleted":
        raise RuleViolation("the Default experiment cannot be deleted", field="experiment_id", hint="keep it")
    if old is not None and old.lifecycle_stage != new.lifecycle_stage:
        for run in ctx.where(Run, experiment_id=new.id):
            ctx.update(run, lifecycle_stage=new.lifecycle_stage)


def _guard_model(ctx: Ctx, new: Any, old: Any) -> None:
    _staff(ctx, new.owner_email, "owner_email")


def _guard_model_delete(ctx: Ctx, new: Any, old: Any) -> None:
    live = [v for v in ctx.where(ModelVersion, model_id=old.id) if v.current_stage in LIVE_STAGES]
    if live:
        raise RuleViolation(
            f"model {old.name} has versions in {sorted({v.current_stage for v in live})}",
            field="registered_model_id",
            hint="transition them to Archived or None first",
        )
    for ver in ctx.where(ModelVersion, model_id=old.id):
        _guard_version_delete(ctx, None, ver)
        ctx.delete(ver)


def _guard_version_delete(ctx: Ctx, new: Any, old: Any) -> None:
    if old.current_stage in LIVE_STAGES:
        raise RuleViolation(
            f"version {old.version} of {old.name} is in {old.current_stage}",
            field="model_version_id",
            hint="transition it to Archived first",
        )
    for req in ctx.where(TransitionRequest, version_id=old.id):
        ctx.delete(req)
    model = ctx.get(RegisteredModel, old.model_id)
    if old.version in model.aliases.values():
        ctx.update(model, aliases={a: v for a, v in model.aliases.items() if v != old.version})


experiments = service.resource(
    Experiment,
    name="experiment",
    plural="experiments",
    prefix="exp",
    create=("name", "artifact_location", "owner_email"),
    filters=("name", "lifecycle_stage", "owner_email"),
    search=("name",),
    update=("name",),
    delete=False,
    unique=("name",),
    transitions={
        "delete": Transition("lifecycle_stage", ("active",), "deleted", "delete the experiment"),
        "restore": Transition("lifecycle_stage", ("deleted",), "active", "restore the experiment"),
    },
    guard_create=_guard_experiment,
    guard_update=_guard_experiment,
)
runs = service.resource(
    Run,
    name="run",
    plural="runs",
    prefix="run",
    create=False,
    filters=("experiment_id", "status", "lifecycle_stage", "user_email", "git_commit"),
    search=("run_name",),
    delete=False,
    transitions={
        "delete": Transition("lifecycle_stage", ("active",), "deleted", "delete the run"),
        "restore": Transition("lifecycle_stage", ("deleted",), "active", "restore the run"),
    },
)
models = service.resource(
    RegisteredModel,
    name="registered_model",
    plural="registered_models",
    prefix="rm",
    create=("name", "description", "owner_email"),
    filters=("name", "owner_email"),
    search=("name", "description"),
    update=("description", "owner_email"),
    unique=("name",),
    guard_create=_guard_model,
    guard_update=_guard_model,
    guard_delete=_guard_model_delete,
    title="registered model",
)
versions = service.resource(
    ModelVersion,
    name="model_version",
    plural="model_versions",
    prefix="mv",
    create=False,
    filters=("model_id", "name", "current_stage", "run_id", "created_by"),
    update=("description",),
    guard_delete=_guard_version_delete,
    title="model version",
)
requests = service.resource(
    TransitionRequest,
    name="transition_request",
    plural="transition_requests",
    prefix="tr",
    create=False,
    get=False,
    filters=("version_id", "status", "requested_by", "to_stage"),
    delete=False,
    transitions={"cancel": Transition("status", ("pending",), "canceled", "cancel the transition request")},
    title="transition request",
)


# -- runs -------------------------------------------------------------------------------------


def _example_run(ctx: Ctx) -> dict[str, Any] | None:
    exp = ctx.first(Experiment, lifecycle_stage="active", is_default=False)
    return (
        None
        if exp is None
        else {"experiment_id": exp.id, "run_name": "xgb-depth-8", "user_email": ctx.population.employees[0].email}
    )


@service.tool(intent="start a run in the experiment", write=True, example=_example_run)
def create_run(
    ctx: Ctx,
    experiment_id: ExperimentId,
    run_name: Annotated[str, StringConstraints(min_length=1, max_length=100)],
    user_email: Email,
    git_commit: Annotated[str, StringConstraints(pattern=r"^[0-9a-f]{7,40}$")] | None = None,
) -> Run:
    """Start a RUNNING run in an active experiment.

    Args:
        experiment_id: The experiment.
        run_name: The run's name.
        user_email: Who runs it.
        git_commit: The source commit.
    """
    exp = ctx.get(Experiment, experiment_id, field="experiment_id")
    if exp.lifecycle_stage != "active":
        raise RuleViolation(f"experiment {exp.name} is deleted", field="experiment_id", hint="restore it first")
    _staff(ctx, user_email, "user_email")
    return ctx.create(Run, experiment_id=exp.id, run_name=run_name, user_email=user_email, git_commit=git_commit)


def _live_run(ctx: Ctx, run_id: str) -> Run:
    run = ctx.get(Run, run_id, field="run_id")
    if run.lifecycle_stage != "active":
        raise RuleViolation(
            f"run {run.id} is deleted; the run must be in the 'active' lifecycle stage",
            field="run_id",
            hint="restore it with mlops__restore_run",
        )
    return run


@service.tool(
    intent="log the parameter on the run",
    write=True,
    example=first_example(Run, "run_id", where={"status": "RUNNING"}, key="max_depth", value="8"),
)
def log_param(ctx: Ctx, run_id: RunId, key: ParamKey, value: Annotated[str, StringConstraints(max_length=6000)]) -> Run:
    """Log a hyperparameter; once logged it cannot change.

    Args:
        run_id: The run (not deleted).
        key: The parameter's name.
        value: Its value.
    """
    run = _live_run(ctx, run_id)
    if key in run.params and run.params[key] != value:
        raise Conflict(
            f"changing param values is not allowed: {key} is already {run.params[key]!r}",
            field="value",
            hint="start a new run for a different value",
        )
    return ctx.update(run, params={**run.params, key: value})


@service.tool(
    intent="log the metric on the run",
    write=True,
    example=first_example(Run, "run_id", where={"status": "RUNNING"}, key="val_auc", value=0.91),
)
def log_metric(ctx: Ctx, run_id: RunId, key: ParamKey, value: float) -> Run:
    """Log a metric value; the run keeps the latest value of each metric.

    Args:
        run_id: The run (not deleted).
        key: The metric's name.
        value: Its value (a finite number).
    """
    run = _live_run(ctx, run_id)
    return ctx.update(run, metrics={**run.metrics, key: value})


@service.tool(
    intent="end the run",
    write=True,
    example=first_example(Run, "run_id", where={"status": "RUNNING"}, status="FINISHED"),
)
def end_run(ctx: Ctx, run_id: RunId, status: EndStatus = "FINISHED") -> Run:
    """End a RUNNING run as FINISHED, FAILED or KILLED.

    Args:
        run_id: The run.
        status: FINISHED, FAILED or KILLED.
    """
    run = _live_run(ctx, run_id)
    if run.status != "RUNNING":
        raise RuleViolation(f"run {run.id} already ended {run.status}", field="run_id", hint="start a new run")
    return ctx.update(run, status=status, end_time=ctx.now())


# -- registry ---------------------------------------------------------------------------------


def _example_version(ctx: Ctx) -> dict[str, Any] | None:
    model = ctx.first(RegisteredModel)
    run = ctx.first(Run, status="FINISHED", lifecycle_stage="active")
    if model is None or run is None:
        return None
    return {"registered_model_id": model.id, "run_id": run.id, "created_by": model.owner_email}


@service.tool(intent="register a new version of the model", write=True, example=_example_version)
def create_model_version(
    ctx: Ctx, registered_model_id: ModelId, run_id: RunId, created_by: Email, description: Text = ""
) -> ModelVersion:
    """Register the model a finished run logged as the model's next version (stage None).

    Args:
        registered_model_id: The registered model.
        run_id: The run (active and FINISHED).
        created_by: Who registers it.
        description: What changed.
    """
    model = ctx.get(RegisteredModel, registered_model_id, field="registered_model_id")
    run = _live_run(ctx, run_id)
    if run.status != "FINISHED":
        raise RuleViolation(f"run {run.id} is {run.status}", field="run_id", hint="register a FINISHED run")
    _staff(ctx, created_by, "created_by")
    number = max((v.version for v in ctx.where(ModelVersion, model_id=model.id)), default=0) + 1
    return ctx.create(
        ModelVersion,
        model_id=model.id,
        name=model.name,
        version=number,
        run_id=run.id,
        source=f"runs:/{run.id}/model",
        description=description,
        created_by=created_by,
    )


def _move(ctx: Ctx, ver: ModelVersion, stage: str, archive_existing: bool) -> ModelVersion:
    if ver.current_stage == stage:
        raise Conflict(f"version {ver.version} is already in {stage}", field="stage", hint="pick another stage")
    if archive_existing and stage in LIVE_STAGES:
        for other in ctx.where(ModelVersion, model_id=ver.model_id, current_stage=stage):
            if other.id != ver.id:
                ctx.update(other, current_stage="Archived")
    return ctx.update(ver, current_stage=stage)


def _example_transition(ctx: Ctx) -> dict[str, Any] | None:
    ver = ctx.first(ModelVersion, current_stage="None")
    if ver is None:
        return None
    owner = ctx.get(RegisteredModel, ver.model_id).owner_email
    return {"model_version_id": ver.id, "stage": "Staging", "user_email": owner}


@service.tool(intent="transition the model version to a stage", write=True, example=_example_transition)
def transition_stage(
    ctx: Ctx, model_version_id: VersionId, stage: Stage, user_email: Email, archive_existing_versions: bool = False
) -> ModelVersion:
    """Move a version to a stage directly (the model's owner only; others open a transition request).

    Args:
        model_version_id: The model version.
        stage: None, Staging, Production or Archived.
        user_email: Who moves it (the model's owner).
        archive_existing_versions: Archive the versions already in that stage (Staging or Production).
    """
    ver = ctx.get(ModelVersion, model_version_id, field="model_version_id")
    owner = ctx.get(RegisteredModel, ver.model_id).owner_email
    if user_email != owner:
        raise RuleViolation(
            f"{user_email} may not transition {ver.name} directly",
            field="user_email",
            hint="open a transition request with mlops__request_transition",
        )
    return _move(ctx, ver, stage, archive_existing_versions)


def _example_request(ctx: Ctx) -> dict[str, Any] | None:
    ver = ctx.first(ModelVersion, current_stage="None")
    if ver is None:
        return None
    owner = ctx.get(RegisteredModel, ver.model_id).owner_email
    who = next(p.email for p in ctx.population.employees if p.email != owner)
    return {"model_version_id": ver.id, "stage": "Staging", "requested_by": who, "comment": "Beats baseline"}


@service.tool(intent="request a stage transition of the model version", write=True, example=_example_request)
def request_transition(
    ctx: Ctx, model_version_id: VersionId, stage: Stage, requested_by: Email, comment: Text = ""
) -> TransitionRequest:
    """Ask the model's owner to move a version to a stage; one pending request per version and stage.

    Args:
        model_version_id: The model version.
        stage: Staging, Production, Archived or None.
        requested_by: Who asks.
        comment: Why.
    """
    ver = ctx.get(ModelVersion, model_version_id, field="model_version_id")
    if ver.current_stage == stage:
        raise Conflict(f"version {ver.version} is already in {stage}", field="stage", hint="pick another stage")
    _staff(ctx, requested_by, "requested_by")
    if ctx.first(TransitionRequest, version_id=ver.id, to_stage=stage, status="pending") is not None:
        raise Conflict(f"a request to {stage} is already pending", field="stage", hint="wait for the owner")
    return ctx.create(TransitionRequest, version_id=ver.id, to_stage=stage, requested_by=requested_by, comment=comment)


def _decidable(ctx: Ctx, request_id: str, user_email: str) -> TransitionRequest:
    req = ctx.get(TransitionRequest, request_id, field="request_id")
    if req.status != "pending":
        raise Conflict(f"request {req.id} is already {req.status}", field="request_id", hint="nothing to decide")
    ver = ctx.get(ModelVersion, req.version_id)
    owner = ctx.get(RegisteredModel, ver.model_id).owner_email
    if user_email != owner or user_email == req.requested_by:
        raise RuleViolation(
            f"{user_email} cannot decide this request",
            field="user_email",
            hint=f"the model's owner ({owner}) decides, never the requester",
        )
    return req


def _example_decide(ctx: Ctx) -> dict[str, Any] | None:
    req = ctx.first(TransitionRequest, status="pending")
    if req is None:
        return None
    owner = ctx.get(RegisteredModel, ctx.get(ModelVersion, req.version_id).model_id).owner_email
    return {"request_id": req.id, "user_email": owner}


@service.tool(intent="approve the transition request", write=True, example=_example_decide)
def approve_transition(
    ctx: Ctx, request_id: RequestId, user_email: Email, archive_existing_versions: bool = True
) -> ModelVersion:
    """Approve a pending request: the version moves to the stage asked for.

    Args:
        request_id: The request.
        user_email: The model's owner.
        archive_existing_versions: Archive the versions already in that stage.
    """
    req = _decidable(ctx, request_id, user_email)
    ctx.update(req, status="approved", decided_by=user_email)
    return _move(ctx, ctx.get(ModelVersion, req.version_id), req.to_stage, archive_existing_versions)


@service.tool(intent="reject the transition request", write=True, example=_example_decide)
def reject_transition(ctx: Ctx, request_id: RequestId, user_email: Email) -> TransitionRequest:
    """Reject a pending request; the version stays where it is.

    Args:
        request_id: The request.
        user_email: The model's owner.
    """
    req = _decidable(ctx, request_id, user_email)
    return ctx.update(req, status="rejected", decided_by=user_email)


def _example_alias(ctx: Ctx) -> dict[str, Any] | None:
    ver = ctx.first(ModelVersion, current_stage="Staging")
    return None if ver is None else {"registered_model_id": ver.model_id, "alias": "challenger", "version": ver.version}


@service.tool(intent="point the model's alias at a version", write=True, example=_example_alias)
def set_alias(ctx: Ctx, registered_model_id: ModelId, alias: Alias, version: int) -> RegisteredModel:
    """Point an alias (champion, challenger …) at a version; an alias names one version at a time.

    Args:
        registered_model_id: The registered model.
        alias: The alias; "latest" and v<digits> are reserved.
        version: The version number.
    """
    model = ctx.get(RegisteredModel, registered_model_id, field="registered_model_id")
    if RESERVED.match(alias):
        raise RuleViolation(f"alias {alias!r} is reserved", field="alias", hint="pick a name like champion")
    if ctx.first(ModelVersion, model_id=model.id, version=version) is None:
        raise RuleViolation(f"{model.name} has no version {version}", field="version", hint="list its versions")
    return ctx.update(model, aliases={**model.aliases, alias: version})


@service.tool(
    intent="remove the model's alias",
    write=True,
    example=first_example(RegisteredModel, "registered_model_id", alias="champion"),
)
def delete_alias(ctx: Ctx, registered_model_id: ModelId, alias: Alias) -> RegisteredModel:
    """Remove an alias from a model.

    Args:
        registered_model_id: The registered model.
        alias: The alias.
    """
    model = ctx.get(RegisteredModel, registered_model_id, field="registered_model_id")
    if alias not in model.aliases:
        raise RuleViolation(f"{model.name} has no alias {alias!r}", field="alias", hint=f"one of {list(model.aliases)}")
    return ctx.update(model, aliases={a: v for a, v in model.aliases.items() if a != alias})


# -- seed -------------------------------------------------------------------------------------

EXPERIMENTS: tuple[tuple[str, str, tuple[str, ...]], ...] = (
    ("churn-prediction", "churn-classifier", ("xgboost", "lightgbm", "xgboost", "xgboost")),
    ("demand-forecast", "demand-forecaster", ("prophet", "lstm", "lstm")),
    ("fraud-detection", "fraud-scorer", ("isolation-forest", "xgboost")),
)
STAGES: dict[str, tuple[Stage, ...]] = {
    "churn-classifier": ("Archived", "Production", "Staging"),
    "demand-forecaster": ("Production", "None"),
    "fraud-scorer": ("None",),
}


@service.seeder
def seed(s: SeedContext) -> None:
    """Experiments with runs in every status, registered models with versions in every stage, aliases, a request."""
    pop = s.population
    team = pop.staff("Data", "Engineering", fallback=4)
    s.create(Experiment, name="Default", artifact_location="s3://mlflow/0", is_default=True, created_at=s.ago(days=600))
    for k, (exp_name, model_name, algos) in enumerate(EXPERIMENTS):
        owner = team[k % len(team)].email
        exp = s.create(
            Experiment,
            name=exp_name,
            artifact_location=f"s3://mlflow/{k + 1}",
            owner_email=owner,
            created_at=s.ago(days=400 - 50 * k),
        )
        finished: list[Run] = []
        for r, algo in enumerate(algos):
            last = r == len(algos) - 1
            status: RunStatus = "RUNNING" if last and k == 0 else "FAILED" if r == 1 and k == 1 else "FINISHED"
            auc = round(0.78 + 0.03 * r + 0.01 * k, 3)
            run = s.create(
                Run,
                experiment_id=exp.id,
                run_name=f"{algo}-{r + 1}",
                user_email=team[(k + r) % len(team)].email,
                status=status,
                params={"algorithm": algo, "learning_rate": str(0.1 / (r + 1)), "max_depth": str(4 + r)},
                metrics={} if status == "FAILED" else {"val_auc": auc, "val_loss": round(1 - auc, 3)},
                git_commit=f"{s.rng.randrange(16**7):07x}",
                start_time=s.ago(days=60 - 10 * r + k),
                end_time=None if status == "RUNNING" else s.ago(days=60 - 10 * r + k, hours=-2),
            )
            if status == "FINISHED":
                finished.append(run)
        model = s.create(
            RegisteredModel,
            name=model_name,
            description=f"Trained in {exp_name}.",
            owner_email=owner,
            created_at=s.ago(days=300 - 40 * k),
            updated_at=s.ago(days=5),
        )
        aliases: dict[str, int] = {}
        for v, stage in enumerate(STAGES[model_name], start=1):
            run = finished[min(v - 1, len(finished) - 1)]
            ver = s.create(
                ModelVersion,
                model_id=model.id,
                name=model_name,
                version=v,
                run_id=run.id,
                source=f"runs:/{run.id}/model",
                current_stage=stage,
                created_by=owner,
                created_at=s.ago(days=50 - 10 * v),
                updated_at=s.ago(days=40 - 10 * v),
            )
            if stage == "Production":
                aliases["champion"] = v
            elif stage == "Staging":
                aliases["challenger"] = v
            if model_name == "demand-forecaster" and stage == "None":
                s.create(
                    TransitionRequest,
                    version_id=ver.id,
                    to_stage="Production",
                    requested_by=team[(k + 1) % len(team)].email,
                    comment="LSTM beats Prophet on MAPE.",
                    created_at=s.ago(days=1),
                    updated_at=s.ago(days=1),
                )
        s.update(model, aliases=aliases)
    old = s.create(
        Experiment,
        name="baseline-sandbox",
        artifact_location="s3://mlflow/9",
        owner_email=team[0].email,
        lifecycle_stage="deleted",
        created_at=s.ago(days=500),
    )
    for exp_id in (old.id, s.records(Experiment)[1].id):
        s.create(
            Run,
            experiment_id=exp_id,
            run_name="scratch",
            user_email=team[0].email,
            status="KILLED",
            lifecycle_stage="deleted",
            start_time=s.ago(days=90),
            end_time=s.ago(days=90),
        )
