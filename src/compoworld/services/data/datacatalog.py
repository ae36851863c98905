"""Ledgerline Catalog: the company's data catalog of tables, columns and dashboards, with owners and lineage.

Modeled on the Atlan REST API (and Alation's catalog): assets by ``typeName``
(Table, View, Column, TableauDashboard, LookerDashboard) with a unique
``qualifiedName`` such as ``default/snowflake/analytics/orders``, an owner,
a description, ``certificateStatus`` DRAFT / VERIFIED / DEPRECATED with a
certificate message, classifications (tags) and an entity ``status`` ACTIVE or
ARCHIVED (soft-deleted); glossary terms (``AtlasGlossaryTerm``) with status
draft / verified / deprecated that are linked to assets (``meanings``);
lineage processes (``Process`` with ``inputs`` and ``outputs``) between
assets, read upstream and downstream; and access requests on an asset that
its owner approves or rejects, and may later revoke.

An asset is VERIFIED only with an owner and a description, and never while an
upstream asset is DEPRECATED. A deprecated term cannot be linked. Lineage has
no self-loops, duplicates or cycles, and archived assets take no new lineage,
terms or access requests. Only the asset's owner decides an access request,
and a requester has at most one pending request per asset.
"""

from __future__ import annotations

from collections import deque
from typing import Annotated, Any, Literal

from pydantic import StringConstraints

from compoworld.engine.context import Ctx
from compoworld.engine.errors import Conflict, RuleViolation
from compoworld.engine.records import CREATED, UPDATED, Record
from compoworld.engine.service import Service, Transition
from compoworld.engine.state import SeedContext
from compoworld.engine.types import DateTime, Email, IdOf, Text, Title
from compoworld.services.kit.examples import first_example
from compoworld.services.kit.lists import require_employee
from compoworld.services.kit.records import Value

__all__ = ["service"]

service = Service(
    "datacatalog",
    title="Ledgerline Catalog",
    category="data_catalog",
    modeled_on="Atlan REST API (entity bulk, glossary, lineage, requests) and Alation: assets with qualifiedName, "
    "certificateStatus DRAFT/VERIFIED/DEPRECATED, owners, classifications, glossary terms, lineage processes, "
    "access requests",
    description="The company's data catalog: warehouse tables, views, columns and BI dashboards with their owners, "
    "descriptions and certification, the business glossary linked to them, lineage between them, and requests "
    "for access that asset owners approve.",
)

AssetId = Annotated[str, IdOf("datacatalog.asset")]
TermId = Annotated[str, IdOf("datacatalog.term")]
EdgeId = Annotated[str, IdOf("datacatalog.lineage_edge")]
RequestId = Annotated[str, IdOf("datacatalog.access_request")]

QualifiedName = Annotated[str, StringConstraints(pattern=r"^default/[a-z]+(/[A-Za-z0-9_.-]+){1,4}$")]
"""A unique path such as default/snowflake/analytics/orders or default/tableau/sales-overview."""
Tag = Annotated[str, StringConstraints(pattern=r"^[A-Z][A-Za-z0-9_]{1,39}$")]
"""A classification such as PII or Confidential."""

AssetType = Literal["Table", "View", "Column", "TableauDashboard", "LookerDashboard"]
Connector = Literal["snowflake", "bigquery", "postgres", "tableau", "looker"]
Certificate = Literal["DRAFT", "VERIFIED", "DEPRECATED"]
AssetStatus = Literal["ACTIVE", "ARCHIVED"]
TermStatus = Literal["draft", "verified", "deprecated"]
AccessLevel = Literal["read", "write"]
RequestStatus = Literal["pending", "approved", "rejected", "revoked"]
Direction = Literal["upstream", "downstream"]


class Asset(Record):
    """A catalogued data asset: a table, view, column or dashboard."""

    id: AssetId
    qualified_name: QualifiedName
    """Its unique qualified name."""
    name: Title
    """Its display name."""
    asset_type: AssetType
    """Table, View, Column, TableauDashboard or LookerDashboard."""
    connector: Connector
    """The system it lives in."""
    parent_id: AssetId | None = None
    """For a column: its table or view."""
    owner_email: Email | None = None
    """The employee who owns it."""
    description: Text = ""
    """What it holds."""
    certificate_status: Certificate = "DRAFT"
    """DRAFT, VERIFIED or DEPRECATED."""
    certificate_message: Text = ""
    """Why it has that certificate."""
    certified_by: Email | None = None
    """Who set the certificate."""
    tags: tuple[Tag, ...] = ()
    """Classifications such as PII."""
    term_ids: tuple[TermId, ...] = ()
    """Glossary terms linked to it."""
    status: AssetStatus = "ACTIVE"
    """ACTIVE or ARCHIVED."""
    created_at: Annotated[DateTime, CREATED]
    """When it was catalogued."""
    updated_at: Annotated[DateTime, UPDATED]
    """When it last changed."""


class Term(Record):
    """A business glossary term."""

    id: TermId
    name: Title
    """The term (unique, case-insensitive)."""
    definition: Text
    """What it means."""
    owner_email: Email
    """The steward of the term."""
    status: TermStatus = "draft"
    """draft, verified or deprecated."""
    synonyms: tuple[Title, ...] = ()
    """Other names for it."""
    created_at: Annotated[DateTime, CREATED]
    """When it was added."""
    updated_at: Annotated[DateTime, UPDATED]
    """When it last changed."""


class LineageEdge(Record):
    """A lineage process: data flows from one asset into another."""

    id: EdgeId
    source_id: AssetId
    """The upstream asset."""
    target_id: AssetId
    """The downstream asset."""
    process_name: Title
    """The job or model that moves the data (a dbt model, a connector, a query)."""
    created_at: Annotated[DateTime, CREATED]
    """When it was recorded."""


class AccessRequest(Record):
    """A request for access to an asset, decided by its owner."""

    id: RequestId
    asset_id: AssetId
    """The asset."""
    requester_email: Email
    """The employee asking."""
    access_level: AccessLevel = "read"
    """read or write."""
    reason: Text
    """Why access is needed."""
    status: RequestStatus = "pending"
    """pending, approved, rejected or revoked."""
    reviewer_email: Email | None = None
    """The owner who decided it."""
    decision_note: Text = ""
    """The reviewer's note."""
    decided_at: DateTime | None = None
    """When it was decided."""
    created_at: Annotated[DateTime, CREATED]
    """When it was asked."""


class LineageNode(Value):
    """An asset reached by walking lineage."""

    asset_id: AssetId
    """The asset."""
    qualified_name: QualifiedName
    """Its qualified name."""
    asset_type: AssetType
    """Its type."""
    certificate_status: Certificate
    """Its certificate."""
    hops: int
    """How many lineage steps away it is."""


class Lineage(Value):
    """The assets upstream or downstream of one asset."""

    asset_id: AssetId
    """The asset walked from."""
    direction: Direction
    """upstream or downstream."""
    nodes: list[LineageNode]
    """What was reached, nearest first."""


# -- rules ------------------------------------------------------------------------------------


def _live(ctx: Ctx, asset_id: str, field: str) -> Asset:
    asset = ctx.get(Asset, asset_id, field=field)
    if asset.status == "ARCHIVED":
        raise RuleViolation(
            f"asset {asset.qualified_name} is archived",
            field=field,
            hint="restore it with datacatalog__restore_asset first",
        )
    return asset


def _guard_asset(ctx: Ctx, new: Any, old: Any) -> None:
    if new.owner_email is not None and (old is None or new.owner_email != old.owner_email):
        require_employee(ctx, new.owner_email, field="owner_email", hint="assets are owned by staff")


def _guard_term(ctx: Ctx, new: Any, old: Any) -> None:
    require_employee(ctx, new.owner_email, field="owner_email", hint="glossary terms are stewarded by staff")
    if old is None or new.name.casefold() != old.name.casefold():
        for other in ctx.scan(Term):
            if other.id != new.id and other.name.casefold() == new.name.casefold():
                raise Conflict(f"term {other.name!r} already exists ({other.id})", field="name", hint="reuse it")


def _guard_term_delete(ctx: Ctx, new: Any, old: Any) -> None:
    linked = [a.qualified_name for a in ctx.scan(Asset) if old.id in a.term_ids]
    if linked:
        raise Conflict(
            f"term {old.name!r} is linked to {len(linked)} asset(s), e.g. {linked[0]}",
            field="term_id",
            hint="unlink it with datacatalog__unlink_term, or deprecate it instead",
        )


def _walk(ctx: Ctx, start: str, direction: Direction) -> list[tuple[str, int]]:
    here, there = ("target_id", "source_id") if direction == "upstream" else ("source_id", "target_id")
    seen: dict[str, int] = {}
    queue: deque[tuple[str, int]] = deque([(start, 0)])
    while queue:
        node, hops = queue.popleft()
        for edge in ctx.where(LineageEdge, **{here: node}):
            nxt = getattr(edge, there)
            if nxt != start and nxt not in seen:
                seen[nxt] = hops + 1
                queue.append((nxt, hops + 1))
    return sorted(seen.items(), key=lambda kv: (kv[1], kv[0]))


assets = service.resource(
    Asset,
    name="asset",
    plural="assets",
    prefix="ast",
    create=False,
    filters=("asset_type", "connector", "owner_email", "certificate_status", "status", "qualified_name", "parent_id"),
    search=("name", "qualified_name", "description"),
    update=("name", "description", "owner_email", "tags"),
    delete=False,
    transitions={
        "archive": Transition("status", ("ACTIVE",), "ARCHIVED", "archive the asset"),
        "restore": Transition("status", ("ARCHIVED",), "ACTIVE", "restore the asset"),
    },
    guard_update=_guard_asset,
)
terms = service.resource(
    Term,
    name="term",
    plural="terms",
    prefix="term",
    create=("name", "definition", "owner_email", "synonyms"),
    filters=("status", "owner_email", "name"),
    search=("name", "definition"),
    update=("name", "definition", "owner_email", "synonyms"),
    transitions={
        "verify": Transition("status", ("draft",), "verified", "verify the glossary term"),
        "deprecate": Transition("status", ("draft", "verified"), "deprecated", "deprecate the glossary term"),
    },
    guard_create=_guard_term,
    guard_update=_guard_term,
    guard_delete=_guard_term_delete,
    title="glossary term",
)
edges = service.resource(
    LineageEdge,
    name="lineage_edge",
    plural="lineage_edges",
    prefix="lin",
    title="lineage edge",
    create=False,
    get=False,
    filters=("source_id", "target_id", "process_name"),
)
requests = service.resource(
    AccessRequest,
    name="access_request",
    plural="access_requests",
    prefix="req",
    create=False,
    filters=("asset_id", "requester_email", "status", "reviewer_email"),
    search=("reason",),
    delete=False,
    title="access request",
)


# -- domain tools -----------------------------------------------------------------------------


def _example_register(ctx: Ctx) -> dict[str, Any] | None:
    owner = ctx.population.staff("Engineering", fallback=1)[0].email
    return {
        "qualified_name": "default/snowflake/analytics/refunds",
        "name": "refunds",
        "asset_type": "Table",
        "connector": "snowflake",
        "owner_email": owner,
        "description": "One row per refund issued, loaded nightly from payments.",
    }


@service.tool(intent="register the data asset", write=True, example=_example_register)
def register_asset(
    ctx: Ctx,
    qualified_name: QualifiedName,
    name: Title,
    asset_type: AssetType,
    connector: Connector,
    owner_email: Email | None = None,
    description: Text = "",
    parent_id: AssetId | None = None,
) -> Asset:
    """Catalog a new asset under a unique qualified name; a column needs its table or view as parent.

    Args:
        qualified_name: Its unique path, e.g. default/snowflake/analytics/orders.
        name: Its display name.
        asset_type: Table, View, Column, TableauDashboard or LookerDashboard.
        connector: snowflake, bigquery, postgres, tableau or looker.
        owner_email: The employee who owns it.
        description: What it holds.
        parent_id: For a column: its table or view.
    """
    other = ctx.first(Asset, qualified_name=qualified_name)
    if other is not None:
        raise Conflict(
            f"{qualified_name} is already catalogued as {other.id}",
            field="qualified_name",
            hint="update it with datacatalog__update_asset",
        )
    if asset_type == "Column":
        if parent_id is None:
            raise RuleViolation("a column needs its table", field="parent_id", hint="give the table's asset id")
        parent = _live(ctx, parent_id, "parent_id")
        if parent.asset_type not in ("Table", "View"):
            raise RuleViolation(
                f"{parent.qualified_name} is a {parent.asset_type}", field="parent_id", hint="pick a table"
            )
    elif parent_id is not None:
        raise RuleViolation("only columns have a parent", field="parent_id", hint="omit parent_id")
    if owner_email is not None:
        require_employee(ctx, owner_email, field="owner_email", hint="assets are owned by staff")
    return ctx.create(
        Asset,
        qualified_name=qualified_name,
        name=name,
        asset_type=asset_type,
        connector=connector,
        owner_email=owner_email,
        description=description,
        parent_id=parent_id,
    )


def _example_certify(ctx: Ctx) -> dict[str, Any] | None:
    for a in ctx.where(Asset, certificate_status="DRAFT", status="ACTIVE"):
        if a.owner_email and a.description:
            return {"asset_id": a.id, "certificate_status": "VERIFIED", "certified_by": a.owner_email}
    return None


@service.tool(intent="certify the data asset", write=True, example=_example_certify)
def certify_asset(
    ctx: Ctx,
    asset_id: AssetId,
    certificate_status: Certificate,
    certified_by: Email,
    message: Text = "",
) -> Asset:
    """Set an asset's certificate: VERIFIED needs an owner, a description and no deprecated upstream asset.

    Args:
        asset_id: The asset.
        certificate_status: DRAFT, VERIFIED or DEPRECATED.
        certified_by: The employee certifying (the owner, or anyone when it has none).
        message: Why (required to deprecate).
    """
    asset = _live(ctx, asset_id, "asset_id")
    require_employee(ctx, certified_by, field="certified_by", hint="certificates are set by staff")
    if asset.owner_email is not None and certified_by != asset.owner_email:
        raise RuleViolation(
            f"only the owner {asset.owner_email} certifies {asset.qualified_name}",
            field="certified_by",
            hint="ask the owner, or reassign ownership first",
        )
    if certificate_status == asset.certificate_status:
        raise Conflict(
            f"{asset.qualified_name} is already {certificate_status}",
            field="certificate_status",
            hint="nothing to change",
        )
    if certificate_status == "DEPRECATED" and not message.strip():
        raise RuleViolation("deprecating needs a message", field="message", hint="say what to use instead")
    if certificate_status == "VERIFIED":
        if asset.owner_email is None or not asset.description.strip():
            raise RuleViolation(
                f"{asset.qualified_name} needs an owner and a description to be verified",
                field="asset_id",
                hint="set them with datacatalog__update_asset",
            )
        for node, _ in _walk(ctx, asset.id, "upstream"):
            up = ctx.get(Asset, node)
            if up.certificate_status == "DEPRECATED":
                raise RuleViolation(
                    f"upstream asset {up.qualified_name} is deprecated",
                    field="asset_id",
                    hint="repoint its lineage to a current source first",
                )
    return ctx.update(
        asset, certificate_status=certificate_status, certificate_message=message.strip(), certified_by=certified_by
    )


def _example_link(ctx: Ctx) -> dict[str, Any] | None:
    term = ctx.first(Term, status="verified")
    if term is None:
        return None
    for a in ctx.where(Asset, status="ACTIVE"):
        if term.id not in a.term_ids:
            return {"asset_id": a.id, "term_id": term.id}
    return None


@service.tool(intent="link the glossary term to the asset", write=True, example=_example_link)
def link_term(ctx: Ctx, asset_id: AssetId, term_id: TermId) -> Asset:
    """Link a glossary term to an asset; deprecated terms cannot be linked.

    Args:
        asset_id: The asset.
        term_id: The glossary term.
    """
    asset = _live(ctx, asset_id, "asset_id")
    term = ctx.get(Term, term_id, field="term_id")
    if term.status == "deprecated":
        raise RuleViolation(f"term {term.name!r} is deprecated", field="term_id", hint="link a current term")
    if term.id in asset.term_ids:
        raise Conflict(
            f"{term.name!r} is already linked to {asset.qualified_name}", field="term_id", hint="nothing to do"
        )
    return ctx.update(asset, term_ids=(*asset.term_ids, term.id))


def _example_unlink(ctx: Ctx) -> dict[str, Any] | None:
    linked = next((a for a in ctx.scan(Asset) if a.term_ids), None)
    return None if linked is None else {"asset_id": linked.id, "term_id": linked.term_ids[0]}


@service.tool(intent="unlink the glossary term from the asset", write=True, example=_example_unlink)
def unlink_term(ctx: Ctx, asset_id: AssetId, term_id: TermId) -> Asset:
    """Remove a glossary term from an asset.

    Args:
        asset_id: The asset.
        term_id: The glossary term.
    """
    asset = ctx.get(Asset, asset_id, field="asset_id")
    if term_id not in asset.term_ids:
        raise RuleViolation(
            f"term {term_id} is not linked to {asset.qualified_name}", field="term_id", hint="see the asset's term_ids"
        )
    return ctx.update(asset, term_ids=tuple(t for t in asset.term_ids if t != term_id))


def _example_lineage(ctx: Ctx) -> dict[str, Any] | None:
    tables = ctx.where(Asset, asset_type="Table", status="ACTIVE")
    dash = ctx.where(Asset, asset_type="LookerDashboard", status="ACTIVE")
    for t in tables:
        for d in dash:
            if not ctx.where(LineageEdge, source_id=t.id, target_id=d.id) and t.id not in {
                n for n, _ in _walk(ctx, d.id, "downstream")
            }:
                return {"source_id": t.id, "target_id": d.id, "process_name": "looker explore refresh"}
    return None


@service.tool(intent="record lineage between the assets", write=True, example=_example_lineage)
def add_lineage(ctx: Ctx, source_id: AssetId, target_id: AssetId, process_name: Title) -> LineageEdge:
    """Record that data flows from one asset into another; loops, duplicates and cycles are refused.

    Args:
        source_id: The upstream asset.
        target_id: The downstream asset.
        process_name: The job or model moving the data.
    """
    src = _live(ctx, source_id, "source_id")
    dst = _live(ctx, target_id, "target_id")
    if src.id == dst.id:
        raise RuleViolation("an asset cannot feed itself", field="target_id", hint="pick another asset")
    if ctx.where(LineageEdge, source_id=src.id, target_id=dst.id):
        raise Conflict(
            f"{src.qualified_name} already feeds {dst.qualified_name}",
            field="target_id",
            hint="the lineage is already recorded",
        )
    if src.id in {n for n, _ in _walk(ctx, dst.id, "downstream")}:
        raise RuleViolation(
            f"{dst.qualified_name} is already upstream of {src.qualified_name}: this would make a cycle",
            field="target_id",
            hint="check the direction of the flow",
        )
    return ctx.create(LineageEdge, source_id=src.id, target_id=dst.id, process_name=process_name)


@service.tool(intent="trace the asset's lineage", example=first_example(Asset, "asset_id", direction="upstream"))
def asset_lineage(ctx: Ctx, asset_id: AssetId, direction: Direction = "downstream") -> Lineage:
    """Every asset upstream of an asset (its sources) or downstream of it (what it feeds: impact analysis).

    Args:
        asset_id: The asset.
        direction: upstream or downstream.
    """
    asset = ctx.get(Asset, asset_id, field="asset_id")
    nodes = []
    for node, hops in _walk(ctx, asset.id, direction):
        a = ctx.get(Asset, node)
        nodes.append(
            LineageNode(
                asset_id=a.id,
                qualified_name=a.qualified_name,
                asset_type=a.asset_type,
                certificate_status=a.certificate_status,
                hops=hops,
            )
        )
    return Lineage(asset_id=asset.id, direction=direction, nodes=nodes)


def _example_request(ctx: Ctx) -> dict[str, Any] | None:
    for a in ctx.where(Asset, status="ACTIVE"):
        if a.owner_email is None or a.certificate_status == "DEPRECATED":
            continue
        for p in ctx.population.employees:
            if p.email != a.owner_email and not ctx.where(
                AccessRequest, asset_id=a.id, requester_email=p.email, status="pending"
            ):
                return {"asset_id": a.id, "requester_email": p.email, "reason": "Quarterly revenue analysis."}
    return None


@service.tool(intent="request access to the data asset", write=True, example=_example_request)
def request_access(
    ctx: Ctx,
    asset_id: AssetId,
    requester_email: Email,
    reason: Text,
    access_level: AccessLevel = "read",
) -> AccessRequest:
    """Ask an asset's owner for access; one pending request per person and asset.

    Args:
        asset_id: The asset.
        requester_email: The employee asking.
        reason: Why access is needed (required).
        access_level: read or write.
    """
    asset = _live(ctx, asset_id, "asset_id")
    require_employee(ctx, requester_email, field="requester_email", hint="only staff request access")
    if asset.owner_email is None:
        raise RuleViolation(f"{asset.qualified_name} has no owner to decide", field="asset_id", hint="set an owner")
    if asset.owner_email == requester_email:
        raise RuleViolation(
            "owners already have access", field="requester_email", hint="request for someone other than the owner"
        )
    if asset.certificate_status == "DEPRECATED":
        raise RuleViolation(
            f"{asset.qualified_name} is deprecated",
            field="asset_id",
            hint=asset.certificate_message or "use its replacement",
        )
    if not reason.strip():
        raise RuleViolation("a request needs a reason", field="reason", hint="say what the data is for")
    if ctx.where(AccessRequest, asset_id=asset.id, requester_email=requester_email, status="pending"):
        raise Conflict("a request is already pending", field="requester_email", hint="wait for the owner's decision")
    return ctx.create(
        AccessRequest,
        asset_id=asset.id,
        requester_email=requester_email,
        reason=reason.strip(),
        access_level=access_level,
    )


def _decide(ctx: Ctx, request_id: str, reviewer_email: str, status: RequestStatus, note: str) -> AccessRequest:
    req = ctx.get(AccessRequest, request_id, field="request_id")
    wanted = "approved" if status == "revoked" else "pending"
    if req.status != wanted:
        raise Conflict(
            f"request {req.id} is {req.status}, not {wanted}",
            field="request_id",
            hint="list access requests by status to find one to decide",
        )
    owner = ctx.get(Asset, req.asset_id).owner_email
    if reviewer_email != owner:
        raise RuleViolation(
            f"only the asset's owner {owner} decides this request", field="reviewer_email", hint="ask the owner"
        )
    return ctx.update(req, status=status, reviewer_email=reviewer_email, decision_note=note, decided_at=ctx.now())


def _pending_example(status: str, **extra: str) -> Any:
    def example(ctx: Ctx) -> dict[str, Any] | None:
        req = ctx.first(AccessRequest, status=status)
        if req is None:
            return None
        return {"request_id": req.id, "reviewer_email": ctx.get(Asset, req.asset_id).owner_email, **extra}

    return example


@service.tool(intent="approve the access request", write=True, example=_pending_example("pending"))
def approve_access_request(ctx: Ctx, request_id: RequestId, reviewer_email: Email, note: Text = "") -> AccessRequest:
    """Approve a pending request (the asset's owner only).

    Args:
        request_id: The request.
        reviewer_email: The asset's owner.
        note: A note to the requester.
    """
    return _decide(ctx, request_id, reviewer_email, "approved", note)


@service.tool(
    intent="reject the access request",
    write=True,
    example=_pending_example("pending", note="Use the aggregated revenue view instead."),
)
def reject_access_request(ctx: Ctx, request_id: RequestId, reviewer_email: Email, note: Text) -> AccessRequest:
    """Reject a pending request with a note (the asset's owner only).

    Args:
        request_id: The request.
        reviewer_email: The asset's owner.
        note: Why (required).
    """
    if not note.strip():
        raise RuleViolation("a rejection needs a note", field="note", hint="tell the requester why")
    return _decide(ctx, request_id, reviewer_email, "rejected", note)


@service.tool(intent="revoke the granted access", write=True, example=_pending_example("approved"))
def revoke_access(ctx: Ctx, request_id: RequestId, reviewer_email: Email, note: Text = "") -> AccessRequest:
    """Take back access granted by an approved request (the asset's owner only).

    Args:
        request_id: The approved request.
        reviewer_email: The asset's owner.
        note: Why.
    """
    return _decide(ctx, request_id, reviewer_email, "revoked", note)


# -- seed -------------------------------------------------------------------------------------

TABLES: tuple[tuple[str, str, str, tuple[str, ...]], ...] = (
    ("raw", "stripe_charges", "Charges as loaded from Stripe, one row per charge.", ("Confidential",)),
    ("raw", "salesforce_accounts", "Accounts as loaded from Salesforce.", ()),
    ("staging", "stg_payments", "Cleaned payments with currency normalised to USD.", ()),
    ("staging", "stg_customers", "One row per customer company with its CRM owner.", ("PII",)),
    ("analytics", "orders", "One row per order with amount, status and customer.", ()),
    ("analytics", "customers", "Customer companies with lifetime value and segment.", ("PII",)),
    ("analytics", "revenue_monthly", "Recognised revenue per customer and month.", ("Confidential",)),
    ("analytics", "churn_legacy", "", ()),
)
TERMS: tuple[tuple[str, str, TermStatus, tuple[str, ...]], ...] = (
    ("Annual Recurring Revenue", "Yearly value of active subscriptions, excluding one-off fees.", "verified", ("ARR",)),
    ("Active Customer", "A company with a paid order in the last 90 days.", "verified", ()),
    ("Churn", "A customer whose subscriptions all ended in the period.", "draft", ("Attrition",)),
    ("Lifetime Value", "Total recognised revenue from a customer to date.", "verified", ("LTV",)),
    ("Bookings", "Old name for contracted revenue; replaced by Annual Recurring Revenue.", "deprecated", ()),
)


@service.seeder
def seed(s: SeedContext) -> None:
    """Warehouse tables in layers with columns, dashboards fed by them, glossary terms and access requests."""
    pop = s.population
    data = pop.staff("Engineering", fallback=3)
    finance = pop.staff("Finance", fallback=2)
    terms = [
        s.create(
            Term,
            name=name,
            definition=text,
            owner_email=finance[k % len(finance)].email,
            status=status,
            synonyms=syn,
            created_at=s.ago(days=300 - 20 * k),
            updated_at=s.ago(days=60 - 5 * k),
        )
        for k, (name, text, status, syn) in enumerate(TERMS)
    ]
    made: dict[str, Asset] = {}
    for k, (layer, name, desc, tags) in enumerate(TABLES):
        cert: Certificate = "VERIFIED" if layer == "analytics" and desc else "DEPRECATED" if not desc else "DRAFT"
        owner = data[k % len(data)].email
        made[name] = s.create(
            Asset,
            qualified_name=f"default/snowflake/{layer}/{name}",
            name=name,
            asset_type="Table",
            connector="snowflake",
            owner_email=owner,
            description=desc,
            certificate_status=cert,
            certificate_message="Replaced by analytics.customers." if cert == "DEPRECATED" else "",
            certified_by=owner if cert != "DRAFT" else None,
            tags=tags,
            term_ids=(terms[3].id,) if name == "customers" else (terms[0].id,) if name == "revenue_monthly" else (),
            created_at=s.ago(days=500 - 30 * k),
            updated_at=s.ago(days=20 + k),
        )
    for col, tag in (("customer_id", ()), ("company_name", ()), ("billing_email", ("PII",)), ("lifetime_value", ())):
        s.create(
            Asset,
            qualified_name=f"default/snowflake/analytics/customers/{col}",
            name=col,
            asset_type="Column",
            connector="snowflake",
            parent_id=made["customers"].id,
            owner_email=made["customers"].owner_email,
            description=f"The customer's {col.replace('_', ' ')}.",
            tags=tag,
            created_at=s.ago(days=300),
            updated_at=s.ago(days=30),
        )
    s.update(made["churn_legacy"], status="ARCHIVED")
    sales = pop.staff("Sales", fallback=2)
    dashboards = []
    for k, (slug, title, kind) in enumerate(
        (
            ("revenue-overview", "Revenue overview", "TableauDashboard"),
            ("customer-health", "Customer health", "LookerDashboard"),
            ("pipeline-forecast", "Pipeline forecast", "LookerDashboard"),
        )
    ):
        conn: Connector = "tableau" if kind == "TableauDashboard" else "looker"
        dashboards.append(
            s.create(
                Asset,
                qualified_name=f"default/{conn}/{slug}",
                name=title,
                asset_type=kind,
                connector=conn,
                owner_email=sales[k % len(sales)].email,
                description=f"{title} for the leadership team." if k < 2 else "",
                created_at=s.ago(days=200 - 10 * k),
                updated_at=s.ago(days=10 + k),
            )
        )
    for src, dst, proc in (
        ("stripe_charges", "stg_payments", "dbt: stg_payments"),
        ("salesforce_accounts", "stg_customers", "dbt: stg_customers"),
        ("stg_payments", "orders", "dbt: orders"),
        ("stg_customers", "customers", "dbt: customers"),
        ("orders", "revenue_monthly", "dbt: revenue_monthly"),
        ("customers", "revenue_monthly", "dbt: revenue_monthly"),
        ("churn_legacy", "customers", "dbt: customers (legacy join)"),
    ):
        s.create(
            LineageEdge, source_id=made[src].id, target_id=made[dst].id, process_name=proc, created_at=s.ago(days=90)
        )
    for k, (src, dash) in enumerate((("revenue_monthly", 0), ("customers", 1), ("orders", 2))):
        s.create(
            LineageEdge,
            source_id=made[src].id,
            target_id=dashboards[dash].id,
            process_name="bi extract refresh",
            created_at=s.ago(days=60 - k),
        )
    asked = [p for p in pop.employees if p.department in ("Marketing", "Operations", "Support")] or list(pop.employees)
    for k, (table, status, level) in enumerate(
        (
            ("revenue_monthly", "pending", "read"),
            ("customers", "pending", "read"),
            ("orders", "approved", "read"),
            ("stg_customers", "rejected", "write"),
            ("customers", "approved", "write"),
        )
    ):
        asset = made[table]
        decided = status != "pending"
        s.create(
            AccessRequest,
            asset_id=asset.id,
            requester_email=asked[k % len(asked)].email,
            access_level=level,
            reason=f"Needed for the {('churn', 'campaign', 'ops', 'support', 'renewal')[k]} analysis this quarter.",
            status=status,
            reviewer_email=asset.owner_email if decided else None,
            decision_note="Use analytics.customers instead." if status == "rejected" else "",
            decided_at=s.ago(days=3 + k) if decided else None,
            created_at=s.ago(days=5 + k),
        )
