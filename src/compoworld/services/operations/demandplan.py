"""Horizon Demand: demand planning: forecasts by month, planner overrides, consensus plans and replenishment.

Modeled on Netstock Predictor and Kinaxis RapidResponse (item master with
lead time, safety stock, minimum order quantity and ABC class; statistical
forecasts per item and monthly bucket with their method; forecast overrides
that need a reason and can be reverted; consensus demand plans for a cycle
that go draft → in_review → approved → published, approved by someone other
than their owner, and that lock the cycle's forecasts once published; order
suggestions from a replenishment run: on-hand plus on-order against lead-time
demand and safety stock, rounded up to the MOQ, that go suggested → approved
→ released to the ERP with a PO number, or dismissed; and planning exceptions
(stockout risk, excess stock, override outliers) that go open → acknowledged
→ resolved). Past months are closed to overrides; one active override per
forecast; an override more than 50% off the statistical forecast raises an
exception; a new run refuses an item that already has a pending suggestion.
"""

from __future__ import annotations

import datetime as dt
import math
from typing import Annotated, Any, Literal

from pydantic import Field, StringConstraints

from compoworld.engine.context import Ctx
from compoworld.engine.errors import Conflict, RuleViolation
from compoworld.engine.service import Service, Transition
from compoworld.engine.state import SeedContext
from compoworld.engine.types import (
    Cents,
    CompanyName,
    Date,
    Email,
    IdOf,
    OrderNumber,
    Quantity,
    SemanticType,
    Sku,
    Text,
    Title,
)
from compoworld.services.kit.examples import first_example
from compoworld.services.kit.lists import require_employee
from compoworld.services.kit.records import Timestamped, Value
from compoworld.services.kit.time import add_months

__all__ = ["service"]

service = Service(
    "demandplan",
    title="Horizon Demand",
    category="demand_planning",
    modeled_on="Netstock Predictor / Kinaxis RapidResponse (item master, statistical forecasts by period, "
    "forecast overrides with reasons, consensus demand plans, order suggestions, planning exceptions)",
    description="Demand planning for the company's stocked items: monthly statistical forecasts, planner "
    "overrides with their reasons, the consensus plan of each cycle and its approval, replenishment order "
    "suggestions released to purchasing, and the exceptions planners work through.",
)

ItemId = Annotated[str, IdOf("demandplan.item")]
ForecastId = Annotated[str, IdOf("demandplan.forecast")]
OverrideId = Annotated[str, IdOf("demandplan.override")]
PlanId = Annotated[str, IdOf("demandplan.consensus_plan")]
SuggestionId = Annotated[str, IdOf("demandplan.suggestion")]
ExceptionId = Annotated[str, IdOf("demandplan.exception")]

Period = Annotated[
    str, SemanticType("period.month", kind="ref"), StringConstraints(pattern=r"^20\d{2}-(0[1-9]|1[0-2])$")
]
"""A monthly planning bucket, YYYY-MM."""
Method = Literal["moving_average", "exponential_smoothing", "croston", "seasonal"]
OverrideReason = Literal["promotion", "new_customer", "lost_customer", "seasonality", "supply_constraint", "other"]
PlanStatus = Literal["draft", "in_review", "approved", "published"]
SuggestionStatus = Literal["suggested", "approved", "released", "dismissed"]
ExceptionKind = Literal["stockout_risk", "excess_stock", "override_outlier"]
ExceptionStatus = Literal["open", "acknowledged", "resolved"]
Days = Annotated[int, Field(ge=1, le=365)]

OUTLIER = 0.5
PENDING: tuple[SuggestionStatus, ...] = ("suggested", "approved")


class Item(Timestamped):
    """A stocked item the planners forecast and replenish."""

    id: ItemId
    sku: Sku
    """The item's SKU (unique)."""
    name: Title
    """Its name."""
    supplier: CompanyName
    """The preferred supplier."""
    abc_class: Literal["A", "B", "C"] = "B"
    """A (top revenue), B or C."""
    lead_time_days: Days = 30
    """Supplier lead time in days."""
    unit_cost_cents: Cents
    """Unit cost."""
    on_hand: Quantity = 0
    """Units in stock."""
    on_order: Quantity = 0
    """Units on open purchase orders."""
    safety_stock: Quantity = 0
    """Units kept as buffer."""
    min_order_qty: Annotated[int, Field(ge=1, le=100000)] = 1
    """Minimum (and multiple) order quantity."""
    planner_email: Email
    """The employee planning it."""


class Forecast(Timestamped):
    """The forecast of one item for one month."""

    id: ForecastId
    item_id: ItemId
    """The item."""
    sku: Sku
    """Its SKU."""
    period: Period
    """The month, YYYY-MM."""
    method: Method
    """The statistical method."""
    statistical_qty: Quantity
    """The system's forecast."""
    override_qty: Quantity | None = None
    """A planner's override, if any."""
    final_qty: Quantity
    """The forecast in use (the override when there is one)."""
    actual_qty: Quantity | None = None
    """Actual demand, once the month is past."""
    locked: bool = False
    """Locked by a published consensus plan."""


class Override(Timestamped):
    """A planner's change to a forecast, with its reason."""

    id: OverrideId
    forecast_id: ForecastId
    """The forecast."""
    sku: Sku
    """The item's SKU."""
    period: Period
    """The month."""
    previous_qty: Quantity
    """The forecast before."""
    new_qty: Quantity
    """The forecast after."""
    reason: OverrideReason
    """promotion, new_customer, lost_customer, seasonality, supply_constraint or other."""
    note: Text = ""
    """Why, in words."""
    planner_email: Email
    """Who overrode it."""
    status: Literal["active", "reverted"] = "active"
    """active or reverted."""


class ConsensusPlan(Timestamped):
    """The consensus demand plan of one monthly cycle."""

    id: PlanId
    name: Title
    """Its name."""
    period: Period
    """The month it plans."""
    owner_email: Email
    """The demand planner who owns it."""
    status: PlanStatus = "draft"
    """draft, in_review, approved or published."""
    approved_by: Email | None = None
    """Who approved it (not the owner)."""
    total_units: int = 0
    """Units forecast for the month when published."""
    notes: Text = ""
    """Assumptions agreed in the S&OP meeting."""


class Suggestion(Timestamped):
    """A replenishment order suggestion from a planning run."""

    id: SuggestionId
    item_id: ItemId
    """The item."""
    sku: Sku
    """Its SKU."""
    supplier: CompanyName
    """Who to buy from."""
    quantity: Annotated[int, Field(ge=1, le=10**7)]
    """Units to order (a multiple of the MOQ)."""
    amount_cents: Cents
    """Quantity times unit cost."""
    order_by: Date
    """The last day to order to arrive in time."""
    status: SuggestionStatus = "suggested"
    """suggested, approved, released or dismissed."""
    po_number: OrderNumber | None = None
    """The purchase order it was released as."""
    approved_by: Email | None = None
    """Who approved it."""


class PlanException(Timestamped):
    """A planning exception for a planner to work."""

    id: ExceptionId
    item_id: ItemId
    """The item."""
    sku: Sku
    """Its SKU."""
    kind: ExceptionKind
    """stockout_risk, excess_stock or override_outlier."""
    message: Text
    """What is wrong."""
    status: ExceptionStatus = "open"
    """open, acknowledged or resolved."""


class Projection(Value):
    """An item's projected stock over the coming months."""

    sku: Sku
    """The item."""
    months: list[dict[str, Any]]
    """Per month: period, demand and projected end-of-month stock."""
    stockout_period: str | None
    """The first month projected below zero, if any."""


# -- rules ------------------------------------------------------------------------------------


def _month(day: dt.date) -> str:
    return f"{day.year:04d}-{day.month:02d}"


def _guard_item(ctx: Ctx, new: Any, old: Any) -> None:
    require_employee(ctx, new.planner_email, field="planner_email", hint="items are planned by staff")


def _guard_plan(ctx: Ctx, new: Any, old: Any) -> None:
    if old is None:
        require_employee(ctx, new.owner_email, field="owner_email", hint="plans are owned by staff")
        if new.period < _month(ctx.today()):
            raise RuleViolation(f"{new.period} is past", field="period", hint="plan this month or a later one")
        if ctx.first(ConsensusPlan, period=new.period) is not None:
            raise Conflict(f"a plan for {new.period} exists", field="period", hint="update that plan instead")
    elif old.status == "published":
        raise RuleViolation(f"plan {old.name!r} is published", field="consensus_plan_id", hint="plan a new cycle")


items = service.resource(
    Item,
    name="item",
    plural="items",
    prefix="item",
    create=False,
    filters=("sku", "supplier", "abc_class", "planner_email"),
    search=("name", "sku"),
    update=("safety_stock", "lead_time_days", "min_order_qty", "planner_email"),
    delete=False,
    guard_update=_guard_item,
)
forecasts = service.resource(
    Forecast,
    name="forecast",
    plural="forecasts",
    prefix="fc",
    create=False,
    filters=("item_id", "sku", "period", "method", "locked"),
    delete=False,
)
overrides = service.resource(
    Override,
    name="override",
    plural="overrides",
    prefix="ovr",
    create=False,
    get=False,
    filters=("forecast_id", "sku", "period", "reason", "planner_email", "status"),
    search=("note",),
    delete=False,
    title="forecast override",
)
plans = service.resource(
    ConsensusPlan,
    name="consensus_plan",
    plural="consensus_plans",
    prefix="plan",
    create=False,
    filters=("period", "status", "owner_email"),
    search=("name", "notes"),
    update=("name", "notes"),
    delete=False,
    transitions={
        "submit": Transition("status", ("draft",), "in_review", "submit the plan for review"),
        "reject": Transition("status", ("in_review",), "draft", "send the plan back to draft"),
    },
    guard_update=_guard_plan,
    title="consensus plan",
)
suggestions = service.resource(
    Suggestion,
    name="suggestion",
    plural="suggestions",
    prefix="sug",
    create=False,
    filters=("item_id", "sku", "supplier", "status", "po_number"),
    delete=False,
    transitions={
        "dismiss": Transition("status", ("suggested", "approved"), "dismissed", "dismiss the order suggestion"),
    },
    title="order suggestion",
)
exceptions = service.resource(
    PlanException,
    name="exception",
    plural="exceptions",
    prefix="exc",
    create=False,
    filters=("item_id", "sku", "kind", "status"),
    search=("message",),
    delete=False,
    transitions={
        "acknowledge": Transition("status", ("open",), "acknowledged", "acknowledge the exception"),
        "resolve": Transition("status", ("open", "acknowledged"), "resolved", "resolve the exception"),
    },
    title="planning exception",
)


# -- domain tools -----------------------------------------------------------------------------


def _item_by_sku(ctx: Ctx, sku: str) -> Item:
    item = ctx.first(Item, sku=sku)
    if item is None:
        raise RuleViolation(f"no item {sku}", field="sku", hint="list items with demandplan__list_items")
    return item


def _example_override(ctx: Ctx) -> dict[str, Any] | None:
    for fc in ctx.where(Forecast, locked=False, override_qty=None):
        if fc.period >= _month(ctx.today()):
            return {
                "sku": fc.sku,
                "period": fc.period,
                "new_qty": fc.statistical_qty + 5,
                "reason": "promotion",
                "planner_email": ctx.population.employees[0].email,
                "note": "Spring promotion in two regions.",
            }
    return None


@service.tool(intent="override the forecast", write=True, example=_example_override)
def override_forecast(
    ctx: Ctx,
    sku: Sku,
    period: Period,
    new_qty: Quantity,
    reason: OverrideReason,
    planner_email: Email,
    note: Text = "",
) -> Override:
    """Override an item's forecast for a month that is not past or locked; more than 50% off raises an exception.

    Args:
        sku: The item's SKU.
        period: The month, YYYY-MM.
        new_qty: The forecast to use.
        reason: promotion, new_customer, lost_customer, seasonality, supply_constraint or other.
        planner_email: The planner making the change.
        note: Why, in words (required for reason other).
    """
    item = _item_by_sku(ctx, sku)
    fc = ctx.first(Forecast, item_id=item.id, period=period)
    if fc is None:
        raise RuleViolation(f"{sku} has no forecast for {period}", field="period", hint="pick a forecast month")
    if period < _month(ctx.today()):
        raise RuleViolation(f"{period} is past", field="period", hint="override this month or a later one")
    if fc.locked:
        raise RuleViolation(f"{period} is locked by a published plan", field="period", hint="override a later month")
    require_employee(ctx, planner_email, field="planner_email", hint="overrides are made by planners")
    if reason == "other" and not note.strip():
        raise RuleViolation("reason other needs a note", field="note", hint="say why")
    if ctx.first(Override, forecast_id=fc.id, status="active") is not None:
        raise Conflict(
            f"{sku} {period} is already overridden",
            field="period",
            hint="revert it with demandplan__revert_override first",
        )
    if new_qty == fc.final_qty:
        raise RuleViolation(f"the forecast is already {new_qty}", field="new_qty", hint="give a different quantity")
    made = ctx.create(
        Override,
        forecast_id=fc.id,
        sku=sku,
        period=period,
        previous_qty=fc.final_qty,
        new_qty=new_qty,
        reason=reason,
        note=note.strip(),
        planner_email=planner_email,
    )
    ctx.update(fc, override_qty=new_qty, final_qty=new_qty)
    base = max(fc.statistical_qty, 1)
    if abs(new_qty - fc.statistical_qty) / base > OUTLIER:
        ctx.create(
            PlanException,
            item_id=item.id,
            sku=sku,
            kind="override_outlier",
            message=f"{period} override {new_qty} vs statistical {fc.statistical_qty}",
        )
    return made


@service.tool(
    intent="revert the forecast override",
    write=True,
    example=first_example(Override, "override_id", where={"status": "active"}),
)
def revert_override(ctx: Ctx, override_id: OverrideId) -> Forecast:
    """Revert an active override; the forecast goes back to the statistical one.

    Args:
        override_id: The override.
    """
    ovr = ctx.get(Override, override_id, field="override_id")
    if ovr.status != "active":
        raise Conflict(f"override {ovr.id} is already reverted", field="override_id", hint="nothing to do")
    fc = ctx.get(Forecast, ovr.forecast_id)
    if fc.locked:
        raise RuleViolation(f"{fc.period} is locked by a published plan", field="override_id", hint="leave it")
    ctx.update(ovr, status="reverted")
    return ctx.update(fc, override_qty=None, final_qty=fc.statistical_qty)


def _example_cycle(ctx: Ctx) -> dict[str, Any] | None:
    return {
        "name": "S&OP cycle",
        "period": _month(add_months(ctx.today(), 4)),
        "owner_email": ctx.population.employees[0].email,
    }


@service.tool(intent="start the plan cycle", write=True, example=_example_cycle)
def start_plan_cycle(ctx: Ctx, name: Title, period: Period, owner_email: Email, notes: Text = "") -> ConsensusPlan:
    """Open the consensus plan of a month (one per month, not a past one) as a draft.

    Args:
        name: The plan's name.
        period: The month it plans, YYYY-MM.
        owner_email: The demand planner who owns it.
        notes: Assumptions for the S&OP meeting.
    """
    fields: dict[str, Any] = {"name": name, "period": period, "owner_email": owner_email, "notes": notes}
    _guard_plan(ctx, ConsensusPlan.model_construct(**fields), None)
    return ctx.create(ConsensusPlan, **fields)


def _example_approve(ctx: Ctx) -> dict[str, Any] | None:
    plan = ctx.first(ConsensusPlan, status="in_review")
    if plan is None:
        return None
    other = next(p for p in ctx.population.employees if p.email != plan.owner_email)
    return {"consensus_plan_id": plan.id, "approver_email": other.email}


@service.tool(intent="approve the consensus plan", write=True, example=_example_approve)
def approve_plan(ctx: Ctx, consensus_plan_id: PlanId, approver_email: Email) -> ConsensusPlan:
    """Approve a plan in review; the approver is an employee other than its owner.

    Args:
        consensus_plan_id: The plan.
        approver_email: The approver (S&OP lead).
    """
    plan = ctx.get(ConsensusPlan, consensus_plan_id, field="consensus_plan_id")
    if plan.status != "in_review":
        raise RuleViolation(
            f"plan is {plan.status}, not in review", field="consensus_plan_id", hint="submit it for review first"
        )
    require_employee(ctx, approver_email, field="approver_email", hint="plans are approved by staff")
    if approver_email == plan.owner_email:
        raise RuleViolation("owners cannot approve their own plan", field="approver_email", hint="ask someone else")
    return ctx.update(plan, status="approved", approved_by=approver_email)


@service.tool(
    intent="publish the consensus plan",
    write=True,
    example=first_example(ConsensusPlan, "consensus_plan_id", where={"status": "approved"}),
)
def publish_plan(ctx: Ctx, consensus_plan_id: PlanId) -> ConsensusPlan:
    """Publish an approved plan: the month's forecasts are locked and totalled.

    Args:
        consensus_plan_id: The plan.
    """
    plan = ctx.get(ConsensusPlan, consensus_plan_id, field="consensus_plan_id")
    if plan.status != "approved":
        raise RuleViolation(f"plan is {plan.status}, not approved", field="consensus_plan_id", hint="approve it first")
    total = 0
    for fc in ctx.where(Forecast, period=plan.period):
        total += fc.final_qty
        ctx.update(fc, locked=True)
    return ctx.update(plan, status="published", total_units=total)


def _need(ctx: Ctx, item: Item) -> tuple[int, dt.date]:
    today = ctx.today()
    horizon = max(1, math.ceil(item.lead_time_days / 30))
    periods = [_month(add_months(today, k)) for k in range(horizon)]
    demand = sum(fc.final_qty for fc in ctx.where(Forecast, item_id=item.id) if fc.period in periods)
    short = demand + item.safety_stock - item.on_hand - item.on_order
    order_by = today + dt.timedelta(days=max(0, 30 * horizon - item.lead_time_days))
    return short, order_by


@service.tool(
    intent="run replenishment for the item",
    write=True,
    example=first_example(Item, None, fields={"sku": "sku"}, match=lambda c, i: _need(c, i)[0] > 0),
)
def run_replenishment(ctx: Ctx, sku: Sku) -> Suggestion:
    """Suggest an order for an item short of lead-time demand plus safety stock, rounded up to its MOQ.

    Args:
        sku: The item's SKU.
    """
    item = _item_by_sku(ctx, sku)
    for sug in ctx.where(Suggestion, item_id=item.id):
        if sug.status in PENDING:
            raise Conflict(f"{sku} already has suggestion {sug.id}", field="sku", hint="approve or dismiss it first")
    short, order_by = _need(ctx, item)
    if short <= 0:
        raise RuleViolation(
            f"{sku} is covered: {item.on_hand} on hand and {item.on_order} on order",
            field="sku",
            hint="no order is needed",
        )
    qty = math.ceil(short / item.min_order_qty) * item.min_order_qty
    if item.on_hand < item.safety_stock:
        ctx.create(
            PlanException,
            item_id=item.id,
            sku=sku,
            kind="stockout_risk",
            message=f"on hand {item.on_hand} below safety stock {item.safety_stock}",
        )
    return ctx.create(
        Suggestion,
        item_id=item.id,
        sku=sku,
        supplier=item.supplier,
        quantity=qty,
        amount_cents=qty * item.unit_cost_cents,
        order_by=order_by,
    )


def _example_approve_order(ctx: Ctx) -> dict[str, Any] | None:
    sug = ctx.first(Suggestion, status="suggested")
    return None if sug is None else {"suggestion_id": sug.id, "approver_email": ctx.population.employees[0].email}


@service.tool(intent="approve the order suggestion", write=True, example=_example_approve_order)
def approve_suggestion(
    ctx: Ctx,
    suggestion_id: SuggestionId,
    approver_email: Email,
    quantity: Annotated[int, Field(ge=1, le=10**7)] | None = None,
) -> Suggestion:
    """Approve a suggestion, optionally at another quantity (a multiple of the MOQ).

    Args:
        suggestion_id: The suggestion.
        approver_email: The planner approving it.
        quantity: A different quantity to order.
    """
    sug = ctx.get(Suggestion, suggestion_id, field="suggestion_id")
    if sug.status != "suggested":
        raise RuleViolation(f"suggestion is {sug.status}", field="suggestion_id", hint="only new suggestions")
    require_employee(ctx, approver_email, field="approver_email", hint="orders are approved by planners")
    item = ctx.get(Item, sug.item_id)
    qty = sug.quantity if quantity is None else quantity
    if qty < item.min_order_qty or qty % item.min_order_qty:
        raise RuleViolation(
            f"quantity must be a positive multiple of the MOQ {item.min_order_qty}",
            field="quantity",
            hint=f"order {item.min_order_qty * max(1, qty // item.min_order_qty)}",
        )
    return ctx.update(
        sug, status="approved", quantity=qty, amount_cents=qty * item.unit_cost_cents, approved_by=approver_email
    )


@service.tool(
    intent="release the order to purchasing",
    write=True,
    example=first_example(Suggestion, "suggestion_id", where={"status": "approved"}, po_number="PO-88120"),
)
def release_suggestion(ctx: Ctx, suggestion_id: SuggestionId, po_number: OrderNumber) -> Suggestion:
    """Release an approved suggestion as a purchase order; its units count as on order.

    Args:
        suggestion_id: The suggestion.
        po_number: The purchase order number from the ERP (unique).
    """
    sug = ctx.get(Suggestion, suggestion_id, field="suggestion_id")
    if sug.status != "approved":
        raise RuleViolation(f"suggestion is {sug.status}, not approved", field="suggestion_id", hint="approve it")
    if ctx.first(Suggestion, po_number=po_number) is not None:
        raise Conflict(f"{po_number} is already used", field="po_number", hint="give the new PO's number")
    item = ctx.get(Item, sug.item_id)
    ctx.update(item, on_order=item.on_order + sug.quantity)
    return ctx.update(sug, status="released", po_number=po_number)


@service.tool(intent="project the item's stock", example=first_example(Item, None, fields={"sku": "sku"}))
def project_stock(ctx: Ctx, sku: Sku) -> Projection:
    """Project an item's end-of-month stock over the forecast months from this month on.

    Args:
        sku: The item's SKU.
    """
    item = _item_by_sku(ctx, sku)
    this = _month(ctx.today())
    stock = item.on_hand + item.on_order
    rows: list[dict[str, Any]] = []
    out: str | None = None
    for fc in sorted(ctx.where(Forecast, item_id=item.id), key=lambda f: f.period):
        if fc.period < this:
            continue
        stock -= fc.final_qty
        rows.append({"period": fc.period, "demand": fc.final_qty, "projected_stock": stock})
        if stock < 0 and out is None:
            out = fc.period
    return Projection(sku=item.sku, months=rows, stockout_period=out)


# -- seed -------------------------------------------------------------------------------------

METHODS: tuple[Method, ...] = ("moving_average", "exponential_smoothing", "croston", "seasonal")


@service.seeder
def seed(s: SeedContext) -> None:
    """Items from the product catalog, eight months of forecasts, overrides, plans, suggestions, exceptions."""
    pop = s.population
    planners = pop.staff("Operations", fallback=4)
    suppliers = [c for c in pop.companies if not c.home]
    today = s.now.date()
    made: list[Item] = []
    for k, product in enumerate(pop.products[:12]):
        made.append(
            s.create(
                Item,
                sku=product.sku,
                name=product.name,
                supplier=suppliers[k % len(suppliers)].name,
                abc_class="ABC"[k % 3],
                lead_time_days=(14, 30, 45, 60)[k % 4],
                unit_cost_cents=product.cost_cents,
                on_hand=(5, 120, 40, 300)[k % 4],
                on_order=(0, 0, 20, 50)[k % 4],
                safety_stock=(20, 30, 15, 25)[k % 4],
                min_order_qty=(10, 12, 25, 1)[k % 4],
                planner_email=planners[k % len(planners)].email,
                created_at=s.ago(days=300),
                updated_at=s.ago(days=3),
            )
        )
    for k, item in enumerate(made):
        base = 20 + 7 * (k % 5)
        for m in range(-2, 6):
            period = _month(add_months(today, m))
            qty = base + ((m + k) % 3) * 4
            s.create(
                Forecast,
                item_id=item.id,
                sku=item.sku,
                period=period,
                method=METHODS[k % len(METHODS)],
                statistical_qty=qty,
                final_qty=qty,
                actual_qty=qty + (k % 4) - 2 if m < 0 else None,
                locked=m <= 0,
                created_at=s.ago(days=40),
                updated_at=s.ago(days=40),
            )
    _seed_workflow(s, made, planners)


def _seed_workflow(s: SeedContext, made: list[Item], planners: list[Any]) -> None:
    today = s.now.date()
    nxt = _month(add_months(today, 1))
    for fc in s.records(Forecast)[:60]:
        if fc.period == nxt and fc.item_id in (made[1].id, made[4].id):
            qty = fc.statistical_qty + 10
            s.create(
                Override,
                forecast_id=fc.id,
                sku=fc.sku,
                period=fc.period,
                previous_qty=fc.statistical_qty,
                new_qty=qty,
                reason="promotion",
                note="Trade show promotion.",
                planner_email=planners[0].email,
                created_at=s.ago(days=2),
                updated_at=s.ago(days=2),
            )
            s.update(fc, override_qty=qty, final_qty=qty)
    for m, status in ((0, "published"), (1, "in_review"), (2, "approved"), (3, "draft")):
        period = _month(add_months(today, m))
        s.create(
            ConsensusPlan,
            name=f"S&OP demand plan {period}",
            period=period,
            owner_email=planners[m % len(planners)].email,
            status=status,
            approved_by=planners[(m + 1) % len(planners)].email if status in ("approved", "published") else None,
            total_units=sum(f.final_qty for f in s.records(Forecast) if f.period == period) if m == 0 else 0,
            created_at=s.ago(days=20 - m),
            updated_at=s.ago(days=5 - m),
        )
    for k, status in enumerate(("suggested", "approved", "released", "dismissed")):
        item = made[k * 2]
        qty = item.min_order_qty * (4 + k)
        s.create(
            Suggestion,
            item_id=item.id,
            sku=item.sku,
            supplier=item.supplier,
            quantity=qty,
            amount_cents=qty * item.unit_cost_cents,
            order_by=today + dt.timedelta(days=3 + k),
            status=status,
            po_number=f"PO-{77100 + k}" if status == "released" else None,
            approved_by=planners[0].email if status in ("approved", "released") else None,
            created_at=s.ago(days=6),
            updated_at=s.ago(days=1),
        )
    for k, (kind, status) in enumerate(
        (("stockout_risk", "open"), ("excess_stock", "acknowledged"), ("override_outlier", "resolved"))
    ):
        item = made[(0, 3, 1)[k]]
        s.create(
            PlanException,
            item_id=item.id,
            sku=item.sku,
            kind=kind,
            message=f"{kind.replace('_', ' ')} on {item.sku}",
            status=status,
            created_at=s.ago(days=4 - k),
            updated_at=s.ago(days=1),
        )
