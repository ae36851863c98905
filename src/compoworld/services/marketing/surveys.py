"""Pulsecheck Surveys: surveys with NPS questions, e-mail and web-link collectors, recipients, responses and NPS.

Modeled on the SurveyMonkey API v3 (Surveys, Pages/Questions with families
such as ``single_choice`` and NPS, Collectors of type ``weblink`` and
``email``, Collector Messages with ``[SurveyLink]``/``[OptOutLink]``
placeholders and reminders, Recipients, Responses) with Qualtrics-style NPS
reporting: invitations and reminders go only to e-mail collectors' recipients
who have not answered or opted out (at most three reminders, a day apart), an
invitation's body must carry the survey and opt-out links, each invited
recipient answers once, anonymous collectors keep no e-mail, web links take
one response per respondent unless multiple responses are allowed, closed
collectors take nothing, required questions must be answered, and the NPS is
the share of promoters (9-10) minus the share of detractors (0-6).
"""

from __future__ import annotations

import datetime as dt
from typing import Annotated, Any, Literal

from pydantic import BaseModel, Field, StringConstraints

from compoworld.engine.context import Ctx
from compoworld.engine.entities import Person
from compoworld.engine.errors import Conflict, RuleViolation
from compoworld.engine.records import CREATED, Record
from compoworld.engine.service import Service, Transition
from compoworld.engine.state import SeedContext
from compoworld.engine.types import DateTime, Email, IdOf, Language, Percent, PersonName, Text, Title, Url
from compoworld.services.kit.examples import first_example
from compoworld.services.kit.records import Created, Timestamped, Value

__all__ = ["service"]

service = Service(
    "surveys",
    title="Pulsecheck Surveys",
    category="forms_surveys",
    modeled_on="SurveyMonkey API v3 (Surveys, Questions, Collectors weblink/email, Collector Messages and "
    "reminders, Recipients, Responses) with Qualtrics-style NPS reporting",
    description="Customer and employee surveys: questions including Net Promoter Score, e-mail invitations "
    "and reminders to recipient lists, web links, anonymous collection, responses, response rates and NPS.",
)

SurveyId = Annotated[str, IdOf("surveys.survey")]
QuestionId = Annotated[str, IdOf("surveys.question")]
CollectorId = Annotated[str, IdOf("surveys.collector")]
RecipientId = Annotated[str, IdOf("surveys.recipient")]
ResponseId = Annotated[str, IdOf("surveys.response")]
Family = Literal["nps", "single_choice", "multiple_choice", "rating", "open_ended"]
RecipientStatus = Literal["not_sent", "sent", "opened", "responded", "bounced", "opted_out"]
Choice = Annotated[str, StringConstraints(min_length=1, max_length=100, strip_whitespace=True)]
MAX_REMINDERS = 3
REMINDER_GAP = dt.timedelta(hours=24)
LINK_TAG = "[SurveyLink]"
OPT_OUT_TAG = "[OptOutLink]"


class Survey(Timestamped):
    """A survey: its questions are separate records, collectors gather its responses."""

    id: SurveyId
    title: Title
    """Survey title."""
    owner_email: Email
    """E-mail of the person who owns the survey."""
    language: Language = "en"
    """Language of the survey."""
    audience: Literal["customers", "employees", "event_attendees", "general"] = "general"
    """Who the survey is for."""


class Question(Record):
    """One question of a survey."""

    id: QuestionId
    survey_id: SurveyId
    """The survey."""
    position: Annotated[int, Field(ge=1, le=200)]
    """Order in the survey."""
    heading: Title
    """The question text."""
    family: Family
    """nps (0-10 likelihood to recommend), single_choice, multiple_choice, rating (1-5) or open_ended."""
    choices: tuple[Choice, ...] = ()
    """Choices of single_choice and multiple_choice questions (at least two)."""
    required: bool = False
    """Whether a response must answer it."""


class Collector(Created):
    """A way of collecting responses: a web link or an e-mail invitation to recipients."""

    id: CollectorId
    survey_id: SurveyId
    """The survey."""
    name: Title
    """Collector name."""
    type: Literal["weblink", "email"]
    """weblink (anyone with the link) or email (invited recipients only)."""
    status: Literal["new", "open", "closed"] = "new"
    """new (not yet open), open (collecting) or closed."""
    url: Url | None = None
    """The link of a web-link collector."""
    anonymous: bool = False
    """Whether responses keep no e-mail address."""
    allow_multiple_responses: bool = False
    """Web links: whether one respondent may answer more than once."""
    sender_email: Email | None = None
    """E-mail collectors: the address invitations come from."""
    close_date: DateTime | None = None
    """The collector stops collecting at this time."""


class Recipient(Record):
    """A person invited through an e-mail collector."""

    id: RecipientId
    collector_id: CollectorId
    """The e-mail collector."""
    email: Email
    """Their e-mail address; once per collector."""
    name: PersonName | None = None
    """Their name."""
    status: RecipientStatus = "not_sent"
    """not_sent, sent, opened, responded, bounced or opted_out."""
    last_sent_at: DateTime | None = None
    """When the invitation or the last reminder went out."""
    reminders_sent: Annotated[int, Field(ge=0, le=MAX_REMINDERS)] = 0
    """Reminders sent so far (at most three)."""


class Answer(Value):
    """The answer to one question; set the value that fits its family."""

    question_id: QuestionId = Field(description="The question.")
    number: int | None = Field(default=None, description="nps: 0 to 10; rating: 1 to 5.")
    choices: list[Choice] | None = Field(
        default=None, description="single_choice: exactly one choice; multiple_choice: one or more."
    )
    text: Annotated[str, StringConstraints(max_length=5000)] | None = Field(default=None, description="open_ended.")


class Response(Record):
    """A completed response to a survey through one collector."""

    id: ResponseId
    survey_id: SurveyId
    """The survey."""
    collector_id: CollectorId
    """The collector it came through."""
    recipient_id: RecipientId | None = None
    """The invited recipient (e-mail collectors that are not anonymous)."""
    respondent_email: Email | None = None
    """Who answered; empty for anonymous collectors."""
    answers: tuple[Answer, ...]
    """The answers, in question order."""
    nps_score: Annotated[int, Field(ge=0, le=10)] | None = None
    """The answer to the survey's NPS question, if any."""
    submitted_at: Annotated[DateTime, CREATED]
    """When it was submitted."""


# -- rules ------------------------------------------------------------------------------------


def _questions(ctx: Ctx, survey_id: str) -> list[Question]:
    return sorted(ctx.where(Question, survey_id=survey_id), key=lambda q: (q.position, q.id))


def _guard_question(ctx: Ctx, new: Any, old: Any) -> None:
    if new.family in ("single_choice", "multiple_choice"):
        if len(new.choices) < 2:
            raise RuleViolation(
                f"a {new.family} question needs at least two choices", field="choices", hint="add choices"
            )
        if len({c.casefold() for c in new.choices}) != len(new.choices):
            raise RuleViolation("choices repeat", field="choices", hint="list each choice once")
    elif new.choices:
        raise RuleViolation(f"a {new.family} question has no choices", field="choices", hint="leave choices empty")
    if old is not None and ctx.first(Response, survey_id=old.survey_id) is not None:
        lost = set(old.choices) - set(new.choices)
        if lost:
            raise RuleViolation(
                "the survey has responses; its questions keep their choices",
                field="choices",
                hint="add choices only",
            )


def _guard_question_delete(ctx: Ctx, new: Any, old: Any) -> None:
    if ctx.first(Response, survey_id=old.survey_id) is not None:
        raise RuleViolation(
            "the survey has responses; deleting a question would lose answers",
            field="question_id",
            hint="make it optional instead",
        )


def _guard_collector(ctx: Ctx, new: Any, old: Any) -> None:
    if old is not None and old.status == "closed":
        raise RuleViolation("a closed collector cannot change", field="collector_id", hint="create a new collector")
    if new.type == "email":
        if new.sender_email is None:
            raise RuleViolation(
                "an e-mail collector needs a sender_email", field="sender_email", hint="give the sender's address"
            )
        if new.allow_multiple_responses:
            raise RuleViolation(
                "invited recipients answer once",
                field="allow_multiple_responses",
                hint="use a web-link collector for repeated answers",
            )
    if new.status == "open" and not _questions(ctx, new.survey_id):
        raise RuleViolation(
            "the survey has no questions to collect answers to",
            field="collector_id",
            hint="add questions with surveys__add_question first",
        )


def _guard_collector_create(ctx: Ctx, new: Any, old: Any) -> None:
    _guard_collector(ctx, new, None)
    if new.type == "weblink" and new.url is None:
        raise RuleViolation(
            "a web-link collector needs its link", field="url", hint="give the public URL of the survey"
        )
    if new.type == "email" and new.url is not None:
        raise RuleViolation("e-mail collectors send personal links", field="url", hint="leave url empty")


def _guard_survey_delete(ctx: Ctx, new: Any, old: Any) -> None:
    if ctx.first(Response, survey_id=old.id) is not None:
        raise RuleViolation(
            f"survey {old.title} has responses", field="survey_id", hint="close its collectors instead of deleting it"
        )
    for q in ctx.where(Question, survey_id=old.id):
        ctx.delete(q)
    for c in ctx.where(Collector, survey_id=old.id):
        for r in ctx.where(Recipient, collector_id=c.id):
            ctx.delete(r)
        ctx.delete(c)


surveys = service.resource(
    Survey,
    name="survey",
    plural="surveys",
    prefix="sv",
    create=("title", "owner_email", "language", "audience"),
    filters=("owner_email", "audience", "language"),
    search=("title",),
    update=("title", "language", "audience"),
    guard_delete=_guard_survey_delete,
)
questions = service.resource(
    Question,
    name="question",
    plural="questions",
    prefix="q",
    create=False,
    get=False,
    filters=("survey_id", "family", "required"),
    search=("heading",),
    update=("heading", "choices", "required"),
    guard_update=_guard_question,
    guard_delete=_guard_question_delete,
)
collectors = service.resource(
    Collector,
    name="collector",
    plural="collectors",
    prefix="col",
    create=("survey_id", "name", "type", "url", "anonymous", "allow_multiple_responses", "sender_email", "close_date"),
    filters=("survey_id", "type", "status"),
    search=("name",),
    update=("name", "close_date", "allow_multiple_responses"),
    delete=False,
    transitions={
        "open": Transition("status", ("new",), "open", "open the collector for responses"),
        "close": Transition("status", ("new", "open"), "closed", "close the survey collector"),
    },
    guard_create=_guard_collector_create,
    guard_update=_guard_collector,
)
recipients = service.resource(
    Recipient,
    name="recipient",
    plural="recipients",
    prefix="rcp",
    create=False,
    get=False,
    filters=("collector_id", "email", "status"),
    search=("email", "name"),
    delete=False,
    transitions={
        "opt_out": Transition(
            "status",
            ("not_sent", "sent", "opened"),
            "opted_out",
            "opt the recipient out of survey e-mails",
            description="Record that a recipient opted out: they get no invitations or reminders from any "
            "collector from now on.",
        ),
    },
)
responses = service.resource(
    Response,
    name="response",
    plural="responses",
    prefix="sr",
    create=False,
    filters=("survey_id", "collector_id", "respondent_email", "nps_score"),
    delete=False,
    title="survey response",
)


def _opted_out(ctx: Ctx, email: str) -> bool:
    return any(r.status == "opted_out" for r in ctx.where(Recipient, email=email))


def _collecting(ctx: Ctx, collector: Collector, field: str) -> None:
    if collector.status != "open":
        raise RuleViolation(
            f"collector {collector.name} is {collector.status}",
            field=field,
            hint="open it with surveys__open_collector"
            if collector.status == "new"
            else "closed collectors stay closed",
        )
    if collector.close_date is not None and ctx.now() >= collector.close_date:
        raise RuleViolation(
            f"collector {collector.name} stopped collecting at {collector.close_date.isoformat()}",
            field=field,
            hint="move its close_date later with surveys__update_collector",
        )


def _email_collector(ctx: Ctx, collector_id: str) -> Collector:
    collector = ctx.get(Collector, collector_id, field="collector_id")
    if collector.type != "email":
        raise RuleViolation(
            f"collector {collector.name} is a web link", field="collector_id", hint="use an e-mail collector"
        )
    if collector.status == "closed":
        raise RuleViolation(f"collector {collector.name} is closed", field="collector_id", hint="create a new one")
    return collector


# -- examples ---------------------------------------------------------------------------------


_example_add_recipients = first_example(
    Collector,
    "collector_id",
    where={"type": "email"},
    match=lambda ctx, c: c.status != "closed",
    recipients=[{"email": "new.person@example.org", "name": "New Person"}],
)
_example_send = first_example(
    Collector,
    "collector_id",
    where={"type": "email"},
    match=lambda ctx, c: (
        c.status != "closed" and ctx.first(Recipient, collector_id=c.id, status="not_sent") is not None
    ),
    subject="Two minutes for us?",
    body=f"Please take our survey: {LINK_TAG}. Don't want these e-mails? {OPT_OUT_TAG}",
)


def _due_reminders(ctx: Ctx, collector: Collector) -> list[Recipient]:
    now = ctx.now()
    out = []
    for r in ctx.where(Recipient, collector_id=collector.id):
        if r.status not in ("sent", "opened") or r.reminders_sent >= MAX_REMINDERS or _opted_out(ctx, r.email):
            continue
        if r.last_sent_at is not None and now - r.last_sent_at < REMINDER_GAP:
            continue
        out.append(r)
    return out


_example_remind = first_example(
    Collector,
    "collector_id",
    where={"type": "email", "status": "open"},
    match=lambda ctx, c: bool(_due_reminders(ctx, c)),
)


def _example_submit(ctx: Ctx) -> dict[str, Any] | None:
    for c in ctx.where(Collector, type="email", status="open"):
        for r in ctx.where(Recipient, collector_id=c.id):
            if r.status in ("sent", "opened"):
                return {"collector_id": c.id, "recipient_email": r.email, "answers": _sample_answers(ctx, c.survey_id)}
    return None


def _sample_answers(ctx: Ctx, survey_id: str) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    for q in _questions(ctx, survey_id):
        if q.family == "nps":
            out.append({"question_id": q.id, "number": 9})
        elif q.family == "rating":
            out.append({"question_id": q.id, "number": 4})
        elif q.family in ("single_choice", "multiple_choice"):
            out.append({"question_id": q.id, "choices": [q.choices[0]]})
        else:
            out.append({"question_id": q.id, "text": "All good."})
    return out


# -- domain tools -----------------------------------------------------------------------------


@service.tool(
    intent="add a question to the survey",
    write=True,
    example=first_example(Survey, "survey_id", heading="Anything else?", family="open_ended"),
)
def add_question(
    ctx: Ctx,
    survey_id: SurveyId,
    heading: Title,
    family: Family,
    choices: list[Choice] | None = None,
    required: bool = False,
) -> Question:
    """Add a question at the end of a survey; choice questions need at least two choices.

    A survey has at most one NPS question.

    Args:
        survey_id: The survey.
        heading: The question text.
        family: nps, single_choice, multiple_choice, rating or open_ended.
        choices: Choices of a choice question.
        required: Whether responses must answer it.
    """
    survey = ctx.get(Survey, survey_id, field="survey_id")
    existing = _questions(ctx, survey.id)
    if family == "nps" and any(q.family == "nps" for q in existing):
        raise Conflict("the survey already has an NPS question", field="family", hint="use another question family")
    q = ctx.create(
        Question,
        survey_id=survey.id,
        position=len(existing) + 1,
        heading=heading,
        family=family,
        choices=tuple(choices or ()),
        required=required,
    )
    _guard_question(ctx, q, None)
    return q


class NewRecipient(Value):
    """A person to invite."""

    email: Email = Field(description="E-mail address.")
    name: PersonName | None = Field(default=None, description="Full name.")


class RecipientsAdded(BaseModel):
    """What adding recipients did."""

    collector_id: CollectorId = Field(description="The collector.")
    added: list[Recipient] = Field(description="New recipients.")
    skipped_existing: list[Email] = Field(description="Addresses already on the collector.")
    skipped_opted_out: list[Email] = Field(description="Addresses that opted out of survey e-mails.")


@service.tool(intent="add recipients to the e-mail collector", write=True, example=_example_add_recipients)
def add_recipients(
    ctx: Ctx,
    collector_id: CollectorId,
    recipients: Annotated[list[NewRecipient], Field(min_length=1, max_length=500)],
) -> RecipientsAdded:
    """Add people to an e-mail collector's recipient list; duplicates and opted-out addresses are skipped.

    Args:
        collector_id: The e-mail collector (new or open).
        recipients: The people to add (at most 500).
    """
    collector = _email_collector(ctx, collector_id)
    added: list[Recipient] = []
    existing: list[str] = []
    opted: list[str] = []
    for r in recipients:
        if ctx.first(Recipient, collector_id=collector.id, email=r.email) is not None or r.email in (
            a.email for a in added
        ):
            existing.append(r.email)
        elif _opted_out(ctx, r.email):
            opted.append(r.email)
        else:
            added.append(ctx.create(Recipient, collector_id=collector.id, email=r.email, name=r.name))
    if not added:
        raise Conflict(
            "no new recipient to add (all are on the list already or opted out)",
            field="recipients",
            hint="list the collector's recipients with surveys__list_recipients",
        )
    return RecipientsAdded(collector_id=collector.id, added=added, skipped_existing=existing, skipped_opted_out=opted)


class Sent(BaseModel):
    """E-mails sent by a collector."""

    collector_id: CollectorId = Field(description="The collector.")
    kind: Literal["invitation", "reminder"] = Field(description="What was sent.")
    subject: Title = Field(description="Subject line.")
    sent_to: list[Email] = Field(description="Addresses it went to.")


@service.tool(intent="send the survey invitations", write=True, example=_example_send)
def send_invitations(ctx: Ctx, collector_id: CollectorId, subject: Title, body: Text) -> Sent:
    """Send the invitation to every recipient of an e-mail collector not yet invited; a new collector opens.

    The body must contain the [SurveyLink] and [OptOutLink] placeholders.
    Opted-out addresses are never e-mailed.

    Args:
        collector_id: The e-mail collector.
        subject: Subject line.
        body: Message text with [SurveyLink] and [OptOutLink].
    """
    collector = _email_collector(ctx, collector_id)
    for tag in (LINK_TAG, OPT_OUT_TAG):
        if tag not in body:
            raise RuleViolation(
                f"the message body lacks the {tag} placeholder",
                field="body",
                hint=f"include {LINK_TAG} and {OPT_OUT_TAG} in the body",
            )
    todo = [
        r for r in ctx.where(Recipient, collector_id=collector.id, status="not_sent") if not _opted_out(ctx, r.email)
    ]
    if not todo:
        raise RuleViolation(
            f"collector {collector.name} has no recipient waiting for an invitation",
            field="collector_id",
            hint="add recipients with surveys__add_recipients, or send reminders instead",
        )
    if collector.status == "new":
        collector = ctx.update(collector, status="open")
        _guard_collector(ctx, collector, None)
    now = ctx.now()
    for r in todo:
        ctx.update(r, status="sent", last_sent_at=now)
    return Sent(collector_id=collector.id, kind="invitation", subject=subject, sent_to=[r.email for r in todo])


@service.tool(intent="remind recipients who have not answered", write=True, example=_example_remind)
def send_reminders(ctx: Ctx, collector_id: CollectorId, subject: Title = "Reminder: we'd value your feedback") -> Sent:
    """Remind the invited recipients of an open e-mail collector who have not answered.

    A recipient gets at most three reminders, at least a day apart; opted-out,
    bounced and responded recipients get none.

    Args:
        collector_id: The open e-mail collector.
        subject: Subject line of the reminder.
    """
    collector = _email_collector(ctx, collector_id)
    _collecting(ctx, collector, "collector_id")
    due = _due_reminders(ctx, collector)
    if not due:
        raise RuleViolation(
            f"no recipient of collector {collector.name} is due a reminder",
            field="collector_id",
            hint="reminders go a day apart, at most three times, to invited people who have not answered",
        )
    now = ctx.now()
    for r in due:
        ctx.update(r, last_sent_at=now, reminders_sent=r.reminders_sent + 1)
    return Sent(collector_id=collector.id, kind="reminder", subject=subject, sent_to=[r.email for r in due])


@service.tool(intent="record a response to the survey", write=True, example=_example_submit)
def submit_response(
    ctx: Ctx,
    collector_id: CollectorId,
    answers: Annotated[list[Answer], Field(max_length=200)],
    recipient_email: Email | None = None,
) -> Response:
    """Record a completed response through an open collector.

    E-mail collectors take one response from each invited recipient (give
    their address); web links take anyone, once per address unless multiple
    responses are allowed. Anonymous collectors keep no address. Required
    questions must be answered and answers must fit their question.

    Args:
        collector_id: The open collector.
        answers: One answer per answered question.
        recipient_email: The respondent's e-mail (required for e-mail collectors).
    """
    collector = ctx.get(Collector, collector_id, field="collector_id")
    _collecting(ctx, collector, "collector_id")
    recipient: Recipient | None = None
    if collector.type == "email":
        if recipient_email is None:
            raise RuleViolation(
                "e-mail collectors take responses from their recipients",
                field="recipient_email",
                hint="give the invited recipient's e-mail",
            )
        recipient = ctx.first(Recipient, collector_id=collector.id, email=recipient_email)
        if recipient is None or recipient.status in ("not_sent", "bounced", "opted_out"):
            raise RuleViolation(
                f"{recipient_email} was not invited through collector {collector.name}",
                field="recipient_email",
                hint="only invited recipients answer through an e-mail collector",
            )
        if recipient.status == "responded":
            raise Conflict(
                f"{recipient_email} has already answered", field="recipient_email", hint="each recipient answers once"
            )
    elif (
        recipient_email is not None
        and not collector.allow_multiple_responses
        and not collector.anonymous
        and ctx.first(Response, collector_id=collector.id, respondent_email=recipient_email) is not None
    ):
        raise Conflict(
            f"{recipient_email} has already answered through this link",
            field="recipient_email",
            hint="the collector does not allow multiple responses",
        )
    qs = {q.id: q for q in _questions(ctx, collector.survey_id)}
    given: dict[str, Answer] = {}
    for k, a in enumerate(answers):
        where = f"answers.{k}"
        q = qs.get(a.question_id)
        if q is None:
            raise RuleViolation(
                f"question {a.question_id} is not in this survey", field=where, hint="answer the survey's questions"
            )
        if a.question_id in given:
            raise RuleViolation("a question is answered twice", field=where, hint="answer each question once")
        _check_answer(q, a, where)
        given[q.id] = a
    missing = [q.heading for q in qs.values() if q.required and q.id not in given]
    if missing:
        raise RuleViolation(
            f"required question(s) not answered: {'; '.join(missing)}", field="answers", hint="answer them"
        )
    ordered = tuple(given[q.id] for q in qs.values() if q.id in given)
    nps = next((a.number for a in ordered if qs[a.question_id].family == "nps"), None)
    rsp = ctx.create(
        Response,
        survey_id=collector.survey_id,
        collector_id=collector.id,
        recipient_id=recipient.id if recipient and not collector.anonymous else None,
        respondent_email=None if collector.anonymous else recipient_email,
        answers=ordered,
        nps_score=nps,
    )
    if recipient is not None:
        ctx.update(recipient, status="responded")
    return rsp


def _check_answer(q: Question, a: Answer, where: str) -> None:
    numeric = q.family in ("nps", "rating")
    ok_shape = (
        (a.number is not None) == numeric
        and (a.choices is not None) == (q.family in ("single_choice", "multiple_choice"))
        and (a.text is not None) == (q.family == "open_ended")
    )
    if not ok_shape:
        want = "number" if numeric else "choices" if q.choices else "text"
        raise RuleViolation(f"a {q.family} question is answered with {want}", field=where, hint=f"give only {want}")
    if q.family == "nps" and not 0 <= (a.number or 0) <= 10:
        raise RuleViolation("NPS answers are 0 to 10", field=where, hint="give 0..10")
    if q.family == "rating" and not 1 <= (a.number or 0) <= 5:
        raise RuleViolation("ratings are 1 to 5", field=where, hint="give 1..5")
    if a.choices is not None:
        if not a.choices or (q.family == "single_choice" and len(a.choices) != 1):
            raise RuleViolation(
                f"a {q.family} question takes {'one choice' if q.family == 'single_choice' else 'one or more choices'}",
                field=where,
                hint="pick from the question's choices",
            )
        bad = [c for c in a.choices if c not in q.choices]
        if bad:
            raise RuleViolation(f"{bad[0]!r} is not a choice", field=where, hint=f"choose from {list(q.choices)}")
    if a.text is not None and not a.text.strip():
        raise RuleViolation("the answer is empty", field=where, hint="write an answer or leave the question out")


class NpsReport(BaseModel):
    """The Net Promoter Score of a survey's responses."""

    survey_id: SurveyId = Field(description="The survey.")
    collector_id: CollectorId | None = Field(description="The collector reported on; null: all collectors.")
    responses: int = Field(description="Responses with an NPS answer.")
    promoters: int = Field(description="Answers of 9 or 10.")
    passives: int = Field(description="Answers of 7 or 8.")
    detractors: int = Field(description="Answers of 0 to 6.")
    nps: float | None = Field(
        description="Percent promoters minus percent detractors (-100 to 100); null without answers."
    )
    detractor_emails: list[Email] = Field(description="Known e-mail addresses of detractors, for follow-up.")


@service.tool(intent="compute the survey's net promoter score")
def nps_report(ctx: Ctx, survey_id: SurveyId, collector_id: CollectorId | None = None) -> NpsReport:
    """Compute the Net Promoter Score of a survey, over all collectors or one.

    Args:
        survey_id: The survey.
        collector_id: Only responses through this collector.
    """
    survey = ctx.get(Survey, survey_id, field="survey_id")
    if collector_id is not None and ctx.get(Collector, collector_id, field="collector_id").survey_id != survey.id:
        raise RuleViolation(
            f"collector {collector_id} belongs to another survey",
            field="collector_id",
            hint="use one of its collectors",
        )
    rows = [
        r
        for r in ctx.where(Response, survey_id=survey.id)
        if r.nps_score is not None and (collector_id is None or r.collector_id == collector_id)
    ]
    pro = sum(1 for r in rows if (r.nps_score or 0) >= 9)
    det = sum(1 for r in rows if (r.nps_score or 0) <= 6)
    return NpsReport(
        survey_id=survey.id,
        collector_id=collector_id,
        responses=len(rows),
        promoters=pro,
        passives=len(rows) - pro - det,
        detractors=det,
        nps=round(100 * (pro - det) / len(rows), 1) if rows else None,
        detractor_emails=[r.respondent_email for r in rows if (r.nps_score or 0) <= 6 and r.respondent_email],
    )


class CollectorRate(BaseModel):
    """Reach and response of one collector."""

    collector_id: CollectorId = Field(description="The collector.")
    name: str = Field(description="Its name.")
    type: Literal["weblink", "email"] = Field(description="Its type.")
    invited: int = Field(description="Recipients invited (e-mail collectors).")
    responses: int = Field(description="Responses collected.")
    response_rate: Percent | None = Field(
        description="Responses per invited recipient, in percent (e-mail collectors)."
    )


class ResponseRates(BaseModel):
    """Response rates of a survey's collectors."""

    survey_id: SurveyId = Field(description="The survey.")
    collectors: list[CollectorRate] = Field(description="Per collector.")
    total_responses: int = Field(description="Responses in total.")


@service.tool(intent="report the survey's response rates")
def response_rates(ctx: Ctx, survey_id: SurveyId) -> ResponseRates:
    """Report each collector's responses and, for e-mail collectors, the response rate of the invited.

    Args:
        survey_id: The survey.
    """
    survey = ctx.get(Survey, survey_id, field="survey_id")
    rows: list[CollectorRate] = []
    total = 0
    for c in ctx.where(Collector, survey_id=survey.id):
        n = len(ctx.where(Response, collector_id=c.id))
        total += n
        invited = sum(1 for r in ctx.where(Recipient, collector_id=c.id) if r.status in ("sent", "opened", "responded"))
        rate = round(100 * n / invited, 1) if c.type == "email" and invited else None
        rows.append(
            CollectorRate(collector_id=c.id, name=c.name, type=c.type, invited=invited, responses=n, response_rate=rate)
        )
    return ResponseRates(survey_id=survey.id, collectors=rows, total_responses=total)


# -- seed -------------------------------------------------------------------------------------

QuestionSpec = tuple[str, Family, tuple[str, ...], bool]
"""A seeded question: heading, family, choices (none: the catalog's categories) and whether required."""
CSAT: tuple[QuestionSpec, ...] = (
    ("How likely are you to recommend us to a colleague?", "nps", (), True),
    ("How satisfied are you with our support?", "rating", (), True),
    ("Which products do you use?", "multiple_choice", (), False),
    ("What is the main reason for your score?", "open_ended", (), False),
)
ENGAGEMENT: tuple[QuestionSpec, ...] = (
    ("How likely are you to recommend working here to a friend?", "nps", (), True),
    ("How do you rate your work-life balance?", "rating", (), True),
    ("Where do you work most days?", "single_choice", ("Office", "Home", "Hybrid"), True),
    ("What one thing should we change?", "open_ended", (), False),
)
REASONS = ("Fast delivery and friendly support.", "Prices went up.", "Setup was confusing.", "Great product quality.")


@service.seeder
def seed(s: SeedContext) -> None:
    """A customer NPS survey sent to business contacts, an anonymous employee survey, a closed event survey."""
    pop = s.population
    marketing = pop.staff("Marketing")
    people_team = pop.staff("People")
    categories = tuple(sorted({p.category for p in pop.products}))
    _seed_customer_survey(s, marketing[0], categories)
    _seed_employee_survey(s, people_team[0], categories)
    _seed_event_survey(s, marketing[-1], categories)
    draft, _ = _seed_survey(
        s,
        "Partner onboarding experience",
        marketing[0].email,
        "general",
        (
            ("How easy was it to get started as a partner?", "rating", (), True),
            (
                "Which resources did you use?",
                "multiple_choice",
                ("Partner portal", "Webinars", "Account manager"),
                False,
            ),
            ("How likely are you to recommend the partner programme?", "nps", (), False),
        ),
        categories,
    )
    s.create(
        Collector,
        survey_id=draft.id,
        name="Partner invitations",
        type="email",
        sender_email=marketing[0].email,
        created_at=s.now - dt.timedelta(days=1),
    )


def _seed_survey(
    s: SeedContext,
    title: str,
    owner: str,
    audience: str,
    spec: tuple[QuestionSpec, ...],
    categories: tuple[str, ...],
) -> tuple[Survey, list[Question]]:
    sv = s.create(Survey, title=title, owner_email=owner, audience=audience, created_at=s.now - dt.timedelta(days=40))
    qs = [
        s.create(
            Question,
            survey_id=sv.id,
            position=k + 1,
            heading=h,
            family=fam,
            choices=categories if fam == "multiple_choice" and not ch else ch,
            required=req,
        )
        for k, (h, fam, ch, req) in enumerate(spec)
    ]
    return sv, qs


def _seed_answers(qs: list[Question], score: int, k: int) -> tuple[Answer, ...]:
    """The ``k``-th respondent's answers, consistent with their NPS ``score``; every other one explains it."""
    out: list[Answer] = []
    for q in qs:
        if q.family == "nps":
            out.append(Answer(question_id=q.id, number=score))
        elif q.family == "rating":
            out.append(Answer(question_id=q.id, number=max(1, min(5, score // 2))))
        elif q.family == "single_choice":
            out.append(Answer(question_id=q.id, choices=[q.choices[k % len(q.choices)]]))
        elif q.family == "multiple_choice":
            out.append(Answer(question_id=q.id, choices=list(q.choices[k % 3 : k % 3 + 2])))
        elif k % 2 == 0:
            out.append(Answer(question_id=q.id, text=REASONS[k % len(REASONS)]))
    return tuple(out)


def _seed_customer_survey(s: SeedContext, owner: Person, categories: tuple[str, ...]) -> None:
    """The CSAT survey: e-mailed to every business contact (some responded), and answered by consumers on the web."""
    pop = s.population
    rng = s.rng
    now = s.now
    csat, csat_qs = _seed_survey(s, "Customer satisfaction Q1 2026", owner.email, "customers", CSAT, categories)
    mail = s.create(
        Collector,
        survey_id=csat.id,
        name="Customer contacts e-mail",
        type="email",
        status="open",
        sender_email=owner.email,
        created_at=now - dt.timedelta(days=30),
    )
    link = s.create(
        Collector,
        survey_id=csat.id,
        name="Website link",
        type="weblink",
        status="open",
        url=f"https://www.{pop.home.domain}/survey/csat-q1",
        created_at=now - dt.timedelta(days=30),
    )
    statuses: tuple[RecipientStatus, ...] = ("responded", "sent", "opened", "responded", "bounced", "responded")
    for k, p in enumerate(pop.contacts):
        status = statuses[k % len(statuses)]
        if k % 13 == 7:
            status = "opted_out"
        if k % 17 == 16:
            status = "not_sent"
        sent = now - dt.timedelta(days=10, hours=k % 5) if status != "not_sent" else None
        rec = s.create(
            Recipient,
            collector_id=mail.id,
            email=p.email,
            name=p.name,
            status=status,
            last_sent_at=sent,
            reminders_sent=(k % 3) if status in ("sent", "opened") else 0,
        )
        if status == "responded":
            score = rng.choice((3, 5, 6, 7, 8, 9, 9, 10, 10))
            s.create(
                Response,
                survey_id=csat.id,
                collector_id=mail.id,
                recipient_id=rec.id,
                respondent_email=p.email,
                answers=_seed_answers(csat_qs, score, k),
                nps_score=score,
                submitted_at=(sent or now) + dt.timedelta(hours=5),
            )
    for k, p in enumerate(pop.consumers[:15]):
        score = rng.choice((2, 6, 7, 8, 9, 10, 10))
        s.create(
            Response,
            survey_id=csat.id,
            collector_id=link.id,
            respondent_email=p.email,
            answers=_seed_answers(csat_qs, score, k),
            nps_score=score,
            submitted_at=now - dt.timedelta(days=k % 9 + 1),
        )


def _seed_employee_survey(s: SeedContext, owner: Person, categories: tuple[str, ...]) -> None:
    """The anonymous engagement pulse e-mailed to all staff; two in three answered."""
    now = s.now
    eng, eng_qs = _seed_survey(s, "Employee engagement pulse", owner.email, "employees", ENGAGEMENT, categories)
    staff = s.create(
        Collector,
        survey_id=eng.id,
        name="All staff (anonymous)",
        type="email",
        status="open",
        anonymous=True,
        sender_email=owner.email,
        close_date=now + dt.timedelta(days=14),
        created_at=now - dt.timedelta(days=5),
    )
    for k, p in enumerate(s.population.employees):
        responded = k % 3 != 2
        s.create(
            Recipient,
            collector_id=staff.id,
            email=p.email,
            name=p.name,
            status="responded" if responded else "sent",
            last_sent_at=now - dt.timedelta(days=5),
        )
        if responded:
            score = s.rng.choice((4, 6, 7, 8, 8, 9, 10))
            s.create(
                Response,
                survey_id=eng.id,
                collector_id=staff.id,
                answers=_seed_answers(eng_qs, score, k),
                nps_score=score,
                submitted_at=now - dt.timedelta(days=4, hours=k),
            )


def _seed_event_survey(s: SeedContext, owner: Person, categories: tuple[str, ...]) -> None:
    """Last year's customer-day survey, its web link closed after eight answers."""
    now = s.now
    event, event_qs = _seed_survey(
        s,
        "Customer day 2025 feedback",
        owner.email,
        "event_attendees",
        (("How likely are you to attend again?", "nps", (), True),),
        categories,
    )
    closed = s.create(
        Collector,
        survey_id=event.id,
        name="Attendee link",
        type="weblink",
        status="closed",
        url=f"https://www.{s.population.home.domain}/survey/customer-day",
        allow_multiple_responses=True,
        created_at=now - dt.timedelta(days=120),
    )
    for k, p in enumerate(s.population.contacts[:8]):
        score = (10, 9, 8, 7, 9, 10, 5, 9)[k]
        s.create(
            Response,
            survey_id=event.id,
            collector_id=closed.id,
            respondent_email=p.email,
            answers=_seed_answers(event_qs, score, k),
            nps_score=score,
            submitted_at=now - dt.timedelta(days=110 - k),
        )
