"""Dialtone PBX: the company's cloud phone system with extensions, numbers, call queues, voicemail and fax.

Modeled on the RingCentral Platform API (``/restapi/v1.0/account/~``):
Extensions of type User with a short ``extensionNumber`` and ``status``
Enabled, Disabled or NotActivated and a ``dndStatus``; Phone Numbers with a
``usageType`` (MainCompanyNumber, DirectNumber, CompanyNumber, FaxNumber)
assigned to an extension or left in the company inventory; Call Queues
(Department extensions) with members and hold settings; the Call Log with
``direction`` Inbound/Outbound and ``result`` Accepted, Missed, Voicemail,
Busy or Rejected; the message store's VoiceMail (``readStatus`` Read/Unread)
and Fax (``messageStatus`` Queued, Sent, SendingFailed); Forwarding Numbers;
Answering Rules (``business-hours-rule``, ``after-hours-rule`` and custom rules
with a schedule and a ``callHandlingAction``); and RingOut calls. Only enabled
extensions place calls, hold numbers or join queues, a disabled extension
leaves no queue memberless, rules forward only to the extension's own
forwarding numbers, and the two default rules cannot be deleted.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import Field, StringConstraints

from compoworld.engine.context import Ctx
from compoworld.engine.errors import Conflict, RuleViolation
from compoworld.engine.records import CREATED, Record
from compoworld.engine.service import Service, Transition
from compoworld.engine.state import SeedContext
from compoworld.engine.types import DateTime, Email, IdOf, PersonName, Phone, Text, Title
from compoworld.services.kit.examples import first_example
from compoworld.services.kit.records import Created, Timestamped

__all__ = ["service"]

service = Service(
    "phonesystem",
    title="Dialtone PBX",
    category="business_phone",
    modeled_on="RingCentral Platform API: Extensions, Phone Numbers, Call Queues and members, Call Log, "
    "Message Store (VoiceMail, Fax), Forwarding Numbers, Answering Rules, RingOut",
    description="The home company's business phone system: staff extensions and their direct numbers, "
    "call queues for sales and support, the company call log, voicemail boxes, outbound fax, forwarding "
    "numbers and the answering rules that route calls by hours.",
)

ExtensionId = Annotated[str, IdOf("phonesystem.extension")]
NumberId = Annotated[str, IdOf("phonesystem.phone_number")]
QueueId = Annotated[str, IdOf("phonesystem.call_queue")]
CallId = Annotated[str, IdOf("phonesystem.call")]
VoicemailId = Annotated[str, IdOf("phonesystem.voicemail")]
ForwardId = Annotated[str, IdOf("phonesystem.forwarding_number")]
RuleId = Annotated[str, IdOf("phonesystem.answering_rule")]
FaxId = Annotated[str, IdOf("phonesystem.fax")]

ExtNumber = Annotated[str, StringConstraints(pattern=r"^[1-9][0-9]{2,4}$")]
"""A short internal extension number (3-5 digits)."""

ExtStatus = Literal["Enabled", "Disabled", "NotActivated"]
DndStatus = Literal["TakeAllCalls", "DoNotAcceptDepartmentCalls", "DoNotAcceptAnyCalls"]
UsageType = Literal["MainCompanyNumber", "DirectNumber", "CompanyNumber", "FaxNumber"]
Direction = Literal["Inbound", "Outbound"]
CallResult = Literal["Accepted", "Missed", "Voicemail", "Busy", "Rejected"]
ReadStatus = Literal["Unread", "Read"]
ForwardType = Literal["Home", "Mobile", "Work", "Other"]
RuleType = Literal["BusinessHours", "AfterHours", "Custom"]
RuleAction = Literal["ForwardCalls", "TakeMessagesOnly", "UnconditionalForwarding", "PlayAnnouncementOnly"]
FaxStatus = Literal["Queued", "Sent", "SendingFailed"]
Weekday = Literal["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"]

MAX_FORWARDING = 10
MAX_QUEUE_MEMBERS = 50


class Extension(Timestamped):
    """A user extension: a person's phone line inside the company."""

    id: ExtensionId
    extension_number: ExtNumber
    """The short number colleagues dial (unique)."""
    name: PersonName
    """The user's name."""
    email: Email
    """The user's e-mail."""
    department: Title | None = None
    """The user's department."""
    status: ExtStatus = "NotActivated"
    """Enabled, Disabled or NotActivated (invited, not set up yet)."""
    dnd_status: DndStatus = "TakeAllCalls"
    """Do-not-disturb: TakeAllCalls, DoNotAcceptDepartmentCalls (no queue calls) or DoNotAcceptAnyCalls."""


class PhoneNumber(Record):
    """A phone number of the account."""

    id: NumberId
    phone_number: Phone
    """The number in E.164."""
    usage_type: UsageType
    """MainCompanyNumber, DirectNumber, CompanyNumber or FaxNumber."""
    extension_id: ExtensionId | None = None
    """The extension it rings; none: in the company inventory."""
    queue_id: QueueId | None = None
    """The call queue it rings, for a company number."""
    label: Title | None = None
    """A label such as "Sales line"."""


class CallQueue(Timestamped):
    """A call queue (department extension) whose members answer calls in turn."""

    id: QueueId
    name: Title
    """The queue's name."""
    extension_number: ExtNumber
    """Its short number (unique among extensions and queues)."""
    member_ids: tuple[ExtensionId, ...] = ()
    """The member extensions."""
    hold_time_seconds: Annotated[int, Field(ge=15, le=900)] = 120
    """How long callers wait before the overflow action (voicemail)."""
    max_callers: Annotated[int, Field(ge=1, le=25)] = 5
    """Callers held at once."""
    status: Literal["Enabled", "Disabled"] = "Enabled"
    """Enabled or Disabled."""


class Call(Record):
    """A call log record."""

    id: CallId
    direction: Direction
    """Inbound or Outbound."""
    from_number: Phone
    """The calling number."""
    from_name: PersonName | None = None
    """Caller ID name, if known."""
    to_number: Phone
    """The called number."""
    extension_id: ExtensionId | None = None
    """The extension that placed or took it."""
    queue_id: QueueId | None = None
    """The queue it came through."""
    result: CallResult
    """Accepted, Missed, Voicemail, Busy or Rejected."""
    start_time: DateTime
    """When it started."""
    duration_seconds: Annotated[int, Field(ge=0)] = 0
    """Talk time in seconds."""


class Voicemail(Record):
    """A voicemail message in an extension's mailbox."""

    id: VoicemailId
    extension_id: ExtensionId
    """The mailbox owner."""
    call_id: CallId | None = None
    """The call that left it."""
    from_number: Phone
    """Who called."""
    from_name: PersonName | None = None
    """Caller ID name."""
    duration_seconds: Annotated[int, Field(ge=1, le=600)]
    """Length of the message."""
    transcription: Text = ""
    """Speech-to-text of the message."""
    read_status: ReadStatus = "Unread"
    """Unread or Read."""
    received_at: Annotated[DateTime, CREATED]
    """When it was left."""


class ForwardingNumber(Created):
    """A number an extension's calls can be forwarded to."""

    id: ForwardId
    extension_id: ExtensionId
    """The extension."""
    phone_number: Phone
    """The number calls go to."""
    label: Title
    """Its label ("My mobile")."""
    type: ForwardType = "Mobile"
    """Home, Mobile, Work or Other."""


class AnsweringRule(Timestamped):
    """How an extension's calls are handled at some hours."""

    id: RuleId
    extension_id: ExtensionId
    """The extension."""
    name: Title
    """The rule's name."""
    type: RuleType
    """BusinessHours, AfterHours (one each, cannot be deleted) or Custom."""
    enabled: bool = True
    """Whether the rule applies."""
    action: RuleAction = "ForwardCalls"
    """ForwardCalls, TakeMessagesOnly, UnconditionalForwarding or PlayAnnouncementOnly."""
    forward_to_ids: tuple[ForwardId, ...] = ()
    """Forwarding numbers rung, in order."""
    ring_seconds: Annotated[int, Field(ge=5, le=120)] = 20
    """How long each target rings."""
    days: tuple[Weekday, ...] = ()
    """Days a custom rule applies."""
    from_hour: Annotated[int, Field(ge=0, le=23)] | None = None
    """Start hour of a custom rule."""
    to_hour: Annotated[int, Field(ge=1, le=24)] | None = None
    """End hour of a custom rule."""


class Fax(Record):
    """An outbound fax."""

    id: FaxId
    extension_id: ExtensionId
    """The sender's extension."""
    to_number: Phone
    """The fax number it goes to."""
    to_name: Title | None = None
    """Recipient name on the cover page."""
    cover_page_text: Text = ""
    """Text of the cover page."""
    pages: Annotated[int, Field(ge=1, le=200)]
    """Pages of the document."""
    status: FaxStatus = "Queued"
    """Queued, Sent or SendingFailed."""
    attempts: int = 1
    """Send attempts."""
    created_at: Annotated[DateTime, CREATED]
    """When it was submitted."""


# -- rules ------------------------------------------------------------------------------------


def _enabled(ext: Extension, field: str) -> None:
    if ext.status != "Enabled":
        raise RuleViolation(
            f"extension {ext.extension_number} is {ext.status}", field=field, hint="enable the extension first"
        )


def _number_free(ctx: Ctx, number: str, field: str) -> None:
    if ctx.first(Extension, extension_number=number) or ctx.first(CallQueue, extension_number=number):
        raise Conflict(f"extension number {number} is taken", field=field, hint="pick another number")


def _guard_extension(ctx: Ctx, new: Any, old: Any) -> None:
    if old is not None and new.status == "Disabled" and old.status != "Disabled":
        for q in ctx.where(CallQueue, status="Enabled"):
            if new.id in q.member_ids and len(q.member_ids) == 1:
                raise RuleViolation(
                    f"extension {new.extension_number} is the only member of queue {q.name!r}",
                    field="extension_id",
                    hint="add another member to the queue first",
                )
        for q in ctx.scan(CallQueue):
            if new.id in q.member_ids:
                ctx.update(q, member_ids=tuple(m for m in q.member_ids if m != new.id))


def _guard_queue(ctx: Ctx, new: Any, old: Any) -> None:
    if new.status == "Enabled" and not new.member_ids:
        raise RuleViolation("an enabled queue needs a member", field="queue_id", hint="add a member first")


def _guard_forward_delete(ctx: Ctx, new: Any, old: Any) -> None:
    for r in ctx.where(AnsweringRule, extension_id=old.extension_id):
        if old.id in r.forward_to_ids:
            raise RuleViolation(
                f"answering rule {r.name!r} forwards to it", field="forwarding_number_id", hint="change the rule first"
            )


def _guard_rule(ctx: Ctx, new: Any, old: Any) -> None:
    if new.action in ("ForwardCalls", "UnconditionalForwarding") and new.enabled and not new.forward_to_ids:
        raise RuleViolation(f"{new.action} needs a forwarding number", field="forward_to_ids", hint="add one")


def _guard_rule_delete(ctx: Ctx, new: Any, old: Any) -> None:
    if old.type != "Custom":
        raise RuleViolation(
            f"the {old.type} rule cannot be deleted", field="answering_rule_id", hint="disable or change it instead"
        )


extensions = service.resource(
    Extension,
    name="extension",
    plural="extensions",
    prefix="ext",
    create=False,
    filters=("status", "department", "email", "extension_number"),
    search=("name", "email"),
    update=("department", "dnd_status"),
    delete=False,
    transitions={
        "enable": Transition("status", ("Disabled", "NotActivated"), "Enabled", "enable the extension"),
        "disable": Transition(
            "status",
            ("Enabled", "NotActivated"),
            "Disabled",
            "disable the extension",
            description="Disable an extension: it leaves its call queues (refused while it is a queue's only "
            "member) and can no longer place or take calls.",
        ),
    },
    guard_update=_guard_extension,
)
numbers = service.resource(
    PhoneNumber,
    name="phone_number",
    plural="phone_numbers",
    prefix="num",
    create=False,
    get=False,
    filters=("usage_type", "extension_id", "queue_id", "phone_number"),
    delete=False,
    title="phone number",
)
queues = service.resource(
    CallQueue,
    name="call_queue",
    plural="call_queues",
    prefix="cq",
    create=False,
    filters=("status",),
    search=("name",),
    update=("name", "hold_time_seconds", "max_callers"),
    delete=False,
    guard_update=_guard_queue,
    title="call queue",
)
calls = service.resource(
    Call,
    name="call",
    plural="calls",
    prefix="call",
    create=False,
    filters=("direction", "result", "extension_id", "queue_id", "from_number", "to_number"),
    delete=False,
    title="call log record",
)
voicemails = service.resource(
    Voicemail,
    name="voicemail",
    plural="voicemails",
    prefix="vm",
    create=False,
    get=False,
    filters=("extension_id", "read_status", "from_number"),
    search=("transcription", "from_name"),
    transitions={"mark_read": Transition("read_status", ("Unread",), "Read", "mark the voicemail read")},
)
forwarding = service.resource(
    ForwardingNumber,
    name="forwarding_number",
    plural="forwarding_numbers",
    prefix="fwd",
    create=False,
    get=False,
    filters=("extension_id",),
    guard_delete=_guard_forward_delete,
    title="forwarding number",
)
rules = service.resource(
    AnsweringRule,
    name="answering_rule",
    plural="answering_rules",
    prefix="ar",
    create=False,
    get=False,
    filters=("extension_id", "type", "enabled"),
    update=("name", "enabled", "action", "forward_to_ids", "ring_seconds"),
    guard_update=_guard_rule,
    guard_delete=_guard_rule_delete,
    title="answering rule",
)
faxes = service.resource(
    Fax,
    name="fax",
    plural="faxes",
    prefix="fax",
    create=False,
    get=False,
    filters=("extension_id", "status"),
    delete=False,
)


# -- domain tools -----------------------------------------------------------------------------


def _example_extension(ctx: Ctx) -> dict[str, Any] | None:
    taken = {e.email for e in ctx.scan(Extension)}
    p = next((p for p in ctx.population.employees if p.email not in taken), None)
    return None if p is None else {"extension_number": "480", "name": p.name, "email": p.email}


@service.tool(intent="create the user extension", write=True, example=_example_extension)
def create_extension(
    ctx: Ctx, extension_number: ExtNumber, name: PersonName, email: Email, department: Title | None = None
) -> Extension:
    """Add a user extension for an employee; it starts NotActivated until enabled.

    Args:
        extension_number: Its short number (3-5 digits, unique among extensions and queues).
        name: The user's name.
        email: The employee's e-mail (one extension each).
        department: Their department.
    """
    if email not in {p.email for p in ctx.population.employees}:
        raise RuleViolation(f"{email} is not an employee", field="email", hint="extensions are for staff")
    if ctx.first(Extension, email=email):
        raise Conflict(f"{email} already has an extension", field="email", hint="update that one")
    _number_free(ctx, extension_number, "extension_number")
    return ctx.create(Extension, extension_number=extension_number, name=name, email=email, department=department)


@service.tool(
    intent="assign the phone number to the extension",
    write=True,
    example=lambda ctx: (
        None
        if (n := ctx.first(PhoneNumber, usage_type="DirectNumber", extension_id=None)) is None
        or (e := ctx.first(Extension, status="Enabled")) is None
        else {"phone_number_id": n.id, "extension_id": e.id}
    ),
)
def assign_phone_number(ctx: Ctx, phone_number_id: NumberId, extension_id: ExtensionId) -> PhoneNumber:
    """Give an unassigned direct or fax number from the inventory to an enabled extension.

    Args:
        phone_number_id: The number.
        extension_id: The extension.
    """
    num = ctx.get(PhoneNumber, phone_number_id, field="phone_number_id")
    ext = ctx.get(Extension, extension_id, field="extension_id")
    if num.usage_type not in ("DirectNumber", "FaxNumber"):
        raise RuleViolation(
            f"a {num.usage_type} cannot be assigned to a user", field="phone_number_id", hint="pick a direct number"
        )
    if num.extension_id is not None:
        raise Conflict(
            f"{num.phone_number} is assigned to {num.extension_id}", field="phone_number_id", hint="unassign it first"
        )
    _enabled(ext, "extension_id")
    return ctx.update(num, extension_id=ext.id)


@service.tool(
    intent="return the phone number to the inventory",
    write=True,
    example=first_example(
        PhoneNumber,
        "phone_number_id",
        where={"usage_type": "DirectNumber"},
        match=lambda c, n: n.extension_id is not None,
    ),
)
def unassign_phone_number(ctx: Ctx, phone_number_id: NumberId) -> PhoneNumber:
    """Take a direct or fax number back from its extension into the company inventory.

    Args:
        phone_number_id: The number.
    """
    num = ctx.get(PhoneNumber, phone_number_id, field="phone_number_id")
    if num.extension_id is None:
        raise RuleViolation(f"{num.phone_number} is not assigned", field="phone_number_id", hint="nothing to do")
    return ctx.update(num, extension_id=None)


@service.tool(
    intent="create the call queue", write=True, example=lambda ctx: {"name": "Billing line", "extension_number": "730"}
)
def create_call_queue(
    ctx: Ctx, name: Title, extension_number: ExtNumber, hold_time_seconds: Annotated[int, Field(ge=15, le=900)] = 120
) -> CallQueue:
    """Create a call queue; it starts Disabled until it has a member.

    Args:
        name: The queue's name (unique).
        extension_number: Its short number (unique among extensions and queues).
        hold_time_seconds: How long callers wait before voicemail.
    """
    if ctx.first(CallQueue, name=name):
        raise Conflict(f"a queue named {name!r} exists", field="name", hint="pick another name")
    _number_free(ctx, extension_number, "extension_number")
    return ctx.create(
        CallQueue, name=name, extension_number=extension_number, hold_time_seconds=hold_time_seconds, status="Disabled"
    )


def _example_member(ctx: Ctx) -> dict[str, Any] | None:
    for q in ctx.scan(CallQueue):
        for e in ctx.where(Extension, status="Enabled"):
            if e.id not in q.member_ids:
                return {"call_queue_id": q.id, "extension_id": e.id}
    return None


@service.tool(intent="add the extension to the call queue", write=True, example=_example_member)
def add_queue_member(ctx: Ctx, call_queue_id: QueueId, extension_id: ExtensionId) -> CallQueue:
    """Add an enabled extension to a queue; a disabled queue with its first member becomes Enabled.

    Args:
        call_queue_id: The queue.
        extension_id: The extension.
    """
    q = ctx.get(CallQueue, call_queue_id, field="call_queue_id")
    ext = ctx.get(Extension, extension_id, field="extension_id")
    _enabled(ext, "extension_id")
    if ext.id in q.member_ids:
        raise Conflict(
            f"extension {ext.extension_number} is already in {q.name!r}", field="extension_id", hint="nothing to do"
        )
    if len(q.member_ids) >= MAX_QUEUE_MEMBERS:
        raise RuleViolation(
            f"a queue has at most {MAX_QUEUE_MEMBERS} members", field="call_queue_id", hint="make another"
        )
    return ctx.update(q, member_ids=(*q.member_ids, ext.id), status="Enabled")


@service.tool(
    intent="remove the extension from the call queue",
    write=True,
    example=lambda ctx: next(
        (
            {"call_queue_id": q.id, "extension_id": q.member_ids[0]}
            for q in ctx.scan(CallQueue)
            if len(q.member_ids) > 1
        ),
        None,
    ),
)
def remove_queue_member(ctx: Ctx, call_queue_id: QueueId, extension_id: ExtensionId) -> CallQueue:
    """Remove a member from a queue; an enabled queue keeps at least one member.

    Args:
        call_queue_id: The queue.
        extension_id: The member extension.
    """
    q = ctx.get(CallQueue, call_queue_id, field="call_queue_id")
    if extension_id not in q.member_ids:
        raise RuleViolation(
            f"{extension_id} is not a member of {q.name!r}", field="extension_id", hint="list the queue"
        )
    if q.status == "Enabled" and len(q.member_ids) == 1:
        raise RuleViolation(f"{q.name!r} would have no member", field="call_queue_id", hint="add another first")
    return ctx.update(q, member_ids=tuple(m for m in q.member_ids if m != extension_id))


def _example_ringout(ctx: Ctx) -> dict[str, Any] | None:
    e = ctx.first(Extension, status="Enabled")
    return None if e is None else {"extension_id": e.id, "to_number": ctx.population.customers[0].phone}


@service.tool(intent="place a call from the extension", write=True, example=_example_ringout)
def ring_out(ctx: Ctx, extension_id: ExtensionId, to_number: Phone) -> Call:
    """Place an outbound call (RingOut) from an enabled extension, from its direct number or the main number.

    Args:
        extension_id: The calling extension.
        to_number: The number to call.
    """
    ext = ctx.get(Extension, extension_id, field="extension_id")
    _enabled(ext, "extension_id")
    own = ctx.first(PhoneNumber, extension_id=ext.id, usage_type="DirectNumber") or ctx.first(
        PhoneNumber, usage_type="MainCompanyNumber"
    )
    if own is None:
        raise RuleViolation("the account has no number to call from", field="extension_id", hint="assign a number")
    if own.phone_number == to_number:
        raise RuleViolation("a number cannot call itself", field="to_number", hint="dial another number")
    return ctx.create(
        Call,
        direction="Outbound",
        from_number=own.phone_number,
        from_name=ext.name,
        to_number=to_number,
        extension_id=ext.id,
        result="Accepted",
        start_time=ctx.now(),
    )


def _example_forward(ctx: Ctx) -> dict[str, Any] | None:
    e = ctx.first(Extension, status="Enabled")
    return (
        None
        if e is None
        else {"extension_id": e.id, "phone_number": "+14155550199", "label": "Desk phone", "type": "Work"}
    )


@service.tool(intent="add a forwarding number to the extension", write=True, example=_example_forward)
def add_forwarding_number(
    ctx: Ctx, extension_id: ExtensionId, phone_number: Phone, label: Title, type: ForwardType = "Mobile"
) -> ForwardingNumber:
    """Add a number the extension's calls can forward to (at most 10, each once).

    Args:
        extension_id: The extension.
        phone_number: The number.
        label: Its label.
        type: Home, Mobile, Work or Other.
    """
    ext = ctx.get(Extension, extension_id, field="extension_id")
    mine = ctx.where(ForwardingNumber, extension_id=ext.id)
    if any(f.phone_number == phone_number for f in mine):
        raise Conflict(f"{phone_number} is already a forwarding number", field="phone_number", hint="use it")
    if len(mine) >= MAX_FORWARDING:
        raise RuleViolation(f"at most {MAX_FORWARDING} forwarding numbers", field="extension_id", hint="delete one")
    return ctx.create(ForwardingNumber, extension_id=ext.id, phone_number=phone_number, label=label, type=type)


def _example_rule(ctx: Ctx) -> dict[str, Any] | None:
    f = ctx.first(ForwardingNumber)
    return (
        None
        if f is None
        else {
            "extension_id": f.extension_id,
            "name": "Weekend mobile",
            "forward_to_ids": [f.id],
            "days": ["saturday", "sunday"],
            "from_hour": 9,
            "to_hour": 17,
        }
    )


@service.tool(intent="create a custom answering rule", write=True, example=_example_rule)
def create_answering_rule(
    ctx: Ctx,
    extension_id: ExtensionId,
    name: Title,
    days: Annotated[list[Weekday], Field(min_length=1, max_length=7)],
    from_hour: Annotated[int, Field(ge=0, le=23)],
    to_hour: Annotated[int, Field(ge=1, le=24)],
    action: RuleAction = "ForwardCalls",
    forward_to_ids: list[ForwardId] | None = None,
    ring_seconds: Annotated[int, Field(ge=5, le=120)] = 20,
) -> AnsweringRule:
    """Add a custom rule for some days and hours; forwarding goes to the extension's own forwarding numbers.

    Args:
        extension_id: The extension.
        name: The rule's name (unique per extension).
        days: Weekdays it applies.
        from_hour: Start hour.
        to_hour: End hour (after the start).
        action: ForwardCalls, TakeMessagesOnly, UnconditionalForwarding or PlayAnnouncementOnly.
        forward_to_ids: Forwarding numbers to ring, in order (needed to forward).
        ring_seconds: How long each rings.
    """
    ext = ctx.get(Extension, extension_id, field="extension_id")
    targets = tuple(forward_to_ids or ())
    own = {f.id for f in ctx.where(ForwardingNumber, extension_id=ext.id)}
    for t in targets:
        if t not in own:
            raise RuleViolation(
                f"{t} is not a forwarding number of this extension", field="forward_to_ids", hint="add it first"
            )
    if to_hour <= from_hour:
        raise RuleViolation("to_hour must be after from_hour", field="to_hour", hint="rules cannot span midnight")
    if any(r.name == name for r in ctx.where(AnsweringRule, extension_id=ext.id)):
        raise Conflict(f"rule {name!r} exists on this extension", field="name", hint="update it")
    return ctx.create(
        AnsweringRule,
        extension_id=ext.id,
        name=name,
        type="Custom",
        action=action,
        forward_to_ids=targets,
        ring_seconds=ring_seconds,
        days=tuple(dict.fromkeys(days)),
        from_hour=from_hour,
        to_hour=to_hour,
    )


def _example_fax(ctx: Ctx) -> dict[str, Any] | None:
    n = next((n for n in ctx.where(PhoneNumber, usage_type="FaxNumber") if n.extension_id), None)
    c = ctx.population.customers[0]
    return None if n is None else {"extension_id": n.extension_id, "to_number": c.phone, "to_name": c.name, "pages": 3}


@service.tool(intent="send a fax", write=True, example=_example_fax)
def send_fax(
    ctx: Ctx,
    extension_id: ExtensionId,
    to_number: Phone,
    pages: Annotated[int, Field(ge=1, le=200)],
    to_name: Title | None = None,
    cover_page_text: Text = "",
) -> Fax:
    """Send a fax from an enabled extension that holds a fax number; it is queued for delivery.

    Args:
        extension_id: The sender's extension.
        to_number: The recipient's fax number.
        pages: Pages of the document.
        to_name: Recipient name for the cover page.
        cover_page_text: Cover page text.
    """
    ext = ctx.get(Extension, extension_id, field="extension_id")
    _enabled(ext, "extension_id")
    if ctx.first(PhoneNumber, extension_id=ext.id, usage_type="FaxNumber") is None:
        raise RuleViolation(
            f"extension {ext.extension_number} has no fax number", field="extension_id", hint="assign a fax number"
        )
    return ctx.create(
        Fax, extension_id=ext.id, to_number=to_number, to_name=to_name, cover_page_text=cover_page_text, pages=pages
    )


@service.tool(
    intent="resend the failed fax", write=True, example=first_example(Fax, "fax_id", where={"status": "SendingFailed"})
)
def resend_fax(ctx: Ctx, fax_id: FaxId) -> Fax:
    """Queue a fax that failed to send again (at most 3 attempts).

    Args:
        fax_id: The fax.
    """
    fax = ctx.get(Fax, fax_id, field="fax_id")
    if fax.status != "SendingFailed":
        raise Conflict(f"fax {fax.id} is {fax.status}", field="fax_id", hint="only failed faxes are resent")
    if fax.attempts >= 3:
        raise RuleViolation("a fax is attempted at most 3 times", field="fax_id", hint="check the number and send anew")
    return ctx.update(fax, status="Queued", attempts=fax.attempts + 1)


# -- seed -------------------------------------------------------------------------------------


def _local(s: SeedContext, k: int) -> str:
    prefix = s.population.home.place.phone_prefix
    return f"{prefix}{5550100 + k:07d}"[:16]


@service.seeder
def seed(s: SeedContext) -> None:
    """Staff extensions in every status, numbers, sales and support queues, a call log with voicemail, rules, faxes."""
    pop = s.population
    home = pop.home
    staff = pop.employees[:16]
    exts: list[Extension] = []
    for k, p in enumerate(staff):
        status: ExtStatus = "Disabled" if k == 13 else "NotActivated" if k == 15 else "Enabled"
        exts.append(
            s.create(
                Extension,
                extension_number=str(101 + k),
                name=p.name,
                email=p.email,
                department=p.department,
                status=status,
                dnd_status="DoNotAcceptDepartmentCalls" if k == 4 else "TakeAllCalls",
                created_at=s.ago(days=400 - 10 * k),
                updated_at=s.ago(days=5),
            )
        )
    live = [e for e in exts if e.status == "Enabled"]
    by_dept = {d: [e for e in live if e.department == d] for d in ("Sales", "Support")}
    qs: dict[str, CallQueue] = {}
    for k, (dept, name) in enumerate((("Sales", "Sales line"), ("Support", "Support line"))):
        members = tuple(e.id for e in (by_dept[dept] or live[k * 3 : k * 3 + 3]))
        qs[dept] = s.create(
            CallQueue,
            name=name,
            extension_number=str(801 + k),
            member_ids=members,
            created_at=s.ago(days=380),
            updated_at=s.ago(days=20),
        )
    s.create(
        CallQueue,
        name="Spanish line",
        extension_number="803",
        status="Disabled",
        created_at=s.ago(days=30),
        updated_at=s.ago(days=30),
    )
    main = s.create(PhoneNumber, phone_number=home.phone, usage_type="MainCompanyNumber", label="Main number")
    lines = {}
    for k, dept in enumerate(("Sales", "Support")):
        lines[dept] = s.create(
            PhoneNumber,
            phone_number=_local(s, 1 + k),
            usage_type="CompanyNumber",
            queue_id=qs[dept].id,
            label=qs[dept].name,
        )
    for k, e in enumerate(live[:8]):
        s.create(PhoneNumber, phone_number=_local(s, 10 + k), usage_type="DirectNumber", extension_id=e.id)
    for k in range(3):
        s.create(PhoneNumber, phone_number=_local(s, 30 + k), usage_type="DirectNumber")
    fax_owner = next((e for e in live if e.department == "Finance"), live[-1])
    s.create(
        PhoneNumber, phone_number=_local(s, 40), usage_type="FaxNumber", extension_id=fax_owner.id, label="Finance fax"
    )
    for k, e in enumerate(live[:6]):
        p = next(p for p in staff if p.email == e.email)
        fwd = s.create(
            ForwardingNumber, extension_id=e.id, phone_number=p.phone, label="My mobile", created_at=s.ago(days=90)
        )
        s.create(
            AnsweringRule,
            extension_id=e.id,
            name="Business hours",
            type="BusinessHours",
            forward_to_ids=(fwd.id,) if k % 2 else (),
            action="ForwardCalls" if k % 2 else "TakeMessagesOnly",
            created_at=s.ago(days=90),
            updated_at=s.ago(days=9),
        )
        s.create(
            AnsweringRule,
            extension_id=e.id,
            name="After hours",
            type="AfterHours",
            action="TakeMessagesOnly",
            created_at=s.ago(days=90),
            updated_at=s.ago(days=9),
        )
        if k == 1:
            s.create(
                AnsweringRule,
                extension_id=e.id,
                name="Friday afternoons",
                type="Custom",
                forward_to_ids=(fwd.id,),
                days=("friday",),
                from_hour=13,
                to_hour=18,
                created_at=s.ago(days=20),
                updated_at=s.ago(days=20),
            )
    callers = list(pop.contacts[:14]) + list(pop.consumers[:10])
    results: tuple[CallResult, ...] = ("Accepted", "Accepted", "Missed", "Accepted", "Voicemail", "Busy")
    for k, c in enumerate(callers):
        dept = "Sales" if c.role == "contact" else "Support"
        q = qs[dept]
        result = results[k % len(results)]
        taker = next(e for e in exts if e.id == q.member_ids[k % len(q.member_ids)])
        call = s.create(
            Call,
            direction="Inbound",
            from_number=c.phone,
            from_name=c.name,
            to_number=lines[dept].phone_number,
            extension_id=taker.id if result in ("Accepted", "Voicemail") else None,
            queue_id=q.id,
            result=result,
            start_time=s.ago(days=k % 12, hours=k),
            duration_seconds=60 + 37 * k if result == "Accepted" else 0,
        )
        if result == "Voicemail":
            s.create(
                Voicemail,
                extension_id=taker.id,
                call_id=call.id,
                from_number=c.phone,
                from_name=c.name,
                duration_seconds=20 + k,
                transcription=f"Hi, this is {c.first_name}, please call me back about my account.",
                read_status="Read" if k % 4 == 0 else "Unread",
                received_at=call.start_time,
            )
    for k, co in enumerate(pop.customers[:6]):
        s.create(
            Call,
            direction="Outbound",
            from_number=main.phone_number,
            from_name=live[k].name,
            to_number=co.phone,
            extension_id=live[k].id,
            result="Accepted" if k % 3 else "Missed",
            start_time=s.ago(days=k, hours=3),
            duration_seconds=240 if k % 3 else 0,
        )
    for k, co in enumerate(pop.customers[:4]):
        status_f: FaxStatus = ("Sent", "Sent", "SendingFailed", "Queued")[k]
        s.create(
            Fax,
            extension_id=fax_owner.id,
            to_number=co.phone,
            to_name=co.name,
            pages=2 + k,
            status=status_f,
            cover_page_text=f"Signed documents for {co.name}",
            created_at=s.ago(days=k + 1),
        )
