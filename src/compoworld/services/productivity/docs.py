"""Inkwell Docs: collaborative documents with revisions, comments, suggestions and sharing.

Modeled on the Google Docs API v1 (documents.get, documents.batchUpdate with
writeControl.requiredRevisionId, suggestions) and the Google Drive API v3
(permissions with roles and link sharing, comments and replies, revisions,
ownership transfer, trash): access follows the highest of the person's own
permission and the document's link sharing (reader < commenter < writer <
owner); writers edit, and an edit that names a stale revision conflicts;
commenters comment and suggest, writers accept or reject suggestions, and a
suggestion whose text changed since cannot be accepted; writers share only if
the owner lets them, and ownership moves only to a writer inside the company;
a trashed document is read-only and only its owner restores it.
"""

from __future__ import annotations

import datetime as dt
from typing import Annotated, Any, Literal, cast

from pydantic import BaseModel, Field, model_validator

from compoworld.engine.context import Ctx
from compoworld.engine.errors import Conflict, NotFound, RuleViolation
from compoworld.engine.records import CREATED, UPDATED, Record
from compoworld.engine.service import Service
from compoworld.engine.state import SeedContext
from compoworld.engine.types import DateTime, Email, FileLink, IdOf, PersonName, Text, Title
from compoworld.services.kit.examples import first_example
from compoworld.services.kit.records import Created
from compoworld.world.org import department_of

__all__ = ["service"]

service = Service(
    "docs",
    title="Inkwell Docs",
    category="documents",
    modeled_on="Google Docs API v1 (documents, batchUpdate with requiredRevisionId, suggestions) / Google "
    "Drive API v3 (permissions, comments, replies, revisions, ownership transfer, trash)",
    description="Online documents written together: each edit makes a revision, collaborators comment "
    "on quoted text and suggest changes the writers accept or reject, and owners share documents with "
    "people or by link and transfer or trash them.",
)

DocumentId = Annotated[str, IdOf("docs.document")]
RevisionId = Annotated[str, IdOf("docs.revision")]
PermissionId = Annotated[str, IdOf("docs.permission")]
CommentId = Annotated[str, IdOf("docs.comment")]
SuggestionId = Annotated[str, IdOf("docs.suggestion")]
Role = Literal["reader", "commenter", "writer"]
LinkSharing = Literal["restricted", "domain", "anyone"]
RANK: dict[str, int] = {"none": 0, "reader": 1, "commenter": 2, "writer": 3, "owner": 4}


class Document(Created):
    """A document and its current text."""

    id: DocumentId
    title: Title
    """Title."""
    owner_email: Email
    """The owner."""
    owner_name: PersonName
    """The owner's name."""
    body: Text = ""
    """Current text."""
    revision: int = 1
    """Number of the current revision."""
    word_count: int = 0
    """Words in the current text."""
    link: FileLink = "https://docs.inkwell.example/d/new/edit"
    """Link that opens the document (derived from its id)."""
    link_sharing: LinkSharing = "restricted"
    """restricted (only people with access), domain (everyone in the company) or anyone with the link."""
    link_role: Role = "reader"
    """Role the link gives."""
    writers_can_share: bool = True
    """Whether writers may share the document."""
    trashed: bool = False
    """Whether it is in the owner's trash (read-only)."""
    modified_at: Annotated[DateTime, UPDATED]
    """When it last changed."""

    @model_validator(mode="before")
    @classmethod
    def _derive_link(cls, data: Any) -> Any:
        if isinstance(data, dict) and isinstance(data.get("id"), str):
            data = {**data, "link": f"https://docs.inkwell.example/d/{data['id']}/edit"}
        return data


class Revision(Created):
    """A saved version of a document's text."""

    id: RevisionId
    document_id: DocumentId
    """The document."""
    number: int
    """Revision number, from 1."""
    author_email: Email
    """Who made it."""
    body: Text
    """The text at that revision."""
    summary: Text = ""
    """What changed."""


class Permission(Record):
    """A person's access to a document (the owner has none listed)."""

    id: PermissionId
    document_id: DocumentId
    """The document."""
    email: Email
    """The person."""
    role: Role
    """reader, commenter or writer."""
    granted_by: Email
    """Who shared it."""
    created_at: Annotated[DateTime, CREATED]
    """When it was shared."""


class Comment(Record):
    """A comment on a document, or a reply to one."""

    id: CommentId
    document_id: DocumentId
    """The document."""
    parent_id: CommentId | None = None
    """The comment this replies to."""
    author_email: Email
    """Who wrote it."""
    content: Text
    """The comment."""
    quoted_text: Text = ""
    """The passage it is about."""
    resolved: bool = False
    """Whether the discussion is resolved."""
    created_at: Annotated[DateTime, CREATED]
    """When it was written."""


class Suggestion(Created):
    """A proposed replacement of a passage, accepted or rejected by a writer."""

    id: SuggestionId
    document_id: DocumentId
    """The document."""
    author_email: Email
    """Who suggested it."""
    target_text: Text
    """The passage to replace (empty to append)."""
    new_text: Text
    """The replacement (empty to delete the passage)."""
    status: Literal["pending", "accepted", "rejected"] = "pending"
    """pending, accepted or rejected."""
    decided_by: Email | None = None
    """Who accepted or rejected it."""


documents = service.resource(
    Document,
    name="document",
    plural="documents",
    prefix="doc",
    create=False,
    get=False,
    filters=("owner_email", "link_sharing", "trashed", "link"),
    search=("title", "body"),
    delete=False,
)
revisions = service.resource(
    Revision,
    name="revision",
    plural="revisions",
    prefix="rev",
    create=False,
    get=False,
    filters=("document_id", "author_email", "number"),
    delete=False,
)
permissions = service.resource(
    Permission,
    name="permission",
    plural="permissions",
    prefix="perm",
    create=False,
    get=False,
    filters=("document_id", "email", "role"),
    delete=False,
)
comments = service.resource(
    Comment,
    name="comment",
    plural="comments",
    prefix="cmt",
    create=False,
    get=False,
    filters=("document_id", "parent_id", "author_email", "resolved"),
    search=("content", "quoted_text"),
    delete=False,
)
suggestions = service.resource(
    Suggestion,
    name="suggestion",
    plural="suggestions",
    prefix="sug",
    create=False,
    get=False,
    filters=("document_id", "author_email", "status"),
    delete=False,
)


# -- access -----------------------------------------------------------------------------------


def _internal(ctx: Ctx, email: str) -> bool:
    return email.endswith("@" + ctx.population.home.domain)


def role_of(ctx: Ctx, doc: Document, email: str) -> str:
    """The highest role a person has on a document: owner, writer, commenter, reader or none."""
    if email == doc.owner_email:
        return "owner"
    best = "none"
    perm = ctx.first(Permission, document_id=doc.id, email=email)
    if perm is not None:
        best = perm.role
    linked = doc.link_sharing == "anyone" or (doc.link_sharing == "domain" and _internal(ctx, email))
    if linked and RANK[doc.link_role] > RANK[best]:
        best = doc.link_role
    return best


def _require(ctx: Ctx, doc: Document, email: str, needed: str, field: str, *, editing: bool = True) -> str:
    have = role_of(ctx, doc, email)
    if RANK[have] < RANK[needed]:
        raise RuleViolation(
            f"{email} is {'a ' + have if have != 'none' else 'without access'} on {doc.title}; this needs {needed}",
            field=field,
            hint="ask the owner to share the document with a higher role",
        )
    if editing and doc.trashed:
        raise RuleViolation(
            f"{doc.title} is in the trash and read-only",
            field="document_id",
            hint="the owner can restore it with docs__restore_document",
        )
    return have


def _words(text: str) -> int:
    return len(text.split())


def _save(ctx: Ctx, doc: Document, author: str, body: str, summary: str) -> Document:
    number = doc.revision + 1
    ctx.create(Revision, document_id=doc.id, number=number, author_email=author, body=body, summary=summary)
    return ctx.update(doc, body=body, revision=number, word_count=_words(body))


def _name_of(ctx: Ctx, email: str) -> str | None:
    for p in ctx.population.people:
        if p.email == email:
            return p.name
    return None


# -- examples ---------------------------------------------------------------------------------


def _live_doc(ctx: Ctx) -> Document:
    return next(d for d in ctx.where(Document, trashed=False))


def _with_role(ctx: Ctx, role: str) -> tuple[Document, str] | None:
    for perm in ctx.where(Permission, role=role):
        doc = ctx.get(Document, perm.document_id)
        if not doc.trashed:
            return doc, perm.email
    return None


def _example_create(ctx: Ctx) -> dict[str, Any]:
    return {"title": "Meeting notes", "owner_email": ctx.population.employees[0].email, "body": "Agenda: budget."}


def _example_read(ctx: Ctx) -> dict[str, Any]:
    doc = _live_doc(ctx)
    return {"document_id": doc.id, "viewer_email": doc.owner_email}


def _example_edit(ctx: Ctx) -> dict[str, Any]:
    doc = _live_doc(ctx)
    return {"document_id": doc.id, "editor_email": doc.owner_email, "body": doc.body + "\nNew paragraph."}


def _example_suggest(ctx: Ctx) -> dict[str, Any] | None:
    found = _with_role(ctx, "commenter")
    if found is None:
        return None
    doc, email = found
    words = doc.body.split()
    return {"document_id": doc.id, "author_email": email, "target_text": words[0] if words else "", "new_text": "Hi"}


def _example_decide(ctx: Ctx) -> dict[str, Any] | None:
    for sug in ctx.where(Suggestion, status="pending"):
        doc = ctx.get(Document, sug.document_id)
        if not doc.trashed and sug.target_text in doc.body:
            return {"suggestion_id": sug.id, "decider_email": doc.owner_email, "accept": True}
    return None


def _example_comment(ctx: Ctx) -> dict[str, Any]:
    doc = _live_doc(ctx)
    return {"document_id": doc.id, "author_email": doc.owner_email, "content": "Can we add numbers here?"}


def _example_reply(ctx: Ctx) -> dict[str, Any] | None:
    for c in ctx.where(Comment, parent_id=None, resolved=False):
        doc = ctx.get(Document, c.document_id)
        if not doc.trashed:
            return {"comment_id": c.id, "author_email": doc.owner_email, "content": "Done, thanks."}
    return None


def _example_resolve(ctx: Ctx) -> dict[str, Any] | None:
    args = _example_reply(ctx)
    return None if args is None else {"comment_id": args["comment_id"], "actor_email": args["author_email"]}


def _example_share(ctx: Ctx) -> dict[str, Any]:
    doc = _live_doc(ctx)
    for p in ctx.population.employees:
        if p.email != doc.owner_email and ctx.first(Permission, document_id=doc.id, email=p.email) is None:
            return {"document_id": doc.id, "actor_email": doc.owner_email, "email": p.email, "role": "commenter"}
    raise LookupError("everyone has access")


def _example_unshare(ctx: Ctx) -> dict[str, Any] | None:
    for perm in ctx.scan(Permission):
        doc = ctx.get(Document, perm.document_id)
        if not doc.trashed:
            return {"permission_id": perm.id, "actor_email": doc.owner_email}
    return None


def _example_link(ctx: Ctx) -> dict[str, Any]:
    doc = _live_doc(ctx)
    return {"document_id": doc.id, "actor_email": doc.owner_email, "link_sharing": "domain", "link_role": "commenter"}


def _example_transfer(ctx: Ctx) -> dict[str, Any] | None:
    for perm in ctx.where(Permission, role="writer"):
        doc = ctx.get(Document, perm.document_id)
        if not doc.trashed and _internal(ctx, perm.email):
            return {"document_id": doc.id, "actor_email": doc.owner_email, "new_owner_email": perm.email}
    return None


def _example_trash(ctx: Ctx) -> dict[str, Any]:
    doc = _live_doc(ctx)
    return {"document_id": doc.id, "actor_email": doc.owner_email}


# -- documents --------------------------------------------------------------------------------


@service.tool(intent="create a document", write=True, example=_example_create)
def create_document(ctx: Ctx, title: Title, owner_email: Email, body: Text = "") -> Document:
    """Create a document owned by an employee; its text becomes revision 1.

    Args:
        title: Title.
        owner_email: E-mail of the employee who owns it.
        body: Initial text.
    """
    name = _name_of(ctx, owner_email)
    if name is None or not _internal(ctx, owner_email):
        raise RuleViolation(
            f"{owner_email} is not an employee", field="owner_email", hint="documents are owned by employees"
        )
    doc = ctx.create(
        Document,
        title=title,
        owner_email=owner_email,
        owner_name=name,
        body=body,
        word_count=_words(body),
    )
    ctx.create(Revision, document_id=doc.id, number=1, author_email=owner_email, body=body, summary="Created")
    return doc


class DocumentView(BaseModel):
    """A document as one person sees it."""

    document: Document = Field(description="The document.")
    role: Literal["owner", "writer", "commenter", "reader"] = Field(description="The viewer's role.")
    open_comments: int = Field(description="Unresolved comments.")
    pending_suggestions: int = Field(description="Suggestions awaiting a decision.")


def _view(ctx: Ctx, doc: Document, role: str) -> DocumentView:
    return DocumentView(
        document=doc,
        role=cast("Literal['owner', 'writer', 'commenter', 'reader']", role),
        open_comments=len(ctx.where(Comment, document_id=doc.id, parent_id=None, resolved=False)),
        pending_suggestions=len(ctx.where(Suggestion, document_id=doc.id, status="pending")),
    )


@service.tool(intent="open the document", example=_example_read)
def read_document(ctx: Ctx, document_id: DocumentId, viewer_email: Email) -> DocumentView:
    """Open a document as a person with access to it.

    Args:
        document_id: The document.
        viewer_email: E-mail of the person reading.
    """
    doc = ctx.get(Document, document_id, field="document_id")
    return _view(ctx, doc, _require(ctx, doc, viewer_email, "reader", "viewer_email", editing=False))


@service.tool(intent="find the document behind the link")
def find_document_by_link(ctx: Ctx, link: FileLink, viewer_email: Email) -> DocumentView:
    """Open the document a link points to, as a person with access.

    Args:
        link: The document's link.
        viewer_email: E-mail of the person opening it.
    """
    doc = ctx.first(Document, link=link)
    if doc is None:
        raise NotFound("no document has that link", field="link", hint="check the link or search documents by title")
    return _view(ctx, doc, _require(ctx, doc, viewer_email, "reader", "viewer_email", editing=False))


@service.tool(intent="edit the document", write=True, example=_example_edit)
def edit_document(
    ctx: Ctx,
    document_id: DocumentId,
    editor_email: Email,
    body: Text,
    required_revision: int | None = None,
    summary: Text = "",
) -> Document:
    """Replace a document's text as a writer, making a new revision.

    With required_revision, the edit only applies if the document is still at
    that revision (someone else's edit in between is a conflict).

    Args:
        document_id: The document.
        editor_email: E-mail of a writer or the owner.
        body: The new text.
        required_revision: The revision the edit is based on.
        summary: What changed.
    """
    doc = ctx.get(Document, document_id, field="document_id")
    _require(ctx, doc, editor_email, "writer", "editor_email")
    if required_revision is not None and required_revision != doc.revision:
        raise Conflict(
            f"{doc.title} is at revision {doc.revision}, not {required_revision}",
            field="required_revision",
            hint="read the document again and redo the edit on the current text",
        )
    if body == doc.body:
        raise RuleViolation("the text is unchanged", field="body", hint="nothing to save")
    return _save(ctx, doc, editor_email, body, summary)


@service.tool(
    intent="roll the document back to an earlier revision",
    write=True,
    example=first_example(
        Document,
        "document_id",
        where={"trashed": False},
        match=lambda ctx, doc: doc.revision > 1,
        fields={"editor_email": "owner_email"},
        number=1,
    ),
)
def restore_revision(ctx: Ctx, document_id: DocumentId, editor_email: Email, number: int) -> Document:
    """Make an earlier revision's text current again (as a new revision).

    Args:
        document_id: The document.
        editor_email: E-mail of a writer or the owner.
        number: The revision to restore.
    """
    doc = ctx.get(Document, document_id, field="document_id")
    _require(ctx, doc, editor_email, "writer", "editor_email")
    old = ctx.first(Revision, document_id=doc.id, number=number)
    if old is None:
        raise NotFound(f"{doc.title} has no revision {number}", field="number", hint="list the document's revisions")
    if number == doc.revision:
        raise RuleViolation(f"revision {number} is the current one", field="number", hint="pick an older revision")
    return _save(ctx, doc, editor_email, old.body, f"Restored revision {number}")


# -- suggestions and comments -----------------------------------------------------------------


@service.tool(intent="suggest a change to the document", write=True, example=_example_suggest)
def suggest_edit(
    ctx: Ctx, document_id: DocumentId, author_email: Email, target_text: Text, new_text: Text
) -> Suggestion:
    """Propose replacing a passage (or, with empty target_text, appending text); commenters and up.

    Args:
        document_id: The document.
        author_email: E-mail of the person suggesting.
        target_text: The passage to replace; it must occur in the text. Empty to append.
        new_text: The replacement; empty to delete the passage.
    """
    doc = ctx.get(Document, document_id, field="document_id")
    _require(ctx, doc, author_email, "commenter", "author_email")
    if target_text and target_text not in doc.body:
        raise RuleViolation(
            "the passage does not occur in the document", field="target_text", hint="quote the current text exactly"
        )
    if target_text == new_text:
        raise RuleViolation("the suggestion changes nothing", field="new_text", hint="propose different text")
    return ctx.create(
        Suggestion, document_id=doc.id, author_email=author_email, target_text=target_text, new_text=new_text
    )


class Decision(BaseModel):
    """A suggestion decided."""

    suggestion: Suggestion = Field(description="The suggestion.")
    document: Document = Field(description="The document afterwards.")


@service.tool(intent="accept or reject the suggestion", write=True, example=_example_decide)
def decide_suggestion(ctx: Ctx, suggestion_id: SuggestionId, decider_email: Email, accept: bool) -> Decision:
    """Accept a pending suggestion (a writer applies it as a new revision) or reject it.

    Writers decide; a suggestion's author may also reject (withdraw) it. A
    suggestion whose passage no longer occurs in the text cannot be accepted.

    Args:
        suggestion_id: The suggestion.
        decider_email: E-mail of the writer (or, to reject, the author).
        accept: True to accept, False to reject.
    """
    sug = ctx.get(Suggestion, suggestion_id, field="suggestion_id")
    doc = ctx.get(Document, sug.document_id)
    if sug.status != "pending":
        raise RuleViolation(f"the suggestion is already {sug.status}", field="suggestion_id", hint="nothing to do")
    if not (not accept and decider_email == sug.author_email):
        _require(ctx, doc, decider_email, "writer", "decider_email")
    elif doc.trashed:
        _require(ctx, doc, decider_email, "commenter", "decider_email")
    if not accept:
        return Decision(suggestion=ctx.update(sug, status="rejected", decided_by=decider_email), document=doc)
    if sug.target_text and sug.target_text not in doc.body:
        raise Conflict(
            "the suggested passage has changed since",
            field="suggestion_id",
            hint="reject it and suggest again on the current text",
        )
    if sug.target_text:
        body = doc.body.replace(sug.target_text, sug.new_text, 1)
    else:
        body = f"{doc.body}\n{sug.new_text}" if doc.body else sug.new_text
    doc = _save(ctx, doc, decider_email, body, f"Accepted suggestion by {sug.author_email}")
    return Decision(suggestion=ctx.update(sug, status="accepted", decided_by=decider_email), document=doc)


@service.tool(intent="comment on the document", write=True, example=_example_comment)
def add_comment(
    ctx: Ctx, document_id: DocumentId, author_email: Email, content: Text, quoted_text: Text = ""
) -> Comment:
    """Comment on a document, optionally on a quoted passage; commenters and up.

    Args:
        document_id: The document.
        author_email: E-mail of the commenter.
        content: The comment.
        quoted_text: The passage it is about; must occur in the text.
    """
    doc = ctx.get(Document, document_id, field="document_id")
    _require(ctx, doc, author_email, "commenter", "author_email")
    if not content.strip():
        raise RuleViolation("the comment is empty", field="content", hint="write something")
    if quoted_text and quoted_text not in doc.body:
        raise RuleViolation("the quoted passage is not in the document", field="quoted_text", hint="quote it exactly")
    return ctx.create(Comment, document_id=doc.id, author_email=author_email, content=content, quoted_text=quoted_text)


@service.tool(intent="reply to the comment", write=True, example=_example_reply)
def reply_to_comment(
    ctx: Ctx, comment_id: CommentId, author_email: Email, content: Text, reopen: bool = False
) -> Comment:
    """Reply to a comment; a resolved discussion takes replies only when reopened.

    Args:
        comment_id: The comment (a reply's comment is replied to in the same discussion).
        author_email: E-mail of the commenter.
        content: The reply.
        reopen: Reopen a resolved discussion with this reply.
    """
    c = ctx.get(Comment, comment_id, field="comment_id")
    root = ctx.get(Comment, c.parent_id) if c.parent_id else c
    doc = ctx.get(Document, root.document_id)
    _require(ctx, doc, author_email, "commenter", "author_email")
    if not content.strip():
        raise RuleViolation("the reply is empty", field="content", hint="write something")
    if root.resolved:
        if not reopen:
            raise RuleViolation("the discussion is resolved", field="comment_id", hint="pass reopen=true to reopen it")
        ctx.update(root, resolved=False)
    return ctx.create(Comment, document_id=doc.id, parent_id=root.id, author_email=author_email, content=content)


@service.tool(intent="resolve the comment", write=True, example=_example_resolve)
def resolve_comment(ctx: Ctx, comment_id: CommentId, actor_email: Email) -> Comment:
    """Mark a discussion as resolved; its author or a writer may.

    Args:
        comment_id: The discussion's first comment.
        actor_email: E-mail of the comment's author or a writer.
    """
    c = ctx.get(Comment, comment_id, field="comment_id")
    if c.parent_id is not None:
        raise RuleViolation("replies are not resolved", field="comment_id", hint=f"resolve comment {c.parent_id}")
    doc = ctx.get(Document, c.document_id)
    if c.resolved:
        raise Conflict("the discussion is already resolved", field="comment_id", hint="nothing to do")
    if actor_email != c.author_email:
        _require(ctx, doc, actor_email, "writer", "actor_email")
    elif doc.trashed:
        _require(ctx, doc, actor_email, "commenter", "actor_email")
    return ctx.update(c, resolved=True)


# -- sharing ----------------------------------------------------------------------------------


def _may_share(ctx: Ctx, doc: Document, actor: str) -> None:
    have = _require(ctx, doc, actor, "writer", "actor_email")
    if have == "writer" and not doc.writers_can_share:
        raise RuleViolation(
            f"the owner of {doc.title} does not let writers share it", field="actor_email", hint="ask the owner"
        )


@service.tool(intent="share the document with someone", write=True, example=_example_share)
def share_document(ctx: Ctx, document_id: DocumentId, actor_email: Email, email: Email, role: Role) -> Permission:
    """Give a person a role on a document, or change the role they have.

    The owner shares; writers too unless the owner turned that off. People
    outside the company can be readers or commenters only.

    Args:
        document_id: The document.
        actor_email: E-mail of the person sharing.
        email: E-mail of the person getting access.
        role: reader, commenter or writer.
    """
    doc = ctx.get(Document, document_id, field="document_id")
    _may_share(ctx, doc, actor_email)
    if email == doc.owner_email:
        raise RuleViolation("the owner already has full access", field="email", hint="share with someone else")
    if role == "writer" and not _internal(ctx, email):
        raise RuleViolation(
            f"{email} is outside the company and cannot be a writer", field="role", hint="give reader or commenter"
        )
    existing = ctx.first(Permission, document_id=doc.id, email=email)
    if existing is not None:
        if existing.role == role:
            raise Conflict(f"{email} is already a {role}", field="role", hint="nothing to change")
        return ctx.update(existing, role=role, granted_by=actor_email)
    return ctx.create(Permission, document_id=doc.id, email=email, role=role, granted_by=actor_email)


@service.tool(intent="remove the person's access", write=True, destructive=True, example=_example_unshare)
def remove_permission(ctx: Ctx, permission_id: PermissionId, actor_email: Email) -> Permission:
    """Take a person's access away; whoever may share may remove, and anyone may remove their own.

    Args:
        permission_id: The permission.
        actor_email: E-mail of the person removing it.
    """
    perm = ctx.get(Permission, permission_id, field="permission_id")
    doc = ctx.get(Document, perm.document_id)
    if actor_email != perm.email:
        _may_share(ctx, doc, actor_email)
    ctx.delete(perm)
    return perm


@service.tool(intent="change who the document's link works for", write=True, example=_example_link)
def set_link_sharing(
    ctx: Ctx,
    document_id: DocumentId,
    actor_email: Email,
    link_sharing: LinkSharing,
    link_role: Role = "reader",
) -> Document:
    """Set who the link opens the document for (nobody extra, the company, anyone) and with what role.

    Only the owner sets link sharing; a public link (anyone) cannot give writer access.

    Args:
        document_id: The document.
        actor_email: E-mail of the owner.
        link_sharing: restricted, domain or anyone.
        link_role: reader, commenter or writer.
    """
    doc = ctx.get(Document, document_id, field="document_id")
    _require(ctx, doc, actor_email, "owner", "actor_email")
    if link_sharing == "anyone" and link_role == "writer":
        raise RuleViolation(
            "a public link cannot give writer access", field="link_role", hint="use domain sharing for writers"
        )
    return ctx.update(doc, link_sharing=link_sharing, link_role=link_role)


@service.tool(intent="make someone else the owner of the document", write=True, example=_example_transfer)
def transfer_ownership(ctx: Ctx, document_id: DocumentId, actor_email: Email, new_owner_email: Email) -> Document:
    """Hand a document to a new owner, who must be a writer inside the company; the old owner becomes a writer.

    Args:
        document_id: The document.
        actor_email: E-mail of the current owner.
        new_owner_email: E-mail of the new owner.
    """
    doc = ctx.get(Document, document_id, field="document_id")
    _require(ctx, doc, actor_email, "owner", "actor_email")
    perm = ctx.first(Permission, document_id=doc.id, email=new_owner_email)
    if perm is None or perm.role != "writer":
        raise RuleViolation(
            f"{new_owner_email} is not a writer of {doc.title}",
            field="new_owner_email",
            hint="share the document with them as writer first",
        )
    name = _name_of(ctx, new_owner_email)
    if not _internal(ctx, new_owner_email) or name is None:
        raise RuleViolation("ownership stays inside the company", field="new_owner_email", hint="pick an employee")
    ctx.delete(perm)
    ctx.create(Permission, document_id=doc.id, email=actor_email, role="writer", granted_by=new_owner_email)
    return ctx.update(doc, owner_email=new_owner_email, owner_name=name)


@service.tool(intent="move the document to the trash", write=True, example=_example_trash)
def trash_document(ctx: Ctx, document_id: DocumentId, actor_email: Email) -> Document:
    """Move a document to the trash (it becomes read-only); only the owner may.

    Args:
        document_id: The document.
        actor_email: E-mail of the owner.
    """
    doc = ctx.get(Document, document_id, field="document_id")
    _require(ctx, doc, actor_email, "owner", "actor_email")
    return ctx.update(doc, trashed=True)


@service.tool(
    intent="restore the document from the trash",
    write=True,
    example=first_example(Document, "document_id", where={"trashed": True}, fields={"actor_email": "owner_email"}),
)
def restore_document(ctx: Ctx, document_id: DocumentId, actor_email: Email) -> Document:
    """Take a document out of the trash; only the owner may.

    Args:
        document_id: The document.
        actor_email: E-mail of the owner.
    """
    doc = ctx.get(Document, document_id, field="document_id")
    _require(ctx, doc, actor_email, "owner", "actor_email", editing=False)
    if not doc.trashed:
        raise RuleViolation(f"{doc.title} is not in the trash", field="document_id", hint="nothing to restore")
    return ctx.update(doc, trashed=False)


@service.tool(intent="list the documents the person can open")
def shared_with_me(ctx: Ctx, email: Email, include_owned: bool = False) -> list[DocumentView]:
    """List the documents shared with a person directly or by company-wide link, newest change first.

    Public links do not put a document in anyone's list; trashed documents are left out.

    Args:
        email: The person's e-mail.
        include_owned: Whether to include documents they own.
    """
    out = []
    inside = _internal(ctx, email)
    for doc in ctx.where(Document, trashed=False):
        if doc.owner_email == email:
            if include_owned:
                out.append(_view(ctx, doc, "owner"))
            continue
        direct = ctx.first(Permission, document_id=doc.id, email=email) is not None
        if direct or (doc.link_sharing == "domain" and inside):
            out.append(_view(ctx, doc, role_of(ctx, doc, email)))
    out.sort(key=lambda v: (v.document.modified_at, v.document.id), reverse=True)
    return out


# -- seed -------------------------------------------------------------------------------------

DOCS: dict[str, tuple[tuple[str, str], ...]] = {
    "Engineering": (
        ("Incident postmortem: VPN outage", "Summary: the VPN gateway failed at 09:12. Impact: remote staff offline."),
        ("Architecture proposal: event bus", "Goal: decouple order processing. Options: queue, log, webhooks."),
    ),
    "Sales": (
        ("Sales playbook 2026", "Qualify with budget, authority, need and timing. Demo within a week."),
        ("Pricing proposal for enterprise tier", "Enterprise tier at 40 per seat with annual billing."),
    ),
    "Support": (("Escalation guide", "Escalate outages to on-call within 15 minutes. Refunds above 500 need a lead."),),
    "Finance": (("Q1 budget review", "Spend is 4 percent under plan. Travel is over by 12 percent."),),
    "People": (("Onboarding checklist", "Day one: laptop, accounts, buddy. Week one: team intros and goals."),),
    "Operations": (("Office move plan", "Movers booked for the last weekend of the month. Pack by Thursday."),),
    "Marketing": (("Launch announcement draft", "We are excited to announce our spring collection, shipping now."),),
}


@service.seeder
def seed(s: SeedContext) -> None:
    """Department documents with revisions, colleagues and a few customers as collaborators, comments, suggestions."""
    pop = s.population
    staff = list(pop.employees)
    by_dept: dict[str, list[Any]] = {}
    for p in staff:
        by_dept.setdefault(department_of(p), []).append(p)
    k = 0
    for dept in sorted(DOCS):
        people = by_dept.get(dept) or staff[:4]
        for j, (title, text) in enumerate(DOCS[dept]):
            k += 1
            owner = people[j % len(people)]
            created = s.ago(days=30 + 3 * k)
            bodies = [text, f"{text}\nNext steps: review with the team.", f"{text}\nNext steps: review and sign off."]
            n_rev = 1 + k % 3
            doc = s.create(
                Document,
                title=title,
                owner_email=owner.email,
                owner_name=owner.name,
                body=bodies[n_rev - 1],
                revision=n_rev,
                word_count=_words(bodies[n_rev - 1]),
                link_sharing=("restricted", "domain", "restricted", "anyone")[k % 4],
                link_role="commenter" if k % 4 == 1 else "reader",
                writers_can_share=k % 5 != 2,
                trashed=k == 7,
                created_at=created,
                modified_at=created + dt.timedelta(days=n_rev),
            )
            others = [p for p in people if p.key != owner.key]
            for r in range(n_rev):
                author = owner if r == 0 or not others else others[r % len(others)]
                s.create(
                    Revision,
                    document_id=doc.id,
                    number=r + 1,
                    author_email=author.email,
                    body=bodies[r],
                    summary="Created" if r == 0 else "Added next steps",
                    created_at=created + dt.timedelta(days=r),
                )
            roles: tuple[Role, ...] = ("writer", "commenter", "reader")
            for i, p in enumerate(others[:3]):
                s.create(
                    Permission,
                    document_id=doc.id,
                    email=p.email,
                    role=roles[i % 3],
                    granted_by=owner.email,
                    created_at=created,
                )
            if dept == "Sales":
                guest = pop.contacts[j]
                s.create(
                    Permission,
                    document_id=doc.id,
                    email=guest.email,
                    role="commenter",
                    granted_by=owner.email,
                    created_at=created,
                )
            critic = others[1] if len(others) > 1 else owner
            first_word = text.split()[0]
            root = s.create(
                Comment,
                document_id=doc.id,
                author_email=critic.email,
                content="Can we add numbers to support this?",
                quoted_text=first_word,
                resolved=k % 3 == 0,
                created_at=created + dt.timedelta(hours=5),
            )
            s.create(
                Comment,
                document_id=doc.id,
                parent_id=root.id,
                author_email=owner.email,
                content="Good point, adding them.",
                created_at=created + dt.timedelta(hours=7),
            )
            s.create(
                Suggestion,
                document_id=doc.id,
                author_email=critic.email,
                target_text="review" if "review" in doc.body else first_word,
                new_text="final review",
                status="pending" if k % 2 == 0 else "rejected",
                decided_by=None if k % 2 == 0 else owner.email,
                created_at=created + dt.timedelta(hours=6),
            )
