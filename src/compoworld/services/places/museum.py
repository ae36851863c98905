"""Registrar: a museum's collection, object locations and movements, loans with condition reports, exhibitions.

Modeled on Axiell Collections and CollectiveAccess (web service API): object
records with an accession number (YYYY.N.N), object name and type, maker,
medium, credit line and acquisition method; storage and gallery locations
with climate control; movement records (location history); condition reports
(excellent, good, fair, poor) by stage; incoming and outgoing loans that go
requested → approved → active (dispatched or received) → returned, or
cancelled; and exhibitions that go planned → open → closed with their object
checklists. Accession numbers are unique; light- and humidity-sensitive
objects (textiles, photographs, works on paper) go only to climate-controlled
locations; an outgoing loan is dispatched only when each object has a condition
report at least fair taken after approval, and returned only with an incoming
report; an object on loan, deaccessioned or on an overlapping exhibition's
checklist cannot be lent or shown; deaccessioning needs a reason and a curator.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import Field, StringConstraints

from compoworld.engine.context import Ctx
from compoworld.engine.errors import Conflict, RuleViolation
from compoworld.engine.records import CREATED, Record
from compoworld.engine.service import Service, Transition
from compoworld.engine.state import SeedContext
from compoworld.engine.types import Cents, Date, DateTime, Email, IdOf, PersonName, Text, Title
from compoworld.services.kit.examples import first_example
from compoworld.services.kit.lists import require_employee

__all__ = ["service"]

service = Service(
    "museum",
    title="Registrar",
    category="collections_management",
    modeled_on="Axiell Collections / CollectiveAccess web service API: objects with accession numbers, storage "
    "locations and movements, condition reports, incoming and outgoing loans, exhibitions and checklists",
    description="Collections management for a museum: catalogued objects with accession numbers, where each is "
    "(galleries, climate-controlled stores, the conservation lab) and its movement history, condition reports, "
    "loans to and from other institutions from request to return, and exhibitions with their object lists.",
)

ObjectId = Annotated[str, IdOf("museum.object")]
LocationId = Annotated[str, IdOf("museum.location")]
MovementId = Annotated[str, IdOf("museum.movement")]
ReportId = Annotated[str, IdOf("museum.condition_report")]
LoanId = Annotated[str, IdOf("museum.loan")]
ExhibitionId = Annotated[str, IdOf("museum.exhibition")]

Accession = Annotated[str, StringConstraints(pattern=r"^(L)?\d{4}\.\d{1,4}(\.\d{1,3})?$")]
"""An accession number, e.g. 1998.42.1 (L prefix: an incoming loan)."""
ObjectType = Literal["painting", "sculpture", "textile", "photograph", "ceramic", "work_on_paper", "furniture"]
SENSITIVE: frozenset[str] = frozenset({"textile", "photograph", "work_on_paper"})
ObjectStatus = Literal["in_collection", "on_loan_out", "on_loan_in", "returned_to_lender", "deaccessioned"]
Condition = Literal["excellent", "good", "fair", "poor"]
LoanStatus = Literal["requested", "approved", "active", "returned", "cancelled"]


class Location(Record):
    """A place an object can be: gallery, store, lab or offsite."""

    id: LocationId
    name: Title = Field(description="Its name, e.g. Store B, Bay 3.")
    kind: Literal["gallery", "storage", "conservation_lab", "offsite"] = Field(description="What it is.")
    climate_controlled: bool = Field(True, description="Whether temperature and humidity are controlled.")


class MuseumObject(Record):
    """A catalogued object."""

    id: ObjectId
    accession_number: Accession = Field(description="Its accession number (unique).")
    title: Title = Field(description="Its title or object name.")
    object_type: ObjectType = Field(description="Its type.")
    maker: Title = Field(description="Artist or maker (or Unknown).")
    date_made: Annotated[str, StringConstraints(min_length=1, max_length=40)] = Field(description="e.g. c. 1885.")
    medium: Title = Field(description="Materials and technique.")
    acquisition_method: Literal["gift", "purchase", "bequest", "loan_in"] = Field(description="How it came in.")
    credit_line: Text = Field("", description="Credit line for labels.")
    valuation: Cents = Field(0, description="Insurance value.")
    location_id: LocationId | None = Field(None, description="Where it is now (None: away on loan).")
    status: ObjectStatus = Field("in_collection", description="in_collection, on_loan_out, on_loan_in, ...")
    curator_email: Email = Field(description="The responsible curator.")
    deaccession_reason: Text = Field("", description="Why it left the collection.")
    created_at: Annotated[DateTime, CREATED] = Field(description="When it was catalogued.")


class Movement(Record):
    """A move of an object between locations."""

    id: MovementId
    object_id: ObjectId = Field(description="The object.")
    from_location_id: LocationId | None = Field(description="Where from (None: arrived).")
    to_location_id: LocationId | None = Field(description="Where to (None: left the building).")
    reason: Literal["storage", "exhibition", "conservation", "photography", "loan", "return"] = Field(
        description="Why."
    )
    moved_by: Email = Field(description="The staff member who moved it.")
    moved_at: Annotated[DateTime, CREATED] = Field(description="When.")


class ConditionReport(Record):
    """An examination of an object's condition."""

    id: ReportId
    object_id: ObjectId = Field(description="The object.")
    condition: Condition = Field(description="excellent, good, fair or poor.")
    stage: Literal["routine", "outgoing", "incoming"] = Field(description="routine, outgoing (loan) or incoming.")
    loan_id: LoanId | None = Field(None, description="The loan it was taken for.")
    notes: Text = Field("", description="Observations.")
    examined_by: Email = Field(description="The conservator or registrar.")
    reported_at: Annotated[DateTime, CREATED] = Field(description="When.")


class Loan(Record):
    """A loan of objects to or from another institution."""

    id: LoanId
    direction: Literal["outgoing", "incoming"] = Field(description="outgoing (we lend) or incoming (we borrow).")
    institution: Title = Field(description="The other museum.")
    contact_name: PersonName = Field(description="Their registrar.")
    contact_email: Email = Field(description="Their registrar's e-mail.")
    object_ids: tuple[ObjectId, ...] = Field(description="The objects.")
    start_date: Date = Field(description="Loan start.")
    end_date: Date = Field(description="Loan end.")
    purpose: Title = Field(description="The exhibition or study it is for.")
    insurance_value: Cents = Field(0, description="Total insured value.")
    status: LoanStatus = Field("requested", description="requested, approved, active, returned or cancelled.")
    approved_at: DateTime | None = Field(None, description="When it was approved.")
    created_at: Annotated[DateTime, CREATED] = Field(description="When it was requested.")


class Exhibition(Record):
    """An exhibition in a gallery."""

    id: ExhibitionId
    title: Title = Field(description="Its title.")
    gallery_id: LocationId = Field(description="The gallery.")
    opens_on: Date = Field(description="Opening day.")
    closes_on: Date = Field(description="Closing day.")
    object_ids: tuple[ObjectId, ...] = Field((), description="The checklist.")
    curator_email: Email = Field(description="The curator.")
    status: Literal["planned", "open", "closed"] = Field("planned", description="planned, open or closed.")


# -- rules ------------------------------------------------------------------------------------


def _guard_exhibition(ctx: Ctx, new: Any, old: Any) -> None:
    if ctx.get(Location, new.gallery_id, field="gallery_id").kind != "gallery":
        raise RuleViolation("exhibitions are held in galleries", field="gallery_id", hint="pick a gallery location")
    if new.closes_on < new.opens_on:
        raise RuleViolation("it closes before it opens", field="closes_on", hint="pick a later closing day")
    require_employee(ctx, new.curator_email, field="curator_email", hint="exhibitions are curated by staff")
    if old is not None and old.status == "planned" and new.status == "open" and not new.object_ids:
        raise RuleViolation("the checklist is empty", field="exhibition_id", hint="add objects before opening")


locations = service.resource(
    Location,
    name="location",
    plural="locations",
    prefix="loc",
    create=False,
    filters=("kind", "climate_controlled"),
    search=("name",),
    delete=False,
)
objects = service.resource(
    MuseumObject,
    name="object",
    plural="objects",
    prefix="obj",
    create=False,
    filters=("accession_number", "object_type", "status", "location_id", "curator_email", "acquisition_method"),
    search=("title", "maker", "medium", "accession_number"),
    update=("title", "credit_line", "valuation", "curator_email"),
    delete=False,
)
movements = service.resource(
    Movement,
    name="movement",
    plural="movements",
    prefix="mov",
    create=False,
    get=False,
    filters=("object_id", "to_location_id", "reason", "moved_by"),
    delete=False,
)
reports = service.resource(
    ConditionReport,
    name="condition_report",
    plural="condition_reports",
    prefix="cr",
    create=False,
    filters=("object_id", "loan_id", "condition", "stage"),
    search=("notes",),
    delete=False,
    title="condition report",
)
loans = service.resource(
    Loan,
    name="loan",
    plural="loans",
    prefix="ln",
    create=False,
    filters=("direction", "status", "institution", "contact_email"),
    search=("institution", "purpose"),
    delete=False,
    transitions={
        "cancel": Transition("status", ("requested", "approved"), "cancelled", "cancel the loan", destructive=True),
    },
)
exhibitions = service.resource(
    Exhibition,
    name="exhibition",
    plural="exhibitions",
    prefix="exh",
    create=False,
    filters=("status", "gallery_id", "curator_email"),
    search=("title",),
    update=("title", "opens_on", "closes_on", "curator_email"),
    delete=False,
    transitions={
        "open": Transition("status", ("planned",), "open", "open the exhibition"),
        "close": Transition("status", ("open",), "closed", "close the exhibition"),
    },
    guard_update=_guard_exhibition,
)


# -- domain tools -----------------------------------------------------------------------------


def _move(ctx: Ctx, obj: MuseumObject, to: str | None, reason: str, by: str) -> MuseumObject:
    ctx.create(
        Movement, object_id=obj.id, from_location_id=obj.location_id, to_location_id=to, reason=reason, moved_by=by
    )
    return ctx.update(obj, location_id=to)


def _example_accession(ctx: Ctx) -> dict[str, Any] | None:
    store = ctx.first(Location, kind="storage")
    return (
        None
        if store is None
        else {
            "accession_number": f"{ctx.today().year}.77.1",
            "title": "Quilt, Log Cabin pattern",
            "object_type": "textile",
            "maker": "Unknown",
            "date_made": "c. 1890",
            "medium": "Cotton, pieced and quilted",
            "acquisition_method": "gift",
            "location_id": store.id,
            "curator_email": ctx.population.employees[0].email,
        }
    )


@service.tool(intent="accession the object into the collection", write=True, example=_example_accession)
def accession_object(
    ctx: Ctx,
    accession_number: Accession,
    title: Title,
    object_type: ObjectType,
    maker: Title,
    date_made: Annotated[str, StringConstraints(min_length=1, max_length=40)],
    medium: Title,
    acquisition_method: Literal["gift", "purchase", "bequest", "loan_in"],
    location_id: LocationId,
    curator_email: Email,
    credit_line: Text = "",
    valuation: Cents = 0,
) -> MuseumObject:
    """Catalogue a newly acquired (or borrowed, L-numbered) object into a location.

    Args:
        accession_number: Its accession number (unique; L prefix for incoming loans).
        title: Title or object name.
        object_type: painting, sculpture, textile, photograph, ceramic, work_on_paper or furniture.
        maker: Artist or maker.
        date_made: Date or period made.
        medium: Materials and technique.
        acquisition_method: gift, purchase, bequest or loan_in.
        location_id: Where it is placed (climate-controlled for sensitive objects).
        curator_email: The responsible curator (staff).
        credit_line: Credit line for labels.
        valuation: Insurance value.
    """
    other = ctx.first(MuseumObject, accession_number=accession_number)
    if other is not None:
        raise Conflict(f"{accession_number} is {other.title!r}", field="accession_number", hint="use the next number")
    if (acquisition_method == "loan_in") != accession_number.startswith("L"):
        raise RuleViolation(
            "borrowed objects take an L number, owned ones do not",
            field="accession_number",
            hint="L2026.3.1 for a loan, 2026.3.1 for an acquisition",
        )
    _place_ok(ctx, object_type, location_id)
    require_employee(ctx, curator_email, field="curator_email", hint="a curator on staff is responsible")
    obj = ctx.create(
        MuseumObject,
        accession_number=accession_number,
        title=title,
        object_type=object_type,
        maker=maker,
        date_made=date_made,
        medium=medium,
        acquisition_method=acquisition_method,
        credit_line=credit_line,
        valuation=valuation,
        status="on_loan_in" if acquisition_method == "loan_in" else "in_collection",
        curator_email=curator_email,
    )
    return _move(ctx, obj, location_id, "storage", curator_email)


def _place_ok(ctx: Ctx, object_type: str, location_id: str) -> Location:
    loc = ctx.get(Location, location_id, field="location_id")
    if object_type in SENSITIVE and not loc.climate_controlled:
        raise RuleViolation(
            f"{object_type} objects need climate control; {loc.name} has none",
            field="location_id",
            hint="pick a climate-controlled location",
        )
    return loc


def _here(obj: MuseumObject, field: str) -> None:
    if obj.status not in ("in_collection", "on_loan_in") or obj.location_id is None:
        raise RuleViolation(f"{obj.accession_number} is {obj.status}", field=field, hint="only objects on site")


def _example_move(ctx: Ctx) -> dict[str, Any] | None:
    lab = ctx.first(Location, kind="conservation_lab")
    obj = ctx.first(MuseumObject, status="in_collection")
    return (
        None
        if lab is None or obj is None
        else {"object_id": obj.id, "location_id": lab.id, "reason": "conservation", "moved_by": obj.curator_email}
    )


@service.tool(intent="move the object", write=True, example=_example_move)
def move_object(
    ctx: Ctx,
    object_id: ObjectId,
    location_id: LocationId,
    reason: Literal["storage", "exhibition", "conservation", "photography"],
    moved_by: Email,
) -> MuseumObject:
    """Move an object on site to another location; the move is recorded in its location history.

    Args:
        object_id: The object (on site).
        location_id: Where to (not where it is; climate-controlled for sensitive objects).
        reason: storage, exhibition, conservation or photography.
        moved_by: The staff member moving it.
    """
    obj = ctx.get(MuseumObject, object_id, field="object_id")
    _here(obj, "object_id")
    if obj.location_id == location_id:
        raise RuleViolation("the object is already there", field="location_id", hint="pick another location")
    loc = _place_ok(ctx, obj.object_type, location_id)
    if loc.kind == "offsite":
        raise RuleViolation("objects leave the building only on a loan", field="location_id", hint="dispatch a loan")
    require_employee(ctx, moved_by, field="moved_by", hint="only staff move objects")
    return _move(ctx, obj, location_id, reason, moved_by)


@service.tool(
    intent="file a condition report on the object",
    write=True,
    example=first_example(
        MuseumObject,
        "object_id",
        where={"status": "in_collection"},
        condition="good",
        stage="routine",
        fields={"examined_by": "curator_email"},
    ),
)
def report_condition(
    ctx: Ctx,
    object_id: ObjectId,
    condition: Condition,
    stage: Literal["routine", "outgoing", "incoming"],
    examined_by: Email,
    loan_id: LoanId | None = None,
    notes: Text = "",
) -> ConditionReport:
    """File a condition report; outgoing and incoming reports name the loan the object is on.

    Args:
        object_id: The object.
        condition: excellent, good, fair or poor.
        stage: routine, outgoing (before a loan leaves) or incoming (on arrival or return).
        examined_by: The staff member examining it.
        loan_id: The loan (required for outgoing and incoming reports; the object must be on it).
        notes: Observations.
    """
    obj = ctx.get(MuseumObject, object_id, field="object_id")
    require_employee(ctx, examined_by, field="examined_by", hint="condition is checked by staff")
    if stage != "routine":
        if loan_id is None:
            raise RuleViolation(f"an {stage} report names its loan", field="loan_id", hint="give the loan id")
        if obj.id not in ctx.get(Loan, loan_id, field="loan_id").object_ids:
            raise RuleViolation("the object is not on that loan", field="loan_id", hint="pick the object's loan")
    return ctx.create(
        ConditionReport,
        object_id=obj.id,
        condition=condition,
        stage=stage,
        loan_id=loan_id,
        notes=notes,
        examined_by=examined_by,
    )


def _busy(ctx: Ctx, obj_id: str, start: Any, end: Any, skip: str = "") -> str | None:
    for ex in ctx.scan(Exhibition):
        if ex.status != "closed" and obj_id in ex.object_ids and ex.opens_on <= end and start <= ex.closes_on:
            return f"exhibition {ex.title!r}"
    for ln in ctx.scan(Loan):
        if (
            ln.id != skip
            and ln.status in ("requested", "approved", "active")
            and obj_id in ln.object_ids
            and ln.start_date <= end
            and start <= ln.end_date
        ):
            return f"loan {ln.id}"
    return None


def _example_loan(ctx: Ctx) -> dict[str, Any] | None:
    year = ctx.today().year + 2
    for obj in ctx.where(MuseumObject, status="in_collection"):
        if _busy(ctx, obj.id, ctx.today(), ctx.today().replace(year=year)) is None:
            return {
                "direction": "outgoing",
                "institution": "Rijksmuseum",
                "contact_name": "Anneke de Vries",
                "contact_email": "registrar@rijksmuseum.example",
                "object_ids": [obj.id],
                "start_date": f"{year}-03-01",
                "end_date": f"{year}-07-31",
                "purpose": "Dutch Interiors",
            }
    return None


@service.tool(intent="request the loan", write=True, example=_example_loan)
def request_loan(
    ctx: Ctx,
    direction: Literal["outgoing", "incoming"],
    institution: Title,
    contact_name: PersonName,
    contact_email: Email,
    object_ids: tuple[ObjectId, ...],
    start_date: Date,
    end_date: Date,
    purpose: Title,
) -> Loan:
    """Record a loan request: outgoing for our objects, incoming for borrowed (L-numbered) ones.

    Args:
        direction: outgoing (we lend) or incoming (we borrow).
        institution: The other museum.
        contact_name: Their registrar.
        contact_email: Their registrar's e-mail.
        object_ids: The objects (each once, free for the dates).
        start_date: Loan start.
        end_date: Loan end (after the start).
        purpose: The exhibition or study it is for.
    """
    if not object_ids or len(set(object_ids)) != len(object_ids):
        raise RuleViolation("list each object once", field="object_ids", hint="give one or more distinct objects")
    if end_date <= start_date:
        raise RuleViolation("the loan ends before it starts", field="end_date", hint="pick a later end")
    total = 0
    for oid in object_ids:
        obj = ctx.get(MuseumObject, oid, field="object_ids")
        want = "in_collection" if direction == "outgoing" else "on_loan_in"
        if obj.status != want:
            raise RuleViolation(
                f"{obj.accession_number} is {obj.status}",
                field="object_ids",
                hint=f"{direction} loans take objects that are {want}",
            )
        busy = _busy(ctx, obj.id, start_date, end_date)
        if busy is not None:
            raise Conflict(f"{obj.accession_number} is committed to {busy}", field="object_ids", hint="pick others")
        total += obj.valuation
    return ctx.create(
        Loan,
        direction=direction,
        institution=institution,
        contact_name=contact_name,
        contact_email=contact_email,
        object_ids=object_ids,
        start_date=start_date,
        end_date=end_date,
        purpose=purpose,
        insurance_value=total,
    )


def _loan(ctx: Ctx, loan_id: str, state: str) -> Loan:
    ln = ctx.get(Loan, loan_id, field="loan_id")
    if ln.status != state:
        raise RuleViolation(f"the loan is {ln.status}", field="loan_id", hint=f"only {state} loans")
    return ln


@service.tool(
    intent="approve the loan",
    write=True,
    example=first_example(Loan, "loan_id", where={"status": "requested"}),
)
def approve_loan(ctx: Ctx, loan_id: LoanId) -> Loan:
    """Approve a requested loan (the loans committee's decision).

    Args:
        loan_id: The loan.
    """
    return ctx.update(_loan(ctx, loan_id, "requested"), status="approved", approved_at=ctx.now())


def _example_dispatch(ctx: Ctx) -> dict[str, Any] | None:
    for ln in ctx.where(Loan, status="approved", direction="outgoing"):
        return {"loan_id": ln.id, "moved_by": ctx.population.employees[0].email}
    return None


@service.tool(intent="dispatch the outgoing loan", write=True, example=_example_dispatch)
def dispatch_loan(ctx: Ctx, loan_id: LoanId, moved_by: Email) -> Loan:
    """Send an approved outgoing loan: every object needs an outgoing report, at least fair, since approval.

    Args:
        loan_id: The loan (outgoing, approved).
        moved_by: The registrar who releases the objects.
    """
    ln = _loan(ctx, loan_id, "approved")
    if ln.direction != "outgoing":
        raise RuleViolation("incoming loans are returned, not dispatched", field="loan_id", hint="use return_loan")
    require_employee(ctx, moved_by, field="moved_by", hint="a registrar releases loans")
    for oid in ln.object_ids:
        ok = [
            r
            for r in ctx.where(ConditionReport, object_id=oid, loan_id=ln.id, stage="outgoing")
            if r.condition != "poor"
        ]
        if not ok:
            acc = ctx.get(MuseumObject, oid).accession_number
            raise RuleViolation(
                f"{acc} has no outgoing condition report of fair or better",
                field="loan_id",
                hint="file one with museum__report_condition",
            )
    for oid in ln.object_ids:
        obj = _move(ctx, ctx.get(MuseumObject, oid), None, "loan", moved_by)
        ctx.update(obj, status="on_loan_out")
    return ctx.update(ln, status="active")


@service.tool(
    intent="close out the loan",
    write=True,
    example=first_example(Loan, "loan_id", where={"status": "active"}),
)
def return_loan(ctx: Ctx, loan_id: LoanId) -> Loan:
    """Close an active loan: outgoing objects return to storage (with an incoming report), borrowed ones leave.

    Args:
        loan_id: The loan.
    """
    ln = _loan(ctx, loan_id, "active")
    store = ctx.first(Location, kind="storage", climate_controlled=True)
    for oid in ln.object_ids:
        obj = ctx.get(MuseumObject, oid)
        if ln.direction == "outgoing":
            if not ctx.where(ConditionReport, object_id=oid, loan_id=ln.id, stage="incoming"):
                raise RuleViolation(
                    f"{obj.accession_number} has no incoming condition report",
                    field="loan_id",
                    hint="file one with museum__report_condition on arrival",
                )
            moved = _move(ctx, obj, None if store is None else store.id, "return", ctx.population.employees[0].email)
            ctx.update(moved, status="in_collection")
        else:
            ctx.update(obj, status="returned_to_lender", location_id=None)
    return ctx.update(ln, status="returned")


def _example_plan(ctx: Ctx) -> dict[str, Any] | None:
    g = ctx.first(Location, kind="gallery")
    year = ctx.today().year + 3
    return (
        None
        if g is None
        else {
            "title": "Makers and Markets",
            "gallery_id": g.id,
            "opens_on": f"{year}-02-01",
            "closes_on": f"{year}-06-30",
            "curator_email": ctx.population.employees[0].email,
        }
    )


@service.tool(intent="plan the exhibition", write=True, example=_example_plan)
def plan_exhibition(
    ctx: Ctx, title: Title, gallery_id: LocationId, opens_on: Date, closes_on: Date, curator_email: Email
) -> Exhibition:
    """Plan an exhibition in a gallery with a curator on staff; its checklist starts empty.

    Args:
        title: Its title.
        gallery_id: The gallery (a location of kind gallery).
        opens_on: Opening day.
        closes_on: Closing day (not before opening).
        curator_email: The curator.
    """
    new = Exhibition(
        id="exh_new",
        title=title,
        gallery_id=gallery_id,
        opens_on=opens_on,
        closes_on=closes_on,
        curator_email=curator_email,
    )
    _guard_exhibition(ctx, new, None)
    return ctx.create(
        Exhibition,
        title=title,
        gallery_id=gallery_id,
        opens_on=opens_on,
        closes_on=closes_on,
        curator_email=curator_email,
    )


@service.tool(
    intent="add the object to the exhibition",
    write=True,
    example=first_example(
        Exhibition,
        "exhibition_id",
        where={"status": "planned"},
        match=lambda c, e: c.first(MuseumObject, status="in_collection") is not None,
    ),
)
def add_to_exhibition(ctx: Ctx, exhibition_id: ExhibitionId, object_id: ObjectId | None = None) -> Exhibition:
    """Put an object on a planned or open exhibition's checklist; it must be on site and free for the dates.

    Args:
        exhibition_id: The exhibition.
        object_id: The object (default: the first free object in the collection).
    """
    ex = ctx.get(Exhibition, exhibition_id, field="exhibition_id")
    if ex.status == "closed":
        raise RuleViolation("the exhibition is closed", field="exhibition_id", hint="pick a current exhibition")
    if object_id is None:
        pick = next(
            (
                o
                for o in ctx.where(MuseumObject, status="in_collection")
                if o.id not in ex.object_ids and _busy(ctx, o.id, ex.opens_on, ex.closes_on) is None
            ),
            None,
        )
        if pick is None:
            raise RuleViolation("no free object", field="object_id", hint="name an object")
        object_id = pick.id
    obj = ctx.get(MuseumObject, object_id, field="object_id")
    _here(obj, "object_id")
    if obj.id in ex.object_ids:
        raise Conflict(f"{obj.accession_number} is already on the checklist", field="object_id", hint="nothing to do")
    busy = _busy(ctx, obj.id, ex.opens_on, ex.closes_on)
    if busy is not None:
        raise Conflict(f"{obj.accession_number} is committed to {busy}", field="object_id", hint="pick another")
    _place_ok(ctx, obj.object_type, ex.gallery_id)
    return ctx.update(ex, object_ids=(*ex.object_ids, obj.id))


@service.tool(
    intent="deaccession the object",
    write=True,
    destructive=True,
    example=first_example(
        MuseumObject,
        "object_id",
        where={"status": "in_collection", "object_type": "furniture"},
        reason="Duplicate of a better example; approved by the board.",
        fields={"approved_by": "curator_email"},
    ),
)
def deaccession_object(ctx: Ctx, object_id: ObjectId, reason: Text, approved_by: Email) -> MuseumObject:
    """Remove an owned object from the collection for good; not while on loan or on an exhibition checklist.

    Args:
        object_id: The object (in the collection).
        reason: Why (required; recorded on the object).
        approved_by: The curator approving it.
    """
    obj = ctx.get(MuseumObject, object_id, field="object_id")
    if obj.status != "in_collection":
        raise RuleViolation(f"{obj.accession_number} is {obj.status}", field="object_id", hint="only owned objects")
    if not reason.strip():
        raise RuleViolation("a deaccession needs a reason", field="reason", hint="record the board's rationale")
    require_employee(ctx, approved_by, field="approved_by", hint="a curator approves deaccessions")
    busy = _busy(ctx, obj.id, ctx.today(), ctx.today().replace(year=ctx.today().year + 50))
    if busy is not None:
        raise Conflict(f"{obj.accession_number} is committed to {busy}", field="object_id", hint="release it first")
    return ctx.update(obj, status="deaccessioned", deaccession_reason=reason.strip(), location_id=None)


# -- seed -------------------------------------------------------------------------------------

PLACES: tuple[tuple[str, Any, bool], ...] = (
    ("Gallery 1 (European Painting)", "gallery", True),
    ("Gallery 2 (Decorative Arts)", "gallery", True),
    ("Store A, climate vault", "storage", True),
    ("Store B, large objects", "storage", False),
    ("Conservation Lab", "conservation_lab", True),
    ("In transit / offsite", "offsite", False),
)
OBJECTS: tuple[tuple[str, ObjectType, str, str, str, int], ...] = (
    ("Harbor at Dusk", "painting", "Marguerite Lemaire", "1887", "Oil on canvas", 45_000_000),
    ("Portrait of a Merchant", "painting", "Cornelis de Wit", "c. 1655", "Oil on panel", 120_000_000),
    ("Standing Figure", "sculpture", "Ernst Halvorsen", "1921", "Bronze", 30_000_000),
    ("Sampler with Alphabet", "textile", "Mary Ellis", "1812", "Silk on linen", 1_800_000),
    ("Street, Early Morning", "photograph", "Ilse Brandt", "1932", "Gelatin silver print", 2_500_000),
    ("Covered Jar", "ceramic", "Unknown", "18th century", "Porcelain with underglaze blue", 6_000_000),
    ("Study of Hands", "work_on_paper", "Marguerite Lemaire", "1884", "Graphite on paper", 3_500_000),
    ("Side Chair", "furniture", "Workshop of J. Hale", "c. 1790", "Mahogany", 900_000),
    ("Writing Desk", "furniture", "Unknown", "c. 1820", "Walnut veneer", 1_200_000),
)


@service.seeder
def seed(s: SeedContext) -> None:
    """Locations, catalogued objects with histories, condition reports, loans in every state and exhibitions."""
    import datetime as dt

    curators = s.population.staff("Marketing", "Operations", fallback=3)
    locs = [s.create(Location, name=n, kind=k, climate_controlled=c) for n, k, c in PLACES]
    today = s.now.date()
    made: list[MuseumObject] = []
    for k, (title, kind, maker, date, medium, value) in enumerate(OBJECTS):
        where = locs[2] if kind in SENSITIVE or k % 3 == 0 else locs[3] if kind == "furniture" else locs[k % 2]
        obj = s.create(
            MuseumObject,
            accession_number=f"{1950 + 7 * k}.{10 + k}.1",
            title=title,
            object_type=kind,
            maker=maker,
            date_made=date,
            medium=medium,
            acquisition_method=("gift", "purchase", "bequest")[k % 3],
            credit_line=f"Gift of the {s.population.consumers[k].last_name} family" if k % 3 == 0 else "",
            valuation=value,
            location_id=where.id,
            curator_email=curators[k % len(curators)].email,
            created_at=s.ago(days=3000 - 200 * k),
        )
        made.append(obj)
        s.create(
            Movement,
            object_id=obj.id,
            from_location_id=None,
            to_location_id=where.id,
            reason="storage",
            moved_by=obj.curator_email,
            moved_at=s.ago(days=2900 - 200 * k),
        )
        s.create(
            ConditionReport,
            object_id=obj.id,
            condition=("excellent", "good", "fair")[k % 3],
            stage="routine",
            examined_by=obj.curator_email,
            reported_at=s.ago(days=100 + k),
        )
    borrowed = s.create(
        MuseumObject,
        accession_number=f"L{today.year}.1.1",
        title="Garden Terrace",
        object_type="painting",
        maker="Helene Aubry",
        date_made="1902",
        medium="Oil on canvas",
        acquisition_method="loan_in",
        valuation=60_000_000,
        location_id=locs[0].id,
        status="on_loan_in",
        curator_email=curators[0].email,
        created_at=s.ago(days=40),
    )
    lender = s.population.contacts[0]
    d = dt.timedelta
    s.create(
        Loan,
        direction="incoming",
        institution="Musée des Beaux-Arts",
        contact_name=lender.name,
        contact_email=lender.email,
        object_ids=(borrowed.id,),
        start_date=today - d(days=40),
        end_date=today + d(days=120),
        purpose="Impressions of Light",
        insurance_value=borrowed.valuation,
        status="active",
        approved_at=s.ago(days=90),
        created_at=s.ago(days=120),
    )
    away = s.update(made[2], status="on_loan_out", location_id=None)
    other = s.population.contacts[1]
    active = s.create(
        Loan,
        direction="outgoing",
        institution="Nordic Sculpture Museum",
        contact_name=other.name,
        contact_email=other.email,
        object_ids=(away.id,),
        start_date=today - d(days=20),
        end_date=today + d(days=60),
        purpose="Modern Bronze",
        insurance_value=away.valuation,
        status="active",
        approved_at=s.ago(days=60),
        created_at=s.ago(days=80),
    )
    s.create(
        ConditionReport,
        object_id=away.id,
        condition="good",
        stage="outgoing",
        loan_id=active.id,
        examined_by=away.curator_email,
        reported_at=s.ago(days=21),
    )
    third = s.population.contacts[2]
    for status, obj in (("approved", made[1]), ("requested", made[5])):
        loan = s.create(
            Loan,
            direction="outgoing",
            institution="City Art Gallery",
            contact_name=third.name,
            contact_email=third.email,
            object_ids=(obj.id,),
            start_date=today + d(days=60),
            end_date=today + d(days=150),
            purpose="Collecting the World",
            insurance_value=obj.valuation,
            status=status,
            approved_at=s.ago(days=2) if status == "approved" else None,
            created_at=s.ago(days=30),
        )
        if status == "approved":
            s.create(
                ConditionReport,
                object_id=obj.id,
                condition="good",
                stage="outgoing",
                loan_id=loan.id,
                examined_by=obj.curator_email,
                reported_at=s.ago(days=1),
            )
    s.create(
        Exhibition,
        title="Impressions of Light",
        gallery_id=locs[0].id,
        opens_on=today - d(days=30),
        closes_on=today + d(days=110),
        object_ids=(made[0].id, borrowed.id),
        curator_email=curators[0].email,
        status="open",
    )
    s.create(
        Exhibition,
        title="Domestic Life 1750-1850",
        gallery_id=locs[1].id,
        opens_on=today + d(days=200),
        closes_on=today + d(days=320),
        object_ids=(made[3].id,),
        curator_email=curators[-1].email,
    )
