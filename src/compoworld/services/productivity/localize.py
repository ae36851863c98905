"""Polyglot Strings: the company's software localization: projects, languages, keys, translations, people, tasks.

Modeled on the Lokalise API v2 (projects with a base language, project
languages, keys per platform, translations with reviewed and unverified flags,
contributors with per-language rights, tasks, project statistics). A key name
is unique in its project; every key has one translation per project language.
Adding a language gives every key an empty translation in it; the base
language cannot be removed. A translation respects its key's character limit;
changing the base text marks the other languages unverified and unreviewed.
Contributors write only languages they may write (admins all of them) and
review only as reviewers with access to the language; a reviewed translation
is not empty and keeps the base text's placeholders. A task assigns keys and
languages to contributors who may work on them; it is in progress once one of
its translations changes, and completes only when its translations are done
(written, or reviewed for a review task). A key in an open task is not deleted.
"""

from __future__ import annotations

import datetime as dt
import re
from typing import Annotated, Any, Literal

from pydantic import Field, StringConstraints

from compoworld.engine.context import Ctx
from compoworld.engine.errors import Conflict, RuleViolation
from compoworld.engine.records import Record
from compoworld.engine.service import Service
from compoworld.engine.state import SeedContext
from compoworld.engine.types import Date, DateTime, Email, IdOf, PersonName, Text
from compoworld.services.kit.examples import first_example, fixed_example
from compoworld.services.kit.records import Created, Timestamped, Value

__all__ = ["service"]

service = Service(
    "localize",
    title="Polyglot Strings",
    category="localization",
    modeled_on="Lokalise API v2 (projects, languages, keys, translations with is_reviewed / is_unverified, "
    "contributors with language permissions, tasks, project statistics)",
    description="Software localization: projects with a base language and target languages, string keys per "
    "platform, their translations with review and verification flags, contributors allowed to write or review "
    "languages, translation and review tasks, and per-language progress.",
)

ProjectId = Annotated[str, IdOf("localize.project")]
LanguageId = Annotated[str, IdOf("localize.language")]
KeyId = Annotated[str, IdOf("localize.key")]
TranslationId = Annotated[str, IdOf("localize.translation")]
ContributorId = Annotated[str, IdOf("localize.contributor")]
TaskId = Annotated[str, IdOf("localize.task")]

LangIso = Annotated[str, StringConstraints(pattern=r"^[a-z]{2}(_[A-Z]{2})?$")]
"""A language code as the project uses it: en, de, pt_BR."""
KeyName = Annotated[str, StringConstraints(pattern=r"^[A-Za-z0-9_.\-]{1,256}$")]
"""A key's name: letters, digits, dots, dashes and underscores."""
Platform = Literal["ios", "android", "web", "other"]

MAX_LANGUAGES = 100
_PLACEHOLDER = re.compile(r"%(?:\d+\$)?[sd@]|\{[A-Za-z0-9_]+\}")


def placeholders(text: str) -> list[str]:
    """The placeholders of a text (``%s``, ``%1$d``, ``{name}``), sorted."""
    return sorted(_PLACEHOLDER.findall(text))


class Project(Created):
    """A localization project."""

    id: ProjectId
    name: Annotated[str, StringConstraints(min_length=1, max_length=120)]
    """The project's name."""
    description: Text = ""
    """What it localizes."""
    base_lang_iso: LangIso
    """The source language the others are translated from."""


class Language(Record):
    """A language of a project."""

    id: LanguageId
    project_id: ProjectId
    """The project."""
    lang_iso: LangIso
    """Its code."""
    is_base: bool = False
    """Whether it is the project's base language."""


class Key(Timestamped):
    """A string key of a project."""

    id: KeyId
    project_id: ProjectId
    """The project."""
    key_name: KeyName
    """Its name (unique in the project)."""
    platforms: tuple[Platform, ...]
    """Where it is used."""
    description: Text = ""
    """Context for translators."""
    char_limit: Annotated[int, Field(ge=1, le=10_000)] | None = None
    """The longest a translation may be."""
    tags: tuple[str, ...] = ()
    """Tags."""


class Translation(Record):
    """A key's text in one language."""

    id: TranslationId
    project_id: ProjectId
    """The project."""
    key_id: KeyId
    """The key."""
    lang_iso: LangIso
    """The language."""
    translation: Text = ""
    """The text (empty: not translated)."""
    is_reviewed: bool = False
    """Whether a reviewer approved it."""
    is_unverified: bool = False
    """Whether the base text changed since it was written."""
    modified_by_email: Email | None = None
    """Who changed it last."""
    reviewed_by_email: Email | None = None
    """Who reviewed it."""
    modified_at: DateTime | None = None
    """When it changed last."""


class LanguageRight(Value):
    """A contributor's access to one language."""

    lang_iso: LangIso
    """The language."""
    is_writable: bool = True
    """Whether they may write it (else only read)."""


class Contributor(Created):
    """Someone who works on a project."""

    id: ContributorId
    project_id: ProjectId
    """The project."""
    email: Email
    """Their e-mail (one contributor per project)."""
    fullname: PersonName
    """Their name."""
    is_admin: bool = False
    """Admins write every language and manage the project."""
    is_reviewer: bool = False
    """Whether they may review their languages."""
    languages: tuple[LanguageRight, ...] = ()
    """The languages they work on."""


class TaskLanguage(Value):
    """A language of a task and who works on it."""

    lang_iso: LangIso
    """The language."""
    assignee_emails: tuple[Email, ...]
    """Who works on it."""


class Task(Created):
    """A translation or review task."""

    id: TaskId
    project_id: ProjectId
    """The project."""
    title: Annotated[str, StringConstraints(min_length=1, max_length=200)]
    """The task's title."""
    task_type: Literal["translation", "review"] = "translation"
    """translation or review."""
    key_ids: tuple[KeyId, ...]
    """The keys to work on."""
    languages: tuple[TaskLanguage, ...]
    """The languages and their assignees."""
    status: Literal["created", "in_progress", "completed"] = "created"
    """created, in_progress (a translation changed) or completed."""
    due_date: Date | None = None
    """When it is due."""
    created_by_email: Email
    """Who created it."""
    completed_at: DateTime | None = None
    """When it was completed."""


class Assignment(Value):
    """A language of a new task and who works on it."""

    lang_iso: LangIso
    """The language."""
    assignee_emails: list[Email]
    """Who works on it."""


class LanguageProgress(Value):
    """How far one language is."""

    lang_iso: LangIso
    """The language."""
    translated: int
    """Keys with a translation."""
    reviewed: int
    """Keys with a reviewed translation."""
    unverified: int
    """Translations waiting for verification after a base change."""
    progress_percent: int
    """Translated keys in percent."""


class ProjectStatistics(Value):
    """A project's progress."""

    project_id: ProjectId
    """The project."""
    keys: int
    """Its keys."""
    languages: tuple[LanguageProgress, ...]
    """Progress per language."""


# -- rules ------------------------------------------------------------------------------------


def _language(ctx: Ctx, project_id: str, iso: str, field: str) -> Language:
    lang = ctx.first(Language, project_id=project_id, lang_iso=iso)
    if lang is None:
        have = [lg.lang_iso for lg in ctx.where(Language, project_id=project_id)]
        raise RuleViolation(
            f"{iso} is not a language of the project", field=field, hint=f"use one of {', '.join(have)}, or add it"
        )
    return lang


def _contributor(ctx: Ctx, project_id: str, email: str, field: str) -> Contributor:
    person = ctx.first(Contributor, project_id=project_id, email=email)
    if person is None:
        raise RuleViolation(
            f"{email} is not a contributor of the project",
            field=field,
            hint="add them with localize__create_contributor first",
        )
    return person


def _may_write(person: Contributor, iso: str) -> bool:
    return person.is_admin or any(r.lang_iso == iso and r.is_writable for r in person.languages)


def _may_review(person: Contributor, iso: str) -> bool:
    return person.is_reviewer and (person.is_admin or any(r.lang_iso == iso for r in person.languages))


def _base_text(ctx: Ctx, key: Key) -> str:
    project = ctx.get(Project, key.project_id)
    base = ctx.first(Translation, key_id=key.id, lang_iso=project.base_lang_iso)
    return base.translation if base else ""


def _touch_tasks(ctx: Ctx, tr: Translation) -> None:
    for task in ctx.where(Task, project_id=tr.project_id, status="created"):
        if tr.key_id in task.key_ids and any(lg.lang_iso == tr.lang_iso for lg in task.languages):
            ctx.update(task, status="in_progress")


# -- guards and resources ---------------------------------------------------------------------


def _guard_contributor(ctx: Ctx, new: Any, old: Any) -> None:
    for other in ctx.where(Contributor, project_id=new.project_id, email=new.email):
        if other.id != new.id:
            raise Conflict(
                f"{new.email} already contributes to the project ({other.id})",
                field="email",
                hint="update that contributor's rights instead",
            )
    isos = [r.lang_iso for r in new.languages]
    if len(set(isos)) != len(isos):
        raise RuleViolation("a language is listed twice", field="languages", hint="list each language once")
    for iso in isos:
        _language(ctx, new.project_id, iso, "languages")
    if not new.is_admin and not isos:
        raise RuleViolation(
            "a contributor who is not an admin needs at least one language",
            field="languages",
            hint="give the languages they work on",
        )


def _guard_key_delete(ctx: Ctx, new: Any, old: Any) -> None:
    for task in ctx.where(Task, project_id=old.project_id):
        if task.status != "completed" and old.id in task.key_ids:
            raise RuleViolation(
                f"key {old.key_name} is part of the open task {task.title!r}",
                field="key_id",
                hint="complete the task first",
            )
    for tr in ctx.where(Translation, key_id=old.id):
        ctx.delete(tr)


projects = service.resource(
    Project,
    name="project",
    plural="projects",
    prefix="lpr",
    create=False,
    get=False,
    filters=("base_lang_iso",),
    search=("name", "description"),
    delete=False,
)
languages = service.resource(
    Language,
    name="language",
    plural="languages",
    prefix="lng",
    create=False,
    get=False,
    filters=("project_id", "lang_iso", "is_base"),
    delete=False,
)
keys = service.resource(
    Key,
    name="key",
    plural="keys",
    prefix="key",
    create=False,
    get=False,
    filters=("project_id", "key_name"),
    search=("key_name", "description"),
    delete=True,
    guard_delete=_guard_key_delete,
)
translations = service.resource(
    Translation,
    name="translation",
    plural="translations",
    prefix="trn",
    create=False,
    get=False,
    filters=("project_id", "key_id", "lang_iso", "is_reviewed", "is_unverified"),
    search=("translation",),
    delete=False,
)
contributors = service.resource(
    Contributor,
    name="contributor",
    plural="contributors",
    prefix="ctb",
    create=("project_id", "email", "fullname", "is_admin", "is_reviewer", "languages"),
    get=False,
    filters=("project_id", "email", "is_reviewer"),
    search=("fullname",),
    delete=False,
    guard_create=_guard_contributor,
)
tasks = service.resource(
    Task,
    name="task",
    plural="tasks",
    prefix="tsk",
    create=False,
    get=False,
    filters=("project_id", "status", "task_type"),
    search=("title",),
    delete=False,
)


# -- examples ---------------------------------------------------------------------------------


def _example_update(ctx: Ctx) -> dict[str, Any] | None:
    for person in ctx.scan(Contributor):
        for right in person.languages:
            if not right.is_writable:
                continue
            for tr in ctx.where(Translation, project_id=person.project_id, lang_iso=right.lang_iso):
                key = ctx.get(Key, tr.key_id)
                text = _base_text(ctx, key)
                if text and not tr.is_reviewed and (key.char_limit is None or len(text) <= key.char_limit):
                    return {"translation_id": tr.id, "translation": text, "contributor_email": person.email}
    return None


def _example_review(ctx: Ctx) -> dict[str, Any] | None:
    for person in ctx.where(Contributor, is_reviewer=True):
        for tr in ctx.where(Translation, project_id=person.project_id, is_reviewed=False):
            key = ctx.get(Key, tr.key_id)
            same = placeholders(tr.translation) == placeholders(_base_text(ctx, key))
            if tr.translation and _may_review(person, tr.lang_iso) and same:
                return {"translation_id": tr.id, "reviewer_email": person.email}
    return None


def _example_key(ctx: Ctx) -> dict[str, Any] | None:
    project = ctx.first(Project)
    return (
        None
        if project is None
        else {
            "project_id": project.id,
            "key_name": "checkout.coupon.applied",
            "platforms": ["web"],
            "base_translation": "Coupon {code} applied",
        }
    )


def _example_language(ctx: Ctx) -> dict[str, Any] | None:
    project = ctx.first(Project)
    return None if project is None else {"project_id": project.id, "lang_iso": "it"}


def _example_task(ctx: Ctx) -> dict[str, Any] | None:
    for person in ctx.scan(Contributor):
        writable = [r.lang_iso for r in person.languages if r.is_writable]
        admin = ctx.first(Contributor, project_id=person.project_id, is_admin=True)
        key = ctx.first(Key, project_id=person.project_id)
        if writable and admin is not None and key is not None:
            return {
                "project_id": person.project_id,
                "title": "Translate the new strings",
                "key_ids": [key.id],
                "languages": [{"lang_iso": writable[0], "assignee_emails": [person.email]}],
                "created_by_email": admin.email,
            }
    return None


def _example_complete(ctx: Ctx) -> dict[str, Any] | None:
    for task in ctx.scan(Task):
        if task.status != "completed" and not _unfinished(ctx, task):
            return {"task_id": task.id}
    return None


# -- projects and languages -------------------------------------------------------------------


@service.tool(
    intent="create a localization project",
    write=True,
    example=fixed_example(name="Help center", base_lang_iso="en"),
)
def create_project(
    ctx: Ctx,
    name: Annotated[str, StringConstraints(min_length=1, max_length=120)],
    base_lang_iso: LangIso,
    description: Text = "",
) -> Project:
    """Create a project with its base language.

    Args:
        name: The project's name.
        base_lang_iso: The source language.
        description: What it localizes.
    """
    project = ctx.create(Project, name=name, base_lang_iso=base_lang_iso, description=description)
    ctx.create(Language, project_id=project.id, lang_iso=base_lang_iso, is_base=True)
    return project


@service.tool(intent="add a language to the project", write=True, example=_example_language)
def add_language(ctx: Ctx, project_id: ProjectId, lang_iso: LangIso) -> Language:
    """Add a language; every key gets an empty translation in it.

    Args:
        project_id: The project.
        lang_iso: The language code.
    """
    project = ctx.get(Project, project_id, field="project_id")
    if ctx.first(Language, project_id=project.id, lang_iso=lang_iso) is not None:
        raise Conflict(f"{lang_iso} is already a language of {project.name}", field="lang_iso", hint="nothing to add")
    if len(ctx.where(Language, project_id=project.id)) >= MAX_LANGUAGES:
        raise RuleViolation(
            f"a project has at most {MAX_LANGUAGES} languages", field="lang_iso", hint="remove one first"
        )
    lang = ctx.create(Language, project_id=project.id, lang_iso=lang_iso)
    for key in ctx.where(Key, project_id=project.id):
        ctx.create(Translation, project_id=project.id, key_id=key.id, lang_iso=lang_iso)
    return lang


@service.tool(
    intent="remove the language from the project",
    write=True,
    destructive=True,
    example=first_example(Language, "language_id", where={"is_base": False}),
)
def remove_language(ctx: Ctx, language_id: LanguageId) -> Language:
    """Remove a language and its translations; the base language stays, as do languages of open tasks.

    Args:
        language_id: The project language.
    """
    lang = ctx.get(Language, language_id, field="language_id")
    if lang.is_base:
        raise RuleViolation(
            f"{lang.lang_iso} is the project's base language", field="language_id", hint="it cannot be removed"
        )
    for task in ctx.where(Task, project_id=lang.project_id):
        if task.status != "completed" and any(lg.lang_iso == lang.lang_iso for lg in task.languages):
            raise RuleViolation(
                f"the open task {task.title!r} works on {lang.lang_iso}",
                field="language_id",
                hint="complete the task first",
            )
    for tr in ctx.where(Translation, project_id=lang.project_id, lang_iso=lang.lang_iso):
        ctx.delete(tr)
    ctx.delete(lang)
    return lang


@service.tool(intent="show the project's progress", example=first_example(Project, "project_id"))
def project_statistics(ctx: Ctx, project_id: ProjectId) -> ProjectStatistics:
    """Translated, reviewed and unverified keys per language.

    Args:
        project_id: The project.
    """
    project = ctx.get(Project, project_id, field="project_id")
    n = len(ctx.where(Key, project_id=project.id))
    out = []
    for lang in ctx.where(Language, project_id=project.id):
        trs = ctx.where(Translation, project_id=project.id, lang_iso=lang.lang_iso)
        done = sum(bool(t.translation) for t in trs)
        out.append(
            LanguageProgress(
                lang_iso=lang.lang_iso,
                translated=done,
                reviewed=sum(t.is_reviewed for t in trs),
                unverified=sum(t.is_unverified for t in trs),
                progress_percent=round(100 * done / n) if n else 0,
            )
        )
    return ProjectStatistics(project_id=project.id, keys=n, languages=tuple(out))


# -- keys and translations --------------------------------------------------------------------


@service.tool(intent="add a string key", write=True, example=_example_key)
def create_key(
    ctx: Ctx,
    project_id: ProjectId,
    key_name: KeyName,
    platforms: list[Platform],
    base_translation: Text,
    description: Text = "",
    char_limit: Annotated[int, Field(ge=1, le=10_000)] | None = None,
    tags: list[Annotated[str, StringConstraints(min_length=1, max_length=40)]] | None = None,
) -> Key:
    """Add a key with its base-language text; every other language gets an empty translation.

    Args:
        project_id: The project.
        key_name: The key's name (unique in the project).
        platforms: Where it is used (at least one).
        base_translation: The text in the base language.
        description: Context for translators.
        char_limit: The longest a translation may be.
        tags: Tags.
    """
    project = ctx.get(Project, project_id, field="project_id")
    if ctx.first(Key, project_id=project.id, key_name=key_name) is not None:
        raise Conflict(f"key {key_name} exists in {project.name}", field="key_name", hint="use another name")
    if not platforms or len(set(platforms)) != len(platforms):
        raise RuleViolation("name each platform once, at least one", field="platforms", hint="e.g. ['web']")
    if char_limit is not None and len(base_translation) > char_limit:
        raise RuleViolation(
            f"the base text has {len(base_translation)} characters, over the limit of {char_limit}",
            field="base_translation",
            hint="shorten it or raise char_limit",
        )
    key = ctx.create(
        Key,
        project_id=project.id,
        key_name=key_name,
        platforms=tuple(platforms),
        description=description,
        char_limit=char_limit,
        tags=tuple(tags or ()),
    )
    for lang in ctx.where(Language, project_id=project.id):
        text = base_translation if lang.is_base else ""
        ctx.create(
            Translation,
            project_id=project.id,
            key_id=key.id,
            lang_iso=lang.lang_iso,
            translation=text,
            modified_at=ctx.now() if text else None,
        )
    return key


@service.tool(intent="write the translation", write=True, example=_example_update)
def update_translation(
    ctx: Ctx, translation_id: TranslationId, translation: Text, contributor_email: Email
) -> Translation:
    """Write a translation as a contributor allowed to write its language, within the key's character limit.

    The new text is unreviewed and verified; a new base-language text marks the
    key's other translations unverified and unreviewed.

    Args:
        translation_id: The translation.
        translation: The new text.
        contributor_email: Who writes it.
    """
    tr = ctx.get(Translation, translation_id, field="translation_id")
    person = _contributor(ctx, tr.project_id, contributor_email, "contributor_email")
    if not _may_write(person, tr.lang_iso):
        raise RuleViolation(
            f"{person.email} may not write {tr.lang_iso}",
            field="contributor_email",
            hint="ask an admin to give them write access to the language",
        )
    key = ctx.get(Key, tr.key_id)
    if key.char_limit is not None and len(translation) > key.char_limit:
        raise RuleViolation(
            f"{len(translation)} characters, over the key's limit of {key.char_limit}",
            field="translation",
            hint=f"shorten it to {key.char_limit} characters",
        )
    if translation == tr.translation:
        raise Conflict("the translation already reads so", field="translation", hint="nothing to change")
    project = ctx.get(Project, tr.project_id)
    if tr.lang_iso == project.base_lang_iso:
        for other in ctx.where(Translation, key_id=key.id):
            if other.id != tr.id and other.translation:
                ctx.update(other, is_unverified=True, is_reviewed=False, reviewed_by_email=None)
    new = ctx.update(
        tr,
        translation=translation,
        is_reviewed=False,
        is_unverified=False,
        reviewed_by_email=None,
        modified_by_email=person.email,
        modified_at=ctx.now(),
    )
    _touch_tasks(ctx, new)
    return new


@service.tool(intent="mark the translation reviewed", write=True, example=_example_review)
def review_translation(ctx: Ctx, translation_id: TranslationId, reviewer_email: Email) -> Translation:
    """Mark a translation reviewed, as a reviewer with access to its language.

    It must not be empty and must keep the base text's placeholders (%s, %1$d, {name}).

    Args:
        translation_id: The translation.
        reviewer_email: Who reviews it.
    """
    tr = ctx.get(Translation, translation_id, field="translation_id")
    person = _contributor(ctx, tr.project_id, reviewer_email, "reviewer_email")
    if not _may_review(person, tr.lang_iso):
        raise RuleViolation(
            f"{person.email} may not review {tr.lang_iso}",
            field="reviewer_email",
            hint="pick a reviewer with access to the language",
        )
    if tr.is_reviewed:
        raise Conflict("the translation is already reviewed", field="translation_id", hint="nothing to do")
    if not tr.translation:
        raise RuleViolation("the translation is empty", field="translation_id", hint="translate it first")
    base = _base_text(ctx, ctx.get(Key, tr.key_id))
    if placeholders(tr.translation) != placeholders(base):
        raise RuleViolation(
            f"placeholders differ from the base text: {placeholders(tr.translation)} vs {placeholders(base)}",
            field="translation_id",
            hint="fix the translation with localize__update_translation first",
        )
    new = ctx.update(tr, is_reviewed=True, is_unverified=False, reviewed_by_email=person.email)
    _touch_tasks(ctx, new)
    return new


# -- tasks ------------------------------------------------------------------------------------


def _unfinished(ctx: Ctx, task: Task) -> list[Translation]:
    out = []
    for lg in task.languages:
        for key_id in task.key_ids:
            tr = ctx.first(Translation, key_id=key_id, lang_iso=lg.lang_iso)
            if tr is None:
                continue
            if not tr.translation or (task.task_type == "review" and not tr.is_reviewed):
                out.append(tr)
    return out


@service.tool(intent="create a translation task", write=True, example=_example_task)
def create_task(
    ctx: Ctx,
    project_id: ProjectId,
    title: Annotated[str, StringConstraints(min_length=1, max_length=200)],
    key_ids: list[KeyId],
    languages: list[Assignment],
    created_by_email: Email,
    task_type: Literal["translation", "review"] = "translation",
    due_date: Date | None = None,
) -> Task:
    """Create a task on keys of the project for some of its (non-base) languages, each with its assignees.

    Only admins create tasks; assignees must be able to write the language (a
    translation task) or review it (a review task).

    Args:
        project_id: The project.
        title: The task's title.
        key_ids: The keys.
        languages: Each language and who works on it.
        created_by_email: Who creates it (an admin).
        task_type: translation or review.
        due_date: When it is due.
    """
    project = ctx.get(Project, project_id, field="project_id")
    creator = _contributor(ctx, project.id, created_by_email, "created_by_email")
    if not creator.is_admin:
        raise RuleViolation(
            f"{creator.email} is not an admin of the project", field="created_by_email", hint="ask an admin"
        )
    if not key_ids or len(set(key_ids)) != len(key_ids):
        raise RuleViolation("name each key once, at least one", field="key_ids", hint="list the keys")
    for key_id in key_ids:
        if ctx.get(Key, key_id, field="key_ids").project_id != project.id:
            raise RuleViolation(f"key {key_id} is of another project", field="key_ids", hint="use this project's keys")
    if not languages or len({lg.lang_iso for lg in languages}) != len(languages):
        raise RuleViolation("name each language once, at least one", field="languages", hint="list the languages")
    for lg in languages:
        lang = _language(ctx, project.id, lg.lang_iso, "languages")
        if lang.is_base:
            raise RuleViolation(
                "the base language is the source, not a task language", field="languages", hint="pick target languages"
            )
        if not lg.assignee_emails:
            raise RuleViolation(f"nobody is assigned to {lg.lang_iso}", field="languages", hint="assign someone")
        for email in lg.assignee_emails:
            person = _contributor(ctx, project.id, email, "languages")
            allowed = _may_review(person, lg.lang_iso) if task_type == "review" else _may_write(person, lg.lang_iso)
            if not allowed:
                raise RuleViolation(
                    f"{email} may not {'review' if task_type == 'review' else 'write'} {lg.lang_iso}",
                    field="languages",
                    hint="assign contributors with the right access",
                )
    return ctx.create(
        Task,
        project_id=project.id,
        title=title,
        task_type=task_type,
        key_ids=tuple(key_ids),
        languages=tuple(
            TaskLanguage(lang_iso=lg.lang_iso, assignee_emails=tuple(lg.assignee_emails)) for lg in languages
        ),
        due_date=due_date,
        created_by_email=creator.email,
    )


@service.tool(intent="complete the task", write=True, example=_example_complete)
def complete_task(ctx: Ctx, task_id: TaskId) -> Task:
    """Complete a task whose translations are all written (a review task: all reviewed).

    Args:
        task_id: The task.
    """
    task = ctx.get(Task, task_id, field="task_id")
    if task.status == "completed":
        raise Conflict(f"task {task.title!r} is already completed", field="task_id", hint="nothing to do")
    left = _unfinished(ctx, task)
    if left:
        what = "reviewed" if task.task_type == "review" else "translated"
        raise RuleViolation(
            f"{len(left)} translation(s) of the task are not {what} yet ({', '.join(t.id for t in left[:5])})",
            field="task_id",
            hint="finish them first",
        )
    return ctx.update(task, status="completed", completed_at=ctx.now())


# -- seed -------------------------------------------------------------------------------------

STRINGS: tuple[tuple[str, str, int | None, dict[str, str]], ...] = (
    ("nav.home", "Home", 12, {"de": "Startseite", "fr": "Accueil", "es": "Inicio", "pt_BR": "Início"}),
    ("nav.settings", "Settings", 16, {"de": "Einstellungen", "fr": "Paramètres", "es": "Ajustes"}),
    ("auth.sign_in", "Sign in", 20, {"de": "Anmelden", "fr": "Se connecter", "es": "Iniciar sesión"}),
    ("auth.forgot", "Forgot your password?", None, {"de": "Passwort vergessen?", "fr": "Mot de passe oublié ?"}),
    ("cart.items", "You have %d items in your cart", None, {"de": "Sie haben %d Artikel im Warenkorb"}),
    ("cart.checkout", "Checkout", 14, {"de": "Zur Kasse", "fr": "Paiement", "es": "Pagar", "pt_BR": "Finalizar"}),
    ("greeting.user", "Welcome back, {name}!", None, {"de": "Willkommen zurück!", "fr": "Bon retour, {name} !"}),
    ("order.shipped", "Your order %s has shipped", None, {"fr": "Votre commande %s a été expédiée"}),
    ("errors.network", "Check your connection and try again.", None, {}),
    ("footer.legal", "Terms and privacy", 24, {"es": "Términos y privacidad"}),
)


@service.seeder
def seed(s: SeedContext) -> None:
    """Two projects with languages and keys, translations in every state, staff and agency contributors, tasks."""
    pop = s.population
    web = s.create(Project, name="Web shop", base_lang_iso="en", description="The storefront and account pages.")
    app = s.create(Project, name="Mobile app", base_lang_iso="en", description="iOS and Android app strings.")
    for project, isos in ((web, ("de", "fr", "es", "pt_BR")), (app, ("de", "ja"))):
        s.create(Language, project_id=project.id, lang_iso="en", is_base=True)
        for iso in isos:
            s.create(Language, project_id=project.id, lang_iso=iso)
    staff = list(pop.employees[:3])
    agency = [p for p in pop.contacts[:3]]
    people: list[tuple[Any, bool, bool, tuple[LanguageRight, ...]]] = [
        (staff[0], True, True, ()),
        (staff[1], False, True, (LanguageRight(lang_iso="de"), LanguageRight(lang_iso="fr", is_writable=False))),
        (agency[0], False, False, (LanguageRight(lang_iso="de"), LanguageRight(lang_iso="es"))),
        (agency[1], False, False, (LanguageRight(lang_iso="fr"), LanguageRight(lang_iso="pt_BR"))),
        (agency[2], False, True, (LanguageRight(lang_iso="es"), LanguageRight(lang_iso="pt_BR"))),
    ]
    for person, admin, reviewer, rights in people:
        s.create(
            Contributor,
            project_id=web.id,
            email=person.email,
            fullname=person.name,
            is_admin=admin,
            is_reviewer=reviewer,
            languages=rights,
            created_at=s.now.replace(year=s.now.year - 1),
        )
    s.create(
        Contributor,
        project_id=app.id,
        email=staff[0].email,
        fullname=staff[0].name,
        is_admin=True,
        is_reviewer=True,
        created_at=s.now.replace(year=s.now.year - 1),
    )
    keys: dict[str, Key] = {}
    for k, (name, base, limit, done) in enumerate(STRINGS):
        for project, isos in ((web, ("de", "fr", "es", "pt_BR")), (app, ("de", "ja"))):
            if project is app and k % 3:
                continue
            key = s.create(
                Key,
                project_id=project.id,
                key_name=name,
                platforms=("web",) if project is web else ("ios", "android"),
                char_limit=limit,
                description=f"Shown on the {name.split('.')[0]} screen.",
                created_at=s.now - _days(200 - k),
                updated_at=s.now - _days(100 - k),
            )
            if project is web:
                keys[name] = key
            s.create(
                Translation,
                project_id=project.id,
                key_id=key.id,
                lang_iso="en",
                translation=base,
                is_reviewed=True,
                modified_by_email=staff[0].email,
                modified_at=s.now - _days(100 - k),
            )
            for j, iso in enumerate(isos):
                text = done.get(iso, "") if project is web else ""
                s.create(
                    Translation,
                    project_id=project.id,
                    key_id=key.id,
                    lang_iso=iso,
                    translation=text,
                    is_reviewed=bool(text) and (k + j) % 3 == 0 and placeholders(text) == placeholders(base),
                    is_unverified=bool(text) and k == 3 and iso == "fr",
                    modified_by_email=agency[j % len(agency)].email if text else None,
                    modified_at=s.now - _days(60 - k) if text else None,
                )
    s.create(
        Task,
        project_id=web.id,
        title="Spanish for the checkout",
        key_ids=(keys["cart.items"].id, keys["cart.checkout"].id, keys["errors.network"].id),
        languages=(TaskLanguage(lang_iso="es", assignee_emails=(agency[0].email,)),),
        status="in_progress",
        created_by_email=staff[0].email,
        due_date=s.now.date() + _days(5),
        created_at=s.now - _days(3),
    )
    s.create(
        Task,
        project_id=web.id,
        title="French checkout and home",
        key_ids=(keys["nav.home"].id, keys["cart.checkout"].id),
        languages=(TaskLanguage(lang_iso="fr", assignee_emails=(agency[1].email,)),),
        status="in_progress",
        created_by_email=staff[0].email,
        due_date=s.now.date() + _days(1),
        created_at=s.now - _days(6),
    )
    s.create(
        Task,
        project_id=web.id,
        title="Review German navigation",
        task_type="review",
        key_ids=(keys["nav.home"].id, keys["nav.settings"].id),
        languages=(TaskLanguage(lang_iso="de", assignee_emails=(staff[1].email,)),),
        created_by_email=staff[0].email,
        due_date=s.now.date() + _days(2),
        created_at=s.now - _days(1),
    )


def _days(n: int) -> dt.timedelta:
    return dt.timedelta(days=n)
