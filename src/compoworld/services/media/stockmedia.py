"""Picturebank: stock images and footage the company licenses, lightboxes, subscriptions and downloads.

Modeled on the Shutterstock API v2: images and videos (``/v2/images``,
``/v2/videos``) by contributors, with keywords and an editorial flag;
collections (lightboxes) that staff keep and fill with items; subscriptions
(``/v2/user/subscriptions``) for one media type with a license tier
(standard or enhanced), an allotment and the downloads left, that expire;
and licenses (``POST /v2/images/licenses``) that spend one download of a
subscription for a size (small, medium, huge, vector; sd, hd, 4k) and carry
the purchase order and client metadata the account requires. Editorial
content is licensed only under an editorial license, an enhanced license
needs an enhanced subscription, a license spends a download of an active,
unexpired subscription of the asset's media type, and downloading an asset
again under its license (``/downloads``) costs nothing.
"""

from __future__ import annotations

import datetime as dt
from typing import Annotated, Any, Literal

from pydantic import Field, StringConstraints

from compoworld.engine.context import Ctx
from compoworld.engine.errors import Conflict, RuleViolation
from compoworld.engine.service import Service, Transition
from compoworld.engine.state import SeedContext
from compoworld.engine.types import Country, Date, Email, IdOf, Title, Url
from compoworld.services.kit.examples import first_example
from compoworld.services.kit.lists import KeptList, ListRecord, require_employee
from compoworld.services.kit.records import Created, Value

__all__ = ["service"]

service = Service(
    "stockmedia",
    title="Picturebank",
    category="stock_media",
    modeled_on="Shutterstock API v2 (images and videos, contributors, collections/lightboxes, subscriptions "
    "with allotments, licenses with size and license type, redownloads)",
    description="Stock photos and footage for the company's marketing: searchable images and videos by "
    "contributor, lightboxes staff keep, the team's subscriptions with their downloads left, and the licenses "
    "bought with size, license type and purchase order.",
)

ContributorId = Annotated[str, IdOf("stockmedia.contributor")]
AssetId = Annotated[str, IdOf("stockmedia.asset")]
CollectionId = Annotated[str, IdOf("stockmedia.collection")]
ItemId = Annotated[str, IdOf("stockmedia.collection_item")]
SubscriptionId = Annotated[str, IdOf("stockmedia.subscription")]
LicenseId = Annotated[str, IdOf("stockmedia.license")]

MediaType = Literal["image", "video"]
LicenseType = Literal["standard", "enhanced", "editorial"]
Tier = Literal["standard", "enhanced"]
Size = Literal["small", "medium", "huge", "vector", "sd", "hd", "4k"]
SubStatus = Literal["active", "expired", "cancelled"]
Keyword = Annotated[str, StringConstraints(pattern=r"^[a-z][a-z -]{1,39}$")]
"""A lower-case keyword."""

SIZES: dict[str, tuple[str, ...]] = {"image": ("small", "medium", "huge", "vector"), "video": ("sd", "hd", "4k")}


class Contributor(Created):
    """A photographer or videographer whose work is sold."""

    id: ContributorId
    display_name: Title
    """Name shown on their portfolio."""
    country: Country
    """Where they work."""
    portfolio_url: Url
    """Their public portfolio."""


class Asset(Created):
    """An image or a video clip."""

    id: AssetId
    media_type: MediaType
    """image or video."""
    description: Title
    """What it shows."""
    contributor_id: ContributorId
    """Who made it."""
    keywords: tuple[Keyword, ...] = ()
    """Search keywords."""
    is_editorial: bool = False
    """Editorial content (news, events, brands): only an editorial license."""
    width: Annotated[int, Field(ge=1)]
    """Width in pixels."""
    height: Annotated[int, Field(ge=1)]
    """Height in pixels."""
    duration_s: Annotated[int, Field(ge=0)] = 0
    """Clip length (videos)."""
    preview_url: Url
    """Watermarked preview."""


class Collection(ListRecord):
    """A lightbox a member of staff keeps (archived lightboxes are frozen)."""

    id: CollectionId
    shared: bool = False
    """Whether teammates can see it."""


class CollectionItem(Created):
    """An asset in a lightbox."""

    id: ItemId
    collection_id: CollectionId
    """The lightbox."""
    asset_id: AssetId
    """The asset."""


class Subscription(Created):
    """A plan of downloads for one media type."""

    id: SubscriptionId
    name: Title
    """Plan name."""
    media_type: MediaType
    """What it licenses."""
    tier: Tier = "standard"
    """standard or enhanced licenses."""
    allotment: Annotated[int, Field(ge=1)]
    """Downloads per period."""
    downloads_left: Annotated[int, Field(ge=0)]
    """Downloads left this period."""
    user_email: Email
    """The employee whose seat it is."""
    expires_on: Date
    """Last day of the period."""
    status: SubStatus = "active"
    """active, expired or cancelled."""
    requires_purchase_order: bool = False
    """Whether each license must carry a purchase order."""


class License(Created):
    """A license bought for an asset."""

    id: LicenseId
    asset_id: AssetId
    """The asset."""
    subscription_id: SubscriptionId
    """The subscription it was paid with."""
    license_type: LicenseType
    """standard, enhanced or editorial."""
    size: Size
    """The size licensed."""
    licensee_email: Email
    """The employee it was licensed for."""
    purchase_order: str = ""
    """Purchase order number."""
    client: str = ""
    """The client or project it is for."""
    downloads: int = 1
    """How many times it was downloaded."""
    download_url: Url
    """Where the full file is."""


class Usage(Value):
    """How a subscription is used."""

    subscription_id: SubscriptionId
    """The subscription."""
    used: int
    """Downloads spent this period."""
    downloads_left: int
    """Left."""
    days_left: int
    """Days to expiry (0 when past)."""
    by_licensee: dict[str, int]
    """Licenses per employee."""


# -- rules ------------------------------------------------------------------------------------


LIGHTBOXES = KeptList(Collection, noun="lightbox", field="collection_id", frozen_hint="create a new lightbox")


contributors = service.resource(
    Contributor,
    name="contributor",
    plural="contributors",
    prefix="ctb",
    create=False,
    filters=("country",),
    search=("display_name",),
    delete=False,
)
assets = service.resource(
    Asset,
    name="asset",
    plural="assets",
    prefix="sm",
    create=False,
    filters=("media_type", "contributor_id", "is_editorial"),
    search=("description",),
    delete=False,
)
collections = LIGHTBOXES.declare(
    service,
    name="collection",
    plural="collections",
    prefix="lbx",
    title="lightbox",
    children=((CollectionItem, "collection_id"),),
)
items = service.resource(
    CollectionItem,
    name="collection_item",
    plural="collection_items",
    prefix="lbi",
    create=False,
    get=False,
    filters=("collection_id", "asset_id"),
    guard_delete=LIGHTBOXES.entry_guard("collection_id", "collection_item_id"),
    title="lightbox item",
)
subscriptions = service.resource(
    Subscription,
    name="subscription",
    plural="subscriptions",
    prefix="sub",
    create=False,
    filters=("user_email", "status", "media_type", "tier"),
    delete=False,
    transitions={
        "cancel": Transition("status", ("active",), "cancelled", "cancel the subscription", destructive=True),
    },
)
licenses = service.resource(
    License,
    name="license",
    plural="licenses",
    prefix="lic",
    create=False,
    filters=("asset_id", "subscription_id", "licensee_email", "license_type", "purchase_order"),
    search=("client",),
    delete=False,
)


# -- domain tools -----------------------------------------------------------------------------


def _example_search(ctx: Ctx) -> dict[str, Any] | None:
    return {"keyword": "office", "media_type": "image"}


@service.tool(intent="search stock media by keyword", example=_example_search)
def search_assets(
    ctx: Ctx, keyword: Keyword, media_type: MediaType | None = None, editorial: bool | None = None
) -> list[Asset]:
    """Images or videos whose keywords or description contain the word, newest first, at most 20.

    Args:
        keyword: A search word.
        media_type: Only images or only videos.
        editorial: Only editorial (True) or only commercial (False) content.
    """
    word = keyword.strip().lower()
    found = [
        a
        for a in ctx.scan(Asset)
        if (word in a.keywords or word in a.description.lower())
        and (media_type is None or a.media_type == media_type)
        and (editorial is None or a.is_editorial == editorial)
    ]
    return sorted(found, key=lambda a: a.created_at, reverse=True)[:20]


@service.tool(
    intent="add the asset to the lightbox",
    write=True,
    example=first_example(Collection, "collection_id", asset_id="sm_000009"),
)
def add_to_collection(ctx: Ctx, collection_id: CollectionId, asset_id: AssetId) -> CollectionItem:
    """Put an asset in a lightbox; an asset is in a lightbox once.

    Args:
        collection_id: The lightbox.
        asset_id: The asset.
    """
    box = LIGHTBOXES.open(ctx, collection_id)
    asset = ctx.get(Asset, asset_id, field="asset_id")
    if ctx.where(CollectionItem, collection_id=box.id, asset_id=asset.id):
        raise Conflict(f"{asset.id} is already in {box.name!r}", field="asset_id", hint="nothing to add")
    if len(ctx.where(CollectionItem, collection_id=box.id)) >= 100:
        raise RuleViolation("a lightbox holds at most 100 items", field="collection_id", hint="start another")
    return ctx.create(CollectionItem, collection_id=box.id, asset_id=asset.id)


def _usable(ctx: Ctx, sub: Subscription, field: str) -> None:
    if sub.status != "active" or sub.expires_on < ctx.today():
        raise RuleViolation(
            f"subscription {sub.id} is {sub.status if sub.status != 'active' else 'past its expiry'}",
            field=field,
            hint="use an active subscription or renew this one",
        )


def _example_license(ctx: Ctx) -> dict[str, Any] | None:
    for sub in ctx.where(Subscription, status="active", media_type="image"):
        if sub.downloads_left and not sub.requires_purchase_order and sub.expires_on >= ctx.today():
            for a in ctx.where(Asset, media_type="image", is_editorial=False):
                if not ctx.where(License, asset_id=a.id):
                    return {
                        "asset_id": a.id,
                        "subscription_id": sub.id,
                        "size": "huge",
                        "licensee_email": sub.user_email,
                        "client": "Spring campaign",
                    }
    return None


@service.tool(intent="license the stock asset", write=True, example=_example_license)
def license_asset(
    ctx: Ctx,
    asset_id: AssetId,
    subscription_id: SubscriptionId,
    size: Size,
    licensee_email: Email,
    license_type: LicenseType = "standard",
    purchase_order: Annotated[str, StringConstraints(max_length=40)] = "",
    client: Annotated[str, StringConstraints(max_length=120)] = "",
) -> License:
    """License an asset with one download of a subscription.

    Args:
        asset_id: The image or video.
        subscription_id: An active subscription of the asset's media type with downloads left.
        size: small, medium, huge or vector for images; sd, hd or 4k for videos.
        licensee_email: The employee the license is for.
        license_type: standard, enhanced (needs an enhanced subscription) or editorial (for editorial content).
        purchase_order: Purchase order number (required by some subscriptions).
        client: The client or project.
    """
    asset = ctx.get(Asset, asset_id, field="asset_id")
    sub = ctx.get(Subscription, subscription_id, field="subscription_id")
    require_employee(ctx, licensee_email, field="licensee_email", hint="licenses are bought for staff")
    _usable(ctx, sub, "subscription_id")
    if sub.media_type != asset.media_type:
        raise RuleViolation(
            f"subscription {sub.id} licenses {sub.media_type}s",
            field="subscription_id",
            hint=f"use a {asset.media_type} subscription",
        )
    if size not in SIZES[asset.media_type]:
        raise RuleViolation(
            f"{asset.media_type}s come in {', '.join(SIZES[asset.media_type])}",
            field="size",
            hint="pick one of those sizes",
        )
    if asset.is_editorial != (license_type == "editorial"):
        raise RuleViolation(
            "editorial content takes an editorial license only"
            if asset.is_editorial
            else "an editorial license is only for editorial content",
            field="license_type",
            hint="use license_type editorial" if asset.is_editorial else "use standard or enhanced",
        )
    if license_type == "enhanced" and sub.tier != "enhanced":
        raise RuleViolation(
            f"subscription {sub.id} is standard tier", field="license_type", hint="use an enhanced subscription"
        )
    if sub.requires_purchase_order and not purchase_order.strip():
        raise RuleViolation(
            "this subscription requires a purchase order", field="purchase_order", hint="give the purchase order number"
        )
    if sub.downloads_left < 1:
        raise RuleViolation(
            f"subscription {sub.id} has no downloads left",
            field="subscription_id",
            hint="use another subscription or wait for the next period",
        )
    ctx.update(sub, downloads_left=sub.downloads_left - 1)
    lic = ctx.create(
        License,
        asset_id=asset.id,
        subscription_id=sub.id,
        license_type=license_type,
        size=size,
        licensee_email=licensee_email,
        purchase_order=purchase_order.strip(),
        client=client.strip(),
        download_url="https://download.picturebank.example/pending",
    )
    return ctx.update(lic, download_url=f"https://download.picturebank.example/{lic.id}/{asset.id}-{size}")


@service.tool(intent="download the licensed asset again", write=True, example=first_example(License, "license_id"))
def redownload(ctx: Ctx, license_id: LicenseId) -> License:
    """Download a licensed asset again at no cost (the subscription keeps its downloads).

    Args:
        license_id: The license.
    """
    lic = ctx.get(License, license_id, field="license_id")
    return ctx.update(lic, downloads=lic.downloads + 1)


@service.tool(
    intent="renew the subscription",
    write=True,
    example=first_example(Subscription, "subscription_id", where={"status": "expired"}),
)
def renew_subscription(ctx: Ctx, subscription_id: SubscriptionId) -> Subscription:
    """Start a new period of an expired subscription: its full allotment, for a year from today.

    Args:
        subscription_id: The expired subscription.
    """
    sub = ctx.get(Subscription, subscription_id, field="subscription_id")
    if sub.status != "expired":
        raise RuleViolation(
            f"subscription {sub.id} is {sub.status}",
            field="subscription_id",
            hint="only expired subscriptions are renewed",
        )
    return ctx.update(
        sub, status="active", downloads_left=sub.allotment, expires_on=ctx.today() + dt.timedelta(days=365)
    )


@service.tool(intent="show the subscription's usage", example=first_example(Subscription, "subscription_id"))
def subscription_usage(ctx: Ctx, subscription_id: SubscriptionId) -> Usage:
    """Downloads spent and left, days to expiry and licenses per employee.

    Args:
        subscription_id: The subscription.
    """
    sub = ctx.get(Subscription, subscription_id, field="subscription_id")
    by: dict[str, int] = {}
    for lic in ctx.where(License, subscription_id=sub.id):
        by[lic.licensee_email] = by.get(lic.licensee_email, 0) + 1
    return Usage(
        subscription_id=sub.id,
        used=sub.allotment - sub.downloads_left,
        downloads_left=sub.downloads_left,
        days_left=max(0, (sub.expires_on - ctx.today()).days),
        by_licensee=by,
    )


# -- seed -------------------------------------------------------------------------------------

CREATORS: tuple[tuple[str, str], ...] = (
    ("Lena Brightwater Studio", "DE"),
    ("Marco Vidal Photo", "ES"),
    ("Kaito Films", "JP"),
    ("Amani Visuals", "KE"),
    ("Northlight Media", "CA"),
)
SHOTS: tuple[tuple[MediaType, str, tuple[str, ...], bool], ...] = (
    ("image", "Team meeting in a bright office", ("office", "team", "business"), False),
    ("image", "Laptop on a wooden desk with coffee", ("office", "laptop", "coffee"), False),
    ("image", "Warehouse worker scanning boxes", ("warehouse", "logistics", "worker"), False),
    ("image", "City skyline at dusk", ("city", "skyline", "dusk"), False),
    ("image", "Customer paying with a phone at a cafe", ("payment", "cafe", "phone"), False),
    ("image", "Tech conference keynote stage", ("conference", "event", "stage"), True),
    ("image", "Fresh vegetables at a market stall", ("food", "market", "vegetables"), False),
    ("image", "Solar panels on a rooftop", ("energy", "solar", "roof"), False),
    ("image", "Hands typing on a keyboard", ("office", "keyboard", "typing"), False),
    ("image", "Marathon runners crossing a bridge", ("sport", "running", "city"), True),
    ("video", "Drone flight over a container port", ("logistics", "port", "drone"), False),
    ("video", "Time lapse of an office at night", ("office", "night", "time lapse"), False),
    ("video", "Barista pouring latte art", ("cafe", "coffee", "barista"), False),
    ("video", "Press conference outside city hall", ("news", "press", "city"), True),
)


@service.seeder
def seed(s: SeedContext) -> None:
    """Contributors and their images and clips, staff lightboxes, subscriptions in every state, licenses."""
    pop = s.population
    people = pop.staff("Marketing", "Sales", fallback=4)
    made = [
        s.create(
            Contributor,
            display_name=name,
            country=country,
            portfolio_url=f"https://www.picturebank.example/g/{name.split()[0].lower()}",
            created_at=s.ago(days=900 - 100 * k),
        )
        for k, (name, country) in enumerate(CREATORS)
    ]
    shots = []
    for k, (mtype, desc, words, editorial) in enumerate(SHOTS):
        video = mtype == "video"
        shots.append(
            s.create(
                Asset,
                media_type=mtype,
                description=desc,
                contributor_id=made[k % len(made)].id,
                keywords=words,
                is_editorial=editorial,
                width=3840 if video else 6000,
                height=2160 if video else 4000,
                duration_s=12 + k if video else 0,
                preview_url=f"https://preview.picturebank.example/{k + 1}.jpg",
                created_at=s.ago(days=300 - 15 * k),
            )
        )
    today = s.now.date()
    subs: tuple[tuple[str, Any, Any, int, int, int, int, Any, bool], ...] = (
        ("Team images 750/mo", "image", "standard", 750, 212, 0, 120, "active", False),
        ("Enhanced images 25", "image", "enhanced", 25, 3, 1, 60, "active", True),
        ("Footage HD 10", "video", "standard", 10, 4, 2, 200, "active", False),
        ("Images 2025 pack", "image", "standard", 50, 0, 3, -20, "expired", False),
    )
    for name, plan_type, tier, allot, left, who, days, status, po in subs:
        sub = s.create(
            Subscription,
            name=name,
            media_type=plan_type,
            tier=tier,
            allotment=allot,
            downloads_left=left,
            user_email=people[who % len(people)].email,
            expires_on=today + dt.timedelta(days=days),
            status=status,
            requires_purchase_order=po,
            created_at=s.ago(days=365 - days),
        )
        kinds = [a for a in shots if a.media_type == plan_type and not a.is_editorial]
        for j, a in enumerate(kinds[: 3 if status == "active" else 2]):
            s.create(
                License,
                asset_id=a.id,
                subscription_id=sub.id,
                license_type=tier,
                size=SIZES[plan_type][j % 3],
                licensee_email=people[(who + j) % len(people)].email,
                purchase_order=f"PO-{4410 + j}" if po else "",
                client="Website refresh",
                downloads=1 + j % 2,
                download_url=f"https://download.picturebank.example/{sub.id}/{a.id}",
                created_at=s.ago(days=30 + 10 * j),
            )
    for k, (name, picks) in enumerate(
        (("Homepage hero ideas", (0, 1, 3)), ("Logistics deck", (2, 10)), ("Cafe campaign", (4, 12)))
    ):
        box = s.create(
            Collection,
            name=name,
            owner_email=people[k % len(people)].email,
            description=f"Shortlist for {name.lower()}",
            shared=k != 1,
            created_at=s.ago(days=50 - k),
            updated_at=s.ago(days=3),
        )
        for p in picks:
            s.create(CollectionItem, collection_id=box.id, asset_id=shots[p].id, created_at=s.ago(days=40 - k))
