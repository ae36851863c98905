"""Discovery Desk: litigation eDiscovery for the company's legal department.

Modeled on the RelativityOne REST APIs (Workspaces as matters, Legal Hold
projects with custodians, notices and acknowledgements, Collect jobs, Review
batch sets with check-out, coding fields Responsiveness and Privilege, and
Productions with Bates numbering): a matter is active until closed, and closes
only when no hold is still active; a legal hold goes draft → active → released,
is issued only with custodians and a notice, and issuing it sends each
custodian a notice that goes sent → acknowledged (or escalated to the manager
after two unanswered reminders); collections go pending → in_progress →
completed and bring the custodian's documents in; review batches of up to 50
documents go pending → in_progress (checked out by one reviewer) → completed
once every document is coded; a document is coded only inside a batch checked
out by that reviewer, and a privileged call needs a basis for the privilege
log; a production is staged only with responsive, non-privileged documents
never produced before, and producing it stamps consecutive Bates numbers that
never overlap another production of the matter.
"""

from __future__ import annotations

import datetime as dt
from typing import Annotated, Any, Literal

from pydantic import Field, StringConstraints

from compoworld.engine.context import Ctx
from compoworld.engine.errors import Conflict, RuleViolation
from compoworld.engine.records import CREATED, Generated, Record
from compoworld.engine.service import Service, Transition
from compoworld.engine.state import SeedContext
from compoworld.engine.types import CompanyName, Date, DateTime, Email, IdOf, PersonName, Text, Title
from compoworld.services.kit.examples import first_example

__all__ = ["service"]

service = Service(
    "ediscovery",
    title="Discovery Desk",
    category="ediscovery",
    modeled_on="RelativityOne REST APIs: Workspaces, Legal Hold (projects, custodians, notices), Collect, "
    "Review batch sets, coding fields, Productions with Bates numbering",
    description="eDiscovery for the legal department: litigation matters, custodians and the legal holds that "
    "preserve their data with notices and acknowledgements, data collections, review batches and coding "
    "decisions (responsive, privileged), and productions to opposing counsel stamped with Bates numbers.",
)

MatterId = Annotated[str, IdOf("ediscovery.matter")]
CustodianId = Annotated[str, IdOf("ediscovery.custodian")]
HoldId = Annotated[str, IdOf("ediscovery.hold")]
NoticeId = Annotated[str, IdOf("ediscovery.notice")]
CollectionId = Annotated[str, IdOf("ediscovery.collection")]
DocumentId = Annotated[str, IdOf("ediscovery.document")]
BatchId = Annotated[str, IdOf("ediscovery.batch")]
ProductionId = Annotated[str, IdOf("ediscovery.production")]

BatesPrefix = Annotated[str, StringConstraints(pattern=r"^[A-Z]{2,8}$")]
"""The letters every Bates number of a production starts with."""
BatesNumber = Annotated[str, StringConstraints(pattern=r"^[A-Z]{2,8}\d{7}$")]
"""A Bates number: the prefix and seven digits."""

MatterStatus = Literal["active", "closed"]
HoldStatus = Literal["draft", "active", "released"]
NoticeStatus = Literal["sent", "acknowledged", "escalated", "released"]
Source = Literal["exchange_mailbox", "onedrive", "teams_chat", "slack", "laptop_image"]
CollectionStatus = Literal["pending", "in_progress", "completed"]
DocType = Literal["email", "chat", "spreadsheet", "presentation", "pdf"]
Responsiveness = Literal["responsive", "not_responsive"]
Privilege = Literal["none", "attorney_client", "work_product"]
BatchStatus = Literal["pending", "in_progress", "completed"]
ProductionStatus = Literal["staged", "produced"]

MAX_BATCH = 50
MAX_REMINDERS = 3


class Matter(Record):
    """A litigation or investigation matter (a RelativityOne workspace)."""

    id: MatterId
    number: Annotated[str, Generated("sequence", "LIT-{n:04d}")]
    """The matter number, e.g. LIT-0003."""
    name: Title
    """Case name, e.g. 'Northwind v. Contoso'."""
    opposing_party: CompanyName
    """The other side of the case."""
    case_manager_email: Email
    """The employee managing the matter."""
    status: MatterStatus = "active"
    """active or closed."""
    created_at: Annotated[DateTime, CREATED]
    """When it was opened."""


class Custodian(Record):
    """A person whose data the matter may need (an employee of the company)."""

    id: CustodianId
    matter_id: MatterId
    """The matter."""
    name: PersonName
    """Full name."""
    email: Email
    """Work e-mail; unique within a matter."""
    created_at: Annotated[DateTime, CREATED]
    """When they were added."""


class Hold(Record):
    """A legal hold project: a notice telling custodians to preserve their data."""

    id: HoldId
    matter_id: MatterId
    """The matter."""
    name: Title
    """The hold's name."""
    notice_text: Text
    """The preservation notice custodians receive."""
    custodian_ids: tuple[CustodianId, ...] = ()
    """The custodians under the hold."""
    status: HoldStatus = "draft"
    """draft → active (issued) → released."""
    issued_at: DateTime | None = None
    """When it was issued."""
    released_at: DateTime | None = None
    """When it was released."""
    created_at: Annotated[DateTime, CREATED]
    """When it was drafted."""


class Notice(Record):
    """One custodian's copy of a hold notice and whether they acknowledged it."""

    id: NoticeId
    hold_id: HoldId
    """The hold."""
    custodian_id: CustodianId
    """The custodian."""
    custodian_email: Email
    """Where it was sent."""
    status: NoticeStatus = "sent"
    """sent → acknowledged; escalated at the third unanswered reminder; released with the hold."""
    reminders: Annotated[int, Field(ge=0, le=MAX_REMINDERS)] = 0
    """Reminders sent so far."""
    sent_at: DateTime
    """When the notice went out."""
    acknowledged_at: DateTime | None = None
    """When the custodian acknowledged it."""


class Collection(Record):
    """A collection job that copies one data source of a custodian into the matter."""

    id: CollectionId
    matter_id: MatterId
    """The matter."""
    custodian_id: CustodianId
    """Whose data."""
    source: Source
    """exchange_mailbox, onedrive, teams_chat, slack or laptop_image."""
    date_from: Date
    """First day of the date range collected."""
    date_to: Date
    """Last day of the date range collected."""
    status: CollectionStatus = "pending"
    """pending → in_progress → completed."""
    item_count: int = 0
    """Documents brought in."""
    created_at: Annotated[DateTime, CREATED]
    """When it was created."""


class Document(Record):
    """A collected document and its coding."""

    id: DocumentId
    control_number: Annotated[str, Generated("sequence", "DOC{n:07d}")]
    """The document's control number."""
    matter_id: MatterId
    """The matter."""
    custodian_id: CustodianId
    """Whose data it came from."""
    collection_id: CollectionId
    """The collection that brought it in."""
    title: Title
    """Subject or file name."""
    doc_type: DocType
    """email, chat, spreadsheet, presentation or pdf."""
    doc_date: Date
    """Sent or last-modified date."""
    responsiveness: Responsiveness | None = None
    """The reviewer's call; none until coded."""
    privilege: Privilege = "none"
    """none, attorney_client or work_product (privileged documents are withheld and logged)."""
    privilege_basis: Text | None = None
    """Why it is privileged (the privilege log entry)."""
    coded_by: Email | None = None
    """The reviewer who coded it."""
    bates_number: BatesNumber | None = None
    """Its Bates number once produced."""
    production_id: ProductionId | None = None
    """The production it went out in."""


class Batch(Record):
    """A review batch: documents one reviewer checks out and codes."""

    id: BatchId
    matter_id: MatterId
    """The matter."""
    name: Title
    """The batch's name."""
    document_ids: tuple[DocumentId, ...]
    """Its documents (1-50)."""
    reviewer_email: Email | None = None
    """Who has it checked out."""
    status: BatchStatus = "pending"
    """pending → in_progress (checked out) → completed."""
    created_at: Annotated[DateTime, CREATED]
    """When it was built."""


class Production(Record):
    """A set of documents produced to the other side, stamped with Bates numbers."""

    id: ProductionId
    matter_id: MatterId
    """The matter."""
    name: Title
    """The production's name (e.g. 'Volume 001')."""
    bates_prefix: BatesPrefix
    """Prefix of its Bates numbers."""
    document_ids: tuple[DocumentId, ...]
    """The documents produced."""
    recipient_email: Email
    """Opposing counsel who receives it."""
    status: ProductionStatus = "staged"
    """staged → produced."""
    begin_bates: BatesNumber | None = None
    """First Bates number stamped."""
    end_bates: BatesNumber | None = None
    """Last Bates number stamped."""
    produced_at: DateTime | None = None
    """When it was produced."""
    created_at: Annotated[DateTime, CREATED]
    """When it was staged."""


# -- rules ------------------------------------------------------------------------------------


def _staff(ctx: Ctx, email: str | None, field: str) -> None:
    if email is not None and email not in {p.email for p in ctx.population.employees}:
        raise RuleViolation(f"{email} is not an employee", field=field, hint="use an employee's work e-mail")


def _active_matter(ctx: Ctx, matter_id: str, field: str = "matter_id") -> Matter:
    matter = ctx.get(Matter, matter_id, field=field)
    if matter.status != "active":
        raise RuleViolation(f"matter {matter.number} is closed", field=field, hint="work only in active matters")
    return matter


def _custodian_of(ctx: Ctx, matter_id: str, custodian_id: str, field: str = "custodian_id") -> Custodian:
    cust = ctx.get(Custodian, custodian_id, field=field)
    if cust.matter_id != matter_id:
        raise RuleViolation(
            f"custodian {cust.id} belongs to another matter",
            field=field,
            hint="list the matter's custodians with ediscovery__list_custodians",
        )
    return cust


def _guard_matter(ctx: Ctx, new: Any, old: Any) -> None:
    if new.status == "closed" and old.status != "closed":
        for hold in ctx.where(Hold, matter_id=new.id, status="active"):
            raise RuleViolation(
                f"hold {hold.name!r} is still active",
                field="matter_id",
                hint="release the hold with ediscovery__release_hold before closing the matter",
            )
    _staff(ctx, new.case_manager_email, "case_manager_email")


def _guard_hold(ctx: Ctx, new: Any, old: Any) -> None:
    _active_matter(ctx, new.matter_id)
    if len(set(new.custodian_ids)) != len(new.custodian_ids):
        raise RuleViolation("a custodian is listed twice", field="custodian_ids", hint="list each once")
    for cid in new.custodian_ids:
        _custodian_of(ctx, new.matter_id, cid, "custodian_ids")


matters = service.resource(
    Matter,
    name="matter",
    plural="matters",
    prefix="mat",
    create=False,
    filters=("status", "case_manager_email", "number"),
    search=("name", "opposing_party"),
    update=("name", "case_manager_email"),
    delete=False,
    transitions={"close": Transition("status", ("active",), "closed", "close the matter (no active hold left)")},
    guard_update=_guard_matter,
)
custodians = service.resource(
    Custodian,
    name="custodian",
    plural="custodians",
    prefix="cust",
    create=False,
    filters=("matter_id", "email"),
    search=("name", "email"),
    delete=False,
)
holds = service.resource(
    Hold,
    name="hold",
    plural="holds",
    prefix="hold",
    create=("matter_id", "name", "notice_text", "custodian_ids"),
    filters=("matter_id", "status"),
    search=("name",),
    delete=False,
    guard_create=_guard_hold,
    title="legal hold",
)
notices = service.resource(
    Notice,
    name="notice",
    plural="notices",
    prefix="ntc",
    create=False,
    get=False,
    filters=("hold_id", "custodian_id", "custodian_email", "status"),
    delete=False,
    title="hold notice",
)
collections = service.resource(
    Collection,
    name="collection",
    plural="collections",
    prefix="col",
    create=False,
    get=False,
    filters=("matter_id", "custodian_id", "source", "status"),
    delete=False,
    transitions={"start": Transition("status", ("pending",), "in_progress", "start the collection")},
)
documents = service.resource(
    Document,
    name="document",
    plural="documents",
    prefix="doc",
    create=False,
    filters=("matter_id", "custodian_id", "responsiveness", "privilege", "production_id", "control_number"),
    search=("title",),
    delete=False,
)
batches = service.resource(
    Batch,
    name="batch",
    plural="batches",
    prefix="bat",
    create=False,
    filters=("matter_id", "status", "reviewer_email"),
    search=("name",),
    delete=False,
    title="review batch",
)
productions = service.resource(
    Production, name="production", plural="productions", prefix="prod", create=False, filters=("matter_id", "status")
)


def _all_coded(ctx: Ctx, b: Batch) -> bool:
    return all(ctx.get(Document, d).responsiveness for d in b.document_ids)


_EX_ISSUE_HOLD = first_example(Hold, "hold_id", where={"status": "draft"}, match=lambda ctx, h: bool(h.custodian_ids))
_EX_RELEASE_HOLD = first_example(Hold, "hold_id", where={"status": "active"})
_EX_ACKNOWLEDGE_NOTICE = first_example(Notice, "notice_id", where={"status": "sent"})
_EX_SEND_REMINDER = first_example(Notice, "notice_id", where={"status": "sent"})
_EX_COMPLETE_COLLECTION = first_example(Collection, "collection_id", where={"status": "in_progress"})
_EX_COMPLETE_BATCH = first_example(Batch, "batch_id", where={"status": "in_progress"}, match=_all_coded)
_EX_RUN_PRODUCTION = first_example(Production, "production_id", where={"status": "staged"})


# -- matters, custodians and holds ------------------------------------------------------------


def _example_open(ctx: Ctx) -> dict[str, Any] | None:
    other = ctx.population.customers[-1].name
    return {
        "name": f"{other} v. {ctx.population.home.name}",
        "opposing_party": other,
        "case_manager_email": ctx.population.employees[-1].email,
    }


@service.tool(intent="open the litigation matter", write=True, example=_example_open)
def open_matter(ctx: Ctx, name: Title, opposing_party: CompanyName, case_manager_email: Email) -> Matter:
    """Open a matter (workspace); no two active matters share a name.

    Args:
        name: Case name.
        opposing_party: The other side.
        case_manager_email: The employee managing the matter.
    """
    if any(m.name.casefold() == name.casefold() for m in ctx.where(Matter, status="active")):
        raise Conflict(f"an active matter is already named {name!r}", field="name", hint="use that matter")
    _staff(ctx, case_manager_email, "case_manager_email")
    return ctx.create(Matter, name=name, opposing_party=opposing_party, case_manager_email=case_manager_email)


def _example_custodian(ctx: Ctx) -> dict[str, Any] | None:
    matter = ctx.first(Matter, status="active")
    taken = {c.email for c in ctx.scan(Custodian)}
    free = [p.email for p in ctx.population.employees if p.email not in taken]
    return None if matter is None or not free else {"matter_id": matter.id, "email": free[0]}


@service.tool(intent="add the employee as a custodian", write=True, example=_example_custodian)
def add_custodian(ctx: Ctx, matter_id: MatterId, email: Email) -> Custodian:
    """Add an employee to a matter as a custodian; their name comes from the company directory.

    Args:
        matter_id: The active matter.
        email: The employee's work e-mail.
    """
    matter = _active_matter(ctx, matter_id)
    person = next((p for p in ctx.population.employees if p.email == email), None)
    if person is None:
        raise RuleViolation(f"{email} is not an employee", field="email", hint="custodians are the company's staff")
    if ctx.where(Custodian, matter_id=matter.id, email=email):
        raise Conflict(f"{email} is already a custodian of {matter.number}", field="email", hint="use that custodian")
    return ctx.create(Custodian, matter_id=matter.id, name=person.name, email=email)


def _notify(ctx: Ctx, hold: Hold, cust: Custodian) -> None:
    ctx.create(Notice, hold_id=hold.id, custodian_id=cust.id, custodian_email=cust.email, sent_at=ctx.now())


@service.tool(intent="issue the legal hold", write=True, example=_EX_ISSUE_HOLD)
def issue_hold(ctx: Ctx, hold_id: HoldId) -> Hold:
    """Issue a draft hold: it becomes active and every custodian on it is sent the notice (Relativity Legal Hold).

    Args:
        hold_id: The draft hold.
    """
    hold = ctx.get(Hold, hold_id, field="hold_id")
    if hold.status != "draft":
        raise Conflict(f"hold {hold.name!r} is already {hold.status}", field="hold_id", hint="only drafts are issued")
    _active_matter(ctx, hold.matter_id, "hold_id")
    if not hold.custodian_ids or not hold.notice_text.strip():
        raise RuleViolation("a hold needs custodians and a notice", field="hold_id", hint="draft a complete hold")
    for cid in hold.custodian_ids:
        _notify(ctx, hold, ctx.get(Custodian, cid))
    return ctx.update(hold, status="active", issued_at=ctx.now())


@service.tool(intent="release the legal hold", write=True, destructive=True, example=_EX_RELEASE_HOLD)
def release_hold(ctx: Ctx, hold_id: HoldId) -> Hold:
    """Release an active hold once the duty to preserve ends; its notices are released too.

    Args:
        hold_id: The active hold.
    """
    hold = ctx.get(Hold, hold_id, field="hold_id")
    if hold.status != "active":
        raise RuleViolation(f"hold {hold.name!r} is {hold.status}", field="hold_id", hint="only active holds release")
    for n in ctx.where(Notice, hold_id=hold.id):
        ctx.update(n, status="released")
    return ctx.update(hold, status="released", released_at=ctx.now())


def _live_notice(ctx: Ctx, notice_id: str, *allowed: str) -> Notice:
    notice = ctx.get(Notice, notice_id, field="notice_id")
    if notice.status not in allowed:
        raise RuleViolation(f"notice {notice.id} is {notice.status}", field="notice_id", hint="pick a sent notice")
    return notice


@service.tool(intent="acknowledge the hold notice", write=True, example=_EX_ACKNOWLEDGE_NOTICE)
def acknowledge_notice(ctx: Ctx, notice_id: NoticeId) -> Notice:
    """Record that the custodian acknowledged a sent or escalated notice.

    Args:
        notice_id: The notice.
    """
    notice = _live_notice(ctx, notice_id, "sent", "escalated")
    return ctx.update(notice, status="acknowledged", acknowledged_at=ctx.now())


@service.tool(intent="remind the custodian about the hold notice", write=True, example=_EX_SEND_REMINDER)
def send_reminder(ctx: Ctx, notice_id: NoticeId) -> Notice:
    """Remind a custodian of an unacknowledged notice; the third reminder escalates it to their manager.

    Args:
        notice_id: The sent notice.
    """
    notice = _live_notice(ctx, notice_id, "sent")
    count = notice.reminders + 1
    return ctx.update(notice, reminders=count, status="escalated" if count >= MAX_REMINDERS else "sent")


# -- collections and review -------------------------------------------------------------------

TITLES: dict[str, tuple[tuple[str, DocType], ...]] = {
    "exchange_mailbox": (("RE: pricing terms", "email"), ("Q3 forecast.xlsx", "spreadsheet"), ("FW: notes", "email")),
    "onedrive": (("Board deck.pptx", "presentation"), ("Supplier agreement.pdf", "pdf")),
    "teams_chat": (("Chat: launch channel", "chat"), ("Chat: 1:1", "chat")),
    "slack": (("#deals thread", "chat"), ("#legal thread", "chat")),
    "laptop_image": (("Notes.pdf", "pdf"), ("Budget.xlsx", "spreadsheet"), ("Draft memo.pdf", "pdf")),
}


def _bring_in(ctx: Ctx | SeedContext, col: Collection) -> list[Document]:
    span, found = (col.date_to - col.date_from).days, TITLES[col.source]
    base = {"matter_id": col.matter_id, "custodian_id": col.custodian_id, "collection_id": col.id}
    days = [dt.timedelta(days=span * k // len(found)) for k in range(len(found))]
    return [
        ctx.create(Document, title=title, doc_type=kind, doc_date=col.date_from + day, **base)
        for (title, kind), day in zip(found, days, strict=True)
    ]


def _example_collect(ctx: Ctx) -> dict[str, Any] | None:
    matter = ctx.first(Matter, status="active")
    cust = None if matter is None else ctx.first(Custodian, matter_id=matter.id)
    span = {"date_from": (ctx.today() - dt.timedelta(days=365)).isoformat(), "date_to": ctx.today().isoformat()}
    return None if cust is None else {"custodian_id": cust.id, "source": "slack"} | span


@service.tool(intent="collect the custodian's data", write=True, example=_example_collect)
def create_collection(
    ctx: Ctx, custodian_id: CustodianId, source: Source, date_from: Date, date_to: Date
) -> Collection:
    """Create a pending collection of one data source of a custodian over a date range.

    Args:
        custodian_id: The custodian of an active matter.
        source: exchange_mailbox, onedrive, teams_chat, slack or laptop_image.
        date_from: First day to collect.
        date_to: Last day to collect (not before date_from).
    """
    cust = ctx.get(Custodian, custodian_id, field="custodian_id")
    _active_matter(ctx, cust.matter_id, "custodian_id")
    if date_from > date_to:
        raise RuleViolation("date_from is after date_to", field="date_from", hint="give a range that runs forward")
    for other in ctx.where(Collection, custodian_id=cust.id, source=source):
        if other.status != "completed":
            raise Conflict(
                f"collection {other.id} of this source is {other.status}", field="source", hint="let it finish"
            )
    span = {"date_from": date_from, "date_to": date_to}
    return ctx.create(Collection, matter_id=cust.matter_id, custodian_id=cust.id, source=source, **span)


@service.tool(intent="complete the collection", write=True, example=_EX_COMPLETE_COLLECTION)
def complete_collection(ctx: Ctx, collection_id: CollectionId) -> Collection:
    """Finish a running collection: the source's documents in its date range come into the matter.

    Args:
        collection_id: The in-progress collection.
    """
    col = ctx.get(Collection, collection_id, field="collection_id")
    if col.status != "in_progress":
        raise RuleViolation(
            f"collection {col.id} is {col.status}",
            field="collection_id",
            hint="start it with ediscovery__start_collection first" if col.status == "pending" else "nothing to do",
        )
    return ctx.update(col, status="completed", item_count=len(_bring_in(ctx, col)))


def _open_batch_of(ctx: Ctx, document_id: str) -> Batch | None:
    return next((b for b in ctx.scan(Batch) if b.status != "completed" and document_id in b.document_ids), None)


def _example_batch(ctx: Ctx) -> dict[str, Any] | None:
    for matter in ctx.where(Matter, status="active"):
        docs = ctx.where(Document, matter_id=matter.id, responsiveness=None)
        free = [d.id for d in docs if _open_batch_of(ctx, d.id) is None]
        if free:
            return {"matter_id": matter.id, "name": "Second-level review", "document_ids": free[:5]}
    return None


@service.tool(intent="build the review batch", write=True, example=_example_batch)
def create_batch(ctx: Ctx, matter_id: MatterId, name: Title, document_ids: list[DocumentId]) -> Batch:
    """Build a review batch of 1-50 of the matter's documents; a document is in one open batch at a time.

    Args:
        matter_id: The active matter.
        name: The batch's name.
        document_ids: The documents.
    """
    matter = _active_matter(ctx, matter_id)
    if not document_ids or len(document_ids) > MAX_BATCH:
        raise RuleViolation(f"a batch holds 1 to {MAX_BATCH} documents", field="document_ids", hint="split it")
    if len(set(document_ids)) != len(document_ids):
        raise RuleViolation("a document is listed twice", field="document_ids", hint="list each once")
    for did in document_ids:
        doc = ctx.get(Document, did, field="document_ids")
        if doc.matter_id != matter.id:
            raise RuleViolation(f"document {did} is in another matter", field="document_ids", hint="list this one's")
        other = _open_batch_of(ctx, did)
        if other is not None:
            raise Conflict(
                f"document {doc.control_number} is already in open batch {other.name!r}",
                field="document_ids",
                hint="leave it out or complete that batch first",
            )
    return ctx.create(Batch, matter_id=matter.id, name=name, document_ids=tuple(document_ids))


def _example_check_out(ctx: Ctx) -> dict[str, Any] | None:
    b = ctx.first(Batch, status="pending")
    return None if b is None else {"batch_id": b.id, "reviewer_email": ctx.population.employees[1].email}


@service.tool(intent="check out the review batch", write=True, example=_example_check_out)
def check_out_batch(ctx: Ctx, batch_id: BatchId, reviewer_email: Email) -> Batch:
    """Check a pending batch out to a reviewer, who then codes its documents.

    Args:
        batch_id: The pending batch.
        reviewer_email: The reviewing employee.
    """
    batch = ctx.get(Batch, batch_id, field="batch_id")
    if batch.status != "pending":
        by = f" by {batch.reviewer_email}" if batch.reviewer_email else ""
        raise Conflict(f"batch {batch.name!r} is {batch.status}{by}", field="batch_id", hint="pick a pending batch")
    _staff(ctx, reviewer_email, "reviewer_email")
    return ctx.update(batch, status="in_progress", reviewer_email=reviewer_email)


def _example_code(ctx: Ctx) -> dict[str, Any] | None:
    for b in ctx.where(Batch, status="in_progress"):
        for did in b.document_ids:
            if ctx.get(Document, did).bates_number is None:
                return {"document_id": did, "reviewer_email": b.reviewer_email, "responsiveness": "responsive"}
    return None


@service.tool(intent="code the document", write=True, idempotent=True, example=_example_code)
def code_document(
    ctx: Ctx,
    document_id: DocumentId,
    reviewer_email: Email,
    responsiveness: Responsiveness,
    privilege: Privilege = "none",
    privilege_basis: Text | None = None,
) -> Document:
    """Code a document in a batch the reviewer has checked out; a privileged call needs a basis for the log.

    Args:
        document_id: The document.
        reviewer_email: The reviewer who has its batch checked out.
        responsiveness: responsive or not_responsive.
        privilege: none, attorney_client or work_product.
        privilege_basis: Why it is privileged (required unless privilege is none).
    """
    doc = ctx.get(Document, document_id, field="document_id")
    if doc.bates_number is not None:
        raise Conflict(
            f"document {doc.control_number} was produced as {doc.bates_number}",
            field="document_id",
            hint="produced documents cannot be recoded",
        )
    batch = _open_batch_of(ctx, doc.id)
    if batch is None or batch.status != "in_progress":
        raise RuleViolation(
            f"document {doc.control_number} is in no checked-out batch",
            field="document_id",
            hint="batch it with ediscovery__create_batch and check the batch out",
        )
    if batch.reviewer_email != reviewer_email:
        raise RuleViolation(
            f"batch {batch.name!r} is checked out by {batch.reviewer_email}",
            field="reviewer_email",
            hint="only its reviewer codes its documents",
        )
    basis = (privilege_basis or "").strip()
    if privilege != "none" and not basis:
        raise RuleViolation(
            "a privileged document needs a basis for the privilege log",
            field="privilege_basis",
            hint="say e.g. 'legal advice from in-house counsel on the supplier dispute'",
        )
    return ctx.update(
        doc,
        responsiveness=responsiveness,
        privilege=privilege,
        privilege_basis=basis if privilege != "none" else None,
        coded_by=reviewer_email,
    )


@service.tool(intent="complete the review batch", write=True, example=_EX_COMPLETE_BATCH)
def complete_batch(ctx: Ctx, batch_id: BatchId) -> Batch:
    """Complete a checked-out batch once every document in it is coded.

    Args:
        batch_id: The in-progress batch.
    """
    batch = ctx.get(Batch, batch_id, field="batch_id")
    if batch.status != "in_progress":
        raise RuleViolation(f"batch {batch.name!r} is {batch.status}", field="batch_id", hint="check it out first")
    left = [d for d in batch.document_ids if ctx.get(Document, d).responsiveness is None]
    if left:
        raise RuleViolation(
            f"{len(left)} documents are not coded yet", field="batch_id", hint="code them with code_document"
        )
    return ctx.update(batch, status="completed")


# -- productions ------------------------------------------------------------------------------


def _producible(ctx: Ctx, matter_id: str, document_id: str) -> Document:
    doc = ctx.get(Document, document_id, field="document_ids")
    problem = None
    if doc.matter_id != matter_id:
        problem = "is in another matter"
    elif doc.responsiveness != "responsive":
        problem = "is not coded responsive"
    elif doc.privilege != "none":
        problem = f"is privileged ({doc.privilege}) and is withheld on the privilege log"
    elif doc.bates_number is not None:
        problem = f"was already produced as {doc.bates_number}"
    if problem is not None:
        raise RuleViolation(
            f"document {doc.control_number} {problem}",
            field="document_ids",
            hint="produce only responsive, non-privileged documents not produced before",
        )
    return doc


def _example_production(ctx: Ctx) -> dict[str, Any] | None:
    for matter in ctx.where(Matter, status="active"):
        docs = ctx.where(Document, matter_id=matter.id, responsiveness="responsive", privilege="none")
        staged = {d for p in ctx.where(Production, matter_id=matter.id, status="staged") for d in p.document_ids}
        ready = [d.id for d in docs if d.bates_number is None and d.id not in staged]
        if ready:
            return {
                "matter_id": matter.id,
                "name": "Supplemental volume",
                "bates_prefix": "HOME",
                "document_ids": ready[:3],
                "recipient_email": f"discovery@{ctx.population.customers[0].domain}",
            }
    return None


@service.tool(intent="stage the production", write=True, example=_example_production)
def stage_production(
    ctx: Ctx,
    matter_id: MatterId,
    name: Title,
    bates_prefix: BatesPrefix,
    document_ids: list[DocumentId],
    recipient_email: Email,
) -> Production:
    """Stage a production of the matter's responsive, non-privileged, never-produced documents.

    Args:
        matter_id: The active matter.
        name: The production's name, e.g. 'Volume 002'.
        bates_prefix: Two to eight capital letters, e.g. 'ACME'.
        document_ids: The documents to produce.
        recipient_email: Opposing counsel's e-mail.
    """
    matter = _active_matter(ctx, matter_id)
    if not document_ids:
        raise RuleViolation("a production needs documents", field="document_ids", hint="list responsive documents")
    if len(set(document_ids)) != len(document_ids):
        raise RuleViolation("a document is listed twice", field="document_ids", hint="list each once")
    for did in document_ids:
        _producible(ctx, matter.id, did)
        for other in ctx.where(Production, matter_id=matter.id, status="staged"):
            if did in other.document_ids:
                raise Conflict(f"{did} is staged in {other.name!r}", field="document_ids", hint="produce that one")
    return ctx.create(
        Production,
        matter_id=matter.id,
        name=name,
        bates_prefix=bates_prefix,
        document_ids=tuple(document_ids),
        recipient_email=recipient_email,
    )


@service.tool(intent="run the production", write=True, destructive=True, example=_EX_RUN_PRODUCTION)
def run_production(ctx: Ctx, production_id: ProductionId) -> Production:
    """Produce a staged production: its documents get consecutive Bates numbers after the prefix's last one.

    Args:
        production_id: The staged production.
    """
    prod = ctx.get(Production, production_id, field="production_id")
    if prod.status != "staged":
        raise Conflict(f"production {prod.name!r} was already produced", field="production_id", hint="nothing to do")
    for did in prod.document_ids:
        _producible(ctx, prod.matter_id, did)
    last = 0
    for other in ctx.where(Production, matter_id=prod.matter_id, status="produced"):
        if other.bates_prefix == prod.bates_prefix and other.end_bates is not None:
            last = max(last, int(other.end_bates[len(prod.bates_prefix) :]))
    numbers = [f"{prod.bates_prefix}{last + 1 + k:07d}" for k in range(len(prod.document_ids))]
    for did, bates in zip(prod.document_ids, numbers, strict=True):
        ctx.update(ctx.get(Document, did), bates_number=bates, production_id=prod.id)
    return ctx.update(prod, status="produced", begin_bates=numbers[0], end_bates=numbers[-1], produced_at=ctx.now())


# -- seed -------------------------------------------------------------------------------------

HOLD_TEXT = "Preserve all documents, e-mails and chats about this matter. Do not delete or alter anything."
SOURCES: tuple[Source, ...] = ("exchange_mailbox", "laptop_image", "teams_chat", "onedrive")
NOTICES: tuple[tuple[NoticeStatus, int], ...] = (("acknowledged", 0), ("sent", 1), ("sent", 2), ("escalated", 3))


def _day(s: SeedContext, days: int) -> dt.date:
    return (s.now - dt.timedelta(days=days)).date()


@service.seeder
def seed(s: SeedContext) -> None:
    """Two active matters and a closed one, custodians with holds and notices, collections, review and productions."""
    pop = s.population
    legal, staff, others = pop.staff("Legal", fallback=3), pop.employees, pop.customers
    for k in range(3):
        opp, when = others[k % len(others)], s.ago(days=300 - 90 * k)
        name, manager = f"{opp.name} v. {pop.home.name}", legal[k % len(legal)].email
        matter = s.create(Matter, name=name, opposing_party=opp.name, case_manager_email=manager, created_at=when)
        if k == 2:
            matter = s.update(matter, status="closed")
        custs = [
            s.create(Custodian, matter_id=matter.id, name=p.name, email=p.email) for p in staff[2 + 5 * k : 8 + 5 * k]
        ]
        on = tuple(c.id for c in (custs[:2] if k == 1 else custs[:5]))
        status: HoldStatus = ("active", "draft", "released")[k]
        hold = s.create(Hold, matter_id=matter.id, name=f"Preservation - {opp.name}", notice_text=HOLD_TEXT)
        hold = s.update(hold, custodian_ids=on, status=status, issued_at=None if k == 1 else when)
        for j, c in enumerate(custs[:5] if k != 1 else []):
            note, reminders = ("released", 0) if k == 2 else NOTICES[j % 4]
            ack = when if note == "acknowledged" else None
            s.create(Notice, hold_id=hold.id, custodian_id=c.id, custodian_email=c.email, sent_at=when)
            s.update(s.records(Notice)[-1], status=note, reminders=reminders, acknowledged_at=ack)
        if k == 0:
            _seed_review(s, matter, custs, opp.domain, legal[-1].email)
        elif k == 1:
            for c, st in ((custs[0], "pending"), (custs[1], "in_progress")):
                span = {"date_from": _day(s, 400), "date_to": _day(s, 30)}
                s.create(Collection, matter_id=matter.id, custodian_id=c.id, source="onedrive", status=st, **span)


def _seed_review(s: SeedContext, matter: Matter, custs: list[Custodian], domain: str, reviewer: str) -> None:
    """Four completed collections, a completed, an in-progress and a pending batch, a produced and a staged volume."""
    docs: list[Document] = []
    for c, source in zip(custs, SOURCES, strict=False):
        span = {"date_from": _day(s, 500), "date_to": _day(s, 200), "item_count": len(TITLES[source])}
        col = s.create(Collection, matter_id=matter.id, custodian_id=c.id, source=source, status="completed", **span)
        docs.extend(_bring_in(s, col))
    for i in range(6):
        docs[i] = s.update(docs[i], responsiveness="not_responsive" if i == 2 else "responsive", coded_by=reviewer)
    basis = "E-mail asking in-house counsel for legal advice."
    docs[3] = s.update(docs[3], privilege="attorney_client", privilege_basis=basis)
    for n, part, status in ((1, docs[:4], "completed"), (2, docs[4:6], "in_progress"), (3, docs[7:10], "pending")):
        batch = s.create(
            Batch, matter_id=matter.id, name=f"First-level review {n}", document_ids=tuple(d.id for d in part)
        )
        s.update(batch, reviewer_email=None if n == 3 else reviewer, status=status)
    to = f"discovery@{domain}"
    for n, doc in ((1, docs[0]), (2, docs[1])):
        prod = s.create(
            Production,
            matter_id=matter.id,
            name=f"Volume 00{n}",
            bates_prefix="HOME",
            document_ids=(doc.id,),
            recipient_email=to,
        )
        if n == 1:
            s.update(prod, status="produced", begin_bates="HOME0000001", end_bates="HOME0000001", produced_at=s.now)
            s.update(doc, bates_number="HOME0000001", production_id=prod.id)
