"""Blueprint PLM: the company's parts, assemblies and their bills of materials, changed through approved ECOs.

Modeled on the Arena PLM REST API (items with number, revision and lifecycle
phase, BOM lines with quantity and reference designators, where-used, changes
with affected items, routings and approvals, suppliers and supplier items with
their sourcing): an item is edited freely while in design; once released its
BOM changes only while it is an affected item of an unsubmitted change. A change
(ECO) goes unsubmitted → submitted → approved → effective, or rejected (with a
comment) or canceled; it is submitted with at least one affected item and one
approver, approved when every approver has signed, and made effective by
releasing each affected item to its next revision (A, B, … skipping I, O, Q, S,
X and Z) and lifecycle phase. An item is on one open change at a time; an
assembly goes to production only when its BOM children are released and not
obsolete; a BOM never contains its own item. Sourcing links an item to supplier
items (manufacturer parts) of approved suppliers, with one preferred source.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import Field, StringConstraints

from compoworld.engine.context import Ctx
from compoworld.engine.errors import Conflict, RuleViolation
from compoworld.engine.records import CREATED, UPDATED, Generated, Record
from compoworld.engine.service import Service
from compoworld.engine.state import SeedContext
from compoworld.engine.types import Cents, CompanyName, DateTime, Email, IdOf, SemanticType, Sku, Text, Title
from compoworld.services.kit.examples import first_example
from compoworld.services.kit.records import Value
from compoworld.services.operations._shared import Signature, require_staff

__all__ = ["service"]

service = Service(
    "plm",
    title="Blueprint PLM",
    category="product_lifecycle",
    modeled_on="Arena PLM REST API (items, revisions, lifecycle phases, BOM, where-used, changes with affected "
    "items and approvals, suppliers, supplier items, sourcing)",
    description="Product lifecycle management: parts and assemblies with part numbers, revisions and lifecycle "
    "phases, their bills of materials and where they are used, engineering change orders that route to "
    "approvers and release new revisions, suppliers and the manufacturer parts that source each item.",
)

ItemId = Annotated[str, IdOf("plm.item")]
ChangeId = Annotated[str, IdOf("plm.change")]
SupplierId = Annotated[str, IdOf("plm.supplier")]
SupplierItemId = Annotated[str, IdOf("plm.supplier_item")]

Revision = Annotated[str, StringConstraints(pattern=r"^[A-Z]{1,2}$")]
"""A released revision letter (A, B, … AA)."""
Mpn = Annotated[str, SemanticType("plm.mpn", kind="ref"), StringConstraints(pattern=r"^[A-Z0-9][A-Z0-9./-]{2,39}$")]
"""A manufacturer part number."""
Phase = Literal["in_design", "prototype", "production", "end_of_life", "obsolete"]
ChangeStatus = Literal["unsubmitted", "submitted", "approved", "effective", "rejected", "canceled"]
OPEN: tuple[ChangeStatus, ...] = ("unsubmitted", "submitted", "approved")
LETTERS = [c for c in "ABCDEFGHIJKLMNOPQRSTUVWXYZ" if c not in "IOQSXZ"]


def next_revision(rev: str | None) -> str:
    """The revision after ``rev`` (None → A, H → J, Y → AA)."""
    if rev is None:
        return "A"
    if len(rev) == 1 and rev != LETTERS[-1]:
        return LETTERS[LETTERS.index(rev) + 1]
    return "A" + next_revision(rev[1:] if len(rev) > 1 else None)


class BomLine(Value):
    """One child item of an assembly's bill of materials."""

    item_id: ItemId = Field(description="The child item.")
    quantity: Annotated[float, Field(gt=0, le=100000)] = Field(description="How many per assembly.")
    ref_des: Annotated[str, StringConstraints(max_length=200)] = Field(default="", description="Reference designators.")


class Sourcing(Value):
    """A supplier item that sources an item."""

    supplier_item_id: SupplierItemId = Field(description="The manufacturer part.")
    preferred: bool = Field(default=False, description="Whether it is the preferred source.")


class Item(Record):
    """A part, assembly or document with its part number."""

    id: ItemId
    number: Sku
    """The part number (unique)."""
    name: Title
    """Its name."""
    category: Literal["part", "assembly", "document", "software"] = "part"
    """part, assembly, document or software."""
    uom: Literal["each", "kg", "m", "l"] = "each"
    """Unit of measure."""
    revision: Revision | None = None
    """The released revision; none while never released."""
    lifecycle_phase: Phase = "in_design"
    """in_design, prototype, production, end_of_life or obsolete."""
    owner_email: Email
    """The engineer who owns it."""
    bom: tuple[BomLine, ...] = ()
    """Its bill of materials."""
    sourcing: tuple[Sourcing, ...] = ()
    """Its sources."""
    updated_at: Annotated[DateTime, UPDATED]
    """When it last changed."""


class AffectedItem(Value):
    """An item a change releases, and what it becomes."""

    item_id: ItemId = Field(description="The item.")
    from_revision: Revision | None = Field(default=None, description="Its released revision now.")
    to_revision: Revision = Field(description="The revision the change releases.")
    new_phase: Phase = Field(description="Its lifecycle phase after the change.")


class Change(Record):
    """An engineering change order (ECO)."""

    id: ChangeId
    number: Annotated[str, Generated("sequence", "ECO-{n:05d}")]
    """The change number."""
    title: Title
    """What changes."""
    reason: Text = ""
    """Why."""
    creator_email: Email
    """Who raised it."""
    approver_emails: tuple[Email, ...] = ()
    """The routing: who must approve."""
    affected_items: tuple[AffectedItem, ...] = ()
    """The items it releases."""
    approvals: tuple[Signature, ...] = ()
    """Decisions so far."""
    status: ChangeStatus = "unsubmitted"
    """unsubmitted → submitted → approved → effective; rejected; canceled."""
    effective_at: DateTime | None = None
    """When it took effect."""
    created_at: Annotated[DateTime, CREATED]
    """When it was raised."""


class Supplier(Record):
    """A manufacturer or distributor of parts."""

    id: SupplierId
    name: CompanyName
    """The supplier (unique)."""
    contact_email: Email | None = None
    """Its contact."""
    status: Literal["pending", "approved", "disqualified"] = "pending"
    """pending, approved or disqualified (approved vendor list)."""


class SupplierItem(Record):
    """A supplier's part (a manufacturer part number)."""

    id: SupplierItemId
    supplier_id: SupplierId
    """The supplier."""
    mpn: Mpn
    """The manufacturer part number (unique per supplier)."""
    description: Title
    """What it is."""
    lifecycle: Literal["active", "nrnd", "obsolete"] = "active"
    """active, nrnd (not recommended for new designs) or obsolete."""
    unit_cost: Cents = 0
    """Cost per unit in cents."""
    lead_time_days: Annotated[int, Field(ge=0, le=365)] = 14
    """Lead time in days."""


# -- rules ------------------------------------------------------------------------------------


def _guard_item(ctx: Ctx, new: Any, old: Any) -> None:
    require_staff(ctx, new.owner_email, "owner_email")
    if old is not None and old.revision is not None and (old.name, old.category) != (new.name, new.category):
        raise RuleViolation(
            f"{new.number} is released at revision {old.revision}",
            field="item_id",
            hint="change it through an ECO (plm__create_change)",
        )


def _guard_change(ctx: Ctx, new: Any, old: Any) -> None:
    require_staff(ctx, new.creator_email, "creator_email")
    require_staff(ctx, new.approver_emails, "approver_emails")
    if old is not None and old.status != "unsubmitted":
        raise RuleViolation(f"{new.number} is {old.status}", field="change_id", hint="only unsubmitted changes edit")


def _guard_supplier_item(ctx: Ctx, new: Any, old: Any) -> None:
    ctx.get(Supplier, new.supplier_id, field="supplier_id")
    other = ctx.first(SupplierItem, supplier_id=new.supplier_id, mpn=new.mpn)
    if other is not None and other.id != new.id:
        raise Conflict(f"the supplier already has {new.mpn}", field="mpn", hint="update that supplier item")


items = service.resource(
    Item,
    name="item",
    plural="items",
    prefix="item",
    create=("number", "name", "category", "uom", "owner_email"),
    filters=("number", "category", "lifecycle_phase", "owner_email", "revision"),
    search=("name", "number"),
    update=("name", "category", "owner_email"),
    delete=False,
    unique=("number",),
    guard_create=_guard_item,
    guard_update=_guard_item,
)
changes = service.resource(
    Change,
    name="change",
    plural="changes",
    prefix="eco",
    create=("title", "reason", "creator_email", "approver_emails"),
    filters=("status", "creator_email", "number"),
    search=("title", "number"),
    update=("title", "reason", "approver_emails"),
    delete=False,
    guard_create=_guard_change,
    guard_update=_guard_change,
    title="change order",
)
suppliers = service.resource(
    Supplier,
    name="supplier",
    plural="suppliers",
    prefix="sup",
    create=("name", "contact_email"),
    filters=("status", "name"),
    search=("name",),
    update=("contact_email", "status"),
    delete=False,
    unique=("name",),
)
supplier_items = service.resource(
    SupplierItem,
    name="supplier_item",
    plural="supplier_items",
    prefix="si",
    create=("supplier_id", "mpn", "description", "lifecycle", "unit_cost", "lead_time_days"),
    get=False,
    filters=("supplier_id", "mpn", "lifecycle"),
    search=("mpn", "description"),
    update=("lifecycle", "unit_cost", "lead_time_days"),
    delete=False,
    guard_create=_guard_supplier_item,
    title="supplier item",
)


def _open_change_of(ctx: Ctx, item_id: str) -> Change | None:
    for c in ctx.scan(Change):
        if c.status in OPEN and any(a.item_id == item_id for a in c.affected_items):
            return c
    return None


def _editable(ctx: Ctx, item: Item) -> bool:
    if item.revision is None:
        return True
    change = _open_change_of(ctx, item.id)
    return change is not None and change.status == "unsubmitted"


def _change_in(ctx: Ctx, change_id: str, *statuses: str) -> Change:
    c = ctx.get(Change, change_id, field="change_id")
    if c.status not in statuses:
        raise RuleViolation(
            f"{c.number} is {c.status}", field="change_id", hint=f"this needs a change that is {' or '.join(statuses)}"
        )
    return c


def _contains(ctx: Ctx, root_id: str, target_id: str) -> bool:
    """Whether ``target_id`` appears anywhere below ``root_id``."""
    seen: set[str] = set()
    stack = [root_id]
    while stack:
        node = ctx.find(Item, stack.pop())
        if node is None or node.id in seen:
            continue
        seen.add(node.id)
        for line in node.bom:
            if line.item_id == target_id:
                return True
            stack.append(line.item_id)
    return False


# -- BOM and sourcing -------------------------------------------------------------------------


def _example_bom(ctx: Ctx) -> dict[str, Any] | None:
    for asm in ctx.where(Item, category="assembly"):
        if not _editable(ctx, asm):
            continue
        used = {line.item_id for line in asm.bom}
        for part in ctx.where(Item, category="part"):
            if part.id not in used and not _contains(ctx, part.id, asm.id):
                return {"item_id": asm.id, "child_item_id": part.id, "quantity": 2, "ref_des": "H1,H2"}
    return None


@service.tool(intent="add a line to the item's bill of materials", write=True, example=_example_bom)
def add_bom_line(
    ctx: Ctx,
    item_id: ItemId,
    child_item_id: ItemId,
    quantity: Annotated[float, Field(gt=0, le=100000)],
    ref_des: Annotated[str, StringConstraints(max_length=200)] = "",
) -> Item:
    """Add a child item to an assembly's BOM.

    The assembly must be in design or on an unsubmitted change; a child appears
    once and never contains the assembly itself.

    Args:
        item_id: The assembly.
        child_item_id: The child item.
        quantity: How many per assembly.
        ref_des: Reference designators, e.g. R1,R2.
    """
    item = ctx.get(Item, item_id, field="item_id")
    child = ctx.get(Item, child_item_id, field="child_item_id")
    if item.category != "assembly":
        raise RuleViolation(f"{item.number} is a {item.category}", field="item_id", hint="only assemblies have a BOM")
    _check_editable(ctx, item)
    if child.id == item.id or _contains(ctx, child.id, item.id):
        raise RuleViolation(
            f"{child.number} contains {item.number}", field="child_item_id", hint="a BOM cannot contain itself"
        )
    if any(line.item_id == child.id for line in item.bom):
        raise Conflict(f"{child.number} is already on the BOM", field="child_item_id", hint="remove it first")
    return ctx.update(item, bom=(*item.bom, BomLine(item_id=child.id, quantity=quantity, ref_des=ref_des)))


def _check_editable(ctx: Ctx, item: Item) -> None:
    if not _editable(ctx, item):
        raise RuleViolation(
            f"{item.number} is released at revision {item.revision}",
            field="item_id",
            hint="add it to an unsubmitted change with plm__add_affected_item first",
        )


def _example_remove_bom(ctx: Ctx) -> dict[str, Any] | None:
    for asm in ctx.where(Item, category="assembly"):
        if asm.bom and _editable(ctx, asm):
            return {"item_id": asm.id, "child_item_id": asm.bom[0].item_id}
    return None


@service.tool(
    intent="remove the line from the item's bill of materials",
    write=True,
    destructive=True,
    example=_example_remove_bom,
)
def remove_bom_line(ctx: Ctx, item_id: ItemId, child_item_id: ItemId) -> Item:
    """Remove a child from an assembly's BOM (in design or on an unsubmitted change).

    Args:
        item_id: The assembly.
        child_item_id: The child item.
    """
    item = ctx.get(Item, item_id, field="item_id")
    _check_editable(ctx, item)
    rest = tuple(line for line in item.bom if line.item_id != child_item_id)
    if len(rest) == len(item.bom):
        raise RuleViolation("the child is not on the BOM", field="child_item_id", hint="read the item's BOM")
    return ctx.update(item, bom=rest)


class WhereUsed(Value):
    """An assembly that uses an item."""

    item_id: ItemId
    number: Sku
    name: Title
    quantity: float


@service.tool(intent="find where the item is used", example=first_example(Item, "item_id", where={"category": "part"}))
def where_used(ctx: Ctx, item_id: ItemId) -> list[WhereUsed]:
    """The assemblies whose BOM lists the item directly, with the quantity used.

    Args:
        item_id: The item.
    """
    ctx.get(Item, item_id, field="item_id")
    return [
        WhereUsed(item_id=a.id, number=a.number, name=a.name, quantity=line.quantity)
        for a in ctx.where(Item, category="assembly")
        for line in a.bom
        if line.item_id == item_id
    ]


def _example_source(ctx: Ctx) -> dict[str, Any] | None:
    for si in ctx.where(SupplierItem, lifecycle="active"):
        if ctx.get(Supplier, si.supplier_id).status != "approved":
            continue
        for item in ctx.where(Item, category="part"):
            if all(s.supplier_item_id != si.id for s in item.sourcing):
                return {"item_id": item.id, "supplier_item_id": si.id, "preferred": False}
    return None


@service.tool(intent="add a source to the item", write=True, example=_example_source)
def add_sourcing(ctx: Ctx, item_id: ItemId, supplier_item_id: SupplierItemId, preferred: bool = False) -> Item:
    """Source an item from a supplier item of an approved supplier; not obsolete; one preferred source.

    Args:
        item_id: The item.
        supplier_item_id: The manufacturer part.
        preferred: Make it the preferred source (the previous one stops being preferred).
    """
    item = ctx.get(Item, item_id, field="item_id")
    si = ctx.get(SupplierItem, supplier_item_id, field="supplier_item_id")
    sup = ctx.get(Supplier, si.supplier_id)
    if sup.status != "approved":
        raise RuleViolation(
            f"{sup.name} is {sup.status}", field="supplier_item_id", hint="source from an approved supplier"
        )
    if si.lifecycle == "obsolete":
        raise RuleViolation(f"{si.mpn} is obsolete", field="supplier_item_id", hint="pick an active part")
    if any(s.supplier_item_id == si.id for s in item.sourcing):
        raise Conflict(f"{si.mpn} already sources {item.number}", field="supplier_item_id", hint="nothing to do")
    kept = tuple(s.model_copy(update={"preferred": False}) if preferred else s for s in item.sourcing)
    first = not item.sourcing
    return ctx.update(item, sourcing=(*kept, Sourcing(supplier_item_id=si.id, preferred=preferred or first)))


# -- changes ----------------------------------------------------------------------------------


def _example_affect(ctx: Ctx) -> dict[str, Any] | None:
    change = ctx.first(Change, status="unsubmitted")
    for item in ctx.scan(Item):
        if change is not None and item.lifecycle_phase != "obsolete" and _open_change_of(ctx, item.id) is None:
            return {"change_id": change.id, "item_id": item.id, "new_phase": "production"}
    return None


@service.tool(intent="add the item to the change", write=True, example=_example_affect)
def add_affected_item(ctx: Ctx, change_id: ChangeId, item_id: ItemId, new_phase: Phase) -> Change:
    """Add an item to an unsubmitted change: it will be released at its next revision and the new phase.

    An item is on one open change at a time; obsolete items do not change.

    Args:
        change_id: The unsubmitted change.
        item_id: The item.
        new_phase: Its lifecycle phase once the change is effective.
    """
    change = _change_in(ctx, change_id, "unsubmitted")
    item = ctx.get(Item, item_id, field="item_id")
    if item.lifecycle_phase == "obsolete":
        raise RuleViolation(f"{item.number} is obsolete", field="item_id", hint="obsolete items do not change")
    other = _open_change_of(ctx, item.id)
    if other is not None:
        raise Conflict(
            f"{item.number} is already on {other.number} ({other.status})",
            field="item_id",
            hint="finish or cancel that change first",
        )
    aff = AffectedItem(
        item_id=item.id, from_revision=item.revision, to_revision=next_revision(item.revision), new_phase=new_phase
    )
    return ctx.update(change, affected_items=(*change.affected_items, aff))


@service.tool(
    intent="submit the change for approval",
    write=True,
    example=first_example(
        Change, "change_id", where={"status": "unsubmitted"}, match=lambda c, x: bool(x.affected_items)
    ),
)
def submit_change(ctx: Ctx, change_id: ChangeId) -> Change:
    """Route an unsubmitted change to its approvers; it needs an affected item and an approver.

    Args:
        change_id: The change.
    """
    change = _change_in(ctx, change_id, "unsubmitted")
    if not change.affected_items or not change.approver_emails:
        raise RuleViolation(
            f"{change.number} needs affected items and approvers",
            field="change_id",
            hint="add items with plm__add_affected_item and set approver_emails",
        )
    return ctx.update(change, status="submitted", approvals=())


def _example_approve(ctx: Ctx) -> dict[str, Any] | None:
    for c in ctx.where(Change, status="submitted"):
        signed = {a.approver_email for a in c.approvals}
        for e in c.approver_emails:
            if e not in signed:
                return {"change_id": c.id, "approver_email": e}
    return None


def _sign(ctx: Ctx, change: Change, email: str, decision: Literal["approved", "rejected"], comment: str) -> Change:
    if email not in change.approver_emails:
        raise RuleViolation(f"{email} is not on the routing", field="approver_email", hint="an approver signs")
    if any(a.approver_email == email for a in change.approvals):
        raise Conflict(f"{email} already signed", field="approver_email", hint="each approver signs once")
    sig = Signature(approver_email=email, decision=decision, comment=comment, signed_at=ctx.now())
    signs = (*change.approvals, sig)
    if decision == "rejected":
        return ctx.update(change, approvals=signs, status="rejected")
    done = {a.approver_email for a in signs} >= set(change.approver_emails)
    return ctx.update(change, approvals=signs, status="approved" if done else "submitted")


@service.tool(intent="approve the change", write=True, example=_example_approve)
def approve_change(ctx: Ctx, change_id: ChangeId, approver_email: Email, comment: Text = "") -> Change:
    """Sign a submitted change as approved; when every approver signed it is approved.

    Args:
        change_id: The submitted change.
        approver_email: An approver on its routing.
        comment: An optional comment.
    """
    return _sign(ctx, _change_in(ctx, change_id, "submitted"), approver_email, "approved", comment)


@service.tool(
    intent="reject the change",
    write=True,
    destructive=True,
    example=lambda ctx: (e := _example_approve(ctx)) and e | {"comment": "Tolerance stack not analysed."},
)
def reject_change(ctx: Ctx, change_id: ChangeId, approver_email: Email, comment: Text) -> Change:
    """Reject a submitted change with a comment; it is closed as rejected.

    Args:
        change_id: The submitted change.
        approver_email: An approver on its routing.
        comment: Why (required).
    """
    change = _change_in(ctx, change_id, "submitted")
    if not comment.strip():
        raise RuleViolation("a rejection needs a comment", field="comment", hint="say why")
    return _sign(ctx, change, approver_email, "rejected", comment.strip())


def _blockers(ctx: Ctx, change: Change) -> list[str]:
    """Children of assemblies going to production that are not released or obsolete."""
    releasing = {a.item_id for a in change.affected_items}
    out = []
    for a in change.affected_items:
        if a.new_phase != "production":
            continue
        for line in ctx.get(Item, a.item_id).bom:
            child = ctx.get(Item, line.item_id)
            if (child.revision is None and child.id not in releasing) or child.lifecycle_phase == "obsolete":
                out.append(child.number)
    return out


@service.tool(
    intent="make the change effective",
    write=True,
    example=first_example(Change, "change_id", where={"status": "approved"}, match=lambda c, x: not _blockers(c, x)),
)
def implement_change(ctx: Ctx, change_id: ChangeId) -> Change:
    """Make an approved change effective: each affected item is released at its new revision and phase.

    An assembly goes to production only when every BOM child is released (or
    released by this change) and not obsolete.

    Args:
        change_id: The approved change.
    """
    change = _change_in(ctx, change_id, "approved")
    blocked = _blockers(ctx, change)
    if blocked:
        raise RuleViolation(
            f"BOM children not released or obsolete: {', '.join(sorted(set(blocked)))}",
            field="change_id",
            hint="release them on this change with plm__add_affected_item or replace them",
        )
    for a in change.affected_items:
        ctx.update(ctx.get(Item, a.item_id), revision=a.to_revision, lifecycle_phase=a.new_phase)
    return ctx.update(change, status="effective", effective_at=ctx.now())


@service.tool(
    intent="cancel the change",
    write=True,
    destructive=True,
    example=first_example(Change, "change_id", where={"status": "unsubmitted"}),
)
def cancel_change(ctx: Ctx, change_id: ChangeId) -> Change:
    """Cancel an unsubmitted or submitted change; its items are free for another change.

    Args:
        change_id: The change.
    """
    return ctx.update(_change_in(ctx, change_id, "unsubmitted", "submitted"), status="canceled")


# -- seed -------------------------------------------------------------------------------------

PARTS: tuple[tuple[str, str, str, int], ...] = (
    ("100-0001", "Aluminium enclosure, machined", "Protolabs", 1850),
    ("100-0002", "Front panel, anodized", "Protolabs", 640),
    ("200-0010", "Main PCB assembly", "Jabil", 4200),
    ("200-0011", "Power supply 24V 60W", "Mean Well", 1390),
    ("300-0100", "M3x8 screw, stainless", "Bossard", 4),
    ("300-0101", "Rubber foot, 10mm", "Bossard", 12),
    ("400-0200", "USB-C connector", "Amphenol", 85),
    ("400-0201", "Cable harness, 6-pin", "Molex", 230),
)


@service.seeder
def seed(s: SeedContext) -> None:
    """Parts and assemblies of the catalogue's products, suppliers from the world's companies, ECOs in every state."""
    pop = s.population
    eng = pop.staff("Engineering", "Operations", fallback=5)
    companies = list(pop.customers[:5])
    sups = [
        s.create(
            Supplier,
            name=c.name,
            contact_email=(p.email if (p := pop.first_contact(c)) else None),
            status=("approved", "approved", "approved", "pending", "disqualified")[k % 5],
        )
        for k, c in enumerate(companies)
    ]
    parts: list[Item] = []
    for k, (num, name, maker, cost) in enumerate(PARTS):
        sup = sups[k % len(sups)]
        si = s.create(
            SupplierItem,
            supplier_id=sup.id,
            mpn=f"{maker.upper().replace(' ', '')[:4]}-{num.replace('-', '')}",
            description=name,
            lifecycle="obsolete" if k == 7 else ("nrnd" if k == 6 else "active"),
            unit_cost=cost,
            lead_time_days=7 + 3 * k,
        )
        released = k < 6
        parts.append(
            s.create(
                Item,
                number=num,
                name=name,
                category="part",
                revision=("B" if k % 3 == 0 else "A") if released else None,
                lifecycle_phase="production" if released else "in_design",
                owner_email=eng[k % len(eng)].email,
                sourcing=(Sourcing(supplier_item_id=si.id, preferred=True),) if sup.status == "approved" else (),
                updated_at=s.ago(days=90 - k),
            )
        )
    assemblies: list[Item] = []
    for k, prod in enumerate(pop.products[:3]):
        picks = [parts[(k + j) % 6] for j in range(3)] + ([parts[6]] if k == 2 else [])
        bom = tuple(BomLine(item_id=p.id, quantity=float(1 + j % 4), ref_des="") for j, p in enumerate(picks))
        assemblies.append(
            s.create(
                Item,
                number=prod.sku,
                name=prod.name,
                category="assembly",
                revision="C" if k == 0 else ("A" if k == 1 else None),
                lifecycle_phase="production" if k < 2 else "prototype",
                owner_email=eng[k % len(eng)].email,
                bom=bom,
                updated_at=s.ago(days=30 - k),
            )
        )
    approvers = tuple(p.email for p in eng[1:3]) or (pop.employees[1].email,)
    plan: tuple[tuple[str, ChangeStatus, list[Item], Phase], ...] = (
        ("Switch enclosure to 6061-T6", "effective", [parts[0]], "production"),
        ("Add rubber feet", "approved", [assemblies[1]], "production"),
        ("Release USB-C connector", "submitted", [parts[6]], "production"),
        ("Release the prototype assembly", "unsubmitted", [assemblies[2]], "production"),
        ("Replace power supply vendor", "rejected", [parts[3]], "production"),
        ("Obsolete old panel", "canceled", [parts[1]], "obsolete"),
    )
    for k, (title, status, affected, phase) in enumerate(plan):
        signed = approvers if status in ("approved", "effective") else approvers[:1] if status != "unsubmitted" else ()
        s.create(
            Change,
            title=title,
            reason="Cost reduction and supply continuity.",
            creator_email=eng[0].email,
            approver_emails=approvers,
            affected_items=tuple(
                AffectedItem(
                    item_id=i.id,
                    from_revision=i.revision,
                    to_revision=next_revision(i.revision),
                    new_phase=phase,
                )
                for i in affected
            ),
            approvals=tuple(
                Signature(
                    approver_email=e,
                    decision="rejected" if status == "rejected" else "approved",
                    signed_at=s.ago(days=5),
                )
                for e in signed
            ),
            status=status,
            effective_at=s.ago(days=4) if status == "effective" else None,
            created_at=s.ago(days=20 - k),
        )
        if status == "effective":
            for i in affected:
                s.update(i, revision=next_revision(i.revision), lifecycle_phase=phase)
