"""Wayfinder Help Center: self-service help articles in categories and sections, translations, votes, files.

Modeled on the Zendesk Help Center API (Guide: Categories, Sections, Articles
with draft/published state, Translations, Votes, Article Attachments, article
search): articles are written by staff and start as drafts; only an article
with a body is published; editing the source text marks its translations
outdated, and an outdated translation must be updated before it is published;
translations are published only for published articles, one per enabled
locale; customers and staff vote once per article (a new vote replaces the old
one) and only on published articles; attachments are limited in size and type
and inline ones must be images; a section with articles cannot be deleted.
"""

from __future__ import annotations

import re
from typing import Annotated, Any, Literal

from pydantic import BaseModel, Field, StringConstraints, model_validator

from compoworld.engine.context import Ctx
from compoworld.engine.entities import Person
from compoworld.engine.errors import Conflict, RuleViolation
from compoworld.engine.records import CREATED, UPDATED, Record
from compoworld.engine.service import Service, Transition
from compoworld.engine.state import SeedContext
from compoworld.engine.types import DateTime, Email, FileLink, IdOf, Language, PersonName, Sku, Text, Title, Url
from compoworld.services.kit.examples import first_example

__all__ = ["service"]

service = Service(
    "knowledgebase",
    title="Wayfinder Help Center",
    category="documents",
    modeled_on="Zendesk Help Center API v2 (Guide: Categories, Sections, Articles, Translations, Votes, "
    "Article Attachments, Search)",
    description="A customer-facing help center: staff write articles in sections and categories, publish "
    "them, translate them into the enabled languages, attach files and images, link them to products, and "
    "customers search them and vote on how helpful they are.",
)

CategoryId = Annotated[str, IdOf("knowledgebase.category")]
SectionId = Annotated[str, IdOf("knowledgebase.section")]
ArticleId = Annotated[str, IdOf("knowledgebase.article")]
TranslationId = Annotated[str, IdOf("knowledgebase.translation")]
VoteId = Annotated[str, IdOf("knowledgebase.vote")]
AttachmentId = Annotated[str, IdOf("knowledgebase.attachment")]
Name = Annotated[str, StringConstraints(min_length=1, max_length=120, strip_whitespace=True)]
LabelName = Annotated[str, StringConstraints(pattern=r"^[a-z0-9][a-z0-9_-]{0,39}$")]
FileName = Annotated[str, StringConstraints(pattern=r"^[A-Za-z0-9][A-Za-z0-9 ._-]{0,99}\.[A-Za-z0-9]{2,5}$")]
ContentType = Literal["image/png", "image/jpeg", "image/gif", "application/pdf", "text/plain", "video/mp4"]

SOURCE_LOCALE = "en"
ENABLED_LOCALES: tuple[str, ...] = ("en", "de", "fr", "es", "it", "nl", "sv", "ja", "pt")
MAX_ATTACHMENT_BYTES = 20 * 1024 * 1024
IMAGES: frozenset[str] = frozenset({"image/png", "image/jpeg", "image/gif"})
BASE_URL = "https://help.wayfinder.example/hc"


def _slug(title: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", title.lower()).strip("-")[:60] or "article"


class Category(Record):
    """A top-level group of sections."""

    id: CategoryId
    name: Name
    """Name; unique."""
    description: Text = ""
    """What it covers."""
    position: int = 0
    """Order on the home page."""


class Section(Record):
    """A group of articles within a category (sections may nest one level)."""

    id: SectionId
    category_id: CategoryId
    """The category."""
    parent_section_id: SectionId | None = None
    """The section it sits in, if nested."""
    name: Name
    """Name."""
    description: Text = ""
    """What it covers."""


class Article(Record):
    """A help article in the source language (English)."""

    id: ArticleId
    section_id: SectionId
    """The section."""
    title: Title
    """Title."""
    body: Text = ""
    """Article text."""
    author_email: Email
    """The staff member who wrote it."""
    author_name: PersonName
    """The author's name."""
    draft: bool = True
    """Drafts are not visible to customers."""
    promoted: bool = False
    """Promoted articles are listed first."""
    comments_disabled: bool = False
    """Whether customers may comment."""
    label_names: tuple[LabelName, ...] = ()
    """Labels used by search and the answer bot."""
    product_skus: tuple[Sku, ...] = ()
    """Products the article is about."""
    html_url: Url = f"{BASE_URL}/en-us/articles/new"
    """Public address (derived from id and title)."""
    vote_sum: int = 0
    """Up-votes minus down-votes."""
    vote_count: int = 0
    """Number of votes."""
    published_at: DateTime | None = None
    """When it was last published."""
    edited_at: Annotated[DateTime, UPDATED]
    """When it last changed."""

    @model_validator(mode="before")
    @classmethod
    def _derive_url(cls, data: Any) -> Any:
        if isinstance(data, dict) and isinstance(data.get("id"), str):
            num = data["id"].split("_")[-1]
            data = {**data, "html_url": f"{BASE_URL}/en-us/articles/{num}-{_slug(str(data.get('title', '')))}"}
        return data


class Translation(Record):
    """An article's text in another enabled language."""

    id: TranslationId
    article_id: ArticleId
    """The article."""
    locale: Language
    """Language of the translation."""
    title: Title
    """Translated title."""
    body: Text
    """Translated text."""
    draft: bool = True
    """Drafts are not visible to customers."""
    outdated: bool = False
    """Whether the source article changed since the translation was last updated."""
    updated_at: Annotated[DateTime, UPDATED]
    """When it last changed."""


class Vote(Record):
    """One person's vote on an article."""

    id: VoteId
    article_id: ArticleId
    """The article."""
    user_email: Email
    """Who voted."""
    value: Literal[1, -1]
    """1 (helpful) or -1 (not helpful)."""
    created_at: Annotated[DateTime, UPDATED]
    """When they (last) voted."""


class Attachment(Record):
    """A file attached to an article."""

    id: AttachmentId
    article_id: ArticleId
    """The article."""
    file_name: FileName
    """File name."""
    content_type: ContentType
    """MIME type."""
    size: int = Field(ge=1)
    """Size in bytes."""
    inline: bool = False
    """Whether it is an image shown inside the article."""
    content_url: FileLink
    """Where the file is stored."""
    created_at: Annotated[DateTime, CREATED]
    """When it was attached."""


# -- rules ------------------------------------------------------------------------------------


def _guard_section(ctx: Ctx, new: Any, old: Any) -> None:
    if new is None:
        if ctx.first(Article, section_id=old.id) is not None:
            raise RuleViolation(
                f"section {old.name} still has articles",
                field="section_id",
                hint="move them with knowledgebase__move_article first",
            )
        if ctx.first(Section, parent_section_id=old.id) is not None:
            raise RuleViolation(f"section {old.name} has subsections", field="section_id", hint="delete them first")
        return
    if new.parent_section_id is not None:
        parent = ctx.get(Section, new.parent_section_id, field="parent_section_id")
        if parent.category_id != new.category_id:
            raise RuleViolation(
                "a subsection must be in its parent's category", field="parent_section_id", hint="pick a parent there"
            )
        if parent.parent_section_id is not None:
            raise RuleViolation("sections nest one level deep", field="parent_section_id", hint="pick a top section")
    for other in ctx.where(Section, category_id=new.category_id, parent_section_id=new.parent_section_id):
        if other.id != new.id and other.name.casefold() == new.name.casefold():
            raise Conflict(f"a section named {other.name} is already there", field="name", hint="pick another name")


def _guard_article(ctx: Ctx, new: Any, old: Any) -> None:
    if new.draft and not old.draft:
        for tr in ctx.where(Translation, article_id=new.id, draft=False):
            ctx.update(tr, draft=True)
    if new.body != old.body or new.title != old.title:
        for tr in ctx.where(Translation, article_id=new.id, outdated=False):
            ctx.update(tr, outdated=True)


def _guard_attachment_delete(ctx: Ctx, new: Any, old: Any) -> None:
    if old.inline and not ctx.get(Article, old.article_id).draft:
        raise RuleViolation(
            f"{old.file_name} is shown inside a published article",
            field="attachment_id",
            hint="unpublish the article or edit the image out first",
        )


categories = service.resource(
    Category,
    name="category",
    plural="categories",
    prefix="cat",
    create=("name", "description", "position"),
    get=False,
    filters=(),
    search=("name", "description"),
    delete=False,
    unique=("name",),
)
sections = service.resource(
    Section,
    name="section",
    plural="sections",
    prefix="sec",
    create=("category_id", "parent_section_id", "name", "description"),
    get=False,
    filters=("category_id", "parent_section_id"),
    search=("name", "description"),
    guard_create=_guard_section,
    guard_delete=_guard_section,
)
articles = service.resource(
    Article,
    name="article",
    plural="articles",
    prefix="art",
    create=False,
    filters=("section_id", "author_email", "draft", "promoted", "html_url"),
    search=("title", "body"),
    update=("title", "body", "promoted", "comments_disabled", "label_names", "product_skus"),
    delete=False,
    transitions={
        "unpublish": Transition(
            "draft",
            (False,),
            True,
            "take the help article down",
            description="Turn a published article back into a draft; its published translations become drafts.",
        ),
    },
    guard_update=_guard_article,
    title="help article",
)
translations = service.resource(
    Translation,
    name="translation",
    plural="translations",
    prefix="tr",
    create=False,
    get=False,
    filters=("article_id", "locale", "draft", "outdated"),
    delete=False,
    title="article translation",
)
votes = service.resource(
    Vote,
    name="vote",
    plural="votes",
    prefix="vote",
    create=False,
    get=False,
    filters=("article_id", "user_email", "value"),
    delete=False,
    title="article vote",
)
attachments = service.resource(
    Attachment,
    name="attachment",
    plural="attachments",
    prefix="att",
    create=False,
    get=False,
    filters=("article_id", "content_type", "inline"),
    guard_delete=_guard_attachment_delete,
    title="article attachment",
)


def _staff_name(ctx: Ctx, email: str, field: str) -> str:
    for p in ctx.population.employees:
        if p.email == email:
            return p.name
    raise RuleViolation(f"{email} is not a staff member", field=field, hint="articles are written by staff")


# -- examples ---------------------------------------------------------------------------------


def _example_article(ctx: Ctx) -> dict[str, Any]:
    sec = next(iter(ctx.scan(Section)))
    return {
        "section_id": sec.id,
        "title": "How to reset your password",
        "body": "Open Settings, choose Security and follow the steps.",
        "author_email": ctx.population.employees[0].email,
    }


def _example_move(ctx: Ctx) -> dict[str, Any] | None:
    art = next(iter(ctx.scan(Article)), None)
    for sec in ctx.scan(Section):
        if art is not None and sec.id != art.section_id:
            return {"article_id": art.id, "section_id": sec.id}
    return None


def _example_translate(ctx: Ctx) -> dict[str, Any] | None:
    for art in ctx.scan(Article):
        have = {t.locale for t in ctx.where(Translation, article_id=art.id)}
        for loc in ENABLED_LOCALES[1:]:
            if loc not in have:
                return {"article_id": art.id, "locale": loc, "title": f"{art.title} ({loc})", "body": art.body}
    return None


def _example_update_tr(ctx: Ctx) -> dict[str, Any] | None:
    tr = next(iter(ctx.scan(Translation)), None)
    return None if tr is None else {"translation_id": tr.id, "body": tr.body + " (updated)"}


def _example_vote(ctx: Ctx) -> dict[str, Any] | None:
    art = ctx.first(Article, draft=False)
    return None if art is None else {"article_id": art.id, "user_email": ctx.population.consumers[0].email, "up": True}


def _example_search(ctx: Ctx) -> dict[str, Any]:
    art = ctx.first(Article, draft=False)
    word = art.title.split()[-1] if art else "order"
    return {"query": word}


# -- articles ---------------------------------------------------------------------------------


@service.tool(intent="write a help article", write=True, example=_example_article)
def create_article(
    ctx: Ctx,
    section_id: SectionId,
    title: Title,
    author_email: Email,
    body: Text = "",
    label_names: Annotated[list[LabelName], Field(max_length=20)] | None = None,
    product_skus: Annotated[list[Sku], Field(max_length=10)] | None = None,
    promoted: bool = False,
) -> Article:
    """Write a new article as a draft in a section; the author must be a staff member.

    Titles are unique within a section.

    Args:
        section_id: The section.
        title: Title.
        author_email: E-mail of the staff member writing it.
        body: Article text.
        label_names: Labels (lower case).
        product_skus: SKUs of the products it is about.
        promoted: List it first.
    """
    sec = ctx.get(Section, section_id, field="section_id")
    name = _staff_name(ctx, author_email, "author_email")
    for other in ctx.where(Article, section_id=sec.id):
        if other.title.casefold() == title.casefold():
            raise Conflict(f"section {sec.name} already has {other.title}", field="title", hint="update that article")
    return ctx.create(
        Article,
        section_id=sec.id,
        title=title,
        body=body,
        author_email=author_email,
        author_name=name,
        label_names=tuple(dict.fromkeys(label_names or [])),
        product_skus=tuple(dict.fromkeys(product_skus or [])),
        promoted=promoted,
    )


@service.tool(intent="move the article to another section", write=True, example=_example_move)
def move_article(ctx: Ctx, article_id: ArticleId, section_id: SectionId) -> Article:
    """Move an article to another section, where its title must be free.

    Args:
        article_id: The article.
        section_id: The new section.
    """
    art = ctx.get(Article, article_id, field="article_id")
    sec = ctx.get(Section, section_id, field="section_id")
    if art.section_id == sec.id:
        raise RuleViolation("the article is already there", field="section_id", hint="pick another section")
    for other in ctx.where(Article, section_id=sec.id):
        if other.title.casefold() == art.title.casefold():
            raise Conflict(f"section {sec.name} already has {other.title}", field="section_id", hint="rename first")
    return ctx.update(art, section_id=sec.id)


@service.tool(
    intent="publish the help article",
    write=True,
    example=first_example(Article, "article_id", where={"draft": True}, match=lambda ctx, art: art.body.strip() != ""),
)
def publish_article(ctx: Ctx, article_id: ArticleId) -> Article:
    """Publish a draft article; it needs a body. Customers can then find it and vote on it.

    Args:
        article_id: The article.
    """
    art = ctx.get(Article, article_id, field="article_id")
    if not art.draft:
        raise Conflict(f"article {art.title} is already published", field="article_id", hint="nothing to do")
    if not art.body.strip():
        raise RuleViolation(
            f"article {art.title} has no body", field="article_id", hint="write the body before publishing"
        )
    return ctx.update(art, draft=False, published_at=ctx.now())


# -- translations -----------------------------------------------------------------------------


@service.tool(intent="translate the article", write=True, example=_example_translate)
def add_translation(ctx: Ctx, article_id: ArticleId, locale: Language, title: Title, body: Text) -> Translation:
    """Add a draft translation of an article into an enabled language (one per language).

    Args:
        article_id: The article.
        locale: Language code, one of en, de, fr, es, it, nl, sv, ja, pt (not the source, en).
        title: Translated title.
        body: Translated text.
    """
    art = ctx.get(Article, article_id, field="article_id")
    if locale == SOURCE_LOCALE:
        raise RuleViolation("English is the source language", field="locale", hint="update the article itself")
    if locale not in ENABLED_LOCALES:
        raise RuleViolation(
            f"{locale} is not enabled in the help center", field="locale", hint=f"use one of {ENABLED_LOCALES[1:]}"
        )
    if ctx.first(Translation, article_id=art.id, locale=locale) is not None:
        raise Conflict(
            f"the article already has a {locale} translation",
            field="locale",
            hint="change it with knowledgebase__update_translation",
        )
    if not body.strip():
        raise RuleViolation("the translation is empty", field="body", hint="translate the body")
    return ctx.create(Translation, article_id=art.id, locale=locale, title=title, body=body)


@service.tool(intent="update the translation", write=True, example=_example_update_tr)
def update_translation(
    ctx: Ctx, translation_id: TranslationId, title: Title | None = None, body: Text | None = None
) -> Translation:
    """Revise a translation; it is no longer outdated afterwards.

    Args:
        translation_id: The translation.
        title: New title.
        body: New text.
    """
    tr = ctx.get(Translation, translation_id, field="translation_id")
    if title is None and body is None:
        raise RuleViolation("nothing to change", field="body", hint="pass a title or a body")
    if body is not None and not body.strip():
        raise RuleViolation("the translation is empty", field="body", hint="translate the body")
    return ctx.update(tr, title=title or tr.title, body=body if body is not None else tr.body, outdated=False)


@service.tool(
    intent="publish the translation",
    write=True,
    example=first_example(
        Translation,
        "translation_id",
        where={"draft": True, "outdated": False},
        match=lambda ctx, tr: not ctx.get(Article, tr.article_id).draft,
    ),
)
def publish_translation(ctx: Ctx, translation_id: TranslationId) -> Translation:
    """Publish a draft translation of a published article; an outdated one must be updated first.

    Args:
        translation_id: The translation.
    """
    tr = ctx.get(Translation, translation_id, field="translation_id")
    art = ctx.get(Article, tr.article_id)
    if not tr.draft:
        raise Conflict("the translation is already published", field="translation_id", hint="nothing to do")
    if art.draft:
        raise RuleViolation(f"article {art.title} is a draft", field="translation_id", hint="publish the article first")
    if tr.outdated:
        raise RuleViolation(
            "the translation is outdated: the article changed since",
            field="translation_id",
            hint="update it with knowledgebase__update_translation first",
        )
    return ctx.update(tr, draft=False)


# -- votes, files, search ---------------------------------------------------------------------


@service.tool(intent="vote on the article", write=True, idempotent=True, example=_example_vote)
def vote_article(ctx: Ctx, article_id: ArticleId, user_email: Email, up: bool) -> Article:
    """Vote an article helpful (up) or not; a person's new vote replaces their old one.

    Only published articles take votes.

    Args:
        article_id: The article.
        user_email: E-mail of the person voting.
        up: True for helpful, False for not helpful.
    """
    art = ctx.get(Article, article_id, field="article_id")
    if art.draft:
        raise RuleViolation(f"article {art.title} is not published", field="article_id", hint="vote on live articles")
    value = 1 if up else -1
    mine = ctx.first(Vote, article_id=art.id, user_email=user_email)
    if mine is not None:
        if mine.value == value:
            return art
        ctx.update(mine, value=value)
        return ctx.update(art, vote_sum=art.vote_sum + 2 * value)
    ctx.create(Vote, article_id=art.id, user_email=user_email, value=value)
    return ctx.update(art, vote_sum=art.vote_sum + value, vote_count=art.vote_count + 1)


@service.tool(
    intent="attach a file to the article",
    write=True,
    example=first_example(
        Article,
        "article_id",
        file_name="setup-guide.pdf",
        content_type="application/pdf",
        size=240_000,
        content_url="https://files.wayfinder.example/att/setup-guide.pdf",
    ),
)
def add_attachment(
    ctx: Ctx,
    article_id: ArticleId,
    file_name: FileName,
    content_type: ContentType,
    size: Annotated[int, Field(ge=1)],
    content_url: FileLink,
    inline: bool = False,
) -> Attachment:
    """Attach a stored file to an article: at most 20 MB, and inline attachments must be images.

    Args:
        article_id: The article.
        file_name: File name with extension.
        content_type: MIME type.
        size: Size in bytes.
        content_url: Link to the stored file.
        inline: Show the image inside the article.
    """
    art = ctx.get(Article, article_id, field="article_id")
    if size > MAX_ATTACHMENT_BYTES:
        raise RuleViolation(
            f"{file_name} is {size} bytes; the limit is {MAX_ATTACHMENT_BYTES}",
            field="size",
            hint="compress the file or link to it from the body",
        )
    if inline and content_type not in IMAGES:
        raise RuleViolation("only images can be inline", field="inline", hint="attach it as a download instead")
    for other in ctx.where(Attachment, article_id=art.id):
        if other.file_name == file_name:
            raise Conflict(f"{file_name} is already attached", field="file_name", hint="rename or delete it")
    return ctx.create(
        Attachment,
        article_id=art.id,
        file_name=file_name,
        content_type=content_type,
        size=size,
        inline=inline,
        content_url=content_url,
    )


class SearchHit(BaseModel):
    """An article found by search, in the requested language."""

    article_id: ArticleId = Field(description="The article.")
    title: Title = Field(description="Title in the requested language.")
    locale: Language = Field(description="Language of the title and snippet.")
    snippet: Text = Field(description="Start of the body.")
    html_url: Url = Field(description="Public address of the article.")
    vote_sum: int = Field(description="Up-votes minus down-votes.")
    product_skus: list[Sku] = Field(description="Products the article is about.")


@service.tool(intent="search the help center", example=_example_search)
def search_articles(
    ctx: Ctx,
    query: Annotated[str, StringConstraints(min_length=2, max_length=100)] | None = None,
    locale: Language = "en",
    sku: Sku | None = None,
    label: LabelName | None = None,
) -> list[SearchHit]:
    """Search published articles as a customer sees them: by words, product SKU or label.

    In another language only articles with a published translation are found,
    with the translated title. Promoted articles come first, then by votes.

    Args:
        query: Words that must appear in the title or body.
        locale: Language to search in.
        sku: Only articles about this product.
        label: Only articles with this label.
    """
    if query is None and sku is None and label is None:
        raise RuleViolation("give a query, a SKU or a label", field="query", hint="say what to look for")
    if locale not in ENABLED_LOCALES:
        raise RuleViolation(f"{locale} is not enabled", field="locale", hint=f"use one of {ENABLED_LOCALES}")
    words = [w.casefold() for w in (query or "").split()]
    hits: list[tuple[bool, int, str, SearchHit]] = []
    for art in ctx.where(Article, draft=False):
        if sku is not None and sku not in art.product_skus:
            continue
        if label is not None and label not in art.label_names:
            continue
        title, body = art.title, art.body
        if locale != SOURCE_LOCALE:
            tr = ctx.first(Translation, article_id=art.id, locale=locale, draft=False)
            if tr is None:
                continue
            title, body = tr.title, tr.body
        text = f"{title} {body}".casefold()
        if not all(w in text for w in words):
            continue
        hit = SearchHit(
            article_id=art.id,
            title=title,
            locale=locale,
            snippet=body[:160],
            html_url=art.html_url,
            vote_sum=art.vote_sum,
            product_skus=list(art.product_skus),
        )
        hits.append((not art.promoted, -art.vote_sum, art.id, hit))
    hits.sort(key=lambda h: h[:3])
    return [h[3] for h in hits]


# -- seed -------------------------------------------------------------------------------------

STRUCTURE: tuple[tuple[str, str, tuple[tuple[str, tuple[tuple[str, str, tuple[str, ...]], ...]], ...]], ...] = (
    (
        "Getting started",
        "Set up your account and learn the basics.",
        (
            (
                "Your account",
                (
                    (
                        "Create an account",
                        "Click Sign up, enter your e-mail and confirm the link we send.",
                        ("account",),
                    ),
                    (
                        "Reset your password",
                        "Use Forgot password on the sign-in page; the link lasts one hour.",
                        ("account", "password"),
                    ),
                ),
            ),
        ),
    ),
    (
        "Orders & shipping",
        "Tracking, delivery times and returns.",
        (
            (
                "Delivery",
                (
                    (
                        "Track your order",
                        "Open Orders, pick the order and follow the carrier's tracking link.",
                        ("shipping", "tracking"),
                    ),
                    (
                        "Delivery times by country",
                        "Most orders arrive in 2-5 business days; remote areas take longer.",
                        ("shipping",),
                    ),
                ),
            ),
            (
                "Returns",
                (
                    (
                        "Return an item",
                        "You have 30 days to return unused items. Start a return from your order.",
                        ("returns",),
                    ),
                    (
                        "When will I get my refund?",
                        "Refunds go back to the original payment within 5-10 business days.",
                        ("returns", "refund"),
                    ),
                ),
            ),
        ),
    ),
    (
        "Billing",
        "Invoices, payments and refunds.",
        (
            (
                "Payments",
                (
                    (
                        "Accepted payment methods",
                        "We accept cards, bank transfer and invoice for business customers.",
                        ("billing",),
                    ),
                    (
                        "Download an invoice",
                        "Invoices are under Account > Billing; business customers also get them by e-mail.",
                        ("billing", "invoice"),
                    ),
                ),
            ),
        ),
    ),
)
TRANSLATED = {"de": "Anleitung", "fr": "Guide", "es": "Guía"}


@service.seeder
def seed(s: SeedContext) -> None:
    """Categories and sections, general and product articles by Support staff, translations, votes, files."""
    pop = s.population
    writers = pop.staff("Support", fallback=3)
    articles_ = _ArticleWriter(s, writers)
    for pos, (cname, cdesc, secs) in enumerate(STRUCTURE):
        cat = s.create(Category, name=cname, description=cdesc, position=pos)
        for sname, items in secs:
            sec = s.create(Section, category_id=cat.id, name=sname)
            for title, body, labels in items:
                articles_.write(sec, title, body, labels)
    _seed_product_guides(s, articles_)
    for i, art in enumerate(articles_.written):
        if not art.draft:
            _seed_article_extras(s, i, art)


class _ArticleWriter:
    """Writes the seeded articles in turn: the turn decides the author, drafts, promotion and dates.

    Args:
        s: The seeding context.
        writers: The Support staff who write articles.
    """

    def __init__(self, s: SeedContext, writers: list[Person]) -> None:
        self.s = s
        self.writers = writers
        self.written: list[Article] = []

    def write(
        self, sec: Section, title: str, body: str, labels: tuple[str, ...], skus: tuple[str, ...] = ()
    ) -> Article:
        k = len(self.written) + 1
        author = self.writers[k % len(self.writers)]
        draft = k % 6 == 5
        rec = self.s.create(
            Article,
            section_id=sec.id,
            title=title,
            body=body,
            author_email=author.email,
            author_name=author.name,
            draft=draft,
            promoted=k % 7 == 1,
            label_names=labels,
            product_skus=skus,
            published_at=None if draft else self.s.ago(days=100 - k),
            edited_at=self.s.ago(days=90 - k),
        )
        self.written.append(rec)
        return rec


def _seed_product_guides(s: SeedContext, articles_: _ArticleWriter) -> None:
    """A section per product category with set-up guides and a troubleshooting subsection, and an empty one."""
    products = s.create(Category, name="Products", description="Set-up guides and troubleshooting.", position=9)
    by_cat: dict[str, list[Any]] = {}
    for prod in s.population.products:
        by_cat.setdefault(prod.category, []).append(prod)
    for cat_name in sorted(by_cat):
        sec = s.create(Section, category_id=products.id, name=cat_name.capitalize())
        trouble = s.create(Section, category_id=products.id, parent_section_id=sec.id, name="Troubleshooting")
        for prod in by_cat[cat_name][:3]:
            articles_.write(
                sec,
                f"Set up the {prod.name}",
                f"Unpack the {prod.name}, charge it fully and follow the quick-start card in the box.",
                ("setup", cat_name),
                (prod.sku,),
            )
        prod = by_cat[cat_name][0]
        articles_.write(
            trouble,
            f"{prod.name} does not turn on",
            f"Hold the power button for 10 seconds. If the {prod.name} still does not start, contact support.",
            ("troubleshooting",),
            (prod.sku,),
        )
    s.create(Section, category_id=products.id, name="Discontinued products", description="Nothing here yet.")


def _seed_article_extras(s: SeedContext, i: int, art: Article) -> None:
    """The i-th article's votes, translations (every third article) and, for a product article, its files."""
    voters = s.population.consumers
    total = 0
    n = i % 5
    for j in range(n):
        value = -1 if (i + j) % 4 == 3 else 1
        s.create(
            Vote,
            article_id=art.id,
            user_email=voters[(i * 3 + j * 7) % len(voters)].email,
            value=value,
            created_at=s.ago(days=10 + j),
        )
        total += value
    art = s.update(art, vote_sum=total, vote_count=n)
    if i % 3 == 0:
        for m, (loc, word) in enumerate(TRANSLATED.items()):
            s.create(
                Translation,
                article_id=art.id,
                locale=loc,
                title=f"{word}: {art.title}",
                body=f"[{loc}] {art.body}",
                draft=m == 2,
                outdated=(i + m) % 4 == 0,
                updated_at=s.ago(days=20),
            )
    if art.product_skus:
        slug = _slug(art.title)
        s.create(
            Attachment,
            article_id=art.id,
            file_name=f"{slug[:40]}.png",
            content_type="image/png",
            size=180_000 + 1000 * i,
            inline=True,
            content_url=f"https://files.wayfinder.example/att/{art.id}/{slug[:40]}.png",
            created_at=s.ago(days=30),
        )
        s.create(
            Attachment,
            article_id=art.id,
            file_name="quick-start-guide.pdf",
            content_type="application/pdf",
            size=1_200_000 + 5000 * i,
            content_url=f"https://files.wayfinder.example/att/{art.id}/quick-start-guide.pdf",
            created_at=s.ago(days=30),
        )
