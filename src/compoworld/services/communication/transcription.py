"""Scribewell: transcription orders for the company's recordings, with human review, speakers and captions.

Modeled on the Rev API v1 (and Otter's speaker labels): media uploaded by URL with a duration and language;
orders placed on a media file with a fidelity (machine or human), a turnaround (standard, rush) and options
(verbatim, timestamps, a glossary of custom vocabulary, a notification URL for the order-complete webhook);
order status pending → in_progress → (human fidelity) in_review → complete, cancellable only before work is
delivered and refunded in full; prices per audio minute ($0.25 machine, $1.50 human, +$1.25 rush) and a due
time from the turnaround; transcripts made of speaker-labelled, time-coded segments whose speakers can be
named and whose text can be corrected; caption export as SubRip or WebVTT; and a re-review of a delivered
human transcript within 30 days.
"""

from __future__ import annotations

import datetime as dt
from typing import Annotated, Any, Literal

from pydantic import Field, StringConstraints

from compoworld.engine.context import Ctx
from compoworld.engine.errors import Conflict, RuleViolation
from compoworld.engine.records import CREATED, UPDATED, Record
from compoworld.engine.service import Service
from compoworld.engine.state import SeedContext
from compoworld.engine.types import Cents, DateTime, Email, FileLink, IdOf, Language, Text, Title, Url
from compoworld.services.kit.examples import first_example
from compoworld.services.kit.records import Value

__all__ = ["service"]

service = Service(
    "transcription",
    title="Scribewell",
    category="transcription",
    modeled_on="Rev API v1 (media inputs, transcription orders with fidelity/turnaround/options, order "
    "cancel, transcripts with speakers and time-coded elements, captions export, custom vocabularies) "
    "and Otter speaker labels",
    description="Transcription for the company's recordings: staff upload interviews, calls and meetings, "
    "order machine or human transcripts with a turnaround, follow each order through transcription and "
    "human review, name the speakers, correct the text, export captions and keep glossaries of the "
    "company's terms so names come out right.",
)

MediaId = Annotated[str, IdOf("transcription.media")]
OrderId = Annotated[str, IdOf("transcription.order")]
TranscriptId = Annotated[str, IdOf("transcription.transcript")]
GlossaryId = Annotated[str, IdOf("transcription.glossary")]

Seconds = Annotated[int, Field(ge=1, le=10 * 3600)]
"""A media length in seconds (at most ten hours)."""
Term = Annotated[str, StringConstraints(min_length=1, max_length=100)]
"""A custom vocabulary term."""
Label = Annotated[str, StringConstraints(pattern=r"^Speaker [0-9]{1,2}$")]
"""A speaker label as diarization gives it."""

Fidelity = Literal["machine", "human"]
Turnaround = Literal["standard", "rush"]
OrderStatus = Literal["pending", "in_progress", "in_review", "complete", "cancelled"]
CaptionFormat = Literal["srt", "vtt"]

PER_MINUTE: dict[Fidelity, int] = {"machine": 25, "human": 150}
RUSH_PER_MINUTE = 125
HOURS: dict[tuple[Fidelity, Turnaround], int] = {
    ("machine", "standard"): 1,
    ("machine", "rush"): 1,
    ("human", "standard"): 24,
    ("human", "rush"): 12,
}
MAX_TERMS = 200
REREVIEW_DAYS = 30


class Media(Record):
    """An uploaded recording."""

    id: MediaId
    name: Title
    """The file's name."""
    url: FileLink
    """Where the recording is."""
    duration_seconds: Seconds
    """Its length."""
    language: Language = "en"
    """Its spoken language."""
    uploaded_by: Email
    """The employee who uploaded it."""
    created_at: Annotated[DateTime, CREATED]
    """When it was uploaded."""


class Glossary(Record):
    """A custom vocabulary: names and terms the transcribers should spell right."""

    id: GlossaryId
    name: Title
    """Its name (unique)."""
    terms: tuple[Term, ...]
    """Its terms (1 to 200, no duplicates)."""
    owner_email: Email
    """The employee who keeps it."""
    created_at: Annotated[DateTime, CREATED]
    """When it was made."""
    updated_at: Annotated[DateTime, UPDATED]
    """When it last changed."""


class Order(Record):
    """A transcription order on one media file."""

    id: OrderId
    media_id: MediaId
    """The recording."""
    placed_by: Email
    """The employee who ordered."""
    fidelity: Fidelity
    """machine (automatic) or human (transcribed and reviewed by people)."""
    turnaround: Turnaround = "standard"
    """standard or rush."""
    verbatim: bool = False
    """Keep every filler word and false start (human only)."""
    timestamps: bool = True
    """Time-code the transcript."""
    glossary_id: GlossaryId | None = None
    """The custom vocabulary to use."""
    speakers_expected: Annotated[int, Field(ge=1, le=20)] = 2
    """How many speakers the recording has."""
    notification_url: Url | None = None
    """Webhook called when the order completes."""
    status: OrderStatus = "pending"
    """pending, in_progress, in_review (human), complete or cancelled."""
    price_cents: Cents
    """The price, from the per-minute rates."""
    refunded: bool = False
    """Whether a cancellation refunded it."""
    due_at: DateTime
    """When delivery is due."""
    completed_at: DateTime | None = None
    """When it was delivered."""
    rereviews: int = 0
    """Re-reviews requested after delivery."""
    created_at: Annotated[DateTime, CREATED]
    """When it was placed."""
    updated_at: Annotated[DateTime, UPDATED]
    """When it last changed."""


class Segment(Value):
    """A time-coded stretch of speech by one speaker."""

    speaker: Label
    """The diarized speaker label."""
    start_seconds: float
    """Where it starts."""
    end_seconds: float
    """Where it ends."""
    text: Text
    """What was said."""


class Transcript(Record):
    """The delivered transcript of an order."""

    id: TranscriptId
    order_id: OrderId
    """The order."""
    media_id: MediaId
    """The recording."""
    language: Language
    """Its language."""
    segments: tuple[Segment, ...]
    """Its speaker-labelled segments."""
    speaker_names: dict[str, str] = Field(default_factory=dict)
    """Names given to speaker labels."""
    word_count: int
    """Words in it."""
    confidence: Annotated[float, Field(ge=0, le=1)]
    """Average confidence (human transcripts: 0.99)."""
    created_at: Annotated[DateTime, CREATED]
    """When it was delivered."""
    updated_at: Annotated[DateTime, UPDATED]
    """When it was last edited."""


class Captions(Value):
    """A transcript exported as captions."""

    transcript_id: TranscriptId
    """The transcript."""
    format: CaptionFormat
    """srt or vtt."""
    cues: int
    """How many caption cues."""
    content: str
    """The caption file."""


# -- rules ------------------------------------------------------------------------------------


def _staff(ctx: Ctx, email: str, field: str) -> None:
    if email not in {p.email for p in ctx.population.employees}:
        raise RuleViolation(f"{email} is not an employee", field=field, hint="use an employee's e-mail")


def _clean_terms(terms: tuple[str, ...] | list[str]) -> tuple[str, ...]:
    out = tuple(t.strip() for t in terms)
    if not out or len(out) > MAX_TERMS:
        raise RuleViolation(
            f"a glossary holds 1 to {MAX_TERMS} terms", field="terms", hint="split it into several glossaries"
        )
    if len({t.lower() for t in out}) != len(out) or not all(out):
        raise RuleViolation("terms must be non-blank and distinct", field="terms", hint="list each term once")
    return out


def _guard_glossary(ctx: Ctx, new: Any, old: Any) -> None:
    if old is None:
        _staff(ctx, new.owner_email, "owner_email")
    if old is None or new.terms != old.terms:
        terms = _clean_terms(new.terms)
        if terms != new.terms:
            ctx.update(new, terms=terms)
    if old is None or new.name != old.name:
        other = next((r for r in ctx.where(Glossary, name=new.name) if r.id != new.id), None)
        if other is not None and other.id != new.id:
            raise Conflict(f"glossary {other.id} is already named {new.name!r}", field="name", hint="pick another")


def _guard_glossary_delete(ctx: Ctx, new: Any, old: Any) -> None:
    for o in ctx.where(Order, glossary_id=old.id):
        if o.status in ("pending", "in_progress", "in_review"):
            raise RuleViolation(
                f"open order {o.id} uses glossary {old.id}", field="glossary_id", hint="wait until it completes"
            )


def _guard_media_delete(ctx: Ctx, new: Any, old: Any) -> None:
    for o in ctx.where(Order, media_id=old.id):
        if o.status in ("pending", "in_progress", "in_review"):
            raise RuleViolation(
                f"open order {o.id} is on media {old.id}", field="media_id", hint="cancel the order first"
            )


media = service.resource(
    Media,
    name="media",
    plural="media_files",
    prefix="media",
    create=False,
    filters=("uploaded_by", "language"),
    search=("name",),
    update=("name",),
    guard_delete=_guard_media_delete,
)
glossaries = service.resource(
    Glossary,
    name="glossary",
    plural="glossaries",
    prefix="gls",
    create=("name", "terms", "owner_email"),
    filters=("owner_email",),
    search=("name",),
    update=("name", "terms"),
    guard_create=_guard_glossary,
    guard_update=_guard_glossary,
    guard_delete=_guard_glossary_delete,
)
orders = service.resource(
    Order,
    name="order",
    plural="orders",
    prefix="ord",
    create=False,
    filters=("media_id", "placed_by", "fidelity", "turnaround", "status", "glossary_id"),
    delete=False,
)
transcripts = service.resource(
    Transcript,
    name="transcript",
    plural="transcripts",
    prefix="trx",
    create=False,
    filters=("order_id", "media_id", "language"),
    delete=False,
)


# -- domain tools -----------------------------------------------------------------------------


def _example_upload(ctx: Ctx) -> dict[str, Any] | None:
    return {
        "name": "Customer interview 14.m4a",
        "url": f"https://files.{ctx.population.home.domain}/rec/interview-14.m4a",
        "duration_seconds": 1860,
        "uploaded_by": ctx.population.employees[0].email,
    }


@service.tool(intent="upload the recording", write=True, example=_example_upload)
def upload_media(
    ctx: Ctx, name: Title, url: FileLink, duration_seconds: Seconds, uploaded_by: Email, language: Language = "en"
) -> Media:
    """Add a recording by URL; the same URL cannot be uploaded twice.

    Args:
        name: The file's name.
        url: Where the recording is (https).
        duration_seconds: Its length in seconds.
        uploaded_by: The employee uploading it.
        language: Its spoken language.
    """
    _staff(ctx, uploaded_by, "uploaded_by")
    other = ctx.first(Media, url=url)
    if other is not None:
        raise Conflict(f"media {other.id} has this URL", field="url", hint="order on the existing media instead")
    return ctx.create(
        Media, name=name, url=url, duration_seconds=duration_seconds, uploaded_by=uploaded_by, language=language
    )


def _price(fidelity: Fidelity, turnaround: Turnaround, seconds: int) -> int:
    minutes = -(-seconds // 60)
    rate = PER_MINUTE[fidelity] + (RUSH_PER_MINUTE if turnaround == "rush" and fidelity == "human" else 0)
    return minutes * rate


def _example_order(ctx: Ctx) -> dict[str, Any] | None:
    m = ctx.first(Media)
    return None if m is None else {"media_id": m.id, "placed_by": m.uploaded_by, "fidelity": "human"}


@service.tool(intent="order the transcript", write=True, example=_example_order)
def place_order(
    ctx: Ctx,
    media_id: MediaId,
    placed_by: Email,
    fidelity: Fidelity,
    turnaround: Turnaround = "standard",
    verbatim: bool = False,
    timestamps: bool = True,
    glossary_id: GlossaryId | None = None,
    speakers_expected: Annotated[int, Field(ge=1, le=20)] = 2,
    notification_url: Url | None = None,
) -> Order:
    """Order a transcript of a recording; the price and due time follow from fidelity, turnaround and length.

    Args:
        media_id: The recording.
        placed_by: The employee ordering.
        fidelity: machine or human.
        turnaround: standard or rush (rush applies to human orders).
        verbatim: Keep filler words (human only).
        timestamps: Time-code the transcript.
        glossary_id: A custom vocabulary to use.
        speakers_expected: How many speakers talk.
        notification_url: Webhook for the order-complete event.
    """
    m = ctx.get(Media, media_id, field="media_id")
    _staff(ctx, placed_by, "placed_by")
    if fidelity == "machine" and (verbatim or turnaround == "rush"):
        raise RuleViolation(
            "verbatim and rush are human options",
            field="fidelity",
            hint="order human fidelity, or drop verbatim and rush",
        )
    if glossary_id is not None:
        ctx.get(Glossary, glossary_id, field="glossary_id")
    for o in ctx.where(Order, media_id=m.id, fidelity=fidelity):
        if o.status in ("pending", "in_progress", "in_review"):
            raise Conflict(
                f"order {o.id} for this media and fidelity is still {o.status}",
                field="media_id",
                hint="wait for it or cancel it with transcription__cancel_order",
            )
    return ctx.create(
        Order,
        media_id=m.id,
        placed_by=placed_by,
        fidelity=fidelity,
        turnaround=turnaround,
        verbatim=verbatim,
        timestamps=timestamps,
        glossary_id=glossary_id,
        speakers_expected=speakers_expected,
        notification_url=notification_url,
        price_cents=_price(fidelity, turnaround, m.duration_seconds),
        due_at=ctx.now() + dt.timedelta(hours=HOURS[(fidelity, turnaround)]),
    )


def _order_in(ctx: Ctx, order_id: str, allowed: tuple[OrderStatus, ...], what: str) -> Order:
    order = ctx.get(Order, order_id, field="order_id")
    if order.status not in allowed:
        raise RuleViolation(
            f"order {order.id} is {order.status}; {what} needs it {' or '.join(allowed)}",
            field="order_id",
            hint="check the order's status with transcription__get_order",
        )
    return order


@service.tool(
    intent="start transcribing the order",
    write=True,
    example=first_example(Order, "order_id", where={"status": "pending"}),
)
def start_order(ctx: Ctx, order_id: OrderId) -> Order:
    """A transcriber (or the engine) picks up a pending order: it is in progress.

    Args:
        order_id: The pending order.
    """
    return ctx.update(_order_in(ctx, order_id, ("pending",), "starting"), status="in_progress")


@service.tool(
    intent="send the order to human review",
    write=True,
    example=first_example(Order, "order_id", where={"status": "in_progress", "fidelity": "human"}),
)
def submit_for_review(ctx: Ctx, order_id: OrderId) -> Order:
    """Hand a human order's draft to a reviewer: it is in review. Machine orders have no review step.

    Args:
        order_id: The human order in progress.
    """
    order = _order_in(ctx, order_id, ("in_progress",), "review")
    if order.fidelity != "human":
        raise RuleViolation(
            "machine orders are not reviewed", field="order_id", hint="deliver it with transcription__deliver_order"
        )
    return ctx.update(order, status="in_review")


def _example_deliver(ctx: Ctx) -> dict[str, Any] | None:
    for o in ctx.where(Order, status="in_progress", fidelity="machine"):
        seg = {"speaker": "Speaker 1", "start_seconds": 0, "end_seconds": 4, "text": "Thanks for joining."}
        return {"order_id": o.id, "segments": [seg]}
    return None


@service.tool(intent="deliver the transcript", write=True, example=_example_deliver)
def deliver_order(ctx: Ctx, order_id: OrderId, segments: list[Segment]) -> Transcript:
    """Deliver the transcript: machine orders from in progress, human orders from review; the order completes.

    Args:
        order_id: The order.
        segments: The transcript's segments, in time order, within the recording.
    """
    order = ctx.get(Order, order_id, field="order_id")
    ready: OrderStatus = "in_review" if order.fidelity == "human" else "in_progress"
    _order_in(ctx, order_id, (ready,), f"delivering a {order.fidelity} order")
    m = ctx.get(Media, order.media_id, field="order_id")
    if not segments:
        raise RuleViolation("a transcript needs segments", field="segments", hint="give at least one segment")
    last = 0.0
    for seg in segments:
        if seg.start_seconds < last or seg.end_seconds <= seg.start_seconds or seg.end_seconds > m.duration_seconds:
            raise RuleViolation(
                f"segment at {seg.start_seconds}s is out of order or outside the {m.duration_seconds}s recording",
                field="segments",
                hint="give ordered, non-overlapping segments within the recording",
            )
        last = seg.end_seconds
    speakers = {s.speaker for s in segments}
    if len(speakers) > order.speakers_expected:
        raise RuleViolation(
            f"{len(speakers)} speakers but the order expects {order.speakers_expected}",
            field="segments",
            hint="merge speaker labels",
        )
    ctx.update(order, status="complete", completed_at=ctx.now())
    return ctx.create(
        Transcript,
        order_id=order.id,
        media_id=m.id,
        language=m.language,
        segments=tuple(segments),
        word_count=sum(len(s.text.split()) for s in segments),
        confidence=0.99 if order.fidelity == "human" else 0.86,
    )


@service.tool(
    intent="cancel the order",
    write=True,
    example=first_example(Order, "order_id", where={"status": "pending"}),
)
def cancel_order(ctx: Ctx, order_id: OrderId) -> Order:
    """Cancel an order before delivery (pending or in progress); it is refunded in full.

    Args:
        order_id: The order.
    """
    order = _order_in(ctx, order_id, ("pending", "in_progress"), "cancelling")
    return ctx.update(order, status="cancelled", refunded=True)


@service.tool(
    intent="request a re-review of the transcript",
    write=True,
    example=first_example(Order, "order_id", where={"status": "complete", "fidelity": "human"}),
)
def request_rereview(ctx: Ctx, order_id: OrderId) -> Order:
    """Send a delivered human transcript back to review, within 30 days of delivery, once per order.

    Args:
        order_id: The completed human order.
    """
    order = _order_in(ctx, order_id, ("complete",), "a re-review")
    if order.fidelity != "human":
        raise RuleViolation("only human transcripts are re-reviewed", field="order_id", hint="order human fidelity")
    if order.completed_at is None or ctx.now() - order.completed_at > dt.timedelta(days=REREVIEW_DAYS):
        raise RuleViolation(
            f"re-reviews are possible {REREVIEW_DAYS} days after delivery", field="order_id", hint="place a new order"
        )
    if order.rereviews:
        raise Conflict("this order was already re-reviewed", field="order_id", hint="place a new order")
    for t in ctx.where(Transcript, order_id=order.id):
        ctx.delete(t)
    return ctx.update(order, status="in_review", rereviews=order.rereviews + 1, completed_at=None)


@service.tool(
    intent="name the speaker",
    write=True,
    example=first_example(Transcript, "transcript_id", label="Speaker 1", name="Interviewer"),
)
def name_speaker(
    ctx: Ctx, transcript_id: TranscriptId, label: Label, name: Annotated[str, StringConstraints(min_length=1)]
) -> Transcript:
    """Give a speaker label of a transcript a name (shown in exports).

    Args:
        transcript_id: The transcript.
        label: The label, e.g. "Speaker 1".
        name: Who it is.
    """
    t = ctx.get(Transcript, transcript_id, field="transcript_id")
    if label not in {s.speaker for s in t.segments}:
        raise RuleViolation(f"{label} does not speak in {t.id}", field="label", hint="use a label of its segments")
    return ctx.update(t, speaker_names={**t.speaker_names, label: name.strip()})


@service.tool(
    intent="correct the transcript text",
    write=True,
    example=first_example(Transcript, "transcript_id", index=0, text="Thank you all for joining today."),
)
def correct_segment(
    ctx: Ctx, transcript_id: TranscriptId, index: Annotated[int, Field(ge=0)], text: Text
) -> Transcript:
    """Replace the text of one segment (by position) and recount the words.

    Args:
        transcript_id: The transcript.
        index: The segment's position, from 0.
        text: The corrected text.
    """
    t = ctx.get(Transcript, transcript_id, field="transcript_id")
    if index >= len(t.segments):
        raise RuleViolation(f"{t.id} has {len(t.segments)} segments", field="index", hint="pick an existing segment")
    if not text.strip():
        raise RuleViolation("the text is empty", field="text", hint="give the corrected words")
    segs = list(t.segments)
    segs[index] = segs[index].model_copy(update={"text": text.strip()})
    return ctx.update(t, segments=tuple(segs), word_count=sum(len(s.text.split()) for s in segs))


def _stamp(seconds: float, sep: str) -> str:
    ms = round(seconds * 1000)
    h, rest = divmod(ms, 3_600_000)
    m, rest = divmod(rest, 60_000)
    s, ms = divmod(rest, 1000)
    return f"{h:02d}:{m:02d}:{s:02d}{sep}{ms:03d}"


@service.tool(intent="export the captions", example=first_example(Transcript, "transcript_id", format="srt"))
def export_captions(ctx: Ctx, transcript_id: TranscriptId, format: CaptionFormat = "srt") -> Captions:
    """Export a transcript as SubRip (srt) or WebVTT (vtt) captions, with speaker names where given.

    Args:
        transcript_id: The transcript.
        format: srt or vtt.
    """
    t = ctx.get(Transcript, transcript_id, field="transcript_id")
    sep = "," if format == "srt" else "."
    blocks = ["WEBVTT"] if format == "vtt" else []
    for k, seg in enumerate(t.segments, 1):
        who = t.speaker_names.get(seg.speaker, seg.speaker)
        head = f"{k}\n" if format == "srt" else ""
        blocks.append(f"{head}{_stamp(seg.start_seconds, sep)} --> {_stamp(seg.end_seconds, sep)}\n{who}: {seg.text}")
    return Captions(transcript_id=t.id, format=format, cues=len(t.segments), content="\n\n".join(blocks) + "\n")


# -- seed -------------------------------------------------------------------------------------

RECORDINGS: tuple[tuple[str, int], ...] = (
    ("Customer interview - onboarding pain points", 1800),
    ("All-hands Q3", 3300),
    ("Sales call discovery", 1500),
    ("Podcast episode 12", 2700),
    ("Board meeting audio", 5400),
    ("User research session 4", 2400),
    ("Training webinar: reporting", 3600),
    ("Support escalation call", 900),
)
LINES = (
    "Thanks everyone for joining today.",
    "Let's start with the numbers from last quarter.",
    "The main issue customers raise is the setup time.",
    "We should follow up on that next week.",
)


@service.seeder
def seed(s: SeedContext) -> None:
    """Recordings by staff, glossaries of company and product names, orders in every status with transcripts."""
    pop = s.population
    staff = list(pop.employees[:8])
    terms = (pop.home.name, *(c.name for c in pop.companies[:6]), *(p.name for p in pop.products[:5]))
    gls = s.create(
        Glossary,
        name="Company and customer names",
        terms=tuple(dict.fromkeys(terms)),
        owner_email=staff[0].email,
        created_at=s.ago(days=120),
        updated_at=s.ago(days=30),
    )
    s.create(
        Glossary,
        name="Product terms",
        terms=("SSO", "SCIM", "webhook", "sandbox"),
        owner_email=staff[1].email,
        created_at=s.ago(days=90),
        updated_at=s.ago(days=90),
    )
    plan: tuple[tuple[Fidelity, Turnaround, OrderStatus], ...] = (
        ("human", "standard", "complete"),
        ("machine", "standard", "complete"),
        ("human", "rush", "in_review"),
        ("human", "standard", "in_progress"),
        ("machine", "standard", "in_progress"),
        ("human", "standard", "pending"),
        ("machine", "standard", "cancelled"),
        ("human", "rush", "complete"),
    )
    for k, (name, secs) in enumerate(RECORDINGS):
        who = staff[k % len(staff)].email
        m = s.create(
            Media,
            name=name,
            url=f"https://files.{pop.home.domain}/recordings/{k + 1:03d}.mp3",
            duration_seconds=secs,
            uploaded_by=who,
            created_at=s.ago(days=40 - 4 * k),
        )
        fid, tat, status = plan[k]
        placed = s.ago(days=39 - 4 * k)
        done = placed + dt.timedelta(hours=HOURS[(fid, tat)] - 1) if status == "complete" else None
        order = s.create(
            Order,
            media_id=m.id,
            placed_by=who,
            fidelity=fid,
            turnaround=tat,
            verbatim=k == 3,
            glossary_id=gls.id if k % 2 == 0 else None,
            speakers_expected=2 + k % 3,
            status=status,
            price_cents=_price(fid, tat, secs),
            refunded=status == "cancelled",
            due_at=placed + dt.timedelta(hours=HOURS[(fid, tat)]),
            completed_at=done,
            created_at=placed,
            updated_at=done or placed,
        )
        if done is None:
            continue
        segs = tuple(
            Segment(
                speaker=f"Speaker {1 + j % 2}",
                start_seconds=float(j * 30),
                end_seconds=float(j * 30 + 25),
                text=LINES[j % len(LINES)],
            )
            for j in range(6)
        )
        s.create(
            Transcript,
            order_id=order.id,
            media_id=m.id,
            language=m.language,
            segments=segs,
            speaker_names={"Speaker 1": pop.employees[k].name} if k == 0 else {},
            word_count=sum(len(x.text.split()) for x in segs),
            confidence=0.99 if fid == "human" else 0.86,
            created_at=done,
            updated_at=done,
        )
