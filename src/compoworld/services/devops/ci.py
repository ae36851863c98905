"""Conveyor CI: build pipelines of the company's repositories, their workflows, jobs and artifacts.

Modeled on the CircleCI API v2 (Project, Project environment variables,
Pipeline with ``number`` per project and ``trigger``, Workflow with a status
derived from its jobs, Job with ``type`` build/approval and ``requires``,
``/workflow/{id}/approve/{approval_request_id}``, ``/cancel``, ``/rerun``
with ``from_failed``, Artifacts, Insights): a pipeline runs the workflows of
the project's config whose branch filter matches; a job starts when every job
it requires has succeeded; a failed or cancelled job leaves its dependents
not run; approval jobs wait on hold for an allowed approver, who may not be
the person who triggered the pipeline when self-approval is prevented;
reruns copy a finished workflow, keeping the successful jobs when rerun from
failed; a new pipeline on a feature branch auto-cancels the running workflows
of older pipelines on that branch.
"""

from __future__ import annotations

import datetime as dt
from typing import Annotated, Any, Literal

from pydantic import BaseModel, Field, StringConstraints

from compoworld.engine.context import Ctx
from compoworld.engine.errors import RuleViolation
from compoworld.engine.records import CREATED, Record
from compoworld.engine.service import Service
from compoworld.engine.state import SeedContext
from compoworld.engine.types import DateTime, Email, FileLink, IdOf, Percent, PersonName, Quantity, Title, Url
from compoworld.services.devops._shared import org_handle
from compoworld.services.kit.examples import first_example
from compoworld.services.kit.records import Value

__all__ = ["service"]

service = Service(
    "ci",
    title="Conveyor CI",
    category="ci_cd",
    modeled_on="CircleCI API v2 (Project, Environment variable, Pipeline, Workflow, Job, approval, cancel, "
    "rerun from failed, Artifact, Insights)",
    description="Continuous integration and delivery for the company's repositories: pipelines triggered per "
    "commit, workflows of dependent build and approval jobs, manual deploy approvals, cancels, reruns, "
    "build artifacts and success-rate insights.",
)

UserId = Annotated[str, IdOf("ci.user")]
ProjectId = Annotated[str, IdOf("ci.project")]
EnvVarId = Annotated[str, IdOf("ci.env_var")]
PipelineId = Annotated[str, IdOf("ci.pipeline")]
WorkflowId = Annotated[str, IdOf("ci.workflow")]
JobId = Annotated[str, IdOf("ci.job")]
ArtifactId = Annotated[str, IdOf("ci.artifact")]

Slug = Annotated[str, StringConstraints(pattern=r"^gh/[a-z0-9-]+/[a-z0-9._-]+$")]
Branch = Annotated[str, StringConstraints(pattern=r"^[A-Za-z0-9._/-]{1,100}$")]
Sha = Annotated[str, StringConstraints(pattern=r"^[0-9a-f]{40}$")]
JobName = Annotated[str, StringConstraints(pattern=r"^[a-z][a-z0-9_-]{0,39}$")]
EnvName = Annotated[str, StringConstraints(pattern=r"^[A-Z_][A-Z0-9_]{0,63}$")]
ArtifactPath = Annotated[str, StringConstraints(pattern=r"^[A-Za-z0-9._/-]{1,200}$")]

JobType = Literal["build", "approval"]
JobStatus = Literal["blocked", "running", "on_hold", "success", "failed", "canceled", "not_run"]
WorkflowStatus = Literal["running", "failing", "on_hold", "success", "failed", "canceled", "not_run"]
TriggerType = Literal["webhook", "api", "schedule"]
FINISHED: tuple[str, ...] = ("success", "failed", "canceled", "not_run")
ACTIVE_WF: tuple[str, ...] = ("running", "failing", "on_hold")


class JobSpec(Value):
    """One job of a workflow in the project's config."""

    name: JobName = Field(description="Job name, unique in the workflow.")
    type: JobType = Field(default="build", description="build (runs steps) or approval (waits for a person).")
    requires: list[JobName] = Field(default_factory=list, description="Jobs that must succeed before this one runs.")


class WorkflowSpec(Value):
    """One workflow of the project's config."""

    name: JobName = Field(description="Workflow name, unique in the config.")
    branches: list[Branch] = Field(
        default_factory=list, description="Branches the workflow runs on; empty means every branch."
    )
    jobs: list[JobSpec] = Field(min_length=1, max_length=20, description="The workflow's jobs.")


class User(Record):
    """A person with access to the CI organization (an engineer)."""

    id: UserId
    name: PersonName
    """Full name."""
    email: Email
    """Work e-mail; unique."""
    login: Annotated[str, StringConstraints(pattern=r"^[a-z0-9-]{1,39}$")]
    """VCS login."""


class Project(Record):
    """A repository followed by CI, with its pipeline config."""

    id: ProjectId
    slug: Slug
    """Project slug: vcs/org/repo (gh/acme/web-app); unique."""
    name: Annotated[str, StringConstraints(pattern=r"^[a-z0-9._-]{1,100}$")]
    """Repository name."""
    vcs_url: Url
    """URL of the repository."""
    default_branch: Branch = "main"
    """The repository's default branch; pipelines on it are never auto-cancelled."""
    config: list[WorkflowSpec] = Field(min_length=1, max_length=10)
    """Workflows run for every pipeline (the .circleci/config.yml)."""
    deploy_approvers: tuple[Email, ...] = ()
    """Who may approve approval jobs; empty means every user."""
    prevent_self_approval: bool = True
    """Whether the person who triggered a pipeline is barred from approving its jobs."""
    auto_cancel_redundant: bool = True
    """Whether a new pipeline on a non-default branch cancels the running workflows of older ones there."""
    last_pipeline_number: Quantity = 0
    """Number of the last pipeline; pipeline numbers are never reused."""
    created_at: Annotated[DateTime, CREATED]
    """When the project was followed."""


class EnvVar(Record):
    """A secret environment variable of a project; its value is only ever shown masked."""

    id: EnvVarId
    project_id: ProjectId
    """The project."""
    name: EnvName
    """Variable name; unique in the project."""
    value: Annotated[str, StringConstraints(min_length=1, max_length=4096)]
    """The value as stored: masked to its last four characters (xxxx1234)."""
    created_at: Annotated[DateTime, CREATED]
    """When it was set."""


class Pipeline(Record):
    """One run of the project's config for a commit."""

    id: PipelineId
    project_id: ProjectId
    """The project."""
    number: Quantity
    """Pipeline number within the project (1, 2, 3 …)."""
    branch: Branch
    """Branch built."""
    revision: Sha
    """Commit SHA built."""
    commit_subject: Title
    """First line of the commit message."""
    trigger_type: TriggerType = "webhook"
    """webhook (a push), api or schedule."""
    triggered_by_email: Email
    """E-mail of the person who pushed or triggered it."""
    created_at: Annotated[DateTime, CREATED]
    """When it was triggered."""


class Workflow(Record):
    """A workflow run in a pipeline; its status follows from its jobs."""

    id: WorkflowId
    pipeline_id: PipelineId
    """The pipeline."""
    project_id: ProjectId
    """The project."""
    name: JobName
    """Workflow name from the config."""
    status: WorkflowStatus = "running"
    """running, failing (running with a failed job), on_hold, success, failed, canceled or not_run."""
    rerun_of: WorkflowId | None = None
    """The workflow this one reruns."""
    canceled_by_email: Email | None = None
    """Who cancelled it (auto-cancel records the new pipeline's trigger)."""
    created_at: Annotated[DateTime, CREATED]
    """When it started."""
    stopped_at: DateTime | None = None
    """When it finished."""


class Job(Record):
    """A job of a workflow run."""

    id: JobId
    workflow_id: WorkflowId
    """The workflow."""
    project_id: ProjectId
    """The project."""
    name: JobName
    """Job name from the config."""
    type: JobType = "build"
    """build or approval."""
    requires: tuple[JobName, ...] = ()
    """Jobs of the workflow that must succeed first."""
    status: JobStatus = "blocked"
    """blocked (waiting on required jobs), running, on_hold (approval waiting), success, failed, canceled or
    not_run (an upstream job failed or was cancelled)."""
    started_at: DateTime | None = None
    """When it started running (or went on hold)."""
    stopped_at: DateTime | None = None
    """When it finished."""
    approved_by_email: Email | None = None
    """For an approval job: who approved it."""


class Artifact(Record):
    """A file a job stored."""

    id: ArtifactId
    job_id: JobId
    """The job."""
    project_id: ProjectId
    """The project."""
    path: ArtifactPath
    """Path the job stored it under (dist/app.tar.gz)."""
    url: FileLink
    """Download link."""
    created_at: Annotated[DateTime, CREATED]
    """When it was stored."""


# -- the job graph ----------------------------------------------------------------------------


def _derive(jobs: list[str]) -> WorkflowStatus:
    statuses = set(jobs)
    failed = "failed" in statuses
    if "running" in statuses:
        return "failing" if failed else "running"
    if "on_hold" in statuses:
        return "failing" if failed else "on_hold"
    if "blocked" in statuses:
        return "failing" if failed else "running"
    if statuses == {"success"}:
        return "success"
    if failed:
        return "failed"
    if "canceled" in statuses:
        return "canceled"
    return "not_run"


def _settle(ctx: Ctx, workflow: Workflow) -> Workflow:
    """Start jobs whose requirements succeeded, skip those whose requirements failed; re-derive the status."""
    changed = True
    while changed:
        changed = False
        jobs = {j.name: j for j in ctx.where(Job, workflow_id=workflow.id)}
        for job in jobs.values():
            if job.status != "blocked":
                continue
            reqs = [jobs[r].status for r in job.requires if r in jobs]
            if any(s in ("failed", "canceled", "not_run") for s in reqs):
                ctx.update(job, status="not_run")
                changed = True
            elif all(s == "success" for s in reqs):
                ctx.update(job, status="on_hold" if job.type == "approval" else "running", started_at=ctx.now())
                changed = True
    status = _derive([j.status for j in ctx.where(Job, workflow_id=workflow.id)])
    stopped = ctx.now() if status in FINISHED else None
    return ctx.update(workflow, status=status, stopped_at=stopped)


def _check_config(config: list[WorkflowSpec], field: str) -> None:
    names = [w.name for w in config]
    if len(set(names)) != len(names):
        raise RuleViolation("workflow names repeat in the config", field=field, hint="name each workflow once")
    for wf in config:
        jobs = {j.name: j for j in wf.jobs}
        if len(jobs) != len(wf.jobs):
            raise RuleViolation(f"job names repeat in workflow {wf.name}", field=field, hint="name each job once")
        for j in wf.jobs:
            missing = [r for r in j.requires if r not in jobs]
            if missing:
                raise RuleViolation(
                    f"job {j.name} of workflow {wf.name} requires unknown job(s) {missing}",
                    field=field,
                    hint="requires may only name jobs of the same workflow",
                )
        # a cycle leaves some job never startable
        done: set[str] = set()
        while True:
            ready = [j.name for j in wf.jobs if j.name not in done and set(j.requires) <= done]
            if not ready:
                break
            done.update(ready)
        if len(done) != len(jobs):
            raise RuleViolation(
                f"the jobs of workflow {wf.name} require each other in a cycle",
                field=field,
                hint="make the requires form a graph without cycles",
            )


def _runs_on(spec: WorkflowSpec, branch: str) -> bool:
    return not spec.branches or branch in spec.branches


def _guard_project(ctx: Ctx, new: Any, old: Any) -> None:
    _check_config(new.config, "config")
    for email in new.deploy_approvers:
        if ctx.first(User, email=email) is None:
            raise RuleViolation(
                f"{email} is not a CI user", field="deploy_approvers", hint="list users with ci__list_users"
            )


def _mask(value: str) -> str:
    return "xxxx" + value[-4:]


users = service.resource(
    User,
    name="user",
    plural="users",
    prefix="usr",
    create=False,
    get=False,
    filters=("email", "login"),
    search=("name", "email"),
    delete=False,
    unique=("email", "login"),
    title="CI user",
)
projects = service.resource(
    Project,
    name="project",
    plural="projects",
    prefix="prj",
    create=False,
    filters=("slug", "name", "default_branch"),
    search=("name", "slug"),
    update=("default_branch", "config", "deploy_approvers", "prevent_self_approval", "auto_cancel_redundant"),
    delete=False,
    unique=("slug",),
    guard_update=_guard_project,
    title="CI project",
)
env_vars = service.resource(
    EnvVar,
    name="env_var",
    plural="env_vars",
    prefix="env",
    create=False,
    get=False,
    filters=("project_id", "name"),
    title="environment variable",
)
pipelines = service.resource(
    Pipeline,
    name="pipeline",
    plural="pipelines",
    prefix="pip",
    create=False,
    filters=("project_id", "branch", "revision", "triggered_by_email", "trigger_type"),
    search=("commit_subject",),
    delete=False,
)
workflows = service.resource(
    Workflow,
    name="workflow",
    plural="workflows",
    prefix="wf",
    create=False,
    filters=("pipeline_id", "project_id", "name", "status", "rerun_of"),
    delete=False,
)
jobs = service.resource(
    Job,
    name="job",
    plural="jobs",
    prefix="job",
    create=False,
    get=False,
    filters=("workflow_id", "project_id", "name", "type", "status"),
    delete=False,
)
artifacts = service.resource(
    Artifact,
    name="artifact",
    plural="artifacts",
    prefix="art",
    create=False,
    get=False,
    filters=("job_id", "project_id"),
    search=("path",),
    delete=False,
)


# -- examples ---------------------------------------------------------------------------------


def _example_trigger(ctx: Ctx) -> dict[str, Any] | None:
    project = ctx.first(Project)
    user = ctx.first(User)
    if project is None or user is None:
        return None
    return {
        "project_id": project.id,
        "branch": project.default_branch,
        "revision": "0123456789abcdef0123456789abcdef01234567",
        "commit_subject": "Bump dependencies",
        "triggered_by_email": user.email,
    }


def _allowed_approver(ctx: Ctx, job: Job) -> str | None:
    project = ctx.get(Project, job.project_id)
    pipeline = ctx.get(Pipeline, ctx.get(Workflow, job.workflow_id).pipeline_id)
    candidates = list(project.deploy_approvers) or [u.email for u in ctx.scan(User)]
    for email in candidates:
        if not (project.prevent_self_approval and email == pipeline.triggered_by_email):
            return email
    return None


def _example_approve(ctx: Ctx) -> dict[str, Any] | None:
    for job in ctx.where(Job, status="on_hold"):
        email = _allowed_approver(ctx, job)
        if email is not None:
            return {"job_id": job.id, "approver_email": email}
    return None


def _example_cancel(ctx: Ctx) -> dict[str, Any] | None:
    for status in ACTIVE_WF:
        wf = ctx.first(Workflow, status=status)
        if wf is not None:
            return {"workflow_id": wf.id, "canceled_by_email": ctx.get(Pipeline, wf.pipeline_id).triggered_by_email}
    return None


# -- domain tools -----------------------------------------------------------------------------


def _start_workflow(ctx: Ctx, pipeline: Pipeline, spec: WorkflowSpec) -> Workflow:
    wf = ctx.create(Workflow, pipeline_id=pipeline.id, project_id=pipeline.project_id, name=spec.name)
    for j in spec.jobs:
        ctx.create(
            Job, workflow_id=wf.id, project_id=pipeline.project_id, name=j.name, type=j.type, requires=tuple(j.requires)
        )
    return _settle(ctx, wf)


def _cancel(ctx: Ctx, wf: Workflow, by: str) -> Workflow:
    for job in ctx.where(Job, workflow_id=wf.id):
        if job.status in ("running", "on_hold"):
            ctx.update(job, status="canceled", stopped_at=ctx.now())
        elif job.status == "blocked":
            ctx.update(job, status="not_run")
    return ctx.update(wf, status="canceled", stopped_at=ctx.now(), canceled_by_email=by)


class TriggeredPipeline(BaseModel):
    """A new pipeline, the workflows it started and those it auto-cancelled."""

    pipeline: Pipeline = Field(description="The new pipeline.")
    workflows: list[Workflow] = Field(description="Workflows started for it.")
    auto_canceled: list[WorkflowId] = Field(description="Running workflows of older pipelines on the branch cancelled.")


@service.tool(intent="trigger a pipeline for the branch", write=True, example=_example_trigger)
def trigger_pipeline(
    ctx: Ctx,
    project_id: ProjectId,
    branch: Branch,
    revision: Sha,
    commit_subject: Title,
    triggered_by_email: Email,
    trigger_type: TriggerType = "api",
) -> TriggeredPipeline:
    """Run the project's config for a commit: every workflow whose branch filter matches starts.

    Jobs without requirements start at once. With auto-cancel on, running
    workflows of older pipelines on the same non-default branch are cancelled.

    Args:
        project_id: The project.
        branch: Branch of the commit.
        revision: Commit SHA (40 hex digits).
        commit_subject: First line of the commit message.
        triggered_by_email: E-mail of the CI user triggering it.
        trigger_type: webhook, api or schedule.
    """
    project = ctx.get(Project, project_id, field="project_id")
    if ctx.first(User, email=triggered_by_email) is None:
        raise RuleViolation(
            f"{triggered_by_email} is not a CI user",
            field="triggered_by_email",
            hint="list users with ci__list_users",
        )
    specs = [w for w in project.config if _runs_on(w, branch)]
    if not specs:
        raise RuleViolation(
            f"no workflow of {project.slug} runs on branch {branch}",
            field="branch",
            hint="push to a branch the config's branch filters allow, or change the config with ci__update_project",
        )
    canceled: list[str] = []
    if project.auto_cancel_redundant and branch != project.default_branch:
        for old in ctx.where(Pipeline, project_id=project.id, branch=branch):
            for wf in ctx.where(Workflow, pipeline_id=old.id):
                if wf.status in ACTIVE_WF:
                    _cancel(ctx, wf, triggered_by_email)
                    canceled.append(wf.id)
    number = project.last_pipeline_number + 1
    ctx.update(project, last_pipeline_number=number)
    pipeline = ctx.create(
        Pipeline,
        project_id=project.id,
        number=number,
        branch=branch,
        revision=revision,
        commit_subject=commit_subject,
        trigger_type=trigger_type,
        triggered_by_email=triggered_by_email,
    )
    started = [_start_workflow(ctx, pipeline, spec) for spec in specs]
    return TriggeredPipeline(pipeline=pipeline, workflows=started, auto_canceled=canceled)


class JobResult(BaseModel):
    """A finished job, its workflow afterwards and the artifacts stored."""

    job: Job = Field(description="The job.")
    workflow: Workflow = Field(description="The workflow with its status re-derived.")
    artifacts: list[Artifact] = Field(description="Artifacts stored by the job.")


@service.tool(
    intent="report the job's result",
    write=True,
    example=first_example(
        Job, "job_id", where={"status": "running"}, result="success", artifact_paths=["reports/junit.xml"]
    ),
)
def report_job_result(
    ctx: Ctx,
    job_id: JobId,
    result: Literal["success", "failed"],
    artifact_paths: Annotated[list[ArtifactPath], Field(max_length=20)] | None = None,
) -> JobResult:
    """Record the outcome of a running build job (as the runner does), storing its artifacts.

    Success starts the jobs that required it (approval jobs go on hold); failure
    leaves every job downstream not run. The workflow's status follows.

    Args:
        job_id: A running build job.
        result: success or failed.
        artifact_paths: Paths of files the job stored.
    """
    job = ctx.get(Job, job_id, field="job_id")
    if job.type == "approval":
        raise RuleViolation(
            f"job {job.name} is an approval job", field="job_id", hint="approve it with ci__approve_job"
        )
    if job.status != "running":
        raise RuleViolation(
            f"job {job.name} is {job.status}, not running",
            field="job_id",
            hint="only running jobs report results; rerun the workflow to run it again",
        )
    job = ctx.update(job, status=result, stopped_at=ctx.now())
    wf = ctx.get(Workflow, job.workflow_id)
    stored = [
        ctx.create(
            Artifact,
            job_id=job.id,
            project_id=job.project_id,
            path=path,
            url=f"https://artifacts.conveyor.example/{job.id}/{path}",
        )
        for path in dict.fromkeys(artifact_paths or ())
    ]
    return JobResult(job=job, workflow=_settle(ctx, wf), artifacts=stored)


@service.tool(intent="approve the held job", write=True, example=_example_approve)
def approve_job(ctx: Ctx, job_id: JobId, approver_email: Email) -> JobResult:
    """Approve an approval job on hold, so the jobs requiring it run.

    The approver must be a CI user, one of the project's deploy approvers when
    it lists any, and not the person who triggered the pipeline when the project
    prevents self-approval.

    Args:
        job_id: The approval job.
        approver_email: E-mail of the approving user.
    """
    job = ctx.get(Job, job_id, field="job_id")
    if job.type != "approval":
        raise RuleViolation(f"job {job.name} is not an approval job", field="job_id", hint="approve approval jobs only")
    if job.status != "on_hold":
        raise RuleViolation(
            f"approval job {job.name} is {job.status}, not on hold",
            field="job_id",
            hint="only jobs on hold await approval",
        )
    project = ctx.get(Project, job.project_id)
    wf = ctx.get(Workflow, job.workflow_id)
    pipeline = ctx.get(Pipeline, wf.pipeline_id)
    if ctx.first(User, email=approver_email) is None:
        raise RuleViolation(
            f"{approver_email} is not a CI user", field="approver_email", hint="list users with ci__list_users"
        )
    if project.deploy_approvers and approver_email not in project.deploy_approvers:
        raise RuleViolation(
            f"{approver_email} may not approve jobs of {project.slug}",
            field="approver_email",
            hint="ask one of the project's deploy_approvers: " + ", ".join(project.deploy_approvers),
        )
    if project.prevent_self_approval and approver_email == pipeline.triggered_by_email:
        raise RuleViolation(
            f"{approver_email} triggered this pipeline and cannot approve it",
            field="approver_email",
            hint="someone else must approve (the project prevents self-approval)",
        )
    job = ctx.update(job, status="success", stopped_at=ctx.now(), approved_by_email=approver_email)
    return JobResult(job=job, workflow=_settle(ctx, wf), artifacts=[])


@service.tool(intent="cancel the workflow", write=True, example=_example_cancel)
def cancel_workflow(ctx: Ctx, workflow_id: WorkflowId, canceled_by_email: Email) -> Workflow:
    """Cancel a running or held workflow: running and held jobs are cancelled, blocked ones will not run.

    Args:
        workflow_id: The workflow.
        canceled_by_email: E-mail of the CI user cancelling it.
    """
    wf = ctx.get(Workflow, workflow_id, field="workflow_id")
    if wf.status not in ACTIVE_WF:
        raise RuleViolation(
            f"workflow {wf.name} is {wf.status} and cannot be cancelled",
            field="workflow_id",
            hint="only running, failing or on-hold workflows can be cancelled",
        )
    if ctx.first(User, email=canceled_by_email) is None:
        raise RuleViolation(
            f"{canceled_by_email} is not a CI user", field="canceled_by_email", hint="list users with ci__list_users"
        )
    return _cancel(ctx, wf, canceled_by_email)


@service.tool(
    intent="rerun the workflow",
    write=True,
    example=first_example(Workflow, "workflow_id", where={"status": "failed"}, from_failed=True),
)
def rerun_workflow(ctx: Ctx, workflow_id: WorkflowId, from_failed: bool = False) -> Workflow:
    """Rerun a finished workflow as a new workflow of the same pipeline.

    From the start, every job runs again; from failed (only for a failed
    workflow), the jobs that succeeded keep their success and only the others
    run again.

    Args:
        workflow_id: The finished workflow.
        from_failed: Rerun only the failed jobs and those after them.
    """
    wf = ctx.get(Workflow, workflow_id, field="workflow_id")
    if wf.status not in FINISHED:
        raise RuleViolation(
            f"workflow {wf.name} is still {wf.status}",
            field="workflow_id",
            hint="wait for it to finish or cancel it with ci__cancel_workflow first",
        )
    if from_failed and wf.status != "failed":
        raise RuleViolation(
            f"workflow {wf.name} is {wf.status}; only failed workflows rerun from failed",
            field="from_failed",
            hint="rerun it from the start (from_failed=false)",
        )
    new = ctx.create(Workflow, pipeline_id=wf.pipeline_id, project_id=wf.project_id, name=wf.name, rerun_of=wf.id)
    for job in ctx.where(Job, workflow_id=wf.id):
        keep = from_failed and job.status == "success"
        ctx.create(
            Job,
            workflow_id=new.id,
            project_id=job.project_id,
            name=job.name,
            type=job.type,
            requires=job.requires,
            status="success" if keep else "blocked",
            started_at=job.started_at if keep else None,
            stopped_at=job.stopped_at if keep else None,
            approved_by_email=job.approved_by_email if keep else None,
        )
    return _settle(ctx, new)


class Insights(BaseModel):
    """How a workflow of a project has been doing."""

    project_id: ProjectId = Field(description="The project.")
    workflow_name: str = Field(description="The workflow.")
    total_runs: int = Field(description="Runs of the workflow, finished or not.")
    finished_runs: int = Field(description="Runs that finished (success, failed, canceled).")
    successful_runs: int = Field(description="Runs that succeeded.")
    failed_runs: int = Field(description="Runs that failed.")
    success_rate: Percent = Field(description="successful / (successful + failed) × 100; 0 with no such run.")
    mean_duration_seconds: int = Field(description="Mean duration of the successful runs, in whole seconds.")
    last_status: WorkflowStatus | None = Field(description="Status of the latest run.")


@service.tool(
    intent="look up the workflow's success rate",
    example=first_example(Workflow, None, fields={"project_id": "project_id", "workflow_name": "name"}),
)
def workflow_insights(ctx: Ctx, project_id: ProjectId, workflow_name: JobName) -> Insights:
    """Summarise every run of one workflow of a project: success rate and mean duration.

    Args:
        project_id: The project.
        workflow_name: The workflow's name in the config.
    """
    project = ctx.get(Project, project_id, field="project_id")
    runs = ctx.where(Workflow, project_id=project.id, name=workflow_name)
    if not runs:
        raise RuleViolation(
            f"{project.slug} has no runs of a workflow named {workflow_name}",
            field="workflow_name",
            hint="list the project's workflows with ci__list_workflows",
        )
    ok = [w for w in runs if w.status == "success"]
    bad = [w for w in runs if w.status == "failed"]
    durations = [(w.stopped_at - w.created_at).total_seconds() for w in ok if w.stopped_at is not None]
    latest = max(runs, key=lambda w: (w.created_at, w.id))
    return Insights(
        project_id=project.id,
        workflow_name=workflow_name,
        total_runs=len(runs),
        finished_runs=sum(1 for w in runs if w.status in ("success", "failed", "canceled")),
        successful_runs=len(ok),
        failed_runs=len(bad),
        success_rate=round(100 * len(ok) / (len(ok) + len(bad)), 1) if ok or bad else 0.0,
        mean_duration_seconds=int(sum(durations) / len(durations)) if durations else 0,
        last_status=latest.status,
    )


@service.tool(
    intent="set a secret environment variable on the project",
    write=True,
    example=first_example(Project, "project_id", name="DEPLOY_TOKEN", value="s3cr3t-9876"),
)
def set_env_var(
    ctx: Ctx,
    project_id: ProjectId,
    name: EnvName,
    value: Annotated[str, StringConstraints(min_length=4, max_length=4096)],
) -> EnvVar:
    """Set a secret environment variable of a project, replacing one of the same name.

    The value is stored and shown masked to its last four characters; it can never be read back.

    Args:
        project_id: The project.
        name: Variable name (upper case, digits and underscores).
        value: The secret value (at least 4 characters).
    """
    project = ctx.get(Project, project_id, field="project_id")
    old = ctx.first(EnvVar, project_id=project.id, name=name)
    if old is not None:
        ctx.delete(old)
    return ctx.create(EnvVar, project_id=project.id, name=name, value=_mask(value))


# -- seed -------------------------------------------------------------------------------------

BUILD = WorkflowSpec(
    name="build-test",
    jobs=[
        JobSpec(name="build"),
        JobSpec(name="unit-tests", requires=["build"]),
        JobSpec(name="lint", requires=["build"]),
    ],
)
DEPLOY = WorkflowSpec(
    name="deploy",
    branches=["main"],
    jobs=[
        JobSpec(name="build"),
        JobSpec(name="integration-tests", requires=["build"]),
        JobSpec(name="hold", type="approval", requires=["integration-tests"]),
        JobSpec(name="deploy-production", requires=["hold"]),
    ],
)
REPOS: tuple[tuple[str, bool], ...] = (
    ("web-app", True),
    ("api-server", True),
    ("billing-service", True),
    ("mobile-app", False),
    ("infra", True),
    ("docs", False),
    ("data-pipeline", False),
)
COMMITS = (
    "Fix flaky checkout test",
    "Add CSV export to reports",
    "Upgrade the web framework",
    "Refactor the billing retries",
    "Tune the database pool",
    "Update the README",
)
ENV_NAMES = ("AWS_ACCESS_KEY_ID", "AWS_SECRET_ACCESS_KEY", "SENTRY_DSN", "NPM_TOKEN", "SLACK_WEBHOOK_URL")
# Seeded runs per project: (branch kind, outcome per workflow)
RUNS: tuple[tuple[str, str], ...] = (
    ("main", "success"),
    ("feature", "failed"),
    ("main", "on_hold"),
    ("feature", "running"),
    ("main", "canceled"),
)


@service.seeder
def seed(s: SeedContext) -> None:
    """Engineers as CI users; the code host's repositories as projects with pipelines in every state."""
    pop = s.population
    rng = s.rng
    org = org_handle(pop)
    engineers = pop.staff("Engineering", fallback=6)
    emails = []
    for p in engineers:
        login = p.email.split("@")[0].replace(".", "-").replace("_", "-")[:39]
        s.create(User, name=p.name, email=p.email, login=login)
        emails.append(p.email)
    leads = [p.email for p in engineers if "Manager" in p.job_title or "Senior" in p.job_title] or emails[:2]
    for r, (name, deploys) in enumerate(REPOS):
        config = [BUILD, DEPLOY] if deploys else [BUILD]
        created = s.ago(days=300 - 20 * r)
        project = s.create(
            Project,
            slug=f"gh/{org}/{name}",
            name=name,
            vcs_url=f"https://github.com/{org}/{name}",
            config=config,
            deploy_approvers=tuple(leads[:2]) if deploys else (),
            prevent_self_approval=True,
            auto_cancel_redundant=r % 3 != 2,
            created_at=created,
        )
        for k, env in enumerate(ENV_NAMES[: 2 + r % 3]):
            s.create(EnvVar, project_id=project.id, name=env, value=f"xxxx{(r * 7 + k) * 1319 % 10000:04d}")
        number = 0
        for k, (kind, outcome) in enumerate(RUNS):
            number += 1
            branch = "main" if kind == "main" else f"feature/{COMMITS[(r + k) % len(COMMITS)].split()[0].lower()}"
            who = emails[(r * 3 + k) % len(emails)]
            if outcome == "on_hold" and who in project.deploy_approvers:
                who = next(e for e in emails if e not in project.deploy_approvers)
            at = s.ago(hours=6 * (len(RUNS) - k) + r)
            pipeline = s.create(
                Pipeline,
                project_id=project.id,
                number=number,
                branch=branch,
                revision=f"{rng.getrandbits(160):040x}",
                commit_subject=COMMITS[(r + k) % len(COMMITS)],
                trigger_type="webhook",
                triggered_by_email=who,
                created_at=at,
            )
            for spec in (w for w in config if _runs_on(w, branch)):
                _seed_workflow(s, project, pipeline, spec, outcome, at)
        s.update(project, last_pipeline_number=number)


def _seed_workflow(
    s: SeedContext, project: Project, pipeline: Pipeline, spec: WorkflowSpec, outcome: str, at: Any
) -> None:
    """One workflow run whose jobs are consistent with the outcome."""
    minutes = 0
    status_of: dict[str, str] = {}
    order: list[JobSpec] = []
    done: set[str] = set()
    while len(order) < len(spec.jobs):
        for j in spec.jobs:
            if j.name not in done and set(j.requires) <= done:
                order.append(j)
                done.add(j.name)
    failed_at = 1 if outcome == "failed" else -1
    for i, j in enumerate(order):
        reqs = [status_of[r] for r in j.requires]
        if any(r in ("failed", "canceled", "not_run") for r in reqs):
            st = "not_run"
        elif not all(r == "success" for r in reqs):
            st = "blocked"
        elif outcome == "failed" and i == failed_at:
            st = "failed"
        elif outcome == "running" and i == len(order) - 1:
            st = "running"
        elif outcome == "canceled" and j.type == "approval":
            st = "canceled"
        elif j.type == "approval":
            st = "success" if outcome == "success" else "on_hold"
        else:
            st = "success"
        status_of[j.name] = st
    if outcome == "canceled" and "canceled" not in status_of.values():
        last = order[-1].name
        status_of[last] = "canceled"
    wf_status = _derive(list(status_of.values()))
    approver = next((e for e in project.deploy_approvers if e != pipeline.triggered_by_email), None)
    wf = s.create(
        Workflow,
        pipeline_id=pipeline.id,
        project_id=project.id,
        name=spec.name,
        status=wf_status,
        canceled_by_email=pipeline.triggered_by_email if wf_status == "canceled" else None,
        created_at=at,
        stopped_at=at + dt.timedelta(minutes=4 * len(order) + 1) if wf_status in FINISHED else None,
    )
    for j in order:
        st = status_of[j.name]
        started = at + dt.timedelta(minutes=minutes) if st != "blocked" and st != "not_run" else None
        minutes += 4
        job = s.create(
            Job,
            workflow_id=wf.id,
            project_id=project.id,
            name=j.name,
            type=j.type,
            requires=tuple(j.requires),
            status=st,
            started_at=started,
            stopped_at=started + dt.timedelta(minutes=3) if started and st in FINISHED else None,
            approved_by_email=approver if j.type == "approval" and st == "success" else None,
        )
        if st == "success" and j.name == "build":
            s.create(
                Artifact,
                job_id=job.id,
                project_id=project.id,
                path="dist/app.tar.gz",
                url=f"https://artifacts.conveyor.example/{job.id}/dist/app.tar.gz",
                created_at=at + dt.timedelta(minutes=3),
            )
