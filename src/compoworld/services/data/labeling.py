"""Tagwise Label: data labeling projects, datasets of data rows, batches, labels, reviews and consensus.

Modeled on the Labelbox API (GraphQL/SDK objects): ``Project`` with a
``media_type``, an ontology of classes, a quality mode (``benchmark`` or
``consensus`` with a number of labels per data row) and members with roles
(LABELER, REVIEWER, TEAM_MANAGER, ADMIN); ``Dataset`` and ``DataRow`` with a
unique ``global_key`` and ``row_data`` URL; ``Batch`` (``project.create_batch``)
that queues data rows into a project with a priority; ``Label`` submitted by a
labeler with the time spent; and the workflow tasks of a label: In review,
Rework, Done (``review`` approve / reject).

A project accepts batches only while it is not completed, of rows of its own
media type, and each data row at most once. Only labelers of the project
label; the annotation must be a class of its ontology; a labeler labels a row
once, and a row takes one label (or as many as the consensus setting). A
reviewer (not the labeler) approves a label into Done or rejects it into
Rework with a comment; a relabel of a row in rework replaces it. A project
starts only with an ontology, a batch and a labeler; only its admins change
it.
"""

from __future__ import annotations

from collections import Counter
from typing import Annotated, Any, Literal

from pydantic import Field, StringConstraints

from compoworld.engine.context import Ctx
from compoworld.engine.errors import Conflict, RuleViolation
from compoworld.engine.records import CREATED, UPDATED, Record
from compoworld.engine.service import Service, Transition
from compoworld.engine.state import SeedContext
from compoworld.engine.types import DateTime, Email, IdOf, Text, Title, Url
from compoworld.services.kit.examples import first_example
from compoworld.services.kit.lists import require_employee
from compoworld.services.kit.records import Value

__all__ = ["service"]

service = Service(
    "labeling",
    title="Tagwise Label",
    category="data_labeling",
    modeled_on="Labelbox API: projects (media type, ontology, quality mode benchmark/consensus, members with roles), "
    "datasets and data rows with global keys, batches with priority, labels, review workflow (In review, Rework, "
    "Done), consensus agreement",
    description="Training-data labeling for the ML team: labeling projects with their ontology and members, "
    "datasets of images, text and documents, batches queued into projects, labels submitted by labelers, "
    "reviews that approve or send labels to rework, and consensus agreement per data row.",
)

ProjectId = Annotated[str, IdOf("labeling.project")]
DatasetId = Annotated[str, IdOf("labeling.dataset")]
RowId = Annotated[str, IdOf("labeling.data_row")]
BatchId = Annotated[str, IdOf("labeling.batch")]
MemberId = Annotated[str, IdOf("labeling.member")]
LabelId = Annotated[str, IdOf("labeling.label")]

GlobalKey = Annotated[str, StringConstraints(pattern=r"^[A-Za-z0-9][A-Za-z0-9_./-]{0,199}$")]
"""A data row's key, unique across the organization."""
ClassName = Annotated[str, StringConstraints(pattern=r"^[a-z][a-z0-9_]{0,39}$")]
"""An ontology class such as damaged_box."""

MediaType = Literal["image", "text", "document", "video"]
ProjectStatus = Literal["setup", "active", "paused", "completed"]
QualityMode = Literal["benchmark", "consensus"]
Role = Literal["labeler", "reviewer", "team_manager", "admin"]
LabelStatus = Literal["in_review", "rework", "done"]
Decision = Literal["approve", "reject"]


class Project(Record):
    """A labeling project."""

    id: ProjectId
    name: Title
    """Its unique name."""
    media_type: MediaType
    """image, text, document or video."""
    ontology: tuple[ClassName, ...] = ()
    """The classes labelers choose from."""
    quality_mode: QualityMode = "benchmark"
    """benchmark (one label per row) or consensus (several)."""
    consensus_votes: Annotated[int, Field(ge=1, le=5)] = 1
    """Labels per data row (2-5 in consensus mode)."""
    status: ProjectStatus = "setup"
    """setup, active, paused or completed."""
    description: Text = ""
    """What is being labeled and why."""
    created_by: Email
    """The employee who created it (its first admin)."""
    created_at: Annotated[DateTime, CREATED]
    """When it was created."""
    updated_at: Annotated[DateTime, UPDATED]
    """When it last changed."""


class Dataset(Record):
    """A dataset of data rows."""

    id: DatasetId
    name: Title
    """Its name."""
    media_type: MediaType
    """The kind of rows it holds."""
    created_by: Email
    """Who created it."""
    created_at: Annotated[DateTime, CREATED]
    """When it was created."""


class DataRow(Record):
    """An asset to label: an image, a text, a document or a video."""

    id: RowId
    dataset_id: DatasetId
    """Its dataset."""
    global_key: GlobalKey
    """Its unique key."""
    row_data: Url
    """Where the asset lives."""
    media_type: MediaType
    """Its kind (the dataset's)."""
    created_at: Annotated[DateTime, CREATED]
    """When it was added."""


class Batch(Record):
    """Data rows queued into a project."""

    id: BatchId
    project_id: ProjectId
    """The project."""
    name: Title
    """Its name."""
    data_row_ids: tuple[RowId, ...]
    """The rows it queues."""
    priority: Annotated[int, Field(ge=1, le=5)] = 5
    """1 (first) to 5 (last)."""
    created_at: Annotated[DateTime, CREATED]
    """When it was queued."""


class Member(Record):
    """A person's role in a project."""

    id: MemberId
    project_id: ProjectId
    """The project."""
    email: Email
    """The member (staff or a contractor of a labeling vendor)."""
    role: Role = "labeler"
    """labeler, reviewer, team_manager or admin."""
    created_at: Annotated[DateTime, CREATED]
    """When they joined."""


class Label(Record):
    """A labeler's annotation of a data row in a project."""

    id: LabelId
    project_id: ProjectId
    """The project."""
    data_row_id: RowId
    """The data row."""
    labeler_email: Email
    """Who labeled it."""
    annotation: ClassName
    """The chosen class."""
    seconds_spent: Annotated[int, Field(ge=0, le=86400)] = 0
    """Time spent labeling."""
    status: LabelStatus = "in_review"
    """in_review, rework or done."""
    reviewer_email: Email | None = None
    """Who reviewed it."""
    review_comment: Text = ""
    """The reviewer's comment."""
    created_at: Annotated[DateTime, CREATED]
    """When it was submitted."""
    updated_at: Annotated[DateTime, UPDATED]
    """When it last changed."""


class Agreement(Value):
    """Consensus on one data row."""

    data_row_id: RowId
    """The row."""
    labels: int
    """Labels submitted (rework excluded)."""
    majority: ClassName | None
    """The most chosen class (ties: alphabetical)."""
    agreement: float
    """Share of labels choosing the majority (0-1)."""


class Progress(Value):
    """A project's progress."""

    project_id: ProjectId
    """The project."""
    queued_rows: int
    """Rows in its batches."""
    unlabeled_rows: int
    """Queued rows without enough labels yet."""
    labels_by_status: dict[LabelStatus, int]
    """Labels per status."""


# -- rules ------------------------------------------------------------------------------------


def _role(ctx: Ctx, project_id: str, email: str) -> str | None:
    m = ctx.first(Member, project_id=project_id, email=email)
    return None if m is None else m.role


def _guard_project(ctx: Ctx, new: Any, old: Any) -> None:
    if new.quality_mode == "consensus" and new.consensus_votes < 2:
        raise RuleViolation("consensus needs 2-5 labels per row", field="consensus_votes", hint="set 2 or more")
    if new.quality_mode == "benchmark" and new.consensus_votes != 1:
        raise RuleViolation("benchmark projects take one label per row", field="consensus_votes", hint="set 1")
    if old is None:
        return
    if old.status == "completed" and new.status == "completed":
        raise RuleViolation(f"project {old.name} is completed", field="project_id", hint="create a new project")
    if new.ontology != old.ontology and ctx.first(Label, project_id=old.id) is not None:
        dropped = set(old.ontology) - set(new.ontology)
        if dropped:
            raise RuleViolation(
                f"classes {sorted(dropped)} are used by labels",
                field="ontology",
                hint="only add classes once labeling began",
            )
    if new.status == "active" and old.status == "setup":
        if not new.ontology:
            raise RuleViolation("the project has no ontology", field="project_id", hint="set its classes first")
        if ctx.first(Batch, project_id=old.id) is None:
            raise RuleViolation("the project has no batch", field="project_id", hint="queue data rows first")
        if ctx.first(Member, project_id=old.id, role="labeler") is None:
            raise RuleViolation("the project has no labeler", field="project_id", hint="add a labeler first")


def _guard_member_delete(ctx: Ctx, new: Any, old: Any) -> None:
    if old.role == "admin" and len(ctx.where(Member, project_id=old.project_id, role="admin")) == 1:
        raise RuleViolation(
            "a project keeps at least one admin", field="member_id", hint="make someone else admin first"
        )


projects = service.resource(
    Project,
    name="project",
    plural="projects",
    prefix="lbp",
    create=False,
    search=("name", "description"),
    filters=("status", "media_type", "quality_mode", "created_by", "name"),
    update=("description", "ontology", "quality_mode", "consensus_votes"),
    delete=False,
    transitions={
        "start": Transition("status", ("setup",), "active", "start labeling the project"),
        "pause": Transition("status", ("active",), "paused", "pause the labeling project"),
        "resume": Transition("status", ("paused",), "active", "resume the labeling project"),
        "complete": Transition("status", ("active", "paused"), "completed", "complete the labeling project"),
    },
    guard_update=_guard_project,
)
datasets = service.resource(
    Dataset,
    name="dataset",
    plural="datasets",
    prefix="ds",
    create=("name", "media_type", "created_by"),
    filters=("media_type", "created_by", "name"),
    search=("name",),
    delete=False,
)
rows = service.resource(
    DataRow,
    name="data_row",
    plural="data_rows",
    prefix="dr",
    create=False,
    filters=("dataset_id", "global_key", "media_type"),
    search=("global_key",),
    delete=False,
    title="data row",
)
batches = service.resource(
    Batch,
    name="batch",
    plural="batches",
    prefix="bat",
    create=False,
    filters=("project_id", "priority"),
    search=("name",),
    delete=False,
)
members = service.resource(
    Member,
    name="member",
    plural="members",
    prefix="mem",
    create=False,
    get=False,
    filters=("project_id", "email", "role"),
    guard_delete=_guard_member_delete,
    title="project member",
)
labels = service.resource(
    Label,
    name="label",
    plural="labels",
    prefix="lbl",
    create=False,
    filters=("project_id", "data_row_id", "labeler_email", "status", "annotation", "reviewer_email"),
    delete=False,
)


# -- domain tools -----------------------------------------------------------------------------


def _example_project(ctx: Ctx) -> dict[str, Any] | None:
    return {
        "name": "Receipt line items",
        "media_type": "document",
        "ontology": ["line_item", "total", "tax"],
        "created_by": ctx.population.staff("Engineering", fallback=1)[0].email,
    }


@service.tool(intent="create the labeling project", write=True, example=_example_project)
def create_project(
    ctx: Ctx,
    name: Title,
    media_type: MediaType,
    created_by: Email,
    ontology: Annotated[list[ClassName], Field(max_length=50)] | None = None,
    quality_mode: QualityMode = "benchmark",
    consensus_votes: Annotated[int, Field(ge=1, le=5)] = 1,
    description: Text = "",
) -> Project:
    """Create a project (unique name); its creator becomes its admin.

    Args:
        name: Its unique name.
        media_type: image, text, document or video.
        created_by: The employee creating it.
        ontology: The classes labelers choose from (distinct).
        quality_mode: benchmark or consensus.
        consensus_votes: Labels per row: 1 for benchmark, 2-5 for consensus.
        description: What is being labeled and why.
    """
    require_employee(ctx, created_by, field="created_by", hint="projects are created by staff")
    if any(p.name.casefold() == name.casefold() for p in ctx.scan(Project)):
        raise Conflict(f"a project is already named {name!r}", field="name", hint="pick another name")
    classes = tuple(ontology or ())
    if len(set(classes)) != len(classes):
        raise RuleViolation("a class is listed twice", field="ontology", hint="list each class once")
    project = ctx.create(
        Project,
        name=name,
        media_type=media_type,
        ontology=classes,
        quality_mode=quality_mode,
        consensus_votes=consensus_votes,
        description=description,
        created_by=created_by,
    )
    _guard_project(ctx, project, None)
    ctx.create(Member, project_id=project.id, email=created_by, role="admin")
    return project


def _example_member(ctx: Ctx) -> dict[str, Any] | None:
    project = ctx.first(Project, status="active")
    if project is None:
        return None
    admin = ctx.first(Member, project_id=project.id, role="admin")
    taken = {m.email for m in ctx.where(Member, project_id=project.id)}
    new = next((p.email for p in ctx.population.employees if p.email not in taken), None)
    if admin is None or new is None:
        return None
    return {"project_id": project.id, "email": new, "role": "reviewer", "added_by": admin.email}


@service.tool(intent="add a member to the labeling project", write=True, example=_example_member)
def add_member(ctx: Ctx, project_id: ProjectId, email: Email, added_by: Email, role: Role = "labeler") -> Member:
    """Give someone a role in a project (project admins only); one role per person.

    Args:
        project_id: The project.
        email: The person (staff or a vendor's labeler).
        added_by: A project admin.
        role: labeler, reviewer, team_manager or admin.
    """
    project = ctx.get(Project, project_id, field="project_id")
    if _role(ctx, project.id, added_by) != "admin":
        raise RuleViolation(
            f"{added_by} is not an admin of {project.name}", field="added_by", hint="ask a project admin"
        )
    if _role(ctx, project.id, email) is not None:
        raise Conflict(f"{email} is already a member", field="email", hint="remove the member to change the role")
    return ctx.create(Member, project_id=project.id, email=email, role=role)


def _example_rows(ctx: Ctx) -> dict[str, Any] | None:
    ds = ctx.first(Dataset, media_type="image")
    if ds is None:
        return None
    return {
        "dataset_id": ds.id,
        "rows": [{"global_key": "dock-cam/2026-03-02/0001.jpg", "row_data": "https://assets.example.com/0001.jpg"}],
    }


class RowIn(Value):
    """A data row to add."""

    global_key: GlobalKey
    """Its unique key."""
    row_data: Url
    """Where the asset lives."""


@service.tool(intent="add data rows to the dataset", write=True, example=_example_rows)
def create_data_rows(
    ctx: Ctx, dataset_id: DatasetId, rows: Annotated[list[RowIn], Field(min_length=1, max_length=500)]
) -> list[DataRow]:
    """Add data rows to a dataset (at most 500 at once); global keys are unique.

    Args:
        dataset_id: The dataset.
        rows: Each row's global key and URL.
    """
    ds = ctx.get(Dataset, dataset_id, field="dataset_id")
    keys = [r.global_key for r in rows]
    if len(set(keys)) != len(keys):
        raise RuleViolation("a global key appears twice", field="rows", hint="give each row its own key")
    for k in keys:
        if ctx.first(DataRow, global_key=k) is not None:
            raise Conflict(f"global key {k} is taken", field="rows", hint="reuse the existing data row")
    return [
        ctx.create(DataRow, dataset_id=ds.id, global_key=r.global_key, row_data=r.row_data, media_type=ds.media_type)
        for r in rows
    ]


def _queued(ctx: Ctx, project_id: str) -> set[str]:
    return {r for b in ctx.where(Batch, project_id=project_id) for r in b.data_row_ids}


def _example_batch(ctx: Ctx) -> dict[str, Any] | None:
    for p in ctx.where(Project, status="active"):
        done = _queued(ctx, p.id)
        free = [r.id for r in ctx.where(DataRow, media_type=p.media_type) if r.id not in done]
        if free:
            return {"project_id": p.id, "name": "Spring sample", "data_row_ids": free[:2], "priority": 2}
    return None


@service.tool(intent="queue a batch of data rows into the project", write=True, example=_example_batch)
def create_batch(
    ctx: Ctx,
    project_id: ProjectId,
    name: Title,
    data_row_ids: Annotated[list[RowId], Field(min_length=1, max_length=1000)],
    priority: Annotated[int, Field(ge=1, le=5)] = 5,
) -> Batch:
    """Queue data rows into a project that is not completed; rows of its media type, each at most once.

    Args:
        project_id: The project.
        name: The batch's name.
        data_row_ids: The rows to queue.
        priority: 1 (first) to 5 (last).
    """
    project = ctx.get(Project, project_id, field="project_id")
    if project.status == "completed":
        raise RuleViolation(f"project {project.name} is completed", field="project_id", hint="create a new project")
    if len(set(data_row_ids)) != len(data_row_ids):
        raise RuleViolation("a data row is listed twice", field="data_row_ids", hint="list each row once")
    queued = _queued(ctx, project.id)
    for rid in data_row_ids:
        row = ctx.get(DataRow, rid, field="data_row_ids")
        if row.media_type != project.media_type:
            raise RuleViolation(
                f"{row.global_key} is {row.media_type}; the project labels {project.media_type}",
                field="data_row_ids",
                hint="queue rows of the project's media type",
            )
        if rid in queued:
            raise Conflict(
                f"{row.global_key} is already queued in {project.name}", field="data_row_ids", hint="drop it"
            )
    return ctx.create(Batch, project_id=project.id, name=name, data_row_ids=tuple(data_row_ids), priority=priority)


def _live_labels(ctx: Ctx, project_id: str, row_id: str) -> list[Label]:
    return [lb for lb in ctx.where(Label, project_id=project_id, data_row_id=row_id) if lb.status != "rework"]


def _example_label(ctx: Ctx) -> dict[str, Any] | None:
    for p in ctx.where(Project, status="active"):
        for m in ctx.where(Member, project_id=p.id, role="labeler"):
            for rid in sorted(_queued(ctx, p.id)):
                mine = ctx.first(Label, project_id=p.id, data_row_id=rid, labeler_email=m.email)
                if mine is None and len(_live_labels(ctx, p.id, rid)) < p.consensus_votes:
                    return {
                        "project_id": p.id,
                        "data_row_id": rid,
                        "labeler_email": m.email,
                        "annotation": p.ontology[0],
                        "seconds_spent": 42,
                    }
    return None


@service.tool(intent="submit a label for the data row", write=True, example=_example_label)
def submit_label(
    ctx: Ctx,
    project_id: ProjectId,
    data_row_id: RowId,
    labeler_email: Email,
    annotation: ClassName,
    seconds_spent: Annotated[int, Field(ge=0, le=86400)] = 0,
) -> Label:
    """Label a queued data row of an active project; a relabel replaces the labeler's label in rework.

    Args:
        project_id: The project.
        data_row_id: A row queued in it.
        labeler_email: A labeler of the project.
        annotation: A class of the project's ontology.
        seconds_spent: Time spent labeling.
    """
    project = ctx.get(Project, project_id, field="project_id")
    if project.status != "active":
        raise RuleViolation(
            f"project {project.name} is {project.status}", field="project_id", hint="start or resume it"
        )
    if data_row_id not in _queued(ctx, project.id):
        raise RuleViolation("the data row is not queued in the project", field="data_row_id", hint="create a batch")
    if _role(ctx, project.id, labeler_email) != "labeler":
        raise RuleViolation(
            f"{labeler_email} is not a labeler of {project.name}", field="labeler_email", hint="add them"
        )
    if annotation not in project.ontology:
        raise RuleViolation(
            f"{annotation!r} is not in the ontology", field="annotation", hint=f"use one of {list(project.ontology)}"
        )
    mine = ctx.first(Label, project_id=project.id, data_row_id=data_row_id, labeler_email=labeler_email)
    if mine is not None:
        if mine.status != "rework":
            raise Conflict(f"{labeler_email} already labeled this row", field="labeler_email", hint="wait for review")
        return ctx.update(
            mine, annotation=annotation, seconds_spent=seconds_spent, status="in_review", reviewer_email=None
        )
    if len(_live_labels(ctx, project.id, data_row_id)) >= project.consensus_votes:
        raise Conflict(
            f"the row already has {project.consensus_votes} label(s)", field="data_row_id", hint="label another row"
        )
    return ctx.create(
        Label,
        project_id=project.id,
        data_row_id=data_row_id,
        labeler_email=labeler_email,
        annotation=annotation,
        seconds_spent=seconds_spent,
    )


def _example_review(ctx: Ctx) -> dict[str, Any] | None:
    for lb in ctx.where(Label, status="in_review"):
        rev = ctx.first(Member, project_id=lb.project_id, role="reviewer")
        if rev is not None:
            return {"label_id": lb.id, "reviewer_email": rev.email, "decision": "approve"}
    return None


@service.tool(intent="review the label", write=True, example=_example_review)
def review_label(ctx: Ctx, label_id: LabelId, reviewer_email: Email, decision: Decision, comment: Text = "") -> Label:
    """Approve a label in review into Done, or reject it into Rework with a comment; not one's own label.

    Args:
        label_id: The label.
        reviewer_email: A reviewer, team manager or admin of the project.
        decision: approve or reject.
        comment: Why (required to reject).
    """
    label = ctx.get(Label, label_id, field="label_id")
    if label.status != "in_review":
        raise Conflict(f"label {label.id} is {label.status}", field="label_id", hint="review labels in review")
    if _role(ctx, label.project_id, reviewer_email) not in ("reviewer", "team_manager", "admin"):
        raise RuleViolation(f"{reviewer_email} cannot review here", field="reviewer_email", hint="ask a reviewer")
    if reviewer_email == label.labeler_email:
        raise RuleViolation("nobody reviews their own label", field="reviewer_email", hint="ask another reviewer")
    if decision == "reject" and not comment.strip():
        raise RuleViolation("a rejection needs a comment", field="comment", hint="say what to fix")
    return ctx.update(
        label,
        status="done" if decision == "approve" else "rework",
        reviewer_email=reviewer_email,
        review_comment=comment.strip(),
    )


def _example_agreement(ctx: Ctx) -> dict[str, Any] | None:
    lb = ctx.first(Label)
    return None if lb is None else {"project_id": lb.project_id, "data_row_id": lb.data_row_id}


@service.tool(intent="show the consensus on the data row", example=_example_agreement)
def row_agreement(ctx: Ctx, project_id: ProjectId, data_row_id: RowId) -> Agreement:
    """How far the labels of a data row in a project agree (labels in rework excluded).

    Args:
        project_id: The project.
        data_row_id: The data row.
    """
    project = ctx.get(Project, project_id, field="project_id")
    ctx.get(DataRow, data_row_id, field="data_row_id")
    live = _live_labels(ctx, project.id, data_row_id)
    counts = Counter(lb.annotation for lb in live)
    top = sorted(counts.items(), key=lambda kv: (-kv[1], kv[0]))
    return Agreement(
        data_row_id=data_row_id,
        labels=len(live),
        majority=top[0][0] if top else None,
        agreement=round(top[0][1] / len(live), 3) if top else 0.0,
    )


@service.tool(intent="show the labeling project's progress", example=first_example(Project, "project_id"))
def project_progress(ctx: Ctx, project_id: ProjectId) -> Progress:
    """Queued rows, rows still needing labels and labels per status of a project.

    Args:
        project_id: The project.
    """
    project = ctx.get(Project, project_id, field="project_id")
    queued = _queued(ctx, project.id)
    per: dict[LabelStatus, int] = {"in_review": 0, "rework": 0, "done": 0}
    for lb in ctx.where(Label, project_id=project.id):
        per[lb.status] += 1
    short = sum(1 for r in queued if len(_live_labels(ctx, project.id, r)) < project.consensus_votes)
    return Progress(project_id=project.id, queued_rows=len(queued), unlabeled_rows=short, labels_by_status=per)


# -- seed -------------------------------------------------------------------------------------


@service.seeder
def seed(s: SeedContext) -> None:
    """Image and text projects with staff admins and reviewers, vendor labelers, batches and labels in review."""
    pop = s.population
    eng = pop.staff("Engineering", fallback=3)
    ops = pop.staff("Operations", "Support", fallback=3)
    vendor = next((c for c in pop.customers if pop.people_at(c)), None)
    outside = [p.email for p in pop.people_at(vendor)][:3] if vendor else []
    labelers = outside or [p.email for p in ops[:3]]
    img = s.create(
        Dataset, name="Warehouse dock camera", media_type="image", created_by=eng[0].email, created_at=s.ago(days=60)
    )
    txt = s.create(
        Dataset, name="Support ticket subjects", media_type="text", created_by=eng[0].email, created_at=s.ago(days=40)
    )
    img_rows = [
        s.create(
            DataRow,
            dataset_id=img.id,
            global_key=f"dock-cam/2026-02/{k:04d}.jpg",
            row_data=f"https://assets.{pop.home.domain}/dock-cam/{k:04d}.jpg",
            media_type="image",
            created_at=s.ago(days=59),
        )
        for k in range(1, 11)
    ]
    txt_rows = [
        s.create(
            DataRow,
            dataset_id=txt.id,
            global_key=f"tickets/subject-{k:03d}",
            row_data=f"https://assets.{pop.home.domain}/tickets/{k:03d}.txt",
            media_type="text",
            created_at=s.ago(days=39),
        )
        for k in range(1, 9)
    ]
    dock = s.create(
        Project,
        name="Damaged parcel detection",
        media_type="image",
        ontology=("damaged_box", "intact_box", "no_parcel"),
        quality_mode="consensus",
        consensus_votes=2,
        status="active",
        description="Flag damaged parcels at the receiving dock.",
        created_by=eng[0].email,
        created_at=s.ago(days=55),
        updated_at=s.ago(days=10),
    )
    intent = s.create(
        Project,
        name="Ticket intent",
        media_type="text",
        ontology=("billing", "bug", "how_to", "account"),
        status="setup",
        description="Intent classes for routing support tickets.",
        created_by=eng[1 % len(eng)].email,
        created_at=s.ago(days=20),
        updated_at=s.ago(days=20),
    )
    vests = s.create(
        Project,
        name="Safety vest compliance",
        media_type="image",
        ontology=("vest_worn", "no_vest"),
        status="paused",
        description="Paused until the new dock cameras are installed.",
        created_by=eng[0].email,
        created_at=s.ago(days=80),
        updated_at=s.ago(days=25),
    )
    s.create(Member, project_id=vests.id, email=eng[0].email, role="admin", created_at=vests.created_at)
    s.create(
        Batch,
        project_id=vests.id,
        name="Night shift",
        data_row_ids=tuple(r.id for r in img_rows[6:8]),
        created_at=s.ago(days=70),
    )
    s.create(
        Project,
        name="Shelf labels 2025",
        media_type="image",
        ontology=("label_ok", "label_missing"),
        status="completed",
        created_by=eng[0].email,
        created_at=s.ago(days=300),
        updated_at=s.ago(days=200),
    )
    for project, admin in ((dock, eng[0].email), (intent, eng[1 % len(eng)].email)):
        s.create(Member, project_id=project.id, email=admin, role="admin", created_at=project.created_at)
    s.create(Member, project_id=dock.id, email=ops[0].email, role="reviewer", created_at=s.ago(days=50))
    for e in labelers:
        s.create(Member, project_id=dock.id, email=e, role="labeler", created_at=s.ago(days=50))
    s.create(Member, project_id=intent.id, email=ops[1 % len(ops)].email, role="reviewer", created_at=s.ago(days=19))
    s.create(Member, project_id=intent.id, email=ops[2 % len(ops)].email, role="labeler", created_at=s.ago(days=18))
    s.create(
        Batch,
        project_id=dock.id,
        name="February sample",
        data_row_ids=tuple(r.id for r in img_rows[:6]),
        priority=1,
        created_at=s.ago(days=50),
    )
    s.create(
        Batch,
        project_id=intent.id,
        name="Pilot",
        data_row_ids=tuple(r.id for r in txt_rows[:4]),
        priority=3,
        created_at=s.ago(days=15),
    )
    classes = dock.ontology
    for k, row in enumerate(img_rows[:4]):
        for j, who in enumerate(labelers[:2]):
            status: LabelStatus = "done" if k == 0 else "rework" if (k, j) == (2, 1) else "in_review"
            s.create(
                Label,
                project_id=dock.id,
                data_row_id=row.id,
                labeler_email=who,
                annotation=classes[(k + (j if k == 1 else 0)) % len(classes)],
                seconds_spent=30 + 7 * k + j,
                status=status,
                reviewer_email=ops[0].email if status != "in_review" else None,
                review_comment="Box edge is crushed; look again." if status == "rework" else "",
                created_at=s.ago(days=40 - k),
                updated_at=s.ago(days=30 - k),
            )
