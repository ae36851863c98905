"""Shelfmark Books: book metadata (works, editions by ISBN, authors, subjects, covers) and the team's shelves.

Modeled on the Open Library API: ``/search.json`` (``q``, ``title``, ``author``,
``subject``, ``first_publish_year``, ``language``, ``sort=new|old|rating``),
``/works/OL…W.json`` and ``/works/OL…W/editions.json``, ``/books/OL…M.json``,
``/isbn/{isbn}`` (ISBN-10 or ISBN-13), ``/authors/OL…A.json`` and
``/authors/OL…A/works.json``, ``/search/authors.json``, ``/subjects/{slug}.json``
and the Covers API (``covers.openlibrary.org/b/isbn/{isbn}-S|M|L.jpg``). Ids keep
Open Library's letters: ``OL…W`` works, ``OL…M`` editions, ``OL…A`` authors.

An open-world service: the catalogue is a deterministic draw from the world
seed; each work has one to three editions with valid ISBN-10 and ISBN-13 check
digits, a few of the home company's employees are authors of business books,
and each work's ``edition_count`` and each subject's ``work_count`` are computed
from the same catalogue, so all tools agree. Stored state is the team's shelves
(Open Library's reading log and lists): an employee's shelf holds a work once,
read in turn (``want-to-read``, ``currently-reading``, ``already-read``); only
an already-read book can be rated (1 to 5 stars); an archived shelf is frozen,
and a shelf with a book still being read cannot be deleted.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Annotated, Any, Literal

from pydantic import BaseModel, Field, StringConstraints

from compoworld.engine.context import Ctx
from compoworld.engine.entities import Population
from compoworld.engine.errors import Conflict, NotFound, RuleViolation
from compoworld.engine.service import Service, Transition
from compoworld.engine.state import SeedContext
from compoworld.engine.types import Email, IdOf, Language, SemanticType, Text, Title, Url
from compoworld.services.kit.drawn import per_population
from compoworld.services.kit.examples import first_example, fixed_example
from compoworld.services.kit.records import Timestamped
from compoworld.services.kit.text import fold

__all__ = ["service"]

service = Service(
    "books",
    title="Shelfmark Books",
    category="book_data",
    modeled_on="Open Library API (search.json, works and their editions, books by ISBN, authors and their works, "
    "subjects, Covers API) with Open Library reading-log shelves and star ratings",
    description="Book metadata: search books by title, author, subject, year and language, look up works, editions "
    "and ISBNs, author profiles and subjects, get cover image links, and keep the team's reading shelves with "
    "reading status and ratings.",
)

WorkId = Annotated[str, SemanticType("books.work", kind="ref"), StringConstraints(pattern=r"^OL[0-9]{3,9}W$")]
EditionId = Annotated[str, SemanticType("books.edition", kind="ref"), StringConstraints(pattern=r"^OL[0-9]{3,9}M$")]
AuthorId = Annotated[str, SemanticType("books.author", kind="ref"), StringConstraints(pattern=r"^OL[0-9]{3,9}A$")]
Isbn13 = Annotated[str, SemanticType("isbn", kind="ref"), StringConstraints(pattern=r"^97[89][0-9]{10}$")]
Isbn10 = Annotated[str, SemanticType("isbn10", kind="ref"), StringConstraints(pattern=r"^[0-9]{9}[0-9X]$")]
AnyIsbn = Annotated[
    str, SemanticType("isbn", kind="ref"), StringConstraints(pattern=r"^(97[89][0-9]{10}|[0-9]{9}[0-9X])$")
]
SubjectSlug = Annotated[str, StringConstraints(pattern=r"^[a-z][a-z_]{1,40}$")]
ShelfId = Annotated[str, IdOf("books.shelf")]
EntryId = Annotated[str, IdOf("books.entry")]
Search = Annotated[str, StringConstraints(min_length=2, max_length=120)]
Year = Annotated[int, Field(ge=1450, le=2100)]
Rating = Annotated[int, Field(ge=1, le=5)]

ReadingStatus = Literal["want-to-read", "currently-reading", "already-read"]
Format = Literal["Hardcover", "Paperback", "E-book"]
MAX_ENTRIES = 200
COVERS = "https://covers.openlibrary.org/b"


def _w(text: str) -> tuple[str, ...]:
    return tuple(text.split(";"))


_SUBJECTS: tuple[tuple[str, str, tuple[str, ...], tuple[str, ...]], ...] = (
    ("business", "Business", _w("Strategy;Growth;Negotiation;Leadership;Startups"), _w("The;Built to;Beyond")),
    ("management", "Management", _w("Teams;Managers;Meetings;Decisions"), _w("High Output;The Effective;Radical")),
    (
        "software_engineering",
        "Software engineering",
        _w("Code;Systems;Refactoring;Architecture"),
        _w("Clean;Pragmatic;Designing"),
    ),
    (
        "economics",
        "Economics",
        _w("Markets;Money;Inflation;Trade;Capital"),
        _w("The Wealth of;Understanding;The Age of"),
    ),
    ("history", "History", _w("Empires;Rivers;Silk Roads;Revolutions"), _w("A History of;The Rise of;The Fall of")),
    (
        "science_fiction",
        "Science fiction",
        _w("Stars;Machines;Colonies;Signals;Dunes"),
        _w("The Last;Children of;Beyond the"),
    ),
    (
        "mystery",
        "Mystery",
        _w("Lighthouse;Orchard;Harbour;Glass House"),
        _w("Murder at the;The Secret of the;Death by the"),
    ),
    ("cooking", "Cooking", _w("Bread;Spices;Vegetables;Fermentation"), _w("Salt and;The Joy of;Simple")),
)
"""Slug, name, title nouns, title openings."""
_PUBLISHERS = _w("Penguin Books;HarperCollins;Vintage;O'Reilly Media;Wiley;Random House;Portfolio;Tor Books")
_LANGS = ("en", "en", "en", "es", "fr", "de")
_FIRST = _w("Margaret;Haruki;Chimamanda;Isabel;Orhan;Zadie;Kazuo;Elena;Jonathan;Yuval;Ursula;Colson;Arundhati;Tana")
_LAST = _w("Whitfield;Okonkwo;Lindgren;Moreno;Castell;Achebe;Hartley;Brennan;Varga;Sato;Delacroix;Mensah;Quist")


@dataclass(frozen=True, slots=True)
class _Author:
    id: str
    name: str
    birth_year: int
    email: str | None


@dataclass(frozen=True, slots=True)
class _Edition:
    id: str
    work_id: str
    isbn_13: str
    isbn_10: str
    publisher: str
    publish_year: int
    pages: int
    format: str
    language: str
    cover_id: int


@dataclass(frozen=True, slots=True)
class _Work:
    id: str
    title: str
    author_ids: tuple[str, ...]
    subjects: tuple[str, ...]
    first_publish_year: int
    ratings_average: float
    ratings_count: int
    edition_ids: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class _Db:
    authors: dict[str, _Author]
    works: dict[str, _Work]
    editions: dict[str, _Edition]
    by_isbn: dict[str, str]


def _isbn13(core: str) -> str:
    body = "978" + core
    total = sum(int(c) * (1 if k % 2 == 0 else 3) for k, c in enumerate(body))
    return body + str((10 - total % 10) % 10)


def _isbn10(core: str) -> str:
    check = (11 - sum(int(c) * (10 - k) for k, c in enumerate(core)) % 11) % 11
    return core + ("X" if check == 10 else str(check))


def _valid_isbn(isbn: str) -> bool:
    if len(isbn) == 13:
        return _isbn13(isbn[3:12]) == isbn
    return isbn[:9].isdigit() and _isbn10(isbn[:9]) == isbn


@per_population
def _build(pop: Population, year: int) -> _Db:
    r = random.Random(f"books:{pop.seed}")
    authors: dict[str, _Author] = {}
    names = r.sample([f"{f} {last}" for f in _FIRST for last in _LAST], 30)
    for k, name in enumerate(names):
        aid = f"OL{100_000 + 7_919 * k}A"
        authors[aid] = _Author(aid, name, r.randint(1935, 1990), None)
    writers = pop.employees[:2]
    for k, p in enumerate(writers):
        aid = f"OL{900_000 + 1_013 * k}A"
        authors[aid] = _Author(aid, p.name, p.birth_date.year, p.email)
    plain = list(authors)[: len(names)]
    works: dict[str, _Work] = {}
    editions: dict[str, _Edition] = {}
    for n in range(140):
        slug, _name, nouns, openings = _SUBJECTS[n % len(_SUBJECTS)]
        second = r.choice(_SUBJECTS)[0]
        subjects = tuple(dict.fromkeys((slug, second)))
        if n < 2 * len(writers):
            team: tuple[str, ...] = (list(authors)[len(names) + n % len(writers)],)
            subjects = ("business", "management")
            first = year - 1 - n
        else:
            team = tuple(dict.fromkeys(r.sample(plain, r.choice((1, 1, 1, 2)))))
            first = r.randint(1950, year)
        title = f"{r.choice(openings)} {r.choice(nouns)}"
        wid = f"OL{2_000_000 + 9_973 * n}W"
        eds = []
        for j in range(r.choice((1, 1, 2, 3))):
            core = f"{r.randint(0, 9)}{n:04d}{j}{r.randint(0, 999):03d}"
            eid = f"OL{30_000_000 + 31_337 * n + 7 * j}M"
            editions[eid] = _Edition(
                eid,
                wid,
                _isbn13(core),
                _isbn10(core),
                r.choice(_PUBLISHERS),
                min(year, first + 3 * j),
                r.randint(120, 720),
                ("Hardcover", "Paperback", "E-book")[j % 3],
                "en" if j == 0 else r.choice(_LANGS),
                8_000_000 + 4_099 * n + j,
            )
            eds.append(eid)
        count = r.randint(0, 900)
        works[wid] = _Work(
            wid,
            title,
            team,
            subjects,
            first,
            round(r.uniform(2.8, 4.8), 2) if count else 0.0,
            count,
            tuple(eds),
        )
    by_isbn = {e.isbn_13: e.id for e in editions.values()} | {e.isbn_10: e.id for e in editions.values()}
    return _Db(authors, works, editions, by_isbn)


def _db(ctx: Ctx) -> _Db:
    return _build(ctx.population, ctx.today().year)


# -- result models -----------------------------------------------------------------------------------------


class AuthorRef(BaseModel):
    """An author of a work."""

    id: AuthorId = Field(description="Open Library author id.")
    name: str = Field(description="Their name.")


class Work(BaseModel):
    """A work: the book across its editions."""

    id: WorkId = Field(description="Open Library work id (OL…W).")
    title: str = Field(description="Title.")
    authors: list[AuthorRef] = Field(description="Its authors in order.")
    subjects: list[str] = Field(description="Subject slugs.")
    first_publish_year: int = Field(description="Year of the first edition.")
    edition_count: int = Field(description="Number of editions.")
    isbns: list[Isbn13] = Field(description="ISBN-13 of every edition.")
    ratings_average: float = Field(description="Mean star rating of Open Library readers (0: none).")
    ratings_count: int = Field(description="Number of ratings.")
    cover_url: Url = Field(description="Medium cover image of the first edition.")


class Edition(BaseModel):
    """An edition (a published book with ISBNs)."""

    id: EditionId = Field(description="Open Library edition id (OL…M).")
    work_id: WorkId = Field(description="The work.")
    title: str = Field(description="Title.")
    authors: list[AuthorRef] = Field(description="Authors.")
    isbn_13: Isbn13 = Field(description="ISBN-13.")
    isbn_10: Isbn10 = Field(description="ISBN-10.")
    publisher: str = Field(description="Publisher.")
    publish_year: int = Field(description="Year published.")
    number_of_pages: int = Field(description="Pages.")
    physical_format: Format = Field(description="Hardcover, Paperback or E-book.")
    language: Language = Field(description="Language (ISO 639-1).")
    cover_id: int = Field(description="Cover id on the Covers API.")


class Author(BaseModel):
    """An author's profile."""

    id: AuthorId = Field(description="Open Library author id (OL…A).")
    name: str = Field(description="Name.")
    birth_year: int = Field(description="Year of birth.")
    work_count: int = Field(description="Works written.")
    top_work: str = Field(description="Title of their most rated work.")
    top_subjects: list[str] = Field(description="Subjects they write on, most works first.")
    email: Email | None = Field(description="Contact e-mail when the author is someone the company knows.")


class Subject(BaseModel):
    """A subject with its works."""

    key: str = Field(description="Subject slug.")
    name: str = Field(description="Subject name.")
    work_count: int = Field(description="Works on the subject.")
    works: list[Work] = Field(description="Its most rated works.")


class Covers(BaseModel):
    """Cover image links of an edition."""

    isbn_13: Isbn13 = Field(description="The edition's ISBN-13.")
    cover_id: int = Field(description="Cover id.")
    small: Url = Field(description="Small image (S).")
    medium: Url = Field(description="Medium image (M).")
    large: Url = Field(description="Large image (L).")


def _refs(db: _Db, ids: tuple[str, ...]) -> list[AuthorRef]:
    return [AuthorRef(id=a, name=db.authors[a].name) for a in ids]


def _work(db: _Db, w: _Work) -> Work:
    eds = [db.editions[e] for e in w.edition_ids]
    return Work(
        id=w.id,
        title=w.title,
        authors=_refs(db, w.author_ids),
        subjects=list(w.subjects),
        first_publish_year=w.first_publish_year,
        edition_count=len(eds),
        isbns=[e.isbn_13 for e in eds],
        ratings_average=w.ratings_average,
        ratings_count=w.ratings_count,
        cover_url=f"{COVERS}/id/{eds[0].cover_id}-M.jpg",
    )


def _edition(db: _Db, e: _Edition) -> Edition:
    w = db.works[e.work_id]
    return Edition(
        id=e.id,
        work_id=w.id,
        title=w.title,
        authors=_refs(db, w.author_ids),
        isbn_13=e.isbn_13,
        isbn_10=e.isbn_10,
        publisher=e.publisher,
        publish_year=e.publish_year,
        number_of_pages=e.pages,
        physical_format=e.format,
        language=e.language,
        cover_id=e.cover_id,
    )


def _author(db: _Db, a: _Author) -> Author:
    mine = [w for w in db.works.values() if a.id in w.author_ids]
    counts: dict[str, int] = {}
    for w in mine:
        for s in w.subjects:
            counts[s] = counts.get(s, 0) + 1
    top = max(mine, key=lambda w: (w.ratings_count, w.id), default=None)
    return Author(
        id=a.id,
        name=a.name,
        birth_year=a.birth_year,
        work_count=len(mine),
        top_work="" if top is None else top.title,
        top_subjects=sorted(counts, key=lambda s: (-counts[s], s))[:3],
        email=a.email,
    )


def _get_work(ctx: Ctx, work_id: str, field: str = "work_id") -> _Work:
    w = _db(ctx).works.get(work_id)
    if w is None:
        raise NotFound(f"no work {work_id}", field=field, hint="find works with books__search_books")
    return w


def _by_isbn(ctx: Ctx, isbn: str, field: str = "isbn") -> _Edition:
    if not _valid_isbn(isbn):
        raise RuleViolation(
            f"{isbn} is not a valid ISBN: its check digit is wrong", field=field, hint="check the ISBN as printed"
        )
    db = _db(ctx)
    eid = db.by_isbn.get(isbn)
    if eid is None:
        raise NotFound(f"no edition with ISBN {isbn}", field=field, hint="search by title with books__search_books")
    return db.editions[eid]


def _get_author(ctx: Ctx, author_id: str) -> _Author:
    a = _db(ctx).authors.get(author_id)
    if a is None:
        raise NotFound(f"no author {author_id}", field="author_id", hint="find authors with books__search_authors")
    return a


def _subject(slug: str) -> tuple[str, str, tuple[str, ...], tuple[str, ...]]:
    for s in _SUBJECTS:
        if s[0] == slug:
            return s
    raise NotFound(f"no subject {slug!r}", field="subject", hint=f"use one of {', '.join(s[0] for s in _SUBJECTS)}")


# -- open-world tools --------------------------------------------------------------------------------------


@service.tool(intent="search books", open_world=True, example=fixed_example(q="the"))
def search_books(
    ctx: Ctx,
    q: Search | None = None,
    author: Search | None = None,
    subject: SubjectSlug | None = None,
    first_publish_year_from: Year | None = None,
    first_publish_year_to: Year | None = None,
    language: Language | None = None,
    sort: Literal["rating", "new", "old"] = "rating",
    limit: Annotated[int, Field(ge=1, le=50)] = 20,
) -> list[Work]:
    """Search works by title words, author name, subject, first-publish year and language (/search.json).

    Args:
        q: Words that must all appear in the title.
        author: Words that must all appear in an author's name.
        subject: Only works on this subject (slug, e.g. business).
        first_publish_year_from: Earliest first-publish year.
        first_publish_year_to: Latest first-publish year.
        language: Only works with an edition in this language (ISO 639-1).
        sort: rating (most rated first, default), new or old (by first-publish year).
        limit: Most results.
    """
    if first_publish_year_from and first_publish_year_to and first_publish_year_to < first_publish_year_from:
        raise RuleViolation(
            f"first_publish_year_to {first_publish_year_to} is before {first_publish_year_from}",
            field="first_publish_year_to",
            hint="give a range whose end is on or after its start",
        )
    if subject is not None:
        _subject(subject)
    db = _db(ctx)
    words, names = fold(q or "").split(), fold(author or "").split()
    found = [
        w
        for w in db.works.values()
        if all(x in fold(w.title).split() for x in words)
        and all(any(x in fold(db.authors[a].name).split() for a in w.author_ids) for x in names)
        and (subject is None or subject in w.subjects)
        and (first_publish_year_from is None or w.first_publish_year >= first_publish_year_from)
        and (first_publish_year_to is None or w.first_publish_year <= first_publish_year_to)
        and (language is None or any(db.editions[e].language == language for e in w.edition_ids))
    ]
    if sort == "rating":
        found.sort(key=lambda w: (-w.ratings_count, w.id))
    else:
        found.sort(key=lambda w: (w.first_publish_year, w.id), reverse=sort == "new")
    return [_work(db, w) for w in found[:limit]]


def _example_work(ctx: Ctx) -> dict[str, Any]:
    db = _db(ctx)
    return {"work_id": max(db.works.values(), key=lambda w: len(w.edition_ids)).id}


@service.tool(intent="get the book's work record", open_world=True, example=_example_work)
def get_work(ctx: Ctx, work_id: WorkId) -> Work:
    """Get a work with its authors, subjects, first-publish year, edition count, ISBNs and ratings.

    Args:
        work_id: The Open Library work id (OL…W).
    """
    return _work(_db(ctx), _get_work(ctx, work_id))


@service.tool(intent="list the editions of a work", open_world=True, example=_example_work)
def list_editions(ctx: Ctx, work_id: WorkId) -> list[Edition]:
    """List every edition of a work (/works/OL…W/editions.json), oldest first.

    Args:
        work_id: The work.
    """
    db = _db(ctx)
    w = _get_work(ctx, work_id)
    return [_edition(db, db.editions[e]) for e in w.edition_ids]


def _example_edition(ctx: Ctx) -> dict[str, Any]:
    return {"edition_id": next(iter(_db(ctx).editions))}


@service.tool(intent="get the edition", open_world=True, example=_example_edition)
def get_edition(ctx: Ctx, edition_id: EditionId) -> Edition:
    """Get one edition with its ISBNs, publisher, year, pages, format and language (/books/OL…M.json).

    Args:
        edition_id: The Open Library edition id (OL…M).
    """
    e = _db(ctx).editions.get(edition_id)
    if e is None:
        raise NotFound(f"no edition {edition_id}", field="edition_id", hint="list a work's editions first")
    return _edition(_db(ctx), e)


def _example_isbn(ctx: Ctx) -> dict[str, Any]:
    return {"isbn": next(iter(_db(ctx).editions.values())).isbn_13}


@service.tool(intent="look up a book by ISBN", open_world=True, example=_example_isbn)
def get_edition_by_isbn(ctx: Ctx, isbn: AnyIsbn) -> Edition:
    """Get the edition with an ISBN-10 or ISBN-13 (/isbn/{isbn}); a wrong check digit is refused.

    Args:
        isbn: The ISBN, digits only (an ISBN-10 may end in X).
    """
    return _edition(_db(ctx), _by_isbn(ctx, isbn))


@service.tool(intent="search book authors", open_world=True, example=fixed_example(q="Sato"))
def search_authors(ctx: Ctx, q: Search | None = None) -> list[Author]:
    """Search authors by name (/search/authors.json), most works first.

    Args:
        q: Words of the name.
    """
    db = _db(ctx)
    words = fold(q or "").split()
    found = [_author(db, a) for a in db.authors.values() if all(x in fold(a.name).split() for x in words)]
    return sorted(found, key=lambda a: (-a.work_count, a.id))


def _example_author(ctx: Ctx) -> dict[str, Any]:
    return {"author_id": next(iter(_db(ctx).authors))}


@service.tool(intent="get the author's profile", open_world=True, example=_example_author)
def get_author(ctx: Ctx, author_id: AuthorId) -> Author:
    """Get an author's profile: birth year, work count, top work and subjects.

    Args:
        author_id: The Open Library author id (OL…A).
    """
    return _author(_db(ctx), _get_author(ctx, author_id))


@service.tool(intent="list the author's works", open_world=True, example=_example_author)
def list_author_works(ctx: Ctx, author_id: AuthorId) -> list[Work]:
    """List an author's works (/authors/OL…A/works.json), newest first.

    Args:
        author_id: The author.
    """
    db = _db(ctx)
    _get_author(ctx, author_id)
    mine = [w for w in db.works.values() if author_id in w.author_ids]
    return [_work(db, w) for w in sorted(mine, key=lambda w: (w.first_publish_year, w.id), reverse=True)]


@service.tool(intent="list book subjects", open_world=True)
def list_subjects(ctx: Ctx) -> list[Subject]:
    """List the subjects with their work counts (no works; get one subject for those)."""
    works = _db(ctx).works.values()
    return [
        Subject(key=slug, name=name, work_count=sum(slug in w.subjects for w in works), works=[])
        for slug, name, _, _ in _SUBJECTS
    ]


@service.tool(intent="get the works on a subject", open_world=True, example=fixed_example(subject="business"))
def get_subject(ctx: Ctx, subject: SubjectSlug, limit: Annotated[int, Field(ge=1, le=50)] = 12) -> Subject:
    """Get a subject (/subjects/{slug}.json): its work count and most rated works.

    Args:
        subject: The subject slug (business, management, software_engineering, economics, history,
            science_fiction, mystery, cooking).
        limit: Most works listed.
    """
    slug, name, _, _ = _subject(subject)
    db = _db(ctx)
    mine = sorted((w for w in db.works.values() if slug in w.subjects), key=lambda w: (-w.ratings_count, w.id))
    return Subject(key=slug, name=name, work_count=len(mine), works=[_work(db, w) for w in mine[:limit]])


@service.tool(intent="get the cover image links of a book", open_world=True, example=_example_isbn)
def get_covers(ctx: Ctx, isbn: AnyIsbn) -> Covers:
    """Get the small, medium and large cover image links of an edition (Covers API, by ISBN).

    Args:
        isbn: The edition's ISBN-10 or ISBN-13.
    """
    e = _by_isbn(ctx, isbn)
    base = f"{COVERS}/isbn/{e.isbn_13}"
    return Covers(
        isbn_13=e.isbn_13, cover_id=e.cover_id, small=f"{base}-S.jpg", medium=f"{base}-M.jpg", large=f"{base}-L.jpg"
    )


# -- shelves -----------------------------------------------------------------------------------------------


class Shelf(Timestamped):
    """An employee's shelf of books."""

    id: ShelfId
    name: Title
    """Its name (unique per owner)."""
    owner_email: Email
    """The employee who keeps it."""
    description: Text = ""
    """What it is for."""
    status: Literal["active", "archived"] = "active"
    """active, or archived (frozen)."""


class Entry(Timestamped):
    """A book on a shelf."""

    id: EntryId
    shelf_id: ShelfId
    """The shelf."""
    work_id: WorkId
    """The work."""
    isbn: Isbn13
    """ISBN-13 of the edition shelved."""
    title: str
    """Its title."""
    status: ReadingStatus = "want-to-read"
    """want-to-read, currently-reading or already-read."""
    rating: int | None = None
    """Stars (1 to 5) once read."""
    note: Text = ""
    """The reader's note."""


def _guard_shelf(ctx: Ctx, new: Shelf, old: Shelf | None) -> None:
    if old is not None and old.status == "archived" and new.status == "archived":
        raise RuleViolation(f"shelf {old.id} is archived", field="shelf_id", hint="unarchive it first")
    if new.owner_email not in {p.email for p in ctx.population.employees}:
        raise RuleViolation(
            f"{new.owner_email} is not an employee", field="owner_email", hint="shelves are kept by staff"
        )
    for other in ctx.where(Shelf, owner_email=new.owner_email, name=new.name):
        if other.id != new.id:
            raise Conflict(
                f"{new.owner_email} already has a shelf named {new.name!r}: {other.id}",
                field="name",
                hint="pick another name or use that shelf",
            )


def _guard_shelf_delete(ctx: Ctx, new: None, old: Shelf) -> None:
    entries = ctx.where(Entry, shelf_id=old.id)
    reading = [e for e in entries if e.status == "currently-reading"]
    if reading and old.status != "archived":
        raise RuleViolation(
            f"shelf {old.id} still has {len(reading)} books being read",
            field="shelf_id",
            hint="finish them or archive the shelf first",
        )
    for e in entries:
        ctx.delete(e)


def _open_shelf(ctx: Ctx, shelf_id: str, field: str = "shelf_id") -> Shelf:
    shelf = ctx.get(Shelf, shelf_id, field=field)
    if shelf.status == "archived":
        raise RuleViolation(f"shelf {shelf.id} is archived", field=field, hint="unarchive it first")
    return shelf


def _guard_entry(ctx: Ctx, new: Entry | None, old: Entry | None) -> None:
    _open_shelf(ctx, (new or old).shelf_id, "entry_id")  # type: ignore[union-attr]
    if new is not None and new.status != "already-read" and new.rating is not None:
        raise RuleViolation("only a book already read can be rated", field="entry_id", hint="finish reading it")


shelves = service.resource(
    Shelf,
    name="shelf",
    plural="shelves",
    prefix="sh",
    create=("name", "owner_email", "description"),
    filters=("owner_email", "status"),
    search=("name", "description"),
    update=("name", "description", "owner_email"),
    transitions={
        "archive": Transition("status", ("active",), "archived", "archive the shelf"),
        "unarchive": Transition("status", ("archived",), "active", "unarchive the shelf"),
    },
    guard_create=_guard_shelf,
    guard_update=_guard_shelf,
    guard_delete=_guard_shelf_delete,
    title="book shelf",
)
entries = service.resource(
    Entry,
    name="entry",
    plural="entries",
    prefix="she",
    create=False,
    title="shelved book",
    filters=("shelf_id", "work_id", "isbn", "status"),
    search=("title", "note"),
    update=("note",),
    transitions={
        "start_reading": Transition("status", ("want-to-read",), "currently-reading", "start reading the book"),
        "finish_reading": Transition(
            "status", ("want-to-read", "currently-reading"), "already-read", "mark the book as read"
        ),
    },
    guard_update=_guard_entry,
    guard_delete=_guard_entry,
)


def _example_add(ctx: Ctx) -> dict[str, Any] | None:
    shelf = ctx.first(Shelf, status="active")
    if shelf is None:
        return None
    have = {e.work_id for e in ctx.where(Entry, shelf_id=shelf.id)}
    free = next(e for e in _db(ctx).editions.values() if e.work_id not in have)
    return {"shelf_id": shelf.id, "isbn": free.isbn_13}


@service.tool(intent="put a book on the shelf", write=True, example=_example_add)
def add_book(ctx: Ctx, shelf_id: ShelfId, isbn: AnyIsbn, note: Text = "") -> Entry:
    """Put the edition with an ISBN on a shelf (want-to-read); a work is on a shelf once, in any edition.

    Args:
        shelf_id: The shelf (active).
        isbn: ISBN-10 or ISBN-13 of the edition.
        note: Why it is worth reading.
    """
    shelf = _open_shelf(ctx, shelf_id)
    e = _by_isbn(ctx, isbn)
    other = ctx.first(Entry, shelf_id=shelf.id, work_id=e.work_id)
    if other is not None:
        raise Conflict(f"{e.work_id} is already on the shelf as {other.id}", field="isbn", hint="update that entry")
    if len(ctx.where(Entry, shelf_id=shelf.id)) >= MAX_ENTRIES:
        raise RuleViolation(
            f"shelf {shelf.id} holds {MAX_ENTRIES} books already", field="shelf_id", hint="start another shelf"
        )
    title = _db(ctx).works[e.work_id].title
    return ctx.create(Entry, shelf_id=shelf.id, work_id=e.work_id, isbn=e.isbn_13, title=title, note=note)


@service.tool(
    intent="rate a book already read",
    write=True,
    example=first_example(Entry, "entry_id", where={"status": "already-read"}, rating=4),
)
def rate_book(ctx: Ctx, entry_id: EntryId, rating: Rating) -> Entry:
    """Give a shelved book 1 to 5 stars; only a book already read can be rated.

    Args:
        entry_id: The shelved book (already-read, on an active shelf).
        rating: Stars, 1 to 5.
    """
    entry = ctx.get(Entry, entry_id, field="entry_id")
    if entry.status != "already-read":
        raise RuleViolation(
            f"{entry.id} is {entry.status}: only a book already read can be rated",
            field="entry_id",
            hint="finish reading it first (books__finish_reading_entry)",
        )
    return ctx.update(entry, rating=rating)


# -- seed --------------------------------------------------------------------------------------------------


@service.seeder
def seed(s: SeedContext) -> None:
    """Employees' shelves (a book club, a tech shelf, an archived one) with books in every reading state."""
    pop = s.population
    db = _build(pop, s.now.date().year)
    owners = pop.staff("Engineering", "Sales", "Operations", fallback=3)
    plans = (
        ("Leadership book club", "management", "active", 150),
        ("Engineering shelf", "software_engineering", "active", 60),
        ("Summer reading 2024", "mystery", "archived", 400),
    )
    for k, (name, subject, status, days) in enumerate(plans):
        shelf = s.create(
            Shelf,
            name=name,
            owner_email=owners[k % len(owners)].email,
            status=status,
            description=f"Books on {subject.replace('_', ' ')} the team reads.",
            created_at=s.ago(days=days),
            updated_at=s.ago(days=max(1, days // 3)),
        )
        works = sorted((w for w in db.works.values() if subject in w.subjects), key=lambda w: -w.ratings_count)
        for j, w in enumerate(works[:6]):
            state: ReadingStatus = (
                "already-read" if j < 2 or status == "archived" else "currently-reading" if j == 2 else "want-to-read"
            )
            s.create(
                Entry,
                shelf_id=shelf.id,
                work_id=w.id,
                isbn=db.editions[w.edition_ids[0]].isbn_13,
                title=w.title,
                status=state,
                rating=(4 + j % 2) if state == "already-read" and j < 2 else None,
                note="Chosen for the next meeting." if j == 3 else "",
                created_at=s.ago(days=days - 1),
                updated_at=s.ago(days=max(1, days // 4)),
            )
