"""Pitchcraft: sales enablement content, spots, plays, pitches to buyers and content requests.

Modeled on Highspot (spots, items, pitches with engagement tracking, plays)
and Seismic (content expiry and owners, content requests): content items live
in spots that staff keep (an archived spot is frozen); an item goes draft →
published → expired or archived, is published only with an expiry date ahead
and by its owner's approval, and can be renewed; plays bundle published items
for a sales motion; pitches send published items to external buyers, and
each view the buyer makes is recorded against the pitch and the items; reps
request missing content, which marketing takes on and fulfils with an item or
declines.
"""

from __future__ import annotations

import datetime as dt
from typing import Annotated, Any, Literal

from pydantic import Field

from compoworld.engine.context import Ctx
from compoworld.engine.errors import Conflict, RuleViolation
from compoworld.engine.service import Service, Transition
from compoworld.engine.state import SeedContext
from compoworld.engine.types import CompanyName, Date, DateTime, Email, FileLink, IdOf, PersonName, Text, Title
from compoworld.services.kit.examples import first_example
from compoworld.services.kit.lists import KeptList, ListRecord, require_employee
from compoworld.services.kit.records import Timestamped, Value

__all__ = ["service"]

service = Service(
    "enablement",
    title="Pitchcraft",
    category="sales_enablement",
    modeled_on="Highspot / Seismic: spots, content items with owners and expiry, plays, pitches with buyer "
    "engagement, content requests",
    description="Sales enablement: the decks, case studies, battlecards and videos reps use, organised in spots "
    "with owners and expiry dates, plays for sales motions, pitches sent to buyers with their views, and "
    "requests for new content.",
)

SpotId = Annotated[str, IdOf("enablement.spot")]
ItemId = Annotated[str, IdOf("enablement.item")]
PlayId = Annotated[str, IdOf("enablement.play")]
PitchId = Annotated[str, IdOf("enablement.pitch")]
RequestId = Annotated[str, IdOf("enablement.content_request")]

Kind = Literal["deck", "one_pager", "case_study", "battlecard", "video", "whitepaper"]
ItemStatus = Literal["draft", "published", "expired", "archived"]
MAX_EXPIRY = dt.timedelta(days=730)


class Spot(ListRecord):
    """A spot: a curated collection of content a team keeps."""

    id: SpotId


class Item(Timestamped):
    """A piece of sales content."""

    id: ItemId
    spot_id: SpotId
    """The spot it lives in."""
    title: Title
    """Its title."""
    kind: Kind
    """deck, one_pager, case_study, battlecard, video or whitepaper."""
    file_link: FileLink
    """Where the file is."""
    owner_email: Email
    """The employee who owns it."""
    expires_on: Date | None = None
    """When it must be reviewed or retired."""
    status: ItemStatus = "draft"
    """draft, published, expired or archived."""
    version: int = 1
    """Version, raised on every renewal."""
    views: int = 0
    """Buyer views across pitches."""


class Play(Timestamped):
    """A play: the content and guidance for one sales motion."""

    id: PlayId
    name: Title
    """Its name."""
    audience: Literal["sdr", "account_executive", "customer_success", "partner"]
    """Who runs it."""
    owner_email: Email
    """The employee who owns it."""
    item_ids: list[ItemId] = Field(min_length=1, max_length=20)
    """Its content."""
    guidance: Text = ""
    """How to run it."""
    status: Literal["draft", "published", "archived"] = "draft"
    """draft, published or archived."""


class Pitch(Timestamped):
    """Content sent to a buyer, tracked for engagement."""

    id: PitchId
    sent_by: Email
    """The rep who sent it."""
    recipient_email: Email
    """The buyer."""
    recipient_name: PersonName
    """The buyer's name."""
    company_name: CompanyName
    """The buyer's company."""
    subject: Title
    """E-mail subject."""
    item_ids: list[ItemId] = Field(min_length=1, max_length=10)
    """The content sent."""
    views: int = 0
    """Views by the buyer."""
    seconds_viewed: int = 0
    """Total time viewed."""
    last_viewed_at: DateTime | None = None
    """When the buyer last looked."""


class ContentRequest(Timestamped):
    """A rep's request for content that does not exist yet."""

    id: RequestId
    title: Title
    """What is needed."""
    kind: Kind
    """The kind of content."""
    details: Text = ""
    """Context: the deal, the competitor, the audience."""
    requested_by: Email
    """The rep asking."""
    due_date: Date
    """When it is needed."""
    assignee_email: Email | None = None
    """The marketer working on it."""
    status: Literal["open", "in_progress", "fulfilled", "declined"] = "open"
    """open, in_progress, fulfilled or declined."""
    item_id: ItemId | None = None
    """The item that fulfilled it."""


class Engagement(Value):
    """How buyers engaged with an item."""

    item_id: ItemId
    """The item."""
    pitches: int
    """Pitches that included it."""
    buyers: int
    """Distinct buyers who received it."""
    views: int
    """Buyer views."""
    companies: list[str]
    """Companies it was sent to."""


# -- rules ------------------------------------------------------------------------------------

_SPOTS = KeptList(Spot, noun="spot", field="spot_id", frozen_hint="unarchive the spot first")


def _guard_item(ctx: Ctx, new: Any, old: Any) -> None:
    _SPOTS.open(ctx, new.spot_id, "spot_id" if old is None else "item_id")
    require_employee(ctx, new.owner_email, field="owner_email", hint="content is owned by staff")
    if old is not None and old.status == "archived":
        raise RuleViolation("the item is archived", field="item_id", hint="archived content is final")


def _guard_play(ctx: Ctx, new: Any, old: Any) -> None:
    require_employee(ctx, new.owner_email, field="owner_email", hint="plays are owned by staff")
    if len(set(new.item_ids)) != len(new.item_ids):
        raise RuleViolation("an item is listed twice", field="item_ids", hint="list each item once")
    for item_id in new.item_ids:
        ctx.get(Item, item_id, field="item_ids")


def _guard_request(ctx: Ctx, new: Any, old: Any) -> None:
    require_employee(ctx, new.requested_by, field="requested_by", hint="reps request content")
    if new.assignee_email is not None:
        require_employee(ctx, new.assignee_email, field="assignee_email", hint="marketers fulfil requests")
    if old is None and new.due_date < ctx.today():
        raise RuleViolation("due_date is in the past", field="due_date", hint="give a future date")


spots = _SPOTS.declare(service, name="spot", plural="spots", prefix="spt", title="spot", unarchive=True, children=[])
items = service.resource(
    Item,
    name="item",
    plural="items",
    prefix="itm",
    create=("spot_id", "title", "kind", "file_link", "owner_email", "expires_on"),
    filters=("spot_id", "kind", "status", "owner_email"),
    search=("title",),
    update=("title", "file_link", "owner_email"),
    delete=False,
    transitions={
        "archive": Transition(
            "status", ("draft", "published", "expired"), "archived", "archive the content item", destructive=True
        )
    },
    guard_create=_guard_item,
    guard_update=_guard_item,
    title="content item",
)
plays = service.resource(
    Play,
    name="play",
    plural="plays",
    prefix="ply",
    create=("name", "audience", "owner_email", "item_ids", "guidance"),
    filters=("audience", "status", "owner_email"),
    search=("name", "guidance"),
    update=("name", "guidance", "item_ids", "owner_email"),
    delete=False,
    transitions={"archive": Transition("status", ("draft", "published"), "archived", "archive the play")},
    guard_create=_guard_play,
    guard_update=_guard_play,
)
pitches = service.resource(
    Pitch,
    name="pitch",
    plural="pitches",
    prefix="pch",
    create=False,
    filters=("sent_by", "recipient_email", "company_name"),
    search=("subject",),
    delete=False,
)
requests = service.resource(
    ContentRequest,
    name="content_request",
    plural="content_requests",
    prefix="crq",
    create=("title", "kind", "details", "requested_by", "due_date"),
    filters=("status", "requested_by", "assignee_email", "kind"),
    search=("title", "details"),
    update=("details", "due_date", "assignee_email"),
    delete=False,
    transitions={
        "start": Transition("status", ("open",), "in_progress", "start work on the content request"),
        "decline": Transition("status", ("open", "in_progress"), "declined", "decline the content request"),
    },
    guard_create=_guard_request,
    guard_update=_guard_request,
    title="content request",
)


# -- domain tools -----------------------------------------------------------------------------


def _live(ctx: Ctx, item: Item) -> bool:
    return item.status == "published" and (item.expires_on is None or item.expires_on >= ctx.today())


@service.tool(
    intent="publish the content item",
    write=True,
    example=first_example(Item, "item_id", where={"status": "draft"}, fields={"approved_by": "owner_email"}),
)
def publish_item(ctx: Ctx, item_id: ItemId, approved_by: Email) -> Item:
    """Publish a draft item: its owner approves, and it needs an expiry date ahead (at most two years).

    Args:
        item_id: The item.
        approved_by: The item's owner.
    """
    item = ctx.get(Item, item_id, field="item_id")
    if item.status != "draft":
        raise RuleViolation(f"the item is {item.status}", field="item_id", hint="only drafts are published")
    _SPOTS.open(ctx, item.spot_id, "item_id")
    if approved_by != item.owner_email:
        raise RuleViolation(f"only the owner {item.owner_email} approves it", field="approved_by", hint="ask them")
    if item.expires_on is None or not ctx.today() < item.expires_on <= ctx.today() + MAX_EXPIRY:
        raise RuleViolation(
            "published content needs an expiry date within two years",
            field="item_id",
            hint="renew it with enablement__renew_item to set one",
        )
    return ctx.update(item, status="published")


@service.tool(
    intent="renew the content item",
    write=True,
    example=lambda ctx: next(
        (
            {"item_id": i.id, "expires_on": (ctx.today() + dt.timedelta(days=180)).isoformat()}
            for i in ctx.scan(Item)
            if i.status in ("expired", "draft")
        ),
        None,
    ),
)
def renew_item(ctx: Ctx, item_id: ItemId, expires_on: Date, file_link: FileLink | None = None) -> Item:
    """Give an item a new expiry date (and optionally a new file): a new version; an expired item is published again.

    Args:
        item_id: The item.
        expires_on: The new expiry date: ahead, at most two years.
        file_link: The updated file, if any.
    """
    item = ctx.get(Item, item_id, field="item_id")
    if item.status == "archived":
        raise RuleViolation("the item is archived", field="item_id", hint="archived content is final")
    if not ctx.today() < expires_on <= ctx.today() + MAX_EXPIRY:
        raise RuleViolation("expires_on must be ahead, within two years", field="expires_on", hint="pick a date")
    status: ItemStatus = "published" if item.status == "expired" else item.status
    return ctx.update(
        item, expires_on=expires_on, file_link=file_link or item.file_link, version=item.version + 1, status=status
    )


@service.tool(
    intent="publish the play",
    write=True,
    example=first_example(
        Play, "play_id", where={"status": "draft"}, match=lambda c, r: all(_live(c, c.get(Item, i)) for i in r.item_ids)
    ),
)
def publish_play(ctx: Ctx, play_id: PlayId) -> Play:
    """Publish a draft play; all of its content must be published and unexpired.

    Args:
        play_id: The play.
    """
    play = ctx.get(Play, play_id, field="play_id")
    if play.status != "draft":
        raise RuleViolation(f"the play is {play.status}", field="play_id", hint="only drafts are published")
    for item_id in play.item_ids:
        item = ctx.get(Item, item_id)
        if not _live(ctx, item):
            raise RuleViolation(f"{item.title!r} is {item.status}", field="play_id", hint="publish or renew it first")
    return ctx.update(play, status="published")


def _example_pitch(ctx: Ctx) -> dict[str, Any] | None:
    item = next((i for i in ctx.where(Item, status="published") if _live(ctx, i)), None)
    buyer = ctx.population.contacts[0]
    company = ctx.population.company_of(buyer)
    if item is None or company is None:
        return None
    return {
        "sent_by": ctx.population.employees[0].email,
        "recipient_email": buyer.email,
        "recipient_name": buyer.name,
        "company_name": company.name,
        "subject": "The deck we discussed",
        "item_ids": [item.id],
    }


@service.tool(intent="send a pitch to the buyer", write=True, example=_example_pitch)
def send_pitch(
    ctx: Ctx,
    sent_by: Email,
    recipient_email: Email,
    recipient_name: PersonName,
    company_name: CompanyName,
    subject: Title,
    item_ids: list[ItemId],
) -> Pitch:
    """Send published, unexpired content to an external buyer, tracked for views.

    Args:
        sent_by: The rep sending it.
        recipient_email: The buyer's e-mail (not a colleague's).
        recipient_name: The buyer's name.
        company_name: The buyer's company.
        subject: The e-mail subject.
        item_ids: The content (1-10 items).
    """
    require_employee(ctx, sent_by, field="sent_by", hint="pitches are sent by reps")
    if any(p.email == recipient_email for p in ctx.population.employees):
        raise RuleViolation("pitches go to buyers, not colleagues", field="recipient_email", hint="share in a spot")
    if not item_ids or len(set(item_ids)) != len(item_ids):
        raise RuleViolation("list each item once", field="item_ids", hint="send 1-10 distinct items")
    for item_id in item_ids:
        item = ctx.get(Item, item_id, field="item_ids")
        if not _live(ctx, item):
            raise RuleViolation(
                f"{item.title!r} is not published or has expired", field="item_ids", hint="send live content only"
            )
    return ctx.create(
        Pitch,
        sent_by=sent_by,
        recipient_email=recipient_email,
        recipient_name=recipient_name,
        company_name=company_name,
        subject=subject,
        item_ids=item_ids,
    )


@service.tool(
    intent="record the buyer's view of the pitch",
    write=True,
    example=lambda ctx: next(
        ({"pitch_id": p.id, "item_id": p.item_ids[0], "seconds": 95} for p in ctx.scan(Pitch)), None
    ),
)
def record_view(ctx: Ctx, pitch_id: PitchId, item_id: ItemId, seconds: Annotated[int, Field(ge=1, le=86400)]) -> Pitch:
    """Record that the buyer opened an item of a pitch (the viewer tracking webhook).

    Args:
        pitch_id: The pitch.
        item_id: The item viewed; it must be in the pitch.
        seconds: How long it was viewed.
    """
    pitch = ctx.get(Pitch, pitch_id, field="pitch_id")
    if item_id not in pitch.item_ids:
        raise RuleViolation("the item is not in this pitch", field="item_id", hint="use an item the pitch sent")
    item = ctx.get(Item, item_id, field="item_id")
    ctx.update(item, views=item.views + 1)
    return ctx.update(
        pitch, views=pitch.views + 1, seconds_viewed=pitch.seconds_viewed + seconds, last_viewed_at=ctx.now()
    )


@service.tool(
    intent="fulfil the content request",
    write=True,
    example=lambda ctx: next(
        (
            {"content_request_id": r.id, "item_id": i.id}
            for r in ctx.where(ContentRequest, status="in_progress")
            for i in ctx.where(Item, kind=r.kind)
        ),
        None,
    ),
)
def fulfil_request(ctx: Ctx, content_request_id: RequestId, item_id: ItemId) -> ContentRequest:
    """Close a request in progress with the item that answers it (of the kind asked for).

    Args:
        content_request_id: The request.
        item_id: The item.
    """
    req = ctx.get(ContentRequest, content_request_id, field="content_request_id")
    if req.status != "in_progress":
        raise RuleViolation(f"the request is {req.status}", field="content_request_id", hint="start it first")
    item = ctx.get(Item, item_id, field="item_id")
    if item.kind != req.kind:
        raise RuleViolation(
            f"the request asks for a {req.kind}, not a {item.kind}",
            field="item_id",
            hint="fulfil it with content of the kind asked for",
        )
    if item.status == "archived":
        raise Conflict("the item is archived", field="item_id", hint="use live content")
    return ctx.update(req, status="fulfilled", item_id=item.id)


@service.tool(intent="show the content item's engagement", example=first_example(Item, "item_id"))
def item_engagement(ctx: Ctx, item_id: ItemId) -> Engagement:
    """Pitches that sent an item, the buyers and companies they reached, and its views.

    Args:
        item_id: The item.
    """
    item = ctx.get(Item, item_id, field="item_id")
    sent = [p for p in ctx.scan(Pitch) if item.id in p.item_ids]
    return Engagement(
        item_id=item.id,
        pitches=len(sent),
        buyers=len({p.recipient_email for p in sent}),
        views=item.views,
        companies=sorted({p.company_name for p in sent}),
    )


# -- seed -------------------------------------------------------------------------------------

SPOTS: tuple[tuple[str, str, tuple[tuple[str, Kind], ...]], ...] = (
    (
        "Enterprise sales kit",
        "Decks and proof points for enterprise deals.",
        (("Enterprise pitch deck", "deck"), ("ROI one-pager", "one_pager"), ("Security whitepaper", "whitepaper")),
    ),
    (
        "Competitive",
        "Battlecards against the competitors we meet most.",
        (("Battlecard: incumbent vendors", "battlecard"), ("Battlecard: open-source alternatives", "battlecard")),
    ),
    (
        "Customer stories",
        "Case studies and videos by industry.",
        (
            ("Logistics case study", "case_study"),
            ("Customer video testimonial", "video"),
            ("Retail case study", "case_study"),
        ),
    ),
)


@service.seeder
def seed(s: SeedContext) -> None:
    """Spots of content owned by marketing, plays, pitches to world contacts with views, content requests."""
    pop = s.population
    owners = pop.staff("Marketing", fallback=3)
    reps = pop.staff("Sales", fallback=4)
    today = s.now.date()
    made: list[Item] = []
    for k, (name, about, entries) in enumerate(SPOTS):
        spot = s.create(
            Spot,
            name=name,
            owner_email=owners[k % len(owners)].email,
            description=about,
            created_at=s.ago(days=300),
            updated_at=s.ago(days=30),
        )
        for j, (title, kind) in enumerate(entries):
            n = len(made)
            status: ItemStatus = (
                "published",
                "published",
                "draft",
                "expired",
                "published",
                "published",
                "archived",
                "published",
            )[n]
            expiry = today + dt.timedelta(days=200 - 20 * n) if status != "expired" else today - dt.timedelta(days=5)
            slug = title.lower().replace(" ", "-").replace(":", "")
            made.append(
                s.create(
                    Item,
                    spot_id=spot.id,
                    title=title,
                    kind=kind,
                    file_link=f"https://files.{pop.home.domain}/{slug}.pdf",
                    owner_email=spot.owner_email,
                    expires_on=expiry,
                    status=status,
                    version=1 + j,
                    created_at=s.ago(days=250 - 10 * n),
                    updated_at=s.ago(days=20),
                )
            )
    s.create(
        Spot,
        name="Retired pricing",
        owner_email=owners[0].email,
        description="Last year's price sheets.",
        status="archived",
        created_at=s.ago(days=500),
        updated_at=s.ago(days=120),
    )
    live = [i for i in made if i.status == "published"]
    s.create(
        Play,
        name="Enterprise discovery to proposal",
        audience="account_executive",
        owner_email=owners[0].email,
        item_ids=[live[0].id, live[1].id],
        guidance="Open with ROI, close with the security whitepaper.",
        status="published",
        created_at=s.ago(days=90),
        updated_at=s.ago(days=9),
    )
    s.create(
        Play,
        name="Competitive takeout",
        audience="sdr",
        owner_email=owners[0].email,
        item_ids=[live[2].id, made[3].id],
        status="draft",
        created_at=s.ago(days=20),
        updated_at=s.ago(days=2),
    )
    s.create(
        Play,
        name="Customer proof",
        audience="customer_success",
        owner_email=owners[-1].email,
        item_ids=[live[-1].id],
        status="draft",
        created_at=s.ago(days=8),
        updated_at=s.ago(days=2),
    )
    for k, buyer in enumerate(pop.contacts[:6]):
        company = pop.company_of(buyer)
        if company is None:
            continue
        sent = [live[k % len(live)].id, live[(k + 1) % len(live)].id]
        views = (k * 3) % 5
        s.create(
            Pitch,
            sent_by=reps[k % len(reps)].email,
            recipient_email=buyer.email,
            recipient_name=buyer.name,
            company_name=company.name,
            subject=f"Follow-up for {company.name}",
            item_ids=sent,
            views=views,
            seconds_viewed=views * 70,
            last_viewed_at=s.ago(days=k) if views else None,
            created_at=s.ago(days=k + 3),
            updated_at=s.ago(days=k),
        )
    for k, (need, need_kind, state) in enumerate(
        (
            ("Healthcare case study", "case_study", "open"),
            ("Battlecard for the new entrant", "battlecard", "in_progress"),
            ("Pricing one-pager for EMEA", "one_pager", "fulfilled"),
        )
    ):
        s.create(
            ContentRequest,
            title=need,
            kind=need_kind,
            details="Asked for in two open deals this month.",
            requested_by=reps[k % len(reps)].email,
            due_date=today + dt.timedelta(days=14 + 7 * k),
            assignee_email=owners[0].email if state != "open" else None,
            status=state,
            item_id=made[1].id if state == "fulfilled" else None,
            created_at=s.ago(days=10 - k),
            updated_at=s.ago(days=3),
        )
