"""Forgeline MES: materials, products with recipes, manufacturing orders and their operations.

Modeled on the Katana MRP API v1 (materials, products, recipes, manufacturing orders,
manufacturing order operation rows): an order moves not_started → in_progress → done;
it can start only for a product with a recipe, finish only when its operations are
completed, and finishing consumes the recipe's materials from stock (refused when any
is short) and adds the made units to the product's stock.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, Field

from compoworld.engine.context import Ctx
from compoworld.engine.errors import RuleViolation
from compoworld.engine.records import CREATED, Generated, Record
from compoworld.engine.service import Service
from compoworld.engine.state import SeedContext
from compoworld.engine.types import (
    Cents,
    CompanyName,
    Date,
    DateTime,
    Email,
    IdOf,
    OrderNumber,
    Quantity,
    Sku,
    Title,
)

__all__ = ["service"]

service = Service(
    "mes",
    title="Forgeline MES",
    category="manufacturing",
    modeled_on="Katana MRP API v1 (materials, products, recipes, manufacturing_orders, "
    "manufacturing_order_operation_rows)",
    description="Manufacturing: raw materials and their stock, products and their recipes (bills of "
    "materials), manufacturing orders and the operations done on the shop floor.",
)

MaterialId = Annotated[str, IdOf("mes.material")]
ProductId = Annotated[str, IdOf("mes.product")]
OrderId = Annotated[str, IdOf("mes.manufacturing_order")]
OperationId = Annotated[str, IdOf("mes.operation")]
MAX_RECIPE_ROWS = 30


class Material(Record):
    """A raw material or component bought in and consumed by production."""

    id: MaterialId
    sku: Sku
    """Variant SKU; unique."""
    name: Title
    """Material name."""
    unit: Literal["pcs", "kg", "m", "l"] = "pcs"
    """Unit of measure."""
    in_stock: Quantity = 0
    """Units in stock."""
    cost_per_unit: Cents
    """Purchase cost per unit in cents."""
    supplier_name: CompanyName | None = None
    """Default supplier."""


class RecipeRow(BaseModel):
    """One ingredient of a product's recipe."""

    material_id: MaterialId = Field(description="The material.")
    quantity: Quantity = Field(description="Units of the material per unit of product.")


class Product(Record):
    """A product made in-house, with its recipe (bill of materials)."""

    id: ProductId
    sku: Sku
    """Variant SKU; unique."""
    name: Title
    """Product name."""
    price: Cents
    """Sales price in cents."""
    in_stock: Quantity = 0
    """Finished units in stock."""
    recipe: list[RecipeRow] = Field(default_factory=list)
    """Ingredients per unit made."""


class ManufacturingOrder(Record):
    """An order to make a quantity of a product."""

    id: OrderId
    order_no: Annotated[OrderNumber, Generated("sequence", "MO-{n:04d}")]
    """Order number, e.g. MO-0012."""
    product_id: ProductId
    """The product made."""
    quantity: Quantity
    """Units to make, at least 1."""
    status: Literal["not_started", "in_progress", "done"] = "not_started"
    """not_started → in_progress → done."""
    production_deadline: Date
    """When the units must be ready."""
    assignee_email: Email
    """E-mail of the production planner responsible (an employee)."""
    total_cost: Cents = 0
    """Material cost consumed, set when done."""
    done_at: DateTime | None = None
    """When the order was completed."""
    created_at: Annotated[DateTime, CREATED]
    """When the order was created."""


class Operation(Record):
    """A shop-floor step of a manufacturing order (an operation row)."""

    id: OperationId
    manufacturing_order_id: OrderId
    """The order."""
    name: Title
    """Step name, e.g. Assembly."""
    operator_email: Email | None = None
    """E-mail of the operator (an employee) doing it."""
    planned_minutes: Quantity
    """Planned time in minutes."""
    status: Literal["not_started", "completed"] = "not_started"
    """not_started → completed."""
    completed_at: DateTime | None = None
    """When it was completed."""


def _guard_order(ctx: Ctx, new: Any, old: Any) -> None:
    if new.quantity < 1:
        raise RuleViolation("quantity must be at least 1", field="quantity", hint="make one unit or more")
    product = ctx.get(Product, new.product_id, field="product_id")
    if not product.recipe:
        raise RuleViolation(
            f"product {product.sku} has no recipe",
            field="product_id",
            hint="add ingredients with mes__add_recipe_row first",
        )


materials = service.resource(
    Material,
    name="material",
    plural="materials",
    prefix="mat",
    create=("sku", "name", "unit", "cost_per_unit", "supplier_name"),
    get=False,
    filters=("unit", "sku", "supplier_name"),
    search=("name", "sku"),
    delete=False,
    unique=("sku",),
)
products = service.resource(
    Product,
    name="product",
    plural="products",
    prefix="prd",
    create=("sku", "name", "price"),
    filters=("sku",),
    search=("name", "sku"),
    delete=False,
    unique=("sku",),
)
orders = service.resource(
    ManufacturingOrder,
    name="manufacturing_order",
    plural="manufacturing_orders",
    prefix="mo",
    create=("product_id", "quantity", "production_deadline", "assignee_email"),
    filters=("product_id", "status", "assignee_email", "order_no"),
    search=("order_no",),
    delete=False,
    guard_create=_guard_order,
    title="manufacturing order",
)
operations = service.resource(
    Operation,
    name="operation",
    plural="operations",
    prefix="op",
    create=False,
    get=False,
    filters=("manufacturing_order_id", "status", "operator_email"),
    delete=False,
)


def _needs(ctx: Ctx, order: ManufacturingOrder) -> list[tuple[Material, int]]:
    product = ctx.get(Product, order.product_id)
    return [(ctx.get(Material, row.material_id), row.quantity * order.quantity) for row in product.recipe]


def _order_in(ctx: Ctx, order_id: str, *statuses: str) -> ManufacturingOrder:
    order = ctx.get(ManufacturingOrder, order_id, field="manufacturing_order_id")
    if order.status not in statuses:
        raise RuleViolation(
            f"manufacturing order {order.order_no} is {order.status}",
            field="manufacturing_order_id",
            hint=f"this needs an order that is {' or '.join(statuses)}",
        )
    return order


# -- example providers -----------------------------------------------------------------------


def _example_recipe_row(ctx: Ctx) -> dict[str, Any] | None:
    for product in ctx.scan(Product):
        used = {r.material_id for r in product.recipe}
        for material in ctx.scan(Material):
            if material.id not in used:
                return {"product_id": product.id, "material_id": material.id, "quantity": 2}
    return None


def _example_remove_row(ctx: Ctx) -> dict[str, Any] | None:
    for product in ctx.scan(Product):
        if product.recipe:
            return {"product_id": product.id, "material_id": product.recipe[0].material_id}
    return None


def _example_add_operation(ctx: Ctx) -> dict[str, Any] | None:
    order = ctx.first(ManufacturingOrder, status="not_started")
    return None if order is None else {"manufacturing_order_id": order.id, "name": "Packing", "planned_minutes": 15}


def _example_start(ctx: Ctx) -> dict[str, Any] | None:
    order = ctx.first(ManufacturingOrder, status="not_started")
    return None if order is None else {"manufacturing_order_id": order.id}


def _example_complete_op(ctx: Ctx) -> dict[str, Any] | None:
    for op in ctx.where(Operation, status="not_started"):
        if ctx.get(ManufacturingOrder, op.manufacturing_order_id).status == "in_progress":
            return {"operation_id": op.id}
    return None


def _example_complete_order(ctx: Ctx) -> dict[str, Any] | None:
    for order in ctx.where(ManufacturingOrder, status="in_progress"):
        ops_done = all(op.status == "completed" for op in ctx.where(Operation, manufacturing_order_id=order.id))
        if ops_done and all(m.in_stock >= qty for m, qty in _needs(ctx, order)):
            return {"manufacturing_order_id": order.id}
    return None


def _example_adjust(ctx: Ctx) -> dict[str, Any] | None:
    material = ctx.first(Material, unit="pcs")
    return None if material is None else {"material_id": material.id, "change": 25, "reason": "received"}


# -- domain tools ----------------------------------------------------------------------------


@service.tool(intent="add the material to the product's recipe", write=True, example=_example_recipe_row)
def add_recipe_row(ctx: Ctx, product_id: ProductId, material_id: MaterialId, quantity: Quantity) -> Product:
    """Add an ingredient to a product's recipe.

    A material appears once per recipe; a recipe holds at most 30 rows; the
    recipe of a product with an order in progress cannot change.

    Args:
        product_id: The product.
        material_id: The material used.
        quantity: Units of the material per unit of product, at least 1.
    """
    product = ctx.get(Product, product_id, field="product_id")
    material = ctx.get(Material, material_id, field="material_id")
    _recipe_unlocked(ctx, product)
    if quantity < 1:
        raise RuleViolation("quantity must be at least 1", field="quantity", hint="use one unit or more")
    if any(r.material_id == material.id for r in product.recipe):
        raise RuleViolation(
            f"{material.sku} is already in the recipe of {product.sku}",
            field="material_id",
            hint="remove the row with mes__remove_recipe_row and add it again with the new quantity",
        )
    if len(product.recipe) >= MAX_RECIPE_ROWS:
        raise RuleViolation(
            f"the recipe of {product.sku} already has {MAX_RECIPE_ROWS} rows",
            field="product_id",
            hint="make a sub-assembly product",
        )
    return ctx.update(product, recipe=[*product.recipe, RecipeRow(material_id=material.id, quantity=quantity)])


def _recipe_unlocked(ctx: Ctx, product: Product) -> None:
    if ctx.first(ManufacturingOrder, product_id=product.id, status="in_progress") is not None:
        raise RuleViolation(
            f"product {product.sku} has a manufacturing order in progress",
            field="product_id",
            hint="complete the order in progress before changing the recipe",
        )


@service.tool(
    intent="remove the material from the product's recipe", write=True, destructive=True, example=_example_remove_row
)
def remove_recipe_row(ctx: Ctx, product_id: ProductId, material_id: MaterialId) -> Product:
    """Remove an ingredient from a product's recipe (not while an order of it is in progress).

    Args:
        product_id: The product.
        material_id: The material to remove.
    """
    product = ctx.get(Product, product_id, field="product_id")
    _recipe_unlocked(ctx, product)
    rest = [r for r in product.recipe if r.material_id != material_id]
    if len(rest) == len(product.recipe):
        raise RuleViolation(
            f"material {material_id} is not in the recipe of {product.sku}",
            field="material_id",
            hint="read the recipe with mes__get_product",
        )
    return ctx.update(product, recipe=rest)


@service.tool(intent="add a production step to the manufacturing order", write=True, example=_example_add_operation)
def add_operation(
    ctx: Ctx,
    manufacturing_order_id: OrderId,
    name: Title,
    planned_minutes: Quantity,
    operator_email: Email | None = None,
) -> Operation:
    """Add an operation row to a manufacturing order that is not done.

    Step names are unique within an order.

    Args:
        manufacturing_order_id: The order.
        name: Step name, e.g. Assembly.
        planned_minutes: Planned time in minutes, at least 1.
        operator_email: E-mail of the operator doing it.
    """
    order = _order_in(ctx, manufacturing_order_id, "not_started", "in_progress")
    if planned_minutes < 1:
        raise RuleViolation("planned_minutes must be at least 1", field="planned_minutes", hint="plan a minute or more")
    if any(op.name.casefold() == name.casefold() for op in ctx.where(Operation, manufacturing_order_id=order.id)):
        raise RuleViolation(
            f"order {order.order_no} already has a step named {name}", field="name", hint="name the step differently"
        )
    return ctx.create(
        Operation,
        manufacturing_order_id=order.id,
        name=name,
        planned_minutes=planned_minutes,
        operator_email=operator_email,
    )


@service.tool(intent="start production of the manufacturing order", write=True, example=_example_start)
def start_manufacturing_order(ctx: Ctx, manufacturing_order_id: OrderId) -> ManufacturingOrder:
    """Start a manufacturing order (not_started → in_progress).

    Args:
        manufacturing_order_id: The order, not started.
    """
    order = _order_in(ctx, manufacturing_order_id, "not_started")
    return ctx.update(order, status="in_progress")


@service.tool(intent="mark the production step completed", write=True, example=_example_complete_op)
def complete_operation(ctx: Ctx, operation_id: OperationId) -> Operation:
    """Complete an operation row of an order in progress.

    Args:
        operation_id: The operation, not yet completed.
    """
    op = ctx.get(Operation, operation_id, field="operation_id")
    if op.status == "completed":
        raise RuleViolation(f"operation {op.id} is already completed", field="operation_id", hint="nothing to do")
    order = ctx.get(ManufacturingOrder, op.manufacturing_order_id)
    if order.status != "in_progress":
        raise RuleViolation(
            f"manufacturing order {order.order_no} is {order.status}",
            field="operation_id",
            hint="start the order with mes__start_manufacturing_order first",
        )
    return ctx.update(op, status="completed", completed_at=ctx.now())


@service.tool(intent="finish the manufacturing order", write=True, example=_example_complete_order)
def complete_manufacturing_order(ctx: Ctx, manufacturing_order_id: OrderId) -> ManufacturingOrder:
    """Complete an order in progress: consume its materials and add the made units to stock.

    Every operation must be completed and every material of the recipe (per unit ×
    quantity) must be in stock; the order's total cost is the materials' cost.

    Args:
        manufacturing_order_id: The order, in progress.
    """
    order = _order_in(ctx, manufacturing_order_id, "in_progress")
    open_ops = [op.name for op in ctx.where(Operation, manufacturing_order_id=order.id) if op.status != "completed"]
    if open_ops:
        raise RuleViolation(
            f"operations not completed: {', '.join(open_ops)}",
            field="manufacturing_order_id",
            hint="complete them with mes__complete_operation",
        )
    needs = _needs(ctx, order)
    for material, qty in needs:
        if material.in_stock < qty:
            raise RuleViolation(
                f"not enough {material.sku}: {qty} needed, {material.in_stock} in stock",
                field="manufacturing_order_id",
                hint="receive the material with mes__adjust_material_stock first",
            )
    for material, qty in needs:
        ctx.update(material, in_stock=material.in_stock - qty)
    product = ctx.get(Product, order.product_id)
    ctx.update(product, in_stock=product.in_stock + order.quantity)
    cost = sum(m.cost_per_unit * qty for m, qty in needs)
    return ctx.update(order, status="done", done_at=ctx.now(), total_cost=cost)


@service.tool(intent="adjust the material's stock", write=True, example=_example_adjust)
def adjust_material_stock(
    ctx: Ctx, material_id: MaterialId, change: int, reason: Literal["received", "count", "scrap"]
) -> Material:
    """Add or remove units of a material (a stock adjustment); stock cannot go below 0.

    Args:
        material_id: The material.
        change: Units to add (positive) or remove (negative); not 0.
        reason: Why: received from a supplier, corrected by a count, or scrapped.
    """
    material = ctx.get(Material, material_id, field="material_id")
    if change == 0 or abs(change) > 10**6:
        raise RuleViolation("change must be non-zero and at most 1,000,000 units", field="change", hint="give units")
    if reason == "received" and change < 0:
        raise RuleViolation("a receipt adds stock", field="change", hint="use reason scrap or count to remove units")
    if material.in_stock + change < 0:
        raise RuleViolation(
            f"{material.sku} has only {material.in_stock} in stock",
            field="change",
            hint=f"remove at most {material.in_stock} units",
        )
    return ctx.update(material, in_stock=material.in_stock + change)


class Availability(BaseModel):
    """Whether one ingredient of an order is in stock."""

    material_id: MaterialId = Field(description="The material.")
    required: Quantity = Field(description="Units the order needs.")
    in_stock: Quantity = Field(description="Units in stock.")
    status: Literal["in_stock", "not_available"] = Field(description="Whether stock covers the need.")


@service.tool(intent="check whether the materials for the order are in stock")
def ingredient_availability(ctx: Ctx, manufacturing_order_id: OrderId) -> list[Availability]:
    """Each recipe material an order needs, with stock and whether it is available.

    Args:
        manufacturing_order_id: The order.
    """
    order = ctx.get(ManufacturingOrder, manufacturing_order_id, field="manufacturing_order_id")
    return [
        Availability(
            material_id=m.id,
            required=qty,
            in_stock=m.in_stock,
            status="in_stock" if m.in_stock >= qty else "not_available",
        )
        for m, qty in _needs(ctx, order)
    ]


# -- seeding ---------------------------------------------------------------------------------

RAW = (
    ("AL-SHEET", "Aluminium sheet 2mm", "kg", 480),
    ("STL-BOLT-M6", "Steel bolt M6", "pcs", 12),
    ("PCB-MAIN", "Main circuit board", "pcs", 2150),
    ("ABS-PELLET", "ABS pellets", "kg", 310),
    ("CBL-USB", "USB cable 1m", "pcs", 140),
    ("PKG-BOX-M", "Cardboard box medium", "pcs", 65),
    ("LBL-ROLL", "Label roll", "m", 8),
    ("GLUE-EPX", "Epoxy glue", "l", 1290),
    ("SCR-M3", "Screw M3", "pcs", 4),
    ("FOAM-INS", "Foam insert", "pcs", 90),
)
STEPS = ("Cutting", "Assembly", "Quality check")


@service.seeder
def seed(s: SeedContext) -> None:
    """Materials from suppliers among the population's companies, products from its catalogue, orders in every state."""
    pop = s.population
    suppliers = pop.customers
    mats = [
        s.create(
            Material,
            sku=sku,
            name=name,
            unit=unit,
            cost_per_unit=cost,
            in_stock=0 if n == 2 else s.rng.randint(20, 400),
            supplier_name=suppliers[n % len(suppliers)].name if suppliers else None,
        )
        for n, (sku, name, unit, cost) in enumerate(RAW)
    ]
    planners = pop.staff("Operations", fallback=3)
    made: list[Product] = []
    for n, item in enumerate(pop.products[:10]):
        picks = s.rng.sample(mats, 3)
        recipe = [] if n == 9 else [RecipeRow(material_id=m.id, quantity=s.rng.randint(1, 4)) for m in picks]
        made.append(
            s.create(
                Product,
                sku=item.sku,
                name=item.name,
                price=item.price_cents,
                in_stock=s.rng.randint(0, 30),
                recipe=recipe,
            )
        )
    for n, product in enumerate(made[:9]):
        status = ("not_started", "in_progress", "done")[n % 3]
        order = s.create(
            ManufacturingOrder,
            product_id=product.id,
            quantity=s.rng.randint(1, 5),
            status=status,
            production_deadline=s.now.date().fromordinal(s.now.date().toordinal() + 7 + n),
            assignee_email=planners[n % len(planners)].email,
            done_at=s.ago(days=2) if status == "done" else None,
        )
        for k, step in enumerate(STEPS):
            completed = status == "done" or (status == "in_progress" and (k == 0 or n == 1))
            s.create(
                Operation,
                manufacturing_order_id=order.id,
                name=step,
                operator_email=planners[(n + k) % len(planners)].email,
                planned_minutes=15 * (k + 1),
                status="completed" if completed else "not_started",
                completed_at=s.ago(days=2) if completed else None,
            )
