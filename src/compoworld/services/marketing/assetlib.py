"""Canvas DAM: the brand's digital asset library with metaproperties, rights, approvals and downloads.

Modeled on the Bynder API (and Brandfolder's): Media (assets) with
``metaproperties`` (select options or free text, some required), a
Workflow approval (draft → in_review → approved or rejected, then archived;
a reviewer cannot approve their own upload), Collections shared with users,
usage rights ("limited usage" with channels, territories and an expiry date,
as in Bynder's rights management and Brandfolder's Rights Management), Download
Requests (staff download approved assets at once, outside agencies and partners
wait for approval, and only for channels and countries a live usage right
covers), and Brand Guidelines pages published in versions. Only approved assets
leave the library, a submission needs every required metaproperty, and an
expired or revoked right covers nothing.
"""

from __future__ import annotations

import datetime as dt
from typing import Annotated, Any, Literal

from pydantic import Field, StringConstraints

from compoworld.engine.context import Ctx
from compoworld.engine.errors import Conflict, RuleViolation
from compoworld.engine.records import CREATED, Record
from compoworld.engine.service import Service, Transition
from compoworld.engine.state import SeedContext
from compoworld.engine.types import CompanyName, Country, Date, DateTime, Email, IdOf, Text, Title
from compoworld.services.kit.examples import first_example
from compoworld.services.kit.records import Created, Timestamped, Value

__all__ = ["service"]

service = Service(
    "assetlib",
    title="Canvas DAM",
    category="digital_asset_management",
    modeled_on="Bynder API (Media, Metaproperties, Collections, Workflow approvals, Download requests, Brand "
    "Guidelines) and Brandfolder Rights Management",
    description="The home company's brand asset library: logos, photos, videos and documents with their "
    "metadata, the approval workflow before use, usage rights with channels, territories and expiry, "
    "shared collections, download requests from staff and agencies, and the brand guidelines.",
)

AssetId = Annotated[str, IdOf("assetlib.asset")]
MetaId = Annotated[str, IdOf("assetlib.metaproperty")]
RightId = Annotated[str, IdOf("assetlib.usage_right")]
CollectionId = Annotated[str, IdOf("assetlib.collection")]
DownloadId = Annotated[str, IdOf("assetlib.download_request")]
GuidelineId = Annotated[str, IdOf("assetlib.guideline")]

MetaKey = Annotated[str, StringConstraints(pattern=r"^[a-z][a-z0-9_]{1,39}$")]
"""A metaproperty's key."""
MetaValue = Annotated[str, StringConstraints(min_length=1, max_length=120)]
"""A metaproperty value."""

AssetType = Literal["image", "video", "document", "logo", "audio"]
AssetStatus = Literal["draft", "in_review", "approved", "rejected", "archived"]
Channel = Literal["web", "social", "print", "email", "broadcast", "out_of_home"]
LicenseType = Literal["owned", "royalty_free", "rights_managed"]
RightStatus = Literal["active", "revoked"]
DownloadStatus = Literal["pending", "approved", "denied"]
Section = Literal["logo", "color", "typography", "imagery", "voice"]


class Metaproperty(Created):
    """A metadata field assets carry (Bynder metaproperty)."""

    id: MetaId
    key: MetaKey
    """Key (unique)."""
    label: Title
    """Label."""
    options: tuple[MetaValue, ...] = ()
    """Allowed values; empty: free text."""
    required: bool = False
    """Whether an asset needs it before review."""


class Asset(Timestamped):
    """A file in the library."""

    id: AssetId
    name: Title
    """The asset's name."""
    type: AssetType
    """image, video, document, logo or audio."""
    extension: Annotated[str, StringConstraints(pattern=r"^[a-z0-9]{2,5}$")]
    """File extension."""
    file_size_kb: Annotated[int, Field(ge=1)]
    """Size in KB."""
    uploaded_by: Email
    """The employee who uploaded it."""
    status: AssetStatus = "draft"
    """draft, in_review, approved, rejected or archived."""
    metaproperties: dict[MetaKey, MetaValue] = Field(default_factory=dict)
    """Metaproperty values by key."""
    tags: tuple[Annotated[str, StringConstraints(pattern=r"^[a-z0-9][a-z0-9-]{0,39}$")], ...] = ()
    """Keywords."""
    reviewer_email: Email | None = None
    """Who approved or rejected it."""
    review_comment: Text = ""
    """The reviewer's comment."""


class UsageRight(Created):
    """Where and until when an asset may be used."""

    id: RightId
    asset_id: AssetId
    """The asset."""
    licensor: CompanyName
    """Who granted it (the home company for owned work, else the agency or stock library)."""
    license_type: LicenseType = "owned"
    """owned, royalty_free or rights_managed."""
    channels: tuple[Channel, ...]
    """Channels it covers."""
    territories: tuple[Country, ...] = ()
    """Countries it covers; empty: worldwide."""
    starts_on: Date
    """First day."""
    expires_on: Date | None = None
    """Last day; none: perpetual (rights-managed rights must expire)."""
    status: RightStatus = "active"
    """active or revoked."""


class Collection(Timestamped):
    """A curated set of assets shared with people."""

    id: CollectionId
    name: Title
    """Name."""
    owner_email: Email
    """The employee who owns it."""
    asset_ids: tuple[AssetId, ...] = ()
    """Assets in it."""
    shared_with: tuple[Email, ...] = ()
    """People it is shared with (staff or agency contacts)."""


class DownloadRequest(Record):
    """A request to download an asset for a channel and country."""

    id: DownloadId
    asset_id: AssetId
    """The asset."""
    requester_email: Email
    """Who asks (employee, or agency/partner contact)."""
    channel: Channel
    """Where it will be used."""
    country: Country
    """Where it will run."""
    purpose: Text = ""
    """What it is for."""
    status: DownloadStatus = "pending"
    """pending (external requests), approved or denied."""
    decided_by: Email | None = None
    """Who decided."""
    created_at: Annotated[DateTime, CREATED]
    """When it was asked."""


class Guideline(Timestamped):
    """A page of the brand guidelines."""

    id: GuidelineId
    title: Title
    """Page title."""
    section: Section
    """logo, color, typography, imagery or voice."""
    body: Text
    """The guidance."""
    version: int = 0
    """Times published (0: never); an edit unpublishes, and publishing again raises it."""
    published: bool = False
    """Whether it is live in the brand portal."""


class UsageCheck(Value):
    """Whether an asset may be used in a channel and country today."""

    asset_id: AssetId
    """The asset."""
    allowed: bool
    """Whether it may be used."""
    right_id: RightId | None
    """The right that covers it."""
    reason: str
    """Why not, or which right allows it."""


# -- rules ------------------------------------------------------------------------------------


def _staff(ctx: Ctx, email: str | None, field: str) -> None:
    if email is not None and email not in {p.email for p in ctx.population.employees}:
        raise RuleViolation(f"{email} is not a member of the library", field=field, hint="use an employee's e-mail")


def _covering(ctx: Ctx, asset_id: str, channel: str, country: str) -> UsageRight | None:
    today = ctx.today()
    for r in ctx.where(UsageRight, asset_id=asset_id, status="active"):
        live = r.starts_on <= today and (r.expires_on is None or r.expires_on >= today)
        if live and channel in r.channels and (not r.territories or country in r.territories):
            return r
    return None


def _guard_collection(ctx: Ctx, new: Any, old: Any) -> None:
    _staff(ctx, new.owner_email, "owner_email")


def _guard_guideline(ctx: Ctx, new: Any, old: Any) -> None:
    if old is not None and old.published and new.published and (new.body != old.body or new.title != old.title):
        ctx.update(new, published=False)


assets = service.resource(
    Asset,
    name="asset",
    plural="assets",
    prefix="ast",
    create=False,
    filters=("type", "status", "uploaded_by", "reviewer_email"),
    search=("name",),
    update=("name", "tags"),
    delete=False,
    transitions={
        "archive": Transition("status", ("approved", "rejected"), "archived", "archive the asset"),
    },
)
metaproperties = service.resource(
    Metaproperty, name="metaproperty", plural="metaproperties", prefix="mp", create=False, get=False, delete=False
)
rights = service.resource(
    UsageRight,
    name="usage_right",
    plural="usage_rights",
    prefix="ur",
    create=False,
    get=False,
    filters=("asset_id", "status", "license_type"),
    search=("licensor",),
    delete=False,
    transitions={"revoke": Transition("status", ("active",), "revoked", "revoke the usage right", destructive=True)},
    title="usage right",
)
collections = service.resource(
    Collection,
    name="collection",
    plural="collections",
    prefix="col",
    create=("name", "owner_email"),
    filters=("owner_email",),
    search=("name",),
    update=("name",),
    guard_create=_guard_collection,
)
downloads = service.resource(
    DownloadRequest,
    name="download_request",
    plural="download_requests",
    prefix="dl",
    create=False,
    get=False,
    filters=("asset_id", "requester_email", "status", "channel"),
    delete=False,
    title="download request",
)
guidelines = service.resource(
    Guideline,
    name="guideline",
    plural="guidelines",
    prefix="gl",
    create=("title", "section", "body"),
    get=False,
    filters=("section", "published"),
    search=("title", "body"),
    update=("title", "body"),
    delete=False,
    guard_update=_guard_guideline,
    title="brand guideline page",
)


# -- domain tools -----------------------------------------------------------------------------


def _check_meta(ctx: Ctx, key: str, value: str) -> None:
    mp = ctx.first(Metaproperty, key=key)
    if mp is None:
        raise RuleViolation(f"no metaproperty {key!r}", field="key", hint="list metaproperties")
    if mp.options and value not in mp.options:
        raise RuleViolation(
            f"{value!r} is not an option of {key}", field="value", hint=f"one of {', '.join(mp.options)}"
        )


def _example_upload(ctx: Ctx) -> dict[str, Any] | None:
    return {
        "name": "Spring campaign hero",
        "type": "image",
        "extension": "jpg",
        "file_size_kb": 2400,
        "uploaded_by": ctx.population.employees[0].email,
    }


@service.tool(intent="upload the asset", write=True, example=_example_upload)
def upload_asset(
    ctx: Ctx,
    name: Title,
    type: AssetType,
    extension: Annotated[str, StringConstraints(pattern=r"^[a-z0-9]{2,5}$")],
    file_size_kb: Annotated[int, Field(ge=1, le=10_000_000)],
    uploaded_by: Email,
) -> Asset:
    """Upload a file as a draft asset; the uploader must be an employee.

    Args:
        name: The asset's name.
        type: image, video, document, logo or audio.
        extension: File extension (jpg, png, mp4, pdf, svg).
        file_size_kb: Size in KB.
        uploaded_by: The uploading employee.
    """
    _staff(ctx, uploaded_by, "uploaded_by")
    return ctx.create(
        Asset, name=name, type=type, extension=extension, file_size_kb=file_size_kb, uploaded_by=uploaded_by
    )


@service.tool(
    intent="set the asset's metaproperty",
    write=True,
    example=first_example(Asset, "asset_id", where={"status": "draft"}, key="campaign", value="Spring launch"),
)
def set_metaproperty(ctx: Ctx, asset_id: AssetId, key: MetaKey, value: MetaValue) -> Asset:
    """Set a metaproperty on an asset (a listed option for select metaproperties); archived assets are frozen.

    Args:
        asset_id: The asset.
        key: The metaproperty's key.
        value: Its value.
    """
    a = ctx.get(Asset, asset_id, field="asset_id")
    if a.status == "archived":
        raise Conflict(f"asset {a.id} is archived", field="asset_id", hint="archived assets cannot change")
    _check_meta(ctx, key, value)
    return ctx.update(a, metaproperties={**a.metaproperties, key: value})


@service.tool(
    intent="create the metaproperty",
    write=True,
    example=lambda ctx: {"key": "season", "label": "Season", "options": ["spring", "autumn"]},
)
def create_metaproperty(
    ctx: Ctx, key: MetaKey, label: Title, options: list[MetaValue] | None = None, required: bool = False
) -> Metaproperty:
    """Add a metaproperty (select with options, or free text); keys are unique.

    Args:
        key: The key.
        label: The label.
        options: Allowed values; omit for free text.
        required: Whether assets need it before review.
    """
    if ctx.first(Metaproperty, key=key):
        raise Conflict(f"metaproperty {key!r} exists", field="key", hint="pick another key")
    return ctx.create(
        Metaproperty, key=key, label=label, options=tuple(dict.fromkeys(options or ())), required=required
    )


@service.tool(
    intent="submit the asset for approval",
    write=True,
    example=first_example(
        Asset,
        "asset_id",
        match=lambda c, a: (
            a.status in ("draft", "rejected")
            and all(m.key in a.metaproperties for m in c.where(Metaproperty, required=True))
        ),
    ),
)
def submit_for_review(ctx: Ctx, asset_id: AssetId) -> Asset:
    """Send a draft or rejected asset to review; every required metaproperty must be set.

    Args:
        asset_id: The asset.
    """
    a = ctx.get(Asset, asset_id, field="asset_id")
    if a.status not in ("draft", "rejected"):
        raise Conflict(f"asset {a.id} is {a.status}", field="asset_id", hint="only drafts and rejected assets")
    missing = [m.key for m in ctx.where(Metaproperty, required=True) if m.key not in a.metaproperties]
    if missing:
        raise RuleViolation(f"missing required metaproperties: {', '.join(missing)}", field="asset_id", hint="set them")
    return ctx.update(a, status="in_review", reviewer_email=None, review_comment="")


def _review_example(ctx: Ctx) -> dict[str, Any] | None:
    a = ctx.first(Asset, status="in_review")
    if a is None:
        return None
    who = next(p.email for p in ctx.population.employees if p.email != a.uploaded_by)
    return {"asset_id": a.id, "reviewer_email": who}


def _review(ctx: Ctx, asset_id: str, reviewer_email: str) -> Asset:
    a = ctx.get(Asset, asset_id, field="asset_id")
    if a.status != "in_review":
        raise Conflict(f"asset {a.id} is {a.status}", field="asset_id", hint="submit it for review first")
    _staff(ctx, reviewer_email, "reviewer_email")
    if reviewer_email == a.uploaded_by:
        raise RuleViolation(
            "the uploader cannot review their own asset", field="reviewer_email", hint="ask a colleague"
        )
    return a


@service.tool(intent="approve the asset", write=True, example=_review_example)
def approve_asset(ctx: Ctx, asset_id: AssetId, reviewer_email: Email, comment: Text = "") -> Asset:
    """Approve an asset in review; the reviewer must be another employee than the uploader.

    Args:
        asset_id: The asset.
        reviewer_email: The approving employee.
        comment: A comment.
    """
    a = _review(ctx, asset_id, reviewer_email)
    return ctx.update(a, status="approved", reviewer_email=reviewer_email, review_comment=comment)


@service.tool(
    intent="reject the asset",
    write=True,
    example=lambda ctx: (lambda e: e and e | {"comment": "Logo clear space too small."})(_review_example(ctx)),
)
def reject_asset(ctx: Ctx, asset_id: AssetId, reviewer_email: Email, comment: Text) -> Asset:
    """Reject an asset in review with a comment saying what to fix.

    Args:
        asset_id: The asset.
        reviewer_email: The reviewing employee.
        comment: What to fix (required).
    """
    a = _review(ctx, asset_id, reviewer_email)
    if not comment.strip():
        raise RuleViolation("a rejection needs a comment", field="comment", hint="say what to fix")
    return ctx.update(a, status="rejected", reviewer_email=reviewer_email, review_comment=comment.strip())


def _example_right(ctx: Ctx) -> dict[str, Any] | None:
    a = ctx.first(Asset, status="approved")
    return (
        None
        if a is None
        else {
            "asset_id": a.id,
            "licensor": ctx.population.home.name,
            "channels": ["web", "social"],
            "starts_on": ctx.today().isoformat(),
        }
    )


@service.tool(intent="add a usage right to the asset", write=True, example=_example_right)
def add_usage_right(
    ctx: Ctx,
    asset_id: AssetId,
    licensor: CompanyName,
    channels: Annotated[list[Channel], Field(min_length=1, max_length=6)],
    starts_on: Date,
    license_type: LicenseType = "owned",
    territories: list[Country] | None = None,
    expires_on: Date | None = None,
) -> UsageRight:
    """Record where and until when an asset may be used; rights-managed licences must expire.

    Args:
        asset_id: The asset.
        licensor: Who granted the right.
        channels: Channels covered.
        starts_on: First day.
        license_type: owned, royalty_free or rights_managed.
        territories: Countries covered; omit for worldwide.
        expires_on: Last day (after starts_on).
    """
    a = ctx.get(Asset, asset_id, field="asset_id")
    if a.status == "archived":
        raise Conflict(f"asset {a.id} is archived", field="asset_id", hint="archived assets get no rights")
    if expires_on is not None and expires_on <= starts_on:
        raise RuleViolation("expires_on must be after starts_on", field="expires_on", hint="pick a later date")
    if license_type == "rights_managed" and expires_on is None:
        raise RuleViolation("a rights-managed licence needs an expiry", field="expires_on", hint="give the end date")
    return ctx.create(
        UsageRight,
        asset_id=a.id,
        licensor=licensor,
        license_type=license_type,
        channels=tuple(dict.fromkeys(channels)),
        territories=tuple(dict.fromkeys(territories or ())),
        starts_on=starts_on,
        expires_on=expires_on,
    )


@service.tool(
    intent="check whether the asset may be used",
    example=first_example(Asset, "asset_id", where={"status": "approved"}, channel="web", country="US"),
)
def check_usage(ctx: Ctx, asset_id: AssetId, channel: Channel, country: Country) -> UsageCheck:
    """Whether an asset is approved and a live usage right covers a channel and country today.

    Args:
        asset_id: The asset.
        channel: Where it will be used.
        country: Where it will run.
    """
    a = ctx.get(Asset, asset_id, field="asset_id")
    if a.status != "approved":
        return UsageCheck(asset_id=a.id, allowed=False, right_id=None, reason=f"asset is {a.status}")
    r = _covering(ctx, a.id, channel, country)
    if r is None:
        return UsageCheck(
            asset_id=a.id, allowed=False, right_id=None, reason=f"no live right covers {channel} in {country}"
        )
    return UsageCheck(
        asset_id=a.id, allowed=True, right_id=r.id, reason=f"covered by {r.license_type} right from {r.licensor}"
    )


def _example_download(ctx: Ctx) -> dict[str, Any] | None:
    for a in ctx.where(Asset, status="approved"):
        for r in ctx.where(UsageRight, asset_id=a.id, status="active"):
            if _covering(ctx, a.id, r.channels[0], r.territories[0] if r.territories else "US"):
                c = ctx.population.contacts[0].email
                return {
                    "asset_id": a.id,
                    "requester_email": c,
                    "channel": r.channels[0],
                    "country": r.territories[0] if r.territories else "US",
                }
    return None


@service.tool(intent="request a download of the asset", write=True, example=_example_download)
def request_download(
    ctx: Ctx, asset_id: AssetId, requester_email: Email, channel: Channel, country: Country, purpose: Text = ""
) -> DownloadRequest:
    """Ask to download an approved asset for a channel and country that a live usage right covers.

    Staff are approved at once; outside requesters wait for an employee's decision.

    Args:
        asset_id: The asset.
        requester_email: Who asks.
        channel: Where it will be used.
        country: Where it will run.
        purpose: What it is for.
    """
    a = ctx.get(Asset, asset_id, field="asset_id")
    if a.status != "approved":
        raise RuleViolation(f"asset {a.id} is {a.status}", field="asset_id", hint="only approved assets are downloaded")
    if _covering(ctx, a.id, channel, country) is None:
        raise RuleViolation(f"no live usage right covers {channel} in {country}", field="channel", hint="add a right")
    staff = requester_email in {p.email for p in ctx.population.employees}
    return ctx.create(
        DownloadRequest,
        asset_id=a.id,
        requester_email=requester_email,
        channel=channel,
        country=country,
        purpose=purpose,
        status="approved" if staff else "pending",
        decided_by=requester_email if staff else None,
    )


def _decide_example(ctx: Ctx) -> dict[str, Any] | None:
    d = ctx.first(DownloadRequest, status="pending")
    return None if d is None else {"download_request_id": d.id, "decided_by": ctx.population.employees[0].email}


@service.tool(intent="decide the download request", write=True, example=_decide_example)
def decide_download(
    ctx: Ctx, download_request_id: DownloadId, decided_by: Email, approve: bool = True
) -> DownloadRequest:
    """Approve or deny a pending download request; an approval needs the right to still cover it.

    Args:
        download_request_id: The request.
        decided_by: The deciding employee.
        approve: True to approve, False to deny.
    """
    d = ctx.get(DownloadRequest, download_request_id, field="download_request_id")
    if d.status != "pending":
        raise Conflict(f"request {d.id} is {d.status}", field="download_request_id", hint="already decided")
    _staff(ctx, decided_by, "decided_by")
    if approve and (
        ctx.get(Asset, d.asset_id).status != "approved" or _covering(ctx, d.asset_id, d.channel, d.country) is None
    ):
        raise RuleViolation("the asset is no longer approved or covered", field="download_request_id", hint="deny it")
    return ctx.update(d, status="approved" if approve else "denied", decided_by=decided_by)


@service.tool(
    intent="add the asset to the collection",
    write=True,
    example=lambda ctx: next(
        (
            {"collection_id": c.id, "asset_id": a.id}
            for c in ctx.scan(Collection)
            for a in ctx.where(Asset, status="approved")
            if a.id not in c.asset_ids
        ),
        None,
    ),
)
def add_to_collection(ctx: Ctx, collection_id: CollectionId, asset_id: AssetId) -> Collection:
    """Add an asset that is not archived to a collection.

    Args:
        collection_id: The collection.
        asset_id: The asset.
    """
    c = ctx.get(Collection, collection_id, field="collection_id")
    a = ctx.get(Asset, asset_id, field="asset_id")
    if a.status == "archived":
        raise RuleViolation(f"asset {a.id} is archived", field="asset_id", hint="restore a live asset")
    if a.id in c.asset_ids:
        raise Conflict(f"{a.id} is already in {c.name!r}", field="asset_id", hint="nothing to do")
    return ctx.update(c, asset_ids=(*c.asset_ids, a.id))


@service.tool(
    intent="share the collection",
    write=True,
    example=first_example(Collection, "collection_id", emails=["agency@example.org"]),
)
def share_collection(
    ctx: Ctx, collection_id: CollectionId, emails: Annotated[list[Email], Field(min_length=1, max_length=25)]
) -> Collection:
    """Share a collection with people (staff or agency contacts); its owner needs no share.

    Args:
        collection_id: The collection.
        emails: Who to share with.
    """
    c = ctx.get(Collection, collection_id, field="collection_id")
    if c.owner_email in emails:
        raise RuleViolation("the owner already has access", field="emails", hint="leave the owner out")
    return ctx.update(c, shared_with=tuple(dict.fromkeys((*c.shared_with, *emails))))


@service.tool(
    intent="publish the guideline page",
    write=True,
    example=first_example(Guideline, "guideline_id", where={"published": False}),
)
def publish_guideline(ctx: Ctx, guideline_id: GuidelineId) -> Guideline:
    """Publish a draft or edited guideline page; republishing raises its version.

    Args:
        guideline_id: The page.
    """
    g = ctx.get(Guideline, guideline_id, field="guideline_id")
    if g.published:
        raise Conflict(f"{g.title!r} is already published", field="guideline_id", hint="edit it first")
    if not g.body.strip():
        raise RuleViolation("an empty page cannot be published", field="guideline_id", hint="write the body")
    return ctx.update(g, published=True, version=g.version + 1)


# -- seed -------------------------------------------------------------------------------------


@service.seeder
def seed(s: SeedContext) -> None:
    """Metaproperties, staff uploads in every workflow state, rights live and expired, collections, requests, guidelines."""
    pop = s.population
    home = pop.home
    mkt = pop.staff("Marketing", fallback=4)
    s.create(Metaproperty, key="campaign", label="Campaign", created_at=s.ago(days=400))
    s.create(
        Metaproperty,
        key="brand",
        label="Brand",
        options=(home.name, f"{home.name} Labs"),
        required=True,
        created_at=s.ago(days=400),
    )
    s.create(Metaproperty, key="usage", label="Usage", options=("internal", "external"), created_at=s.ago(days=400))
    plan: tuple[tuple[str, AssetType, str, AssetStatus], ...] = (
        ("Primary logo", "logo", "svg", "approved"),
        ("Logo reversed", "logo", "svg", "approved"),
        ("Team offsite photo", "image", "jpg", "approved"),
        ("Product hero shot", "image", "png", "approved"),
        ("Stock: city skyline", "image", "jpg", "approved"),
        ("Brand film 2026", "video", "mp4", "in_review"),
        ("Sales one-pager", "document", "pdf", "in_review"),
        ("Event banner draft", "image", "png", "draft"),
        ("Podcast jingle", "audio", "mp3", "rejected"),
        ("Old logo 2019", "logo", "png", "archived"),
    )
    made: list[Asset] = []
    for k, (name, kind, ext, status) in enumerate(plan):
        up = mkt[k % len(mkt)].email
        reviewer = mkt[(k + 1) % len(mkt)].email if status in ("approved", "rejected", "archived") else None
        made.append(
            s.create(
                Asset,
                name=name,
                type=kind,
                extension=ext,
                file_size_kb=300 + 700 * k,
                uploaded_by=up,
                status=status,
                metaproperties={"brand": home.name} | ({"usage": "external"} if k % 2 == 0 else {})
                if status != "draft"
                else {},
                tags=("brand",) if kind == "logo" else (),
                reviewer_email=reviewer,
                review_comment="Audio levels clip at 0:12." if status == "rejected" else "",
                created_at=s.ago(days=200 - 15 * k),
                updated_at=s.ago(days=10),
            )
        )
    today = s.now.date()
    for a in made[:4]:
        s.create(
            UsageRight,
            asset_id=a.id,
            licensor=home.name,
            channels=("web", "social", "print", "email"),
            starts_on=today - dt.timedelta(days=300),
            created_at=s.ago(days=300),
        )
    stock = made[4]
    agency = pop.customers[0].name
    s.create(
        UsageRight,
        asset_id=stock.id,
        licensor=agency,
        license_type="rights_managed",
        channels=("web",),
        territories=("US", "CA"),
        starts_on=today - dt.timedelta(days=100),
        expires_on=today + dt.timedelta(days=60),
        created_at=s.ago(days=100),
    )
    s.create(
        UsageRight,
        asset_id=stock.id,
        licensor=agency,
        license_type="rights_managed",
        channels=("print",),
        territories=("US",),
        starts_on=today - dt.timedelta(days=400),
        expires_on=today - dt.timedelta(days=35),
        created_at=s.ago(days=400),
    )
    s.create(
        UsageRight,
        asset_id=made[2].id,
        licensor=home.name,
        channels=("broadcast",),
        starts_on=today - dt.timedelta(days=50),
        status="revoked",
        created_at=s.ago(days=50),
    )
    s.create(
        Collection,
        name="Press kit",
        owner_email=mkt[0].email,
        asset_ids=(made[0].id, made[1].id, made[3].id),
        shared_with=tuple(p.email for p in pop.contacts[:2]),
        created_at=s.ago(days=90),
        updated_at=s.ago(days=9),
    )
    s.create(
        Collection,
        name="Social templates",
        owner_email=mkt[-1].email,
        asset_ids=(made[2].id,),
        created_at=s.ago(days=40),
        updated_at=s.ago(days=4),
    )
    for k, (a, who, ch, country, dl_status) in enumerate(
        (
            (made[0], pop.contacts[0].email, "print", "US", "pending"),
            (made[3], pop.contacts[1].email, "social", "US", "approved"),
            (made[2], pop.employees[2].email, "web", "US", "approved"),
            (stock, pop.contacts[2].email, "web", "US", "denied"),
        )
    ):
        s.create(
            DownloadRequest,
            asset_id=a.id,
            requester_email=who,
            channel=ch,
            country=country,
            status=dl_status,
            decided_by=None if dl_status == "pending" else mkt[0].email,
            purpose="Partner co-marketing",
            created_at=s.ago(days=3 + k),
        )
    for title, section, body, published, version in (
        ("Logo usage", "logo", "Keep clear space equal to the cap height; never stretch or recolor the logo.", True, 3),
        ("Color palette", "color", "Primary ink #1A2B3C, accent #FF6B35; text on accent must be white.", True, 2),
        ("Typography", "typography", "Headlines in Inter Bold, body in Inter Regular 16px.", True, 1),
        ("Voice and tone", "voice", "Plain, warm and direct. Avoid jargon.", False, 0),
    ):
        s.create(
            Guideline,
            title=title,
            section=section,
            body=body,
            published=published,
            version=version,
            created_at=s.ago(days=300),
            updated_at=s.ago(days=30),
        )
