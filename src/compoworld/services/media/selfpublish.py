"""Inkwell Press: self-publishing of the company's books to e-book and print stores, with royalties.

Modeled on the Draft2Digital publisher API: authors (contributors paid
royalties), books that go draft → published → unpublished, formats per book
(ebook, paperback, hardcover) each with its own ISBN-13 and list price,
distribution of a published book to stores (Amazon, Apple Books, Kobo, Barnes &
Noble, Google Play, Tolino, Scribd) that goes pending → live or rejected and is
taken down to removed, price schedules (promotions for a date range below list
price, scheduled → active → ended or cancelled), monthly sales report lines
per store and format, and royalty payments that sweep an author's unpaid sales.
A book is published only with at least one format; print formats go only to
stores that sell print; ISBNs are valid ISBN-13 and unique; promotions of one
format do not overlap; a royalty payment is made only for at least $10.00.
"""

from __future__ import annotations

import datetime as dt
from typing import Annotated, Any, Literal

from pydantic import Field, StringConstraints

from compoworld.engine.context import Ctx
from compoworld.engine.errors import Conflict, RuleViolation
from compoworld.engine.service import Service, Transition
from compoworld.engine.state import SeedContext
from compoworld.engine.types import Cents, Date, Email, IdOf, Language, PersonName, SemanticType, Text, Title
from compoworld.services.kit.examples import first_example
from compoworld.services.kit.records import Created, Timestamped, Value

__all__ = ["service"]

service = Service(
    "selfpublish",
    title="Inkwell Press",
    category="self_publishing",
    modeled_on="Draft2Digital publisher API (books, formats with ISBNs, store distribution and takedowns, "
    "price promotions, sales reports, royalty payments)",
    description="Self-publishing for the company's imprint: authors, books and their e-book and print formats "
    "with ISBNs, distribution to the retail stores with its status, scheduled price promotions, monthly sales "
    "by store, and royalty payments to authors.",
)

AuthorId = Annotated[str, IdOf("selfpublish.author")]
BookId = Annotated[str, IdOf("selfpublish.book")]
FormatId = Annotated[str, IdOf("selfpublish.format")]
DistributionId = Annotated[str, IdOf("selfpublish.distribution")]
PromotionId = Annotated[str, IdOf("selfpublish.promotion")]
SaleId = Annotated[str, IdOf("selfpublish.sale")]
PaymentId = Annotated[str, IdOf("selfpublish.royalty_payment")]

Isbn = Annotated[str, SemanticType("isbn", kind="ref"), StringConstraints(pattern=r"^97[89][0-9]{10}$")]
"""An ISBN-13."""
Month = Annotated[str, StringConstraints(pattern=r"^20[0-9]{2}-(0[1-9]|1[0-2])$")]
"""A calendar month, YYYY-MM."""
Store = Literal["amazon", "apple_books", "kobo", "barnes_noble", "google_play", "tolino", "scribd"]
FormatKind = Literal["ebook", "paperback", "hardcover"]
BookStatus = Literal["draft", "published", "unpublished"]
DistStatus = Literal["pending", "live", "rejected", "removed"]
PromoStatus = Literal["scheduled", "active", "ended", "cancelled"]
PaymentStatus = Literal["pending", "paid"]
Genre = Literal["business", "technology", "fiction", "memoir", "self_help", "cooking", "children"]

PRINT_STORES: frozenset[str] = frozenset({"amazon", "barnes_noble"})
ROYALTY_RATE = {"ebook": 0.6, "paperback": 0.45, "hardcover": 0.4}
MIN_PAYOUT = 1000


class Author(Timestamped):
    """A contributor whose books the imprint publishes and who is paid royalties."""

    id: AuthorId
    name: PersonName
    """Pen name as printed on the cover."""
    email: Email
    """Where statements and payments go (unique)."""
    bio: Text = ""
    """Short biography shown in stores."""
    royalty_share: Annotated[float, Field(ge=0, le=1)] = 1.0
    """Share of net royalties paid to the author (0-1)."""


class Book(Timestamped):
    """A book: its metadata and publishing status."""

    id: BookId
    title: Title
    """Title."""
    subtitle: str = ""
    """Subtitle."""
    author_id: AuthorId
    """The author."""
    genre: Genre
    """Store category."""
    language: Language = "en"
    """Language."""
    description: Text = ""
    """Store description."""
    status: BookStatus = "draft"
    """draft, published or unpublished."""
    published_on: Date | None = None
    """When it was first published."""


class Format(Created):
    """One edition of a book: e-book or print, with its ISBN and list price."""

    id: FormatId
    book_id: BookId
    """The book."""
    kind: FormatKind
    """ebook, paperback or hardcover."""
    isbn: Isbn
    """Its ISBN-13 (unique)."""
    list_price: Cents
    """List price in cents (USD)."""
    pages: Annotated[int, Field(ge=1, le=5000)] = 200
    """Page count."""


class Distribution(Timestamped):
    """A book's distribution to one store."""

    id: DistributionId
    book_id: BookId
    """The book."""
    store: Store
    """The store."""
    format_kinds: tuple[FormatKind, ...]
    """Formats delivered to the store."""
    status: DistStatus = "pending"
    """pending, live, rejected or removed."""
    store_url: str | None = None
    """The product page once live."""
    note: str = ""
    """Why it was rejected or removed."""


class Promotion(Created):
    """A price promotion for one format over a date range."""

    id: PromotionId
    format_id: FormatId
    """The format."""
    price: Cents
    """Promotional price in cents (below list price; 0 makes it free)."""
    starts_on: Date
    """First day."""
    ends_on: Date
    """Last day."""
    status: PromoStatus = "scheduled"
    """scheduled, active, ended or cancelled."""


class Sale(Created):
    """A monthly sales report line: units of one format sold at one store."""

    id: SaleId
    book_id: BookId
    """The book."""
    author_id: AuthorId
    """Its author."""
    format_kind: FormatKind
    """The format sold."""
    store: Store
    """Where."""
    month: Month
    """The month reported."""
    units: Annotated[int, Field(ge=0)]
    """Units sold."""
    royalty: Cents
    """Royalty earned, in cents."""
    payment_id: PaymentId | None = None
    """The royalty payment that paid it."""


class RoyaltyPayment(Created):
    """A payment of an author's unpaid royalties."""

    id: PaymentId
    author_id: AuthorId
    """The author."""
    amount: Cents
    """Amount in cents."""
    sale_count: int
    """How many sales lines it pays."""
    method: Literal["ach", "paypal", "check"] = "ach"
    """How it is sent."""
    status: PaymentStatus = "pending"
    """pending or paid."""
    paid_on: Date | None = None
    """When it was sent."""


class BookSales(Value):
    """A book's sales totals."""

    book_id: BookId
    """The book."""
    units: int
    """Units sold."""
    royalty: int
    """Royalty earned, in cents."""
    by_store: dict[str, int]
    """Units per store."""
    unpaid_royalty: int
    """Royalty not yet paid out, in cents."""


# -- rules ------------------------------------------------------------------------------------


def _isbn_ok(isbn: str) -> bool:
    total = sum(int(c) * (1 if k % 2 == 0 else 3) for k, c in enumerate(isbn[:12]))
    return (10 - total % 10) % 10 == int(isbn[12])


def _make_isbn(stem: int) -> str:
    body = f"979{stem:09d}"[:12]
    total = sum(int(c) * (1 if k % 2 == 0 else 3) for k, c in enumerate(body))
    return body + str((10 - total % 10) % 10)


def _guard_author(ctx: Ctx, new: Any, old: Any) -> None:
    for other in ctx.where(Author, email=new.email):
        if other.id != new.id:
            raise Conflict(f"author {other.id} already uses {new.email}", field="email", hint="update that author")


def _guard_book_delete(ctx: Ctx, new: Any, old: Any) -> None:
    if old.status != "draft":
        raise RuleViolation(
            f"book {old.id} is {old.status}; only drafts are deleted",
            field="book_id",
            hint="unpublish it with selfpublish__unpublish_book instead",
        )
    for f in ctx.where(Format, book_id=old.id):
        ctx.delete(f)


def _guard_format_update(ctx: Ctx, new: Any, old: Any) -> None:
    for p in ctx.where(Promotion, format_id=new.id):
        if p.status in ("scheduled", "active") and p.price >= new.list_price:
            raise RuleViolation(
                f"promotion {p.id} at {p.price} would no longer be below the list price",
                field="list_price",
                hint="cancel the promotion first",
            )


authors = service.resource(
    Author,
    name="author",
    plural="authors",
    prefix="auth",
    create=("name", "email", "bio", "royalty_share"),
    filters=("email",),
    search=("name", "bio"),
    update=("name", "email", "bio", "royalty_share"),
    delete=False,
    guard_create=_guard_author,
    guard_update=_guard_author,
)
books = service.resource(
    Book,
    name="book",
    plural="books",
    prefix="book",
    create=("title", "subtitle", "author_id", "genre", "language", "description"),
    filters=("author_id", "status", "genre"),
    search=("title", "subtitle", "description"),
    update=("title", "subtitle", "genre", "description"),
    guard_delete=_guard_book_delete,
)
formats = service.resource(
    Format,
    name="format",
    plural="formats",
    prefix="fmt",
    create=False,
    filters=("book_id", "kind", "isbn"),
    update=("list_price", "pages"),
    delete=False,
    unique=("isbn",),
    guard_update=_guard_format_update,
)
distributions = service.resource(
    Distribution,
    name="distribution",
    plural="distributions",
    prefix="dist",
    create=False,
    filters=("book_id", "store", "status"),
    delete=False,
    title="store distribution",
)
promotions = service.resource(
    Promotion,
    name="promotion",
    plural="promotions",
    prefix="promo",
    create=False,
    filters=("format_id", "status"),
    delete=False,
    transitions={
        "cancel": Transition("status", ("scheduled", "active"), "cancelled", "cancel the price promotion"),
    },
    title="price promotion",
)
sales = service.resource(
    Sale,
    name="sale",
    plural="sales",
    prefix="sale",
    create=False,
    get=False,
    filters=("book_id", "author_id", "store", "month", "format_kind", "payment_id"),
    delete=False,
    title="sales report line",
)
payments = service.resource(
    RoyaltyPayment,
    name="royalty_payment",
    plural="royalty_payments",
    prefix="roy",
    create=False,
    filters=("author_id", "status"),
    delete=False,
    title="royalty payment",
)


# -- domain tools -----------------------------------------------------------------------------


def _example_format(ctx: Ctx) -> dict[str, Any] | None:
    for b in ctx.where(Book, status="draft"):
        if not ctx.where(Format, book_id=b.id, kind="hardcover"):
            return {"book_id": b.id, "kind": "hardcover", "isbn": _make_isbn(880000001), "list_price": 2999}
    return None


@service.tool(intent="add a format to the book", write=True, example=_example_format)
def add_format(ctx: Ctx, book_id: BookId, kind: FormatKind, isbn: Isbn, list_price: Cents, pages: int = 200) -> Format:
    """Add an e-book or print edition with its own ISBN-13; a book has at most one of each kind.

    Args:
        book_id: The book.
        kind: ebook, paperback or hardcover.
        isbn: A valid ISBN-13 not used by another format.
        list_price: List price in cents (print at least 499).
        pages: Page count.
    """
    book = ctx.get(Book, book_id, field="book_id")
    if book.status == "unpublished":
        raise RuleViolation(f"book {book.id} is unpublished", field="book_id", hint="republish it first")
    if ctx.where(Format, book_id=book.id, kind=kind):
        raise Conflict(f"book {book.id} already has a {kind}", field="kind", hint="update that format instead")
    if not _isbn_ok(isbn):
        raise RuleViolation(f"{isbn} has a wrong check digit", field="isbn", hint="check the ISBN-13")
    if kind != "ebook" and list_price < 499:
        raise RuleViolation("print editions list at $4.99 or more", field="list_price", hint="raise the price")
    return ctx.create(Format, book_id=book.id, kind=kind, isbn=isbn, list_price=list_price, pages=pages)


@service.tool(
    intent="publish the book",
    write=True,
    example=first_example(
        Book, "book_id", match=lambda ctx, b: b.status != "published" and bool(ctx.where(Format, book_id=b.id))
    ),
)
def publish_book(ctx: Ctx, book_id: BookId) -> Book:
    """Publish a draft or unpublished book; it needs at least one format.

    Args:
        book_id: The book.
    """
    book = ctx.get(Book, book_id, field="book_id")
    if book.status == "published":
        raise Conflict(f"book {book.id} is already published", field="book_id", hint="distribute it to stores")
    if not ctx.where(Format, book_id=book.id):
        raise RuleViolation(
            f"book {book.id} has no format", field="book_id", hint="add one with selfpublish__add_format"
        )
    return ctx.update(book, status="published", published_on=book.published_on or ctx.today())


@service.tool(
    intent="unpublish the book",
    write=True,
    example=first_example(Book, "book_id", where={"status": "published"}),
)
def unpublish_book(ctx: Ctx, book_id: BookId) -> Book:
    """Take a published book off sale: every pending or live store distribution is removed.

    Args:
        book_id: The book.
    """
    book = ctx.get(Book, book_id, field="book_id")
    if book.status != "published":
        raise RuleViolation(f"book {book.id} is {book.status}", field="book_id", hint="only published books")
    for d in ctx.where(Distribution, book_id=book.id):
        if d.status in ("pending", "live"):
            ctx.update(d, status="removed", note="book unpublished")
    return ctx.update(book, status="unpublished")


def _example_distribute(ctx: Ctx) -> dict[str, Any] | None:
    for b in ctx.where(Book, status="published"):
        if not ctx.where(Distribution, book_id=b.id, store="tolino"):
            return {"book_id": b.id, "store": "tolino"}
    return None


@service.tool(intent="distribute the book to the store", write=True, example=_example_distribute)
def distribute_book(ctx: Ctx, book_id: BookId, store: Store) -> Distribution:
    """Send a published book to a store; print formats go only to Amazon and Barnes & Noble.

    Args:
        book_id: The book.
        store: amazon, apple_books, kobo, barnes_noble, google_play, tolino or scribd.
    """
    book = ctx.get(Book, book_id, field="book_id")
    if book.status != "published":
        raise RuleViolation(f"book {book.id} is {book.status}", field="book_id", hint="publish it first")
    for d in ctx.where(Distribution, book_id=book.id, store=store):
        if d.status in ("pending", "live"):
            raise Conflict(f"book {book.id} is already {d.status} at {store}", field="store", hint="pick another")
    kinds = tuple(f.kind for f in ctx.where(Format, book_id=book.id) if f.kind == "ebook" or store in PRINT_STORES)
    if not kinds:
        raise RuleViolation(
            f"{store} sells e-books only and book {book.id} has no ebook format",
            field="store",
            hint="add an ebook format or pick amazon or barnes_noble",
        )
    return ctx.create(Distribution, book_id=book.id, store=store, format_kinds=kinds)


@service.tool(
    intent="mark the store distribution live",
    write=True,
    example=first_example(Distribution, "distribution_id", where={"status": "pending"}),
)
def confirm_live(ctx: Ctx, distribution_id: DistributionId) -> Distribution:
    """Record that a store accepted a pending distribution; the book's product page is now live.

    Args:
        distribution_id: The distribution.
    """
    d = ctx.get(Distribution, distribution_id, field="distribution_id")
    if d.status != "pending":
        raise RuleViolation(f"distribution {d.id} is {d.status}", field="distribution_id", hint="only pending ones")
    return ctx.update(d, status="live", store_url=f"https://store.example/{d.store}/{d.book_id}")


@service.tool(
    intent="take the book down from the store",
    write=True,
    destructive=True,
    example=first_example(Distribution, "distribution_id", where={"status": "live"}, reason="Rights reverted"),
)
def remove_from_store(ctx: Ctx, distribution_id: DistributionId, reason: Text) -> Distribution:
    """Remove a pending or live distribution from its store.

    Args:
        distribution_id: The distribution.
        reason: Why it is taken down.
    """
    d = ctx.get(Distribution, distribution_id, field="distribution_id")
    if d.status not in ("pending", "live"):
        raise RuleViolation(f"distribution {d.id} is {d.status}", field="distribution_id", hint="nothing to remove")
    if not reason.strip():
        raise RuleViolation("a takedown needs a reason", field="reason", hint="say why")
    return ctx.update(d, status="removed", note=reason.strip())


def _example_promo(ctx: Ctx) -> dict[str, Any] | None:
    for f in ctx.where(Format, kind="ebook"):
        if not any(p.status in ("scheduled", "active") for p in ctx.where(Promotion, format_id=f.id)):
            start = ctx.today() + dt.timedelta(days=3)
            return {
                "format_id": f.id,
                "price": f.list_price // 2,
                "starts_on": start.isoformat(),
                "ends_on": (start + dt.timedelta(days=7)).isoformat(),
            }
    return None


@service.tool(intent="schedule a price promotion", write=True, example=_example_promo)
def schedule_promotion(ctx: Ctx, format_id: FormatId, price: Cents, starts_on: Date, ends_on: Date) -> Promotion:
    """Schedule a lower price for a format over a date range (at most 90 days, not overlapping another).

    Args:
        format_id: The format.
        price: The promotional price in cents, below the list price.
        starts_on: First day (today or later).
        ends_on: Last day (on or after starts_on).
    """
    fmt = ctx.get(Format, format_id, field="format_id")
    if price >= fmt.list_price:
        raise RuleViolation(
            f"price must be below the list price {fmt.list_price}", field="price", hint="lower the price"
        )
    if starts_on < ctx.today():
        raise RuleViolation("a promotion cannot start in the past", field="starts_on", hint="start today or later")
    if ends_on < starts_on or (ends_on - starts_on).days > 90:
        raise RuleViolation("a promotion runs 1 to 91 days", field="ends_on", hint="pick an end within 90 days")
    for p in ctx.where(Promotion, format_id=fmt.id):
        if p.status in ("scheduled", "active") and p.starts_on <= ends_on and starts_on <= p.ends_on:
            raise Conflict(f"promotion {p.id} overlaps", field="starts_on", hint="cancel it or pick other dates")
    status: PromoStatus = "active" if starts_on == ctx.today() else "scheduled"
    return ctx.create(Promotion, format_id=fmt.id, price=price, starts_on=starts_on, ends_on=ends_on, status=status)


def _unpaid(ctx: Ctx, author_id: str) -> list[Sale]:
    return [s for s in ctx.where(Sale, author_id=author_id) if s.payment_id is None]


@service.tool(intent="show the book's sales", example=first_example(Book, "book_id", where={"status": "published"}))
def book_sales(ctx: Ctx, book_id: BookId, month: Month | None = None) -> BookSales:
    """Units and royalties of a book, per store, over all months or one month.

    Args:
        book_id: The book.
        month: Only this month (YYYY-MM).
    """
    book = ctx.get(Book, book_id, field="book_id")
    lines = [s for s in ctx.where(Sale, book_id=book.id) if month is None or s.month == month]
    by_store: dict[str, int] = {}
    for s in lines:
        by_store[s.store] = by_store.get(s.store, 0) + s.units
    return BookSales(
        book_id=book.id,
        units=sum(s.units for s in lines),
        royalty=sum(s.royalty for s in lines),
        by_store=by_store,
        unpaid_royalty=sum(s.royalty for s in lines if s.payment_id is None),
    )


def _example_pay(ctx: Ctx) -> dict[str, Any] | None:
    for a in ctx.scan(Author):
        if sum(s.royalty for s in _unpaid(ctx, a.id)) >= MIN_PAYOUT:
            return {"author_email": a.email, "method": "paypal"}
    return None


@service.tool(intent="pay the author's royalties", write=True, example=_example_pay)
def pay_royalties(ctx: Ctx, author_email: Email, method: Literal["ach", "paypal", "check"] = "ach") -> RoyaltyPayment:
    """Pay an author every unpaid royalty (their share of it); refused under $10.00.

    Args:
        author_email: The author's e-mail.
        method: ach, paypal or check.
    """
    author = ctx.first(Author, email=author_email)
    if author is None:
        raise RuleViolation(f"no author with e-mail {author_email}", field="author_email", hint="list authors")
    unpaid = _unpaid(ctx, author.id)
    amount = round(sum(s.royalty for s in unpaid) * author.royalty_share)
    if amount < MIN_PAYOUT:
        raise RuleViolation(
            f"{author.name} has {amount} cents unpaid; payments start at {MIN_PAYOUT}",
            field="author_email",
            hint="wait for more sales",
        )
    pay = ctx.create(RoyaltyPayment, author_id=author.id, amount=amount, sale_count=len(unpaid), method=method)
    for s in unpaid:
        ctx.update(s, payment_id=pay.id)
    return pay


@service.tool(
    intent="mark the royalty payment paid",
    write=True,
    example=first_example(RoyaltyPayment, "payment_id", where={"status": "pending"}),
)
def mark_paid(ctx: Ctx, payment_id: PaymentId) -> RoyaltyPayment:
    """Record that a pending royalty payment was sent today.

    Args:
        payment_id: The payment.
    """
    pay = ctx.get(RoyaltyPayment, payment_id, field="payment_id")
    if pay.status == "paid":
        raise Conflict(f"payment {pay.id} was paid on {pay.paid_on}", field="payment_id", hint="nothing to do")
    return ctx.update(pay, status="paid", paid_on=ctx.today())


# -- seed -------------------------------------------------------------------------------------

TITLES: tuple[tuple[str, str, Genre], ...] = (
    ("The Quiet Ledger", "Finance for Founders", "business"),
    ("Shipping on Fridays", "A Field Guide to Calm Releases", "technology"),
    ("Harbor Lights", "", "fiction"),
    ("Small Kitchens, Big Flavors", "", "cooking"),
    ("Ninety Days North", "A Memoir", "memoir"),
    ("The Second Draft", "", "fiction"),
)
STORES: tuple[Store, ...] = ("amazon", "apple_books", "kobo", "barnes_noble", "google_play")


def _month(day: dt.date, back: int) -> str:
    m = day.month - 1 - back
    return f"{day.year + m // 12:04d}-{m % 12 + 1:02d}"


@service.seeder
def seed(s: SeedContext) -> None:
    """Authors from the world's people, books in every state with formats, live stores, promotions, sales."""
    pop = s.population
    people = list(pop.contacts[:3]) + list(pop.employees[:1])
    made = [
        s.create(
            Author,
            name=p.name,
            email=p.email,
            bio=f"{p.first_name} writes from {p.place.city}.",
            royalty_share=0.85 if k % 2 else 1.0,
            created_at=s.ago(days=500 - 40 * k),
            updated_at=s.ago(days=30),
        )
        for k, p in enumerate(people)
    ]
    today = s.now.date()
    for k, (title, subtitle, genre) in enumerate(TITLES):
        status: BookStatus = "draft" if k == 5 else "unpublished" if k == 4 else "published"
        book = s.create(
            Book,
            title=title,
            subtitle=subtitle,
            author_id=made[k % len(made)].id,
            genre=genre,
            description=f"{title}: {subtitle or genre}.",
            status=status,
            published_on=None if status == "draft" else today - dt.timedelta(days=300 - 30 * k),
            created_at=s.ago(days=400 - 30 * k),
            updated_at=s.ago(days=20),
        )
        kinds: tuple[FormatKind, ...] = ("ebook", "paperback") if k % 3 != 2 else ("ebook",)
        for j, kind in enumerate(kinds):
            s.create(
                Format,
                book_id=book.id,
                kind=kind,
                isbn=_make_isbn(100000 + 10 * k + j),
                list_price=499 + 300 * k if kind == "ebook" else 1499 + 100 * k,
                pages=180 + 20 * k,
                created_at=s.ago(days=380 - 30 * k),
            )
        if status != "draft":
            _seed_stores(s, book, kinds, k, today)
    _seed_promotions(s, today)


def _seed_stores(s: SeedContext, book: Book, kinds: tuple[FormatKind, ...], k: int, today: dt.date) -> None:
    for j, store in enumerate(STORES[: 3 + k % 3]):
        sent = tuple(x for x in kinds if x == "ebook" or store in PRINT_STORES)
        dstatus: DistStatus = "removed" if book.status == "unpublished" else "pending" if j == 4 else "live"
        if k == 1 and j == 2:
            dstatus = "rejected"
        s.create(
            Distribution,
            book_id=book.id,
            store=store,
            format_kinds=sent,
            status=dstatus,
            store_url=f"https://store.example/{store}/{book.id}" if dstatus == "live" else None,
            note="Cover text too small" if dstatus == "rejected" else "",
            created_at=s.ago(days=250 - 10 * j),
            updated_at=s.ago(days=5 + j),
        )
        if dstatus in ("live", "removed"):
            for back in range(1, 4):
                for kind in sent:
                    units = s.rng.randint(3, 60)
                    price = 499 + 300 * k if kind == "ebook" else 1499 + 100 * k
                    s.create(
                        Sale,
                        book_id=book.id,
                        author_id=book.author_id,
                        format_kind=kind,
                        store=store,
                        month=_month(today, back),
                        units=units,
                        royalty=round(units * price * ROYALTY_RATE[kind]),
                        created_at=s.ago(days=30 * back - 5),
                    )


def _seed_promotions(s: SeedContext, today: dt.date) -> None:
    ebooks = [f for f in s.records(Format) if f.kind == "ebook"]
    plans = ((-40, 7, "ended"), (-2, 10, "active"), (10, 5, "scheduled"))
    for f, (start, length, status) in zip(ebooks[: len(plans)], plans, strict=True):
        s.create(
            Promotion,
            format_id=f.id,
            price=f.list_price // 2,
            starts_on=today + dt.timedelta(days=start),
            ends_on=today + dt.timedelta(days=start + length),
            status=status,
            created_at=s.ago(days=60),
        )
    for n, author in enumerate(s.records(Author)[:2]):
        paid = [x for x in s.records(Sale) if x.author_id == author.id and x.month == _month(today, 3)]
        pay = s.create(
            RoyaltyPayment,
            author_id=author.id,
            amount=round(sum(x.royalty for x in paid) * author.royalty_share),
            sale_count=len(paid),
            method="ach",
            status="paid" if n == 0 else "pending",
            paid_on=today - dt.timedelta(days=40) if n == 0 else None,
            created_at=s.ago(days=45 - 40 * n),
        )
        for x in paid:
            s.update(x, payment_id=pay.id)
