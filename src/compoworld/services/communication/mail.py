"""Quill Mail: the home company's mailboxes, messages, threads, labels and drafts.

Modeled on the Gmail API v1 (users, users.messages, users.threads,
users.labels, users.drafts): every employee has a mailbox; each mailbox holds
its own copy of every message it sent or received, grouped into threads and
tagged with labels. System labels (INBOX, SENT, DRAFT, TRASH, SPAM, STARRED,
IMPORTANT, UNREAD) carry the message state: archiving removes INBOX, reading
removes UNREAD, trashing adds TRASH. Mail between two employees is delivered
into the recipient's mailbox; mail to anyone else leaves the world.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Annotated, Any, Literal

from pydantic import BaseModel, Field

from compoworld.engine.context import Ctx
from compoworld.engine.entities import Person
from compoworld.engine.errors import Conflict, NotFound, RuleViolation
from compoworld.engine.records import CREATED, UPDATED, Deleted, Record
from compoworld.engine.service import Service
from compoworld.engine.state import SeedContext
from compoworld.engine.types import DateTime, Email, FileLink, IdOf, PersonName, Quantity, Text, Title
from compoworld.services.kit.examples import first_example
from compoworld.services.kit.records import Created, Value
from compoworld.services.kit.time import utc_at

__all__ = ["service"]

service = Service(
    "mail",
    title="Quill Mail",
    category="email",
    modeled_on="Gmail API v1 (users.messages, users.threads, users.labels, users.drafts)",
    description="The company's e-mail: each employee's mailbox with its messages, conversation threads, "
    "system and user labels and unsent drafts; sending, replying, forwarding, archiving and trashing mail.",
)

MailboxId = Annotated[str, IdOf("mail.mailbox")]
LabelId = Annotated[str, IdOf("mail.label")]
ThreadId = Annotated[str, IdOf("mail.thread")]
MessageId = Annotated[str, IdOf("mail.message")]

SYSTEM_LABELS: tuple[str, ...] = ("INBOX", "SENT", "DRAFT", "TRASH", "SPAM", "STARRED", "IMPORTANT", "UNREAD")
"""Gmail's system labels; every mailbox has one label record of each."""
FIXED_LABELS: tuple[str, ...] = ("DRAFT", "SENT")
"""System labels that follow from a message's state and cannot be added or removed by hand."""
MAX_RECIPIENTS = 500
"""Gmail's limit of recipients (to, cc and bcc together) per message."""
MAX_ATTACHMENT_BYTES = 25 * 1024 * 1024
"""Gmail's limit on the total size of a message's attachments (25 MB)."""
LabelColor = Literal["red", "orange", "yellow", "green", "teal", "blue", "purple", "gray"]


class Attachment(Value):
    """A file attached to a message, stored in the company's file storage."""

    filename: str = Field(min_length=1, max_length=255, description="File name shown to the reader.")
    mime_type: str = Field(
        default="application/octet-stream",
        pattern=r"^[a-z]+/[a-zA-Z0-9.+-]+$",
        description="MIME type, e.g. application/pdf.",
    )
    size_bytes: Quantity = Field(description="Size of the file in bytes.")
    link: FileLink = Field(description="Shareable link to the stored file.")


class Mailbox(Created):
    """An employee's mailbox (a Gmail user)."""

    id: MailboxId
    email: Email
    """The mailbox's e-mail address (the employee's work address)."""
    display_name: PersonName
    """Name shown as the sender of mail from this mailbox."""
    signature: Text = ""
    """Signature text the employee appends to mail."""


class Label(Record):
    """A label of one mailbox: a system label or one the user made."""

    id: LabelId
    mailbox_id: MailboxId
    """The mailbox the label belongs to."""
    name: Title
    """Label name; nest with a slash (``Clients/Acme``). System labels have upper-case names."""
    type: Literal["system", "user"] = "user"
    """System labels are built in and cannot be renamed or deleted."""
    color: LabelColor | None = None
    """Display colour of a user label."""
    message_list_visibility: Literal["show", "hide"] = "show"
    """Whether messages show the label in the message list."""
    label_list_visibility: Literal["show", "show_if_unread", "hide"] = "show"
    """Whether the label shows in the label list."""


class Thread(Record):
    """A conversation: a message and its replies, in one mailbox."""

    id: ThreadId
    mailbox_id: MailboxId
    """The mailbox the thread belongs to."""
    subject: Title
    """Subject of the thread's first message."""
    last_message_at: DateTime
    """When the latest message of the thread was sent, received or saved."""
    created_at: Annotated[DateTime, CREATED]
    """When the thread started."""


class Message(Record):
    """One mailbox's copy of an e-mail: sent, received or a draft."""

    id: MessageId
    mailbox_id: MailboxId
    """The mailbox holding this copy."""
    thread_id: ThreadId
    """The conversation the message belongs to."""
    state: Literal["draft", "sent", "received"]
    """draft: not sent yet and editable; sent: sent from this mailbox; received: delivered to it."""
    rfc822_id: str
    """The Message-ID header, shared by every mailbox's copy of the same e-mail."""
    in_reply_to: str | None = None
    """The Message-ID header of the message this one replies to."""
    from_email: Email
    """Sender's e-mail address."""
    from_name: PersonName | None = None
    """Sender's display name."""
    to: tuple[Email, ...] = ()
    """Primary recipients."""
    cc: tuple[Email, ...] = ()
    """Carbon-copy recipients."""
    bcc: tuple[Email, ...] = ()
    """Blind-copy recipients; only the sender's copy lists them."""
    subject: Title
    """Subject line."""
    body: Text = ""
    """Plain-text body."""
    attachments: tuple[Attachment, ...] = ()
    """Attached files."""
    label_ids: tuple[LabelId, ...] = ()
    """Labels on the message (system and user labels of its mailbox)."""
    sent_at: DateTime | None = None
    """When it was sent; null for a draft."""
    updated_at: Annotated[DateTime, UPDATED]
    """When this copy last changed (labels, draft edits)."""


class LabelCounts(BaseModel):
    """How many messages and threads carry a label."""

    label_id: LabelId = Field(description="The label.")
    name: Title = Field(description="The label's name.")
    messages_total: Quantity = Field(description="Messages with the label.")
    messages_unread: Quantity = Field(description="Of those, messages that are unread.")
    threads_total: Quantity = Field(description="Threads with at least one message with the label.")
    threads_unread: Quantity = Field(description="Of those, threads with an unread message with the label.")


# -- helpers ----------------------------------------------------------------------------


def _system_label(ctx: Ctx, mailbox_id: str, name: str) -> str:
    label = ctx.first(Label, mailbox_id=mailbox_id, name=name, type="system")
    if label is None:
        raise RuleViolation(
            f"mailbox {mailbox_id} has no {name} system label",
            field="mailbox_id",
            hint="use a mailbox listed by mail__list_mailboxes",
        )
    return label.id


def _system_names(ctx: Ctx, label_ids: Iterable[str]) -> set[str]:
    names: set[str] = set()
    for lid in label_ids:
        label = ctx.find(Label, lid)
        if label is not None and label.type == "system":
            names.add(label.name)
    return names


def _with_labels(ctx: Ctx, msg: Message, add: Sequence[str] = (), remove: Sequence[str] = ()) -> tuple[str, ...]:
    """The message's label ids with system labels (by name) added and removed, order kept."""
    drop = {_system_label(ctx, msg.mailbox_id, n) for n in remove}
    ids = [lid for lid in msg.label_ids if lid not in drop]
    for name in add:
        lid = _system_label(ctx, msg.mailbox_id, name)
        if lid not in ids:
            ids.append(lid)
    return tuple(ids)


def _has(ctx: Ctx, msg: Message, name: str) -> bool:
    return _system_label(ctx, msg.mailbox_id, name) in msg.label_ids


def _unique(addresses: Iterable[str]) -> tuple[str, ...]:
    return tuple(dict.fromkeys(a.lower() for a in addresses))


def _check_recipients(to: Sequence[str], cc: Sequence[str], bcc: Sequence[str], *, field: str = "to") -> None:
    total = len(_unique([*to, *cc, *bcc]))
    if total == 0:
        raise RuleViolation(
            "a message needs at least one recipient",
            field=field,
            hint="give at least one e-mail address in to, cc or bcc",
        )
    if total > MAX_RECIPIENTS:
        raise RuleViolation(
            f"a message can have at most {MAX_RECIPIENTS} recipients, this one has {total}",
            field=field,
            hint="split the recipients over several messages",
        )


def _check_attachments(attachments: Sequence[Attachment], *, field: str = "attachments") -> None:
    total = sum(a.size_bytes for a in attachments)
    if total > MAX_ATTACHMENT_BYTES:
        raise RuleViolation(
            f"attachments total {total} bytes, over the limit of {MAX_ATTACHMENT_BYTES} bytes (25 MB)",
            field=field,
            hint="put the link to the stored file in the body instead of attaching it",
        )


def _new_rfc822_id(ctx: Ctx, from_email: str) -> str:
    n = ctx.next_number(Message, "rfc822")
    return f"<m{n}@{from_email.split('@', 1)[1]}>"


def _prefixed(prefix: str, subject: str) -> str:
    if subject.lower().startswith(prefix.lower()):
        return subject
    return f"{prefix}{subject}"[:200]


def _touch_thread(ctx: Ctx, thread_id: str, at: dt.datetime) -> None:
    thread = ctx.get(Thread, thread_id)
    if thread.last_message_at < at:
        ctx.update(thread, last_message_at=at)


def _drop_thread_if_empty(ctx: Ctx, thread_id: str) -> None:
    if ctx.first(Message, thread_id=thread_id) is None:
        thread = ctx.find(Thread, thread_id)
        if thread is not None:
            ctx.delete(thread)


def _deliver(ctx: Ctx, sent: Message) -> None:
    """Put a received copy of ``sent`` into the mailbox of every employee it is addressed to."""
    assert sent.sent_at is not None
    for address in _unique([*sent.to, *sent.cc, *sent.bcc]):
        box = ctx.first(Mailbox, email=address)
        if box is None:
            continue  # an outside address: the mail leaves the world
        if box.id == sent.mailbox_id:
            # Sent to oneself: Gmail shows the sent copy in the inbox too.
            ctx.update(sent, label_ids=_with_labels(ctx, sent, add=("INBOX",)))
            continue
        parent = ctx.first(Message, rfc822_id=sent.in_reply_to, mailbox_id=box.id) if sent.in_reply_to else None
        if parent is not None:
            thread_id = parent.thread_id
            _touch_thread(ctx, thread_id, sent.sent_at)
        else:
            thread_id = ctx.create(Thread, mailbox_id=box.id, subject=sent.subject, last_message_at=sent.sent_at).id
        ctx.create(
            Message,
            mailbox_id=box.id,
            thread_id=thread_id,
            state="received",
            rfc822_id=sent.rfc822_id,
            in_reply_to=sent.in_reply_to,
            from_email=sent.from_email,
            from_name=sent.from_name,
            to=sent.to,
            cc=sent.cc,
            subject=sent.subject,
            body=sent.body,
            attachments=sent.attachments,
            label_ids=(_system_label(ctx, box.id, "INBOX"), _system_label(ctx, box.id, "UNREAD")),
            sent_at=sent.sent_at,
        )


def _compose(
    ctx: Ctx,
    box: Mailbox,
    thread_id: str,
    state: Literal["sent", "draft"],
    *,
    to: Sequence[str],
    cc: Sequence[str],
    bcc: Sequence[str],
    subject: str,
    body: str,
    attachments: Sequence[Attachment],
    in_reply_to: str | None,
    sent_at: dt.datetime | None,
) -> Message:
    """The author's own copy of a new message: sent (labelled SENT) or a draft (labelled DRAFT)."""
    return ctx.create(
        Message,
        mailbox_id=box.id,
        thread_id=thread_id,
        state=state,
        rfc822_id=_new_rfc822_id(ctx, box.email),
        in_reply_to=in_reply_to,
        from_email=box.email,
        from_name=box.display_name,
        to=_unique(to),
        cc=_unique(cc),
        bcc=_unique(bcc),
        subject=subject,
        body=body,
        attachments=tuple(attachments),
        label_ids=(_system_label(ctx, box.id, "SENT" if state == "sent" else "DRAFT"),),
        sent_at=sent_at,
    )


def _send(
    ctx: Ctx,
    box: Mailbox,
    *,
    to: Sequence[str],
    cc: Sequence[str],
    bcc: Sequence[str],
    subject: str,
    body: str,
    attachments: Sequence[Attachment],
    thread_id: str | None,
    in_reply_to: str | None,
) -> Message:
    now = ctx.now()
    if thread_id is None:
        thread_id = ctx.create(Thread, mailbox_id=box.id, subject=subject, last_message_at=now).id
    else:
        _touch_thread(ctx, thread_id, now)
    msg = _compose(
        ctx,
        box,
        thread_id,
        "sent",
        to=to,
        cc=cc,
        bcc=bcc,
        subject=subject,
        body=body,
        attachments=attachments,
        in_reply_to=in_reply_to,
        sent_at=now,
    )
    _deliver(ctx, msg)
    return ctx.get(Message, msg.id)


def _not_a_draft(msg: Message, action: str, hint: str) -> None:
    if msg.state == "draft":
        raise RuleViolation(f"cannot {action} message {msg.id}: it is a draft", field="message_id", hint=hint)


def _must_be_draft(msg: Message, hint: str) -> None:
    if msg.state != "draft":
        raise RuleViolation(
            f"message {msg.id} was already {msg.state} and cannot be edited; only drafts can",
            field="message_id",
            hint=hint,
        )


def _reply_recipients(msg: Message, own: str, reply_all: bool) -> tuple[tuple[str, ...], tuple[str, ...]]:
    if msg.state == "sent":
        to = msg.to or msg.cc
        cc = msg.cc if reply_all and msg.to else ()
    else:
        to = (msg.from_email,)
        cc = tuple(a for a in (*msg.to, *msg.cc) if a not in (own, msg.from_email)) if reply_all else ()
    return _unique(to), tuple(a for a in _unique(cc) if a not in to)


# -- guards of the standard tools --------------------------------------------------------


def _check_label_name(ctx: Ctx, label: Label) -> None:
    if label.name.upper() in SYSTEM_LABELS:
        raise Conflict(
            f"{label.name!r} is the name of a system label",
            field="name",
            hint="choose another name; system labels already exist in every mailbox",
        )
    for other in ctx.where(Label, mailbox_id=label.mailbox_id):
        if other.id != label.id and other.name.casefold() == label.name.casefold():
            raise Conflict(
                f"mailbox {label.mailbox_id} already has a label named {other.name!r} ({other.id})",
                field="name",
                hint="use the existing label or choose another name",
            )


def _guard_label_create(ctx: Ctx, new: Any, old: Any) -> None:
    _check_label_name(ctx, new)


def _guard_label_update(ctx: Ctx, new: Any, old: Any) -> None:
    if old.type == "system":
        raise RuleViolation(
            f"{old.name} is a system label and cannot be changed",
            field="label_id",
            hint="create a user label with mail__create_label instead",
        )
    if new.name != old.name:
        _check_label_name(ctx, new)


mailboxes = service.resource(
    Mailbox,
    name="mailbox",
    plural="mailboxes",
    prefix="mbx",
    create=False,
    filters=("email",),
    search=("email", "display_name"),
    update=("display_name", "signature"),
    delete=False,
    unique=("email",),
)
labels = service.resource(
    Label,
    name="label",
    plural="labels",
    prefix="lbl",
    create=("mailbox_id", "name", "color", "message_list_visibility", "label_list_visibility"),
    filters=("mailbox_id", "type", "name"),
    search=("name",),
    update=("name", "color", "message_list_visibility", "label_list_visibility"),
    delete=False,
    guard_create=_guard_label_create,
    guard_update=_guard_label_update,
)
threads = service.resource(
    Thread,
    name="thread",
    plural="threads",
    prefix="thr",
    create=False,
    filters=("mailbox_id",),
    search=("subject",),
    delete=False,
)
messages = service.resource(
    Message,
    name="message",
    plural="messages",
    prefix="msg",
    create=False,
    filters=("mailbox_id", "thread_id", "state", "from_email", "rfc822_id"),
    search=("subject", "body", "from_email"),
    delete=False,
)


# -- examples for the conformance suite ---------------------------------------------------


def _first_message(
    ctx: Ctx, *, state: str | None = None, with_label: str | None = None, without: str = ""
) -> Message | None:
    for msg in ctx.scan(Message):
        if state is not None and msg.state != state:
            continue
        if state is None and msg.state == "draft":
            continue
        names = _system_names(ctx, msg.label_ids)
        if with_label is not None and with_label not in names:
            continue
        if without and without in names:
            continue
        return msg
    return None


def _example_of(msg: Message | None, **extra: Any) -> dict[str, Any] | None:
    return None if msg is None else {"message_id": msg.id, **extra}


def _example_send(ctx: Ctx) -> dict[str, Any] | None:
    box = ctx.first(Mailbox)
    if box is None:
        return None
    return {
        "mailbox_id": box.id,
        "to": [ctx.population.contacts[0].email],
        "subject": "Following up on our call",
        "body": "Hi, thanks for your time today. Best regards",
    }


def _example_reply(ctx: Ctx) -> dict[str, Any] | None:
    return _example_of(_first_message(ctx, state="received"), body="Thanks, noted.")


def _example_forward(ctx: Ctx) -> dict[str, Any] | None:
    return _example_of(_first_message(ctx, state="received"), to=[ctx.population.employees[1].email], note="FYI")


def _example_update_draft(ctx: Ctx) -> dict[str, Any] | None:
    return _example_of(_first_message(ctx, state="draft"), body="Revised text of the draft.")


_example_send_draft = first_example(
    Message, "message_id", where={"state": "draft"}, match=lambda ctx, m: bool(m.to or m.cc or m.bcc)
)


def _example_delete_draft(ctx: Ctx) -> dict[str, Any] | None:
    return _example_of(_first_message(ctx, state="draft"))


def _example_modify(ctx: Ctx) -> dict[str, Any] | None:
    msg = _first_message(ctx, without="STARRED")
    if msg is None:
        return None
    return {"message_id": msg.id, "add_label_ids": [_system_label(ctx, msg.mailbox_id, "STARRED")]}


def _example_archive(ctx: Ctx) -> dict[str, Any] | None:
    return _example_of(_first_message(ctx, with_label="INBOX"))


def _example_trash(ctx: Ctx) -> dict[str, Any] | None:
    return _example_of(_first_message(ctx, without="TRASH"))


def _example_untrash(ctx: Ctx) -> dict[str, Any] | None:
    return _example_of(_first_message(ctx, with_label="TRASH"))


def _example_mark_read(ctx: Ctx) -> dict[str, Any] | None:
    return _example_of(_first_message(ctx, with_label="UNREAD"))


def _example_mark_unread(ctx: Ctx) -> dict[str, Any] | None:
    return _example_of(_first_message(ctx, state="received", without="UNREAD"))


# -- sending ----------------------------------------------------------------------------


@service.tool(intent="send an e-mail", write=True, example=_example_send)
def send_message(
    ctx: Ctx,
    mailbox_id: MailboxId,
    to: tuple[Email, ...],
    subject: Title,
    body: Text = "",
    cc: tuple[Email, ...] = (),
    bcc: tuple[Email, ...] = (),
    attachments: tuple[Attachment, ...] = (),
) -> Message:
    """Send a new e-mail from a mailbox, starting a new thread.

    The message needs at least one recipient (to, cc or bcc; at most 500) and
    its attachments may total at most 25 MB. Employees it is addressed to
    receive it in their inbox, unread.

    Args:
        mailbox_id: The sender's mailbox.
        to: Primary recipients' e-mail addresses.
        subject: Subject line.
        body: Plain-text body.
        cc: Carbon-copy recipients.
        bcc: Blind-copy recipients (hidden from the other recipients).
        attachments: Files to attach, each with a link to the stored file.
    """
    box = ctx.get(Mailbox, mailbox_id, field="mailbox_id")
    _check_recipients(to, cc, bcc)
    _check_attachments(attachments)
    return _send(
        ctx,
        box,
        to=to,
        cc=cc,
        bcc=bcc,
        subject=subject,
        body=body,
        attachments=attachments,
        thread_id=None,
        in_reply_to=None,
    )


@service.tool(intent="reply to the e-mail", write=True, example=_example_reply)
def reply_to_message(
    ctx: Ctx,
    message_id: MessageId,
    body: Text,
    reply_all: bool = False,
    attachments: tuple[Attachment, ...] = (),
) -> Message:
    """Reply to a message from the mailbox holding it, in the same thread.

    The reply goes to the original sender (or, replying to one's own sent
    message, to its recipients); reply_all adds the other recipients. The
    subject gets a "Re: " prefix. Drafts cannot be replied to.

    Args:
        message_id: The message to reply to.
        body: Text of the reply.
        reply_all: Whether to also reply to everyone else on the message.
        attachments: Files to attach to the reply.
    """
    msg = ctx.get(Message, message_id, field="message_id")
    _not_a_draft(msg, "reply to", "send the draft with mail__send_draft or edit it with mail__update_draft")
    box = ctx.get(Mailbox, msg.mailbox_id)
    to, cc = _reply_recipients(msg, box.email, reply_all)
    _check_recipients(to, cc, (), field="message_id")
    _check_attachments(attachments)
    return _send(
        ctx,
        box,
        to=to,
        cc=cc,
        bcc=(),
        subject=_prefixed("Re: ", msg.subject),
        body=body,
        attachments=attachments,
        thread_id=msg.thread_id,
        in_reply_to=msg.rfc822_id,
    )


@service.tool(intent="forward the e-mail", write=True, example=_example_forward)
def forward_message(
    ctx: Ctx,
    message_id: MessageId,
    to: tuple[Email, ...],
    note: Text = "",
    cc: tuple[Email, ...] = (),
) -> Message:
    """Forward a message, with its attachments, to new recipients in a new thread.

    The subject gets a "Fwd: " prefix and the original message is quoted under
    the note. Drafts cannot be forwarded.

    Args:
        message_id: The message to forward.
        to: Recipients' e-mail addresses.
        note: Text written above the forwarded message.
        cc: Carbon-copy recipients.
    """
    msg = ctx.get(Message, message_id, field="message_id")
    _not_a_draft(msg, "forward", "send the draft first with mail__send_draft")
    _check_recipients(to, cc, ())
    box = ctx.get(Mailbox, msg.mailbox_id)
    sender = f"{msg.from_name} <{msg.from_email}>" if msg.from_name else msg.from_email
    quoted = (
        f"{note}\n\n---------- Forwarded message ---------\nFrom: {sender}\n"
        f"Subject: {msg.subject}\nTo: {', '.join(msg.to)}\n\n{msg.body}"
    )
    return _send(
        ctx,
        box,
        to=to,
        cc=cc,
        bcc=(),
        subject=_prefixed("Fwd: ", msg.subject),
        body=quoted.lstrip("\n")[:20000],
        attachments=msg.attachments,
        thread_id=None,
        in_reply_to=None,
    )


# -- drafts -----------------------------------------------------------------------------


@service.tool(
    intent="write a draft e-mail",
    write=True,
    example=first_example(Mailbox, "mailbox_id", subject="Draft: quarterly update", body="Notes"),
)
def create_draft(
    ctx: Ctx,
    mailbox_id: MailboxId,
    subject: Title,
    body: Text = "",
    to: tuple[Email, ...] = (),
    cc: tuple[Email, ...] = (),
    bcc: tuple[Email, ...] = (),
    attachments: tuple[Attachment, ...] = (),
    reply_to_message_id: MessageId | None = None,
) -> Message:
    """Save an unsent draft; recipients may be added later.

    A draft replying to a message joins that message's thread; the message must
    be in the same mailbox and must not itself be a draft.

    Args:
        mailbox_id: The mailbox the draft is written in.
        subject: Subject line.
        body: Plain-text body.
        to: Primary recipients (may be empty until sending).
        cc: Carbon-copy recipients.
        bcc: Blind-copy recipients.
        attachments: Files to attach.
        reply_to_message_id: A message of the same mailbox the draft answers.
    """
    box = ctx.get(Mailbox, mailbox_id, field="mailbox_id")
    _check_attachments(attachments)
    thread_id: str | None = None
    in_reply_to: str | None = None
    if reply_to_message_id is not None:
        parent = ctx.get(Message, reply_to_message_id, field="reply_to_message_id")
        if parent.mailbox_id != box.id:
            raise RuleViolation(
                f"message {parent.id} is in another mailbox ({parent.mailbox_id})",
                field="reply_to_message_id",
                hint="reply to a message of the draft's own mailbox",
            )
        if parent.state == "draft":
            raise RuleViolation(
                f"cannot reply to message {parent.id}: it is a draft",
                field="reply_to_message_id",
                hint="reply to a sent or received message",
            )
        thread_id, in_reply_to = parent.thread_id, parent.rfc822_id
        _touch_thread(ctx, thread_id, ctx.now())
    else:
        thread_id = ctx.create(Thread, mailbox_id=box.id, subject=subject, last_message_at=ctx.now()).id
    return _compose(
        ctx,
        box,
        thread_id,
        "draft",
        to=to,
        cc=cc,
        bcc=bcc,
        subject=subject,
        body=body,
        attachments=attachments,
        in_reply_to=in_reply_to,
        sent_at=None,
    )


@service.tool(intent="edit the draft", write=True, idempotent=True, example=_example_update_draft)
def update_draft(
    ctx: Ctx,
    message_id: MessageId,
    subject: Title | None = None,
    body: Text | None = None,
    to: tuple[Email, ...] | None = None,
    cc: tuple[Email, ...] | None = None,
    bcc: tuple[Email, ...] | None = None,
    attachments: tuple[Attachment, ...] | None = None,
) -> Message:
    """Change a draft; omitted fields keep their values, given lists replace the old ones.

    Only drafts can be edited: a sent or received message is final.

    Args:
        message_id: The draft.
        subject: New subject line.
        body: New body.
        to: New primary recipients.
        cc: New carbon-copy recipients.
        bcc: New blind-copy recipients.
        attachments: New attachment list.
    """
    msg = ctx.get(Message, message_id, field="message_id")
    _must_be_draft(msg, "send a follow-up with mail__reply_to_message or mail__send_message instead")
    changes: dict[str, Any] = {}
    if subject is not None:
        changes["subject"] = subject
    if body is not None:
        changes["body"] = body
    for name, value in (("to", to), ("cc", cc), ("bcc", bcc)):
        if value is not None:
            changes[name] = _unique(value)
    if attachments is not None:
        _check_attachments(attachments)
        changes["attachments"] = tuple(attachments)
    if not changes:
        raise RuleViolation(
            f"nothing to change on draft {msg.id}",
            hint="pass at least one of: subject, body, to, cc, bcc, attachments",
        )
    new = ctx.update(msg, **changes)
    thread = ctx.get(Thread, msg.thread_id)
    if "subject" in changes and msg.in_reply_to is None and ctx.where(Message, thread_id=thread.id) == [new]:
        ctx.update(thread, subject=new.subject, last_message_at=max(thread.last_message_at, ctx.now()))
    else:
        _touch_thread(ctx, thread.id, ctx.now())
    return new


@service.tool(intent="send the draft", write=True, example=_example_send_draft)
def send_draft(ctx: Ctx, message_id: MessageId) -> Message:
    """Send a draft as it is; it becomes a sent message in its thread.

    The draft needs at least one recipient; add them with update_draft first.

    Args:
        message_id: The draft to send.
    """
    msg = ctx.get(Message, message_id, field="message_id")
    if msg.state != "draft":
        raise RuleViolation(
            f"message {msg.id} is not a draft (it was {msg.state})",
            field="message_id",
            hint="only drafts can be sent; reply to or forward a sent message instead",
        )
    if not (msg.to or msg.cc or msg.bcc):
        raise RuleViolation(
            f"draft {msg.id} has no recipients",
            field="message_id",
            hint="add recipients with mail__update_draft, then send it",
        )
    _check_recipients(msg.to, msg.cc, msg.bcc, field="message_id")
    _check_attachments(msg.attachments, field="message_id")
    now = ctx.now()
    sent = ctx.update(msg, state="sent", sent_at=now, label_ids=_with_labels(ctx, msg, ("SENT",), ("DRAFT",)))
    _touch_thread(ctx, msg.thread_id, now)
    _deliver(ctx, sent)
    return ctx.get(Message, msg.id)


@service.tool(intent="discard the draft", write=True, destructive=True, example=_example_delete_draft)
def delete_draft(ctx: Ctx, message_id: MessageId) -> Deleted:
    """Discard a draft permanently. Sent and received messages are trashed instead.

    Args:
        message_id: The draft to discard.
    """
    msg = ctx.get(Message, message_id, field="message_id")
    if msg.state != "draft":
        raise RuleViolation(
            f"message {msg.id} is not a draft (it was {msg.state})",
            field="message_id",
            hint="move sent and received messages to the trash with mail__trash_message",
        )
    ctx.delete(msg)
    _drop_thread_if_empty(ctx, msg.thread_id)
    return Deleted(id=msg.id)


# -- labels and message state ----------------------------------------------------------


def _label_of_mailbox(ctx: Ctx, label_id: str, mailbox_id: str, field: str) -> Label:
    label = ctx.find(Label, label_id)
    if label is None:
        raise NotFound(f"no label with id {label_id!r}", field=field, hint="list the mailbox's labels first")
    if label.mailbox_id != mailbox_id:
        raise RuleViolation(
            f"label {label.id} belongs to mailbox {label.mailbox_id}, not to the message's mailbox {mailbox_id}",
            field=field,
            hint="use a label of the message's own mailbox",
        )
    if label.type == "system" and label.name in FIXED_LABELS:
        raise RuleViolation(
            f"the {label.name} label follows from the message's state and cannot be added or removed",
            field=field,
            hint="send drafts with mail__send_draft; use other labels freely",
        )
    return label


@service.tool(intent="change the labels on the e-mail", write=True, idempotent=True, example=_example_modify)
def modify_message_labels(
    ctx: Ctx,
    message_id: MessageId,
    add_label_ids: tuple[LabelId, ...] = (),
    remove_label_ids: tuple[LabelId, ...] = (),
) -> Message:
    """Add and remove labels on a message (star, mark important, file under a user label …).

    Labels must belong to the message's mailbox; DRAFT and SENT follow from the
    message's state and cannot be changed.

    Args:
        message_id: The message.
        add_label_ids: Labels to add.
        remove_label_ids: Labels to remove.
    """
    msg = ctx.get(Message, message_id, field="message_id")
    if not add_label_ids and not remove_label_ids:
        raise RuleViolation(
            "no labels to add or remove", field="add_label_ids", hint="pass add_label_ids or remove_label_ids"
        )
    both = set(add_label_ids) & set(remove_label_ids)
    if both:
        raise RuleViolation(
            f"label(s) {', '.join(sorted(both))} are both added and removed",
            field="remove_label_ids",
            hint="name each label in only one of the two lists",
        )
    for i, lid in enumerate(add_label_ids):
        _label_of_mailbox(ctx, lid, msg.mailbox_id, f"add_label_ids.{i}")
    for i, lid in enumerate(remove_label_ids):
        _label_of_mailbox(ctx, lid, msg.mailbox_id, f"remove_label_ids.{i}")
    new_ids = [lid for lid in msg.label_ids if lid not in set(remove_label_ids)]
    new_ids.extend(lid for lid in dict.fromkeys(add_label_ids) if lid not in new_ids)
    if tuple(new_ids) == msg.label_ids:
        return msg
    return ctx.update(msg, label_ids=tuple(new_ids))


@service.tool(intent="archive the e-mail", write=True, example=_example_archive)
def archive_message(ctx: Ctx, message_id: MessageId) -> Message:
    """Archive a message: remove it from the inbox, keeping its other labels.

    Args:
        message_id: A message in the inbox.
    """
    msg = ctx.get(Message, message_id, field="message_id")
    if not _has(ctx, msg, "INBOX"):
        raise RuleViolation(
            f"message {msg.id} is not in the inbox",
            field="message_id",
            hint="only inbox messages can be archived; use mail__search_messages with the INBOX label",
        )
    return ctx.update(msg, label_ids=_with_labels(ctx, msg, remove=("INBOX",)))


@service.tool(intent="move the e-mail to the trash", write=True, example=_example_trash)
def trash_message(ctx: Ctx, message_id: MessageId) -> Message:
    """Move a message to the trash (it leaves the inbox). Drafts are discarded with delete_draft.

    Args:
        message_id: The message.
    """
    msg = ctx.get(Message, message_id, field="message_id")
    _not_a_draft(msg, "trash", "discard a draft with mail__delete_draft")
    if _has(ctx, msg, "TRASH"):
        raise RuleViolation(
            f"message {msg.id} is already in the trash",
            field="message_id",
            hint="restore it with mail__untrash_message or delete it for good with mail__delete_message",
        )
    return ctx.update(msg, label_ids=_with_labels(ctx, msg, add=("TRASH",), remove=("INBOX",)))


@service.tool(intent="take the e-mail out of the trash", write=True, example=_example_untrash)
def untrash_message(ctx: Ctx, message_id: MessageId) -> Message:
    """Restore a trashed message; a received message returns to the inbox.

    Args:
        message_id: A message in the trash.
    """
    msg = ctx.get(Message, message_id, field="message_id")
    if not _has(ctx, msg, "TRASH"):
        raise RuleViolation(
            f"message {msg.id} is not in the trash",
            field="message_id",
            hint="find trashed messages with mail__search_messages and the TRASH label",
        )
    add = ("INBOX",) if msg.state == "received" else ()
    return ctx.update(msg, label_ids=_with_labels(ctx, msg, add=add, remove=("TRASH",)))


@service.tool(intent="permanently delete the e-mail", write=True, destructive=True, example=_example_untrash)
def delete_message(ctx: Ctx, message_id: MessageId) -> Deleted:
    """Delete a message for good; only messages already in the trash can be deleted.

    Args:
        message_id: A message in the trash.
    """
    msg = ctx.get(Message, message_id, field="message_id")
    if not _has(ctx, msg, "TRASH"):
        raise RuleViolation(
            f"message {msg.id} is not in the trash",
            field="message_id",
            hint="move it to the trash with mail__trash_message first",
        )
    ctx.delete(msg)
    _drop_thread_if_empty(ctx, msg.thread_id)
    return Deleted(id=msg.id)


@service.tool(intent="mark the e-mail as read", write=True, idempotent=True, example=_example_mark_read)
def mark_message_read(ctx: Ctx, message_id: MessageId) -> Message:
    """Mark a message as read (removes the UNREAD label); already-read messages stay as they are.

    Args:
        message_id: The message.
    """
    msg = ctx.get(Message, message_id, field="message_id")
    if not _has(ctx, msg, "UNREAD"):
        return msg
    return ctx.update(msg, label_ids=_with_labels(ctx, msg, remove=("UNREAD",)))


@service.tool(intent="mark the e-mail as unread", write=True, idempotent=True, example=_example_mark_unread)
def mark_message_unread(ctx: Ctx, message_id: MessageId) -> Message:
    """Mark a message as unread (adds the UNREAD label). Drafts cannot be unread.

    Args:
        message_id: The message.
    """
    msg = ctx.get(Message, message_id, field="message_id")
    _not_a_draft(msg, "mark unread", "drafts have no read state")
    if _has(ctx, msg, "UNREAD"):
        return msg
    return ctx.update(msg, label_ids=_with_labels(ctx, msg, add=("UNREAD",)))


@service.tool(
    intent="delete the label",
    write=True,
    destructive=True,
    example=first_example(Label, "label_id", where={"type": "user"}),
)
def delete_label(ctx: Ctx, label_id: LabelId) -> Deleted:
    """Delete a user label and remove it from every message that has it. System labels cannot be deleted.

    Args:
        label_id: The user label.
    """
    label = ctx.get(Label, label_id, field="label_id")
    if label.type == "system":
        raise RuleViolation(
            f"{label.name} is a system label and cannot be deleted",
            field="label_id",
            hint="only labels the user created can be deleted",
        )
    for msg in ctx.where(Message, mailbox_id=label.mailbox_id):
        if label.id in msg.label_ids:
            ctx.update(msg, label_ids=tuple(lid for lid in msg.label_ids if lid != label.id))
    ctx.delete(label)
    return Deleted(id=label.id)


# -- reading ----------------------------------------------------------------------------


def _timestamp(msg: Message) -> dt.datetime:
    return msg.sent_at or msg.updated_at


@service.tool(intent="search the mailbox")
def search_messages(
    ctx: Ctx,
    mailbox_id: MailboxId,
    label_id: LabelId | None = None,
    query: str | None = None,
    from_email: Email | None = None,
    unread_only: bool = False,
    include_spam_trash: bool = False,
    limit: Annotated[int, Field(ge=1, le=100)] = 20,
) -> list[Message]:
    """Search a mailbox's messages, newest first.

    Like Gmail, spam and trash are left out unless include_spam_trash is set or
    the TRASH or SPAM label is asked for.

    Args:
        mailbox_id: The mailbox to search.
        label_id: Only messages with this label (e.g. the mailbox's INBOX label).
        query: Case-insensitive text in the subject, body, sender or recipients.
        from_email: Only messages from this address.
        unread_only: Only unread messages.
        include_spam_trash: Also search spam and trash.
        limit: Maximum number of messages to return (1 to 100).
    """
    ctx.get(Mailbox, mailbox_id, field="mailbox_id")
    if label_id is not None:
        label = ctx.get(Label, label_id, field="label_id")
        if label.mailbox_id != mailbox_id:
            raise RuleViolation(
                f"label {label.id} belongs to mailbox {label.mailbox_id}",
                field="label_id",
                hint="use a label of the searched mailbox",
            )
    hidden = {_system_label(ctx, mailbox_id, "SPAM"), _system_label(ctx, mailbox_id, "TRASH")}
    if include_spam_trash or label_id in hidden:
        hidden = set()
    unread = _system_label(ctx, mailbox_id, "UNREAD")
    needle = query.casefold() if query else None
    found: list[Message] = []
    for msg in ctx.where(Message, mailbox_id=mailbox_id):
        if hidden & set(msg.label_ids):
            continue
        if label_id is not None and label_id not in msg.label_ids:
            continue
        if from_email is not None and msg.from_email != from_email:
            continue
        if unread_only and unread not in msg.label_ids:
            continue
        if needle is not None:
            text = " ".join((msg.subject, msg.body, msg.from_email, msg.from_name or "", *msg.to, *msg.cc))
            if needle not in text.casefold():
                continue
        found.append(msg)
    found.sort(key=lambda m: (_timestamp(m), m.id), reverse=True)
    return found[:limit]


@service.tool(intent="count the messages under the label")
def get_label_counts(ctx: Ctx, label_id: LabelId) -> LabelCounts:
    """Count the messages and threads carrying a label, and how many of them are unread.

    Args:
        label_id: The label.
    """
    label = ctx.get(Label, label_id, field="label_id")
    unread = _system_label(ctx, label.mailbox_id, "UNREAD")
    tagged = [m for m in ctx.where(Message, mailbox_id=label.mailbox_id) if label.id in m.label_ids]
    unread_msgs = [m for m in tagged if unread in m.label_ids]
    return LabelCounts(
        label_id=label.id,
        name=label.name,
        messages_total=len(tagged),
        messages_unread=len(unread_msgs),
        threads_total=len({m.thread_id for m in tagged}),
        threads_unread=len({m.thread_id for m in unread_msgs}),
    )


# -- seeding ----------------------------------------------------------------------------

USER_LABELS: tuple[tuple[str, LabelColor], ...] = (
    ("Clients", "blue"),
    ("Follow up", "red"),
    ("Receipts", "green"),
    ("Projects/Q2", "purple"),
    ("Newsletters", "gray"),
)

EXTERNAL_TOPICS = (
    (
        "Renewal of our {home} subscription",
        "Hi {first},\n\nour contract with {home} is up for renewal next month. Could you send us the "
        "updated terms and pricing?\n\nBest regards,\n{sender}\n{company}",
    ),
    (
        "Pricing for the {product}",
        "Hello {first},\n\nwe are considering ordering the {product} in larger quantities. Do you offer "
        "volume discounts?\n\nThanks,\n{sender}",
    ),
    (
        "Meeting next week?",
        "Hi {first},\n\nwould you have 30 minutes next week to go over our open questions? Tuesday or "
        "Thursday afternoon would work for us.\n\nKind regards,\n{sender}",
    ),
    (
        "Delivery delay on our {product} order",
        "Hello {first},\n\nour last order of the {product} has not arrived yet. Can you check the status "
        "with your logistics team?\n\nRegards,\n{sender}\n{company}",
    ),
    (
        "Question about our last invoice",
        "Hi {first},\n\nthe amount on your last invoice does not match the quote we received. Could you "
        "have a look?\n\nBest,\n{sender}",
    ),
)
CONSUMER_TOPICS = (
    (
        "Where is my {product}?",
        "Hello,\n\nI ordered a {product} two weeks ago and it has not arrived. Can you tell me where it "
        "is?\n\nThank you,\n{sender}",
    ),
    (
        "Return request: {product}",
        "Hi,\n\nthe {product} I received does not work as described. I would like to return it for a "
        "refund.\n\nBest,\n{sender}",
    ),
    (
        "Question about the {product}",
        "Hello,\n\nis the {product} compatible with what I already have at home? The product page does "
        "not say.\n\nThanks,\n{sender}",
    ),
)
SPAM_TOPICS = (
    ("You have won a gift card!", "Click here to claim your prize before it expires."),
    ("Exclusive offer just for you", "Limited-time deal: reply now to unlock 90% off."),
)
INTERNAL_TOPICS = (
    ("Team sync notes", "Hi {first},\n\nhere are my notes from today's sync. Let me know if I missed anything."),
    ("Q2 planning", "Hi {first},\n\ncould you send me your team's priorities for Q2 by Friday?"),
    (
        "Customer call with {company}",
        "Hi {first},\n\nI have a call with {company} on Thursday. Could you join to cover the technical part?",
    ),
    ("Expense report", "Hi {first},\n\nI submitted my travel expenses; could you approve them when you have a minute?"),
    ("Offsite logistics", "Hi {first},\n\nwe still need a headcount for the offsite dinner. Are you joining?"),
)
REPLIES = (
    "Thanks for reaching out. I will look into this and get back to you by tomorrow.",
    "Thanks, that works for me. I have put it on my list.",
    "Good point. Let me check with the team and come back to you.",
)


@service.seeder
def seed(s: SeedContext) -> None:
    """Mailboxes for the employees with their labels, received and sent threads, drafts."""
    boxes, room, user_labels = _seed_mailboxes(s)
    for person in s.population.employees:
        box = boxes[person.email]
        _seed_customer_mail(room, person, box, user_labels[box.id])
        if s.rng.random() < 0.25:
            _seed_spam(room, box)
        _seed_colleague_mail(room, person, box, boxes)
        _seed_outgoing(room, box)


@dataclass
class _Mailroom:
    """What seeding the mailboxes shares: the seed, every mailbox's system label ids, and Message-IDs handed out."""

    s: SeedContext
    system: dict[tuple[str, str], str]
    """System label ids by (mailbox id, label name)."""
    issued: int = 0
    """Message-IDs issued so far; the next one is ``<s{issued + 1}@domain>``."""

    def rfc(self, domain: str) -> str:
        """A new Message-ID on ``domain``."""
        self.issued += 1
        return f"<s{self.issued}@{domain}>"

    def thread(self, box: Mailbox, subject: str, start: dt.datetime, last: dt.datetime) -> str:
        """A new thread of ``box``; returns its id."""
        return self.s.create(Thread, mailbox_id=box.id, subject=subject, last_message_at=last, created_at=start).id

    def put(
        self, box: Mailbox, thread_id: str, state: str, at: dt.datetime, labels: list[str], **fields: Any
    ) -> Message:
        """A message in ``box``; ``labels`` names system labels and gives user label ids."""
        ids = tuple(self.system[(box.id, n)] for n in labels if n in SYSTEM_LABELS)
        ids += tuple(lid for lid in labels if lid not in SYSTEM_LABELS)
        return self.s.create(
            Message,
            mailbox_id=box.id,
            thread_id=thread_id,
            state=state,
            label_ids=ids,
            sent_at=None if state == "draft" else at,
            updated_at=at,
            **fields,
        )

    def ago(self, low_hours: int, high_hours: int) -> dt.datetime:
        """A random time between ``low_hours`` and ``high_hours`` before now."""
        return self.s.ago(minutes=self.s.rng.randint(low_hours * 60, high_hours * 60))


def _seed_mailboxes(s: SeedContext) -> tuple[dict[str, Mailbox], _Mailroom, dict[str, list[str]]]:
    """A mailbox per employee with some user labels and every system label; returns them by e-mail."""
    boxes: dict[str, Mailbox] = {}
    system: dict[tuple[str, str], str] = {}
    user_labels: dict[str, list[str]] = {}
    for i, person in enumerate(s.population.employees):
        hired = utc_at(person.hire_date or s.now.date(), 9)
        box = s.create(
            Mailbox,
            email=person.email,
            display_name=person.name,
            signature=f"{person.name}\n{person.job_title}, {s.population.home.name}",
            created_at=hired,
        )
        boxes[person.email] = box
        # User labels first, so that the first label of the table is an editable one.
        picks = s.rng.sample(USER_LABELS, k=max(1 if i == 0 else 0, s.rng.randint(0, 3)))
        user_labels[box.id] = [
            s.create(Label, mailbox_id=box.id, name=name, type="user", color=color).id for name, color in picks
        ]
        for name in SYSTEM_LABELS:
            system[(box.id, name)] = s.create(Label, mailbox_id=box.id, name=name, type="system").id
    return boxes, _Mailroom(s, system), user_labels


def _seed_customer_mail(room: _Mailroom, person: Person, box: Mailbox, own_labels: list[str]) -> None:
    """Mail from customers' people and private customers (support staff mostly get the latter), some answered."""
    s = room.s
    pop = s.population
    rng = s.rng
    home = pop.home
    for _ in range(rng.randint(2, 4)):
        if person.department == "Support" or rng.random() < 0.3:
            sender = rng.choice(pop.consumers)
            subject_t, body_t = rng.choice(CONSUMER_TOPICS)
            company_name = ""
        else:
            sender = rng.choice(pop.contacts)
            subject_t, body_t = rng.choice(EXTERNAL_TOPICS)
            company = pop.company_of(sender)
            company_name = company.name if company else ""
        product_name = rng.choice(pop.products).name
        values = {
            "home": home.name,
            "product": product_name,
            "first": person.first_name,
            "sender": sender.name,
            "company": company_name,
        }
        subject = subject_t.format(**values)[:200]
        at = room.ago(30, 24 * 20)
        answered = rng.random() < 0.4
        reply_at = at + dt.timedelta(minutes=rng.randint(20, 600))
        reply_at = min(reply_at, s.now - dt.timedelta(minutes=5))
        thread_id = room.thread(box, subject, at, reply_at if answered else at)
        roll = rng.random()
        labels = ["INBOX"]
        if roll < 0.1:
            labels = ["TRASH"]
        elif roll < 0.3:
            labels = []
        if not answered and rng.random() < 0.5:
            labels.append("UNREAD")
        if rng.random() < 0.15:
            labels.append("STARRED")
        if rng.random() < 0.2:
            labels.append("IMPORTANT")
        if own_labels and rng.random() < 0.35:
            labels.append(rng.choice(own_labels))
        received = room.put(
            box,
            thread_id,
            "received",
            at,
            labels,
            rfc822_id=room.rfc(sender.email.split("@")[1]),
            from_email=sender.email,
            from_name=sender.name,
            to=(box.email,),
            subject=subject,
            body=body_t.format(**values),
        )
        if answered:
            room.put(
                box,
                thread_id,
                "sent",
                reply_at,
                ["SENT"],
                rfc822_id=room.rfc(home.domain),
                in_reply_to=received.rfc822_id,
                from_email=box.email,
                from_name=box.display_name,
                to=(sender.email,),
                subject=f"Re: {subject}"[:200],
                body=f"Hi {sender.first_name},\n\n{rng.choice(REPLIES)}\n\n{box.signature}",
            )


def _seed_spam(room: _Mailroom, box: Mailbox) -> None:
    spammer = room.s.rng.choice(room.s.population.consumers)
    subject, body = room.s.rng.choice(SPAM_TOPICS)
    at = room.ago(5, 24 * 10)
    room.put(
        box,
        room.thread(box, subject, at, at),
        "received",
        at,
        ["SPAM", "UNREAD"],
        rfc822_id=room.rfc(spammer.email.split("@")[1]),
        from_email=spammer.email,
        from_name=spammer.name,
        to=(box.email,),
        subject=subject,
        body=body,
    )


def _seed_colleague_mail(room: _Mailroom, person: Person, box: Mailbox, boxes: dict[str, Mailbox]) -> None:
    """A conversation with a colleague, delivered into both mailboxes; half of them answered."""
    s = room.s
    rng = s.rng
    home = s.population.home
    colleague = rng.choice([p for p in s.population.employees if p.email != person.email])
    other = boxes[colleague.email]
    subject_t, body_t = rng.choice(INTERNAL_TOPICS)
    values = {"first": colleague.first_name, "company": rng.choice(s.population.customers).name}
    subject = subject_t.format(**values)[:200]
    at = room.ago(10, 24 * 14)
    answered = rng.random() < 0.5
    reply_at = min(at + dt.timedelta(minutes=rng.randint(10, 300)), s.now - dt.timedelta(minutes=5))
    last = reply_at if answered else at
    mine = room.thread(box, subject, at, last)
    theirs = room.thread(other, subject, at, last)
    common: dict[str, Any] = {
        "rfc822_id": room.rfc(home.domain),
        "from_email": box.email,
        "from_name": box.display_name,
        "to": (other.email,),
        "subject": subject,
        "body": f"{body_t.format(**values)}\n\n{box.signature}",
    }
    room.put(box, mine, "sent", at, ["SENT"], **common)
    room.put(other, theirs, "received", at, ["INBOX"] if answered else ["INBOX", "UNREAD"], **common)
    if answered:
        reply: dict[str, Any] = {
            "rfc822_id": room.rfc(home.domain),
            "in_reply_to": common["rfc822_id"],
            "from_email": other.email,
            "from_name": other.display_name,
            "to": (box.email,),
            "subject": f"Re: {subject}"[:200],
            "body": f"Hi {person.first_name},\n\n{rng.choice(REPLIES)}\n\n{other.signature}",
        }
        room.put(other, theirs, "sent", reply_at, ["SENT"], **reply)
        room.put(box, mine, "received", reply_at, ["INBOX", "UNREAD"], **reply)


def _seed_outgoing(room: _Mailroom, box: Mailbox) -> None:
    """Now and then a quote sent with an attachment, and now and then an unfinished draft."""
    s = room.s
    rng = s.rng
    pop = s.population
    home = pop.home
    if rng.random() < 0.3:
        contact = rng.choice(pop.contacts)
        quoted = rng.choice(pop.products)
        subject = f"Quote for {quoted.name}"
        at = room.ago(24, 24 * 15)
        slug = quoted.sku.lower()
        rfc822_id = room.rfc(home.domain)
        room.put(
            box,
            room.thread(box, subject, at, at),
            "sent",
            at,
            ["SENT"],
            rfc822_id=rfc822_id,
            from_email=box.email,
            from_name=box.display_name,
            to=(contact.email,),
            subject=subject,
            body=f"Hi {contact.first_name},\n\nplease find our quote attached.\n\n{box.signature}",
            attachments=(
                Attachment(
                    filename=f"quote-{slug}.pdf",
                    mime_type="application/pdf",
                    size_bytes=rng.randint(40_000, 900_000),
                    link=f"https://files.{home.domain}/d/{slug}-quote-{room.issued}",
                ),
            ),
        )
    if rng.random() < 0.3:
        contact = rng.choice(pop.contacts)
        subject = rng.choice(("Proposal follow-up", "Next steps", "Checking in"))
        at = room.ago(1, 24 * 5)
        rfc822_id = room.rfc(home.domain)
        room.put(
            box,
            room.thread(box, subject, at, at),
            "draft",
            at,
            ["DRAFT"],
            rfc822_id=rfc822_id,
            from_email=box.email,
            from_name=box.display_name,
            to=(contact.email,) if rng.random() < 0.7 else (),
            subject=subject,
            body=f"Hi {contact.first_name},\n\n",
        )
