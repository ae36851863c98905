"""Pollday: scheduling polls with time options and votes, closed on a final time, and booking pages.

Modeled on Doodle (group polls and booking pages; the Doodle API's ``polls``
with ``options``, ``participants`` and their ``preferences``): a group poll
has an organizer, a meeting length, time options, a voting ``deadline`` and
settings (``ifNeedBe`` answers, a limit of yes votes per option, hidden
results); participants answer each option yes, if-need-be or no; the
organizer closes the poll on one final option (``closed``), may reopen it
while the deadline has not passed, or cancels it. A booking page (Doodle
Booking Page / Calendly-like) offers slots of a fixed length in weekly hours
that people book with their name and e-mail.

Votes are taken only while the poll is open and before its deadline, one
participant per e-mail, for the poll's own options; an option at its yes
limit takes no more yes votes; an option with votes cannot be removed. Only
the organizer edits, closes, reopens or cancels a poll. A booking falls
within the page's hours, is in the future, starts on a slot boundary and does
not overlap another confirmed booking; a disabled page takes no bookings.
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
from compoworld.services.kit.lists import require_employee
from compoworld.services.kit.records import Value
from compoworld.services.kit.text import fold
from compoworld.services.kit.time import utc_at

__all__ = ["service"]

service = Service(
    "polls",
    title="Pollday",
    category="scheduling_polls",
    modeled_on="Doodle: group polls (options, participants' preferences yes / if-need-be / no, deadline, "
    "vote limits, hidden results, close on a final option, reopen, cancel) and booking pages with bookings",
    description="Scheduling polls for finding a time with colleagues and customers: polls with time options and a "
    "deadline, participants' votes, results per option, closing on a final time, and booking pages where "
    "people book a slot in an employee's weekly hours.",
)

PollId = Annotated[str, IdOf("polls.poll")]
ParticipantId = Annotated[str, IdOf("polls.participant")]
PageId = Annotated[str, IdOf("polls.booking_page")]
BookingId = Annotated[str, IdOf("polls.booking")]

Slug = Annotated[str, StringConstraints(pattern=r"^[a-z0-9]([a-z0-9-]{1,48}[a-z0-9])$")]
"""A booking page's URL slug."""
Minutes = Annotated[int, Field(ge=15, le=480)]
"""A length in minutes (15-480)."""
Hour = Annotated[int, Field(ge=0, le=24)]

Answer = Literal["yes", "if_need_be", "no"]
PollStatus = Literal["open", "closed", "cancelled"]


class TimeOption(Value):
    """A proposed time."""

    option_id: Annotated[str, StringConstraints(pattern=r"^opt[0-9]{1,3}$")]
    """Its id in the poll (opt1, opt2...)."""
    start: DateTime
    """When it starts."""


class Vote(Value):
    """A participant's answer to one option."""

    option_id: Annotated[str, StringConstraints(pattern=r"^opt[0-9]{1,3}$")]
    """The option."""
    answer: Answer
    """yes, if_need_be or no."""


class Poll(Record):
    """A group scheduling poll."""

    id: PollId
    title: Title
    """What the meeting is."""
    organizer_email: Email
    """The employee who runs the poll."""
    description: Text = ""
    """Details for participants."""
    location: Annotated[str, StringConstraints(max_length=200)] = ""
    """Where (a room, a video link)."""
    duration_minutes: Minutes = 60
    """The meeting's length."""
    options: tuple[TimeOption, ...]
    """The proposed times."""
    deadline: DateTime | None = None
    """When voting ends."""
    if_need_be: bool = True
    """Whether participants may answer if-need-be."""
    yes_limit: Annotated[int, Field(ge=1, le=500)] | None = None
    """At most this many yes votes per option."""
    hidden_results: bool = False
    """Whether participants see only their own votes."""
    status: PollStatus = "open"
    """open, closed or cancelled."""
    final_option_id: str | None = None
    """The chosen option once closed."""
    final_start: DateTime | None = None
    """The chosen time once closed."""
    created_at: Annotated[DateTime, CREATED]
    """When it was created."""
    updated_at: Annotated[DateTime, UPDATED]
    """When it last changed."""


class Participant(Record):
    """Someone's votes on a poll."""

    id: ParticipantId
    poll_id: PollId
    """The poll."""
    name: PersonName
    """Their name."""
    email: Email
    """Their e-mail (one participation per poll)."""
    votes: tuple[Vote, ...]
    """One answer per option."""
    created_at: Annotated[DateTime, CREATED]
    """When they voted."""
    updated_at: Annotated[DateTime, UPDATED]
    """When they last changed their votes."""


class BookingPage(Record):
    """A page where people book a slot in someone's weekly hours."""

    id: PageId
    slug: Slug
    """Its unique URL slug."""
    title: Title
    """What is booked."""
    owner_email: Email
    """The employee whose time it offers."""
    duration_minutes: Minutes = 30
    """Each slot's length."""
    weekdays: tuple[Annotated[int, Field(ge=0, le=6)], ...] = (0, 1, 2, 3, 4)
    """Days offered (0 Monday - 6 Sunday)."""
    start_hour: Hour = 9
    """First hour offered (UTC)."""
    end_hour: Hour = 17
    """Hour the last slot must end by (UTC)."""
    status: Literal["enabled", "disabled"] = "enabled"
    """enabled or disabled."""
    created_at: Annotated[DateTime, CREATED]
    """When it was made."""


class Booking(Record):
    """A booked slot."""

    id: BookingId
    page_id: PageId
    """The booking page."""
    name: PersonName
    """Who booked."""
    email: Email
    """Their e-mail."""
    start: DateTime
    """When it starts."""
    end: DateTime
    """When it ends."""
    status: Literal["confirmed", "cancelled"] = "confirmed"
    """confirmed or cancelled."""
    created_at: Annotated[DateTime, CREATED]
    """When it was booked."""


class OptionResult(Value):
    """The votes on one option."""

    option_id: str
    """The option."""
    start: DateTime
    """Its time."""
    yes: int
    """Yes votes."""
    if_need_be: int
    """If-need-be votes."""
    no: int
    """No votes."""


class Results(Value):
    """A poll's tally."""

    poll_id: PollId
    """The poll."""
    participants: int
    """How many voted."""
    options: list[OptionResult]
    """Per option, in time order."""
    best_option_id: str | None
    """Most yes votes, then most if-need-be, then earliest (none without votes)."""


# -- rules ------------------------------------------------------------------------------------


def _organizer(poll: Poll, by: str) -> None:
    if by != poll.organizer_email:
        raise RuleViolation(
            f"only the organizer {poll.organizer_email} can do this", field="organizer_email", hint="ask the organizer"
        )


def _guard_poll(ctx: Ctx, new: Any, old: Any) -> None:
    if old is not None and old.status != "open" and new.status == old.status:
        raise RuleViolation(f"poll {old.id} is {old.status}", field="poll_id", hint="only open polls change")
    if new.deadline is not None and (old is None or new.deadline != old.deadline) and new.deadline <= ctx.now():
        raise RuleViolation("the deadline must be in the future", field="deadline", hint="pick a later time")


def _guard_page(ctx: Ctx, new: Any, old: Any) -> None:
    require_employee(ctx, new.owner_email, field="owner_email", hint="booking pages offer an employee's time")
    if new.end_hour * 60 - new.start_hour * 60 < new.duration_minutes:
        raise RuleViolation("the hours cannot fit one slot", field="end_hour", hint="widen the hours")
    if not new.weekdays or len(set(new.weekdays)) != len(new.weekdays):
        raise RuleViolation("list distinct weekdays", field="weekdays", hint="e.g. [0, 1, 2, 3, 4]")
    same = ctx.first(BookingPage, slug=new.slug)
    if same is not None and same.id != new.id:
        raise Conflict(f"slug {new.slug} is taken", field="slug", hint="pick another slug")


polls = service.resource(
    Poll,
    name="poll",
    plural="polls",
    prefix="poll",
    create=False,
    filters=("organizer_email", "status"),
    search=("title", "description"),
    update=("title", "description", "location", "deadline"),
    delete=False,
    guard_update=_guard_poll,
)
participants = service.resource(
    Participant,
    name="participant",
    plural="participants",
    prefix="pt",
    create=False,
    get=False,
    filters=("poll_id", "email"),
    search=("name",),
    delete=False,
)
pages = service.resource(
    BookingPage,
    name="booking_page",
    plural="booking_pages",
    prefix="page",
    create=False,
    filters=("owner_email", "status", "slug"),
    search=("title",),
    update=("title", "duration_minutes", "weekdays", "start_hour", "end_hour"),
    delete=False,
    transitions={
        "disable": Transition("status", ("enabled",), "disabled", "disable the booking page"),
        "enable": Transition("status", ("disabled",), "enabled", "enable the booking page"),
    },
    guard_update=_guard_page,
    title="booking page",
)
bookings = service.resource(
    Booking,
    name="booking",
    plural="bookings",
    prefix="bk",
    create=False,
    filters=("page_id", "email", "status"),
    delete=False,
)


# -- domain tools -----------------------------------------------------------------------------


def _example_poll(ctx: Ctx) -> dict[str, Any] | None:
    day = ctx.today() + dt.timedelta(days=10)
    return {
        "title": "Quarterly roadmap review",
        "organizer_email": ctx.population.employees[0].email,
        "starts": [utc_at(day, 9).isoformat(), utc_at(day, 14).isoformat()],
        "deadline": utc_at(day - dt.timedelta(days=3), 17).isoformat(),
    }


@service.tool(intent="create the scheduling poll", write=True, example=_example_poll)
def create_poll(
    ctx: Ctx,
    title: Title,
    organizer_email: Email,
    starts: Annotated[list[DateTime], Field(min_length=1, max_length=50)],
    duration_minutes: Minutes = 60,
    deadline: DateTime | None = None,
    location: Annotated[str, StringConstraints(max_length=200)] = "",
    description: Text = "",
    if_need_be: bool = True,
    yes_limit: Annotated[int, Field(ge=1, le=500)] | None = None,
    hidden_results: bool = False,
) -> Poll:
    """Create a group poll with distinct future time options; the deadline falls before the first option.

    Args:
        title: What the meeting is.
        organizer_email: The employee running the poll.
        starts: The proposed start times.
        duration_minutes: The meeting's length.
        deadline: When voting ends.
        location: Where.
        description: Details for participants.
        if_need_be: Allow if-need-be answers.
        yes_limit: At most this many yes votes per option.
        hidden_results: Participants see only their own votes.
    """
    require_employee(ctx, organizer_email, field="organizer_email", hint="polls are run by staff")
    ordered = sorted(starts)
    if len(set(ordered)) != len(ordered):
        raise RuleViolation("a time is proposed twice", field="starts", hint="propose each time once")
    if ordered[0] <= ctx.now():
        raise RuleViolation("options must be in the future", field="starts", hint="propose later times")
    if deadline is not None and deadline > ordered[0]:
        raise RuleViolation("voting must end before the first option", field="deadline", hint=f"before {ordered[0]}")
    poll = ctx.create(
        Poll,
        title=title,
        organizer_email=organizer_email,
        options=tuple(TimeOption(option_id=f"opt{k + 1}", start=t) for k, t in enumerate(ordered)),
        duration_minutes=duration_minutes,
        deadline=deadline,
        location=location,
        description=description,
        if_need_be=if_need_be,
        yes_limit=yes_limit,
        hidden_results=hidden_results,
    )
    _guard_poll(ctx, poll, None)
    return poll


def _open(ctx: Ctx, poll_id: str) -> Poll:
    poll = ctx.get(Poll, poll_id, field="poll_id")
    if poll.status != "open":
        raise RuleViolation(f"poll {poll.title!r} is {poll.status}", field="poll_id", hint="vote on an open poll")
    if poll.deadline is not None and ctx.now() >= poll.deadline:
        raise RuleViolation(f"voting ended at {poll.deadline}", field="poll_id", hint="ask the organizer")
    return poll


def _check_votes(ctx: Ctx, poll: Poll, votes: list[Vote], me: str | None) -> tuple[Vote, ...]:
    ids = [o.option_id for o in poll.options]
    given = {v.option_id: v.answer for v in votes}
    if len(given) != len(votes) or set(given) - set(ids):
        raise RuleViolation("vote once for options of this poll", field="votes", hint=f"options are {ids}")
    for oid, answer in given.items():
        if answer == "if_need_be" and not poll.if_need_be:
            raise RuleViolation("this poll takes no if-need-be answers", field="votes", hint="answer yes or no")
        if answer == "yes" and poll.yes_limit is not None:
            taken = sum(
                1
                for p in ctx.where(Participant, poll_id=poll.id)
                if p.email != me and any(v.option_id == oid and v.answer == "yes" for v in p.votes)
            )
            if taken >= poll.yes_limit:
                raise RuleViolation(f"{oid} is full ({poll.yes_limit} yes votes)", field="votes", hint="pick another")
    return tuple(Vote(option_id=o, answer=given.get(o, "no")) for o in ids)


def _example_vote(ctx: Ctx) -> dict[str, Any] | None:
    for poll in ctx.where(Poll, status="open"):
        if poll.deadline is None or poll.deadline > ctx.now():
            voted = {p.email for p in ctx.where(Participant, poll_id=poll.id)}
            for person in ctx.population.contacts:
                if person.email not in voted:
                    return {
                        "poll_id": poll.id,
                        "name": person.name,
                        "email": person.email,
                        "votes": [{"option_id": poll.options[-1].option_id, "answer": "yes"}],
                    }
    return None


@service.tool(intent="vote on the scheduling poll", write=True, example=_example_vote)
def vote(ctx: Ctx, poll_id: PollId, name: PersonName, email: Email, votes: list[Vote]) -> Participant:
    """Answer an open poll before its deadline (options left out count as no); once per e-mail.

    Args:
        poll_id: The poll.
        name: The participant's name.
        email: The participant's e-mail.
        votes: Answers (yes, if_need_be, no) per option id.
    """
    poll = _open(ctx, poll_id)
    if ctx.first(Participant, poll_id=poll.id, email=email) is not None:
        raise Conflict(f"{email} already voted", field="email", hint="change the votes with polls__change_votes")
    return ctx.create(Participant, poll_id=poll.id, name=name, email=email, votes=_check_votes(ctx, poll, votes, None))


@service.tool(
    intent="change the participant's votes",
    write=True,
    example=first_example(Participant, "participant_id", votes=[{"option_id": "opt1", "answer": "no"}]),
)
def change_votes(ctx: Ctx, participant_id: ParticipantId, votes: list[Vote]) -> Participant:
    """Replace a participant's answers while the poll is open.

    Args:
        participant_id: The participant.
        votes: New answers per option id.
    """
    part = ctx.get(Participant, participant_id, field="participant_id")
    poll = _open(ctx, part.poll_id)
    return ctx.update(part, votes=_check_votes(ctx, poll, votes, part.email))


@service.tool(
    intent="add a time option to the poll",
    write=True,
    example=first_example(Poll, "poll_id", where={"status": "open"}, fields={"organizer_email": "organizer_email"}),
)
def add_option(ctx: Ctx, poll_id: PollId, organizer_email: Email, start: DateTime | None = None) -> Poll:
    """Propose one more time on an open poll (organizer only); default: a day after the last option.

    Args:
        poll_id: The poll.
        organizer_email: The organizer.
        start: The new time (future, not already proposed).
    """
    poll = ctx.get(Poll, poll_id, field="poll_id")
    _organizer(poll, organizer_email)
    when = start or poll.options[-1].start + dt.timedelta(days=1)
    if when <= ctx.now() or any(o.start == when for o in poll.options):
        raise RuleViolation("propose a new future time", field="start", hint="pick another time")
    if poll.deadline is not None and when < poll.deadline:
        raise RuleViolation("an option cannot precede the deadline", field="start", hint=f"after {poll.deadline}")
    num = max(int(o.option_id[3:]) for o in poll.options) + 1
    opts = sorted((*poll.options, TimeOption(option_id=f"opt{num}", start=when)), key=lambda o: o.start)
    return ctx.update(poll, options=tuple(opts))


def _example_remove(ctx: Ctx) -> dict[str, Any] | None:
    for poll in ctx.where(Poll, status="open"):
        for o in poll.options:
            if len(poll.options) > 1 and not _has_votes(ctx, poll.id, o.option_id):
                return {"poll_id": poll.id, "organizer_email": poll.organizer_email, "option_id": o.option_id}
    return None


def _has_votes(ctx: Ctx, poll_id: str, option_id: str) -> bool:
    return any(
        v.option_id == option_id and v.answer != "no" for p in ctx.where(Participant, poll_id=poll_id) for v in p.votes
    )


@service.tool(intent="remove a time option from the poll", write=True, example=_example_remove)
def remove_option(ctx: Ctx, poll_id: PollId, organizer_email: Email, option_id: str) -> Poll:
    """Withdraw an option nobody answered yes or if-need-be to (organizer only; one option must stay).

    Args:
        poll_id: The poll.
        organizer_email: The organizer.
        option_id: The option (opt1, opt2...).
    """
    poll = ctx.get(Poll, poll_id, field="poll_id")
    _organizer(poll, organizer_email)
    if option_id not in {o.option_id for o in poll.options}:
        raise RuleViolation(f"no option {option_id}", field="option_id", hint="see the poll's options")
    if len(poll.options) == 1:
        raise RuleViolation("a poll keeps one option", field="option_id", hint="cancel the poll instead")
    if _has_votes(ctx, poll.id, option_id):
        raise Conflict(f"{option_id} has votes", field="option_id", hint="keep it, or close on another option")
    for p in ctx.where(Participant, poll_id=poll.id):
        ctx.update(p, votes=tuple(v for v in p.votes if v.option_id != option_id))
    return ctx.update(poll, options=tuple(o for o in poll.options if o.option_id != option_id))


@service.tool(intent="show the poll's results", example=first_example(Poll, "poll_id"))
def poll_results(ctx: Ctx, poll_id: PollId) -> Results:
    """The yes, if-need-be and no votes per option and the best option.

    Args:
        poll_id: The poll.
    """
    poll = ctx.get(Poll, poll_id, field="poll_id")
    parts = ctx.where(Participant, poll_id=poll.id)
    rows = []
    for o in poll.options:
        answers = [v.answer for p in parts for v in p.votes if v.option_id == o.option_id]
        rows.append(
            OptionResult(
                option_id=o.option_id,
                start=o.start,
                yes=answers.count("yes"),
                if_need_be=answers.count("if_need_be"),
                no=answers.count("no"),
            )
        )
    ranked = sorted((r for r in rows if r.yes or r.if_need_be), key=lambda r: (-r.yes, -r.if_need_be, r.start))
    return Results(
        poll_id=poll.id, participants=len(parts), options=rows, best_option_id=ranked[0].option_id if ranked else None
    )


def _example_close(ctx: Ctx) -> dict[str, Any] | None:
    poll = ctx.first(Poll, status="open")
    if poll is None:
        return None
    return {"poll_id": poll.id, "organizer_email": poll.organizer_email, "final_option_id": poll.options[0].option_id}


@service.tool(intent="close the poll on a final time", write=True, example=_example_close)
def close_poll(ctx: Ctx, poll_id: PollId, organizer_email: Email, final_option_id: str) -> Poll:
    """Close an open poll on one of its options (organizer only); voting stops.

    Args:
        poll_id: The poll.
        organizer_email: The organizer.
        final_option_id: The chosen option.
    """
    poll = ctx.get(Poll, poll_id, field="poll_id")
    _organizer(poll, organizer_email)
    if poll.status != "open":
        raise Conflict(f"poll is {poll.status}", field="poll_id", hint="reopen it first")
    chosen = next((o for o in poll.options if o.option_id == final_option_id), None)
    if chosen is None:
        raise RuleViolation(f"no option {final_option_id}", field="final_option_id", hint="pick one of the options")
    return ctx.update(poll, status="closed", final_option_id=chosen.option_id, final_start=chosen.start)


@service.tool(
    intent="reopen the closed poll",
    write=True,
    example=first_example(Poll, "poll_id", where={"status": "closed"}, fields={"organizer_email": "organizer_email"}),
)
def reopen_poll(ctx: Ctx, poll_id: PollId, organizer_email: Email) -> Poll:
    """Reopen a closed poll whose deadline has not passed (organizer only); the final option is cleared.

    Args:
        poll_id: The poll.
        organizer_email: The organizer.
    """
    poll = ctx.get(Poll, poll_id, field="poll_id")
    _organizer(poll, organizer_email)
    if poll.status != "closed":
        raise Conflict(f"poll is {poll.status}", field="poll_id", hint="only closed polls reopen")
    if poll.deadline is not None and poll.deadline <= ctx.now():
        raise RuleViolation("its deadline has passed", field="poll_id", hint="create a new poll")
    return ctx.update(poll, status="open", final_option_id=None, final_start=None)


@service.tool(
    intent="cancel the poll",
    write=True,
    example=first_example(Poll, "poll_id", where={"status": "open"}, fields={"organizer_email": "organizer_email"}),
)
def cancel_poll(ctx: Ctx, poll_id: PollId, organizer_email: Email) -> Poll:
    """Cancel an open or closed poll (organizer only).

    Args:
        poll_id: The poll.
        organizer_email: The organizer.
    """
    poll = ctx.get(Poll, poll_id, field="poll_id")
    _organizer(poll, organizer_email)
    if poll.status == "cancelled":
        raise Conflict("poll is already cancelled", field="poll_id", hint="nothing to do")
    return ctx.update(poll, status="cancelled")


def _example_page(ctx: Ctx) -> dict[str, Any] | None:
    return {"slug": "demo-requests", "title": "Product demo", "owner_email": ctx.population.employees[0].email}


@service.tool(intent="create the booking page", write=True, example=_example_page)
def create_booking_page(
    ctx: Ctx,
    slug: Slug,
    title: Title,
    owner_email: Email,
    duration_minutes: Minutes = 30,
    weekdays: list[Annotated[int, Field(ge=0, le=6)]] | None = None,
    start_hour: Hour = 9,
    end_hour: Hour = 17,
) -> BookingPage:
    """Create a booking page (unique slug) offering slots of an employee's weekly hours.

    Args:
        slug: Its unique URL slug: lower-case letters, digits and hyphens.
        title: What is booked.
        owner_email: The employee whose time it offers.
        duration_minutes: Each slot's length.
        weekdays: Days offered, 0 Monday - 6 Sunday (default Monday-Friday).
        start_hour: First hour offered (UTC).
        end_hour: Hour the last slot must end by (UTC).
    """
    page = ctx.create(
        BookingPage,
        slug=slug,
        title=title,
        owner_email=owner_email,
        duration_minutes=duration_minutes,
        weekdays=tuple(weekdays if weekdays is not None else (0, 1, 2, 3, 4)),
        start_hour=start_hour,
        end_hour=end_hour,
    )
    _guard_page(ctx, page, None)
    return page


def _next_free(ctx: Ctx, page: BookingPage) -> dt.datetime | None:
    day = ctx.today() + dt.timedelta(days=1)
    for _ in range(21):
        if day.weekday() in page.weekdays:
            t = utc_at(day, page.start_hour)
            while t + dt.timedelta(minutes=page.duration_minutes) <= utc_at(day, 0) + dt.timedelta(hours=page.end_hour):
                if _clash(ctx, page, t) is None:
                    return t
                t += dt.timedelta(minutes=page.duration_minutes)
        day += dt.timedelta(days=1)
    return None


def _clash(ctx: Ctx, page: BookingPage, start: dt.datetime) -> Booking | None:
    end = start + dt.timedelta(minutes=page.duration_minutes)
    for b in ctx.where(Booking, page_id=page.id, status="confirmed"):
        if b.start < end and start < b.end:
            return b
    return None


def _example_book(ctx: Ctx) -> dict[str, Any] | None:
    page = ctx.first(BookingPage, status="enabled")
    when = None if page is None else _next_free(ctx, page)
    if page is None or when is None:
        return None
    who = ctx.population.contacts[0]
    return {"page_id": page.id, "start": when.isoformat(), "name": who.name, "email": who.email}


@service.tool(intent="book a slot on the booking page", write=True, example=_example_book)
def book_slot(ctx: Ctx, page_id: PageId, start: DateTime, name: PersonName, email: Email) -> Booking:
    """Book a future slot within an enabled page's weekly hours, on a slot boundary, not overlapping another booking.

    Args:
        page_id: The booking page.
        start: The slot's start.
        name: Who is booking.
        email: Their e-mail.
    """
    page = ctx.get(BookingPage, page_id, field="page_id")
    if page.status != "enabled":
        raise RuleViolation("the booking page is disabled", field="page_id", hint="ask its owner to enable it")
    if start <= ctx.now():
        raise RuleViolation("slots must be in the future", field="start", hint="pick a later slot")
    end = start + dt.timedelta(minutes=page.duration_minutes)
    offset = (start.hour * 60 + start.minute - page.start_hour * 60) % page.duration_minutes
    inside = (
        start.weekday() in page.weekdays
        and start.hour >= page.start_hour
        and (end.hour * 60 + end.minute <= page.end_hour * 60 and end.date() == start.date())
        and offset == 0
        and start.second == 0
    )
    if not inside:
        raise RuleViolation(
            "not a slot of this page",
            field="start",
            hint=f"{page.duration_minutes}-minute slots from {page.start_hour}:00 to {page.end_hour}:00 UTC on "
            f"weekdays {list(page.weekdays)}",
        )
    other = _clash(ctx, page, start)
    if other is not None:
        raise Conflict(f"the slot overlaps booking {other.id}", field="start", hint="pick a free slot")
    return ctx.create(Booking, page_id=page.id, name=name, email=email, start=start, end=end)


@service.tool(
    intent="cancel the booking",
    write=True,
    example=first_example(Booking, "booking_id", where={"status": "confirmed"}),
)
def cancel_booking(ctx: Ctx, booking_id: BookingId) -> Booking:
    """Cancel a confirmed booking that has not started; its slot frees up.

    Args:
        booking_id: The booking.
    """
    b = ctx.get(Booking, booking_id, field="booking_id")
    if b.status != "confirmed":
        raise Conflict("the booking is already cancelled", field="booking_id", hint="nothing to do")
    if b.start <= ctx.now():
        raise RuleViolation("the booking has started", field="booking_id", hint="past bookings stay")
    return ctx.update(b, status="cancelled")


# -- seed -------------------------------------------------------------------------------------


@service.seeder
def seed(s: SeedContext) -> None:
    """Open, closed and cancelled polls with colleagues and customer contacts voting, and staff booking pages."""
    pop = s.population
    today = s.now.date()
    staff = list(pop.employees)
    specs: tuple[tuple[str, int, PollStatus, list[str]], ...] = (
        ("Quarterly business review with {company}", 0, "open", ["contacts", "staff"]),
        ("Team offsite planning", 1, "open", ["staff"]),
        ("Renewal call with {company}", 2, "closed", ["contacts", "staff"]),
        ("Product demo for {company}", 3, "cancelled", ["contacts"]),
        ("Hiring panel debrief", 4, "open", []),
    )
    for k, (title, off, status, who) in enumerate(specs):
        company = pop.customers[k % len(pop.customers)]
        org = staff[(3 * k) % len(staff)]
        base = today + dt.timedelta(days=7 + 3 * off)
        opts = tuple(
            TimeOption(option_id=f"opt{j + 1}", start=utc_at(base + dt.timedelta(days=j // 2), 9 + 5 * (j % 2)))
            for j in range(4)
        )
        poll = s.create(
            Poll,
            title=title.format(company=company.name),
            organizer_email=org.email,
            description="Please mark every time that works for you.",
            location="Video call",
            duration_minutes=45 if k % 2 else 60,
            options=opts,
            deadline=utc_at(base - dt.timedelta(days=2), 17),
            yes_limit=None if k != 1 else 6,
            status=status,
            final_option_id="opt2" if status == "closed" else None,
            final_start=opts[1].start if status == "closed" else None,
            created_at=s.ago(days=5 + k),
            updated_at=s.ago(days=1 + k),
        )
        people = [p for p in pop.people_at(company)][:3] if "contacts" in who else []
        people += [p for p in staff if p.email != org.email][k : k + 3] if "staff" in who else []
        for j, p in enumerate(people):
            answers: tuple[Answer, ...] = (
                ("yes", "no", "if_need_be", "yes") if j % 2 else ("no", "yes", "yes", "if_need_be")
            )
            s.create(
                Participant,
                poll_id=poll.id,
                name=p.name,
                email=p.email,
                votes=tuple(Vote(option_id=o.option_id, answer=a) for o, a in zip(opts, answers, strict=True)),
                created_at=s.ago(days=4 + k - j * 0.1),
                updated_at=s.ago(days=3 + k - j * 0.1),
            )
    sales = pop.staff("Sales", fallback=2)
    support = pop.staff("Support", fallback=2)
    for k, (owner, slug, title, minutes) in enumerate(
        ((sales[0], "intro-call", "Intro call", 30), (support[0], "onboarding-session", "Onboarding session", 60))
    ):
        page = s.create(
            BookingPage,
            slug=f"{'-'.join(fold(owner.first_name).split()) or 'team'}-{slug}"[:40],
            title=title,
            owner_email=owner.email,
            duration_minutes=minutes,
            status="enabled" if k == 0 else "disabled",
            created_at=s.ago(days=90),
        )
        day = today + dt.timedelta(days=1)
        while day.weekday() not in page.weekdays:
            day += dt.timedelta(days=1)
        contact = pop.contacts[k]
        start = utc_at(day, 10)
        s.create(
            Booking,
            page_id=page.id,
            name=contact.name,
            email=contact.email,
            start=start,
            end=start + dt.timedelta(minutes=minutes),
            created_at=s.ago(days=2),
        )
