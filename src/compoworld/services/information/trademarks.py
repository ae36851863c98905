"""MarkSearch: the trademark registers (USPTO and EUIPO) by text, owner, class and status, with clearance searches.

Modeled on the USPTO Trademark Status & Document Retrieval API (TSDR:
``/ts/cd/casestatus/sn{serial}/info`` with the mark's ``markElement``,
``status`` — NEW APPLICATION, NON-FINAL ACTION, PUBLISHED FOR OPPOSITION,
NOTICE OF ALLOWANCE, REGISTERED, ABANDONED, CANCELLED — filing, publication and
registration dates, ``owner``, ``attorney`` and goods and services by Nice
class; ``/ts/cd/casedocs/sn{serial}/info`` with the prosecution documents) and
the EUIPO trade mark search (EU trade marks numbered 018…), and on clearance
search products (CompuMark / Corsearch screening): a proposed mark is run
against the registers, its hits scored for similarity and reviewed, and the
clearance concluded.

An open-world service: the registers are a deterministic draw from the world
seed. The home company's marks (its name, NAME CLOUD, NAME LABS and its first
products, as on its IP docket) and the world's companies' name marks are
there, with look-alike marks of outside owners; every mark's status agrees
with its dates and documents. Stored state is clearance searches: an employee
requests one for a proposed mark in some classes; running it stores every live
mark of similarity 0.7 or more in an overlapping class as a hit; each hit is
reviewed as a conflict or not; a clearance is concluded only when no hit is
unreviewed, and as ``clear`` only when none is a conflict; a concluded one is
archived, not rerun.
"""

from __future__ import annotations

import datetime as dt
import random
from dataclasses import dataclass
from difflib import SequenceMatcher
from typing import Annotated, Any, Literal

from pydantic import BaseModel, Field, StringConstraints

from compoworld.engine.context import Ctx
from compoworld.engine.entities import Population
from compoworld.engine.errors import Conflict, NotFound, RuleViolation
from compoworld.engine.service import Service, Transition
from compoworld.engine.state import SeedContext
from compoworld.engine.types import Country, Date, DateTime, Email, IdOf, SemanticType, Text, Title
from compoworld.services.kit.drawn import per_population
from compoworld.services.kit.examples import first_example, fixed_example
from compoworld.services.kit.records import Timestamped
from compoworld.services.kit.text import fold
from compoworld.services.kit.time import add_months

__all__ = ["service"]

service = Service(
    "trademarks",
    title="MarkSearch",
    category="trademark_data",
    modeled_on="USPTO TSDR API (case status, case documents) and EUIPO trade mark search, with clearance "
    "searches as in CompuMark / Corsearch screening",
    description="Trademark register search: find US and EU marks by text, owner, Nice class and status, read a "
    "mark's status, dates, goods and services and prosecution documents, score how alike two marks are, and "
    "keep clearance searches whose hits are reviewed before the clearance is concluded.",
)

Serial = Annotated[
    str, SemanticType("trademark.serial_number", kind="ref"), StringConstraints(pattern=r"^([0-9]{8}|018[0-9]{6})$")
]
ClearanceId = Annotated[str, IdOf("trademarks.clearance")]
HitId = Annotated[str, IdOf("trademarks.hit")]
NiceClass = Annotated[int, Field(ge=1, le=45)]
Classes = Annotated[list[NiceClass], Field(min_length=1, max_length=10)]
MarkText = Annotated[str, StringConstraints(min_length=2, max_length=80)]
Office = Literal["US", "EM"]
Status = Literal[
    "NEW APPLICATION",
    "NON-FINAL ACTION",
    "PUBLISHED FOR OPPOSITION",
    "NOTICE OF ALLOWANCE",
    "REGISTERED",
    "ABANDONED",
    "CANCELLED",
]
LIVE: tuple[str, ...] = (
    "NEW APPLICATION",
    "NON-FINAL ACTION",
    "PUBLISHED FOR OPPOSITION",
    "NOTICE OF ALLOWANCE",
    "REGISTERED",
)
THRESHOLD = 0.7


def _split(text: str) -> tuple[str, ...]:
    return tuple(text.split(";"))


_NICE = _split(
    "Chemicals;Paints;Cosmetics and cleaning preparations;Industrial oils and fuels;Pharmaceuticals;Common metals;"
    "Machines and machine tools;Hand tools;Computers, software and electronics;Medical apparatus;"
    "Lighting, heating and cooling apparatus;Vehicles;Firearms;Jewellery and watches;Musical instruments;"
    "Paper goods and printed matter;Rubber and plastics;Leather goods;Non-metallic building materials;Furniture;"
    "Household utensils;Ropes and textiles for bags;Yarns;Textiles;Clothing, footwear and headwear;"
    "Lace and sewing articles;Carpets;Games, toys and sporting goods;Meat, dairy and preserved foods;"
    "Coffee, tea and bakery goods;Fresh agricultural products;Beers and non-alcoholic beverages;"
    "Alcoholic beverages;Tobacco;Advertising and business services;Insurance and financial services;"
    "Construction and repair;Telecommunications;Transport and storage;Treatment of materials;"
    "Education and entertainment;Scientific and technology services, software as a service;"
    "Restaurant and accommodation services;Medical and beauty services;Legal and security services"
)
_GOODS = {
    9: "Downloadable software; computer hardware",
    35: "Business consulting; online retail store services",
    42: "Software as a service; platform as a service",
    38: "Telecommunication services; data transmission",
    25: "Clothing, namely shirts and vests",
    11: "Air purifiers; lamps",
    20: "Furniture, namely chairs and desks",
    21: "Bottles; coffee grinders, non-electric",
    28: "Camping gear, namely tents",
}
_TWISTS = ("{}X", "{}A", "NEO{}", "{}IO", "{} PLUS", "{}Y")
_OTHERS = _split("Brightline Brands LLC;Kanto Trading K.K.;Meridia Holdings GmbH;Quill & Co. Ltd.;Novaro S.p.A.")
_DOCS = {
    "filed": "TEAS New Application",
    "action": "Non-Final Action",
    "response": "Response to Office Action",
    "published": "Notice of Publication",
    "allowed": "Notice of Allowance",
    "registered": "Registration Certificate",
    "abandoned": "Notice of Abandonment",
    "cancelled": "Section 8 Cancellation",
}


@dataclass(frozen=True, slots=True)
class _Mark:
    serial: str
    text: str
    office: str
    owner: str
    owner_country: str
    owner_domain: str | None
    classes: tuple[int, ...]
    status: str
    filed: dt.date
    events: tuple[tuple[str, dt.date], ...]
    registration: str | None


def _db(ctx: Ctx) -> dict[str, _Mark]:
    return _build(ctx.population, ctx.today())


_STATUS_OF = {
    "filed": "NEW APPLICATION",
    "action": "NON-FINAL ACTION",
    "response": "NEW APPLICATION",
    "published": "PUBLISHED FOR OPPOSITION",
    "allowed": "NOTICE OF ALLOWANCE",
    "registered": "REGISTERED",
    "abandoned": "ABANDONED",
    "cancelled": "CANCELLED",
}


def _history(
    r: random.Random, today: dt.date, filed: dt.date, fate: str
) -> tuple[str, tuple[tuple[str, dt.date], ...]]:
    """The status and dated documents of a mark filed on ``filed`` heading for ``fate``, as of ``today``."""
    ev = [("filed", filed)]
    day = add_months(filed, r.randint(3, 5))
    if fate in ("action", "abandoned") or (fate == "registered" and r.random() < 0.5):
        ev.append(("action", day))
        if fate == "abandoned":
            ev.append(("abandoned", add_months(day, 4)))
        elif fate != "action":
            day = add_months(day, 2)
            ev.append(("response", day))
    if fate not in ("action", "abandoned"):
        pub = add_months(day, 2)
        ev.append(("published", pub))
        if fate == "allowed":
            ev.append(("allowed", add_months(pub, 2)))
        elif fate in ("registered", "cancelled"):
            reg = add_months(pub, 3)
            ev.append(("registered", reg))
            if fate == "cancelled":
                ev.append(("cancelled", add_months(reg, 78)))
    kept = tuple(e for e in ev if e[1] <= today)
    return _STATUS_OF[kept[-1][0]], kept


@per_population
def _build(pop: Population, today: dt.date) -> dict[str, _Mark]:
    r = random.Random(f"trademarks:{pop.seed}")
    out: dict[str, _Mark] = {}
    home = pop.home.name.split()[0].upper()
    products = [p.name.upper() for p in pop.products[:2]]

    def add(
        text: str,
        office: str,
        owner: str,
        country: str,
        domain: str | None,
        classes: tuple[int, ...],
        months_ago: int,
        fate: str,
    ) -> None:
        filed = add_months(today, -months_ago)
        status, events = _history(r, today, filed, fate)
        n = len(out)
        serial = f"018{900_000 + 137 * n:06d}" if office == "EM" else f"{97_000_000 + 7_919 * n:08d}"
        reg = f"{6_000_000 + 4_409 * n:07d}" if any(e == "registered" for e, _ in events) else None
        out[serial] = _Mark(serial, text, office, owner, country, domain, classes, status, filed, events, reg)

    h, hc, hd = pop.home.name, pop.home.address.country, pop.home.domain
    add(home, "US", h, hc, hd, (9, 42), 8, "action")
    add(f"{home} CLOUD", "US", h, hc, hd, (9, 38, 42), 10, "action")
    add(products[0], "US", h, hc, hd, (9,), 14, "allowed")
    add(products[1], "US", h, hc, hd, (20,), 9, "published")
    add(f"{home} LABS", "US", h, hc, hd, (9, 42), 75, "registered")
    add(home, "EM", h, hc, hd, (9, 35, 42), 115, "registered")
    for k, c in enumerate(pop.customers[:12]):
        word = c.name.split()[0].upper()
        add(
            word,
            "US" if k % 3 else "EM",
            c.name,
            c.address.country,
            c.domain,
            (r.choice((9, 35, 42, 25, 11)),),
            r.randint(12, 150),
            r.choice(("registered", "registered", "cancelled", "abandoned")),
        )
    bases = [home] + [c.name.split()[0].upper() for c in pop.customers[:6]]
    for k in range(30):
        base = bases[k % len(bases)]
        text = r.choice(_TWISTS).format(base[:-1] if k % 2 else base)
        owner = r.choice(_OTHERS)
        add(
            text,
            r.choice(("US", "EM")),
            owner,
            r.choice(("US", "DE", "JP", "GB", "IT")),
            None,
            tuple(sorted(r.sample((9, 25, 35, 38, 41, 42, 11, 20), r.randint(1, 2)))),
            r.randint(2, 140),
            r.choice(("registered", "published", "action", "abandoned", "allowed", "cancelled", "registered")),
        )
    return out


def _similarity(a: str, b: str) -> float:
    """How alike two marks look and sound: 0 (unlike) to 1 (identical), from letters and a phonetic key."""
    x, y = fold(a).replace(" ", ""), fold(b).replace(" ", "")
    seen = SequenceMatcher(None, x, y).ratio()
    heard = SequenceMatcher(None, _sound(x), _sound(y)).ratio()
    return round(max(seen, 0.5 * seen + 0.5 * heard), 3)


def _sound(word: str) -> str:
    out = word[:1]
    for ch in word[1:]:
        code = ch if ch not in "aeiouyhw" else ""
        code = {"c": "k", "q": "k", "z": "s", "x": "ks", "v": "f", "ph": "f"}.get(code, code)
        if code and not out.endswith(code):
            out += code
    return out


# -- result models ------------------------------------------------------------------------------------------


class GoodsServices(BaseModel):
    """The goods or services of one class."""

    nice_class: NiceClass = Field(description="Nice class.")
    description: str = Field(description="Identification of goods or services.")


class Mark(BaseModel):
    """A trademark application or registration (TSDR case status)."""

    serial_number: Serial = Field(description="US serial number (8 digits) or EU trade mark number (018…).")
    office: Office = Field(description="US (USPTO) or EM (EUIPO).")
    mark: str = Field(description="The word mark.")
    status: Status = Field(description="Current status.")
    live: bool = Field(description="Whether it is pending or registered (not abandoned or cancelled).")
    filing_date: Date = Field(description="Filing date.")
    publication_date: Date | None = Field(description="Publication for opposition.")
    registration_date: Date | None = Field(description="Registration date.")
    registration_number: str | None = Field(description="Registration number.")
    status_date: Date = Field(description="Date of the latest status.")
    owner_name: str = Field(description="Owner (applicant or registrant).")
    owner_country: Country = Field(description="Owner's country.")
    owner_domain: str | None = Field(description="Owner's web domain, when known.")
    goods_services: list[GoodsServices] = Field(description="Classes with their goods and services.")


class Document(BaseModel):
    """A prosecution document (TSDR case documents)."""

    serial_number: Serial = Field(description="The mark.")
    document_type: str = Field(description="Document description.")
    mail_date: Date = Field(description="Date.")


class Similarity(BaseModel):
    """How alike two marks are."""

    mark_a: str = Field(description="First mark.")
    mark_b: str = Field(description="Second mark.")
    score: float = Field(description="0 (unlike) to 1 (identical).")
    likely_confusing: bool = Field(description="Whether the score reaches the 0.7 threshold.")


class NiceClassInfo(BaseModel):
    """A Nice class."""

    nice_class: NiceClass = Field(description="Class number.")
    heading: str = Field(description="Short heading.")
    kind: Literal["goods", "services"] = Field(description="Goods (1-34) or services (35-45).")


def _mark(m: _Mark) -> Mark:
    dates = dict(m.events)
    return Mark(
        serial_number=m.serial,
        office=m.office,
        mark=m.text,
        status=m.status,
        live=m.status in LIVE,
        filing_date=m.filed,
        publication_date=dates.get("published"),
        registration_date=dates.get("registered"),
        registration_number=m.registration,
        status_date=m.events[-1][1],
        owner_name=m.owner,
        owner_country=m.owner_country,
        owner_domain=m.owner_domain,
        goods_services=[GoodsServices(nice_class=c, description=_GOODS.get(c, _NICE[c - 1])) for c in m.classes],
    )


def _get(ctx: Ctx, serial: str, field: str = "serial_number") -> _Mark:
    m = _db(ctx).get(serial)
    if m is None:
        raise NotFound(f"no mark {serial} on the registers", field=field, hint="search with trademarks__search_marks")
    return m


# -- open-world tools ---------------------------------------------------------------------------------------


@service.tool(intent="search the trademark registers", open_world=True)
def search_marks(
    ctx: Ctx,
    text: MarkText | None = None,
    owner: MarkText | None = None,
    nice_class: NiceClass | None = None,
    status: Status | None = None,
    office: Office | None = None,
    live_only: bool = False,
    filed_after: Date | None = None,
    limit: Annotated[int, Field(ge=1, le=100)] = 25,
) -> list[Mark]:
    """Search marks by words of the mark, owner, class, status and office, newest filing first.

    Args:
        text: Words that must all be in the mark.
        owner: Words of the owner's name.
        nice_class: Only marks in this class.
        status: Only this status.
        office: US or EM.
        live_only: Leave out abandoned and cancelled marks.
        filed_after: Filed on or after this date.
        limit: Most results.
    """
    tw, ow = fold(text or "").split(), fold(owner or "").split()
    found = [
        m
        for m in _db(ctx).values()
        if all(w in fold(m.text).split() for w in tw)
        and all(w in fold(m.owner).split() for w in ow)
        and (nice_class is None or nice_class in m.classes)
        and status in (None, m.status)
        and office in (None, m.office)
        and (not live_only or m.status in LIVE)
        and (filed_after is None or m.filed >= filed_after)
    ]
    found.sort(key=lambda m: (m.filed, m.serial), reverse=True)
    return [_mark(m) for m in found[:limit]]


def _example_serial(ctx: Ctx) -> dict[str, Any]:
    return {"serial_number": next(iter(_db(ctx)))}


@service.tool(intent="get the mark's status", open_world=True, example=_example_serial)
def get_mark(ctx: Ctx, serial_number: Serial) -> Mark:
    """Get a mark's case status: status and dates, registration, owner and goods and services.

    Args:
        serial_number: US serial number or EU trade mark number.
    """
    return _mark(_get(ctx, serial_number))


@service.tool(intent="list the mark's prosecution documents", open_world=True, example=_example_serial)
def list_mark_documents(ctx: Ctx, serial_number: Serial) -> list[Document]:
    """List a mark's prosecution documents, oldest first (TSDR case documents).

    Args:
        serial_number: US serial number or EU trade mark number.
    """
    m = _get(ctx, serial_number)
    return [Document(serial_number=m.serial, document_type=_DOCS[e], mail_date=d) for e, d in m.events]


@service.tool(
    intent="score how alike two marks are", open_world=True, example=fixed_example(mark_a="ZEPHYR", mark_b="ZEFIR")
)
def compare_marks(ctx: Ctx, mark_a: MarkText, mark_b: MarkText) -> Similarity:
    """Score the visual and phonetic similarity of two marks (0.7 or more: likely confusing).

    Args:
        mark_a: First mark.
        mark_b: Second mark.
    """
    score = _similarity(mark_a, mark_b)
    return Similarity(mark_a=mark_a, mark_b=mark_b, score=score, likely_confusing=score >= THRESHOLD)


@service.tool(intent="list the Nice classes", open_world=True)
def list_nice_classes(ctx: Ctx, kind: Literal["goods", "services"] | None = None) -> list[NiceClassInfo]:
    """List the 45 Nice classes with their headings (goods 1-34, services 35-45).

    Args:
        kind: Only goods or only services classes.
    """
    out = [
        NiceClassInfo(nice_class=i + 1, heading=h, kind="goods" if i < 34 else "services") for i, h in enumerate(_NICE)
    ]
    return [c for c in out if kind in (None, c.kind)]


class Owner(BaseModel):
    """A trademark owner with its marks."""

    owner_name: str = Field(description="Owner.")
    owner_country: Country = Field(description="Country.")
    live_marks: int = Field(description="Pending or registered marks.")
    dead_marks: int = Field(description="Abandoned or cancelled marks.")
    classes: list[NiceClass] = Field(description="Classes of its live marks.")


@service.tool(intent="search trademark owners", open_world=True, example=fixed_example(name="Brands"))
def search_owners(ctx: Ctx, name: MarkText | None = None, country: Country | None = None) -> list[Owner]:
    """Search owners by words of the name and country, with counts of live and dead marks, most live first.

    Args:
        name: Words of the owner's name.
        country: Only owners in this country.
    """
    words = fold(name or "").split()
    owners: dict[str, list[_Mark]] = {}
    for m in _db(ctx).values():
        if all(w in fold(m.owner).split() for w in words) and country in (None, m.owner_country):
            owners.setdefault(m.owner, []).append(m)
    out = [
        Owner(
            owner_name=o,
            owner_country=ms[0].owner_country,
            live_marks=sum(m.status in LIVE for m in ms),
            dead_marks=sum(m.status not in LIVE for m in ms),
            classes=sorted({c for m in ms if m.status in LIVE for c in m.classes}),
        )
        for o, ms in owners.items()
    ]
    return sorted(out, key=lambda o: (-o.live_marks, o.owner_name))


class KnockoutHit(BaseModel):
    """A live mark that may block a proposal."""

    mark: Mark = Field(description="The mark found.")
    score: float = Field(description="Similarity to the proposal.")
    overlapping_classes: list[NiceClass] = Field(description="Classes shared with the proposal.")


@service.tool(
    intent="run a quick knockout search", open_world=True, example=fixed_example(proposed_mark="ZEFIR", classes=[9])
)
def knockout_search(ctx: Ctx, proposed_mark: MarkText, classes: Classes) -> list[KnockoutHit]:
    """Screen a proposed mark: live marks alike (0.7+) in a shared class, most alike first; nothing is saved.

    Args:
        proposed_mark: The mark to screen.
        classes: Nice classes of the intended use.
    """
    return [
        KnockoutHit(mark=_mark(m), score=score, overlapping_classes=overlap)
        for m, score, overlap in _hits_for(_db(ctx), proposed_mark, classes)
    ]


# -- clearance searches -------------------------------------------------------------------------------------


class Clearance(Timestamped):
    """A clearance search for a proposed mark."""

    id: ClearanceId
    name: Title
    """What it is for."""
    proposed_mark: MarkText
    """The mark to clear."""
    classes: list[NiceClass]
    """Classes of the intended use."""
    requested_by: Email
    """The employee who asked."""
    status: Literal["draft", "in_review", "concluded", "archived"] = "draft"
    """draft (not run), in_review (hits to review), concluded or archived."""
    last_run_at: DateTime | None = None
    """When it was last run."""
    hit_count: int = 0
    """Hits found at the last run."""
    opinion: Literal["clear", "risky", "blocked"] | None = None
    """The conclusion."""
    opinion_note: Text = ""
    """Counsel's note."""


class Hit(Timestamped):
    """A registered or pending mark found by a clearance search."""

    id: HitId
    clearance_id: ClearanceId
    """The clearance."""
    serial_number: Serial
    """The mark found."""
    mark: str
    """Its text."""
    owner_name: str
    """Its owner."""
    score: float
    """Similarity to the proposed mark."""
    overlapping_classes: list[NiceClass]
    """Classes it shares with the proposal."""
    review: Literal["unreviewed", "conflict", "no_conflict"] = "unreviewed"
    """unreviewed, conflict or no_conflict."""
    reviewed_by: Email | None = None
    """Who reviewed it."""
    note: Text = ""
    """Why."""


def _staff(ctx: Ctx) -> set[str]:
    return {p.email for p in ctx.population.employees}


def _guard_clearance(ctx: Ctx, new: Clearance, old: Clearance | None) -> None:
    if new.requested_by not in _staff(ctx):
        raise RuleViolation(f"{new.requested_by} is not an employee", field="requested_by", hint="staff request")
    if old is not None and old.status in ("concluded", "archived") and new.status == old.status:
        raise RuleViolation(f"clearance {old.id} is {old.status}", field="clearance_id", hint="start a new one")


def _guard_clearance_delete(ctx: Ctx, new: None, old: Clearance) -> None:
    for h in ctx.where(Hit, clearance_id=old.id):
        ctx.delete(h)


clearances = service.resource(
    Clearance,
    name="clearance",
    plural="clearances",
    prefix="tcl",
    create=("name", "proposed_mark", "classes", "requested_by"),
    filters=("requested_by", "status", "opinion", "proposed_mark"),
    search=("name", "proposed_mark"),
    update=("name", "requested_by"),
    transitions={"archive": Transition("status", ("concluded",), "archived", "archive the clearance search")},
    guard_create=_guard_clearance,
    guard_update=_guard_clearance,
    guard_delete=_guard_clearance_delete,
    title="clearance search",
)
hits = service.resource(
    Hit,
    name="hit",
    plural="hits",
    prefix="thi",
    create=False,
    delete=False,
    filters=("clearance_id", "review", "serial_number"),
    search=("mark", "owner_name"),
    title="clearance hit",
)


def _hits_for(db: dict[str, _Mark], proposed: str, classes: list[int]) -> list[tuple[_Mark, float, list[int]]]:
    out = []
    for m in db.values():
        overlap = sorted(set(m.classes) & set(classes))
        score = _similarity(proposed, m.text)
        if m.status in LIVE and overlap and score >= THRESHOLD:
            out.append((m, score, overlap))
    return sorted(out, key=lambda t: (-t[1], t[0].serial))


@service.tool(
    intent="run the clearance search",
    write=True,
    example=first_example(Clearance, "clearance_id", where={"status": "draft"}),
)
def run_clearance(ctx: Ctx, clearance_id: ClearanceId) -> list[Hit]:
    """Run a clearance against the registers: every live mark alike (0.7+) in a shared class becomes a hit.

    Hits already reviewed keep their review; the clearance goes to in_review (or stays clear of hits).

    Args:
        clearance_id: The clearance (draft or in_review).
    """
    c = ctx.get(Clearance, clearance_id, field="clearance_id")
    if c.status not in ("draft", "in_review"):
        raise RuleViolation(f"clearance {c.id} is {c.status}", field="clearance_id", hint="start a new one")
    found = _hits_for(_db(ctx), c.proposed_mark, c.classes)
    out = []
    for m, score, overlap in found:
        have = ctx.first(Hit, clearance_id=c.id, serial_number=m.serial)
        out.append(
            have
            or ctx.create(
                Hit,
                clearance_id=c.id,
                serial_number=m.serial,
                mark=m.text,
                owner_name=m.owner,
                score=score,
                overlapping_classes=overlap,
            )
        )
    ctx.update(c, status="in_review", last_run_at=ctx.now(), hit_count=len(found))
    return out


def _example_review(ctx: Ctx) -> dict[str, Any] | None:
    h = ctx.first(Hit, review="unreviewed")
    if h is None:
        return None
    return {
        "hit_id": h.id,
        "review": "conflict",
        "reviewed_by": ctx.population.employees[0].email,
        "note": "Same field.",
    }


@service.tool(intent="review the clearance hit", write=True, example=_example_review)
def review_hit(
    ctx: Ctx, hit_id: HitId, review: Literal["conflict", "no_conflict"], reviewed_by: Email, note: Text
) -> Hit:
    """Record whether a hit conflicts with the proposed mark, with the reason.

    Args:
        hit_id: The hit (its clearance in_review).
        review: conflict or no_conflict.
        reviewed_by: The employee reviewing.
        note: Why (goods, channels, strength of the mark).
    """
    h = ctx.get(Hit, hit_id, field="hit_id")
    c = ctx.get(Clearance, h.clearance_id)
    if c.status != "in_review":
        raise RuleViolation(f"clearance {c.id} is {c.status}", field="hit_id", hint="only hits under review change")
    if reviewed_by not in _staff(ctx):
        raise RuleViolation(f"{reviewed_by} is not an employee", field="reviewed_by", hint="counsel reviews")
    if not note.strip():
        raise RuleViolation("a review needs a note", field="note", hint="say why it does or does not conflict")
    return ctx.update(h, review=review, reviewed_by=reviewed_by, note=note.strip())


def _example_add(ctx: Ctx) -> dict[str, Any] | None:
    c = ctx.first(Clearance, status="in_review")
    if c is None:
        return None
    have = {h.serial_number for h in ctx.where(Hit, clearance_id=c.id)}
    free = next(m.serial for m in _db(ctx).values() if m.serial not in have and m.status in LIVE)
    return {"clearance_id": c.id, "serial_number": free}


@service.tool(intent="add a mark to the clearance's hits", write=True, example=_example_add)
def add_hit(ctx: Ctx, clearance_id: ClearanceId, serial_number: Serial) -> Hit:
    """Add a live mark the search did not find (a common-law find, a foreign office) as a hit to review.

    Args:
        clearance_id: The clearance (in_review).
        serial_number: The mark (live; not a hit yet).
    """
    c = ctx.get(Clearance, clearance_id, field="clearance_id")
    if c.status != "in_review":
        raise RuleViolation(f"clearance {c.id} is {c.status}", field="clearance_id", hint="run it first")
    m = _get(ctx, serial_number)
    if m.status not in LIVE:
        raise RuleViolation(f"mark {m.serial} is {m.status}", field="serial_number", hint="dead marks do not block")
    if ctx.first(Hit, clearance_id=c.id, serial_number=m.serial) is not None:
        raise Conflict(f"{m.serial} is already a hit", field="serial_number", hint="review that hit")
    ctx.update(c, hit_count=c.hit_count + 1)
    return ctx.create(
        Hit,
        clearance_id=c.id,
        serial_number=m.serial,
        mark=m.text,
        owner_name=m.owner,
        score=_similarity(c.proposed_mark, m.text),
        overlapping_classes=sorted(set(m.classes) & set(c.classes)),
    )


def _example_conclude(ctx: Ctx) -> dict[str, Any] | None:
    for c in ctx.where(Clearance, status="in_review"):
        rows = ctx.where(Hit, clearance_id=c.id)
        if all(h.review != "unreviewed" for h in rows):
            opinion = "blocked" if any(h.review == "conflict" for h in rows) else "clear"
            return {"clearance_id": c.id, "opinion": opinion, "note": "Reviewed all hits."}
    return None


@service.tool(intent="conclude the clearance", write=True, example=_example_conclude)
def conclude_clearance(
    ctx: Ctx, clearance_id: ClearanceId, opinion: Literal["clear", "risky", "blocked"], note: Text
) -> Clearance:
    """Conclude a clearance once every hit is reviewed: clear only when no hit is a conflict.

    Args:
        clearance_id: The clearance (in_review).
        opinion: clear, risky or blocked.
        note: Counsel's reasoning.
    """
    c = ctx.get(Clearance, clearance_id, field="clearance_id")
    if c.status != "in_review":
        raise RuleViolation(f"clearance {c.id} is {c.status}", field="clearance_id", hint="run it first")
    rows = ctx.where(Hit, clearance_id=c.id)
    open_ = [h.id for h in rows if h.review == "unreviewed"]
    if open_:
        raise RuleViolation(f"hits not reviewed: {', '.join(open_)}", field="clearance_id", hint="review each hit")
    if opinion == "clear" and any(h.review == "conflict" for h in rows):
        raise RuleViolation("a hit conflicts, so the mark is not clear", field="opinion", hint="say risky or blocked")
    return ctx.update(c, status="concluded", opinion=opinion, opinion_note=note)


@service.tool(
    intent="export the clearance report",
    example=first_example(Clearance, "clearance_id", match=lambda ctx, c: c.status != "draft"),
)
def export_clearance_report(ctx: Ctx, clearance_id: ClearanceId) -> str:
    """Export a run clearance as a text report: the proposal, each hit with its score and review, the opinion.

    Args:
        clearance_id: The clearance (run at least once).
    """
    c = ctx.get(Clearance, clearance_id, field="clearance_id")
    if c.last_run_at is None:
        raise RuleViolation(f"clearance {c.id} was never run", field="clearance_id", hint="run it first")
    lines = [f"Clearance {c.id}: {c.proposed_mark} in classes {', '.join(map(str, c.classes))}"]
    for h in sorted(ctx.where(Hit, clearance_id=c.id), key=lambda h: -h.score):
        lines.append(f"- {h.mark} ({h.serial_number}, {h.owner_name}) score {h.score:.2f}: {h.review}")
    lines.append(f"Opinion: {c.opinion or 'pending'}")
    return "\n".join(lines)


# -- seed ---------------------------------------------------------------------------------------------------


@service.seeder
def seed(s: SeedContext) -> None:
    """Legal's clearances for new product names: one concluded, one under review, one draft."""
    pop = s.population
    db = _build(pop, s.now.date())
    team = pop.staff("Legal", "Marketing", "Product", fallback=3)
    home = pop.home.name.split()[0].upper()
    names = [p.name.upper() for p in pop.products[2:4]]
    plans = (
        (f"Rebrand check: {home}O", f"{home}O", [9, 42], "concluded"),
        (f"New line: {home} PLUS", f"{home} PLUS", [9, 35], "in_review"),
        (f"Launch name: {names[0]}", names[0], [11, 21], "draft"),
        (f"Sub-brand: {home} ONE", f"{home} ONE", [9, 42], "reviewed"),
    )
    for k, (name, proposed, classes, status) in enumerate(plans):
        found = _hits_for(db, proposed, classes) if status != "draft" else []
        c = s.create(
            Clearance,
            name=name,
            proposed_mark=proposed,
            classes=classes,
            requested_by=team[k % len(team)].email,
            status="in_review" if status == "reviewed" else status,
            last_run_at=s.ago(days=20) if found or status != "draft" else None,
            hit_count=len(found),
            opinion=None,
            created_at=s.ago(days=40 - 10 * k),
            updated_at=s.ago(days=10),
        )
        conflict = False
        for i, (m, score, overlap) in enumerate(found):
            review = "conflict" if i == 0 else "no_conflict"
            if status == "in_review" and i % 2 == 1:
                review = "unreviewed"
            conflict |= review == "conflict"
            s.create(
                Hit,
                clearance_id=c.id,
                serial_number=m.serial,
                mark=m.text,
                owner_name=m.owner,
                score=score,
                overlapping_classes=overlap,
                review=review,
                reviewed_by=team[0].email if review != "unreviewed" else None,
                note="Same goods." if review == "conflict" else ("Different market." if review != "unreviewed" else ""),
                created_at=s.ago(days=20),
                updated_at=s.ago(days=12),
            )
        if status == "concluded":
            s.update(c, opinion="blocked" if conflict else "clear", opinion_note="All hits reviewed.")
