"""Beacon Campaigns: audiences, subscribers with consent states, tags, segments, e-mail campaigns and reports.

Modeled on the Mailchimp Marketing API v3 (Lists/Audiences, List Members with
``status`` subscribed/unsubscribed/cleaned/pending, member tags, saved
segments, Campaigns with content, ``actions/schedule``, ``actions/send``,
``actions/replicate`` and Reports): an unsubscribed member can only come back
through re-confirmation (``pending``), a campaign is sent only with content and
at least one subscribed recipient, schedules lie in the future on a quarter
hour, and a sent campaign is immutable.
"""

from __future__ import annotations

import datetime as dt
from typing import Annotated, Any, Literal

from pydantic import BaseModel, Field, StringConstraints

from compoworld.engine.context import Ctx
from compoworld.engine.errors import Conflict, RuleViolation
from compoworld.engine.records import CREATED, UPDATED, Record
from compoworld.engine.service import Service, Transition
from compoworld.engine.state import SeedContext
from compoworld.engine.types import (
    CompanyName,
    DateTime,
    Email,
    FirstName,
    IdOf,
    Language,
    LastName,
    Percent,
    PersonName,
    Quantity,
    Text,
    Title,
)
from compoworld.services.kit.examples import first_example
from compoworld.services.kit.records import Created, Timestamped
from compoworld.services.kit.time import iso_z

__all__ = ["service"]

service = Service(
    "campaigns",
    title="Beacon Campaigns",
    category="marketing",
    modeled_on="Mailchimp Marketing API v3 (Lists, List Members, Tags, Segments, Campaigns, "
    "Campaign Content, actions/schedule|send|replicate, Reports)",
    description="E-mail marketing for the home company: audiences of consumers and business contacts, "
    "their subscription consent, tags and segments, and newsletters that are written, scheduled, sent "
    "and reported on.",
)

AudienceId = Annotated[str, IdOf("campaigns.audience")]
MemberId = Annotated[str, IdOf("campaigns.member")]
SegmentId = Annotated[str, IdOf("campaigns.segment")]
CampaignId = Annotated[str, IdOf("campaigns.campaign")]
ReportId = Annotated[str, IdOf("campaigns.report")]
Tag = Annotated[str, StringConstraints(pattern=r"^[a-z0-9][a-z0-9 _-]{0,49}$")]
MemberStatus = Literal["subscribed", "unsubscribed", "cleaned", "pending", "transactional"]
CampaignStatus = Literal["save", "schedule", "sending", "sent", "canceled"]

MAX_TAGS = 20


class Audience(Created):
    """An audience (list): the contacts one sender markets to, with its sender defaults."""

    id: AudienceId
    name: Title
    """Name of the audience."""
    company: CompanyName
    """Company shown in the required footer of every campaign."""
    from_name: PersonName
    """Default sender name of campaigns."""
    from_email: Email
    """Default sender e-mail of campaigns."""
    permission_reminder: Text
    """Why recipients are getting the e-mails, printed in every footer."""
    double_optin: bool = False
    """Whether new members must confirm by e-mail (they start as pending)."""


class Member(Record):
    """A contact in an audience and its consent to receive marketing e-mail."""

    id: MemberId
    audience_id: AudienceId
    """The audience the member belongs to."""
    email: Email
    """The member's e-mail address; unique within an audience."""
    first_name: FirstName | None = None
    """Given name (merge field FNAME)."""
    last_name: LastName | None = None
    """Family name (merge field LNAME)."""
    status: MemberStatus = "subscribed"
    """Consent status; unsubscribed members come back only through re-confirmation (pending)."""
    language: Language = "en"
    """Preferred language of the member."""
    vip: bool = False
    """Whether the member is marked VIP."""
    tags: tuple[Tag, ...] = ()
    """Tags on the member."""
    unsubscribe_reason: str | None = None
    """Why an unsubscribed member left, if known."""
    created_at: Annotated[DateTime, CREATED]
    """When the member was added (timestamp_signup)."""
    last_changed: Annotated[DateTime, UPDATED]
    """When the member last changed."""


class Segment(Created):
    """A saved segment: the subscribed members of an audience that match its conditions."""

    id: SegmentId
    audience_id: AudienceId
    """The audience the segment selects from."""
    name: Title
    """Name of the segment."""
    match: Literal["all", "any"] = "any"
    """Whether a member needs all of the tags or any one of them."""
    tags: tuple[Tag, ...] = ()
    """Tags to match; empty matches every member."""
    language: Language | None = None
    """Only members with this language, if set."""
    vip_only: bool = False
    """Only VIP members."""


class Campaign(Timestamped):
    """An e-mail campaign sent to an audience or one of its segments."""

    id: CampaignId
    audience_id: AudienceId
    """The audience the campaign goes to."""
    segment_id: SegmentId | None = None
    """Segment of that audience to send to; none sends to all subscribed members."""
    title: Title
    """Internal name of the campaign."""
    subject_line: Title
    """Subject line of the e-mail."""
    preview_text: Text = ""
    """Preview text shown after the subject in inboxes."""
    from_name: PersonName
    """Sender name."""
    reply_to: Email
    """Reply-to address."""
    content_html: Text = ""
    """HTML body of the e-mail; a campaign cannot be sent without it."""
    plain_text: Text = ""
    """Plain-text alternative of the body."""
    status: CampaignStatus = "save"
    """save (draft), schedule (scheduled), sending, sent or canceled; sent campaigns are immutable."""
    send_time: DateTime | None = None
    """When the campaign is scheduled or was sent."""
    emails_sent: Quantity = 0
    """Number of recipients it went to."""


class Report(Record):
    """The delivery and engagement report of a sent campaign."""

    id: ReportId
    campaign_id: CampaignId
    """The sent campaign."""
    audience_id: AudienceId
    """The audience it went to."""
    subject_line: Title
    """Subject line as sent."""
    send_time: DateTime
    """When it was sent."""
    emails_sent: Quantity
    """Recipients."""
    bounces: Quantity = 0
    """Hard and soft bounces."""
    unique_opens: Quantity = 0
    """Recipients who opened it."""
    unique_clicks: Quantity = 0
    """Recipients who clicked a link."""
    unsubscribes: Quantity = 0
    """Recipients who unsubscribed from it."""
    open_rate: Percent = 0
    """Unique opens per delivered e-mail, in percent."""
    click_rate: Percent = 0
    """Unique clicks per delivered e-mail, in percent."""


# -- rules ------------------------------------------------------------------------------------


def _matches(seg: Segment | None, m: Member) -> bool:
    if m.status != "subscribed":
        return False
    if seg is None:
        return True
    if seg.vip_only and not m.vip:
        return False
    if seg.language is not None and m.language != seg.language:
        return False
    if not seg.tags:
        return True
    have = [t in m.tags for t in seg.tags]
    return all(have) if seg.match == "all" else any(have)


def _recipients(ctx: Ctx, camp: Campaign) -> list[Member]:
    seg = ctx.find(Segment, camp.segment_id) if camp.segment_id else None
    return [m for m in ctx.where(Member, audience_id=camp.audience_id) if _matches(seg, m)]


def _editable(camp: Campaign, field: str = "campaign_id") -> None:
    if camp.status in ("sent", "sending", "canceled"):
        raise RuleViolation(
            f"campaign {camp.id} is {camp.status} and can no longer change",
            field=field,
            hint="sent campaigns are immutable; replicate it with campaigns__replicate_campaign and edit the copy",
        )


def _check_segment(ctx: Ctx, audience_id: str, segment_id: str | None) -> None:
    if segment_id is None:
        return
    seg = ctx.get(Segment, segment_id, field="segment_id")
    if seg.audience_id != audience_id:
        raise RuleViolation(
            f"segment {seg.id} belongs to audience {seg.audience_id}, not {audience_id}",
            field="segment_id",
            hint="pick a segment of the campaign's audience (campaigns__list_segments with audience_id)",
        )


def _guard_campaign_create(ctx: Ctx, new: Any, old: Any) -> None:
    _check_segment(ctx, new.audience_id, new.segment_id)


def _guard_campaign_update(ctx: Ctx, new: Any, old: Any) -> None:
    _editable(old)
    _check_segment(ctx, new.audience_id, new.segment_id)


def _guard_campaign_delete(ctx: Ctx, new: Any, old: Any) -> None:
    if old.status in ("sent", "sending"):
        raise RuleViolation(
            f"campaign {old.id} was sent and its record and report are kept",
            field="campaign_id",
            hint="only campaigns that were never sent can be deleted",
        )


def _guard_audience_delete(ctx: Ctx, new: Any, old: Any) -> None:
    pending = [c for c in ctx.where(Campaign, audience_id=old.id) if c.status in ("schedule", "sending")]
    if pending:
        raise RuleViolation(
            f"audience {old.id} has {len(pending)} scheduled campaign(s)",
            field="audience_id",
            hint="unschedule or delete its scheduled campaigns first",
        )


def _guard_segment_delete(ctx: Ctx, new: Any, old: Any) -> None:
    used = [c for c in ctx.where(Campaign, segment_id=old.id) if c.status in ("save", "schedule")]
    if used:
        raise RuleViolation(
            f"segment {old.id} is used by unsent campaign {used[0].id}",
            field="segment_id",
            hint="point those campaigns at another segment or delete them first",
        )


audiences = service.resource(
    Audience,
    name="audience",
    plural="audiences",
    prefix="aud",
    filters=("double_optin", "from_email"),
    search=("name", "company"),
    update=("name", "company", "from_name", "from_email", "permission_reminder", "double_optin"),
    unique=("name",),
    guard_delete=_guard_audience_delete,
)
members = service.resource(
    Member,
    name="member",
    plural="members",
    prefix="mem",
    create=False,
    filters=("audience_id", "email", "status", "language", "vip"),
    search=("email", "first_name", "last_name"),
    update=("first_name", "last_name", "language", "vip"),
    transitions={
        "unsubscribe": Transition(
            "status",
            ("subscribed", "pending", "transactional"),
            "unsubscribed",
            "unsubscribe the member",
            "Unsubscribe a member: it stops receiving campaigns and can only come back by re-confirming.",
        ),
        "confirm": Transition(
            "status",
            ("pending",),
            "subscribed",
            "record the member's opt-in confirmation",
            "Record that a pending member confirmed the opt-in e-mail: the member becomes subscribed.",
        ),
    },
)
segments = service.resource(
    Segment,
    name="segment",
    plural="segments",
    prefix="seg",
    filters=("audience_id", "match", "vip_only"),
    search=("name",),
    update=("name", "match", "tags", "language", "vip_only"),
    guard_delete=_guard_segment_delete,
)
campaigns = service.resource(
    Campaign,
    name="campaign",
    plural="campaigns",
    prefix="cmp",
    create=("audience_id", "segment_id", "title", "subject_line", "preview_text", "from_name", "reply_to"),
    filters=("audience_id", "segment_id", "status"),
    search=("title", "subject_line"),
    update=("segment_id", "title", "subject_line", "preview_text", "from_name", "reply_to"),
    transitions={
        "unschedule": Transition(
            "status",
            ("schedule",),
            "save",
            "unschedule the campaign",
            "Unschedule a scheduled campaign: it goes back to a draft (save) and keeps its content.",
        ),
    },
    guard_create=_guard_campaign_create,
    guard_update=_guard_campaign_update,
    guard_delete=_guard_campaign_delete,
)
reports = service.resource(
    Report,
    name="report",
    plural="reports",
    prefix="rpt",
    create=False,
    filters=("campaign_id", "audience_id"),
    search=("subject_line",),
    delete=False,
    title="campaign report",
)


# -- members ----------------------------------------------------------------------------------


def _example_add_member(ctx: Ctx) -> dict[str, Any] | None:
    aud = ctx.first(Audience)
    if aud is None:
        return None
    for person in ctx.population.consumers:
        if ctx.first(Member, audience_id=aud.id, email=person.email) is None:
            return {"audience_id": aud.id, "email": person.email, "first_name": person.first_name, "tags": ["web"]}
    return None


@service.tool(intent="add the person to the mailing list", write=True, example=_example_add_member)
def add_member(
    ctx: Ctx,
    audience_id: AudienceId,
    email: Email,
    first_name: FirstName | None = None,
    last_name: LastName | None = None,
    language: Language = "en",
    tags: list[Tag] | None = None,
) -> Member:
    """Add a contact to an audience.

    With double opt-in on, the member starts as pending until it confirms;
    otherwise it is subscribed at once. An address already in the audience is
    refused; an unsubscribed one must be brought back with
    campaigns__resubscribe_member, which asks for re-confirmation.

    Args:
        audience_id: The audience.
        email: The contact's e-mail address.
        first_name: Given name.
        last_name: Family name.
        language: Preferred language (ISO 639-1).
        tags: Tags to put on the member.
    """
    aud = ctx.get(Audience, audience_id, field="audience_id")
    existing = ctx.first(Member, audience_id=aud.id, email=email)
    if existing is not None:
        hint = (
            "re-subscribe it with campaigns__resubscribe_member (it must re-confirm)"
            if existing.status == "unsubscribed"
            else "update the existing member instead"
        )
        raise Conflict(
            f"{email} is already in audience {aud.id} as {existing.id} ({existing.status})", field="email", hint=hint
        )
    clean = _clean_tags(tags or [])
    return ctx.create(
        Member,
        audience_id=aud.id,
        email=email,
        first_name=first_name,
        last_name=last_name,
        language=language,
        tags=clean,
        status="pending" if aud.double_optin else "subscribed",
    )


def _clean_tags(tags: list[str]) -> tuple[str, ...]:
    out: list[str] = []
    for t in tags:
        if t not in out:
            out.append(t)
    if len(out) > MAX_TAGS:
        raise RuleViolation(f"a member can have at most {MAX_TAGS} tags", field="tags", hint="remove some tags")
    return tuple(out)


@service.tool(
    intent="re-subscribe the member who unsubscribed",
    write=True,
    example=first_example(Member, "member_id", where={"status": "unsubscribed"}),
)
def resubscribe_member(ctx: Ctx, member_id: MemberId) -> Member:
    """Bring an unsubscribed member back: it becomes pending and is sent a re-confirmation e-mail.

    An unsubscribed member cannot be set straight to subscribed: consent must be
    given again, so it stays pending until confirmed (campaigns__confirm_member).
    Cleaned (permanently bouncing) addresses cannot be re-subscribed.

    Args:
        member_id: The unsubscribed member.
    """
    m = ctx.get(Member, member_id, field="member_id")
    if m.status == "cleaned":
        raise RuleViolation(
            f"{m.email} was cleaned after hard bounces and cannot be re-subscribed",
            field="member_id",
            hint="ask the contact for a working address and add that instead",
        )
    if m.status != "unsubscribed":
        raise RuleViolation(
            f"member {m.id} is {m.status}, not unsubscribed",
            field="member_id",
            hint="only unsubscribed members need re-subscribing",
        )
    return ctx.update(m, status="pending", unsubscribe_reason=None)


@service.tool(
    intent="change the member's subscription status",
    write=True,
    example=first_example(Member, "member_id", where={"status": "subscribed"}, status="transactional"),
)
def set_member_status(
    ctx: Ctx,
    member_id: MemberId,
    status: Literal["subscribed", "unsubscribed", "pending", "transactional"],
    reason: str | None = None,
) -> Member:
    """Set a member's subscription status, following the consent rules.

    An unsubscribed member cannot become subscribed directly: set it to pending
    to send a re-confirmation. A pending member cannot be subscribed by hand
    either: it must confirm (campaigns__confirm_member). Cleaned addresses are
    final. ``reason`` is kept when unsubscribing.

    Args:
        member_id: The member.
        status: The new status.
        reason: Why the member unsubscribed (only with status unsubscribed).
    """
    m = ctx.get(Member, member_id, field="member_id")
    if m.status == "cleaned":
        raise RuleViolation(
            f"{m.email} was cleaned after hard bounces; its status is final",
            field="member_id",
            hint="add a working address as a new member",
        )
    if m.status == status:
        raise RuleViolation(f"member {m.id} is already {status}", field="status", hint="nothing to change")
    if status == "subscribed" and m.status == "unsubscribed":
        raise RuleViolation(
            f"{m.email} unsubscribed and cannot be re-subscribed without re-confirmation",
            field="status",
            hint="set the status to pending (or call campaigns__resubscribe_member) to send a re-confirmation e-mail",
        )
    if status == "subscribed" and m.status == "pending":
        raise RuleViolation(
            f"{m.email} has not confirmed its subscription yet",
            field="status",
            hint="record the confirmation with campaigns__confirm_member",
        )
    return ctx.update(m, status=status, unsubscribe_reason=reason if status == "unsubscribed" else None)


def _example_tag(ctx: Ctx) -> dict[str, Any] | None:
    m = ctx.first(Member, status="subscribed")
    return {"member_id": m.id, "add": ["spring-sale"], "remove": list(m.tags[:1])} if m else None


@service.tool(intent="tag the member", write=True, idempotent=True, example=_example_tag)
def tag_member(ctx: Ctx, member_id: MemberId, add: list[Tag] | None = None, remove: list[Tag] | None = None) -> Member:
    """Add tags to and remove tags from a member; adding a tag it has or removing one it lacks is a no-op.

    Args:
        member_id: The member.
        add: Tags to add.
        remove: Tags to remove.
    """
    m = ctx.get(Member, member_id, field="member_id")
    if not add and not remove:
        raise RuleViolation("nothing to tag", field="add", hint="pass tags in add or remove")
    both = set(add or ()) & set(remove or ())
    if both:
        raise RuleViolation(
            f"tag {sorted(both)[0]!r} is both added and removed", field="remove", hint="name each tag once"
        )
    tags = [t for t in m.tags if t not in set(remove or ())] + list(add or ())
    return ctx.update(m, tags=_clean_tags(tags))


class MemberTagCount(BaseModel):
    """How many members of an audience carry one tag."""

    tag: str = Field(description="The tag.")
    members: Quantity = Field(description="Members with the tag.")
    subscribed: Quantity = Field(description="Subscribed members with the tag.")


@service.tool(intent="see which tags the audience uses")
def list_audience_tags(ctx: Ctx, audience_id: AudienceId) -> list[MemberTagCount]:
    """List the tags used in an audience with how many members carry each, most used first.

    Args:
        audience_id: The audience.
    """
    counts: dict[str, list[int]] = {}
    for m in ctx.where(Member, audience_id=audience_id):
        for t in m.tags:
            c = counts.setdefault(t, [0, 0])
            c[0] += 1
            c[1] += m.status == "subscribed"
    order = sorted(counts.items(), key=lambda kv: (-kv[1][0], kv[0]))
    return [MemberTagCount(tag=t, members=c[0], subscribed=c[1]) for t, c in order]


# -- campaigns --------------------------------------------------------------------------------


@service.tool(
    intent="write the campaign's e-mail content",
    write=True,
    idempotent=True,
    example=first_example(
        Campaign, "campaign_id", where={"status": "save"}, html="<h1>Spring news</h1><p>Hello *|FNAME|*</p>"
    ),
)
def set_campaign_content(ctx: Ctx, campaign_id: CampaignId, html: Text, plain_text: Text | None = None) -> Campaign:
    """Set the body of a campaign (PUT /campaigns/{id}/content).

    The plain-text version is derived from the HTML unless given. Sent and
    canceled campaigns cannot change.

    Args:
        campaign_id: The campaign.
        html: The HTML body; must not be blank.
        plain_text: The plain-text alternative.
    """
    camp = ctx.get(Campaign, campaign_id, field="campaign_id")
    _editable(camp)
    if not html.strip():
        raise RuleViolation("the content cannot be blank", field="html", hint="write the e-mail body")
    text = plain_text if plain_text is not None else _strip_html(html)
    return ctx.update(camp, content_html=html, plain_text=text)


def _strip_html(html: str) -> str:
    out: list[str] = []
    inside = False
    for ch in html:
        if ch == "<":
            inside = True
            out.append(" ")
        elif ch == ">":
            inside = False
        elif not inside:
            out.append(ch)
    return " ".join("".join(out).split())


def _ready_to_send(ctx: Ctx, camp: Campaign) -> list[Member]:
    _editable(camp)
    if not camp.content_html.strip():
        raise RuleViolation(
            f"campaign {camp.id} has no content",
            field="campaign_id",
            hint="set its body with campaigns__set_campaign_content first",
        )
    recipients = _recipients(ctx, camp)
    if not recipients:
        raise RuleViolation(
            f"campaign {camp.id} has no recipients: no subscribed member matches its audience and segment",
            field="campaign_id",
            hint="choose another segment with campaigns__update_campaign or add subscribed members",
        )
    return recipients


_example_sendable = first_example(
    Campaign, "campaign_id", where={"status": "save"}, match=lambda ctx, c: bool(c.content_html and _recipients(ctx, c))
)


def _example_schedule(ctx: Ctx) -> dict[str, Any] | None:
    found = _example_sendable(ctx)
    if found is None:
        return None
    when = ctx.now().replace(minute=0, second=0, microsecond=0) + dt.timedelta(days=2)
    return {**found, "schedule_time": iso_z(when)}


@service.tool(intent="schedule the campaign", write=True, example=_example_schedule)
def schedule_campaign(ctx: Ctx, campaign_id: CampaignId, schedule_time: DateTime) -> Campaign:
    """Schedule a draft campaign for delivery at a later time.

    The time must lie in the future and on a quarter hour (:00, :15, :30, :45).
    The campaign needs content and at least one recipient.

    Args:
        campaign_id: The draft campaign.
        schedule_time: When to send it (UTC).
    """
    camp = ctx.get(Campaign, campaign_id, field="campaign_id")
    _ready_to_send(ctx, camp)
    if camp.status == "schedule":
        raise RuleViolation(
            f"campaign {camp.id} is already scheduled for {camp.send_time}",
            field="campaign_id",
            hint="unschedule it with campaigns__unschedule_campaign first",
        )
    if schedule_time <= ctx.now():
        raise RuleViolation(
            f"schedule time {schedule_time.isoformat()} is not in the future",
            field="schedule_time",
            hint=f"pick a time after {ctx.now().isoformat()}, or send now with campaigns__send_campaign",
        )
    if schedule_time.minute % 15 or schedule_time.second or schedule_time.microsecond:
        raise RuleViolation(
            "campaigns can only be scheduled on a quarter hour",
            field="schedule_time",
            hint="use a time at :00, :15, :30 or :45 minutes",
        )
    return ctx.update(camp, status="schedule", send_time=schedule_time)


def _deliver(ctx: Ctx, camp: Campaign, recipients: list[Member]) -> Campaign:
    n = len(recipients)
    rng = ctx.rng
    bounces = sum(1 for _ in range(n) if rng.random() < 0.02)
    delivered = n - bounces
    opens = sum(1 for _ in range(delivered) if rng.random() < 0.35)
    clicks = sum(1 for _ in range(opens) if rng.random() < 0.3)
    unsubs = min(opens, sum(1 for _ in range(opens) if rng.random() < 0.03))
    now = ctx.now()
    sent = ctx.update(camp, status="sent", send_time=now, emails_sent=n)
    ctx.create(
        Report,
        campaign_id=camp.id,
        audience_id=camp.audience_id,
        subject_line=camp.subject_line,
        send_time=now,
        emails_sent=n,
        bounces=bounces,
        unique_opens=opens,
        unique_clicks=clicks,
        unsubscribes=unsubs,
        open_rate=round(100 * opens / delivered, 2) if delivered else 0,
        click_rate=round(100 * clicks / delivered, 2) if delivered else 0,
    )
    return sent


@service.tool(intent="send the campaign now", write=True, destructive=True, example=_example_sendable)
def send_campaign(ctx: Ctx, campaign_id: CampaignId) -> Campaign:
    """Send a draft or scheduled campaign right away to its subscribed recipients.

    Needs content and at least one subscribed member matching the audience and
    segment. Afterwards the campaign is sent, immutable, and has a report.

    Args:
        campaign_id: The campaign.
    """
    camp = ctx.get(Campaign, campaign_id, field="campaign_id")
    recipients = _ready_to_send(ctx, camp)
    return _deliver(ctx, camp, recipients)


@service.tool(
    intent="make a copy of the campaign",
    write=True,
    example=first_example(Campaign, "campaign_id", where={"status": "sent"}),
)
def replicate_campaign(ctx: Ctx, campaign_id: CampaignId, title: Title | None = None) -> Campaign:
    """Copy any campaign, sent or not, into a new draft with the same audience, segment and content.

    Args:
        campaign_id: The campaign to copy.
        title: Internal name of the copy (default: the original's title with " (copy)").
    """
    src = ctx.get(Campaign, campaign_id, field="campaign_id")
    segment_id = src.segment_id if src.segment_id and ctx.find(Segment, src.segment_id) else None
    return ctx.create(
        Campaign,
        audience_id=src.audience_id,
        segment_id=segment_id,
        title=title or f"{src.title} (copy)"[:200],
        subject_line=src.subject_line,
        preview_text=src.preview_text,
        from_name=src.from_name,
        reply_to=src.reply_to,
        content_html=src.content_html,
        plain_text=src.plain_text,
    )


class RecipientPreview(BaseModel):
    """Who a campaign would go to right now."""

    campaign_id: CampaignId = Field(description="The campaign.")
    recipient_count: Quantity = Field(description="Subscribed members matching its audience and segment.")
    sample_emails: list[Email] = Field(description="Up to 10 of their e-mail addresses, in member id order.")


@service.tool(intent="check who the campaign would be sent to")
def preview_recipients(ctx: Ctx, campaign_id: CampaignId) -> RecipientPreview:
    """Count the recipients a campaign would reach if sent now (subscribed members matching its segment).

    Args:
        campaign_id: The campaign.
    """
    camp = ctx.get(Campaign, campaign_id, field="campaign_id")
    found = _recipients(ctx, camp)
    return RecipientPreview(
        campaign_id=camp.id, recipient_count=len(found), sample_emails=[m.email for m in found[:10]]
    )


@service.tool(
    intent="see how the campaign performed", example=first_example(Report, fields={"campaign_id": "campaign_id"})
)
def get_campaign_report(ctx: Ctx, campaign_id: CampaignId) -> Report:
    """Get the report of a sent campaign: sends, bounces, opens, clicks and unsubscribes.

    Args:
        campaign_id: The sent campaign.
    """
    camp = ctx.get(Campaign, campaign_id, field="campaign_id")
    rep = ctx.first(Report, campaign_id=camp.id)
    if rep is None:
        raise RuleViolation(
            f"campaign {camp.id} is {camp.status} and has no report yet",
            field="campaign_id",
            hint="reports exist only for sent campaigns (list_campaigns with status sent)",
        )
    return rep


# -- seed -------------------------------------------------------------------------------------

TAGS = ("newsletter", "vip", "webinar", "beta", "black-friday", "event-2025", "trial")


@service.seeder
def seed(s: SeedContext) -> None:
    """Three audiences of the population's consumers and contacts, segments and campaigns in every status."""
    news, b2b, beta = _seed_audiences(s)
    _seed_members(s, news, b2b, beta)
    vip, empty, webinar = _seed_segments(s, news, b2b)
    plans: list[tuple[Audience, Segment | None, str, str, int]] = [
        (news, None, "March newsletter", "sent", -20),
        (news, vip, "VIP early access", "sent", -9),
        (b2b, webinar, "Webinar follow-up", "sent", -4),
        (news, None, "April newsletter", "schedule", 5),
        (b2b, None, "Quarterly product update", "schedule", 12),
        (news, None, "Spring sale", "save", 0),
        (b2b, webinar, "Webinar invitation", "save", 0),
        (news, empty, "Discontinued line clearance", "save", 0),
        (news, None, "Untitled draft", "save", 0),
        (beta, None, "Beta 2 is here", "save", 0),
        (news, None, "Winter sale (called off)", "canceled", -30),
    ]
    for aud, seg, title, status, days in plans:
        _seed_campaign(s, aud, seg, title, status, days)


def _seed_audiences(s: SeedContext) -> tuple[Audience, Audience, Audience]:
    """The newsletter, customer and double opt-in beta audiences."""
    pop = s.population
    home = pop.home
    marketers = pop.staff("Sales")
    sender = marketers[0]
    news = s.create(
        Audience,
        name=f"{home.name} Newsletter",
        company=home.name,
        from_name=sender.name,
        from_email=sender.email,
        permission_reminder=f"You are receiving this because you signed up with {home.name}.",
    )
    b2b = s.create(
        Audience,
        name=f"{home.name} Customers",
        company=home.name,
        from_name=sender.name,
        from_email=sender.email,
        permission_reminder=f"You are receiving this as a customer of {home.name}.",
    )
    beta = s.create(
        Audience,
        name=f"{home.name} Beta Program",
        company=home.name,
        from_name=marketers[-1].name,
        from_email=marketers[-1].email,
        permission_reminder="You asked to hear about beta releases.",
        double_optin=True,
    )
    return news, b2b, beta


def _seed_members(s: SeedContext, news: Audience, b2b: Audience, beta: Audience) -> None:
    """Consumers in the newsletter (every fourth also in the beta), business contacts in the customer audience."""
    pop = s.population
    statuses: tuple[str, ...] = ("subscribed",) * 7 + ("unsubscribed", "pending", "cleaned")
    for i, p in enumerate(pop.consumers):
        status = statuses[i % len(statuses)]
        s.create(
            Member,
            audience_id=news.id,
            email=p.email,
            first_name=p.first_name,
            last_name=p.last_name,
            status=status,
            language=p.place.language,
            vip=i % 9 == 0,
            tags=tuple(sorted({TAGS[i % len(TAGS)], TAGS[(i * 3) % len(TAGS)]})),
            unsubscribe_reason="Too many e-mails" if status == "unsubscribed" else None,
        )
        if i % 4 == 0:
            s.create(
                Member,
                audience_id=beta.id,
                email=p.email,
                first_name=p.first_name,
                last_name=p.last_name,
                status="pending" if i % 8 == 0 else "subscribed",
                language=p.place.language,
                tags=("beta",),
            )
    for i, p in enumerate(pop.contacts):
        s.create(
            Member,
            audience_id=b2b.id,
            email=p.email,
            first_name=p.first_name,
            last_name=p.last_name,
            status="unsubscribed" if i % 11 == 5 else ("transactional" if i % 13 == 7 else "subscribed"),
            language=p.place.language,
            vip=i % 6 == 0,
            tags=("customer", "webinar") if i % 3 == 0 else ("customer",),
        )


def _seed_segments(s: SeedContext, news: Audience, b2b: Audience) -> tuple[Segment, Segment, Segment]:
    """Five segments; returns the VIP, the empty (retired tag) and the webinar-attendee segment."""
    vip = s.create(Segment, audience_id=news.id, name="VIP subscribers", vip_only=True)
    s.create(Segment, audience_id=news.id, name="Webinar or beta fans", match="any", tags=("webinar", "beta"))
    s.create(Segment, audience_id=news.id, name="German speakers", language="de")
    empty = s.create(Segment, audience_id=news.id, name="Retired tag", tags=("discontinued",))
    webinar = s.create(Segment, audience_id=b2b.id, name="Webinar attendees", tags=("webinar",))
    return vip, empty, webinar


def _seed_campaign(s: SeedContext, aud: Audience, seg: Segment | None, title: str, status: str, days: int) -> None:
    """One campaign sent, scheduled or created ``days`` from now; a sent one gets its report."""
    home = s.population.home
    body = "<h1>{t}</h1><p>Hi *|FNAME|*, here is what is new at " + home.name + ".</p>"
    has_content = title != "Untitled draft"
    camp = s.create(
        Campaign,
        audience_id=aud.id,
        segment_id=seg.id if seg else None,
        title=title,
        subject_line=title,
        preview_text=f"{title} from {home.name}",
        from_name=aud.from_name,
        reply_to=aud.from_email,
        content_html=body.format(t=title) if has_content else "",
        plain_text=f"{title}. Here is what is new at {home.name}." if has_content else "",
        status=status,
        send_time=(s.now + dt.timedelta(days=days)).replace(minute=0) if status in ("sent", "schedule") else None,
        created_at=s.now + dt.timedelta(days=min(days, 0) - 3),
        updated_at=s.now + dt.timedelta(days=min(days, 0)),
    )
    if status != "sent":
        return
    all_members = [m for m in s.records(Member) if m.audience_id == aud.id]
    n = sum(1 for m in all_members if _matches(seg, m))
    opens = n * s.rng.randint(25, 45) // 100
    clicks = opens * s.rng.randint(15, 35) // 100
    s.update(camp, emails_sent=n)
    assert camp.send_time is not None
    s.create(
        Report,
        campaign_id=camp.id,
        audience_id=aud.id,
        subject_line=title,
        send_time=camp.send_time,
        emails_sent=n,
        bounces=n // 40,
        unique_opens=opens,
        unique_clicks=clicks,
        unsubscribes=min(opens, 1),
        open_rate=round(100 * opens / n, 2) if n else 0,
        click_rate=round(100 * clicks / n, 2) if n else 0,
    )
