"""Cadence Intelligence: recorded sales calls, transcripts, trackers, deals, scorecards, coaching and privacy.

Modeled on the Gong API v2 (``/v2/calls`` with parties and ``scope``, ``/v2/calls/transcript``,
keyword trackers, ``/v2/deals`` linked to calls, scorecards and ``/v2/stats/activity/scorecards``,
call comments for coaching, and ``/v2/data-privacy/erase-data-for-email-address``): a call is
scheduled, its recording uploaded (scheduled → recorded) and analyzed (recorded → analyzed):
the stored transcript is matched against the enabled keyword trackers, which gives tracker hits
per speaker side. Privacy rules: an external call is recorded only when the recording was
announced, never when a participant's e-mail or domain is on the do-not-record list, and erasing
a person's data purges the media and transcripts of every call they joined (status purged).
Scorecards are filled only for analyzed calls, by an employee other than the rep scored, one per
reviewer and scorecard; coaching comments point at a second within the call.
"""

from __future__ import annotations

import datetime as dt
import re
from typing import Annotated, Any, Literal

from pydantic import Field, StringConstraints

from compoworld.engine.context import Ctx
from compoworld.engine.errors import Conflict, RuleViolation
from compoworld.engine.records import CREATED, UPDATED, Record
from compoworld.engine.service import Service, Transition
from compoworld.engine.state import SeedContext
from compoworld.engine.types import Cents, CompanyName, Date, DateTime, Domain, Email, IdOf, PersonName, Text, Title
from compoworld.services.kit.examples import first_example
from compoworld.services.kit.records import Value

__all__ = ["service"]

service = Service(
    "revintel",
    title="Cadence Intelligence",
    category="conversation_intelligence",
    modeled_on="Gong API v2: calls (parties, scope), transcripts, trackers, deals, scorecards, call comments, "
    "data privacy (erase data for e-mail address)",
    description="Conversation intelligence for the sales team: recorded customer and internal calls with their "
    "participants, stored transcripts, keyword trackers and their hits, deals the calls belong to, call "
    "scorecards, coaching comments, and the privacy rules on recording external people.",
)

CallId = Annotated[str, IdOf("revintel.call")]
TranscriptId = Annotated[str, IdOf("revintel.transcript")]
TrackerId = Annotated[str, IdOf("revintel.tracker")]
HitId = Annotated[str, IdOf("revintel.tracker_hit")]
DealId = Annotated[str, IdOf("revintel.deal")]
ScorecardId = Annotated[str, IdOf("revintel.scorecard")]
ReviewId = Annotated[str, IdOf("revintel.review")]
CommentId = Annotated[str, IdOf("revintel.comment")]
ExclusionId = Annotated[str, IdOf("revintel.exclusion")]

CallStatus = Literal["scheduled", "recorded", "analyzed", "purged"]
Scope = Literal["external", "internal"]
Side = Literal["internal", "external", "all"]
DealStage = Literal["discovery", "evaluation", "proposal", "negotiation", "closed_won", "closed_lost"]
Keyword = Annotated[str, StringConstraints(pattern=r"^[A-Za-z0-9][A-Za-z0-9 '\-]{0,39}$")]
"""A word or short phrase a tracker listens for."""
Seconds = Annotated[int, Field(ge=0, le=86400)]
Score = Annotated[int, Field(ge=1, le=5)]


class Participant(Value):
    """A party on a call."""

    email: Email
    """Their e-mail."""
    name: PersonName
    """Their name."""
    affiliation: Scope
    """internal (an employee) or external."""
    company_name: CompanyName | None = None
    """Their company (external parties)."""


class Deal(Record):
    """A CRM opportunity synced to the platform, to which calls are linked."""

    id: DealId
    name: Title
    """The deal's name."""
    company_name: CompanyName
    """The account."""
    owner_email: Email
    """The rep (employee) who owns it."""
    amount: Cents
    """Amount in cents."""
    stage: DealStage = "discovery"
    """discovery, evaluation, proposal, negotiation, closed_won or closed_lost."""
    close_date: Date
    """Expected close date."""
    updated_at: Annotated[DateTime, UPDATED]
    """When it last changed."""


class Call(Record):
    """A scheduled or recorded conversation."""

    id: CallId
    title: Title
    """The meeting title."""
    host_email: Email
    """The employee who hosts it."""
    participants: tuple[Participant, ...]
    """Everyone on the call, the host included."""
    scope: Scope
    """external (someone outside the company takes part) or internal."""
    status: CallStatus = "scheduled"
    """scheduled, recorded, analyzed or purged (media erased for privacy)."""
    scheduled_at: DateTime
    """When it starts."""
    duration_seconds: Seconds = 0
    """Length of the recording."""
    system: Literal["zoom", "teams", "meet", "phone"] = "zoom"
    """The conferencing or dialer system."""
    deal_id: DealId | None = None
    """The deal it belongs to."""
    recording_announced: bool = False
    """Whether participants were told it is recorded."""
    created_at: Annotated[DateTime, CREATED]
    """When it was added."""


class Transcript(Record):
    """The stored transcript of a recorded call: one ``Speaker: words`` line per turn."""

    id: TranscriptId
    call_id: CallId
    """The call."""
    text: Text
    """The transcript."""
    word_count: int = 0
    """Words in it."""
    created_at: Annotated[DateTime, CREATED]
    """When it was stored."""


class Tracker(Record):
    """A keyword tracker: words whose mentions are counted on analyzed calls."""

    id: TrackerId
    name: Title
    """The tracker's name (unique)."""
    keywords: tuple[Keyword, ...]
    """The words and phrases it listens for."""
    side: Side = "all"
    """Whose words count: internal, external or all speakers."""
    enabled: bool = True
    """Whether new analyses use it."""
    owner_email: Email
    """The employee who manages it."""


class TrackerHit(Record):
    """Mentions of a tracker's keyword on one call."""

    id: HitId
    call_id: CallId
    """The call."""
    tracker_id: TrackerId
    """The tracker."""
    keyword: Keyword
    """The word that matched."""
    count: Annotated[int, Field(ge=1)]
    """How many times."""
    side: Scope
    """Whose side said it."""


class Scorecard(Record):
    """A call scorecard: questions a reviewer answers 1-5."""

    id: ScorecardId
    name: Title
    """Its name."""
    questions: tuple[Title, ...]
    """The questions, in order."""
    enabled: bool = True
    """Whether reviews can use it."""


class Review(Record):
    """A filled scorecard for one call and the rep reviewed."""

    id: ReviewId
    call_id: CallId
    """The call."""
    scorecard_id: ScorecardId
    """The scorecard."""
    reviewer_email: Email
    """The employee reviewing."""
    reviewee_email: Email
    """The rep reviewed (the call's host)."""
    answers: tuple[Score, ...]
    """One score 1-5 per question."""
    average: float
    """Mean score."""
    created_at: Annotated[DateTime, CREATED]
    """When it was submitted."""


class Comment(Record):
    """A coaching comment on a moment of a call."""

    id: CommentId
    call_id: CallId
    """The call."""
    author_email: Email
    """The employee commenting."""
    at_second: Seconds
    """The moment of the recording it is about."""
    text: Text
    """The feedback."""
    private: bool = False
    """Visible only to the author and the host."""
    created_at: Annotated[DateTime, CREATED]
    """When it was written."""


class Exclusion(Record):
    """A do-not-record entry: a domain whose people are never recorded."""

    id: ExclusionId
    domain: Domain
    """The e-mail domain excluded (unique)."""
    reason: Text = ""
    """Why."""
    created_at: Annotated[DateTime, CREATED]
    """When it was added."""


class TalkStats(Value):
    """A deal's conversation activity."""

    deal_id: DealId
    """The deal."""
    calls: int
    """Calls linked to it."""
    analyzed_minutes: int
    """Minutes of analyzed recordings."""
    last_call_at: DateTime | None
    """When the latest call took place."""
    tracker_mentions: dict[str, int]
    """Mentions per tracker name."""


# -- rules ------------------------------------------------------------------------------------


def _staff(ctx: Ctx, email: str | None, field: str) -> None:
    if email is not None and email not in {p.email for p in ctx.population.employees}:
        raise RuleViolation(f"{email} is not a user of the workspace", field=field, hint="use an employee's e-mail")


def _excluded(ctx: Ctx, email: str) -> Exclusion | None:
    return ctx.first(Exclusion, domain=email.rsplit("@", 1)[-1].lower())


def _guard_tracker(ctx: Ctx, new: Any, old: Any) -> None:
    _staff(ctx, new.owner_email, "owner_email")
    if not new.keywords:
        raise RuleViolation("a tracker needs keywords", field="keywords", hint="list the words to listen for")
    if len({k.lower() for k in new.keywords}) != len(new.keywords):
        raise RuleViolation("a keyword is listed twice", field="keywords", hint="list each keyword once")
    if any(t.id != new.id and t.name.lower() == new.name.lower() for t in ctx.scan(Tracker)):
        raise Conflict(f"a tracker named {new.name!r} exists", field="name", hint="pick another name")


def _guard_deal(ctx: Ctx, new: Any, old: Any) -> None:
    _staff(ctx, new.owner_email, "owner_email")
    if old is not None and old.stage in ("closed_won", "closed_lost") and new.stage != old.stage:
        raise RuleViolation(f"deal {old.id} is {old.stage}", field="stage", hint="a closed deal does not reopen")


def _guard_scorecard(ctx: Ctx, new: Any, old: Any) -> None:
    if not new.questions or len(new.questions) > 10:
        raise RuleViolation("a scorecard has 1 to 10 questions", field="questions", hint="list up to 10 questions")


def _guard_exclusion(ctx: Ctx, new: Any, old: Any) -> None:
    if len(ctx.where(Exclusion, domain=new.domain)) > 1:
        raise Conflict(f"{new.domain} is already excluded", field="domain", hint="nothing to add")


deals = service.resource(
    Deal,
    name="deal",
    plural="deals",
    prefix="deal",
    create=("name", "company_name", "owner_email", "amount", "stage", "close_date"),
    filters=("stage", "owner_email", "company_name"),
    search=("name", "company_name"),
    update=("stage", "amount", "close_date", "owner_email"),
    delete=False,
    guard_create=_guard_deal,
    guard_update=_guard_deal,
)
calls = service.resource(
    Call,
    name="call",
    plural="calls",
    prefix="call",
    create=False,
    filters=("status", "scope", "host_email", "deal_id", "system"),
    search=("title",),
    update=("title",),
    delete=False,
)
transcripts = service.resource(
    Transcript,
    name="transcript",
    plural="transcripts",
    prefix="tr",
    create=False,
    filters=("call_id",),
    search=("text",),
    delete=False,
)
trackers = service.resource(
    Tracker,
    name="tracker",
    plural="trackers",
    prefix="trk",
    create=("name", "keywords", "side", "owner_email"),
    filters=("enabled", "side", "owner_email"),
    search=("name",),
    update=("name", "keywords", "side"),
    transitions={
        "enable": Transition("enabled", (False,), True, "turn the tracker on"),
        "disable": Transition("enabled", (True,), False, "turn the tracker off"),
    },
    guard_create=_guard_tracker,
    guard_update=_guard_tracker,
)
hits = service.resource(
    TrackerHit,
    name="tracker_hit",
    plural="tracker_hits",
    prefix="hit",
    create=False,
    get=False,
    filters=("call_id", "tracker_id", "keyword", "side"),
    delete=False,
)
scorecards = service.resource(
    Scorecard,
    name="scorecard",
    plural="scorecards",
    prefix="sc",
    create=("name", "questions"),
    get=False,
    filters=("enabled",),
    search=("name",),
    delete=False,
    guard_create=_guard_scorecard,
)
reviews = service.resource(
    Review,
    name="review",
    plural="reviews",
    prefix="rev",
    create=False,
    filters=("call_id", "scorecard_id", "reviewer_email", "reviewee_email"),
    delete=False,
)
comments = service.resource(
    Comment,
    name="comment",
    plural="comments",
    prefix="cmt",
    create=False,
    get=False,
    filters=("call_id", "author_email", "private"),
    search=("text",),
    delete=True,
)
exclusions = service.resource(
    Exclusion,
    name="exclusion",
    plural="exclusions",
    prefix="dnr",
    create=("domain", "reason"),
    get=False,
    filters=("domain",),
    guard_create=_guard_exclusion,
    title="do-not-record entry",
)


# -- domain tools -----------------------------------------------------------------------------


def _people(ctx: Ctx) -> dict[str, tuple[str, str | None, Scope]]:
    pop = ctx.population
    out: dict[str, tuple[str, str | None, Scope]] = {}
    for p in pop.people:
        company = pop.company_of(p)
        internal = p.role == "employee"
        out[p.email] = (
            p.name,
            None if internal or company is None else company.name,
            "internal" if internal else "external",
        )
    return out


def _example_schedule(ctx: Ctx) -> dict[str, Any] | None:
    rep = ctx.population.staff("Sales", fallback=1)[0]
    guest = ctx.population.contacts[0]
    return {
        "title": "Discovery call",
        "host_email": rep.email,
        "participant_emails": [guest.email],
        "scheduled_at": (ctx.now() + dt.timedelta(days=2)).isoformat(),
    }


@service.tool(intent="schedule the call", write=True, example=_example_schedule)
def schedule_call(
    ctx: Ctx,
    title: Title,
    host_email: Email,
    participant_emails: Annotated[list[Email], Field(min_length=1, max_length=30)],
    scheduled_at: DateTime,
    system: Literal["zoom", "teams", "meet", "phone"] = "zoom",
    deal_id: DealId | None = None,
) -> Call:
    """Add a call from the host's calendar; anyone from outside the company makes it external.

    Args:
        title: The meeting title.
        host_email: The hosting employee.
        participant_emails: The other participants' e-mails (people of the world).
        scheduled_at: When it starts.
        system: zoom, teams, meet or phone.
        deal_id: The deal it belongs to.
    """
    _staff(ctx, host_email, "host_email")
    if deal_id is not None:
        ctx.get(Deal, deal_id, field="deal_id")
    known = _people(ctx)
    parties: list[Participant] = []
    for email in dict.fromkeys([host_email, *participant_emails]):
        if email not in known:
            raise RuleViolation(
                f"{email} is not a known person", field="participant_emails", hint="use people's e-mails"
            )
        name, company, side = known[email]
        parties.append(Participant(email=email, name=name, affiliation=side, company_name=company))
    if len(parties) < 2:
        raise RuleViolation("a call needs someone besides the host", field="participant_emails", hint="add a guest")
    scope: Scope = "external" if any(p.affiliation == "external" for p in parties) else "internal"
    return ctx.create(
        Call,
        title=title,
        host_email=host_email,
        participants=tuple(parties),
        scope=scope,
        scheduled_at=scheduled_at,
        system=system,
        deal_id=deal_id,
    )


def _recordable(ctx: Ctx, c: Call) -> bool:
    return all(_excluded(ctx, p.email) is None for p in c.participants)


def _example_upload(ctx: Ctx) -> dict[str, Any] | None:
    for c in ctx.where(Call, status="scheduled"):
        if _recordable(ctx, c):
            lines = [f"{p.name}: Thanks for joining, let's talk about pricing and next steps." for p in c.participants]
            return {
                "call_id": c.id,
                "duration_seconds": 1800,
                "transcript": "\n".join(lines),
                "recording_announced": True,
            }
    return None


@service.tool(intent="upload the call's recording", write=True, example=_example_upload)
def upload_recording(
    ctx: Ctx,
    call_id: CallId,
    duration_seconds: Annotated[int, Field(ge=1, le=86400)],
    transcript: Annotated[str, StringConstraints(min_length=1, max_length=20000)],
    recording_announced: bool = False,
) -> Transcript:
    """Store a scheduled call's recording and transcript (``Speaker: words`` lines); it becomes recorded.

    Args:
        call_id: The scheduled call.
        duration_seconds: Length of the recording.
        transcript: The transcript, one ``Name: words`` line per turn.
        recording_announced: Whether the participants were told it is recorded (required for external calls).
    """
    call = ctx.get(Call, call_id, field="call_id")
    if call.status != "scheduled":
        raise Conflict(f"call {call.id} is already {call.status}", field="call_id", hint="upload to a scheduled call")
    for p in call.participants:
        ex = _excluded(ctx, p.email)
        if ex is not None:
            raise RuleViolation(
                f"{p.email} is on the do-not-record list ({ex.domain})",
                field="call_id",
                hint="calls with this participant may not be recorded",
            )
    if call.scope == "external" and not recording_announced:
        raise RuleViolation(
            "an external call is recorded only when the recording was announced",
            field="recording_announced",
            hint="announce the recording to the participants",
        )
    ctx.update(call, status="recorded", duration_seconds=duration_seconds, recording_announced=recording_announced)
    return ctx.create(Transcript, call_id=call.id, text=transcript, word_count=len(transcript.split()))


def _mentions(line: str, keyword: str) -> int:
    return len(re.findall(rf"(?<![A-Za-z0-9]){re.escape(keyword.lower())}(?![A-Za-z0-9])", line.lower()))


def _analyze(ctx: Ctx, call: Call) -> list[TrackerHit]:
    """Run the enabled trackers over a call's transcript; returns the hits made."""
    transcript = ctx.first(Transcript, call_id=call.id)
    sides = {p.name: p.affiliation for p in call.participants}
    made: list[TrackerHit] = []
    for tracker in ctx.where(Tracker, enabled=True):
        for keyword in tracker.keywords:
            counts: dict[Scope, int] = {"internal": 0, "external": 0}
            for line in [] if transcript is None else transcript.text.splitlines():
                speaker, _, words = line.partition(":")
                side = sides.get(speaker.strip(), "external")
                if tracker.side in ("all", side):
                    counts[side] += _mentions(words, keyword)
            for side, n in counts.items():
                if n:
                    made.append(
                        ctx.create(
                            TrackerHit, call_id=call.id, tracker_id=tracker.id, keyword=keyword, count=n, side=side
                        )
                    )
    return made


@service.tool(
    intent="analyze the recorded call",
    write=True,
    example=first_example(Call, "call_id", where={"status": "recorded"}),
)
def analyze_call(ctx: Ctx, call_id: CallId) -> list[TrackerHit]:
    """Analyze a recorded call: its transcript is matched against every enabled tracker; returns the hits.

    Args:
        call_id: The recorded call.
    """
    call = ctx.get(Call, call_id, field="call_id")
    if call.status != "recorded":
        raise RuleViolation(
            f"call {call.id} is {call.status}; only a recorded call is analyzed",
            field="call_id",
            hint="upload its recording first" if call.status == "scheduled" else "nothing to analyze",
        )
    made = _analyze(ctx, call)
    ctx.update(call, status="analyzed")
    return made


@service.tool(
    intent="link the call to the deal",
    write=True,
    example=first_example(Call, "call_id", where={"scope": "external", "deal_id": None}, fields={}),
)
def link_call_to_deal(ctx: Ctx, call_id: CallId, deal_id: DealId | None = None) -> Call:
    """Link a call to a deal, or unlink it when no deal is given; only external calls belong to deals.

    Args:
        call_id: The call.
        deal_id: The deal; omit to unlink.
    """
    call = ctx.get(Call, call_id, field="call_id")
    if deal_id is None:
        if call.deal_id is None:
            raise RuleViolation("the call is not linked", field="deal_id", hint="name a deal to link it")
        return ctx.update(call, deal_id=None)
    deal = ctx.get(Deal, deal_id, field="deal_id")
    if call.scope != "external":
        raise RuleViolation("an internal call belongs to no deal", field="call_id", hint="link a customer call")
    companies = {p.company_name for p in call.participants if p.company_name}
    if deal.company_name not in companies:
        raise RuleViolation(
            f"nobody from {deal.company_name} is on the call",
            field="deal_id",
            hint="link the deal of a company that took part",
        )
    return ctx.update(call, deal_id=deal.id)


def _example_review(ctx: Ctx) -> dict[str, Any] | None:
    card = ctx.first(Scorecard, enabled=True)
    for call in ctx.where(Call, status="analyzed"):
        if card is not None:
            other = next(p for p in ctx.population.employees if p.email != call.host_email)
            if not ctx.where(Review, call_id=call.id, scorecard_id=card.id, reviewer_email=other.email):
                answers = [4] * len(card.questions)
                return {"call_id": call.id, "scorecard_id": card.id, "reviewer_email": other.email, "answers": answers}
    return None


@service.tool(intent="score the call with the scorecard", write=True, example=_example_review)
def review_call(
    ctx: Ctx,
    call_id: CallId,
    scorecard_id: ScorecardId,
    reviewer_email: Email,
    answers: Annotated[list[Score], Field(min_length=1, max_length=10)],
) -> Review:
    """Fill a scorecard for an analyzed call's host: one answer 1-5 per question, once per reviewer.

    Args:
        call_id: The analyzed call.
        scorecard_id: An enabled scorecard.
        reviewer_email: The reviewing employee (not the host).
        answers: Scores 1-5, one per question in order.
    """
    call = ctx.get(Call, call_id, field="call_id")
    card = ctx.get(Scorecard, scorecard_id, field="scorecard_id")
    if call.status != "analyzed":
        raise RuleViolation(f"call {call.id} is {call.status}", field="call_id", hint="review an analyzed call")
    if not card.enabled:
        raise RuleViolation(f"scorecard {card.name!r} is disabled", field="scorecard_id", hint="pick an enabled one")
    _staff(ctx, reviewer_email, "reviewer_email")
    if reviewer_email == call.host_email:
        raise RuleViolation("nobody scores their own call", field="reviewer_email", hint="ask their manager")
    if len(answers) != len(card.questions):
        raise RuleViolation(
            f"the scorecard has {len(card.questions)} questions", field="answers", hint="give one score per question"
        )
    if ctx.where(Review, call_id=call.id, scorecard_id=card.id, reviewer_email=reviewer_email):
        raise Conflict("this reviewer already scored the call", field="scorecard_id", hint="one review per scorecard")
    return ctx.create(
        Review,
        call_id=call.id,
        scorecard_id=card.id,
        reviewer_email=reviewer_email,
        reviewee_email=call.host_email,
        answers=tuple(answers),
        average=round(sum(answers) / len(answers), 2),
    )


def _example_comment(ctx: Ctx) -> dict[str, Any] | None:
    call = ctx.first(Call, status="analyzed")
    if call is None:
        return None
    author = next(p for p in ctx.population.employees if p.email != call.host_email)
    return {"call_id": call.id, "author_email": author.email, "at_second": 60, "text": "Great discovery question here."}


@service.tool(intent="comment on the moment of the call", write=True, example=_example_comment)
def add_comment(
    ctx: Ctx, call_id: CallId, author_email: Email, at_second: Seconds, text: Text, private: bool = False
) -> Comment:
    """Leave coaching feedback on a moment of a recorded or analyzed call.

    Args:
        call_id: The call.
        author_email: The employee commenting.
        at_second: The moment, within the recording.
        text: The feedback.
        private: Visible only to the author and the host.
    """
    call = ctx.get(Call, call_id, field="call_id")
    if call.status not in ("recorded", "analyzed"):
        raise RuleViolation(
            f"call {call.id} has no recording ({call.status})", field="call_id", hint="pick a recorded call"
        )
    _staff(ctx, author_email, "author_email")
    if at_second > call.duration_seconds:
        raise RuleViolation(
            f"the recording lasts {call.duration_seconds} s", field="at_second", hint="point within the recording"
        )
    if not text.strip():
        raise RuleViolation("a comment needs text", field="text", hint="write the feedback")
    return ctx.create(
        Comment, call_id=call.id, author_email=author_email, at_second=at_second, text=text, private=private
    )


def _example_erase(ctx: Ctx) -> dict[str, Any] | None:
    for c in ctx.where(Call, status="analyzed"):
        for p in c.participants:
            if p.affiliation == "external":
                return {"email": p.email}
    return None


@service.tool(intent="erase the person's data", write=True, destructive=True, example=_example_erase)
def erase_person_data(ctx: Ctx, email: Email) -> list[Call]:
    """Erase an external person's data: every call they joined loses its media, transcript, hits and reviews.

    Args:
        email: The person's e-mail.
    """
    if email in {p.email for p in ctx.population.employees}:
        raise RuleViolation("employees' data is erased through HR", field="email", hint="erase external people only")
    out = []
    for call in list(ctx.scan(Call)):
        if call.status != "purged" and any(p.email == email for p in call.participants):
            for model in (Transcript, TrackerHit, Review, Comment):
                for rec in ctx.where(model, call_id=call.id):
                    ctx.delete(rec)
            out.append(ctx.update(call, status="purged"))
    if not out:
        raise RuleViolation(f"{email} is on no stored call", field="email", hint="nothing to erase")
    return out


@service.tool(intent="show the deal's conversation activity", example=first_example(Deal, "deal_id"))
def deal_activity(ctx: Ctx, deal_id: DealId) -> TalkStats:
    """A deal's calls, analyzed minutes, latest call and tracker mentions.

    Args:
        deal_id: The deal.
    """
    deal = ctx.get(Deal, deal_id, field="deal_id")
    linked = ctx.where(Call, deal_id=deal.id)
    names = {t.id: t.name for t in ctx.scan(Tracker)}
    mentions: dict[str, int] = {}
    for c in linked:
        for h in ctx.where(TrackerHit, call_id=c.id):
            mentions[names[h.tracker_id]] = mentions.get(names[h.tracker_id], 0) + h.count
    done = [c for c in linked if c.status == "analyzed"]
    return TalkStats(
        deal_id=deal.id,
        calls=len(linked),
        analyzed_minutes=sum(c.duration_seconds for c in done) // 60,
        last_call_at=max((c.scheduled_at for c in linked if c.status != "scheduled"), default=None),
        tracker_mentions=mentions,
    )


# -- seed -------------------------------------------------------------------------------------

TRACKERS: tuple[tuple[str, tuple[str, ...], Side], ...] = (
    ("Pricing", ("pricing", "discount", "budget"), "all"),
    ("Competitors", ("competitor", "incumbent"), "external"),
    ("Next steps", ("next steps", "follow up"), "internal"),
    ("Security", ("security review", "SOC 2"), "external"),
)
LINES = (
    "{rep}: Thanks for making time today. What prompted you to look at this now?",
    "{guest}: Our incumbent tool is up for renewal and the budget is tight this year.",
    "{rep}: Understood. Let me walk you through pricing and where a discount is possible.",
    "{guest}: We also need a security review before legal signs anything. Do you have SOC 2?",
    "{rep}: Yes, I will send the report. For next steps, shall we book a demo with your team?",
    "{guest}: Please follow up next week; we are comparing one more competitor.",
)


@service.seeder
def seed(s: SeedContext) -> None:
    """Deals for customers, their calls in every status with transcripts and hits, trackers, reviews, comments."""
    pop = s.population
    reps = pop.staff("Sales", fallback=3)
    for k, (name, words, side) in enumerate(TRACKERS):
        s.create(Tracker, name=name, keywords=words, side=side, owner_email=reps[0].email, enabled=k < 3)
    s.create(Scorecard, name="Discovery call", questions=("Set an agenda", "Asked about pain", "Agreed next steps"))
    s.create(Scorecard, name="Demo", questions=("Tailored to the use case", "Handled objections"), enabled=False)
    s.create(
        Exclusion, domain="legal-hold.example.org", reason="Counsel requested no recordings.", created_at=s.ago(days=90)
    )
    plan: tuple[CallStatus, ...] = ("analyzed", "analyzed", "recorded", "scheduled", "analyzed", "purged")
    for n, company in enumerate(pop.customers[:16]):
        guests = [p for p in pop.people_at(company) if p.role == "contact"][:2]
        if not guests:
            continue
        rep = reps[n % len(reps)]
        deal = s.create(
            Deal,
            name=f"{company.name} – platform",
            company_name=company.name,
            owner_email=rep.email,
            amount=(20 + 7 * n) * 100000,
            stage=("discovery", "evaluation", "proposal", "negotiation", "closed_won", "closed_lost")[n % 6],
            close_date=(s.now + dt.timedelta(days=10 + 5 * n)).date(),
            updated_at=s.ago(days=n % 7),
        )
        status = plan[n % len(plan)]
        parties = [Participant(email=rep.email, name=rep.name, affiliation="internal")]
        for g in guests:
            parties.append(Participant(email=g.email, name=g.name, affiliation="external", company_name=company.name))
        when = s.now + dt.timedelta(days=2) if status == "scheduled" else s.ago(days=1 + n)
        call = s.create(
            Call,
            title=f"{company.name} / {pop.home.name} – discovery",
            host_email=rep.email,
            participants=tuple(parties),
            scope="external",
            status=status,
            scheduled_at=when,
            duration_seconds=0 if status == "scheduled" else 1500 + 60 * n,
            system=("zoom", "teams", "meet", "phone")[n % 4],
            deal_id=deal.id if n % 5 != 4 else None,
            recording_announced=status != "scheduled",
            created_at=s.ago(days=3 + n),
        )
        if status in ("recorded", "analyzed"):
            text = "\n".join(line.format(rep=rep.name, guest=guests[0].name) for line in LINES[: 3 + n % 4])
            s.create(Transcript, call_id=call.id, text=text, word_count=len(text.split()), created_at=when)
        if status == "analyzed":
            _seed_hits(s, call, n, reps)
    mgr = reps[-1]
    s.create(
        Call,
        title="Weekly pipeline review",
        host_email=mgr.email,
        participants=tuple(Participant(email=r.email, name=r.name, affiliation="internal") for r in reps[:4]),
        scope="internal",
        status="scheduled",
        scheduled_at=s.now + dt.timedelta(days=1),
        system="meet",
        created_at=s.ago(days=1),
    )


def _seed_hits(s: SeedContext, call: Call, n: int, reps: list[Any]) -> None:
    text = next(t for t in s.records(Transcript) if t.call_id == call.id).text
    sides = {p.name: p.affiliation for p in call.participants}
    for tracker in s.records(Tracker):
        if not tracker.enabled:
            continue
        for keyword in tracker.keywords:
            counts: dict[str, int] = {"internal": 0, "external": 0}
            for line in text.splitlines():
                speaker, _, words = line.partition(":")
                side = sides.get(speaker.strip(), "external")
                if tracker.side in ("all", side):
                    counts[side] += _mentions(words, keyword)
            for said, c in counts.items():
                if c:
                    s.create(TrackerHit, call_id=call.id, tracker_id=tracker.id, keyword=keyword, count=c, side=said)
    reviewer = next(r for r in [*reps, *s.population.employees] if r.email != call.host_email)
    if n % 2 == 0:
        s.create(
            Review,
            call_id=call.id,
            scorecard_id=s.records(Scorecard)[0].id,
            reviewer_email=reviewer.email,
            reviewee_email=call.host_email,
            answers=(4, 3, 5),
            average=4.0,
            created_at=s.ago(hours=20),
        )
    s.create(
        Comment,
        call_id=call.id,
        author_email=reviewer.email,
        at_second=95,
        text="Nice job surfacing the budget constraint early.",
        created_at=s.ago(hours=18),
    )
