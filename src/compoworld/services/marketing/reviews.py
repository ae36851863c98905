"""Starline Reviews: what customers say about the company on a public review site, and how the company answers.

Modeled on Trustpilot's Business API (business units, service reviews with
stars and verification, company replies, invitation links, reporting reviews
for moderation, trust score and star distribution). A consumer reviews a
business unit once in twelve months, unless a new invitation asks again: an
invitation link belongs to one consumer and one order reference, is used
once, expires after 30 days, and makes the review verified; the same
reference is not invited twice. A review has 1 to 5 stars and an experience
date within the last twelve months. The company answers each review once
(the reply can be edited or deleted), never a removed one. A reported review
stays visible under moderation until it is removed or reinstated; a review
is reported once at a time, and a verified review cannot be reported as not
based on a genuine experience. The trust score averages the stars of the
visible reviews.
"""

from __future__ import annotations

import datetime as dt
from typing import Annotated, Any, Literal

from pydantic import Field, StringConstraints

from compoworld.engine.context import Ctx
from compoworld.engine.errors import Conflict, RuleViolation
from compoworld.engine.records import CREATED, Record
from compoworld.engine.service import Service
from compoworld.engine.state import SeedContext
from compoworld.engine.types import (
    CompanyName,
    Country,
    Date,
    DateTime,
    Domain,
    Email,
    IdOf,
    OrderNumber,
    PersonName,
    Url,
)
from compoworld.services.kit.examples import first_example
from compoworld.services.kit.records import Value
from compoworld.world.commerce import first_order_numbers

__all__ = ["service"]

service = Service(
    "reviews",
    title="Starline Reviews",
    category="reviews",
    modeled_on="Trustpilot Business API (business units, service reviews, company replies, invitation links, "
    "review reporting and moderation, trust score)",
    description="Public customer reviews of the company: business units with their trust score and star "
    "distribution, reviews with stars and verification, one company reply per review, invitation links that "
    "make reviews verified, and reporting reviews for moderation.",
)

UnitId = Annotated[str, IdOf("reviews.business_unit")]
ReviewId = Annotated[str, IdOf("reviews.review")]
InvitationId = Annotated[str, IdOf("reviews.invitation")]

Stars = Annotated[int, Field(ge=1, le=5)]
"""1 (bad) to 5 (excellent) stars."""
ReviewTitle = Annotated[str, StringConstraints(min_length=1, max_length=100, strip_whitespace=True, pattern=r"\S")]
"""A review's headline."""
ReviewText = Annotated[str, StringConstraints(min_length=1, max_length=5000, strip_whitespace=True, pattern=r"\S")]
"""A review's body."""
ReplyText = Annotated[str, StringConstraints(min_length=1, max_length=2048, strip_whitespace=True, pattern=r"\S")]
"""A company reply, at most 2048 characters."""
Locale = Literal["en-US", "en-GB", "de-DE", "fr-FR", "es-ES", "it-IT", "nl-NL", "pt-BR", "da-DK", "sv-SE"]
FlagReason = Literal[
    "harmful_or_illegal",
    "personal_information",
    "advertising_or_promotional",
    "not_based_on_genuine_experience",
    "other",
]

REVIEW_AGAIN_AFTER = dt.timedelta(days=365)
LINK_TTL = dt.timedelta(days=30)
MAX_EXPERIENCE_AGE = dt.timedelta(days=365)


class BusinessUnit(Record):
    """A business (or brand) profile on the review site."""

    id: UnitId
    display_name: CompanyName
    """The name shown on the profile."""
    domain: Domain
    """The website the profile belongs to."""
    website_url: Url
    """The website's address."""
    country: Country
    """Where the business is."""
    is_claimed: bool = True
    """Whether the company manages the profile (replies and invitations need it)."""


class Reply(Value):
    """The company's public reply to a review."""

    text: ReplyText
    """The reply."""
    author_email: Email
    """Who wrote it."""
    created_at: DateTime
    """When it was posted."""
    updated_at: DateTime
    """When it was last edited."""


class Review(Record):
    """A consumer's review of a business unit."""

    id: ReviewId
    business_unit_id: UnitId
    """The business unit."""
    stars: Stars
    """1 to 5 stars."""
    title: ReviewTitle
    """The headline."""
    text: ReviewText
    """The review."""
    language: Literal["en", "de", "fr", "es", "it", "nl", "pt", "da", "sv"] = "en"
    """The review's language."""
    consumer_name: PersonName
    """The reviewer's display name."""
    consumer_email: Email
    """The reviewer's e-mail (private to the business)."""
    reference_id: OrderNumber | None = None
    """The order the review is about (invited reviews)."""
    experienced_on: Date
    """When the experience took place."""
    is_verified: bool = False
    """Whether it came through an invitation."""
    invitation_id: InvitationId | None = None
    """The invitation it came through."""
    status: Literal["published", "under_moderation", "removed"] = "published"
    """published, under_moderation (reported, still visible) or removed."""
    flag_reason: FlagReason | None = None
    """Why it was reported."""
    flagged_by_email: Email | None = None
    """Who reported it."""
    reply: Reply | None = None
    """The company's reply."""
    created_at: Annotated[DateTime, CREATED]
    """When it was written."""


class Invitation(Record):
    """A review invitation link for one consumer and one order."""

    id: InvitationId
    business_unit_id: UnitId
    """The business unit."""
    consumer_email: Email
    """Who is invited."""
    consumer_name: PersonName
    """Their name."""
    reference_id: OrderNumber
    """The order the invitation is about."""
    locale: Locale = "en-US"
    """The review form's language."""
    url: Url
    """The invitation link."""
    expires_at: DateTime
    """When the link stops working (30 days)."""
    used: bool = False
    """Whether a review was written with it."""
    review_id: ReviewId | None = None
    """The review it produced."""
    created_at: Annotated[DateTime, CREATED]
    """When it was created."""


class StarCount(Value):
    """How many visible reviews have a number of stars."""

    stars: Stars
    """The stars."""
    count: int
    """How many reviews."""


class Summary(Value):
    """A business unit's score."""

    business_unit_id: UnitId
    """The business unit."""
    trust_score: float
    """Average stars of the visible reviews (0 when none), one decimal."""
    number_of_reviews: int
    """Visible reviews (published or under moderation)."""
    verified_share_percent: int
    """Share of visible reviews that are verified."""
    unanswered: int
    """Visible reviews without a reply."""
    distribution: tuple[StarCount, ...]
    """Reviews per star count, 1 to 5."""


# -- rules ------------------------------------------------------------------------------------


def _claimed(ctx: Ctx, unit_id: str, field: str = "business_unit_id") -> BusinessUnit:
    unit = ctx.get(BusinessUnit, unit_id, field=field)
    if not unit.is_claimed:
        raise RuleViolation(
            f"the profile of {unit.display_name} is not claimed by the company",
            field=field,
            hint="only claimed profiles reply and invite",
        )
    return unit


def _visible(review: Review) -> bool:
    return review.status != "removed"


# -- resources --------------------------------------------------------------------------------

units = service.resource(
    BusinessUnit,
    name="business_unit",
    plural="business_units",
    prefix="bu",
    create=False,
    get=False,
    filters=("domain", "country", "is_claimed"),
    search=("display_name",),
    delete=False,
    title="business unit",
)
reviews = service.resource(
    Review,
    name="review",
    plural="reviews",
    prefix="rev",
    create=False,
    filters=("business_unit_id", "stars", "status", "is_verified", "consumer_email", "reference_id", "language"),
    search=("title", "text", "consumer_name"),
    delete=False,
)
invitations = service.resource(
    Invitation,
    name="invitation",
    plural="invitations",
    prefix="inv",
    create=False,
    get=False,
    filters=("business_unit_id", "consumer_email", "reference_id", "used"),
    delete=False,
)


# -- examples ---------------------------------------------------------------------------------


def _example_reply(ctx: Ctx) -> dict[str, Any] | None:
    for review in ctx.where(Review, status="published"):
        unit = ctx.get(BusinessUnit, review.business_unit_id)
        if review.reply is None and unit.is_claimed:
            return {
                "review_id": review.id,
                "text": "Thank you for your feedback, we are glad you liked it.",
                "author_email": ctx.population.employees[0].email,
            }
    return None


def _example_invite(ctx: Ctx) -> dict[str, Any] | None:
    unit = ctx.first(BusinessUnit, is_claimed=True)
    if unit is None:
        return None
    for person in ctx.population.consumers:
        if not ctx.where(Invitation, consumer_email=person.email):
            return {
                "business_unit_id": unit.id,
                "consumer_email": person.email,
                "consumer_name": person.name,
                "reference_id": "#9901",
            }
    return None


def _example_submit(ctx: Ctx) -> dict[str, Any] | None:
    for inv in ctx.where(Invitation, used=False):
        if inv.expires_at > ctx.now():
            return {
                "business_unit_id": inv.business_unit_id,
                "consumer_email": inv.consumer_email,
                "consumer_name": inv.consumer_name,
                "stars": 4,
                "title": "Quick delivery",
                "text": "Arrived two days early and well packed.",
                "experienced_on": ctx.today().isoformat(),
                "invitation_id": inv.id,
            }
    return None


def _example_flag(ctx: Ctx) -> dict[str, Any] | None:
    review = ctx.first(Review, status="published", is_verified=False)
    if review is None:
        return None
    return {"review_id": review.id, "reason": "not_based_on_genuine_experience", "reported_by_email": _staff(ctx)}


def _staff(ctx: Ctx) -> str:
    return ctx.population.employees[0].email


# -- tools ------------------------------------------------------------------------------------


@service.tool(intent="show the business unit's score", example=first_example(BusinessUnit, "business_unit_id"))
def get_business_summary(ctx: Ctx, business_unit_id: UnitId) -> Summary:
    """Trust score, star distribution, verified share and unanswered count of a business unit's visible reviews.

    Args:
        business_unit_id: The business unit.
    """
    unit = ctx.get(BusinessUnit, business_unit_id, field="business_unit_id")
    shown = [r for r in ctx.where(Review, business_unit_id=unit.id) if _visible(r)]
    n = len(shown)
    return Summary(
        business_unit_id=unit.id,
        trust_score=round(sum(r.stars for r in shown) / n, 1) if n else 0.0,
        number_of_reviews=n,
        verified_share_percent=round(100 * sum(r.is_verified for r in shown) / n) if n else 0,
        unanswered=sum(r.reply is None for r in shown),
        distribution=tuple(StarCount(stars=k, count=sum(r.stars == k for r in shown)) for k in range(1, 6)),
    )


@service.tool(intent="create a review invitation link", write=True, example=_example_invite)
def create_invitation_link(
    ctx: Ctx,
    business_unit_id: UnitId,
    consumer_email: Email,
    consumer_name: PersonName,
    reference_id: OrderNumber,
    locale: Locale = "en-US",
) -> Invitation:
    """Create a single-use invitation link, valid 30 days, for one consumer and one order reference.

    The same reference is not invited twice on a business unit; the profile
    must be claimed.

    Args:
        business_unit_id: The business unit.
        consumer_email: Who is invited.
        consumer_name: Their name.
        reference_id: The order the invitation is about.
        locale: The review form's language.
    """
    unit = _claimed(ctx, business_unit_id)
    for inv in ctx.where(Invitation, business_unit_id=unit.id, reference_id=reference_id):
        raise Conflict(
            f"order {reference_id} was already invited ({inv.id}, {inv.consumer_email})",
            field="reference_id",
            hint="one invitation per order reference",
        )
    n = ctx.next_number(Invitation, "link")
    token = f"{ctx.rng.getrandbits(48):012x}{n:04d}"
    return ctx.create(
        Invitation,
        business_unit_id=unit.id,
        consumer_email=consumer_email,
        consumer_name=consumer_name,
        reference_id=reference_id,
        locale=locale,
        url=f"https://reviews.starline.example/evaluate/{unit.domain}?token={token}",
        expires_at=ctx.now() + LINK_TTL,
    )


@service.tool(intent="publish a consumer's review", write=True, example=_example_submit)
def submit_review(
    ctx: Ctx,
    business_unit_id: UnitId,
    consumer_email: Email,
    consumer_name: PersonName,
    stars: Stars,
    title: ReviewTitle,
    text: ReviewText,
    experienced_on: Date,
    invitation_id: InvitationId | None = None,
    language: Literal["en", "de", "fr", "es", "it", "nl", "pt", "da", "sv"] = "en",
) -> Review:
    """Publish a consumer's review (the review form); through an unused, unexpired invitation of that consumer it is verified.

    Without an invitation a consumer reviews a business unit once in twelve
    months. The experience date is not in the future nor older than twelve
    months.

    Args:
        business_unit_id: The business unit.
        consumer_email: The reviewer's e-mail.
        consumer_name: The reviewer's display name.
        stars: 1 to 5.
        title: The headline.
        text: The review.
        experienced_on: When the experience took place.
        invitation_id: The invitation it answers.
        language: The review's language.
    """
    unit = ctx.get(BusinessUnit, business_unit_id, field="business_unit_id")
    today = ctx.today()
    if experienced_on > today or experienced_on < today - MAX_EXPERIENCE_AGE:
        raise RuleViolation(
            f"the experience date {experienced_on} must be within the last twelve months",
            field="experienced_on",
            hint="give the date of the purchase or visit",
        )
    invitation = None
    if invitation_id is not None:
        invitation = ctx.get(Invitation, invitation_id, field="invitation_id")
        if invitation.business_unit_id != unit.id or invitation.consumer_email != consumer_email:
            raise RuleViolation(
                f"invitation {invitation.id} is for {invitation.consumer_email} on another profile or consumer",
                field="invitation_id",
                hint="use the invitation sent to this consumer for this business",
            )
        if invitation.used:
            raise Conflict(
                f"invitation {invitation.id} was already used (review {invitation.review_id})",
                field="invitation_id",
                hint="each link gives one review",
            )
        if invitation.expires_at <= ctx.now():
            raise RuleViolation(
                f"invitation {invitation.id} expired on {invitation.expires_at.date()}",
                field="invitation_id",
                hint="send a new invitation with reviews__create_invitation_link",
            )
    else:
        for earlier in ctx.where(Review, business_unit_id=unit.id, consumer_email=consumer_email):
            if earlier.created_at > ctx.now() - REVIEW_AGAIN_AFTER and earlier.status != "removed":
                raise RuleViolation(
                    f"{consumer_email} reviewed {unit.display_name} on {earlier.created_at.date()} ({earlier.id})",
                    field="consumer_email",
                    hint="a consumer reviews a business once in twelve months, unless invited after a new order",
                )
    review = ctx.create(
        Review,
        business_unit_id=unit.id,
        stars=stars,
        title=title,
        text=text,
        language=language,
        consumer_name=consumer_name,
        consumer_email=consumer_email,
        reference_id=invitation.reference_id if invitation else None,
        experienced_on=experienced_on,
        is_verified=invitation is not None,
        invitation_id=invitation.id if invitation else None,
    )
    if invitation is not None:
        ctx.update(invitation, used=True, review_id=review.id)
    return review


@service.tool(intent="reply to the review", write=True, example=_example_reply)
def reply_to_review(ctx: Ctx, review_id: ReviewId, text: ReplyText, author_email: Email) -> Review:
    """Post the company's public reply to a review: one per review, not on removed reviews.

    Args:
        review_id: The review.
        text: The reply (at most 2048 characters).
        author_email: Who writes it.
    """
    review = ctx.get(Review, review_id, field="review_id")
    _claimed(ctx, review.business_unit_id, field="review_id")
    if review.status == "removed":
        raise RuleViolation("the review was removed", field="review_id", hint="removed reviews take no reply")
    if review.reply is not None:
        raise Conflict(
            "the review already has a reply", field="review_id", hint="edit it with reviews__update_reply instead"
        )
    now = ctx.now()
    return ctx.update(review, reply=Reply(text=text, author_email=author_email, created_at=now, updated_at=now))


@service.tool(
    intent="edit the reply to the review",
    write=True,
    example=first_example(
        Review,
        "review_id",
        match=lambda ctx, r: r.reply is not None and r.status != "removed",
        text="Thanks again: your replacement is on its way.",
    ),
)
def update_reply(ctx: Ctx, review_id: ReviewId, text: ReplyText) -> Review:
    """Edit the company's reply to a review.

    Args:
        review_id: The review.
        text: The new reply.
    """
    review = ctx.get(Review, review_id, field="review_id")
    if review.reply is None:
        raise RuleViolation("the review has no reply", field="review_id", hint="post one with reviews__reply_to_review")
    if review.status == "removed":
        raise RuleViolation("the review was removed", field="review_id", hint="nothing to edit")
    if review.reply.text == text.strip():
        raise Conflict("the reply already reads so", field="text", hint="nothing to change")
    return ctx.update(review, reply=review.reply.model_copy(update={"text": text, "updated_at": ctx.now()}))


@service.tool(
    intent="delete the reply to the review",
    write=True,
    destructive=True,
    example=first_example(Review, "review_id", match=lambda ctx, r: r.reply is not None),
)
def delete_reply(ctx: Ctx, review_id: ReviewId) -> Review:
    """Delete the company's reply to a review (a new one can be posted).

    Args:
        review_id: The review.
    """
    review = ctx.get(Review, review_id, field="review_id")
    if review.reply is None:
        raise Conflict("the review has no reply", field="review_id", hint="nothing to delete")
    return ctx.update(review, reply=None)


@service.tool(intent="report the review", write=True, example=_example_flag)
def flag_review(ctx: Ctx, review_id: ReviewId, reason: FlagReason, reported_by_email: Email) -> Review:
    """Report a published review for moderation; it stays visible while under moderation.

    A verified review (from the company's own invitation) cannot be reported as
    not based on a genuine experience.

    Args:
        review_id: The review.
        reason: Why it breaks the guidelines.
        reported_by_email: Who reports it.
    """
    review = ctx.get(Review, review_id, field="review_id")
    if review.status == "under_moderation":
        raise Conflict(
            f"the review is already reported ({review.flag_reason})",
            field="review_id",
            hint="wait for the moderation outcome",
        )
    if review.status == "removed":
        raise RuleViolation("the review was removed", field="review_id", hint="nothing to report")
    if reason == "not_based_on_genuine_experience" and review.is_verified:
        raise RuleViolation(
            f"the review is verified: it came from your invitation for order {review.reference_id}",
            field="reason",
            hint="report another breach of the guidelines, or reply to it",
        )
    return ctx.update(review, status="under_moderation", flag_reason=reason, flagged_by_email=reported_by_email)


@service.tool(
    intent="settle the report on the review",
    write=True,
    example=first_example(Review, "review_id", where={"status": "under_moderation"}, decision="reinstate"),
)
def resolve_flag(ctx: Ctx, review_id: ReviewId, decision: Literal["remove", "reinstate"]) -> Review:
    """Apply the moderation outcome to a reported review: removed (it leaves the score) or reinstated.

    Args:
        review_id: The review.
        decision: remove or reinstate.
    """
    review = ctx.get(Review, review_id, field="review_id")
    if review.status != "under_moderation":
        raise RuleViolation(
            f"the review is {review.status}, not under moderation",
            field="review_id",
            hint="report it with reviews__flag_review first",
        )
    if decision == "remove":
        return ctx.update(review, status="removed")
    return ctx.update(review, status="published", flag_reason=None, flagged_by_email=None)


# -- seed -------------------------------------------------------------------------------------

TEXTS: tuple[tuple[int, str, str], ...] = (
    (5, "Fast and friendly", "Ordered on Monday, delivered on Wednesday. The support team answered within an hour."),
    (4, "Good product, slow shipping", "The product is great, but the parcel took a week longer than promised."),
    (1, "Never arrived", "My order never arrived and nobody answers my e-mails. Very disappointed."),
    (5, "Excellent quality", "Exactly as described, well packed, and the return process was easy."),
    (3, "Average experience", "Fine overall, although the website was confusing at checkout."),
    (2, "Wrong size sent", "I received the wrong size and had to pay for the return myself."),
    (5, "Will order again", "Great prices and the docking station works perfectly with my laptop."),
    (4, "Helpful support", "Had a question about my invoice; it was sorted out the same day."),
    (1, "Buy cheap followers here!!!", "Visit our site for the best deals on followers and likes."),
    (5, "Smooth from start to finish", "Clear tracking, quick delivery and a thank-you note in the box."),
)


@service.seeder
def seed(s: SeedContext) -> None:
    """The company's profiles, reviews by the population's consumers, invitations, replies and reported reviews."""
    pop = s.population
    home = pop.home
    main = s.create(
        BusinessUnit,
        display_name=home.name,
        domain=home.domain,
        website_url=f"https://www.{home.domain}",
        country=home.address.country,
    )
    outlet = s.create(
        BusinessUnit,
        display_name=f"{home.name} Outlet",
        domain=f"outlet.{home.domain}",
        website_url=f"https://outlet.{home.domain}",
        country=home.address.country,
    )
    rival = pop.customers[0]
    s.create(
        BusinessUnit,
        display_name=rival.name,
        domain=rival.domain,
        website_url=f"https://www.{rival.domain}",
        country=rival.address.country,
        is_claimed=False,
    )
    support = pop.staff("Support", fallback=2)
    orders = first_order_numbers(pop)
    people = [p for p in pop.consumers if p.email in orders]
    for k, person in enumerate(people[:24]):
        unit = outlet if k % 6 == 5 else main
        stars, title, text = TEXTS[k % len(TEXTS)]
        when = s.now - dt.timedelta(days=2 + 9 * k, hours=k)
        invited = k % 3 != 2 and not title.startswith("Buy cheap")
        inv = None
        if invited:
            inv = s.create(
                Invitation,
                business_unit_id=unit.id,
                consumer_email=person.email,
                consumer_name=person.name,
                reference_id=orders[person.email],
                url=f"https://reviews.starline.example/evaluate/{unit.domain}?token={s.rng.getrandbits(48):012x}",
                expires_at=when - dt.timedelta(days=3) + LINK_TTL,
                used=True,
                created_at=when - dt.timedelta(days=3),
            )
        status = "published"
        extra: dict[str, Any] = {}
        if title.startswith("Buy cheap"):
            status, extra = "under_moderation", {"flag_reason": "advertising_or_promotional"}
            extra["flagged_by_email"] = support[0].email
        elif k == 15:
            status, extra = "removed", {"flag_reason": "personal_information", "flagged_by_email": support[0].email}
        if k % 4 != 3 and status == "published":
            extra["reply"] = Reply(
                text=f"Hi {person.first_name}, thank you for taking the time to review us."
                if stars >= 4
                else f"Hi {person.first_name}, we are sorry to hear this. Please write to support so we can help.",
                author_email=support[k % len(support)].email,
                created_at=when + dt.timedelta(hours=20),
                updated_at=when + dt.timedelta(hours=20),
            )
        review = s.create(
            Review,
            business_unit_id=unit.id,
            stars=stars,
            title=title,
            text=text,
            consumer_name=person.name,
            consumer_email=person.email,
            reference_id=orders[person.email] if invited else None,
            experienced_on=(when - dt.timedelta(days=5)).date(),
            is_verified=invited and inv is not None,
            invitation_id=inv.id if inv else None,
            status=status,
            created_at=when,
            **extra,
        )
        if inv is not None:
            s.update(inv, review_id=review.id)
    for k, person in enumerate(people[24:30]):
        sent = s.now - dt.timedelta(days=3 + 9 * k)
        s.create(
            Invitation,
            business_unit_id=main.id,
            consumer_email=person.email,
            consumer_name=person.name,
            reference_id=orders[person.email],
            url=f"https://reviews.starline.example/evaluate/{main.domain}?token={s.rng.getrandbits(48):012x}",
            expires_at=sent + LINK_TTL,
            created_at=sent,
        )
