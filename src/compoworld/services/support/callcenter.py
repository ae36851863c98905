"""Ringline: cloud call center with numbers, IVR routing, agents' availability, calls, voicemail, tags and comments.

Modeled on the Aircall Public API (``users`` with ``availability_status``,
``numbers`` with opening state and IVR, ``calls`` with ``direction``,
``status`` initial → answered → done, ``missed_call_reason``, ``recording``
and ``voicemail``, call tags, comments, transfers and archiving;
``contacts`` with phone numbers). An inbound call to a number is matched to a
contact by its digits and routed: a closed number sends it to voicemail
(``out_of_opening_hours``), an IVR number routes by the key pressed, and it
rings an available agent of the number or the chosen IVR agent, else it is
missed (``no_available_agent``) and leaves a voicemail. Aircall's rules: an
agent answering or calling out must be available and a member of the number;
an agent on a call is ``in_call`` and goes to ``after_call_work`` when it
ends; only an answered call is transferred, to another available member;
recordings and voicemails may be deleted (privacy requests) but not restored;
a contact's phone numbers are unique.
"""

from __future__ import annotations

import datetime as dt
from typing import Annotated, Any, Literal

from pydantic import Field

from compoworld.engine.context import Ctx
from compoworld.engine.errors import Conflict, RuleViolation
from compoworld.engine.records import Record
from compoworld.engine.service import Service, Transition
from compoworld.engine.state import SeedContext
from compoworld.engine.types import CompanyName, Country, DateTime, Email, FirstName, IdOf, LastName, Phone, Text, Title
from compoworld.services.kit.examples import first_example
from compoworld.services.kit.records import Created, Timestamped, Value

__all__ = ["service"]

service = Service(
    "callcenter",
    title="Ringline",
    category="call_center",
    modeled_on="Aircall Public API (users and availability, numbers with IVR, calls with transfers, tags, "
    "comments, recordings and voicemails, archive; contacts)",
    description="Cloud phone system for the support and sales teams: phone numbers with opening hours and IVR "
    "menus, agents and their availability, inbound and outbound calls with recordings, voicemails, tags and "
    "comments, and the contacts callers are matched to.",
)

UserId = Annotated[str, IdOf("callcenter.user")]
NumberId = Annotated[str, IdOf("callcenter.number")]
ContactId = Annotated[str, IdOf("callcenter.contact")]
CallId = Annotated[str, IdOf("callcenter.call")]
TagId = Annotated[str, IdOf("callcenter.tag")]
CommentId = Annotated[str, IdOf("callcenter.comment")]

Availability = Literal["available", "unavailable", "do_not_disturb", "in_call", "after_call_work"]
Direction = Literal["inbound", "outbound"]
CallStatus = Literal["initial", "answered", "done"]
MissedReason = Literal["out_of_opening_hours", "short_abandoned", "abandoned_in_ivr", "no_available_agent"]
IvrKey = Annotated[int, Field(ge=0, le=9)]
TagName = Annotated[str, Field(pattern=r"^[A-Za-z0-9][A-Za-z0-9 _-]{0,39}$")]


class User(Record):
    """An agent with an Aircall seat."""

    id: UserId
    email: Email
    """Login e-mail."""
    first_name: FirstName
    """First name."""
    last_name: LastName
    """Last name."""
    availability_status: Availability = "available"
    """available, unavailable, do_not_disturb, in_call or after_call_work."""


class IvrOption(Value):
    """A key of an IVR menu and the agent it rings."""

    key: IvrKey
    """The key pressed."""
    label: Title
    """What the caller hears (Sales, Support …)."""
    user_ids: tuple[UserId, ...]
    """The agents it rings, in order."""


class Number(Record):
    """A phone number of the company."""

    id: NumberId
    name: Title
    """Its name (Support line …)."""
    digits: Phone
    """The number (unique)."""
    country: Country
    """Its country."""
    open: bool = True
    """Within opening hours now."""
    user_ids: tuple[UserId, ...] = ()
    """The agents who take its calls."""
    ivr: tuple[IvrOption, ...] = ()
    """IVR menu (empty: no IVR, calls ring the members)."""


class Contact(Timestamped):
    """A shared contact callers are matched to."""

    id: ContactId
    first_name: FirstName
    """First name."""
    last_name: LastName
    """Last name."""
    company_name: CompanyName | None = None
    """Company."""
    phone_numbers: tuple[Phone, ...]
    """Phone numbers (each unique across contacts)."""
    emails: tuple[Email, ...] = ()
    """E-mail addresses."""


class Call(Record):
    """A call on one of the numbers."""

    id: CallId
    direction: Direction
    """inbound or outbound."""
    status: CallStatus = "initial"
    """initial (ringing), answered or done."""
    number_id: NumberId
    """The company number."""
    raw_digits: Phone
    """The external party's number."""
    contact_id: ContactId | None = None
    """The matched contact."""
    user_id: UserId | None = None
    """The agent on (or rung for) the call."""
    missed_call_reason: MissedReason | None = None
    """Why an inbound call was missed."""
    ivr_key: IvrKey | None = None
    """The IVR key pressed."""
    started_at: DateTime
    """When it started."""
    answered_at: DateTime | None = None
    """When it was answered."""
    ended_at: DateTime | None = None
    """When it ended."""
    duration_s: Annotated[int, Field(ge=0)] = 0
    """Length in seconds."""
    recording: Annotated[str, Field(pattern=r"^https://\S+$")] | None = None
    """Recording link."""
    voicemail: Annotated[str, Field(pattern=r"^https://\S+$")] | None = None
    """Voicemail link."""
    tag_ids: tuple[TagId, ...] = ()
    """Tags."""
    archived: bool = False
    """Archived (done with)."""
    transferred_from: UserId | None = None
    """The agent who transferred it."""


class Tag(Record):
    """A call tag."""

    id: TagId
    name: TagName
    """Name (unique)."""
    color: Annotated[str, Field(pattern=r"^#[0-9a-f]{6}$")] = "#00b388"
    """Hex colour."""


class Comment(Created):
    """A note on a call."""

    id: CommentId
    call_id: CallId
    """The call."""
    author_id: UserId
    """The agent who wrote it."""
    content: Text
    """The note."""


# -- rules ------------------------------------------------------------------------------------


def _guard_contact(ctx: Ctx, new: Any, old: Any) -> None:
    if not new.phone_numbers:
        raise RuleViolation("a contact needs a phone number", field="phone_numbers", hint="give one")
    for digits in new.phone_numbers:
        for other in ctx.scan(Contact):
            if other.id != new.id and digits in other.phone_numbers:
                raise Conflict(
                    f"{digits} belongs to contact {other.id}", field="phone_numbers", hint="update that contact instead"
                )


def _guard_number(ctx: Ctx, new: Any, old: Any) -> None:
    for uid in new.user_ids:
        ctx.get(User, uid, field="user_ids")
    keys = [o.key for o in new.ivr]
    if len(set(keys)) != len(keys):
        raise RuleViolation("an IVR key is used twice", field="ivr", hint="give each option its own key")
    for opt in new.ivr:
        for uid in opt.user_ids:
            if uid not in new.user_ids:
                raise RuleViolation(
                    f"IVR key {opt.key} rings {uid}, not a member of the number",
                    field="ivr",
                    hint="add the agent to user_ids first",
                )


users = service.resource(
    User,
    name="user",
    plural="users",
    prefix="usr",
    create=False,
    filters=("email", "availability_status"),
    search=("first_name", "last_name", "email"),
    delete=False,
)
numbers = service.resource(
    Number,
    name="number",
    plural="numbers",
    prefix="num",
    create=False,
    filters=("digits", "country", "open"),
    search=("name",),
    update=("name", "open", "user_ids", "ivr"),
    delete=False,
    guard_update=_guard_number,
)
contacts = service.resource(
    Contact,
    name="contact",
    plural="contacts",
    prefix="con",
    create=("first_name", "last_name", "company_name", "phone_numbers", "emails"),
    filters=("company_name",),
    search=("first_name", "last_name", "company_name"),
    update=("first_name", "last_name", "company_name", "phone_numbers", "emails"),
    guard_create=_guard_contact,
    guard_update=_guard_contact,
)
calls = service.resource(
    Call,
    name="call",
    plural="calls",
    prefix="call",
    create=False,
    filters=("direction", "status", "number_id", "user_id", "contact_id", "missed_call_reason", "archived"),
    delete=False,
    transitions={
        "archive": Transition("archived", (False,), True, "archive the call"),
        "unarchive": Transition("archived", (True,), False, "unarchive the call"),
    },
)
tags = service.resource(
    Tag, name="tag", plural="tags", prefix="tag", get=False, filters=(), search=("name",), unique=("name",)
)
comments = service.resource(
    Comment,
    name="comment",
    plural="comments",
    prefix="cmt",
    create=False,
    get=False,
    filters=("call_id",),
    delete=False,
)


# -- domain tools -----------------------------------------------------------------------------


def _agent(ctx: Ctx, number: Number, user_id: str, field: str) -> User:
    user = ctx.get(User, user_id, field=field)
    if user.id not in number.user_ids:
        raise RuleViolation(
            f"{user.email} is not a member of {number.name!r}",
            field=field,
            hint="add the agent to the number's user_ids first",
        )
    if user.availability_status != "available":
        raise RuleViolation(f"{user.email} is {user.availability_status}", field=field, hint="pick an available agent")
    return user


def _match(ctx: Ctx, digits: str) -> str | None:
    return next((c.id for c in ctx.scan(Contact) if digits in c.phone_numbers), None)


def _voicemail(ctx: Ctx, number: Number) -> str:
    return f"https://voicemail.ringline.example/{number.id}/{ctx.now().strftime('%Y%m%d%H%M%S')}.mp3"


def _example_incoming(ctx: Ctx) -> dict[str, Any] | None:
    num = ctx.first(Number, open=True)
    person = ctx.population.contacts[0]
    return None if num is None else {"number_id": num.id, "from_digits": person.phone}


@service.tool(intent="receive the incoming call", write=True, example=_example_incoming)
def incoming_call(
    ctx: Ctx, number_id: NumberId, from_digits: Phone, ivr_key: IvrKey | None = None, voicemail_left: bool = True
) -> Call:
    """An inbound call reaches a number: it is matched to a contact and routed to an available agent.

    A closed number, an IVR key with no available agent or a number with none available misses the call
    (with voicemail if the caller leaves one); an IVR number needs the key the caller pressed.

    Args:
        number_id: The number called.
        from_digits: The caller's number.
        ivr_key: The IVR key pressed (IVR numbers only).
        voicemail_left: Whether a missed caller leaves a voicemail.
    """
    num = ctx.get(Number, number_id, field="number_id")
    if ivr_key is not None and not num.ivr:
        raise RuleViolation(f"{num.name!r} has no IVR", field="ivr_key", hint="omit ivr_key")
    base = {
        "direction": "inbound",
        "number_id": num.id,
        "raw_digits": from_digits,
        "contact_id": _match(ctx, from_digits),
        "started_at": ctx.now(),
        "ivr_key": ivr_key,
    }
    missed: MissedReason | None = None
    pool = num.user_ids
    if not num.open:
        missed = "out_of_opening_hours"
    elif num.ivr:
        option = next((o for o in num.ivr if o.key == ivr_key), None)
        if option is None:
            missed = "abandoned_in_ivr"
        else:
            pool = option.user_ids
    agent = None
    if missed is None:
        agent = next((u for u in (ctx.get(User, uid) for uid in pool) if u.availability_status == "available"), None)
        missed = None if agent is not None else "no_available_agent"
    if missed is not None:
        return ctx.create(
            Call,
            status="done",
            missed_call_reason=missed,
            ended_at=ctx.now(),
            voicemail=_voicemail(ctx, num) if voicemail_left and missed != "abandoned_in_ivr" else None,
            **base,
        )
    assert agent is not None
    return ctx.create(Call, status="initial", user_id=agent.id, **base)


@service.tool(intent="answer the call", write=True, example=first_example(Call, "call_id", where={"status": "initial"}))
def answer_call(ctx: Ctx, call_id: CallId) -> Call:
    """The agent rung answers a ringing inbound call; they are then in_call.

    Args:
        call_id: The ringing call.
    """
    call = ctx.get(Call, call_id, field="call_id")
    if call.status != "initial":
        raise Conflict(f"the call is {call.status}", field="call_id", hint="only a ringing call is answered")
    assert call.user_id is not None
    user = ctx.get(User, call.user_id)
    if user.availability_status != "available":
        raise RuleViolation(
            f"{user.email} is {user.availability_status}", field="call_id", hint="the agent must be available to answer"
        )
    ctx.update(user, availability_status="in_call")
    return ctx.update(call, status="answered", answered_at=ctx.now())


def _example_outbound(ctx: Ctx) -> dict[str, Any] | None:
    for num in ctx.scan(Number):
        for uid in num.user_ids:
            if ctx.get(User, uid).availability_status == "available":
                return {"user_id": uid, "number_id": num.id, "to_digits": ctx.population.contacts[1].phone}
    return None


@service.tool(intent="call the number", write=True, example=_example_outbound)
def start_outbound_call(ctx: Ctx, user_id: UserId, number_id: NumberId, to_digits: Phone) -> Call:
    """An available agent calls out from one of their numbers; the callee picks up and the agent is in_call.

    Args:
        user_id: The agent.
        number_id: The company number shown to the callee (the agent must be a member).
        to_digits: The number called.
    """
    num = ctx.get(Number, number_id, field="number_id")
    user = _agent(ctx, num, user_id, "user_id")
    if to_digits == num.digits or ctx.first(Number, digits=to_digits) is not None:
        raise RuleViolation("that is one of our own numbers", field="to_digits", hint="call an external number")
    ctx.update(user, availability_status="in_call")
    now = ctx.now()
    return ctx.create(
        Call,
        direction="outbound",
        status="answered",
        number_id=num.id,
        raw_digits=to_digits,
        contact_id=_match(ctx, to_digits),
        user_id=user.id,
        started_at=now,
        answered_at=now,
    )


@service.tool(
    intent="hang up the call", write=True, example=first_example(Call, "call_id", where={"status": "answered"})
)
def hangup_call(ctx: Ctx, call_id: CallId, recorded: bool = True) -> Call:
    """End an answered call: it is done with its duration and recording; the agent goes to after_call_work.

    Args:
        call_id: The call.
        recorded: Whether the call was recorded.
    """
    call = ctx.get(Call, call_id, field="call_id")
    if call.status != "answered":
        raise Conflict(f"the call is {call.status}", field="call_id", hint="only an answered call is hung up")
    assert call.user_id is not None and call.answered_at is not None
    ctx.update(ctx.get(User, call.user_id), availability_status="after_call_work")
    now = ctx.now()
    link = f"https://recordings.ringline.example/{call.id}.mp3" if recorded else None
    return ctx.update(
        call, status="done", ended_at=now, duration_s=int((now - call.started_at).total_seconds()), recording=link
    )


def _example_transfer(ctx: Ctx) -> dict[str, Any] | None:
    for call in ctx.where(Call, status="answered"):
        num = ctx.get(Number, call.number_id)
        for uid in num.user_ids:
            if uid != call.user_id and ctx.get(User, uid).availability_status == "available":
                return {"call_id": call.id, "to_user_id": uid}
    return None


@service.tool(intent="transfer the call", write=True, example=_example_transfer)
def transfer_call(ctx: Ctx, call_id: CallId, to_user_id: UserId) -> Call:
    """Transfer an answered call to another available member of its number.

    Args:
        call_id: The call.
        to_user_id: The agent taking it over.
    """
    call = ctx.get(Call, call_id, field="call_id")
    if call.status != "answered":
        raise RuleViolation(f"the call is {call.status}", field="call_id", hint="only an answered call is transferred")
    if to_user_id == call.user_id:
        raise RuleViolation("the agent is already on the call", field="to_user_id", hint="pick another agent")
    target = _agent(ctx, ctx.get(Number, call.number_id), to_user_id, "to_user_id")
    assert call.user_id is not None
    ctx.update(ctx.get(User, call.user_id), availability_status="available")
    ctx.update(target, availability_status="in_call")
    return ctx.update(call, user_id=target.id, transferred_from=call.user_id)


@service.tool(
    intent="set the agent's availability",
    write=True,
    example=first_example(User, "user_id", where={"availability_status": "after_call_work"}, status="available"),
)
def set_availability(ctx: Ctx, user_id: UserId, status: Literal["available", "unavailable", "do_not_disturb"]) -> User:
    """Set an agent's availability; an agent on a call cannot change it until the call ends.

    Args:
        user_id: The agent.
        status: available, unavailable or do_not_disturb.
    """
    user = ctx.get(User, user_id, field="user_id")
    if user.availability_status == "in_call":
        raise RuleViolation(f"{user.email} is on a call", field="user_id", hint="hang up the call first")
    if user.availability_status == status:
        raise Conflict(f"{user.email} is already {status}", field="status", hint="nothing to do")
    return ctx.update(user, availability_status=status)


def _example_tag(ctx: Ctx) -> dict[str, Any] | None:
    call, tag = ctx.first(Call, status="done"), ctx.first(Tag)
    if call is None or tag is None or tag.id in call.tag_ids:
        return None
    return {"call_id": call.id, "tag_id": tag.id}


@service.tool(intent="tag the call", write=True, example=_example_tag)
def tag_call(ctx: Ctx, call_id: CallId, tag_id: TagId) -> Call:
    """Add a tag to a call.

    Args:
        call_id: The call.
        tag_id: The tag.
    """
    call = ctx.get(Call, call_id, field="call_id")
    tag = ctx.get(Tag, tag_id, field="tag_id")
    if tag.id in call.tag_ids:
        raise Conflict(f"the call is already tagged {tag.name!r}", field="tag_id", hint="nothing to do")
    return ctx.update(call, tag_ids=(*call.tag_ids, tag.id))


def _example_comment(ctx: Ctx) -> dict[str, Any] | None:
    call = ctx.first(Call, status="done", direction="outbound")
    if call is None or call.user_id is None:
        return None
    return {"call_id": call.id, "author_id": call.user_id, "content": "Customer asked for a callback on Friday."}


@service.tool(intent="comment on the call", write=True, example=_example_comment)
def add_comment(ctx: Ctx, call_id: CallId, author_id: UserId, content: Text) -> Comment:
    """Add a note to a call (at most 5 per call, as Aircall allows).

    Args:
        call_id: The call.
        author_id: The agent writing it.
        content: The note.
    """
    call = ctx.get(Call, call_id, field="call_id")
    ctx.get(User, author_id, field="author_id")
    if not content.strip():
        raise RuleViolation("a comment needs content", field="content", hint="write the note")
    if len(ctx.where(Comment, call_id=call.id)) >= 5:
        raise RuleViolation("a call has at most 5 comments", field="call_id", hint="edit the call's tags instead")
    return ctx.create(Comment, call_id=call.id, author_id=author_id, content=content.strip())


@service.tool(
    intent="delete the call's recording",
    write=True,
    destructive=True,
    example=first_example(Call, "call_id", match=lambda c, r: r.recording is not None),
)
def delete_recording(ctx: Ctx, call_id: CallId) -> Call:
    """Delete a call's recording for good (privacy request).

    Args:
        call_id: The call.
    """
    call = ctx.get(Call, call_id, field="call_id")
    if call.recording is None:
        raise RuleViolation("the call has no recording", field="call_id", hint="nothing to delete")
    return ctx.update(call, recording=None)


@service.tool(
    intent="delete the call's voicemail",
    write=True,
    destructive=True,
    example=first_example(Call, "call_id", match=lambda c, r: r.voicemail is not None),
)
def delete_voicemail(ctx: Ctx, call_id: CallId) -> Call:
    """Delete a missed call's voicemail for good.

    Args:
        call_id: The call.
    """
    call = ctx.get(Call, call_id, field="call_id")
    if call.voicemail is None:
        raise RuleViolation("the call has no voicemail", field="call_id", hint="nothing to delete")
    return ctx.update(call, voicemail=None)


# -- seed -------------------------------------------------------------------------------------

TAGS = (("Billing", "#f5a623"), ("Bug", "#d0021b"), ("Callback", "#4a90e2"), ("Sales lead", "#7ed321"))


@service.seeder
def seed(s: SeedContext) -> None:
    """Support and sales agents, a support line with IVR and a sales line, contacts, calls in every state."""
    pop = s.population
    home = pop.home
    support = pop.staff("Support", fallback=3)
    sales = pop.staff("Sales", fallback=2)
    states: tuple[Availability, ...] = ("available", "available", "unavailable", "do_not_disturb", "after_call_work")
    agents = [
        s.create(
            User,
            email=p.email,
            first_name=p.first_name,
            last_name=p.last_name,
            availability_status=states[k % len(states)],
        )
        for k, p in enumerate(support + sales)
    ]
    sup = [a.id for a in agents[: len(support)]]
    sal = [a.id for a in agents[len(support) :]] or sup[:1]
    prefix = home.place.phone_prefix
    ivr = (
        IvrOption(key=1, label="Billing", user_ids=tuple(sup[:2])),
        IvrOption(key=2, label="Technical support", user_ids=tuple(sup)),
    )
    lines = [
        s.create(
            Number,
            name="Support line",
            digits=f"{prefix}5550100",
            country=home.place.country,
            user_ids=tuple(sup),
            ivr=ivr,
        ),
        s.create(
            Number,
            name="Sales line",
            digits=f"{prefix}5550200",
            country=home.place.country,
            user_ids=tuple(sal + sup[:1]),
        ),
        s.create(
            Number,
            name="After-hours line",
            digits=f"{prefix}5550300",
            country=home.place.country,
            open=False,
            user_ids=tuple(sup[:1]),
        ),
    ]
    tags = [s.create(Tag, name=n, color=c) for n, c in TAGS]
    people = list(pop.contacts[:14])
    known = []
    for k, p in enumerate(people[:10]):
        company = pop.company_of(p)
        known.append(
            s.create(
                Contact,
                first_name=p.first_name,
                last_name=p.last_name,
                phone_numbers=(p.phone,),
                company_name=company.name if company else None,
                emails=(p.email,),
                created_at=s.ago(days=100 - k),
                updated_at=s.ago(days=20),
            )
        )
    for k, p in enumerate(people + list(pop.consumers[:6])):
        line = lines[k % 3] if k % 4 else lines[1]
        contact = known[k].id if k < len(known) else None
        start = s.ago(days=k % 10, hours=2 + k)
        if line.open and line.user_ids and k % 5:
            agent = line.user_ids[k % len(line.user_ids)]
            direction: Direction = "outbound" if line.name == "Sales line" else "inbound"
            s.create(
                Call,
                direction=direction,
                status="done",
                number_id=line.id,
                raw_digits=p.phone,
                contact_id=contact,
                user_id=agent,
                started_at=start,
                answered_at=start + dt.timedelta(seconds=12),
                ended_at=start + dt.timedelta(seconds=312 + 30 * k),
                duration_s=312 + 30 * k,
                recording=f"https://recordings.ringline.example/seed{k}.mp3" if k % 3 else None,
                ivr_key=(1 + k % 2) if line.ivr else None,
                tag_ids=(tags[k % len(tags)].id,),
                archived=k % 6 == 1,
            )
        else:
            reason: MissedReason = "out_of_opening_hours" if not line.open else "no_available_agent"
            s.create(
                Call,
                direction="inbound",
                status="done",
                number_id=line.id,
                raw_digits=p.phone,
                contact_id=contact,
                missed_call_reason=reason,
                started_at=start,
                ended_at=start + dt.timedelta(seconds=40),
                voicemail=f"https://voicemail.ringline.example/seed{k}.mp3",
                tag_ids=(tags[2].id,),
            )
    s.create(
        Call,
        direction="inbound",
        status="answered",
        number_id=lines[0].id,
        raw_digits=people[0].phone,
        contact_id=known[0].id,
        user_id=sup[0],
        started_at=s.ago(minutes=4),
        answered_at=s.ago(minutes=3),
        ivr_key=2,
    )
    s.update(agents[0], availability_status="in_call")
    free = next((a for a in agents[1:] if a.id in sup and a.availability_status == "available"), None)
    if free is not None:
        s.create(
            Call,
            direction="inbound",
            number_id=lines[0].id,
            raw_digits=people[1].phone,
            contact_id=known[1].id,
            user_id=free.id,
            started_at=s.ago(minutes=1),
            ivr_key=2,
        )
    s.create(
        Comment,
        call_id=s.records(Call)[1].id,
        author_id=sup[0],
        content="Asked for a refund of the last invoice.",
        created_at=s.ago(days=1),
    )
