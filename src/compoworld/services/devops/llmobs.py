"""Tracelens: LLM observability (projects, runs and traces, feedback, datasets, evaluators, annotation queues).

Modeled on the LangSmith API: tracing projects (sessions) with a retention tier;
runs of type llm, chain, tool or retriever that nest into a trace through their
parent run (same project, same trace), pending until ended with outputs
(success) or an error, with model name, prompt and completion tokens and
latency; feedback on runs by key (correctness, helpfulness, user_score) scored
0-1 by a person, a model or the API, one per key and author; datasets of
examples (inputs and reference outputs), added by hand or from a successful run
(once per run); online evaluators on a project with a sampling rate; and
annotation queues whose reviewers work through queued runs, each completion
leaving feedback.
"""

from __future__ import annotations

import datetime as dt
from typing import Annotated, Any, Literal

from pydantic import Field, StringConstraints

from compoworld.engine.context import Ctx
from compoworld.engine.errors import Conflict, RuleViolation
from compoworld.engine.records import Record
from compoworld.engine.service import Service
from compoworld.engine.state import SeedContext
from compoworld.engine.types import DateTime, Email, IdOf, Text, Title
from compoworld.services.kit.examples import first_example
from compoworld.services.kit.lists import require_employee
from compoworld.services.kit.records import Created, Timestamped, Value

__all__ = ["service"]

service = Service(
    "llmobs",
    title="Tracelens",
    category="llm_observability",
    modeled_on="LangSmith API: projects (sessions), runs and traces, feedback, datasets and examples, "
    "online evaluators, annotation queues",
    description="Observability for the company's LLM applications: tracing projects, every run and its trace "
    "with tokens, latency and errors, feedback scores, datasets of examples for evaluation, online "
    "evaluators, and annotation queues where reviewers grade runs.",
)

ProjectId = Annotated[str, IdOf("llmobs.project")]
RunId = Annotated[str, IdOf("llmobs.run")]
FeedbackId = Annotated[str, IdOf("llmobs.feedback")]
DatasetId = Annotated[str, IdOf("llmobs.dataset")]
ExampleId = Annotated[str, IdOf("llmobs.example")]
EvaluatorId = Annotated[str, IdOf("llmobs.evaluator")]
QueueId = Annotated[str, IdOf("llmobs.queue")]
ItemId = Annotated[str, IdOf("llmobs.queue_item")]

ProjectName = Annotated[str, StringConstraints(pattern=r"^[a-z0-9][a-z0-9._-]{1,63}$")]
"""A project name (support-bot-prod)."""
FeedbackKey = Annotated[str, StringConstraints(pattern=r"^[a-z][a-z0-9_]{1,39}$")]
"""A feedback key (correctness)."""
Unit = Annotated[float, Field(ge=0, le=1)]
Tokens = Annotated[int, Field(ge=0, le=10_000_000)]

RunType = Literal["llm", "chain", "tool", "retriever"]
RunStatus = Literal["pending", "success", "error"]
Retention = Literal["base", "extended"]
FeedbackSource = Literal["human", "model", "api"]
EvaluatorKind = Literal["llm_as_judge", "exact_match", "regex_match", "embedding_distance"]
ItemStatus = Literal["pending", "completed"]
EvalKey = Literal["correctness", "helpfulness", "conciseness", "harmfulness", "groundedness"]


class Project(Timestamped):
    """A tracing project."""

    id: ProjectId
    name: ProjectName
    """Its name (unique)."""
    description: Text = ""
    """What it traces."""
    owner_email: Email
    """Who owns it."""
    retention: Retention = "base"
    """base (14 days) or extended (400 days)."""


class Run(Record):
    """One step of a trace (an LLM call, a chain, a tool call, a retrieval)."""

    id: RunId
    project_id: ProjectId
    """The project."""
    trace_id: RunId | None = None
    """The root run of its trace (none: it is a root)."""
    parent_run_id: RunId | None = None
    """Its parent run."""
    name: Title
    """Its name (ChatOpenAI, RetrievalQA, search_docs)."""
    run_type: RunType
    """llm, chain, tool or retriever."""
    status: RunStatus = "pending"
    """pending, success or error."""
    inputs: Text = ""
    """Its inputs."""
    outputs: Text = ""
    """Its outputs."""
    error: Text = ""
    """The error, if any."""
    model_name: Annotated[str, StringConstraints(max_length=60)] = ""
    """The model, for llm runs."""
    prompt_tokens: Tokens = 0
    """Prompt tokens."""
    completion_tokens: Tokens = 0
    """Completion tokens."""
    latency_ms: Annotated[int, Field(ge=0)] = 0
    """Latency in milliseconds (set when it ends)."""
    start_time: DateTime
    """When it started."""
    end_time: DateTime | None = None
    """When it ended."""


class Feedback(Created):
    """A score on a run."""

    id: FeedbackId
    run_id: RunId
    """The run."""
    key: FeedbackKey
    """What is scored (correctness, helpfulness, user_score)."""
    score: Unit
    """0 to 1."""
    comment: Text = ""
    """Why."""
    source: FeedbackSource = "human"
    """human, model or api."""
    created_by: Email | None = None
    """The person who gave it (human feedback)."""


class Dataset(Timestamped):
    """A dataset of examples for evaluation."""

    id: DatasetId
    name: Title
    """Its name (unique)."""
    description: Text = ""
    """What it tests."""
    example_count: int = 0
    """How many examples it has."""


class Example(Created):
    """An input with its reference output."""

    id: ExampleId
    dataset_id: DatasetId
    """The dataset."""
    inputs: Text
    """The input."""
    outputs: Text = ""
    """The reference output."""
    source_run_id: RunId | None = None
    """The run it was made from."""


class Evaluator(Timestamped):
    """An online evaluator scoring a sample of a project's runs."""

    id: EvaluatorId
    name: Title
    """Its name."""
    project_id: ProjectId
    """The project it watches."""
    kind: EvaluatorKind
    """llm_as_judge, exact_match, regex_match or embedding_distance."""
    feedback_key: EvalKey
    """The feedback key it writes."""
    sampling_rate: Unit = 1.0
    """Share of runs it scores."""


class Queue(Timestamped):
    """An annotation queue."""

    id: QueueId
    name: Title
    """Its name."""
    rubric: Text = ""
    """What reviewers judge."""
    feedback_key: EvalKey = "correctness"
    """The key reviewers score."""
    reviewer_emails: tuple[Email, ...]
    """Who reviews."""


class QueueItem(Created):
    """A run waiting in an annotation queue."""

    id: ItemId
    queue_id: QueueId
    """The queue."""
    run_id: RunId
    """The run."""
    status: ItemStatus = "pending"
    """pending or completed."""
    reviewed_by: Email | None = None
    """Who reviewed it."""


class ProjectStats(Value):
    """A project's run statistics."""

    project_id: ProjectId
    """The project."""
    runs: int
    """Root runs (traces)."""
    error_rate: float
    """Share of ended root runs that errored."""
    p50_latency_ms: int
    """Median latency of ended root runs."""
    total_tokens: int
    """Tokens of all llm runs."""
    avg_feedback: dict[str, float]
    """Average score per feedback key."""


# -- rules ------------------------------------------------------------------------------------


def _guard_project(ctx: Ctx, new: Any, old: Any) -> None:
    require_employee(ctx, new.owner_email, field="owner_email", hint="projects are owned by staff")
    for p in ctx.where(Project, name=new.name):
        if p.id != new.id:
            raise Conflict(f"project {new.name} exists", field="name", hint="pick another name")


def _delete_project(ctx: Ctx, new: Any, old: Any) -> None:
    if ctx.first(Evaluator, project_id=old.id) is not None:
        raise Conflict(f"project {old.name} has evaluators", field="project_id", hint="delete them first")
    for r in ctx.where(Run, project_id=old.id):
        for f in ctx.where(Feedback, run_id=r.id):
            ctx.delete(f)
        ctx.delete(r)


def _guard_dataset(ctx: Ctx, new: Any, old: Any) -> None:
    for d in ctx.where(Dataset, name=new.name):
        if d.id != new.id:
            raise Conflict(f"dataset {new.name!r} exists", field="name", hint="pick another name")


def _delete_dataset(ctx: Ctx, new: Any, old: Any) -> None:
    for e in ctx.where(Example, dataset_id=old.id):
        ctx.delete(e)


def _delete_example(ctx: Ctx, new: Any, old: Any) -> None:
    ds = ctx.get(Dataset, old.dataset_id)
    ctx.update(ds, example_count=max(0, ds.example_count - 1))


def _guard_evaluator(ctx: Ctx, new: Any, old: Any) -> None:
    ctx.get(Project, new.project_id, field="project_id")


def _guard_queue(ctx: Ctx, new: Any, old: Any) -> None:
    if not new.reviewer_emails:
        raise RuleViolation("a queue needs reviewers", field="reviewer_emails", hint="list staff e-mails")
    for email in new.reviewer_emails:
        require_employee(ctx, email, field="reviewer_emails", hint="reviewers are staff")


projects = service.resource(
    Project,
    name="project",
    plural="projects",
    prefix="proj",
    create=False,
    filters=("name", "owner_email", "retention"),
    search=("name", "description"),
    update=("description", "owner_email", "retention"),
    guard_update=_guard_project,
    guard_delete=_delete_project,
)
runs = service.resource(
    Run,
    name="run",
    plural="runs",
    prefix="run",
    create=False,
    filters=("project_id", "trace_id", "parent_run_id", "run_type", "status", "model_name"),
    search=("name", "inputs", "error"),
    delete=False,
)
feedback = service.resource(
    Feedback,
    name="feedback",
    plural="feedback",
    prefix="fb",
    create=False,
    get=False,
    filters=("run_id", "key", "source", "created_by"),
    delete=False,
)
datasets = service.resource(
    Dataset,
    name="dataset",
    plural="datasets",
    prefix="ds",
    create=("name", "description"),
    search=("name", "description"),
    update=("name", "description"),
    guard_create=_guard_dataset,
    guard_update=_guard_dataset,
    guard_delete=_delete_dataset,
)
examples = service.resource(
    Example,
    name="example",
    plural="examples",
    prefix="ex",
    create=False,
    get=False,
    filters=("dataset_id", "source_run_id"),
    search=("inputs", "outputs"),
    guard_delete=_delete_example,
)
evaluators = service.resource(
    Evaluator,
    name="evaluator",
    plural="evaluators",
    prefix="evl",
    create=("name", "project_id", "kind", "feedback_key", "sampling_rate"),
    get=False,
    filters=("project_id", "kind", "feedback_key"),
    update=("name", "sampling_rate"),
    guard_create=_guard_evaluator,
)
queues = service.resource(
    Queue,
    name="queue",
    plural="queues",
    prefix="aq",
    create=("name", "rubric", "feedback_key", "reviewer_emails"),
    get=False,
    search=("name",),
    update=("name", "rubric", "reviewer_emails"),
    delete=False,
    guard_create=_guard_queue,
    guard_update=_guard_queue,
    title="annotation queue",
)
items = service.resource(
    QueueItem,
    name="queue_item",
    plural="queue_items",
    prefix="aqi",
    create=False,
    get=False,
    filters=("queue_id", "run_id", "status", "reviewed_by"),
    delete=False,
)


# -- domain tools -----------------------------------------------------------------------------


def _example_project(ctx: Ctx) -> dict[str, Any] | None:
    return {"name": "invoice-extractor-dev", "owner_email": ctx.population.employees[0].email}


@service.tool(intent="create the tracing project", write=True, example=_example_project)
def create_project(
    ctx: Ctx, name: ProjectName, owner_email: Email, description: Text = "", retention: Retention = "base"
) -> Project:
    """Create a tracing project.

    Args:
        name: Lower-case name (unique).
        owner_email: The owner (staff).
        description: What it traces.
        retention: base (14 days) or extended (400 days).
    """
    if ctx.first(Project, name=name) is not None:
        raise Conflict(f"project {name} exists", field="name", hint="pick another name")
    require_employee(ctx, owner_email, field="owner_email", hint="projects are owned by staff")
    return ctx.create(Project, name=name, owner_email=owner_email, description=description, retention=retention)


def _example_log(ctx: Ctx) -> dict[str, Any] | None:
    p = ctx.first(Project)
    return None if p is None else {"project_id": p.id, "name": "ChatOpenAI", "run_type": "llm", "inputs": "Hi"}


@service.tool(intent="log the run", write=True, example=_example_log)
def log_run(
    ctx: Ctx,
    project_id: ProjectId,
    name: Title,
    run_type: RunType,
    inputs: Text = "",
    parent_run_id: RunId | None = None,
    model_name: Annotated[str, StringConstraints(max_length=60)] = "",
    prompt_tokens: Tokens = 0,
) -> Run:
    """Start a run (pending); a child run joins its parent's trace, in the same project, under a pending parent.

    Args:
        project_id: The project.
        name: The run's name.
        run_type: llm, chain, tool or retriever.
        inputs: Its inputs.
        parent_run_id: The parent run (none: a new trace).
        model_name: The model, for llm runs.
        prompt_tokens: Prompt tokens, for llm runs.
    """
    proj = ctx.get(Project, project_id, field="project_id")
    trace: str | None = None
    if parent_run_id is not None:
        parent = ctx.get(Run, parent_run_id, field="parent_run_id")
        if parent.project_id != proj.id:
            raise RuleViolation("the parent run is in another project", field="parent_run_id", hint="same project")
        if parent.status != "pending":
            raise RuleViolation(f"parent run {parent.id} already ended", field="parent_run_id", hint="log a new trace")
        trace = parent.trace_id or parent.id
    if run_type != "llm" and (model_name or prompt_tokens):
        raise RuleViolation("only llm runs have a model and tokens", field="model_name", hint="use run_type llm")
    return ctx.create(
        Run,
        project_id=proj.id,
        trace_id=trace,
        parent_run_id=parent_run_id,
        name=name,
        run_type=run_type,
        inputs=inputs,
        model_name=model_name,
        prompt_tokens=prompt_tokens,
        start_time=ctx.now(),
    )


@service.tool(
    intent="end the run",
    write=True,
    example=first_example(Run, "run_id", where={"status": "pending"}, outputs="Done.", latency_ms=850),
)
def end_run(
    ctx: Ctx,
    run_id: RunId,
    latency_ms: Annotated[int, Field(ge=0, le=3_600_000)],
    outputs: Text = "",
    error: Text = "",
    completion_tokens: Tokens = 0,
) -> Run:
    """End a pending run with outputs (success) or an error; a run ends after all its children.

    Args:
        run_id: The run.
        latency_ms: How long it took.
        outputs: Its outputs.
        error: The error (makes it an error run).
        completion_tokens: Completion tokens, for llm runs.
    """
    run = ctx.get(Run, run_id, field="run_id")
    if run.status != "pending":
        raise Conflict(f"run {run.id} already ended ({run.status})", field="run_id", hint="nothing to do")
    if ctx.first(Run, parent_run_id=run.id, status="pending") is not None:
        raise RuleViolation(f"run {run.id} has pending child runs", field="run_id", hint="end them first")
    return ctx.update(
        run,
        status="error" if error.strip() else "success",
        outputs=outputs,
        error=error.strip(),
        completion_tokens=completion_tokens,
        latency_ms=latency_ms,
        end_time=ctx.now() + dt.timedelta(milliseconds=latency_ms),
    )


def _example_feedback(ctx: Ctx) -> dict[str, Any] | None:
    r = ctx.first(Run, status="success", parent_run_id=None)
    me = ctx.population.employees[-1].email
    return None if r is None else {"run_id": r.id, "key": "helpfulness", "score": 0.5, "created_by": me}


@service.tool(intent="leave feedback on the run", write=True, example=_example_feedback)
def add_feedback(
    ctx: Ctx,
    run_id: RunId,
    key: FeedbackKey,
    score: Unit,
    created_by: Email | None = None,
    comment: Text = "",
    source: FeedbackSource = "human",
) -> Feedback:
    """Score an ended run on a key; a person gives one score per key and run (human feedback needs a person).

    Args:
        run_id: The run.
        key: What is scored (correctness, helpfulness, user_score).
        score: 0 to 1.
        created_by: The person scoring (required for human feedback).
        comment: Why.
        source: human, model or api.
    """
    run = ctx.get(Run, run_id, field="run_id")
    if run.status == "pending":
        raise RuleViolation(f"run {run.id} has not ended", field="run_id", hint="score ended runs")
    if source == "human":
        if created_by is None:
            raise RuleViolation("human feedback names its author", field="created_by", hint="give an e-mail")
        for f in ctx.where(Feedback, run_id=run.id, key=key, created_by=created_by):
            raise Conflict(f"{created_by} already scored {key} ({f.score})", field="key", hint="one per key")
    return ctx.create(
        Feedback, run_id=run.id, key=key, score=score, comment=comment, source=source, created_by=created_by
    )


@service.tool(
    intent="add an example to the dataset",
    write=True,
    example=first_example(Dataset, "dataset_id", inputs="Where is my parcel?", outputs="Ask for the order number."),
)
def create_example(
    ctx: Ctx, dataset_id: DatasetId, inputs: Text, outputs: Text = "", source_run_id: RunId | None = None
) -> Example:
    """Add an example to a dataset, by hand or from a successful run (each run once per dataset).

    Args:
        dataset_id: The dataset.
        inputs: The input (from the run when omitted and a run is given).
        outputs: The reference output (from the run when omitted).
        source_run_id: The run it comes from.
    """
    ds = ctx.get(Dataset, dataset_id, field="dataset_id")
    if source_run_id is not None:
        run = ctx.get(Run, source_run_id, field="source_run_id")
        if run.status != "success":
            raise RuleViolation(f"run {run.id} is {run.status}", field="source_run_id", hint="use successful runs")
        if ctx.first(Example, dataset_id=ds.id, source_run_id=run.id) is not None:
            raise Conflict(f"run {run.id} is already in {ds.name!r}", field="source_run_id", hint="nothing to do")
        inputs, outputs = inputs or run.inputs, outputs or run.outputs
    if not inputs.strip():
        raise RuleViolation("an example needs inputs", field="inputs", hint="give the input text")
    made = ctx.create(Example, dataset_id=ds.id, inputs=inputs, outputs=outputs, source_run_id=source_run_id)
    ctx.update(ds, example_count=ds.example_count + 1)
    return made


def _example_enqueue(ctx: Ctx) -> dict[str, Any] | None:
    q = ctx.first(Queue)
    for r in ctx.where(Run, status="success", parent_run_id=None):
        if q is not None and ctx.first(QueueItem, queue_id=q.id, run_id=r.id) is None:
            return {"queue_id": q.id, "run_ids": [r.id]}
    return None


@service.tool(intent="add the runs to the annotation queue", write=True, example=_example_enqueue)
def add_runs_to_queue(ctx: Ctx, queue_id: QueueId, run_ids: list[RunId]) -> list[QueueItem]:
    """Queue ended runs for review; a run is in a queue once.

    Args:
        queue_id: The annotation queue.
        run_ids: The runs.
    """
    q = ctx.get(Queue, queue_id, field="queue_id")
    if not run_ids or len(set(run_ids)) != len(run_ids):
        raise RuleViolation("list each run once, at least one", field="run_ids", hint="run ids")
    out = []
    for rid in run_ids:
        run = ctx.get(Run, rid, field="run_ids")
        if run.status == "pending":
            raise RuleViolation(f"run {run.id} has not ended", field="run_ids", hint="queue ended runs")
        if ctx.first(QueueItem, queue_id=q.id, run_id=run.id) is not None:
            raise Conflict(f"run {run.id} is already queued", field="run_ids", hint="skip it")
        out.append(ctx.create(QueueItem, queue_id=q.id, run_id=run.id))
    return out


def _example_complete(ctx: Ctx) -> dict[str, Any] | None:
    it = ctx.first(QueueItem, status="pending")
    if it is None:
        return None
    q = ctx.get(Queue, it.queue_id)
    return {"queue_item_id": it.id, "reviewer": q.reviewer_emails[0], "score": 1.0}


@service.tool(intent="complete the review of the queued run", write=True, example=_example_complete)
def complete_queue_item(ctx: Ctx, queue_item_id: ItemId, reviewer: Email, score: Unit, comment: Text = "") -> QueueItem:
    """A queue reviewer grades a pending item: feedback on the queue's key is left on the run.

    Args:
        queue_item_id: The queued run.
        reviewer: The reviewer (one of the queue's).
        score: 0 to 1.
        comment: Why.
    """
    it = ctx.get(QueueItem, queue_item_id, field="queue_item_id")
    if it.status != "pending":
        raise Conflict(f"item {it.id} is already reviewed", field="queue_item_id", hint="pick a pending item")
    q = ctx.get(Queue, it.queue_id)
    if reviewer not in q.reviewer_emails:
        raise RuleViolation(f"{reviewer} is not a reviewer of {q.name!r}", field="reviewer", hint="see the queue")
    add_feedback(ctx, it.run_id, q.feedback_key, score, reviewer, comment, "human")
    return ctx.update(it, status="completed", reviewed_by=reviewer)


@service.tool(intent="show the project's statistics", example=first_example(Project, "project_id"))
def project_stats(ctx: Ctx, project_id: ProjectId) -> ProjectStats:
    """A project's traces, error rate, median latency, tokens and average feedback per key.

    Args:
        project_id: The project.
    """
    proj = ctx.get(Project, project_id, field="project_id")
    runs_ = ctx.where(Run, project_id=proj.id)
    roots = [r for r in runs_ if r.parent_run_id is None]
    ended = sorted((r for r in roots if r.status != "pending"), key=lambda r: r.latency_ms)
    errors = sum(r.status == "error" for r in ended)
    scores: dict[str, list[float]] = {}
    for r in runs_:
        for f in ctx.where(Feedback, run_id=r.id):
            scores.setdefault(f.key, []).append(f.score)
    return ProjectStats(
        project_id=proj.id,
        runs=len(roots),
        error_rate=round(errors / len(ended), 3) if ended else 0.0,
        p50_latency_ms=ended[(len(ended) - 1) // 2].latency_ms if ended else 0,
        total_tokens=sum(r.prompt_tokens + r.completion_tokens for r in runs_ if r.run_type == "llm"),
        avg_feedback={k: round(sum(v) / len(v), 3) for k, v in sorted(scores.items())},
    )


# -- seed -------------------------------------------------------------------------------------

QUESTIONS: tuple[str, ...] = (
    "Where is my shipment?",
    "Can I change the delivery address?",
    "What are your customs fees for Canada?",
    "How do I return a damaged item?",
    "My tracking number shows no updates.",
    "Do you deliver on Saturdays?",
)


@service.seeder
def seed(s: SeedContext) -> None:
    """Projects, traces of a support bot (retrieval, llm) with feedback, a dataset, an evaluator and a queue."""
    pop = s.population
    eng = pop.staff("Engineering", "Data", "Product", fallback=4)
    bot = s.create(
        Project,
        name="support-bot-prod",
        description="Customer support assistant.",
        owner_email=eng[0].email,
        retention="extended",
        created_at=s.ago(days=200),
        updated_at=s.ago(days=30),
    )
    s.create(
        Project,
        name="support-bot-dev",
        owner_email=eng[1 % len(eng)].email,
        created_at=s.ago(days=90),
        updated_at=s.ago(days=90),
    )
    for k, q in enumerate(QUESTIONS):
        start = s.ago(hours=30 - 4 * k)
        fail = k == 4
        root = s.create(
            Run,
            project_id=bot.id,
            name="SupportAgent",
            run_type="chain",
            status="error" if fail else "success",
            inputs=q,
            outputs="" if fail else f"Answer to: {q}",
            error="RateLimitError: 429 from model" if fail else "",
            latency_ms=1800 + 250 * k,
            start_time=start,
            end_time=start + dt.timedelta(milliseconds=1800 + 250 * k),
        )
        s.create(
            Run,
            project_id=bot.id,
            trace_id=root.id,
            parent_run_id=root.id,
            name="search_help_center",
            run_type="retriever",
            status="success",
            inputs=q,
            outputs="3 articles",
            latency_ms=220,
            start_time=start,
            end_time=start + dt.timedelta(milliseconds=220),
        )
        s.create(
            Run,
            project_id=bot.id,
            trace_id=root.id,
            parent_run_id=root.id,
            name="ChatOpenAI",
            run_type="llm",
            status="error" if fail else "success",
            inputs=q,
            model_name="gpt-4o-mini",
            prompt_tokens=900 + 40 * k,
            completion_tokens=0 if fail else 120 + 10 * k,
            latency_ms=1400 + 200 * k,
            error="429" if fail else "",
            outputs="" if fail else f"Answer to: {q}",
            start_time=start,
            end_time=start + dt.timedelta(milliseconds=1400 + 200 * k),
        )
        if not fail:
            s.create(
                Feedback,
                run_id=root.id,
                key="user_score",
                score=0.0 if k == 2 else 1.0,
                source="api",
                created_at=start + dt.timedelta(minutes=2),
            )
    s.create(
        Run,
        project_id=bot.id,
        name="SupportAgent",
        run_type="chain",
        inputs="Is my parcel insured?",
        start_time=s.ago(minutes=3),
    )
    ds = s.create(
        Dataset,
        name="Support golden set",
        description="Questions with approved answers.",
        example_count=2,
        created_at=s.ago(days=60),
        updated_at=s.ago(days=10),
    )
    for q in QUESTIONS[:2]:
        s.create(Example, dataset_id=ds.id, inputs=q, outputs=f"Approved answer to: {q}", created_at=s.ago(days=50))
    s.create(
        Evaluator,
        name="Helpfulness judge",
        project_id=bot.id,
        kind="llm_as_judge",
        feedback_key="helpfulness",
        sampling_rate=0.2,
        created_at=s.ago(days=40),
        updated_at=s.ago(days=40),
    )
    queue = s.create(
        Queue,
        name="Low-rated answers",
        rubric="Is the answer correct and grounded in the help center?",
        reviewer_emails=tuple(p.email for p in eng[:2]),
        created_at=s.ago(days=20),
        updated_at=s.ago(days=20),
    )
    low = [f.run_id for f in s.records(Feedback) if f.score == 0.0]
    for rid in low:
        s.create(QueueItem, queue_id=queue.id, run_id=rid, created_at=s.ago(days=1))
