"""Deadline Desk: the editorial newsroom: the news budget, assignments, edits, approvals, embargoes, corrections.

Modeled on Arc XP's newsroom tools (WebSked planning: story budgets with
budget lines, planned publish times and assignments; Composer: ANS stories
with a workflow status, revisions, desk edits and approvals, embargoes,
``taxonomy.sections`` with a primary section, publish / unpublish, and
corrections appended to published stories) as WordPress VIP newsrooms run it:
a story is budgeted on a desk, assigned to a reporter, filed, edited by the
desk (a send-back returns it to the reporter), approved by an editor of its
desk who did not write it, and published to sections; a reporter carries at
most 5 open assignments; nothing is approved before a copy edit, nothing
published before its embargo lifts nor without a primary section; a published
story is corrected, never silently changed; spiked stories are dead.
"""

from __future__ import annotations

import datetime as dt
from typing import Annotated, Any, Literal

from pydantic import Field, StringConstraints

from compoworld.engine.context import Ctx
from compoworld.engine.errors import Conflict, RuleViolation
from compoworld.engine.records import CREATED, UPDATED, Record
from compoworld.engine.service import Service, Transition
from compoworld.engine.state import SeedContext
from compoworld.engine.types import DateTime, Email, IdOf, PersonName, Text, Title
from compoworld.services.kit.examples import first_example
from compoworld.services.kit.records import Value

__all__ = ["service"]

service = Service(
    "newsroom",
    title="Deadline Desk",
    category="newsroom",
    modeled_on="Arc XP newsroom (WebSked story budgets and assignments; Composer ANS stories with workflow "
    "status, revisions, embargoes, taxonomy sections, publish/unpublish, corrections) as run by WordPress VIP "
    "newsrooms",
    description="A newsroom's editorial workflow: the daily news budget of story slugs and budget lines by "
    "desk, reporters' assignments, filing, desk and copy edits and send-backs, editors' approvals, embargoes, "
    "publishing to website sections, and corrections on published stories.",
)

DeskId = Annotated[str, IdOf("newsroom.desk")]
StaffId = Annotated[str, IdOf("newsroom.staff")]
SectionId = Annotated[str, IdOf("newsroom.section")]
StoryId = Annotated[str, IdOf("newsroom.story")]
EditId = Annotated[str, IdOf("newsroom.edit")]
CorrectionId = Annotated[str, IdOf("newsroom.correction")]

Slug = Annotated[str, StringConstraints(pattern=r"^[a-z0-9]+(-[a-z0-9]+){0,7}$", max_length=60)]
"""A story slug such as city-budget-vote."""
SectionPath = Annotated[str, StringConstraints(pattern=r"^/[a-z0-9-]+(/[a-z0-9-]+)?$")]
"""A website section path such as /business/tech."""
Words = Annotated[int, Field(ge=50, le=10000)]
"""A length in words."""
StaffRole = Literal["reporter", "editor", "copy_editor", "photographer"]
StoryStatus = Literal["budgeted", "assigned", "filed", "edited", "approved", "published", "spiked"]
EditKind = Literal["line_edit", "copy_edit", "send_back", "note"]
CorrectionKind = Literal["correction", "clarification", "editors_note"]

MAX_OPEN = 5
OPEN: tuple[str, ...] = ("assigned", "filed", "edited")


class Desk(Record):
    """A desk of the newsroom (Metro, Business, Politics …)."""

    id: DeskId
    name: Title
    """Its name."""
    default_section_id: SectionId | None = None
    """Where its stories usually go."""


class Staff(Record):
    """A journalist of the newsroom."""

    id: StaffId
    name: PersonName
    """Their name."""
    email: Email
    """Their e-mail (unique)."""
    role: StaffRole
    """reporter, editor, copy_editor or photographer."""
    desk_id: DeskId
    """Their desk."""
    active: bool = True
    """Still on staff."""


class Section(Record):
    """A website section stories are published to."""

    id: SectionId
    path: SectionPath
    """Its path (unique)."""
    name: Title
    """Its display name."""


class Story(Record):
    """A story from budget line to publication."""

    id: StoryId
    slug: Slug
    """The budget slug (unique)."""
    budget_line: Annotated[str, StringConstraints(min_length=1, max_length=300)]
    """One or two sentences on what the story is, for the news budget."""
    desk_id: DeskId
    """The desk that owns it."""
    headline: Title | None = None
    """The headline."""
    body: Text = ""
    """The text as last filed or edited."""
    word_count: int = 0
    """Words in the body."""
    target_words: Words = 600
    """The length budgeted."""
    status: StoryStatus = "budgeted"
    """budgeted, assigned, filed, edited, approved, published or spiked."""
    reporter_email: Email | None = None
    """The reporter assigned."""
    approved_by: Email | None = None
    """The editor who approved it."""
    planned_publish_at: DateTime | None = None
    """When the budget plans it to run."""
    embargo_until: DateTime | None = None
    """Not to be published before this time."""
    section_ids: tuple[SectionId, ...] = ()
    """The sections it runs in; the first is primary."""
    published_at: DateTime | None = None
    """When it was first published."""
    corrections: int = 0
    """Corrections appended."""
    created_at: Annotated[DateTime, CREATED]
    """When it was budgeted."""
    updated_at: Annotated[DateTime, UPDATED]
    """When it last changed."""


class Edit(Record):
    """One step of a story's edit history."""

    id: EditId
    story_id: StoryId
    """The story."""
    editor_email: Email
    """Who made it."""
    kind: EditKind
    """line_edit, copy_edit, send_back or note."""
    note: Text = ""
    """What was done or asked."""
    words_after: int = 0
    """The body's length after it."""
    created_at: Annotated[DateTime, CREATED]
    """When."""


class Correction(Record):
    """A correction appended to a published story."""

    id: CorrectionId
    story_id: StoryId
    """The story."""
    kind: CorrectionKind = "correction"
    """correction, clarification or editors_note."""
    text: Annotated[str, StringConstraints(min_length=10, max_length=1000)]
    """The correction as printed."""
    issued_by: Email
    """The editor who issued it."""
    created_at: Annotated[DateTime, CREATED]
    """When it was appended."""


class BudgetLine(Value):
    """A story on the news budget."""

    story_id: StoryId
    """The story."""
    slug: str
    """Its slug."""
    desk: str
    """Its desk."""
    budget_line: str
    """What it is."""
    status: str
    """Where it is in the workflow."""
    reporter_email: str | None
    """Who is writing it."""
    planned_publish_at: dt.datetime | None
    """When it should run."""


# -- rules ------------------------------------------------------------------------------------


def _words(text: str) -> int:
    return len(text.split())


def _staff(ctx: Ctx, email: str, roles: tuple[str, ...], field: str) -> Staff:
    who = ctx.first(Staff, email=email)
    if who is None or not who.active or who.role not in roles:
        raise RuleViolation(
            f"{email} is not an active {' or '.join(roles)} of the newsroom",
            field=field,
            hint="list staff with newsroom__list_staff",
        )
    return who


def _status(story: Story, allowed: tuple[str, ...], action: str) -> None:
    if story.status not in allowed:
        raise RuleViolation(
            f"a {story.status} story cannot be {action}", field="story_id", hint=f"it must be {' or '.join(allowed)}"
        )


def _guard_story(ctx: Ctx, new: Any, old: Any) -> None:
    if old.status == "published" and (new.body != old.body or new.headline != old.headline):
        raise RuleViolation(
            "a published story is not changed silently", field="story_id", hint="append a correction instead"
        )
    if old.status == "spiked":
        raise RuleViolation("the story is spiked", field="story_id", hint="budget a new story")
    for sid in new.section_ids:
        ctx.get(Section, sid, field="section_ids")
    if new.embargo_until and new.planned_publish_at and new.planned_publish_at < new.embargo_until:
        raise RuleViolation(
            "the planned time is before the embargo lifts", field="planned_publish_at", hint="plan it later"
        )


desks = service.resource(Desk, name="desk", plural="desks", prefix="desk", create=False, delete=False)
staff = service.resource(
    Staff,
    name="staff",
    plural="staff",
    prefix="stf",
    create=False,
    filters=("desk_id", "role", "active", "email"),
    search=("name",),
    delete=False,
    title="staff member",
)
sections = service.resource(
    Section,
    name="section",
    plural="sections",
    prefix="sec",
    create=False,
    get=False,
    search=("name", "path"),
    delete=False,
    unique=("path",),
)
stories = service.resource(
    Story,
    name="story",
    plural="stories",
    prefix="story",
    create=False,
    filters=("desk_id", "status", "reporter_email", "slug"),
    search=("slug", "budget_line", "headline"),
    update=("headline", "budget_line", "target_words", "planned_publish_at", "embargo_until", "section_ids"),
    delete=False,
    transitions={
        "spike": Transition(
            "status",
            ("budgeted", "assigned", "filed", "edited", "approved"),
            "spiked",
            "spike the story",
            destructive=True,
        ),
        "unpublish": Transition("status", ("published",), "approved", "unpublish the story"),
    },
    guard_update=_guard_story,
)
edits = service.resource(
    Edit,
    name="edit",
    plural="edits",
    prefix="edit",
    create=False,
    get=False,
    filters=("story_id", "kind"),
    delete=False,
)
corrections = service.resource(
    Correction,
    name="correction",
    plural="corrections",
    prefix="corr",
    create=False,
    get=False,
    filters=("story_id", "kind", "issued_by"),
    delete=False,
)


# -- domain tools -----------------------------------------------------------------------------


def _example_budget(ctx: Ctx) -> dict[str, Any] | None:
    d = ctx.first(Desk)
    return (
        None
        if d is None
        else {
            "slug": "harbor-bridge-closure",
            "budget_line": "The harbor bridge closes for six weeks of repairs; what commuters need to know.",
            "desk_id": d.id,
            "target_words": 700,
            "planned_publish_at": (ctx.now() + dt.timedelta(hours=8)).isoformat(),
        }
    )


@service.tool(intent="put a story on the news budget", write=True, example=_example_budget)
def budget_story(
    ctx: Ctx,
    slug: Slug,
    budget_line: Annotated[str, StringConstraints(min_length=1, max_length=300)],
    desk_id: DeskId,
    target_words: Words = 600,
    planned_publish_at: DateTime | None = None,
    embargo_until: DateTime | None = None,
) -> Story:
    """Put a story on a desk's news budget under a unique slug, with its budget line and length.

    Args:
        slug: The slug (lower case words joined by hyphens).
        budget_line: What the story is, in a sentence or two.
        desk_id: The desk.
        target_words: The length budgeted.
        planned_publish_at: When it should run (not before any embargo).
        embargo_until: Not to be published before this time.
    """
    desk = ctx.get(Desk, desk_id, field="desk_id")
    if ctx.first(Story, slug=slug) is not None:
        raise Conflict(f"slug {slug!r} is taken", field="slug", hint="add a word to make it unique")
    if embargo_until and planned_publish_at and planned_publish_at < embargo_until:
        raise RuleViolation("planned before the embargo lifts", field="planned_publish_at", hint="plan it later")
    return ctx.create(
        Story,
        slug=slug,
        budget_line=budget_line,
        desk_id=desk.id,
        target_words=target_words,
        planned_publish_at=planned_publish_at,
        embargo_until=embargo_until,
        section_ids=() if desk.default_section_id is None else (desk.default_section_id,),
    )


@service.tool(
    intent="add a website section", write=True, example=lambda ctx: {"path": "/business/markets", "name": "Markets"}
)
def create_section(ctx: Ctx, path: SectionPath, name: Title) -> Section:
    """Add a website section; paths are unique and a subsection's parent must exist.

    Args:
        path: Its path (/business or /business/markets).
        name: Its display name.
    """
    if ctx.first(Section, path=path) is not None:
        raise Conflict(f"section {path} exists", field="path", hint="use it, or pick another path")
    parent = path.rsplit("/", 1)[0]
    if parent and ctx.first(Section, path=parent) is None:
        raise RuleViolation(f"the parent section {parent} does not exist", field="path", hint="create it first")
    return ctx.create(Section, path=path, name=name)


def _example_assign(ctx: Ctx) -> dict[str, Any] | None:
    for s in ctx.where(Story, status="budgeted"):
        for r in ctx.where(Staff, desk_id=s.desk_id, role="reporter", active=True):
            if len([x for x in ctx.where(Story, reporter_email=r.email) if x.status in OPEN]) < MAX_OPEN:
                return {"story_id": s.id, "reporter_email": r.email}
    return None


@service.tool(intent="assign the story to a reporter", write=True, example=_example_assign)
def assign_story(ctx: Ctx, story_id: StoryId, reporter_email: Email) -> Story:
    """Assign a budgeted (or reassign an assigned) story to an active reporter with fewer than 5 open stories.

    Args:
        story_id: The story.
        reporter_email: The reporter.
    """
    story = ctx.get(Story, story_id, field="story_id")
    _status(story, ("budgeted", "assigned"), "assigned")
    _staff(ctx, reporter_email, ("reporter",), "reporter_email")
    if story.reporter_email == reporter_email:
        raise Conflict("the reporter already has it", field="reporter_email", hint="pick another reporter")
    load = [x for x in ctx.where(Story, reporter_email=reporter_email) if x.status in OPEN]
    if len(load) >= MAX_OPEN:
        raise RuleViolation(
            f"{reporter_email} already carries {len(load)} open stories",
            field="reporter_email",
            hint="assign someone else, or wait until one is approved",
        )
    return ctx.update(story, status="assigned", reporter_email=reporter_email)


def _example_file(ctx: Ctx) -> dict[str, Any] | None:
    s = ctx.first(Story, status="assigned")
    return (
        None
        if s is None
        else {
            "story_id": s.id,
            "reporter_email": s.reporter_email,
            "headline": "Council approves new budget",
            "body": " ".join(["The council voted on the budget late Tuesday after hours of debate."] * 8),
        }
    )


@service.tool(intent="file the story", write=True, example=_example_file)
def file_story(ctx: Ctx, story_id: StoryId, reporter_email: Email, headline: Title, body: Text) -> Story:
    """The assigned reporter files the story (at least 50 words) to the desk.

    Args:
        story_id: The story.
        reporter_email: The reporter filing it (the one assigned).
        headline: A working headline.
        body: The text.
    """
    story = ctx.get(Story, story_id, field="story_id")
    _status(story, ("assigned",), "filed")
    if reporter_email != story.reporter_email:
        raise RuleViolation(
            f"the story is assigned to {story.reporter_email}", field="reporter_email", hint="only they file it"
        )
    if _words(body) < 50:
        raise RuleViolation("a filed story has at least 50 words", field="body", hint="file the full draft")
    return ctx.update(story, status="filed", headline=headline, body=body, word_count=_words(body))


def _example_edit(ctx: Ctx) -> dict[str, Any] | None:
    s = ctx.first(Story, status="filed")
    ed = None if s is None else ctx.first(Staff, role="copy_editor", active=True)
    return None if s is None or ed is None else {"story_id": s.id, "editor_email": ed.email, "kind": "copy_edit"}


@service.tool(intent="edit the story", write=True, example=_example_edit)
def edit_story(
    ctx: Ctx,
    story_id: StoryId,
    editor_email: Email,
    kind: Literal["line_edit", "copy_edit"],
    body: Text | None = None,
    headline: Title | None = None,
    note: Text = "",
) -> Edit:
    """A line edit by an editor or a copy edit by a copy editor on a filed or edited story.

    Args:
        story_id: The story.
        editor_email: The editor (line_edit) or copy editor (copy_edit).
        kind: line_edit or copy_edit.
        body: The edited text (omit to keep it).
        headline: A new headline (omit to keep it).
        note: What was changed.
    """
    story = ctx.get(Story, story_id, field="story_id")
    _status(story, ("filed", "edited"), "edited")
    _staff(ctx, editor_email, ("editor",) if kind == "line_edit" else ("copy_editor", "editor"), "editor_email")
    if editor_email == story.reporter_email:
        raise RuleViolation("a reporter does not edit their own story", field="editor_email", hint="ask the desk")
    text = story.body if body is None else body
    if _words(text) < 50:
        raise RuleViolation("the edit leaves under 50 words", field="body", hint="keep the story whole")
    ctx.update(story, status="edited", body=text, word_count=_words(text), headline=headline or story.headline)
    return ctx.create(
        Edit, story_id=story.id, editor_email=editor_email, kind=kind, note=note, words_after=_words(text)
    )


@service.tool(
    intent="send the story back to the reporter",
    write=True,
    example=first_example(Story, "story_id", where={"status": "filed"}, note="Needs a second source on the figures."),
)
def send_back_story(ctx: Ctx, story_id: StoryId, note: Annotated[str, StringConstraints(min_length=5)]) -> Story:
    """The desk returns a filed or edited story to its reporter with what it needs.

    Args:
        story_id: The story.
        note: What the reporter must do.
    """
    story = ctx.get(Story, story_id, field="story_id")
    _status(story, ("filed", "edited"), "sent back")
    desk_editor = ctx.first(Staff, desk_id=story.desk_id, role="editor", active=True)
    ctx.create(
        Edit,
        story_id=story.id,
        editor_email=desk_editor.email if desk_editor else story.reporter_email or "",
        kind="send_back",
        note=note,
        words_after=story.word_count,
    )
    return ctx.update(story, status="assigned")


def _example_approve(ctx: Ctx) -> dict[str, Any] | None:
    for s in ctx.where(Story, status="edited"):
        ed = ctx.first(Staff, desk_id=s.desk_id, role="editor", active=True)
        if ed is not None and ed.email != s.reporter_email and ctx.first(Edit, story_id=s.id, kind="copy_edit"):
            return {"story_id": s.id, "editor_email": ed.email}
    return None


@service.tool(intent="approve the story", write=True, example=_example_approve)
def approve_story(ctx: Ctx, story_id: StoryId, editor_email: Email) -> Story:
    """An editor of the story's desk, not its reporter, approves an edited story that had a copy edit.

    Args:
        story_id: The story.
        editor_email: The approving editor.
    """
    story = ctx.get(Story, story_id, field="story_id")
    _status(story, ("edited",), "approved")
    ed = _staff(ctx, editor_email, ("editor",), "editor_email")
    if ed.desk_id != story.desk_id:
        raise RuleViolation(
            "only an editor of the story's desk approves it", field="editor_email", hint="ask the desk's editor"
        )
    if ctx.first(Edit, story_id=story.id, kind="copy_edit") is None:
        raise RuleViolation("the story has not been copy edited", field="story_id", hint="send it to the copy desk")
    return ctx.update(story, status="approved", approved_by=editor_email)


def _example_publish(ctx: Ctx) -> dict[str, Any] | None:
    for s in ctx.where(Story, status="approved"):
        if s.section_ids and (s.embargo_until is None or s.embargo_until <= ctx.now()):
            return {"story_id": s.id}
    return None


@service.tool(intent="publish the story", write=True, example=_example_publish)
def publish_story(ctx: Ctx, story_id: StoryId, section_ids: list[SectionId] | None = None) -> Story:
    """Publish an approved story to its sections (the first is primary) once any embargo has lifted.

    Args:
        story_id: The story.
        section_ids: The sections to run in (omit to keep the story's own).
    """
    story = ctx.get(Story, story_id, field="story_id")
    _status(story, ("approved",), "published")
    secs = tuple(dict.fromkeys(section_ids)) if section_ids else story.section_ids
    if not secs:
        raise RuleViolation("a story needs a primary section", field="section_ids", hint="give at least one section")
    for sid in secs:
        ctx.get(Section, sid, field="section_ids")
    if story.embargo_until is not None and story.embargo_until > ctx.now():
        raise RuleViolation(
            f"the story is embargoed until {story.embargo_until:%Y-%m-%d %H:%M} UTC",
            field="story_id",
            hint="publish it after the embargo lifts",
        )
    return ctx.update(story, status="published", section_ids=secs, published_at=story.published_at or ctx.now())


def _example_correct(ctx: Ctx) -> dict[str, Any] | None:
    s = ctx.first(Story, status="published")
    ed = ctx.first(Staff, role="editor", active=True)
    return (
        None
        if s is None or ed is None
        else {
            "story_id": s.id,
            "text": "An earlier version misstated the vote count; it was 7-2.",
            "issued_by": ed.email,
        }
    )


@service.tool(intent="append a correction to the story", write=True, example=_example_correct)
def issue_correction(
    ctx: Ctx,
    story_id: StoryId,
    text: Annotated[str, StringConstraints(min_length=10, max_length=1000)],
    issued_by: Email,
    kind: CorrectionKind = "correction",
) -> Correction:
    """An editor appends a correction, clarification or editor's note to a published story.

    Args:
        story_id: The story.
        text: The correction as it will be printed.
        issued_by: The editor issuing it.
        kind: correction, clarification or editors_note.
    """
    story = ctx.get(Story, story_id, field="story_id")
    _status(story, ("published",), "corrected")
    _staff(ctx, issued_by, ("editor",), "issued_by")
    if any(c.text == text for c in ctx.where(Correction, story_id=story.id)):
        raise Conflict("this correction is already appended", field="text", hint="nothing to add")
    ctx.update(story, corrections=story.corrections + 1)
    return ctx.create(Correction, story_id=story.id, kind=kind, text=text, issued_by=issued_by)


@service.tool(intent="show the news budget", example=lambda ctx: {})
def news_budget(ctx: Ctx, desk_id: DeskId | None = None) -> list[BudgetLine]:
    """The open news budget (stories not yet published or spiked), by planned time.

    Args:
        desk_id: Only this desk.
    """
    names = {d.id: d.name for d in ctx.scan(Desk)}
    if desk_id is not None:
        ctx.get(Desk, desk_id, field="desk_id")
    rows = [
        BudgetLine(
            story_id=s.id,
            slug=s.slug,
            desk=names[s.desk_id],
            budget_line=s.budget_line,
            status=s.status,
            reporter_email=s.reporter_email,
            planned_publish_at=s.planned_publish_at,
        )
        for s in ctx.scan(Story)
        if s.status not in ("published", "spiked") and (desk_id is None or s.desk_id == desk_id)
    ]
    far = dt.datetime.max.replace(tzinfo=dt.UTC)
    return sorted(rows, key=lambda r: (r.planned_publish_at or far, r.slug))


# -- seed -------------------------------------------------------------------------------------

DESKS = (
    ("Metro", "/local", "Local"),
    ("Business", "/business", "Business"),
    ("Politics", "/politics", "Politics"),
    ("Features", "/lifestyle", "Lifestyle"),
)
FILLER = "Officials said the change would take effect next month, and residents were invited to comment. "


@service.seeder
def seed(s: SeedContext) -> None:
    """Desks with sections and staff; stories in every state about the world's companies; edits, corrections."""
    pop = s.population
    people = list(pop.employees[:16])
    desks = []
    for name, path, title in DESKS:
        sec = s.create(Section, path=path, name=title)
        desks.append(s.create(Desk, name=name, default_section_id=sec.id))
    s.create(Section, path="/business/tech", name="Tech")
    roles: tuple[StaffRole, ...] = ("editor", "reporter", "reporter", "copy_editor")
    crew: dict[str, list[Staff]] = {}
    for k, p in enumerate(people):
        d = desks[k % len(desks)]
        st = s.create(Staff, name=p.name, email=p.email, role=roles[(k // len(desks)) % 4], desk_id=d.id)
        crew.setdefault(d.id, []).append(st)
    copy_ed = next(x for xs in crew.values() for x in xs if x.role == "copy_editor")
    statuses: tuple[StoryStatus, ...] = (
        "budgeted",
        "assigned",
        "filed",
        "edited",
        "approved",
        "published",
        "published",
        "spiked",
    )
    for k, co in enumerate(pop.companies[1:17]):
        d = desks[k % len(desks)]
        editor = next(x for x in crew[d.id] if x.role == "editor")
        reporter = [x for x in crew[d.id] if x.role == "reporter"][(k // len(desks)) % 2]
        status = statuses[k % len(statuses)]
        slug = "-".join(co.name.lower().replace("&", "and").split()[:3])
        slug = "".join(ch for ch in slug if ch.isalnum() or ch == "-").strip("-") + f"-{k + 1}"
        body = (
            f"{co.name} announced changes on Tuesday. " + FILLER * 8 if status not in ("budgeted", "assigned") else ""
        )
        when = s.ago(days=2 - k % 3, hours=k)
        story = s.create(
            Story,
            slug=slug,
            budget_line=f"What {co.name}'s latest move in {co.industry.lower()} means for the city.",
            desk_id=d.id,
            headline=f"{co.name} unveils plan" if body else None,
            body=body,
            word_count=len(body.split()),
            target_words=500 + 100 * (k % 4),
            status=status,
            reporter_email=None if status == "budgeted" else reporter.email,
            approved_by=editor.email if status in ("approved", "published") else None,
            planned_publish_at=s.now + dt.timedelta(hours=2 + k) if status not in ("published", "spiked") else None,
            embargo_until=s.now + dt.timedelta(hours=6) if k == 4 else None,
            section_ids=(d.default_section_id,) if d.default_section_id else (),
            published_at=when if status == "published" else None,
            created_at=when - dt.timedelta(days=1),
            updated_at=when,
        )
        if status in ("edited", "approved", "published"):
            s.create(
                Edit,
                story_id=story.id,
                editor_email=editor.email,
                kind="line_edit",
                note="Tightened the top.",
                words_after=story.word_count,
                created_at=when - dt.timedelta(hours=3),
            )
            s.create(
                Edit,
                story_id=story.id,
                editor_email=copy_ed.email,
                kind="copy_edit",
                note="Style and spelling.",
                words_after=story.word_count,
                created_at=when - dt.timedelta(hours=2),
            )
        if status == "published" and k % 2:
            s.create(
                Correction,
                story_id=story.id,
                text=f"An earlier version misspelled the name of {co.name}.",
                issued_by=editor.email,
                created_at=when + dt.timedelta(hours=5),
            )
            s.update(story, corrections=1)
