"""Relay Queues: managed message queues: standard and FIFO queues, messages, dead-letter redrive, permissions.

Modeled on the Amazon SQS API (CreateQueue, SetQueueAttributes, SendMessage,
SendMessageBatch, ReceiveMessage, DeleteMessage, ChangeMessageVisibility,
PurgeQueue, ListDeadLetterSourceQueues, StartMessageMoveTask, AddPermission,
RemovePermission and their error codes). Queue names are unique; a FIFO
queue's name ends in .fifo and a standard queue's does not. A received message
is in flight, invisible for the visibility timeout, under a new receipt handle;
only that handle deletes it or changes its visibility (MessageNotInflight,
ReceiptHandleIsInvalid). FIFO messages need a message group (and a
deduplication id unless deduplication is content-based); a message with a
deduplication id already sent in the last five minutes is accepted but not
queued again; a group with a message in flight delivers nothing more until it
is deleted or visible again; FIFO queues take no per-message delay. A redrive
policy sends a message that was received max_receive_count times to its
dead-letter queue (same type, not itself); a message move task redrives a
dead-letter queue back to the messages' source queues or to a destination. A
queue is purged at most once every 60 seconds. The clock advances one minute
per write call.
"""

from __future__ import annotations

import datetime as dt
import hashlib
from typing import Annotated, Any, Literal

from pydantic import Field, StringConstraints

from compoworld.engine.context import Ctx
from compoworld.engine.errors import Conflict, RuleViolation
from compoworld.engine.records import CREATED, Record
from compoworld.engine.service import Service
from compoworld.engine.state import SeedContext
from compoworld.engine.types import DateTime, Email, IdOf
from compoworld.services.kit.examples import first_example, fixed_example
from compoworld.services.kit.records import Value

__all__ = ["service"]

service = Service(
    "queues",
    title="Relay Queues",
    category="message_queue",
    modeled_on="Amazon SQS API (CreateQueue, SetQueueAttributes, SendMessage(Batch), ReceiveMessage, DeleteMessage, "
    "ChangeMessageVisibility, PurgeQueue, ListDeadLetterSourceQueues, StartMessageMoveTask, AddPermission)",
    description="Managed message queues between the company's systems: standard and FIFO queues with their "
    "attributes, messages sent, received under visibility timeouts and deleted by receipt handle, dead-letter "
    "queues and redrive, and cross-account permissions.",
)

QueueId = Annotated[str, IdOf("queues.queue")]
MessageId = Annotated[str, IdOf("queues.message")]
TaskId = Annotated[str, IdOf("queues.move_task")]
PermissionId = Annotated[str, IdOf("queues.permission")]

QueueName = Annotated[str, StringConstraints(pattern=r"^[A-Za-z0-9_-]{1,75}(\.fifo)?$")]
"""A queue name: letters, digits, - and _, up to 80 characters; FIFO names end in .fifo."""
Body = Annotated[str, StringConstraints(min_length=1, max_length=262144)]
"""A message body."""
GroupId = Annotated[str, StringConstraints(pattern=r"^[A-Za-z0-9!-/:-@\[-`{-~]{1,128}$")]
"""A FIFO message group or deduplication id."""
Seconds = Annotated[int, Field(ge=0, le=43200)]
"""A visibility timeout in seconds (0-43200)."""
Delay = Annotated[int, Field(ge=0, le=900)]
"""A delay in seconds (0-900)."""
Handle = Annotated[str, StringConstraints(min_length=1, max_length=1024)]
"""A receipt handle."""
Action = Literal["*", "SendMessage", "ReceiveMessage", "DeleteMessage", "ChangeMessageVisibility", "GetQueueAttributes"]
DEDUP_WINDOW = dt.timedelta(minutes=5)
PURGE_WINDOW = dt.timedelta(seconds=60)


class Queue(Record):
    """A queue and its attributes."""

    id: QueueId
    name: QueueName
    """Its name (unique)."""
    url: str
    """Its queue URL."""
    fifo: bool = False
    """A FIFO queue (ordered per message group, exactly-once)."""
    content_based_deduplication: bool = False
    """FIFO: deduplicate by a SHA-256 of the body."""
    visibility_timeout: Seconds = 30
    """Seconds a received message stays invisible."""
    delay_seconds: Delay = 0
    """Seconds new messages wait before they can be received."""
    message_retention_period: Annotated[int, Field(ge=60, le=1209600)] = 345600
    """Seconds messages are kept."""
    max_message_size: Annotated[int, Field(ge=1024, le=262144)] = 262144
    """Largest body in bytes."""
    dead_letter_target_id: QueueId | None = None
    """Redrive policy: the dead-letter queue."""
    max_receive_count: Annotated[int, Field(ge=1, le=1000)] | None = None
    """Redrive policy: receives before a message goes to the dead-letter queue."""
    owner_email: Email | None = None
    """The employee whose team owns it."""
    tags: dict[str, str] = Field(default_factory=dict)
    """Cost allocation tags."""
    last_purged_at: DateTime | None = None
    """When it was last purged."""
    created_at: Annotated[DateTime, CREATED]
    """When it was created."""


class Message(Record):
    """A message in a queue."""

    id: MessageId
    queue_id: QueueId
    """The queue it is in."""
    body: Body
    """Its body."""
    attributes: dict[str, str] = Field(default_factory=dict)
    """Message attributes."""
    md5_of_body: str
    """MD5 digest of the body."""
    message_group_id: GroupId | None = None
    """FIFO: its message group."""
    deduplication_id: GroupId | None = None
    """FIFO: its deduplication id."""
    sequence_number: int | None = None
    """FIFO: its order in the queue."""
    receive_count: int = 0
    """ApproximateReceiveCount."""
    receipt_handle: str | None = None
    """The handle of its latest receive."""
    visible_at: DateTime
    """When it can next be received (delay or visibility timeout)."""
    source_queue_id: QueueId | None = None
    """The queue it was moved to the dead-letter queue from."""
    sent_at: Annotated[DateTime, CREATED]
    """When it was sent."""


class MoveTask(Record):
    """A message move task redriving a dead-letter queue."""

    id: TaskId
    source_queue_id: QueueId
    """The dead-letter queue."""
    destination_queue_id: QueueId | None = None
    """The destination (None: each message's source queue)."""
    status: Literal["COMPLETED", "FAILED"] = "COMPLETED"
    """COMPLETED or FAILED."""
    messages_moved: int = 0
    """ApproximateNumberOfMessagesMoved."""
    started_at: Annotated[DateTime, CREATED]
    """When it ran."""


class Permission(Record):
    """A queue policy statement letting other AWS accounts act on the queue."""

    id: PermissionId
    queue_id: QueueId
    """The queue."""
    label: Annotated[str, StringConstraints(pattern=r"^[A-Za-z0-9_-]{1,80}$")]
    """Its label (unique per queue)."""
    account_ids: tuple[Annotated[str, StringConstraints(pattern=r"^\d{12}$")], ...]
    """The accounts allowed."""
    actions: tuple[Action, ...]
    """What they may do."""
    created_at: Annotated[DateTime, CREATED]
    """When it was added."""


class Received(Value):
    """The messages one receive returned."""

    messages: tuple[Message, ...]
    """Received messages, now in flight, with their receipt handles."""
    moved_to_dead_letter: int
    """Messages that had reached max_receive_count and went to the dead-letter queue instead."""


class BatchEntry(Value):
    """One message of a batch send."""

    id: Annotated[str, StringConstraints(pattern=r"^[A-Za-z0-9_-]{1,80}$")]
    """The entry's id in the batch (unique in it)."""
    body: Body
    """The body."""
    message_group_id: GroupId | None = None
    """FIFO: the message group."""
    deduplication_id: GroupId | None = None
    """FIFO: the deduplication id."""


class BatchResult(Value):
    """What a batch send did per entry."""

    successful: dict[str, MessageId]
    """Entry id → message id."""
    failed: dict[str, str]
    """Entry id → error code and message."""


class Stats(Value):
    """Approximate message counts of a queue."""

    queue_id: QueueId
    """The queue."""
    available: int
    """ApproximateNumberOfMessages."""
    in_flight: int
    """ApproximateNumberOfMessagesNotVisible."""
    delayed: int
    """ApproximateNumberOfMessagesDelayed."""


# -- rules ------------------------------------------------------------------------------------


def _guard_queue(ctx: Ctx, new: Any, old: Any) -> None:
    if new.owner_email is not None and new.owner_email not in {p.email for p in ctx.population.employees}:
        raise RuleViolation(f"{new.owner_email} is not an employee", field="owner_email", hint="use an employee")
    if new.content_based_deduplication and not new.fifo:
        raise RuleViolation(
            "content-based deduplication is for FIFO queues", field="content_based_deduplication", hint="leave it false"
        )
    if (new.dead_letter_target_id is None) != (new.max_receive_count is None):
        raise RuleViolation(
            "a redrive policy needs both a target and max_receive_count",
            field="max_receive_count",
            hint="set both or neither",
        )
    if new.dead_letter_target_id is not None:
        dlq = ctx.get(Queue, new.dead_letter_target_id, field="dead_letter_target_id")
        if dlq.id == new.id or dlq.fifo != new.fifo:
            raise RuleViolation(
                "the dead-letter queue must be another queue of the same type",
                field="dead_letter_target_id",
                hint="a FIFO queue needs a FIFO dead-letter queue, a standard one a standard queue",
            )


def _guard_queue_delete(ctx: Ctx, new: Any, old: Any) -> None:
    sources = ctx.where(Queue, dead_letter_target_id=old.id)
    if sources:
        raise RuleViolation(
            f"{old.name} is the dead-letter queue of {sources[0].name}",
            field="queue_id",
            hint="remove their redrive policy first",
        )
    for model in (Message, Permission):
        for rec in ctx.where(model, queue_id=old.id):
            ctx.delete(rec)


queues = service.resource(
    Queue,
    name="queue",
    plural="queues",
    prefix="q",
    create=False,
    filters=("name", "fifo", "owner_email", "dead_letter_target_id"),
    search=("name",),
    update=(
        "visibility_timeout",
        "delay_seconds",
        "message_retention_period",
        "max_message_size",
        "dead_letter_target_id",
        "max_receive_count",
        "content_based_deduplication",
        "owner_email",
        "tags",
    ),
    guard_update=_guard_queue,
    guard_delete=_guard_queue_delete,
)
messages = service.resource(
    Message,
    name="message",
    plural="messages",
    prefix="msg",
    create=False,
    filters=("queue_id", "message_group_id", "receive_count", "source_queue_id"),
    search=("body",),
    delete=False,
)
tasks = service.resource(
    MoveTask,
    name="move_task",
    plural="move_tasks",
    prefix="mvt",
    create=False,
    filters=("source_queue_id", "status"),
    delete=False,
    title="message move task",
)
permissions = service.resource(
    Permission,
    name="permission",
    plural="permissions",
    prefix="perm",
    create=False,
    get=False,
    filters=("queue_id", "label"),
    title="queue permission",
)


# -- queues ---------------------------------------------------------------------------------


@service.tool(
    intent="create the queue",
    write=True,
    example=fixed_example(name="invoice-events.fifo", fifo=True, content_based_deduplication=True),
)
def create_queue(
    ctx: Ctx,
    name: QueueName,
    fifo: bool = False,
    content_based_deduplication: bool = False,
    visibility_timeout: Seconds = 30,
    delay_seconds: Delay = 0,
    owner_email: Email | None = None,
) -> Queue:
    """Create a queue; names are unique, and end in .fifo exactly when the queue is FIFO.

    Args:
        name: The queue's name.
        fifo: A FIFO queue.
        content_based_deduplication: FIFO: deduplicate by the body's SHA-256.
        visibility_timeout: Seconds a received message stays invisible.
        delay_seconds: Seconds new messages wait.
        owner_email: The owning team's employee.
    """
    if name.endswith(".fifo") != fifo:
        raise RuleViolation(
            "a FIFO queue's name must end in .fifo, and only a FIFO queue's",
            field="name",
            hint="add or drop the .fifo suffix",
        )
    if ctx.first(Queue, name=name) is not None:
        raise Conflict(f"QueueAlreadyExists: {name}", field="name", hint="pick another name")
    queue = ctx.create(
        Queue,
        name=name,
        url=f"https://sqs.us-east-1.amazonaws.com/123456789000/{name}",
        fifo=fifo,
        content_based_deduplication=content_based_deduplication,
        visibility_timeout=visibility_timeout,
        delay_seconds=delay_seconds,
        owner_email=owner_email,
    )
    _guard_queue(ctx, queue, None)
    return queue


def _available(m: Message, now: dt.datetime) -> bool:
    return m.visible_at <= now


def stats_of(ctx: Ctx, queue: Queue) -> Stats:
    """Approximate counts: available, in flight (received, not yet visible) and delayed (never received)."""
    now = ctx.now()
    held = [m for m in ctx.where(Message, queue_id=queue.id) if not _available(m, now)]
    flying = sum(m.receipt_handle is not None for m in held)
    total = len(ctx.where(Message, queue_id=queue.id))
    return Stats(queue_id=queue.id, available=total - len(held), in_flight=flying, delayed=len(held) - flying)


@service.tool(intent="show the queue's message counts", example=first_example(Queue, "queue_id"))
def queue_stats(ctx: Ctx, queue_id: QueueId) -> Stats:
    """ApproximateNumberOfMessages, ...NotVisible and ...Delayed of a queue.

    Args:
        queue_id: The queue.
    """
    return stats_of(ctx, ctx.get(Queue, queue_id, field="queue_id"))


@service.tool(intent="purge the queue", write=True, destructive=True, example=first_example(Queue, "queue_id"))
def purge_queue(ctx: Ctx, queue_id: QueueId) -> Queue:
    """Delete every message in a queue; a queue is purged at most once every 60 seconds.

    Args:
        queue_id: The queue.
    """
    queue = ctx.get(Queue, queue_id, field="queue_id")
    if queue.last_purged_at is not None and ctx.now() - queue.last_purged_at <= PURGE_WINDOW:
        raise Conflict(
            f"PurgeQueueInProgress: {queue.name} was purged at {queue.last_purged_at}",
            field="queue_id",
            hint="wait 60 seconds after the last purge",
        )
    for m in ctx.where(Message, queue_id=queue.id):
        ctx.delete(m)
    return ctx.update(queue, last_purged_at=ctx.now())


@service.tool(
    intent="list the queues that use the queue as their dead-letter queue",
    example=first_example(Queue, "queue_id", match=lambda ctx, q: bool(ctx.where(Queue, dead_letter_target_id=q.id))),
)
def list_dead_letter_source_queues(ctx: Ctx, queue_id: QueueId) -> list[Queue]:
    """The queues whose redrive policy targets this dead-letter queue.

    Args:
        queue_id: The dead-letter queue.
    """
    ctx.get(Queue, queue_id, field="queue_id")
    return ctx.where(Queue, dead_letter_target_id=queue_id)


# -- messages -------------------------------------------------------------------------------


def _put(
    ctx: Ctx,
    queue: Queue,
    body: str,
    attributes: dict[str, str],
    group: str | None,
    dedup: str | None,
    delay: int | None,
    field: str = "",
) -> Message:
    f = field + "." if field else ""
    if len(body.encode()) > queue.max_message_size:
        raise RuleViolation(f"the body is over {queue.max_message_size} bytes", field=f + "body", hint="shorten it")
    if not queue.fifo:
        if group is not None or dedup is not None:
            raise RuleViolation(
                "only FIFO queues take message groups and deduplication ids",
                field=f + ("message_group_id" if group else "deduplication_id"),
                hint="drop it",
            )
        return ctx.create(
            Message,
            queue_id=queue.id,
            body=body,
            attributes=attributes,
            md5_of_body=hashlib.md5(body.encode()).hexdigest(),
            visible_at=ctx.now() + dt.timedelta(seconds=queue.delay_seconds if delay is None else delay),
        )
    if delay is not None:
        raise RuleViolation(
            "FIFO queues take no per-message delay",
            field=f + "delay_seconds",
            hint="set the queue's delay_seconds instead",
        )
    if group is None:
        raise RuleViolation("a FIFO message needs a message group", field=f + "message_group_id", hint="give one")
    if dedup is None:
        if not queue.content_based_deduplication:
            raise RuleViolation(
                "a FIFO message needs a deduplication id",
                field=f + "deduplication_id",
                hint="give one, or turn on content-based deduplication",
            )
        dedup = hashlib.sha256(body.encode()).hexdigest()
    for m in ctx.where(Message, queue_id=queue.id, deduplication_id=dedup):
        if ctx.now() - m.sent_at < DEDUP_WINDOW:
            return m
    seq = max((m.sequence_number or 0 for m in ctx.where(Message, queue_id=queue.id)), default=0) + 1
    return ctx.create(
        Message,
        queue_id=queue.id,
        body=body,
        attributes=attributes,
        md5_of_body=hashlib.md5(body.encode()).hexdigest(),
        message_group_id=group,
        deduplication_id=dedup,
        sequence_number=seq,
        visible_at=ctx.now() + dt.timedelta(seconds=queue.delay_seconds),
    )


def _example_send(ctx: Ctx) -> dict[str, Any] | None:
    q = ctx.first(Queue, fifo=False)
    return None if q is None else {"queue_id": q.id, "body": '{"event": "order.created", "order_id": "SO-1042"}'}


@service.tool(intent="send a message to the queue", write=True, example=_example_send)
def send_message(
    ctx: Ctx,
    queue_id: QueueId,
    body: Body,
    attributes: dict[str, str] | None = None,
    message_group_id: GroupId | None = None,
    deduplication_id: GroupId | None = None,
    delay_seconds: Delay | None = None,
) -> Message:
    """Send a message; a FIFO duplicate within five minutes returns the message already queued.

    Args:
        queue_id: The queue.
        body: The body (at most the queue's max_message_size bytes).
        attributes: Message attributes.
        message_group_id: FIFO: the group (required).
        deduplication_id: FIFO: required unless content-based deduplication is on.
        delay_seconds: Standard queues: overrides the queue's delay.
    """
    queue = ctx.get(Queue, queue_id, field="queue_id")
    return _put(ctx, queue, body, attributes or {}, message_group_id, deduplication_id, delay_seconds)


@service.tool(
    intent="send a batch of messages to the queue",
    write=True,
    example=first_example(Queue, "queue_id", where={"fifo": False}, entries=[{"id": "a", "body": "ping"}]),
)
def send_message_batch(ctx: Ctx, queue_id: QueueId, entries: list[BatchEntry]) -> BatchResult:
    """Send up to 10 messages; each entry succeeds or fails on its own.

    Args:
        queue_id: The queue.
        entries: 1-10 entries with ids unique in the batch.
    """
    queue = ctx.get(Queue, queue_id, field="queue_id")
    if not 1 <= len(entries) <= 10:
        raise RuleViolation("TooManyEntriesInBatchRequest: send 1 to 10 entries", field="entries", hint="split it")
    if len({e.id for e in entries}) != len(entries):
        raise RuleViolation("BatchEntryIdsNotDistinct", field="entries", hint="give each entry its own id")
    done: dict[str, str] = {}
    failed: dict[str, str] = {}
    for k, e in enumerate(entries):
        try:
            done[e.id] = _put(ctx, queue, e.body, {}, e.message_group_id, e.deduplication_id, None, f"entries[{k}]").id
        except RuleViolation as err:
            failed[e.id] = f"InvalidParameterValue: {err}"
    return BatchResult(successful=done, failed=failed)


@service.tool(
    intent="receive messages from the queue",
    write=True,
    example=first_example(Queue, "queue_id", where={"name": "orders-events"}, max_number_of_messages=2),
)
def receive_messages(
    ctx: Ctx,
    queue_id: QueueId,
    max_number_of_messages: Annotated[int, Field(ge=1, le=10)] = 1,
    visibility_timeout: Seconds | None = None,
) -> Received:
    """Receive available messages (oldest first): each goes in flight under a new receipt handle.

    Args:
        queue_id: The queue.
        max_number_of_messages: 1-10.
        visibility_timeout: Seconds they stay invisible (default: the queue's).
    """
    queue = ctx.get(Queue, queue_id, field="queue_id")
    now = ctx.now()
    timeout = queue.visibility_timeout if visibility_timeout is None else visibility_timeout
    waiting = sorted(ctx.where(Message, queue_id=queue.id), key=lambda m: (m.sequence_number or 0, m.sent_at, m.id))
    busy = {m.message_group_id for m in waiting if not _available(m, now) and m.receipt_handle is not None}
    out: list[Message] = []
    moved = 0
    for m in waiting:
        if len(out) >= max_number_of_messages:
            break
        if not _available(m, now) or (queue.fifo and m.message_group_id in busy):
            continue
        if now - m.sent_at > dt.timedelta(seconds=queue.message_retention_period):
            ctx.delete(m)
            continue
        if queue.dead_letter_target_id and queue.max_receive_count and m.receive_count >= queue.max_receive_count:
            ctx.update(
                m, queue_id=queue.dead_letter_target_id, source_queue_id=queue.id, receipt_handle=None, visible_at=now
            )
            moved += 1
            continue
        handle = f"AQEB{hashlib.sha1(f'{m.id}:{m.receive_count}:{now}'.encode()).hexdigest()}"
        out.append(
            ctx.update(
                m,
                receive_count=m.receive_count + 1,
                receipt_handle=handle,
                visible_at=now + dt.timedelta(seconds=timeout),
            )
        )
    return Received(messages=tuple(out), moved_to_dead_letter=moved)


def _by_handle(ctx: Ctx, queue_id: str, handle: str) -> Message:
    ctx.get(Queue, queue_id, field="queue_id")
    m = ctx.first(Message, queue_id=queue_id, receipt_handle=handle)
    if m is None:
        raise RuleViolation(
            "ReceiptHandleIsInvalid", field="receipt_handle", hint="use the handle of the message's latest receive"
        )
    return m


def _example_handle(ctx: Ctx) -> dict[str, Any] | None:
    for m in ctx.scan(Message):
        if m.receipt_handle is not None and m.visible_at > ctx.now():
            return {"queue_id": m.queue_id, "receipt_handle": m.receipt_handle}
    return None


@service.tool(intent="delete the received message", write=True, example=_example_handle)
def delete_message(ctx: Ctx, queue_id: QueueId, receipt_handle: Handle) -> Message:
    """Delete a message by the receipt handle of its latest receive.

    Args:
        queue_id: The queue.
        receipt_handle: The handle a receive returned.
    """
    m = _by_handle(ctx, queue_id, receipt_handle)
    ctx.delete(m)
    return m


@service.tool(intent="change the visibility of the message", write=True, example=_example_handle)
def change_message_visibility(
    ctx: Ctx, queue_id: QueueId, receipt_handle: Handle, visibility_timeout: Seconds = 0
) -> Message:
    """Make an in-flight message visible after this many seconds from now (0: at once).

    Args:
        queue_id: The queue.
        receipt_handle: The handle of its latest receive.
        visibility_timeout: Seconds from now, 0-43200.
    """
    m = _by_handle(ctx, queue_id, receipt_handle)
    if _available(m, ctx.now()):
        raise RuleViolation("MessageNotInflight", field="receipt_handle", hint="receive the message again first")
    return ctx.update(m, visible_at=ctx.now() + dt.timedelta(seconds=visibility_timeout))


# -- redrive, permissions -------------------------------------------------------------------


def _example_move(ctx: Ctx) -> dict[str, Any] | None:
    for q in ctx.scan(Queue):
        sources = ctx.where(Queue, dead_letter_target_id=q.id)
        if sources and ctx.first(Message, queue_id=q.id) is not None:
            return {"source_queue_id": q.id}
    return None


@service.tool(intent="redrive the dead-letter queue", write=True, example=_example_move)
def start_message_move_task(
    ctx: Ctx, source_queue_id: QueueId, destination_queue_id: QueueId | None = None
) -> MoveTask:
    """Move a dead-letter queue's messages back to their source queues, or to a destination.

    Args:
        source_queue_id: The dead-letter queue.
        destination_queue_id: Where to (default: each message's source queue).
    """
    dlq = ctx.get(Queue, source_queue_id, field="source_queue_id")
    if not ctx.where(Queue, dead_letter_target_id=dlq.id):
        raise RuleViolation(
            f"{dlq.name} is not a dead-letter queue",
            field="source_queue_id",
            hint="redrive a queue that some redrive policy targets",
        )
    found = ctx.where(Message, queue_id=dlq.id)
    if not found:
        raise RuleViolation(f"{dlq.name} is empty", field="source_queue_id", hint="nothing to redrive")
    if destination_queue_id is not None:
        dest = ctx.get(Queue, destination_queue_id, field="destination_queue_id")
        if dest.id == dlq.id or dest.fifo != dlq.fifo:
            raise RuleViolation(
                "the destination must be another queue of the same type",
                field="destination_queue_id",
                hint="pick a matching queue",
            )
    elif any(m.source_queue_id is None for m in found):
        raise RuleViolation(
            "some messages were sent straight to the dead-letter queue",
            field="destination_queue_id",
            hint="name a destination queue",
        )
    for m in found:
        ctx.update(
            m,
            queue_id=destination_queue_id or m.source_queue_id,
            source_queue_id=None,
            receive_count=0,
            receipt_handle=None,
            visible_at=ctx.now(),
        )
    return ctx.create(
        MoveTask, source_queue_id=dlq.id, destination_queue_id=destination_queue_id, messages_moved=len(found)
    )


@service.tool(
    intent="let other accounts act on the queue",
    write=True,
    example=first_example(
        Queue, "queue_id", label="partner-send", account_ids=["210987654321"], actions=["SendMessage"]
    ),
)
def add_permission(
    ctx: Ctx,
    queue_id: QueueId,
    label: Annotated[str, StringConstraints(pattern=r"^[A-Za-z0-9_-]{1,80}$")],
    account_ids: tuple[Annotated[str, StringConstraints(pattern=r"^\d{12}$")], ...],
    actions: tuple[Action, ...],
) -> Permission:
    """Add a policy statement letting AWS accounts act on a queue; labels are unique per queue.

    Args:
        queue_id: The queue.
        label: The statement's label.
        account_ids: 12-digit AWS account ids (at least one).
        actions: SendMessage, ReceiveMessage, DeleteMessage, ChangeMessageVisibility, GetQueueAttributes or *.
    """
    ctx.get(Queue, queue_id, field="queue_id")
    if ctx.first(Permission, queue_id=queue_id, label=label) is not None:
        raise Conflict(f"a statement labelled {label} exists", field="label", hint="remove it or pick another label")
    if not account_ids or not actions:
        raise RuleViolation(
            "name at least one account and one action",
            field="account_ids" if not account_ids else "actions",
            hint="give both",
        )
    return ctx.create(
        Permission,
        queue_id=queue_id,
        label=label,
        account_ids=tuple(dict.fromkeys(account_ids)),
        actions=tuple(dict.fromkeys(actions)),
    )


# -- seed -----------------------------------------------------------------------------------


@service.seeder
def seed(s: SeedContext) -> None:
    """Standard and FIFO queues with dead-letter queues, messages available, in flight and dead-lettered."""
    pop = s.population
    eng = pop.staff("Engineering", "IT", fallback=3)
    base = "https://sqs.us-east-1.amazonaws.com/123456789000"
    made: dict[str, Queue] = {}
    for k, (name, fifo, dlq, mrc, vt) in enumerate(
        (
            ("orders-events-dlq", False, None, None, 30),
            ("orders-events", False, "orders-events-dlq", 3, 60),
            ("payments-dlq.fifo", True, None, None, 30),
            ("payments.fifo", True, "payments-dlq.fifo", 5, 120),
            ("email-outbox", False, None, None, 30),
        )
    ):
        made[name] = s.create(
            Queue,
            name=name,
            url=f"{base}/{name}",
            fifo=fifo,
            content_based_deduplication=fifo,
            visibility_timeout=vt,
            dead_letter_target_id=made[dlq].id if dlq else None,
            max_receive_count=mrc,
            owner_email=eng[k % len(eng)].email,
            tags={"team": "platform"},
            created_at=s.ago(days=300 - 20 * k),
        )
    customers = pop.consumers[:8] or pop.employees[:8]
    for k, person in enumerate(customers):
        body = f'{{"event": "order.created", "order_id": "SO-{1040 + k}", "customer_email": "{person.email}"}}'
        received = k < 2
        dead = k == 7
        s.create(
            Message,
            queue_id=made["orders-events-dlq" if dead else "orders-events"].id,
            body=body,
            attributes={"source": "shop"},
            md5_of_body=hashlib.md5(body.encode()).hexdigest(),
            receive_count=3 if dead else int(received),
            receipt_handle=f"AQEBseed{k:04d}" if received else None,
            visible_at=s.now + dt.timedelta(minutes=30) if received else s.ago(minutes=30 - k),
            source_queue_id=made["orders-events"].id if dead else None,
            sent_at=s.ago(hours=2, minutes=-k),
        )
    for k, person in enumerate(customers[:4]):
        body = f'{{"payment_id": "pi_{k:04d}", "email": "{person.email}", "amount_cents": {1999 + 1000 * k}}}'
        s.create(
            Message,
            queue_id=made["payments.fifo"].id,
            body=body,
            md5_of_body=hashlib.md5(body.encode()).hexdigest(),
            message_group_id=f"customer-{k % 2}",
            deduplication_id=hashlib.sha256(body.encode()).hexdigest(),
            sequence_number=k + 1,
            visible_at=s.ago(minutes=50),
            sent_at=s.ago(hours=1, minutes=-k),
        )
    body = f'{{"to": "{customers[0].email}", "template": "order_confirmation"}}'
    s.create(
        Message,
        queue_id=made["email-outbox"].id,
        body=body,
        md5_of_body=hashlib.md5(body.encode()).hexdigest(),
        visible_at=s.ago(minutes=5),
        sent_at=s.ago(minutes=5),
    )
    s.create(
        Permission,
        queue_id=made["orders-events"].id,
        label="warehouse-consumer",
        account_ids=("210987654321",),
        actions=("ReceiveMessage", "DeleteMessage"),
        created_at=s.ago(days=100),
    )
    s.create(MoveTask, source_queue_id=made["orders-events-dlq"].id, messages_moved=4, started_at=s.ago(days=12))
