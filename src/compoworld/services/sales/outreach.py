"""Cadence: sales engagement sequences of e-mails, calls and tasks sent to prospects from reps' mailboxes.

Modeled on the Outreach API v2 (resources ``prospect``, ``sequence``,
``sequenceStep``, ``sequenceState``, ``mailbox``, ``mailing``, ``task``,
``call``): a prospect is added to an enabled sequence with steps through one of
the rep's mailboxes and gets a sequence state that is ``active`` and moves
step by step; an ``auto_email`` step schedules a mailing, the other steps
(``manual_email``, ``call``, ``task``, ``linkedin``) create a task for the
rep; delivering the mailing or completing the task moves the state to the
next step after the step's interval, and after the last step the state is
``finished``. A reply finishes the state, a bounce marks it ``bounced``, an
opt-out marks every active state of the prospect ``opted_out``; states may be
``paused`` and resumed. Outreach's rules: an opted-out prospect cannot be
sequenced; a prospect is active in a sequence at most once; a prospect in an
exclusive sequence cannot be added to another exclusive one; a mailbox cannot
send beyond its daily limit; a disabled sequence or one without steps takes
no prospects.
"""

from __future__ import annotations

import datetime as dt
from typing import Annotated, Any, Literal

from pydantic import Field

from compoworld.engine.context import Ctx
from compoworld.engine.entities import Person
from compoworld.engine.errors import Conflict, RuleViolation
from compoworld.engine.service import Service, Transition
from compoworld.engine.state import SeedContext
from compoworld.engine.types import (
    CompanyName,
    DateTime,
    Domain,
    Email,
    FirstName,
    IdOf,
    JobTitle,
    LastName,
    Phone,
    Text,
    Title,
)
from compoworld.services.kit.examples import first_example
from compoworld.services.kit.records import Timestamped

__all__ = ["service"]

service = Service(
    "outreach",
    title="Cadence",
    category="sales_engagement",
    modeled_on="Outreach API v2 (prospects, sequences, sequenceSteps, sequenceStates, mailboxes, mailings, "
    "tasks, calls; sequence state actions pause/resume/finish)",
    description="Sales engagement for the sales development team: prospects enrolled in multi-step sequences "
    "of automated e-mails, calls and tasks sent from the reps' mailboxes, with replies, bounces and opt-outs "
    "ending the outreach and daily sending limits per mailbox.",
)

ProspectId = Annotated[str, IdOf("outreach.prospect")]
MailboxId = Annotated[str, IdOf("outreach.mailbox")]
SequenceId = Annotated[str, IdOf("outreach.sequence")]
StepId = Annotated[str, IdOf("outreach.step")]
StateId = Annotated[str, IdOf("outreach.state")]
MailingId = Annotated[str, IdOf("outreach.mailing")]
TaskId = Annotated[str, IdOf("outreach.task")]
CallId = Annotated[str, IdOf("outreach.call")]

StepType = Literal["auto_email", "manual_email", "call", "task", "linkedin"]
SeqState = Literal["active", "paused", "finished", "bounced", "opted_out"]
MailingState = Literal["scheduled", "delivered", "opened", "replied", "bounced", "cancelled"]
TaskState = Literal["incomplete", "complete"]
CallOutcome = Literal["answered", "no_answer", "voicemail", "wrong_number", "gatekeeper"]
Interval = Annotated[int, Field(ge=0, le=30)]
DailyLimit = Annotated[int, Field(ge=1, le=2000)]
LIVE: tuple[SeqState, ...] = ("active", "paused")


class Prospect(Timestamped):
    """A person the reps reach out to."""

    id: ProspectId
    email: Email
    """Primary e-mail (unique)."""
    first_name: FirstName
    """First name."""
    last_name: LastName
    """Last name."""
    title: JobTitle | None = None
    """Job title."""
    company: CompanyName | None = None
    """Company name."""
    company_domain: Domain | None = None
    """Company domain."""
    phone: Phone | None = None
    """Work phone for call steps."""
    owner_email: Email
    """The rep who owns the prospect."""
    opted_out: bool = False
    """Opted out of all outreach."""
    tags: tuple[Annotated[str, Field(pattern=r"^[a-z0-9-]{1,40}$")], ...] = ()
    """Tags."""


class Mailbox(Timestamped):
    """A rep's connected sending mailbox."""

    id: MailboxId
    email: Email
    """The address mail is sent from (unique)."""
    owner_email: Email
    """The rep it belongs to."""
    daily_limit: DailyLimit = 200
    """Maximum mailings delivered per day."""
    sending_disabled: bool = False
    """Whether sending is switched off (e.g. after an auth error)."""


class Sequence(Timestamped):
    """A multi-step outreach sequence."""

    id: SequenceId
    name: Title
    """Sequence name."""
    owner_email: Email
    """The rep who owns it."""
    enabled: bool = False
    """Only enabled sequences take prospects and run."""
    exclusive: bool = False
    """A prospect can be active in only one exclusive sequence at a time."""
    step_count: int = 0
    """Number of steps."""
    description: Text = ""
    """What it is for."""


class Step(Timestamped):
    """One step of a sequence."""

    id: StepId
    sequence_id: SequenceId
    """The sequence."""
    order: Annotated[int, Field(ge=1, le=30)]
    """Position (1 is the first)."""
    step_type: StepType
    """auto_email, manual_email, call, task or linkedin."""
    interval_days: Interval = 0
    """Days to wait after the previous step."""
    subject: Title | None = None
    """E-mail subject (e-mail steps)."""
    body: Text = ""
    """E-mail body or task instructions."""


class State(Timestamped):
    """A prospect's enrolment in a sequence (a sequenceState)."""

    id: StateId
    prospect_id: ProspectId
    """The prospect."""
    sequence_id: SequenceId
    """The sequence."""
    mailbox_id: MailboxId
    """The mailbox it sends from."""
    state: SeqState = "active"
    """active, paused, finished, bounced or opted_out."""
    step_order: int = 1
    """The current step's position."""
    next_due_at: DateTime | None = None
    """When the current step is due."""
    added_by: Email
    """Who added the prospect."""
    finish_reason: Literal["completed", "replied", "manual"] | None = None
    """Why it finished."""


class Mailing(Timestamped):
    """An e-mail a sequence step sends."""

    id: MailingId
    state_id: StateId
    """The sequence state."""
    prospect_id: ProspectId
    """The recipient prospect."""
    mailbox_id: MailboxId
    """The sending mailbox."""
    step_order: int
    """The step it belongs to."""
    subject: Title
    """Subject."""
    body: Text = ""
    """Body."""
    status: MailingState = "scheduled"
    """scheduled, delivered, opened, replied, bounced or cancelled."""
    scheduled_at: DateTime
    """When it is to be sent."""
    delivered_at: DateTime | None = None
    """When it was delivered."""
    replied_at: DateTime | None = None
    """When the prospect replied."""


class Task(Timestamped):
    """A task for a rep: a manual e-mail, call, LinkedIn touch or other action."""

    id: TaskId
    owner_email: Email
    """The rep."""
    prospect_id: ProspectId
    """The prospect."""
    state_id: StateId | None = None
    """The sequence state it came from (none: a one-off task)."""
    action: StepType
    """The kind of action."""
    note: Text = ""
    """Instructions."""
    due_at: DateTime
    """When it is due."""
    status: TaskState = "incomplete"
    """incomplete or complete."""
    completed_at: DateTime | None = None
    """When it was completed."""


class Call(Timestamped):
    """A logged call to a prospect."""

    id: CallId
    prospect_id: ProspectId
    """The prospect called."""
    user_email: Email
    """The rep who called."""
    outcome: CallOutcome
    """answered, no_answer, voicemail, wrong_number or gatekeeper."""
    duration_s: Annotated[int, Field(ge=0, le=86400)] = 0
    """Length in seconds."""
    note: Text = ""
    """Call notes."""
    task_id: TaskId | None = None
    """The call task it completed."""


# -- rules ------------------------------------------------------------------------------------


def _rep(ctx: Ctx, email: str, field: str) -> None:
    if email not in {p.email for p in ctx.population.employees}:
        raise RuleViolation(f"{email} is not a user of the organisation", field=field, hint="use an employee's e-mail")


def _guard_owner(ctx: Ctx, new: Any, old: Any) -> None:
    _rep(ctx, new.owner_email, "owner_email")


def _guard_sequence(ctx: Ctx, new: Any, old: Any) -> None:
    _rep(ctx, new.owner_email, "owner_email")
    if new.enabled and not (old is not None and old.enabled) and new.step_count == 0:
        raise RuleViolation(
            f"sequence {new.name!r} has no steps", field="sequence_id", hint="add a step with outreach__add_step first"
        )


def _guard_state(ctx: Ctx, new: Any, old: Any) -> None:
    if old is not None and old.state == "paused" and new.state == "active":
        if ctx.get(Prospect, new.prospect_id).opted_out:
            raise RuleViolation("the prospect opted out", field="state_id", hint="the prospect cannot be resumed")
        ctx.update(new, next_due_at=max(ctx.now(), new.next_due_at or ctx.now()))


prospects = service.resource(
    Prospect,
    name="prospect",
    plural="prospects",
    prefix="pro",
    create=("email", "first_name", "last_name", "title", "company", "company_domain", "phone", "owner_email", "tags"),
    filters=("email", "owner_email", "company_domain", "opted_out"),
    search=("first_name", "last_name", "email", "company", "title"),
    update=("first_name", "last_name", "title", "company", "phone", "owner_email", "tags"),
    unique=("email",),
    guard_create=_guard_owner,
    guard_update=_guard_owner,
)
mailboxes = service.resource(
    Mailbox,
    name="mailbox",
    plural="mailboxes",
    prefix="mbx",
    create=False,
    filters=("owner_email", "email", "sending_disabled"),
    update=("daily_limit", "sending_disabled"),
    delete=False,
)
sequences = service.resource(
    Sequence,
    name="sequence",
    plural="sequences",
    prefix="seq",
    create=("name", "owner_email", "exclusive", "description"),
    filters=("owner_email", "enabled", "exclusive"),
    search=("name", "description"),
    update=("name", "owner_email", "description"),
    delete=False,
    transitions={
        "enable": Transition("enabled", (False,), True, "enable the sequence"),
        "disable": Transition("enabled", (True,), False, "disable the sequence"),
    },
    guard_create=_guard_sequence,
    guard_update=_guard_sequence,
)
steps = service.resource(
    Step,
    name="step",
    plural="steps",
    prefix="step",
    create=False,
    get=False,
    filters=("sequence_id", "step_type"),
    update=("interval_days", "subject", "body"),
    delete=False,
)
states = service.resource(
    State,
    name="state",
    plural="states",
    prefix="sst",
    create=False,
    filters=("prospect_id", "sequence_id", "mailbox_id", "state"),
    delete=False,
    title="sequence state",
    transitions={
        "pause": Transition("state", ("active",), "paused", "pause the prospect's sequence"),
        "resume": Transition("state", ("paused",), "active", "resume the prospect's sequence"),
    },
    guard_update=_guard_state,
)
mailings = service.resource(
    Mailing,
    name="mailing",
    plural="mailings",
    prefix="mail",
    create=False,
    filters=("state_id", "prospect_id", "mailbox_id", "status"),
    search=("subject",),
    delete=False,
)
tasks = service.resource(
    Task,
    name="task",
    plural="tasks",
    prefix="task",
    create=False,
    get=False,
    filters=("owner_email", "prospect_id", "state_id", "action", "status"),
    delete=False,
)
calls = service.resource(
    Call,
    name="call",
    plural="calls",
    prefix="call",
    create=False,
    get=False,
    filters=("prospect_id", "user_email"),
    delete=False,
)


# -- sequence engine --------------------------------------------------------------------------


def _step(ctx: Ctx, sequence_id: str, order: int) -> Step | None:
    return ctx.first(Step, sequence_id=sequence_id, order=order)


def _run_step(ctx: Ctx, state: State, order: int, after: dt.datetime) -> State:
    """Put the state on step ``order``: schedule its mailing or create its task; past the last step, finish."""
    step = _step(ctx, state.sequence_id, order)
    if step is None:
        return ctx.update(state, state="finished", finish_reason="completed", next_due_at=None)
    due = after + dt.timedelta(days=step.interval_days)
    if step.step_type == "auto_email":
        ctx.create(
            Mailing,
            state_id=state.id,
            prospect_id=state.prospect_id,
            mailbox_id=state.mailbox_id,
            step_order=order,
            subject=_subject(ctx, step, state),
            body=step.body,
            scheduled_at=due,
        )
    else:
        ctx.create(
            Task,
            owner_email=ctx.get(Mailbox, state.mailbox_id).owner_email,
            prospect_id=state.prospect_id,
            state_id=state.id,
            action=step.step_type,
            note=step.body or step.subject or "",
            due_at=due,
        )
    return ctx.update(state, step_order=order, next_due_at=due)


def _subject(ctx: Ctx, step: Step, state: State) -> str:
    company = ctx.get(Prospect, state.prospect_id).company or "your team"
    return (step.subject or "Quick question").replace("{company}", company)


def _stop(ctx: Ctx, state: State, status: SeqState, reason: str | None = None) -> State:
    for m in ctx.where(Mailing, state_id=state.id, status="scheduled"):
        ctx.update(m, status="cancelled")
    for t in ctx.where(Task, state_id=state.id, status="incomplete"):
        ctx.update(t, status="complete", completed_at=ctx.now())
    return ctx.update(state, state=status, finish_reason=reason, next_due_at=None)


# -- domain tools -----------------------------------------------------------------------------


def _example_step(ctx: Ctx) -> dict[str, Any] | None:
    seq = ctx.first(Sequence, enabled=False)
    args = {"step_type": "auto_email", "interval_days": 2, "subject": "Following up", "body": "Any thoughts?"}
    return None if seq is None else {"sequence_id": seq.id} | args


@service.tool(intent="add a step to the sequence", write=True, example=_example_step)
def add_step(
    ctx: Ctx,
    sequence_id: SequenceId,
    step_type: StepType,
    interval_days: Interval = 1,
    subject: Title | None = None,
    body: Text = "",
) -> Step:
    """Append a step to a sequence; e-mail steps need a subject, and the first step waits no interval.

    Args:
        sequence_id: The sequence.
        step_type: auto_email, manual_email, call, task or linkedin.
        interval_days: Days to wait after the previous step (0-30).
        subject: E-mail subject (required for e-mail steps).
        body: E-mail body or task instructions.
    """
    seq = ctx.get(Sequence, sequence_id, field="sequence_id")
    if step_type in ("auto_email", "manual_email") and not (subject or "").strip():
        raise RuleViolation("an e-mail step needs a subject", field="subject", hint="give the e-mail's subject")
    if seq.step_count >= 30:
        raise RuleViolation("a sequence has at most 30 steps", field="sequence_id", hint="start another sequence")
    order = seq.step_count + 1
    step = ctx.create(
        Step,
        sequence_id=seq.id,
        order=order,
        step_type=step_type,
        interval_days=0 if order == 1 else interval_days,
        subject=subject,
        body=body,
    )
    ctx.update(seq, step_count=order)
    return step


def _example_add(ctx: Ctx) -> dict[str, Any] | None:
    for seq in ctx.where(Sequence, enabled=True, exclusive=False):
        busy = {s.prospect_id for s in ctx.where(State, sequence_id=seq.id)}
        mbx = ctx.first(Mailbox, owner_email=seq.owner_email, sending_disabled=False)
        for p in ctx.where(Prospect, opted_out=False):
            if p.id not in busy and mbx is not None:
                return {"prospect_id": p.id, "sequence_id": seq.id, "mailbox_id": mbx.id, "added_by": seq.owner_email}
    return None


@service.tool(intent="add the prospect to the sequence", write=True, example=_example_add)
def add_to_sequence(
    ctx: Ctx, prospect_id: ProspectId, sequence_id: SequenceId, mailbox_id: MailboxId, added_by: Email
) -> State:
    """Enrol a prospect in an enabled sequence, sending from a mailbox; its first step starts now.

    Args:
        prospect_id: The prospect.
        sequence_id: The sequence (enabled, with steps).
        mailbox_id: The mailbox to send from (sending enabled).
        added_by: The rep adding the prospect.
    """
    pro = ctx.get(Prospect, prospect_id, field="prospect_id")
    seq = ctx.get(Sequence, sequence_id, field="sequence_id")
    mbx = ctx.get(Mailbox, mailbox_id, field="mailbox_id")
    _rep(ctx, added_by, "added_by")
    if pro.opted_out:
        raise RuleViolation(
            f"{pro.email} opted out", field="prospect_id", hint="opted-out prospects are never sequenced"
        )
    if not seq.enabled or seq.step_count == 0:
        raise RuleViolation(
            f"sequence {seq.name!r} is not enabled",
            field="sequence_id",
            hint="enable it with outreach__enable_sequence (it needs steps)",
        )
    if mbx.sending_disabled:
        raise RuleViolation(
            f"mailbox {mbx.email} cannot send", field="mailbox_id", hint="re-enable sending or pick another"
        )
    for st in ctx.where(State, prospect_id=pro.id):
        if st.state not in LIVE:
            continue
        if st.sequence_id == seq.id:
            raise Conflict(
                f"prospect is already {st.state} in this sequence",
                field="prospect_id",
                hint="finish that sequence state first",
            )
        if seq.exclusive and ctx.get(Sequence, st.sequence_id).exclusive:
            raise Conflict(
                f"prospect is already in exclusive sequence {st.sequence_id}",
                field="prospect_id",
                hint="finish that sequence state with outreach__finish_state first",
            )
    state = ctx.create(State, prospect_id=pro.id, sequence_id=seq.id, mailbox_id=mbx.id, added_by=added_by)
    return _run_step(ctx, state, 1, ctx.now())


@service.tool(
    intent="send the scheduled mailing",
    write=True,
    example=first_example(Mailing, "mailing_id", where={"status": "scheduled"}),
)
def deliver_mailing(ctx: Ctx, mailing_id: MailingId) -> Mailing:
    """Deliver a scheduled mailing now, within the mailbox's daily limit; the sequence moves to its next step.

    Args:
        mailing_id: The mailing.
    """
    mail = ctx.get(Mailing, mailing_id, field="mailing_id")
    if mail.status != "scheduled":
        raise Conflict(f"mailing is {mail.status}", field="mailing_id", hint="only scheduled mailings are sent")
    state = ctx.get(State, mail.state_id)
    if state.state != "active":
        raise RuleViolation(
            f"the sequence state is {state.state}",
            field="mailing_id",
            hint="resume it with outreach__resume_state first",
        )
    mbx = ctx.get(Mailbox, mail.mailbox_id)
    today = ctx.today()
    sent = sum(
        1
        for m in ctx.where(Mailing, mailbox_id=mbx.id)
        if m.delivered_at is not None and m.delivered_at.date() == today
    )
    if mbx.sending_disabled or sent >= mbx.daily_limit:
        raise RuleViolation(
            f"mailbox {mbx.email} has sent {sent} of {mbx.daily_limit} today",
            field="mailing_id",
            hint="raise the mailbox's daily_limit or send tomorrow",
        )
    done = ctx.update(mail, status="delivered", delivered_at=ctx.now())
    _run_step(ctx, state, mail.step_order + 1, ctx.now())
    return done


@service.tool(
    intent="record the prospect's reply",
    write=True,
    example=first_example(Mailing, "mailing_id", where={"status": "delivered"}),
)
def record_reply(ctx: Ctx, mailing_id: MailingId) -> State:
    """Record that the prospect replied to a delivered mailing: the sequence state finishes (replied).

    Args:
        mailing_id: The mailing replied to.
    """
    mail = ctx.get(Mailing, mailing_id, field="mailing_id")
    if mail.status not in ("delivered", "opened"):
        raise RuleViolation(
            f"mailing is {mail.status}", field="mailing_id", hint="only a delivered mailing gets replies"
        )
    ctx.update(mail, status="replied", replied_at=ctx.now())
    state = ctx.get(State, mail.state_id)
    return _stop(ctx, state, "finished", "replied") if state.state in LIVE else state


@service.tool(
    intent="record that the mailing bounced",
    write=True,
    example=first_example(Mailing, "mailing_id", where={"status": "delivered"}),
)
def record_bounce(ctx: Ctx, mailing_id: MailingId) -> State:
    """Record a hard bounce of a delivered mailing: the sequence state becomes bounced.

    Args:
        mailing_id: The mailing that bounced.
    """
    mail = ctx.get(Mailing, mailing_id, field="mailing_id")
    if mail.status != "delivered":
        raise RuleViolation(f"mailing is {mail.status}", field="mailing_id", hint="only a delivered mailing bounces")
    ctx.update(mail, status="bounced")
    return _stop(ctx, ctx.get(State, mail.state_id), "bounced")


@service.tool(
    intent="opt the prospect out",
    write=True,
    example=first_example(Prospect, "prospect_id", where={"opted_out": False}),
)
def opt_out_prospect(ctx: Ctx, prospect_id: ProspectId) -> Prospect:
    """Opt a prospect out of all outreach: every active or paused sequence state becomes opted_out.

    Args:
        prospect_id: The prospect.
    """
    pro = ctx.get(Prospect, prospect_id, field="prospect_id")
    if pro.opted_out:
        raise Conflict(f"{pro.email} has already opted out", field="prospect_id", hint="nothing to do")
    for st in ctx.where(State, prospect_id=pro.id):
        if st.state in LIVE:
            _stop(ctx, st, "opted_out")
    return ctx.update(pro, opted_out=True)


@service.tool(
    intent="finish the prospect's sequence",
    write=True,
    example=first_example(State, "state_id", where={"state": "active"}),
)
def finish_state(ctx: Ctx, state_id: StateId) -> State:
    """Finish an active or paused sequence state by hand: its scheduled mailings and open tasks are dropped.

    Args:
        state_id: The sequence state.
    """
    st = ctx.get(State, state_id, field="state_id")
    if st.state not in LIVE:
        raise Conflict(f"sequence state is already {st.state}", field="state_id", hint="nothing to do")
    return _stop(ctx, st, "finished", "manual")


@service.tool(
    intent="complete the task",
    write=True,
    example=first_example(Task, "task_id", where={"status": "incomplete"}, match=lambda c, t: t.action != "call"),
)
def complete_task(ctx: Ctx, task_id: TaskId, note: Text = "") -> Task:
    """Complete a rep's task (not a call task: log the call); a sequence task moves the sequence on.

    Args:
        task_id: The task.
        note: What was done.
    """
    task = ctx.get(Task, task_id, field="task_id")
    if task.status == "complete":
        raise Conflict("the task is already complete", field="task_id", hint="nothing to do")
    if task.action == "call":
        raise RuleViolation(
            "a call task is completed by logging the call",
            field="task_id",
            hint="use outreach__log_call with this task_id",
        )
    return _finish_task(ctx, task, note)


def _finish_task(ctx: Ctx, task: Task, note: str) -> Task:
    done = ctx.update(task, status="complete", completed_at=ctx.now(), note=(task.note + "\n" + note).strip())
    state = ctx.get(State, task.state_id) if task.state_id else None
    if state is not None and state.state == "active":
        _run_step(ctx, state, state.step_order + 1, ctx.now())
    return done


def _example_call(ctx: Ctx) -> dict[str, Any] | None:
    task = ctx.first(Task, status="incomplete", action="call")
    if task is None:
        return None
    return {"prospect_id": task.prospect_id, "user_email": task.owner_email, "outcome": "answered", "task_id": task.id}


@service.tool(intent="log the call", write=True, example=_example_call)
def log_call(
    ctx: Ctx,
    prospect_id: ProspectId,
    user_email: Email,
    outcome: CallOutcome,
    duration_s: Annotated[int, Field(ge=0, le=86400)] = 0,
    note: Text = "",
    task_id: TaskId | None = None,
) -> Call:
    """Log a call to a prospect; given the call task, it completes it and the sequence moves on.

    Args:
        prospect_id: The prospect called.
        user_email: The rep who called.
        outcome: answered, no_answer, voicemail, wrong_number or gatekeeper.
        duration_s: Length in seconds.
        note: Call notes.
        task_id: The call task this call completes.
    """
    pro = ctx.get(Prospect, prospect_id, field="prospect_id")
    _rep(ctx, user_email, "user_email")
    if pro.phone is None:
        raise RuleViolation(
            f"{pro.email} has no phone number", field="prospect_id", hint="add one with update_prospect"
        )
    if outcome != "answered" and duration_s > 120:
        raise RuleViolation(f"a {outcome} call cannot last {duration_s} s", field="duration_s", hint="use answered")
    task = None
    if task_id is not None:
        task = ctx.get(Task, task_id, field="task_id")
        if task.action != "call" or task.prospect_id != pro.id or task.status == "complete":
            raise RuleViolation(
                "not an open call task for this prospect", field="task_id", hint="list the prospect's tasks"
            )
    call = ctx.create(
        Call,
        prospect_id=pro.id,
        user_email=user_email,
        outcome=outcome,
        duration_s=duration_s,
        note=note,
        task_id=task_id,
    )
    if task is not None:
        _finish_task(ctx, task, f"Call: {outcome}")
    return call


# -- seed -------------------------------------------------------------------------------------

SEQUENCES: tuple[tuple[str, bool, bool, tuple[tuple[StepType, int, str], ...]], ...] = (
    (
        "Cold outbound - operations leaders",
        True,
        True,
        (
            ("auto_email", 0, "Cutting fulfilment costs at {company}"),
            ("call", 2, "Intro call"),
            ("auto_email", 3, "Re: cutting fulfilment costs"),
            ("linkedin", 2, "Connect on LinkedIn"),
            ("auto_email", 4, "Should I close your file?"),
        ),
    ),
    (
        "Webinar follow-up",
        True,
        False,
        (
            ("auto_email", 0, "Thanks for joining our webinar"),
            ("task", 3, "Send the recording and deck"),
            ("auto_email", 4, "Questions after the webinar?"),
        ),
    ),
    (
        "Closed-lost re-engage",
        False,
        True,
        (("manual_email", 0, "What changed since we spoke?"), ("call", 5, "Check-in call")),
    ),
)


@service.seeder
def seed(s: SeedContext) -> None:
    """SDR mailboxes, three sequences, prospects from customer companies, states in every status with mail and tasks."""
    pop = s.population
    reps = pop.staff("Sales", fallback=3)
    boxes = [
        s.create(
            Mailbox,
            email=p.email,
            owner_email=p.email,
            daily_limit=150 + 50 * (k % 3),
            sending_disabled=k == len(reps) - 1 and len(reps) > 2,
            created_at=s.ago(days=200),
        )
        for k, p in enumerate(reps)
    ]
    usable = [b for b in boxes if not b.sending_disabled]
    seqs = []
    for k, (name, enabled, exclusive, rows) in enumerate(SEQUENCES):
        seq = s.create(
            Sequence,
            name=name,
            owner_email=reps[k % len(reps)].email,
            enabled=enabled,
            exclusive=exclusive,
            step_count=len(rows),
            created_at=s.ago(days=150 - 30 * k),
            updated_at=s.ago(days=20),
        )
        for j, (kind, wait, subject) in enumerate(rows):
            email = kind in ("auto_email", "manual_email")
            s.create(
                Step,
                sequence_id=seq.id,
                order=j + 1,
                step_type=kind,
                interval_days=wait,
                subject=subject if email else None,
                body="" if email else subject,
                created_at=s.ago(days=150),
            )
        seqs.append(seq)
    people = [p for c in pop.customers[10:26] for p in pop.people_at(c)[:2]]
    made = [_prospect(s, p, reps[k % len(reps)].email, k) for k, p in enumerate(people)]
    plan: tuple[SeqState, ...] = ("active", "active", "paused", "finished", "bounced", "opted_out", "active")
    for k, pro in enumerate(made[: len(plan) * 2]):
        seq = seqs[k % 2]
        status = plan[k % len(plan)]
        step = 1 + k % seq.step_count if status in LIVE else seq.step_count
        box = usable[k % len(usable)]
        st = s.create(
            State,
            prospect_id=pro.id,
            sequence_id=seq.id,
            mailbox_id=box.id,
            state=status,
            step_order=step,
            next_due_at=s.ago(days=-1 - k % 3) if status in LIVE else None,
            added_by=seq.owner_email,
            finish_reason=("replied" if k % 3 else "completed") if status == "finished" else None,
            created_at=s.ago(days=20 + k),
            updated_at=s.ago(days=k % 5),
        )
        if status == "opted_out":
            s.update(pro, opted_out=True)
        _seed_history(s, st, seq, box, pro, status)


def _prospect(s: SeedContext, p: Person, owner: str, k: int) -> Prospect:
    company = s.population.company_of(p)
    return s.create(
        Prospect,
        email=p.email,
        first_name=p.first_name,
        last_name=p.last_name,
        title=p.job_title,
        company=company.name if company else None,
        company_domain=company.domain if company else None,
        phone=p.phone if k % 5 else None,
        owner_email=owner,
        tags=("outbound",) if k % 2 else ("inbound",),
        created_at=s.ago(days=60 + k),
        updated_at=s.ago(days=10),
    )


def _seed_history(s: SeedContext, st: State, seq: Sequence, box: Mailbox, pro: Prospect, status: SeqState) -> None:
    """Mailings of the steps done, and the current step's scheduled mailing or open task."""
    rows = [r for r in s.records(Step) if r.sequence_id == seq.id]
    for r in rows:
        past = r.order < st.step_order or (r.order == st.step_order and status not in LIVE)
        current = r.order == st.step_order and status in LIVE
        if r.step_type == "auto_email" and (past or current):
            last = r.order == st.step_order
            mstatus: MailingState = "scheduled" if current else "delivered"
            if last and status == "bounced":
                mstatus = "bounced"
            elif last and st.finish_reason == "replied":
                mstatus = "replied"
            s.create(
                Mailing,
                state_id=st.id,
                prospect_id=pro.id,
                mailbox_id=box.id,
                step_order=r.order,
                subject=(r.subject or "Hello").replace("{company}", pro.company or "your team"),
                body=r.body,
                status=mstatus,
                scheduled_at=st.next_due_at if current and st.next_due_at else s.ago(days=10 - r.order),
                delivered_at=None if current else s.ago(days=10 - r.order),
                replied_at=s.ago(days=2) if mstatus == "replied" else None,
                created_at=s.ago(days=12),
            )
        elif r.step_type != "auto_email" and (past or current):
            s.create(
                Task,
                owner_email=box.owner_email,
                prospect_id=pro.id,
                state_id=st.id,
                action=r.step_type,
                note=r.body or r.subject or "",
                due_at=st.next_due_at if current and st.next_due_at else s.ago(days=8),
                status="incomplete" if current else "complete",
                completed_at=None if current else s.ago(days=7),
                created_at=s.ago(days=9),
            )
