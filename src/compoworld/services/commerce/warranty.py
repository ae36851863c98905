"""Shieldline Product Protection: protection plans for the store's products, contracts, claims and refunds.

Modeled on the Extend Product Protection API (2021-04-01: products, offers,
contracts, claims, refunds). A plan covers one product category and a band of
purchase prices, for a term in months, against mechanical failure and, for
accident plans, accidental damage. A contract is sold for an order line within
30 days of the purchase, at the price of a plan whose category and band fit the
product, once per order and product; coverage runs from the purchase date for
the plan's term. A claim is filed on a live contract for an incident inside
the coverage period, one open claim at a time, accidental damage only under an
accident plan; it is approved (up to what the contract still covers: the
purchase price less what earlier claims paid) or denied with a reason, and an
approved claim is fulfilled by repair, replacement or refund; a replacement or
refund uses the contract up. Cancelling refunds the full price within 30 days
of the sale and the unused share of the term after that; a contract with an
open or paid claim cannot be cancelled.
"""

from __future__ import annotations

import datetime as dt
from typing import Annotated, Any, Literal

from pydantic import BaseModel, Field

from compoworld.engine.context import Ctx
from compoworld.engine.errors import Conflict, NotFound, RuleViolation
from compoworld.engine.records import Generated, Record
from compoworld.engine.service import Service
from compoworld.engine.state import SeedContext
from compoworld.engine.types import (
    Cents,
    Date,
    DateTime,
    Email,
    IdOf,
    OrderNumber,
    PersonName,
    Phone,
    Sku,
    Text,
    Title,
)
from compoworld.services.kit.examples import first_example
from compoworld.services.kit.records import Timestamped
from compoworld.services.kit.time import add_months
from compoworld.world.commerce import first_order_numbers

__all__ = ["service"]

service = Service(
    "warranty",
    title="Shieldline Product Protection",
    category="warranty",
    modeled_on="Extend Product Protection API 2021-04-01 (products, offers, contracts, claims, refunds)",
    description="Extended warranties for the store's products: protection plans by category and price band, "
    "contracts sold with an order within 30 days of purchase, claims reviewed and fulfilled by repair, "
    "replacement or refund, and pro-rata refunds when a contract is cancelled.",
)

ProductId = Annotated[str, IdOf("warranty.product")]
PlanId = Annotated[str, IdOf("warranty.plan")]
ContractId = Annotated[str, IdOf("warranty.contract")]
ClaimId = Annotated[str, IdOf("warranty.claim")]
Category = Literal["electronics", "office", "home", "outdoor", "apparel"]
ContractStatus = Literal["live", "expired", "cancelled", "fulfilled"]
ClaimStatus = Literal["filed", "approved", "denied", "fulfilled"]
Failure = Literal["mechanical_failure", "electrical_failure", "accidental_damage", "cosmetic", "lost_or_stolen"]
Resolution = Literal["repair", "replace", "refund"]
DenialReason = Literal["not_covered", "outside_coverage_period", "pre_existing", "misuse", "insufficient_evidence"]

SALE_WINDOW_DAYS = 30
"""A contract is sold at most this many days after the purchase."""
FREE_LOOK_DAYS = 30
"""Cancelled within this many days of the sale, a contract is refunded in full."""
COVERED: dict[str, frozenset[str]] = {
    "base": frozenset({"mechanical_failure", "electrical_failure"}),
    "accident": frozenset({"mechanical_failure", "electrical_failure", "accidental_damage"}),
}
"""The failures each coverage type covers; cosmetic damage and loss are never covered."""


class Product(Record):
    """A store product that protection can be sold for."""

    id: ProductId
    sku: Sku
    """The store's SKU (Extend's referenceId)."""
    title: Title
    """Product name."""
    category: Category
    """Product category."""
    price: Cents
    """List price, in cents."""
    manufacturer_warranty_months: int = Field(ge=0, le=60)
    """The manufacturer's own warranty, in months."""
    enabled: bool = True
    """Whether offers are shown for it."""


class Plan(Record):
    """A protection plan: one category, a price band, a term and a coverage type."""

    id: PlanId
    code: Annotated[str, Field(pattern=r"^[A-Z0-9-]{4,40}$")]
    """The plan's code."""
    title: Title
    """Display name."""
    category: Category
    """The product category it covers."""
    min_price: Cents
    """Lowest product price it is sold for, in cents (inclusive)."""
    max_price: Cents
    """Highest product price it is sold for, in cents (inclusive)."""
    term_months: int = Field(ge=1, le=60)
    """Coverage term, in months from the purchase."""
    coverage: Literal["base", "accident"]
    """base: failures; accident: failures and accidental damage."""
    price: Cents
    """What the plan costs, in cents."""


class Contract(Timestamped):
    """A protection contract sold with an order line."""

    id: ContractId
    contract_number: Annotated[str, Generated("sequence", "XT-{n:07d}")]
    """The number the customer quotes."""
    plan_id: PlanId
    """The plan sold."""
    product_id: ProductId
    """The product covered."""
    product_price: Cents
    """What the customer paid for the product, in cents (the limit of liability)."""
    order_number: OrderNumber
    """The store order it was sold with."""
    customer_name: PersonName
    """The customer."""
    customer_email: Email
    """The customer's e-mail address."""
    customer_phone: Phone | None = None
    """The customer's phone number."""
    purchase_date: Date
    """When the product was bought."""
    sold_on: Date
    """When the contract was sold."""
    coverage_start: Date
    """First day covered."""
    coverage_end: Date
    """Last day covered."""
    price: Cents
    """What the contract cost, in cents."""
    status: ContractStatus = "live"
    """live; expired (its term is over); cancelled (refunded); fulfilled (used up by a replacement or refund)."""
    refund_amount: Cents = 0
    """What a cancellation refunded, in cents."""
    cancelled_on: Date | None = None
    """When it was cancelled."""


class Claim(Timestamped):
    """A claim on a contract."""

    id: ClaimId
    contract_id: ContractId
    """The contract."""
    customer_email: Email
    """Who filed it."""
    incident_date: Date
    """When the product failed or was damaged."""
    failure_type: Failure
    """What happened."""
    description: Text
    """The customer's account."""
    status: ClaimStatus = "filed"
    """filed → approved → fulfilled, or filed → denied."""
    approved_amount: Cents = 0
    """The most the fulfilment may cost, in cents."""
    denial_reason: DenialReason | None = None
    """Why it was denied."""
    resolution: Resolution | None = None
    """How it was fulfilled."""
    paid_amount: Cents = 0
    """What the fulfilment cost, in cents."""
    fulfilled_at: DateTime | None = None
    """When it was fulfilled."""


# -- guards -----------------------------------------------------------------------------------


def _guard_contract(ctx: Ctx, new: Any, old: Any) -> None:
    if old.status != "live":
        raise RuleViolation(
            f"contract {old.contract_number} is {old.status} and can no longer be edited",
            field="contract_id",
            hint="only live contracts can change their customer details",
        )


products = service.resource(
    Product,
    name="product",
    plural="products",
    prefix="prd",
    create=False,
    get=False,
    filters=("sku", "category", "enabled"),
    search=("title",),
    delete=False,
    unique=("sku",),
)
plans = service.resource(
    Plan,
    name="plan",
    plural="plans",
    prefix="pln",
    create=False,
    get=False,
    filters=("category", "coverage", "term_months"),
    search=("title",),
    delete=False,
    unique=("code",),
)
contracts = service.resource(
    Contract,
    name="contract",
    plural="contracts",
    prefix="ctr",
    create=False,
    filters=("status", "customer_email", "order_number", "product_id", "plan_id", "contract_number"),
    search=("customer_name",),
    update=("customer_name", "customer_email", "customer_phone"),
    delete=False,
    guard_update=_guard_contract,
)
claims = service.resource(
    Claim,
    name="claim",
    plural="claims",
    prefix="clm",
    create=False,
    filters=("contract_id", "status", "customer_email", "failure_type"),
    delete=False,
)


# -- rules ------------------------------------------------------------------------------------


def _fits(plan: Plan, product: Product, price: int) -> bool:
    return plan.category == product.category and plan.min_price <= price <= plan.max_price


def _covered_left(ctx: Ctx, contract: Contract) -> int:
    paid = sum(c.paid_amount for c in ctx.where(Claim, contract_id=contract.id))
    return max(0, contract.product_price - paid)


def _product_by_sku(ctx: Ctx, sku: str) -> Product:
    product = ctx.first(Product, sku=sku)
    if product is None:
        raise NotFound(f"no product with SKU {sku}", field="sku", hint="list products to find its SKU")
    return product


class Offers(BaseModel):
    """The plans a product can be protected with."""

    sku: Sku = Field(description="The product's SKU.")
    price: Cents = Field(description="The purchase price the offers are for, in cents.")
    plans: list[Plan] = Field(description="Fitting plans, cheapest first.")


@service.tool(
    intent="look up protection plans for a product",
    example=first_example(Product, None, where={"enabled": True}, fields={"sku": "sku"}),
)
def get_offers(ctx: Ctx, sku: Sku, price: Cents | None = None) -> Offers:
    """The plans whose category and price band fit a product.

    Args:
        sku: The product's SKU.
        price: The price the customer pays, in cents (default: the list price).
    """
    product = _product_by_sku(ctx, sku)
    if not product.enabled:
        raise RuleViolation(f"offers are turned off for {sku}", field="sku", hint="no protection can be sold for it")
    paid = product.price if price is None else price
    fitting = sorted(
        (p for p in ctx.where(Plan, category=product.category) if _fits(p, product, paid)), key=lambda p: p.price
    )
    return Offers(sku=sku, price=paid, plans=fitting)


def _sell_example(ctx: Ctx) -> dict[str, Any] | None:
    person = ctx.population.consumers[0]
    for product in ctx.where(Product, enabled=True):
        for plan in ctx.where(Plan, category=product.category):
            if _fits(plan, product, product.price):
                return {
                    "plan_id": plan.id,
                    "sku": product.sku,
                    "order_number": "EX-99001",
                    "customer_name": person.name,
                    "customer_email": person.email,
                    "purchase_date": (ctx.today() - dt.timedelta(days=3)).isoformat(),
                }
    return None


@service.tool(intent="sell a protection plan with the order", write=True, example=_sell_example)
def create_contract(
    ctx: Ctx,
    plan_id: PlanId,
    sku: Sku,
    order_number: OrderNumber,
    customer_name: PersonName,
    customer_email: Email,
    purchase_date: Date,
    product_price: Cents | None = None,
    customer_phone: Phone | None = None,
) -> Contract:
    """Sell a contract for one order line.

    The purchase must be at most 30 days ago and not in the future; the plan's
    category and price band must fit the product; an order line is protected
    once.

    Args:
        plan_id: The plan.
        sku: The product's SKU.
        order_number: The store order.
        customer_name: The customer.
        customer_email: The customer's e-mail address.
        purchase_date: When the product was bought.
        product_price: What was paid for it, in cents (default: the list price).
        customer_phone: The customer's phone number.
    """
    plan = ctx.get(Plan, plan_id, field="plan_id")
    product = _product_by_sku(ctx, sku)
    today = ctx.today()
    if purchase_date > today:
        raise RuleViolation("the purchase date is in the future", field="purchase_date", hint="give the order date")
    if (today - purchase_date).days > SALE_WINDOW_DAYS:
        raise RuleViolation(
            f"protection can be bought within {SALE_WINDOW_DAYS} days of purchase; this was "
            f"{(today - purchase_date).days} days ago",
            field="purchase_date",
            hint="the product can no longer be protected",
        )
    paid = product.price if product_price is None else product_price
    if not _fits(plan, product, paid):
        raise RuleViolation(
            f"plan {plan.code} covers {plan.category} from {plan.min_price} to {plan.max_price} cents; "
            f"{product.title} is {product.category} at {paid}",
            field="plan_id",
            hint="pick a plan from warranty__get_offers",
        )
    for other in ctx.where(Contract, order_number=order_number, product_id=product.id):
        if other.status != "cancelled":
            raise Conflict(
                f"order {order_number} already protects {sku} with contract {other.contract_number}",
                field="order_number",
                hint="an order line is protected once",
            )
    return ctx.create(
        Contract,
        plan_id=plan.id,
        product_id=product.id,
        product_price=paid,
        order_number=order_number,
        customer_name=customer_name,
        customer_email=customer_email,
        customer_phone=customer_phone,
        purchase_date=purchase_date,
        sold_on=today,
        coverage_start=purchase_date,
        coverage_end=add_months(purchase_date, plan.term_months) - dt.timedelta(days=1),
        price=plan.price,
    )


def refund_for(contract: Contract, on: dt.date) -> int:
    """The refund of cancelling ``contract`` on ``on``: all of it within 30 days of the sale, else the unused share."""
    if (on - contract.sold_on).days <= FREE_LOOK_DAYS:
        return contract.price
    total = (contract.coverage_end - contract.coverage_start).days + 1
    left = max(0, (contract.coverage_end - on).days)
    return contract.price * left // total


@service.tool(
    intent="cancel the protection contract and refund it",
    write=True,
    destructive=True,
    example=first_example(
        Contract,
        "contract_id",
        where={"status": "live"},
        match=lambda c, r: not any(cl.status != "denied" for cl in c.where(Claim, contract_id=r.id)),
    ),
)
def cancel_contract(ctx: Ctx, contract_id: ContractId) -> Contract:
    """Cancel a live contract: a full refund within 30 days of the sale, else pro rata to the days left.

    Args:
        contract_id: The contract.
    """
    contract = ctx.get(Contract, contract_id, field="contract_id")
    if contract.status != "live":
        raise RuleViolation(
            f"contract {contract.contract_number} is {contract.status}", field="contract_id", hint="nothing to refund"
        )
    used = [c for c in ctx.where(Claim, contract_id=contract.id) if c.status != "denied"]
    if used:
        raise RuleViolation(
            f"contract {contract.contract_number} has claim {used[0].id} ({used[0].status})",
            field="contract_id",
            hint="contracts with open or paid claims cannot be cancelled",
        )
    today = ctx.today()
    return ctx.update(contract, status="cancelled", refund_amount=refund_for(contract, today), cancelled_on=today)


# -- claims -----------------------------------------------------------------------------------


def _file_example(ctx: Ctx) -> dict[str, Any] | None:
    for contract in ctx.where(Contract, status="live"):
        if contract.coverage_end >= ctx.today() and not any(
            c.status in ("filed", "approved") for c in ctx.where(Claim, contract_id=contract.id)
        ):
            return {
                "contract_id": contract.id,
                "incident_date": ctx.today().isoformat(),
                "failure_type": "mechanical_failure",
                "description": "Stopped turning on after a week.",
            }
    return None


@service.tool(intent="file a warranty claim", write=True, example=_file_example)
def file_claim(
    ctx: Ctx, contract_id: ContractId, incident_date: Date, failure_type: Failure, description: Text
) -> Claim:
    """File a claim on a live contract for an incident inside its coverage period.

    Args:
        contract_id: The contract.
        incident_date: When the product failed or was damaged.
        failure_type: What happened.
        description: What happened, in the customer's words.
    """
    contract = ctx.get(Contract, contract_id, field="contract_id")
    if contract.status != "live":
        raise RuleViolation(
            f"contract {contract.contract_number} is {contract.status}",
            field="contract_id",
            hint="claims can only be filed on live contracts",
        )
    today = ctx.today()
    if contract.coverage_end < today:
        raise RuleViolation(
            f"contract {contract.contract_number} expired on {contract.coverage_end}",
            field="contract_id",
            hint="the product is no longer covered",
        )
    if incident_date > today or incident_date < contract.coverage_start:
        raise RuleViolation(
            f"the incident must fall between {contract.coverage_start} and today",
            field="incident_date",
            hint="give the date the product failed",
        )
    plan = ctx.get(Plan, contract.plan_id)
    if failure_type not in COVERED[plan.coverage]:
        raise RuleViolation(
            f"plan {plan.code} ({plan.coverage} coverage) does not cover {failure_type.replace('_', ' ')}",
            field="failure_type",
            hint="accidental damage needs an accident plan; cosmetic damage and loss are never covered",
        )
    for other in ctx.where(Claim, contract_id=contract.id):
        if other.status in ("filed", "approved"):
            raise Conflict(
                f"contract {contract.contract_number} already has open claim {other.id}",
                field="contract_id",
                hint="wait for that claim to be fulfilled or denied",
            )
    return ctx.create(
        Claim,
        contract_id=contract.id,
        customer_email=contract.customer_email,
        incident_date=incident_date,
        failure_type=failure_type,
        description=description,
    )


def _filed(ctx: Ctx, claim_id: str, want: str) -> Claim:
    claim = ctx.get(Claim, claim_id, field="claim_id")
    if claim.status != want:
        raise RuleViolation(
            f"claim {claim.id} is {claim.status}, not {want}", field="claim_id", hint="list claims by status"
        )
    return claim


@service.tool(
    intent="approve the warranty claim",
    write=True,
    example=first_example(Claim, "claim_id", where={"status": "filed"}, approved_amount=5000),
)
def approve_claim(ctx: Ctx, claim_id: ClaimId, approved_amount: Cents) -> Claim:
    """Approve a filed claim up to an amount, at most what the contract still covers.

    Args:
        claim_id: The filed claim.
        approved_amount: The most its fulfilment may cost, in cents.
    """
    claim = _filed(ctx, claim_id, "filed")
    contract = ctx.get(Contract, claim.contract_id)
    left = _covered_left(ctx, contract)
    if approved_amount == 0 or approved_amount > left:
        raise RuleViolation(
            f"contract {contract.contract_number} covers {left} more cents (purchase price less paid claims)",
            field="approved_amount",
            hint=f"approve between 1 and {left} cents",
        )
    return ctx.update(claim, status="approved", approved_amount=approved_amount)


@service.tool(
    intent="deny the warranty claim",
    write=True,
    example=first_example(Claim, "claim_id", where={"status": "filed"}, reason="insufficient_evidence"),
)
def deny_claim(ctx: Ctx, claim_id: ClaimId, reason: DenialReason) -> Claim:
    """Deny a filed claim with a reason.

    Args:
        claim_id: The filed claim.
        reason: Why it is denied.
    """
    claim = _filed(ctx, claim_id, "filed")
    return ctx.update(claim, status="denied", denial_reason=reason)


@service.tool(
    intent="fulfil the approved warranty claim",
    write=True,
    example=first_example(
        Claim, "claim_id", where={"status": "approved"}, fields={"amount": "approved_amount"}, resolution="repair"
    ),
)
def fulfill_claim(ctx: Ctx, claim_id: ClaimId, resolution: Resolution, amount: Cents) -> Claim:
    """Fulfil an approved claim by repair, replacement or refund, costing at most the approved amount.

    A replacement or refund uses the contract up.

    Args:
        claim_id: The approved claim.
        resolution: repair, replace or refund.
        amount: What the fulfilment cost, in cents.
    """
    claim = _filed(ctx, claim_id, "approved")
    if amount > claim.approved_amount:
        raise RuleViolation(
            f"claim {claim.id} is approved for {claim.approved_amount} cents",
            field="amount",
            hint="fulfil within the approved amount or file a new claim",
        )
    done = ctx.update(claim, status="fulfilled", resolution=resolution, paid_amount=amount, fulfilled_at=ctx.now())
    if resolution in ("replace", "refund"):
        ctx.update(ctx.get(Contract, claim.contract_id), status="fulfilled")
    return done


# -- seed -------------------------------------------------------------------------------------

_BANDS = ((0, 4999), (5000, 14999), (15000, 49999), (50000, 199999))
_TERMS = ((12, "base", 8), (24, "base", 13), (24, "accident", 19), (36, "accident", 24))
"""Term, coverage and price as a percent of the band's top."""


@service.seeder
def seed(s: SeedContext) -> None:
    """The population's products, plans per category and band, contracts for orders, claims in every state."""
    pop = s.population
    today = s.now.date()
    products = [
        s.create(
            Product,
            sku=p.sku,
            title=p.name,
            category=p.category,
            price=p.price_cents,
            manufacturer_warranty_months=12 if p.category in ("electronics", "home") else 0,
            enabled=p.category != "apparel",
        )
        for p in pop.products
    ]
    plans: list[Plan] = []
    for category in ("electronics", "office", "home", "outdoor"):
        for b, (lo, hi) in enumerate(_BANDS):
            for months, coverage, pct in _TERMS:
                if coverage == "accident" and category == "office":
                    continue
                plans.append(
                    s.create(
                        Plan,
                        code=f"{category[:3].upper()}-{b + 1}-{months}{coverage[0].upper()}",
                        title=f"{category.title()} {months}-month {'accident' if coverage == 'accident' else 'base'} "
                        f"protection",
                        category=category,
                        min_price=lo,
                        max_price=hi,
                        term_months=months,
                        coverage=coverage,
                        price=max(499, (hi + 1) * pct // 100 // 100 * 100 - 1),
                    )
                )
    orders = first_order_numbers(pop)
    buyers = [p for p in pop.consumers if p.email in orders]
    sellable = [p for p in products if p.enabled]
    plan_days = (5, 20, 45, 200, 400, 800, 10, 90)
    for k, person in enumerate(buyers[:8]):
        product = sellable[(k * 5) % len(sellable)]
        fitting = [p for p in plans if _fits(p, product, product.price)]
        if not fitting:
            continue
        plan = fitting[k % len(fitting)]
        bought = today - dt.timedelta(days=plan_days[k])
        ends = add_months(bought, plan.term_months) - dt.timedelta(days=1)
        contract = s.create(
            Contract,
            plan_id=plan.id,
            product_id=product.id,
            product_price=product.price,
            order_number=orders[person.email],
            customer_name=person.name,
            customer_email=person.email,
            customer_phone=person.phone,
            purchase_date=bought,
            sold_on=bought + dt.timedelta(days=min(plan_days[k], 2)),
            coverage_start=bought,
            coverage_end=ends,
            price=plan.price,
            status="cancelled" if k == 7 else "expired" if ends < today else "live",
            refund_amount=plan.price if k == 7 else 0,
            cancelled_on=today - dt.timedelta(days=30) if k == 7 else None,
        )
        _seed_claim(s, contract, k, today)


def _seed_claim(s: SeedContext, contract: Contract, k: int, today: dt.date) -> None:
    states: dict[int, ClaimStatus] = {0: "denied", 1: "filed", 2: "approved", 6: "fulfilled"}
    status = states.get(k)
    if status is None or contract.coverage_end < today:
        return
    amount = contract.product_price // 3
    s.create(
        Claim,
        contract_id=contract.id,
        customer_email=contract.customer_email,
        incident_date=today - dt.timedelta(days=3),
        failure_type="mechanical_failure" if status != "denied" else "cosmetic",
        description="Screen flickers and then goes dark." if status != "denied" else "Scratches on the housing.",
        status=status,
        approved_amount=amount if status in ("approved", "fulfilled") else 0,
        denial_reason="not_covered" if status == "denied" else None,
        resolution="repair" if status == "fulfilled" else None,
        paid_amount=amount if status == "fulfilled" else 0,
        fulfilled_at=s.now - dt.timedelta(days=1) if status == "fulfilled" else None,
    )
