"""Starlit Product Reviews: reviews of the store's products, moderation, Q&A, review requests and syndication.

Modeled on the Yotpo Reviews API (products by external id, reviews with score,
title, content, images and verified-buyer badge, moderation of pending reviews,
public store comments, site questions and answers, "mail after purchase"
review requests) and Judge.me (review request reminders, syndication of
published reviews to Google Shopping and retail partners). A shopper reviews a
product once; a review scores 1 to 5 with at most 5 photos and is verified when
a review request for that e-mail and product was sent; reviews wait in pending
until a moderator publishes or rejects them with a reason, and only published
reviews count in a product's average, get a store reply (once) or are
syndicated (once per channel, 3 stars or more for Google Shopping). A review
request is scheduled some days after delivery, sent once it is due, and
completed by the review it asks for; an order is asked once per e-mail.
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
from compoworld.engine.types import (
    Date,
    DateTime,
    Email,
    IdOf,
    OrderNumber,
    PersonName,
    Sku,
    Text,
    Title,
    Url,
)
from compoworld.services.kit.examples import first_example
from compoworld.services.kit.records import Value

__all__ = ["service"]

service = Service(
    "productreviews",
    title="Starlit Product Reviews",
    category="product_reviews",
    modeled_on="Yotpo Reviews API (products, reviews, moderation, comments, questions and answers, mail after "
    "purchase) with Judge.me review requests and syndication",
    description="Reviews and ratings of the home company's products written by shoppers: photos and verified "
    "buyer badges, moderation before publishing, store replies, product questions answered by staff, review "
    "requests e-mailed after delivery, and syndication of published reviews to Google Shopping and retailers.",
)

ProductId = Annotated[str, IdOf("productreviews.product")]
ReviewId = Annotated[str, IdOf("productreviews.review")]
QuestionId = Annotated[str, IdOf("productreviews.question")]
RequestId = Annotated[str, IdOf("productreviews.request")]

Score = Annotated[int, Field(ge=1, le=5)]
"""A star rating, 1 to 5."""
Body = Annotated[str, StringConstraints(strip_whitespace=True, min_length=1, max_length=5000)]
ReviewStatus = Literal["pending", "published", "rejected"]
RejectReason = Literal["spam", "offensive", "off_topic", "personal_info", "fake"]
QuestionStatus = Literal["pending", "answered", "rejected"]
RequestStatus = Literal["scheduled", "sent", "completed", "cancelled"]
Channel = Literal["google_shopping", "walmart", "target", "best_buy"]

MAX_PHOTOS = 5
REQUEST_DELAY = dt.timedelta(days=7)
"""A review request goes out this long after delivery."""
GOOGLE_MIN_SCORE = 3


class Product(Record):
    """A product of the store that shoppers review."""

    id: ProductId
    sku: Sku
    """The store's SKU, Yotpo's external product id (unique)."""
    name: Title
    """Product name."""
    url: Url
    """The product page."""
    average_score: float = 0.0
    """Average score of its published reviews (0 when none)."""
    review_count: int = 0
    """How many published reviews it has."""
    created_at: Annotated[DateTime, CREATED]
    """When it was added."""


class Review(Record):
    """A shopper's review of a product."""

    id: ReviewId
    product_id: ProductId
    """The product."""
    email: Email
    """The reviewer's e-mail."""
    display_name: PersonName
    """The reviewer's name as shown."""
    score: Score
    """Stars, 1-5."""
    title: Title
    """The review's headline."""
    content: Body
    """What they wrote."""
    photo_urls: tuple[Url, ...] = ()
    """Photos attached (at most 5)."""
    verified_buyer: bool = False
    """Whether a review request for this e-mail and product was sent (a verified purchase)."""
    status: ReviewStatus = "pending"
    """pending (awaiting moderation), published or rejected."""
    reject_reason: RejectReason | None = None
    """Why moderation rejected it."""
    store_reply: Text = ""
    """The store's public comment ('' when none)."""
    replied_by: Email | None = None
    """The employee who replied."""
    syndicated_to: tuple[Channel, ...] = ()
    """Where it was syndicated."""
    created_at: Annotated[DateTime, CREATED]
    """When it was written."""
    updated_at: Annotated[DateTime, UPDATED]
    """When it last changed."""


class Question(Record):
    """A shopper's question about a product, answered by the store."""

    id: QuestionId
    product_id: ProductId
    """The product."""
    email: Email
    """The asker's e-mail."""
    display_name: PersonName
    """The asker's name as shown."""
    content: Body
    """The question."""
    status: QuestionStatus = "pending"
    """pending, answered or rejected."""
    answer: Text = ""
    """The store's answer ('' until answered)."""
    answered_by: Email | None = None
    """The employee who answered."""
    created_at: Annotated[DateTime, CREATED]
    """When it was asked."""
    updated_at: Annotated[DateTime, UPDATED]
    """When it last changed."""


class ReviewRequest(Record):
    """An e-mail asking a customer to review what an order delivered."""

    id: RequestId
    order_number: OrderNumber
    """The store order."""
    email: Email
    """The customer's e-mail."""
    customer_name: PersonName
    """The customer's name."""
    product_ids: tuple[ProductId, ...]
    """The products delivered."""
    delivered_on: Date
    """When the order was delivered."""
    send_after: Date
    """When the request is due (delivery plus 7 days)."""
    status: RequestStatus = "scheduled"
    """scheduled, sent, completed (a review came in) or cancelled."""
    sent_at: DateTime | None = None
    """When it was e-mailed."""
    created_at: Annotated[DateTime, CREATED]
    """When it was scheduled."""


class ScoreSummary(Value):
    """A product's published reviews by stars."""

    product_id: ProductId
    """The product."""
    average_score: float
    """Average stars (0 when none)."""
    review_count: int
    """Published reviews."""
    distribution: dict[int, int]
    """Published reviews per score 1-5."""
    verified_share: float
    """Share of published reviews by verified buyers, 0-1."""
    pending: int
    """Reviews awaiting moderation."""


# -- rules ------------------------------------------------------------------------------------


def _staff(ctx: Ctx, email: str, field: str) -> None:
    if email not in {p.email for p in ctx.population.employees}:
        raise RuleViolation(f"{email} is not a store user", field=field, hint="use an employee's e-mail")


def _refresh(ctx: Ctx, product_id: str) -> None:
    product = ctx.get(Product, product_id)
    scores = [r.score for r in ctx.where(Review, product_id=product_id, status="published")]
    average = round(sum(scores) / len(scores), 2) if scores else 0.0
    ctx.update(product, average_score=average, review_count=len(scores))


products = service.resource(
    Product,
    name="product",
    plural="products",
    prefix="prod",
    create=("sku", "name", "url"),
    filters=("sku",),
    search=("name", "sku"),
    update=("name", "url"),
    unique=("sku",),
    delete=False,
)
reviews = service.resource(
    Review,
    name="review",
    plural="reviews",
    prefix="rev",
    create=False,
    filters=("product_id", "email", "score", "status", "verified_buyer"),
    search=("title", "content"),
    delete=False,
)
questions = service.resource(
    Question,
    name="question",
    plural="questions",
    prefix="qst",
    create=False,
    filters=("product_id", "email", "status"),
    search=("content",),
    delete=False,
    transitions={"reject": Transition("status", ("pending",), "rejected", "reject the product question")},
)
requests = service.resource(
    ReviewRequest,
    name="request",
    plural="requests",
    prefix="req",
    create=False,
    filters=("order_number", "email", "status"),
    delete=False,
    transitions={"cancel": Transition("status", ("scheduled",), "cancelled", "cancel the review request")},
    title="review request",
)


# -- reviews ----------------------------------------------------------------------------------


def _example_submit(ctx: Ctx) -> dict[str, Any] | None:
    for req in ctx.where(ReviewRequest, status="sent"):
        for pid in req.product_ids:
            if ctx.first(Review, product_id=pid, email=req.email) is None:
                return {
                    "product_id": pid,
                    "email": req.email,
                    "display_name": req.customer_name,
                    "score": 4,
                    "title": "Does the job well",
                    "content": "Arrived quickly and works as described.",
                }
    return None


@service.tool(intent="submit a product review", write=True, example=_example_submit)
def submit_review(
    ctx: Ctx,
    product_id: ProductId,
    email: Email,
    display_name: PersonName,
    score: Score,
    title: Title,
    content: Body,
    photo_urls: list[Url] | None = None,
) -> Review:
    """Submit a shopper's review; it waits for moderation, and completes a review request that asked for it.

    Args:
        product_id: The product.
        email: The reviewer's e-mail (one review per product).
        display_name: The name shown with the review.
        score: Stars, 1-5.
        title: A headline.
        content: The review.
        photo_urls: Up to 5 photo links.
    """
    product = ctx.get(Product, product_id, field="product_id")
    other = ctx.first(Review, product_id=product.id, email=email)
    if other is not None:
        raise Conflict(
            f"{email} already reviewed {product.name} ({other.id})",
            field="email",
            hint="a shopper reviews a product once",
        )
    photos = tuple(photo_urls or ())
    if len(photos) > MAX_PHOTOS or len(set(photos)) != len(photos):
        raise RuleViolation(
            f"a review holds at most {MAX_PHOTOS} different photos", field="photo_urls", hint="drop some photos"
        )
    asked = [
        r
        for r in ctx.where(ReviewRequest, email=email)
        if product.id in r.product_ids and r.status in ("sent", "completed")
    ]
    review = ctx.create(
        Review,
        product_id=product.id,
        email=email,
        display_name=display_name,
        score=score,
        title=title,
        content=content,
        photo_urls=photos,
        verified_buyer=bool(asked),
    )
    for req in asked:
        if req.status == "sent":
            ctx.update(req, status="completed")
    return review


def _pending(ctx: Ctx, review_id: str) -> Review:
    review = ctx.get(Review, review_id, field="review_id")
    if review.status != "pending":
        raise RuleViolation(
            f"review {review.id} is already {review.status}", field="review_id", hint="only pending reviews"
        )
    return review


@service.tool(
    intent="publish the review",
    write=True,
    example=first_example(Review, "review_id", where={"status": "pending"}),
)
def publish_review(ctx: Ctx, review_id: ReviewId) -> Review:
    """Publish a pending review: it shows on the product page and counts in the product's average.

    Args:
        review_id: The review.
    """
    review = ctx.update(_pending(ctx, review_id), status="published")
    _refresh(ctx, review.product_id)
    return review


@service.tool(
    intent="reject the review",
    write=True,
    example=first_example(Review, "review_id", where={"status": "pending"}, reason="spam"),
)
def reject_review(ctx: Ctx, review_id: ReviewId, reason: RejectReason) -> Review:
    """Reject a pending or published review with a reason; it leaves the product page and the average.

    Args:
        review_id: The review.
        reason: spam, offensive, off_topic, personal_info or fake.
    """
    review = ctx.get(Review, review_id, field="review_id")
    if review.status == "rejected":
        raise RuleViolation(f"review {review.id} is already rejected", field="review_id", hint="nothing to do")
    if reason == "fake" and review.verified_buyer:
        raise RuleViolation(
            "a verified buyer's review cannot be rejected as fake",
            field="reason",
            hint="pick the reason that fits the content",
        )
    review = ctx.update(review, status="rejected", reject_reason=reason, syndicated_to=())
    _refresh(ctx, review.product_id)
    return review


def _example_reply(ctx: Ctx) -> dict[str, Any] | None:
    r = ctx.first(Review, status="published", store_reply="")
    return (
        None
        if r is None
        else {
            "review_id": r.id,
            "content": "Thank you for the kind words!",
            "replied_by": ctx.population.employees[0].email,
        }
    )


@service.tool(intent="reply to the review", write=True, example=_example_reply)
def reply_to_review(ctx: Ctx, review_id: ReviewId, content: Body, replied_by: Email) -> Review:
    """Post the store's public comment under a published review (once).

    Args:
        review_id: The review.
        content: The reply.
        replied_by: The employee replying.
    """
    review = ctx.get(Review, review_id, field="review_id")
    if review.status != "published":
        raise RuleViolation(f"review {review.id} is {review.status}", field="review_id", hint="publish it first")
    if review.store_reply:
        raise Conflict(f"review {review.id} already has a reply", field="review_id", hint="one reply per review")
    _staff(ctx, replied_by, "replied_by")
    return ctx.update(review, store_reply=content, replied_by=replied_by)


@service.tool(
    intent="syndicate the review",
    write=True,
    example=first_example(
        Review,
        "review_id",
        where={"status": "published"},
        match=lambda ctx, r: r.score >= GOOGLE_MIN_SCORE and "google_shopping" not in r.syndicated_to,
        channel="google_shopping",
    ),
)
def syndicate_review(ctx: Ctx, review_id: ReviewId, channel: Channel) -> Review:
    """Syndicate a published review to a channel (Google Shopping takes 3 stars or more); once per channel.

    Args:
        review_id: The review.
        channel: google_shopping, walmart, target or best_buy.
    """
    review = ctx.get(Review, review_id, field="review_id")
    if review.status != "published":
        raise RuleViolation(f"review {review.id} is {review.status}", field="review_id", hint="publish it first")
    if channel in review.syndicated_to:
        raise Conflict(f"review {review.id} is already on {channel}", field="channel", hint="pick another channel")
    if channel == "google_shopping" and review.score < GOOGLE_MIN_SCORE:
        raise RuleViolation(
            f"Google Shopping takes reviews of {GOOGLE_MIN_SCORE} stars or more",
            field="channel",
            hint="syndicate it to a retailer channel instead",
        )
    return ctx.update(review, syndicated_to=(*review.syndicated_to, channel))


@service.tool(intent="summarise the product's reviews", example=first_example(Product, "product_id"))
def review_summary(ctx: Ctx, product_id: ProductId) -> ScoreSummary:
    """A product's published reviews by stars, its average and its share of verified buyers.

    Args:
        product_id: The product.
    """
    product = ctx.get(Product, product_id, field="product_id")
    live = ctx.where(Review, product_id=product.id, status="published")
    dist = {k: sum(r.score == k for r in live) for k in range(1, 6)}
    return ScoreSummary(
        product_id=product.id,
        average_score=round(sum(r.score for r in live) / len(live), 2) if live else 0.0,
        review_count=len(live),
        distribution=dist,
        verified_share=round(sum(r.verified_buyer for r in live) / len(live), 2) if live else 0.0,
        pending=len(ctx.where(Review, product_id=product.id, status="pending")),
    )


# -- questions --------------------------------------------------------------------------------


@service.tool(
    intent="ask a question about the product",
    write=True,
    example=lambda ctx: first_example(
        Product,
        "product_id",
        email=ctx.population.consumers[0].email,
        display_name=ctx.population.consumers[0].name,
        content="Does it come with a carrying case?",
    )(ctx),
)
def ask_question(ctx: Ctx, product_id: ProductId, email: Email, display_name: PersonName, content: Body) -> Question:
    """Ask a question about a product; it waits for the store's answer. The same question is not asked twice.

    Args:
        product_id: The product.
        email: The asker's e-mail.
        display_name: The name shown with the question.
        content: The question.
    """
    product = ctx.get(Product, product_id, field="product_id")
    for q in ctx.where(Question, product_id=product.id, email=email):
        if q.content.casefold() == content.casefold() and q.status != "rejected":
            raise Conflict(f"{email} already asked this ({q.id})", field="content", hint="wait for the answer")
    return ctx.create(Question, product_id=product.id, email=email, display_name=display_name, content=content)


def _example_answer(ctx: Ctx) -> dict[str, Any] | None:
    q = ctx.first(Question, status="pending")
    return (
        None
        if q is None
        else {
            "question_id": q.id,
            "answer": "Yes, a case is included.",
            "answered_by": ctx.population.employees[0].email,
        }
    )


@service.tool(intent="answer the product question", write=True, example=_example_answer)
def answer_question(ctx: Ctx, question_id: QuestionId, answer: Body, answered_by: Email) -> Question:
    """Answer a pending question as the store; the answer shows on the product page.

    Args:
        question_id: The question.
        answer: The answer.
        answered_by: The employee answering.
    """
    q = ctx.get(Question, question_id, field="question_id")
    if q.status != "pending":
        raise RuleViolation(f"question {q.id} is {q.status}", field="question_id", hint="only pending questions")
    _staff(ctx, answered_by, "answered_by")
    return ctx.update(q, status="answered", answer=answer, answered_by=answered_by)


# -- review requests --------------------------------------------------------------------------


def _example_request(ctx: Ctx) -> dict[str, Any] | None:
    p = ctx.first(Product)
    who = ctx.population.consumers[-1]
    return (
        None
        if p is None
        else {
            "order_number": "SO-99001",
            "email": who.email,
            "customer_name": who.name,
            "product_ids": [p.id],
            "delivered_on": (ctx.today() - dt.timedelta(days=1)).isoformat(),
        }
    )


@service.tool(intent="schedule a review request", write=True, example=_example_request)
def schedule_request(
    ctx: Ctx,
    order_number: OrderNumber,
    email: Email,
    customer_name: PersonName,
    product_ids: list[ProductId],
    delivered_on: Date,
) -> ReviewRequest:
    """Schedule the review request of a delivered order, due 7 days after delivery; an order is asked once.

    Args:
        order_number: The store order.
        email: The customer's e-mail.
        customer_name: The customer's name.
        product_ids: The products delivered (at least one, each once).
        delivered_on: When it was delivered (not in the future).
    """
    if ctx.first(ReviewRequest, order_number=order_number, email=email) is not None:
        raise Conflict(f"order {order_number} already has a review request", field="order_number", hint="list it")
    if not product_ids or len(set(product_ids)) != len(product_ids):
        raise RuleViolation("list each delivered product once", field="product_ids", hint="at least one product")
    for pid in product_ids:
        ctx.get(Product, pid, field="product_ids")
    if delivered_on > ctx.today():
        raise RuleViolation("delivered_on is in the future", field="delivered_on", hint="schedule after delivery")
    return ctx.create(
        ReviewRequest,
        order_number=order_number,
        email=email,
        customer_name=customer_name,
        product_ids=tuple(product_ids),
        delivered_on=delivered_on,
        send_after=delivered_on + REQUEST_DELAY,
    )


@service.tool(
    intent="send the review request",
    write=True,
    example=first_example(
        ReviewRequest, "request_id", where={"status": "scheduled"}, match=lambda ctx, r: r.send_after <= ctx.today()
    ),
)
def send_request(ctx: Ctx, request_id: RequestId) -> ReviewRequest:
    """E-mail a scheduled review request that is due.

    Args:
        request_id: The review request.
    """
    req = ctx.get(ReviewRequest, request_id, field="request_id")
    if req.status != "scheduled":
        raise RuleViolation(f"request {req.id} is {req.status}", field="request_id", hint="only scheduled requests")
    if req.send_after > ctx.today():
        raise RuleViolation(
            f"request {req.id} is due on {req.send_after}",
            field="request_id",
            hint="wait until then, so the customer has used the product",
        )
    return ctx.update(req, status="sent", sent_at=ctx.now())


# -- seed -------------------------------------------------------------------------------------

TEXTS: tuple[tuple[int, str, str], ...] = (
    (5, "Exactly what I wanted", "Great build quality and it arrived two days early."),
    (4, "Very good", "Works well; the instructions could be clearer."),
    (5, "Love it", "Second one I have bought, and it is as good as the first."),
    (3, "It's okay", "Does the job but feels a bit cheap for the price."),
    (2, "Disappointed", "Stopped working properly after two weeks."),
    (1, "Buy it now!!! cheap-deals.example", "Visit my store for better prices."),
)

QA: tuple[tuple[str, str], ...] = (
    ("Is there a warranty?", "Yes, two years from the date of delivery."),
    ("Can I return it if it does not fit my space?", "Yes, within 30 days, unused and in its box."),
    ("Does it ship to Canada?", "Yes, with duties paid at checkout."),
)


@service.seeder
def seed(s: SeedContext) -> None:
    """Products from the catalogue, consumers' orders asked for reviews, reviews in every state, questions."""
    pop = s.population
    today = s.now.date()
    domain = pop.home.domain
    made = [
        s.create(
            Product,
            sku=p.sku,
            name=p.name,
            url=f"https://shop.{domain}/products/{p.sku.lower()}",
            created_at=s.ago(days=400),
        )
        for p in pop.products[:12]
    ]
    staff = pop.staff("Support", "Marketing", fallback=3)
    for k, who in enumerate(pop.consumers[:24]):
        bought = [made[k % len(made)], made[(k * 5 + 3) % len(made)]]
        bought = list({p.id: p for p in bought}.values())
        delivered = today - dt.timedelta(days=3 + 2 * k)
        status: RequestStatus = "scheduled" if delivered + REQUEST_DELAY > today else "sent"
        if status == "sent" and k % 5 in (1, 4):
            status = "cancelled" if k % 5 == 4 else "scheduled"
        req = s.create(
            ReviewRequest,
            order_number=f"SO-{10400 + k}",
            email=who.email,
            customer_name=who.name,
            product_ids=tuple(p.id for p in bought),
            delivered_on=delivered,
            send_after=delivered + REQUEST_DELAY,
            status=status,
            sent_at=s.ago(days=(today - delivered - REQUEST_DELAY).days) if status == "sent" else None,
            created_at=s.ago(days=(today - delivered).days),
        )
        if status != "sent" or k % 3 == 2:
            continue
        score, title, content = TEXTS[(k + 1) % len(TEXTS)]
        rstatus: ReviewStatus = "rejected" if score == 1 else "pending" if k % 4 == 3 else "published"
        s.create(
            Review,
            product_id=bought[0].id,
            email=who.email,
            display_name=who.name,
            score=score,
            title=title,
            content=content,
            photo_urls=(f"https://cdn.{domain}/reviews/{req.id}-1.jpg",) if k % 2 else (),
            verified_buyer=True,
            status=rstatus,
            reject_reason="spam" if rstatus == "rejected" else None,
            store_reply="Thanks for the review!" if rstatus == "published" and k % 3 == 0 else "",
            replied_by=staff[0].email if rstatus == "published" and k % 3 == 0 else None,
            syndicated_to=("google_shopping",) if rstatus == "published" and score >= 4 else (),
            created_at=s.ago(days=max(0, (today - delivered - REQUEST_DELAY).days - 1)),
            updated_at=s.ago(days=0.5),
        )
        s.update(req, status="completed")
    for k, who in enumerate(pop.consumers[30:34]):
        p = made[k * 2]
        s.create(
            Review,
            product_id=p.id,
            email=who.email,
            display_name=who.name,
            score=4 - k % 3,
            title="Bought it in a shop",
            content="Not from this store, but happy with it overall.",
            status="published" if k % 2 else "pending",
            created_at=s.ago(days=20 + k),
            updated_at=s.ago(days=10),
        )
    for p in made:
        scores = [r.score for r in s.records(Review) if r.product_id == p.id and r.status == "published"]
        if scores:
            s.update(p, average_score=round(sum(scores) / len(scores), 2), review_count=len(scores))
    for k, who in enumerate(pop.consumers[40:46]):
        answered = k % 3 != 2
        s.create(
            Question,
            product_id=made[k].id,
            email=who.email,
            display_name=who.name,
            content=QA[k % 3][0],
            status="answered" if answered else "pending",
            answer=QA[k % 3][1] if answered else "",
            answered_by=staff[k % len(staff)].email if answered else None,
            created_at=s.ago(days=9 - k),
            updated_at=s.ago(days=8 - k),
        )
