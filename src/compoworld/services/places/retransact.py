"""Closing Room: real estate transaction management with loops, participants, signatures and checklists.

Modeled on the Dotloop Public API v2: loops (one per transaction, named by the
property address) with a transaction type (purchase offer, listing for sale,
listing for lease, lease offer) and a status (private listing → active
listing → under contract → sold / leased, pre-offer → under contract, or
archived), loop details (price, closing date), participants by role (buyer,
seller, listing agent, buying agent, lender, escrow officer, inspector),
documents in folders sent for signature to participants, and task lists
(checklists) with due dates. A loop goes under contract only with a price, a
buyer and a seller and a closing date ahead; it closes only when every
document is signed and every task is done; a document is signed only by the
participants it was sent to; a loop's address is unique among open loops and
its agent is a member of the brokerage.
"""

from __future__ import annotations

import datetime as dt
from typing import Annotated, Any, Literal

from pydantic import Field

from compoworld.engine.context import Ctx
from compoworld.engine.errors import Conflict, RuleViolation
from compoworld.engine.records import CREATED, UPDATED, Record
from compoworld.engine.service import Service
from compoworld.engine.state import SeedContext
from compoworld.engine.types import Cents, City, Date, DateTime, Email, IdOf, PersonName, Phone, Title
from compoworld.services.kit.examples import first_example
from compoworld.services.kit.lists import require_employee

__all__ = ["service"]

service = Service(
    "retransact",
    title="Closing Room",
    category="real_estate_transactions",
    modeled_on="Dotloop Public API v2: loops (transaction type, status, details), loop participants with roles, "
    "folders and documents with signature requests, task lists",
    description="Transaction management for a real estate brokerage: one loop per deal named by the property, "
    "with its status from listing or offer to under contract and sold, the people in it and their roles, the "
    "documents sent out for signature, and the checklist of tasks with due dates that must be done to close.",
)

LoopId = Annotated[str, IdOf("retransact.loop")]
ParticipantId = Annotated[str, IdOf("retransact.participant")]
DocumentId = Annotated[str, IdOf("retransact.document")]
TaskId = Annotated[str, IdOf("retransact.task")]

TxType = Literal["purchase_offer", "listing_for_sale", "listing_for_lease", "lease_offer"]
LoopStatus = Literal["pre_offer", "private_listing", "active_listing", "under_contract", "sold", "leased", "archived"]
PartRole = Literal["buyer", "seller", "listing_agent", "buying_agent", "lender", "escrow_officer", "inspector"]
SINGLE_ROLES: frozenset[str] = frozenset({"listing_agent", "buying_agent", "escrow_officer"})
CLOSED: tuple[str, ...] = ("sold", "leased", "archived")
CHECKLIST: tuple[tuple[str, int], ...] = (
    ("Earnest money deposited", -25),
    ("Home inspection completed", -20),
    ("Appraisal received", -14),
    ("Loan commitment received", -7),
    ("Final walkthrough", -1),
)
"""The purchase checklist: task and its due day relative to closing."""


class Loop(Record):
    """One transaction."""

    id: LoopId
    name: Title = Field(description="The property address, e.g. 12 Elm St.")
    city: City = Field(description="The property's city.")
    transaction_type: TxType = Field(description="purchase_offer, listing_for_sale, listing_for_lease, lease_offer.")
    status: LoopStatus = Field(description="pre_offer, private_listing, active_listing, under_contract, sold, ...")
    agent_email: Email = Field(description="The brokerage's agent who owns the loop.")
    list_price: Cents | None = Field(None, description="Listing price.")
    purchase_price: Cents | None = Field(None, description="Agreed price under contract.")
    closing_date: Date | None = Field(None, description="Scheduled closing.")
    closed_at: DateTime | None = Field(None, description="When it closed.")
    created_at: Annotated[DateTime, CREATED] = Field(description="When it was opened.")
    updated_at: Annotated[DateTime, UPDATED] = Field(description="When it last changed.")


class Participant(Record):
    """A person in a loop with a role."""

    id: ParticipantId
    loop_id: LoopId = Field(description="The loop.")
    role: PartRole = Field(description="buyer, seller, listing_agent, buying_agent, lender, escrow_officer, inspector.")
    full_name: PersonName = Field(description="Their name.")
    email: Email = Field(description="Their e-mail (once per loop).")
    phone: Phone | None = Field(None, description="Their phone.")


class Document(Record):
    """A document in a loop's folder."""

    id: DocumentId
    loop_id: LoopId = Field(description="The loop.")
    name: Title = Field(description="e.g. Purchase Agreement.")
    folder: Literal["Contracts", "Disclosures", "Inspections", "Financing", "Closing"] = Field(description="Folder.")
    status: Literal["draft", "out_for_signature", "signed"] = Field("draft", description="draft, out, signed.")
    signer_ids: tuple[ParticipantId, ...] = Field((), description="Who must sign.")
    signed_by: tuple[ParticipantId, ...] = Field((), description="Who has signed.")
    created_at: Annotated[DateTime, CREATED] = Field(description="When it was added.")


class Task(Record):
    """A checklist item."""

    id: TaskId
    loop_id: LoopId = Field(description="The loop.")
    title: Title = Field(description="What must be done.")
    due_date: Date | None = Field(None, description="When it is due.")
    assignee_email: Email | None = Field(None, description="Who does it.")
    completed: bool = Field(False, description="Whether it is done.")
    completed_at: DateTime | None = Field(None, description="When it was done.")


# -- rules ------------------------------------------------------------------------------------


def _open_loop(ctx: Ctx, loop_id: str, field: str = "loop_id") -> Loop:
    loop = ctx.get(Loop, loop_id, field=field)
    if loop.status in CLOSED:
        raise RuleViolation(f"the loop is {loop.status}", field=field, hint="closed and archived loops are frozen")
    return loop


def _guard_task(ctx: Ctx, new: Any, old: Any) -> None:
    _open_loop(ctx, new.loop_id)
    if old is not None and old.completed and new.completed:
        raise RuleViolation("the task is done", field="task_id", hint="completed tasks are not edited")


def _guard_loop(ctx: Ctx, new: Any, old: Any) -> None:
    if old.status in CLOSED:
        raise RuleViolation(f"the loop is {old.status}", field="loop_id", hint="closed and archived loops are frozen")
    require_employee(ctx, new.agent_email, field="agent_email", hint="loops are owned by the brokerage's agents")


loops = service.resource(
    Loop,
    name="loop",
    plural="loops",
    prefix="loop",
    create=False,
    filters=("status", "transaction_type", "agent_email", "city", "name"),
    search=("name",),
    update=("list_price", "agent_email"),
    delete=False,
    guard_update=_guard_loop,
)
participants = service.resource(
    Participant,
    name="participant",
    plural="participants",
    prefix="prt",
    create=False,
    filters=("loop_id", "role", "email"),
    search=("full_name", "email"),
    delete=False,
)
documents = service.resource(
    Document,
    name="document",
    plural="documents",
    prefix="doc",
    create=False,
    filters=("loop_id", "folder", "status"),
    search=("name",),
    delete=False,
)
tasks = service.resource(
    Task,
    name="task",
    plural="tasks",
    prefix="tsk",
    create=("loop_id", "title", "due_date", "assignee_email"),
    filters=("loop_id", "completed", "assignee_email"),
    search=("title",),
    update=("title", "due_date", "assignee_email"),
    delete=False,
    guard_create=_guard_task,
    guard_update=_guard_task,
    title="checklist task",
)


# -- domain tools -----------------------------------------------------------------------------


def _example_open(ctx: Ctx) -> dict[str, Any] | None:
    return {
        "name": "77 Harbor View Rd",
        "city": ctx.population.home.place.city,
        "transaction_type": "listing_for_sale",
        "agent_email": ctx.population.employees[0].email,
        "list_price": 64_500_000,
    }


@service.tool(intent="open the loop", write=True, example=_example_open)
def open_loop(
    ctx: Ctx, name: Title, city: City, transaction_type: TxType, agent_email: Email, list_price: Cents | None = None
) -> Loop:
    """Open a loop for a property: listings start as private listings, offers as pre-offer.

    Args:
        name: The property address (unique among open loops).
        city: Its city.
        transaction_type: purchase_offer, listing_for_sale, listing_for_lease or lease_offer.
        agent_email: The agent who owns the loop (staff).
        list_price: Listing price, for listings.
    """
    for other in ctx.where(Loop, name=name):
        if other.status not in CLOSED and other.city == city:
            raise Conflict(f"loop {other.id} is open for {name}", field="name", hint="work in that loop")
    require_employee(ctx, agent_email, field="agent_email", hint="loops are owned by the brokerage's agents")
    status = "private_listing" if transaction_type.startswith("listing") else "pre_offer"
    return ctx.create(
        Loop,
        name=name,
        city=city,
        transaction_type=transaction_type,
        status=status,
        agent_email=agent_email,
        list_price=list_price,
    )


@service.tool(
    intent="publish the listing",
    write=True,
    example=first_example(Loop, "loop_id", where={"status": "private_listing"}),
)
def activate_listing(ctx: Ctx, loop_id: LoopId) -> Loop:
    """Take a private listing to active (on the market); it needs a list price.

    Args:
        loop_id: The loop (a private listing).
    """
    loop = _open_loop(ctx, loop_id)
    if loop.status != "private_listing":
        raise RuleViolation(f"the loop is {loop.status}", field="loop_id", hint="only private listings go active")
    if loop.list_price is None:
        raise RuleViolation("a listing needs a list price", field="loop_id", hint="set list_price first")
    return ctx.update(loop, status="active_listing")


def _example_participant(ctx: Ctx) -> dict[str, Any] | None:
    loop = ctx.first(Loop, status="active_listing")
    return (
        None
        if loop is None
        else {"loop_id": loop.id, "role": "lender", "full_name": "Grace Ortiz", "email": "grace.ortiz@lender.example"}
    )


@service.tool(intent="add the participant to the loop", write=True, example=_example_participant)
def add_participant(
    ctx: Ctx, loop_id: LoopId, role: PartRole, full_name: PersonName, email: Email, phone: Phone | None = None
) -> Participant:
    """Add a person to an open loop in a role; each e-mail once per loop, one agent per side, one escrow officer.

    Args:
        loop_id: The loop.
        role: buyer, seller, listing_agent, buying_agent, lender, escrow_officer or inspector.
        full_name: Their name.
        email: Their e-mail.
        phone: Their phone.
    """
    loop = _open_loop(ctx, loop_id)
    for p in ctx.where(Participant, loop_id=loop.id):
        if p.email == email:
            raise Conflict(f"{email} is already the {p.role}", field="email", hint="one role per person")
        if p.role == role and role in SINGLE_ROLES:
            raise Conflict(f"{p.full_name} is already the {role}", field="role", hint="remove them first")
    return ctx.create(Participant, loop_id=loop.id, role=role, full_name=full_name, email=email, phone=phone)


@service.tool(
    intent="remove the participant from the loop",
    write=True,
    destructive=True,
    example=first_example(Participant, "participant_id", where={"role": "inspector"}),
)
def remove_participant(ctx: Ctx, participant_id: ParticipantId) -> Participant:
    """Remove a participant who has no signature pending or given on any document.

    Args:
        participant_id: The participant.
    """
    p = ctx.get(Participant, participant_id, field="participant_id")
    _open_loop(ctx, p.loop_id, "participant_id")
    for d in ctx.where(Document, loop_id=p.loop_id):
        if p.id in d.signer_ids:
            raise RuleViolation(f"{p.full_name} signs {d.name!r}", field="participant_id", hint="they stay on it")
    ctx.delete(p)
    return p


def _example_contract(ctx: Ctx) -> dict[str, Any] | None:
    for loop in ctx.scan(Loop):
        roles = {p.role for p in ctx.where(Participant, loop_id=loop.id)}
        if loop.status in ("active_listing", "pre_offer") and {"buyer", "seller"} <= roles:
            return {
                "loop_id": loop.id,
                "purchase_price": 51_000_000,
                "closing_date": (ctx.today() + dt.timedelta(days=45)).isoformat(),
            }
    return None


@service.tool(intent="put the deal under contract", write=True, example=_example_contract)
def go_under_contract(ctx: Ctx, loop_id: LoopId, purchase_price: Cents, closing_date: Date) -> Loop:
    """Move an active listing or a pre-offer loop under contract; it needs a buyer and a seller.

    Args:
        loop_id: The loop.
        purchase_price: The agreed price (above zero).
        closing_date: The scheduled closing (ahead).
    """
    loop = _open_loop(ctx, loop_id)
    if loop.status not in ("active_listing", "pre_offer"):
        raise RuleViolation(f"the loop is {loop.status}", field="loop_id", hint="only active listings and offers")
    roles = {p.role for p in ctx.where(Participant, loop_id=loop.id)}
    buyer = "tenant" if "lease" in loop.transaction_type else "buyer"
    missing = [r for r in ("buyer", "seller") if r not in roles]
    if missing:
        raise RuleViolation(
            f"the loop has no {' or '.join(missing)}",
            field="loop_id",
            hint=f"add the {buyer} and the seller with retransact__add_participant",
        )
    if purchase_price <= 0:
        raise RuleViolation("the price must be above zero", field="purchase_price", hint="give the agreed price")
    if closing_date <= ctx.today():
        raise RuleViolation("closing must be ahead", field="closing_date", hint="pick a future closing date")
    return ctx.update(loop, status="under_contract", purchase_price=purchase_price, closing_date=closing_date)


@service.tool(
    intent="add the standard purchase checklist",
    write=True,
    example=first_example(Loop, "loop_id", where={"status": "under_contract"}),
)
def apply_checklist(ctx: Ctx, loop_id: LoopId) -> list[Task]:
    """Add the purchase checklist to a loop under contract, due relative to its closing date, owned by its agent.

    Args:
        loop_id: The loop (under contract; tasks already there are not added twice).
    """
    loop = _open_loop(ctx, loop_id)
    if loop.status != "under_contract" or loop.closing_date is None:
        raise RuleViolation("the loop is not under contract", field="loop_id", hint="go under contract first")
    have = {t.title for t in ctx.where(Task, loop_id=loop.id)}
    return [
        ctx.create(
            Task,
            loop_id=loop.id,
            title=title,
            due_date=max(loop.closing_date + dt.timedelta(days=d), ctx.today()),
            assignee_email=loop.agent_email,
        )
        for title, d in CHECKLIST
        if title not in have
    ]


def _example_doc(ctx: Ctx) -> dict[str, Any] | None:
    loop = ctx.first(Loop, status="under_contract")
    return None if loop is None else {"loop_id": loop.id, "name": "Seller's Disclosure", "folder": "Disclosures"}


@service.tool(intent="upload the document to the loop", write=True, example=_example_doc)
def add_document(
    ctx: Ctx,
    loop_id: LoopId,
    name: Title,
    folder: Literal["Contracts", "Disclosures", "Inspections", "Financing", "Closing"],
) -> Document:
    """Add a draft document to a folder of an open loop; names are unique within the loop.

    Args:
        loop_id: The loop.
        name: The document's name.
        folder: Contracts, Disclosures, Inspections, Financing or Closing.
    """
    loop = _open_loop(ctx, loop_id)
    if ctx.first(Document, loop_id=loop.id, name=name) is not None:
        raise Conflict(f"{name!r} is already in the loop", field="name", hint="use that document")
    return ctx.create(Document, loop_id=loop.id, name=name, folder=folder)


def _example_send(ctx: Ctx) -> dict[str, Any] | None:
    for d in ctx.where(Document, status="draft"):
        people = ctx.where(Participant, loop_id=d.loop_id)
        if people:
            return {"document_id": d.id, "signer_ids": [people[0].id]}
    return None


@service.tool(intent="send the document for signature", write=True, example=_example_send)
def request_signatures(ctx: Ctx, document_id: DocumentId, signer_ids: tuple[ParticipantId, ...]) -> Document:
    """Send a draft document to participants of its loop for signature.

    Args:
        document_id: The document (a draft).
        signer_ids: The participants who must sign (of the same loop, each once).
    """
    d = ctx.get(Document, document_id, field="document_id")
    _open_loop(ctx, d.loop_id, "document_id")
    if d.status != "draft":
        raise RuleViolation(f"the document is {d.status}", field="document_id", hint="only drafts are sent")
    if not signer_ids or len(set(signer_ids)) != len(signer_ids):
        raise RuleViolation("name each signer once", field="signer_ids", hint="list the participants who sign")
    for pid in signer_ids:
        if ctx.get(Participant, pid, field="signer_ids").loop_id != d.loop_id:
            raise RuleViolation(f"{pid} is in another loop", field="signer_ids", hint="add them to this loop first")
    return ctx.update(d, status="out_for_signature", signer_ids=signer_ids)


def _example_sign(ctx: Ctx) -> dict[str, Any] | None:
    for d in ctx.where(Document, status="out_for_signature"):
        left = [p for p in d.signer_ids if p not in d.signed_by]
        if left:
            return {"document_id": d.id, "participant_id": left[0]}
    return None


@service.tool(intent="sign the document", write=True, example=_example_sign)
def sign_document(ctx: Ctx, document_id: DocumentId, participant_id: ParticipantId) -> Document:
    """Record a requested signer's signature; when the last one signs the document is signed.

    Args:
        document_id: The document (out for signature).
        participant_id: The signer.
    """
    d = ctx.get(Document, document_id, field="document_id")
    if d.status != "out_for_signature":
        raise RuleViolation(f"the document is {d.status}", field="document_id", hint="send it for signature first")
    if participant_id not in d.signer_ids:
        raise RuleViolation("they were not asked to sign", field="participant_id", hint="pick a requested signer")
    if participant_id in d.signed_by:
        raise Conflict("they already signed", field="participant_id", hint="nothing to do")
    signed = (*d.signed_by, participant_id)
    done = set(signed) == set(d.signer_ids)
    return ctx.update(d, signed_by=signed, status="signed" if done else "out_for_signature")


@service.tool(
    intent="close the loop",
    write=True,
    example=first_example(
        Loop,
        "loop_id",
        where={"status": "under_contract"},
        match=lambda c, lp: (
            all(t.completed for t in c.where(Task, loop_id=lp.id))
            and all(d.status == "signed" for d in c.where(Document, loop_id=lp.id))
        ),
    ),
)
def close_loop(ctx: Ctx, loop_id: LoopId) -> Loop:
    """Close a loop under contract as sold (or leased): every document signed and every task done.

    Args:
        loop_id: The loop.
    """
    loop = _open_loop(ctx, loop_id)
    if loop.status != "under_contract":
        raise RuleViolation(f"the loop is {loop.status}", field="loop_id", hint="go under contract first")
    unsigned = [d.name for d in ctx.where(Document, loop_id=loop.id) if d.status != "signed"]
    if unsigned:
        raise RuleViolation(f"unsigned: {', '.join(unsigned)}", field="loop_id", hint="get every document signed")
    todo = [t.title for t in ctx.where(Task, loop_id=loop.id) if not t.completed]
    if todo:
        raise RuleViolation(f"open tasks: {', '.join(todo)}", field="loop_id", hint="complete the checklist")
    final = "leased" if "lease" in loop.transaction_type else "sold"
    return ctx.update(loop, status=final, closed_at=ctx.now())


@service.tool(
    intent="archive the loop",
    write=True,
    destructive=True,
    example=first_example(Loop, "loop_id", where={"status": "private_listing"}),
)
def archive_loop(ctx: Ctx, loop_id: LoopId) -> Loop:
    """Archive a loop that fell through or was withdrawn (not one under contract).

    Args:
        loop_id: The loop.
    """
    loop = _open_loop(ctx, loop_id)
    if loop.status == "under_contract":
        raise RuleViolation("the loop is under contract", field="loop_id", hint="close it, or release the contract")
    return ctx.update(loop, status="archived")


@service.tool(
    intent="complete the checklist task",
    write=True,
    example=first_example(Task, "task_id", where={"completed": False}),
)
def complete_task(ctx: Ctx, task_id: TaskId) -> Task:
    """Mark an open checklist task done.

    Args:
        task_id: The task (of an open loop).
    """
    t = ctx.get(Task, task_id, field="task_id")
    _open_loop(ctx, t.loop_id, "task_id")
    if t.completed:
        raise Conflict("the task is already done", field="task_id", hint="nothing to do")
    return ctx.update(t, completed=True, completed_at=ctx.now())


# -- seed -------------------------------------------------------------------------------------

STREETS = ("Elm St", "Harbor View Rd", "Maple Ave", "Orchard Ln", "Lakeshore Dr", "Cedar Ct", "Birch Way")


@service.seeder
def seed(s: SeedContext) -> None:
    """Loops in every status with buyers and sellers from consumers, documents in every state and checklists."""
    pop = s.population
    agents = pop.staff("Sales", fallback=3)
    city = pop.home.place.city
    today = s.now.date()
    plan: tuple[tuple[TxType, LoopStatus], ...] = (
        ("listing_for_sale", "private_listing"),
        ("listing_for_sale", "active_listing"),
        ("purchase_offer", "pre_offer"),
        ("listing_for_sale", "under_contract"),
        ("purchase_offer", "under_contract"),
        ("listing_for_sale", "sold"),
        ("listing_for_lease", "archived"),
    )
    for k, (tx, status) in enumerate(plan):
        price = 35_000_000 + 4_500_000 * k
        contract = status in ("under_contract", "sold")
        loop = s.create(
            Loop,
            name=f"{12 + 9 * k} {STREETS[k]}",
            city=city,
            transaction_type=tx,
            status=status,
            agent_email=agents[k % len(agents)].email,
            list_price=price,
            purchase_price=price - 500_000 if contract else None,
            closing_date=today + dt.timedelta(days=30 - 40 * (status == "sold") + k) if contract else None,
            closed_at=s.ago(days=12) if status == "sold" else None,
            created_at=s.ago(days=90 - 5 * k),
            updated_at=s.ago(days=3),
        )
        seller, buyer = pop.consumers[2 * k], pop.consumers[2 * k + 1]
        people = [
            s.create(
                Participant,
                loop_id=loop.id,
                role="seller",
                full_name=seller.name,
                email=seller.email,
                phone=seller.phone,
            )
        ]
        if status not in ("private_listing",):
            people.append(
                s.create(
                    Participant,
                    loop_id=loop.id,
                    role="buyer",
                    full_name=buyer.name,
                    email=buyer.email,
                    phone=buyer.phone,
                )
            )
        agent = next(p for p in pop.employees if p.email == loop.agent_email)
        people.append(
            s.create(Participant, loop_id=loop.id, role="listing_agent", full_name=agent.name, email=agent.email)
        )
        if contract:
            escrow = pop.contacts[k]
            s.create(Participant, loop_id=loop.id, role="escrow_officer", full_name=escrow.name, email=escrow.email)
            ids = tuple(p.id for p in people[:2])
            full = status == "sold" or k == 4
            s.create(
                Document,
                loop_id=loop.id,
                name="Purchase Agreement",
                folder="Contracts",
                status="signed",
                signer_ids=ids,
                signed_by=ids,
                created_at=s.ago(days=20),
            )
            s.create(
                Document,
                loop_id=loop.id,
                name="Lead-Based Paint Disclosure",
                folder="Disclosures",
                status="signed" if full else "out_for_signature",
                signer_ids=ids,
                signed_by=ids if full else ids[:1],
                created_at=s.ago(days=10),
            )
            assert loop.closing_date is not None
            for title, d in CHECKLIST:
                due = loop.closing_date + dt.timedelta(days=d)
                s.create(
                    Task,
                    loop_id=loop.id,
                    title=title,
                    due_date=due,
                    assignee_email=loop.agent_email,
                    completed=full or due < today,
                    completed_at=s.ago(days=1) if full or due < today else None,
                )
        else:
            s.create(
                Document,
                loop_id=loop.id,
                name="Listing Agreement",
                folder="Contracts",
                status="draft",
                created_at=s.ago(days=5),
            )
