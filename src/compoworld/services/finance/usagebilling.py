"""Meterline: usage-based billing: metered events, billable metrics, rate cards, contracts, credits and invoices.

Modeled on the Metronome API (with Orb's conventions): customers with ingest
aliases, billable metrics that aggregate usage events (COUNT, SUM, MAX or
UNIQUE of a property) of one event type, usage events ingested with a
transaction_id that makes ingestion idempotent (a repeated id is
deduplicated, not counted twice), rate cards whose rates price a metric per
unit above a free allowance, contracts that put a customer on a rate card for
a span of time, commits (prepaid) and credits (free) that draw down the
charges, and monthly invoices: a DRAFT that follows usage while the period is
open, FINALIZED once the period has ended (credits are drawn first, then
commits, earliest expiry first), and VOID (drawdowns restored).

Rules: SUM, MAX and UNIQUE metrics need an aggregation key and COUNT takes
none; a metric priced on a live rate card cannot be archived; a customer's
contracts may not overlap, and an end date is the first of a month; events
may not be in the future nor in a finalized period; an invoice is finalized
only after its period ends.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable
from typing import Annotated, Any, Literal

from pydantic import Field, StringConstraints

from compoworld.engine.context import Ctx
from compoworld.engine.errors import Conflict, RuleViolation
from compoworld.engine.records import CREATED, UPDATED, Record
from compoworld.engine.service import Service, Transition
from compoworld.engine.state import SeedContext
from compoworld.engine.types import Cents, CompanyName, Date, DateTime, Email, IdOf, Title
from compoworld.services.kit.examples import first_example
from compoworld.services.kit.records import Value
from compoworld.services.kit.time import add_months, utc_at

__all__ = ["service"]

service = Service(
    "usagebilling",
    title="Meterline",
    category="usage_billing",
    modeled_on="Metronome API (customers, billable metrics, usage ingest with transaction_id, rate cards, "
    "contracts, commits and credits, draft/finalized invoices), with Orb's conventions",
    description="Usage-based billing for the company's API and cloud products: the customers and the aliases "
    "their usage arrives under, billable metrics over usage events, ingested events, rate cards and the "
    "contracts that put customers on them, prepaid commits and free credits, and the monthly invoices.",
)

CustomerId = Annotated[str, IdOf("usagebilling.customer")]
MetricId = Annotated[str, IdOf("usagebilling.metric")]
EventId = Annotated[str, IdOf("usagebilling.event")]
RateCardId = Annotated[str, IdOf("usagebilling.rate_card")]
ContractId = Annotated[str, IdOf("usagebilling.contract")]
BalanceId = Annotated[str, IdOf("usagebilling.balance")]
InvoiceId = Annotated[str, IdOf("usagebilling.invoice")]

Alias = Annotated[str, StringConstraints(pattern=r"^[a-z0-9][a-z0-9._-]{1,63}$")]
"""An ingest alias: the id usage events name the customer by."""
EventType = Annotated[str, StringConstraints(pattern=r"^[a-z][a-z0-9_]{1,40}$")]
"""A usage event's type, e.g. api_request."""
TransactionId = Annotated[str, StringConstraints(pattern=r"^[A-Za-z0-9_.:-]{1,128}$")]
"""The idempotency key of a usage event."""
PropKey = Annotated[str, StringConstraints(pattern=r"^[a-z][a-z0-9_]{0,40}$")]

Aggregation = Literal["COUNT", "SUM", "MAX", "UNIQUE"]
InvoiceStatus = Literal["DRAFT", "FINALIZED", "VOID"]
BalanceType = Literal["credit", "commit"]
FUTURE_SLACK = dt.timedelta(minutes=5)


class Customer(Record):
    """A customer billed for usage."""

    id: CustomerId
    name: CompanyName
    """The customer's company name."""
    ingest_alias: Alias
    """The id its usage events carry (unique)."""
    billing_email: Email
    """Where invoices go."""
    status: Literal["active", "archived"] = "active"
    """active or archived."""
    created_at: Annotated[DateTime, CREATED]
    """When it was added."""


class Metric(Record):
    """A billable metric: how usage events of one type are aggregated."""

    id: MetricId
    name: Title
    """Its name (unique)."""
    event_type: EventType
    """The events it aggregates."""
    aggregation: Aggregation
    """COUNT, SUM, MAX or UNIQUE."""
    aggregation_key: PropKey | None = None
    """The property summed, maxed or counted distinct (none for COUNT)."""
    status: Literal["active", "archived"] = "active"
    """active or archived."""


class Event(Record):
    """One usage event."""

    id: EventId
    transaction_id: TransactionId
    """Its idempotency key (unique)."""
    customer_id: CustomerId
    """The customer it was resolved to."""
    event_type: EventType
    """Its type."""
    timestamp: DateTime
    """When the usage happened."""
    properties: dict[PropKey, float | str] = Field(default_factory=dict)
    """Its properties (numbers or text)."""


class Rate(Value):
    """The price of one metric on a rate card."""

    metric_id: MetricId
    unit_price: Annotated[float, Field(ge=0, le=1_000_000)]
    """Cents per unit (fractions allowed)."""
    free_units: Annotated[int, Field(ge=0)] = 0
    """Units per month included free."""


class RateCard(Record):
    """A price list of metrics."""

    id: RateCardId
    name: Title
    """Its name (unique)."""
    rates: tuple[Rate, ...] = ()
    """The priced metrics."""
    created_at: Annotated[DateTime, CREATED]
    """When it was made."""


class Contract(Record):
    """A customer's agreement to be billed on a rate card for a span of time."""

    id: ContractId
    customer_id: CustomerId
    """The customer."""
    rate_card_id: RateCardId
    """The rate card."""
    starting_at: Date
    """First day."""
    ending_before: Date | None = None
    """The day it ends (none: open-ended)."""
    status: Literal["active", "ended"] = "active"
    """active, or ended once its end date has passed."""
    created_at: Annotated[DateTime, CREATED]
    """When it was signed."""


class Balance(Record):
    """A commit (prepaid money) or credit (free money) that draws down a contract's charges."""

    id: BalanceId
    contract_id: ContractId
    """The contract."""
    type: BalanceType
    """credit or commit."""
    name: Title
    """What it is (e.g. Q1 prepaid commit)."""
    amount: Cents
    """Granted amount."""
    remaining: Cents
    """Not yet drawn."""
    starting_at: Date
    """First day it applies."""
    ending_before: Date
    """The day it expires."""
    created_at: Annotated[DateTime, CREATED]
    """When it was granted."""


class LineItem(Value):
    """A metric's charge on an invoice."""

    metric_id: MetricId
    name: str
    quantity: float
    """Aggregated usage."""
    billable: float
    """Usage above the free units."""
    unit_price: float
    amount: int
    """Cents."""


class Drawdown(Value):
    """What a balance paid of an invoice."""

    balance_id: BalanceId
    amount: int
    """Cents."""


class Invoice(Record):
    """A monthly usage invoice of a contract."""

    id: InvoiceId
    customer_id: CustomerId
    """The customer."""
    contract_id: ContractId
    """The contract."""
    period_start: Date
    """First day of the month billed."""
    period_end: Date
    """First day after it."""
    status: InvoiceStatus = "DRAFT"
    """DRAFT, FINALIZED or VOID."""
    line_items: tuple[LineItem, ...] = ()
    """Charges per metric."""
    subtotal: Cents = 0
    """Sum of the charges."""
    drawdowns: tuple[Drawdown, ...] = ()
    """Credits and commits applied (at finalization)."""
    total: Cents = 0
    """What the customer owes."""
    finalized_at: DateTime | None = None
    """When it was finalized."""
    updated_at: Annotated[DateTime, UPDATED]
    """When it last changed."""


class Usage(Value):
    """A metric's aggregated usage for a customer over a window."""

    metric_id: MetricId
    name: str
    aggregation: Aggregation
    value: float


# -- aggregation and pricing ------------------------------------------------------------------


def aggregate(metric: Metric, events: Iterable[Event]) -> float:
    """The metric's value over events (only its event type counts)."""
    mine = [e for e in events if e.event_type == metric.event_type]
    if metric.aggregation == "COUNT":
        return float(len(mine))
    key = metric.aggregation_key or ""
    values = [e.properties[key] for e in mine if key in e.properties]
    if metric.aggregation == "UNIQUE":
        return float(len({str(v) for v in values}))
    nums = []
    for v in values:
        try:
            nums.append(float(v))
        except ValueError:
            continue
    return round(sum(nums), 6) if metric.aggregation == "SUM" else max(nums, default=0.0)


def price(card: RateCard, metrics: dict[str, Metric], events: list[Event]) -> tuple[tuple[LineItem, ...], int]:
    """Invoice lines and subtotal for a month of events on a rate card."""
    lines = []
    for rate in card.rates:
        metric = metrics[rate.metric_id]
        qty = aggregate(metric, events)
        billable = max(0.0, qty - rate.free_units)
        amount = round(billable * rate.unit_price)
        lines.append(
            LineItem(
                metric_id=metric.id,
                name=metric.name,
                quantity=qty,
                billable=billable,
                unit_price=rate.unit_price,
                amount=amount,
            )
        )
    return tuple(lines), sum(line.amount for line in lines)


def _month(day: dt.date) -> tuple[dt.date, dt.date]:
    start = day.replace(day=1)
    return start, add_months(start, 1)


def _events_in(ctx: Ctx, customer_id: str, start: dt.date, end: dt.date) -> list[Event]:
    lo, hi = utc_at(start), utc_at(end)
    return [e for e in ctx.where(Event, customer_id=customer_id) if lo <= e.timestamp < hi]


def _metrics(ctx: Ctx) -> dict[str, Metric]:
    return {m.id: m for m in ctx.scan(Metric)}


# -- guards -----------------------------------------------------------------------------------


def _guard_metric(ctx: Ctx, new: Any, old: Any) -> None:
    if old is None:
        if new.aggregation == "COUNT" and new.aggregation_key is not None:
            raise RuleViolation("a COUNT metric takes no aggregation_key", field="aggregation_key", hint="omit it")
        if new.aggregation != "COUNT" and new.aggregation_key is None:
            why = f"a {new.aggregation} metric needs an aggregation_key"
            raise RuleViolation(why, field="aggregation_key", hint="name the event property to aggregate")
        return
    if new.status == "archived":
        live = {c.rate_card_id for c in ctx.where(Contract, status="active")}
        for card in ctx.scan(RateCard):
            if card.id in live and any(r.metric_id == new.id for r in card.rates):
                why = f"rate card {card.name!r} of an active contract prices this metric"
                raise Conflict(why, field="metric_id", hint="remove the rate or end the contracts first")


def _guard_card(ctx: Ctx, new: Any, old: Any) -> None:
    seen = set()
    for rate in new.rates:
        metric = ctx.get(Metric, rate.metric_id, field="rates")
        if metric.status != "active" or metric.id in seen:
            why = f"metric {metric.id} is archived or priced twice"
            raise RuleViolation(why, field="rates", hint="price each active metric once")
        seen.add(metric.id)


customers = service.resource(
    Customer,
    name="customer",
    plural="customers",
    prefix="cus",
    create=False,
    filters=("status", "ingest_alias", "billing_email"),
    search=("name",),
    update=("name", "billing_email"),
    delete=False,
    unique=("ingest_alias",),
    transitions={"archive": Transition("status", ("active",), "archived", "archive the customer")},
)
metrics = service.resource(
    Metric,
    name="metric",
    plural="metrics",
    prefix="bm",
    create=False,
    filters=("event_type", "aggregation", "status"),
    search=("name",),
    delete=False,
    unique=("name",),
    guard_create=_guard_metric,
    guard_update=_guard_metric,
    transitions={"archive": Transition("status", ("active",), "archived", "archive the billable metric")},
    title="billable metric",
)
events = service.resource(
    Event,
    name="event",
    plural="events",
    prefix="evt",
    create=False,
    filters=("customer_id", "event_type", "transaction_id"),
    delete=False,
    title="usage event",
)
rate_cards = service.resource(
    RateCard,
    name="rate_card",
    plural="rate_cards",
    prefix="rc",
    create=("name", "rates"),
    filters=(),
    search=("name",),
    update=("name", "rates"),
    delete=False,
    unique=("name",),
    guard_create=_guard_card,
    guard_update=_guard_card,
)
contracts = service.resource(
    Contract,
    name="contract",
    plural="contracts",
    prefix="ctr",
    create=False,
    filters=("customer_id", "rate_card_id", "status"),
    delete=False,
)
balances = service.resource(
    Balance,
    name="balance",
    plural="balances",
    prefix="bal",
    create=False,
    filters=("contract_id", "type"),
    search=("name",),
    delete=False,
    title="commit or credit",
)
invoices = service.resource(
    Invoice,
    name="invoice",
    plural="invoices",
    prefix="inv",
    create=False,
    filters=("customer_id", "contract_id", "status", "period_start"),
    delete=False,
)


# -- customers and metrics -------------------------------------------------------------------


def _example_customer(ctx: Ctx) -> dict[str, Any] | None:
    company = ctx.population.customers[-1]
    return {
        "name": company.name,
        "ingest_alias": f"{company.domain.split('.')[0].lower()[:40]}-new",
        "billing_email": f"ap@{company.domain}",
    }


@service.tool(intent="add the customer", write=True, example=_example_customer)
def create_customer(ctx: Ctx, name: CompanyName, ingest_alias: Alias, billing_email: Email) -> Customer:
    """Add a customer whose usage events will name it by its ingest alias (unique).

    Args:
        name: The company's name.
        ingest_alias: The id its events carry, e.g. its account slug.
        billing_email: Where invoices go.
    """
    if ctx.first(Customer, ingest_alias=ingest_alias) is not None:
        raise Conflict(f"alias {ingest_alias} is taken", field="ingest_alias", hint="pick another ingest alias")
    return ctx.create(Customer, name=name, ingest_alias=ingest_alias, billing_email=billing_email)


@service.tool(
    intent="define the billable metric",
    write=True,
    example=lambda ctx: {
        "name": f"GPU minutes {ctx.rng.randint(1, 999)}",
        "event_type": "gpu_job",
        "aggregation": "SUM",
        "aggregation_key": "minutes",
    },
)
def create_metric(
    ctx: Ctx, name: Title, event_type: EventType, aggregation: Aggregation, aggregation_key: PropKey | None = None
) -> Metric:
    """Define a billable metric over one event type (names are unique).

    Args:
        name: Its name.
        event_type: The events it aggregates.
        aggregation: COUNT, SUM, MAX or UNIQUE.
        aggregation_key: The property SUM, MAX and UNIQUE aggregate; none for COUNT.
    """
    key = aggregation_key
    made = ctx.create(Metric, name=name, event_type=event_type, aggregation=aggregation, aggregation_key=key)
    _guard_metric(ctx, made, None)
    return made


# -- usage ------------------------------------------------------------------------------------


def _example_ingest(ctx: Ctx) -> dict[str, Any] | None:
    cus = ctx.first(Customer, status="active")
    if cus is None:
        return None
    return {
        "customer_alias": cus.ingest_alias,
        "event_type": "api_request",
        "timestamp": ctx.now().isoformat(),
        "transaction_id": f"tx-{ctx.rng.randint(10**6, 10**7)}",
        "properties": {"endpoint": "/v1/search"},
    }


@service.tool(intent="record the usage event", write=True, idempotent=True, example=_example_ingest)
def ingest_event(
    ctx: Ctx,
    customer_alias: Alias,
    event_type: EventType,
    transaction_id: TransactionId,
    timestamp: DateTime,
    properties: dict[PropKey, float | str] | None = None,
) -> Event:
    """Ingest one usage event; a transaction_id already ingested is deduplicated (the first event is returned).

    Args:
        customer_alias: The customer's ingest alias.
        event_type: The event's type (e.g. api_request).
        transaction_id: Idempotency key: the same key is counted once.
        timestamp: When the usage happened (not in the future, not in a finalized period).
        properties: The event's properties, e.g. {"cpu_hours": 2.5}.
    """
    seen = ctx.first(Event, transaction_id=transaction_id)
    if seen is not None:
        return seen
    cus = ctx.first(Customer, ingest_alias=customer_alias)
    if cus is None or cus.status != "active":
        why = f"no active customer has the ingest alias {customer_alias}"
        raise RuleViolation(why, field="customer_alias", hint="list customers with usagebilling__list_customers")
    if timestamp > ctx.now() + FUTURE_SLACK:
        raise RuleViolation("the event is in the future", field="timestamp", hint="send events once they happen")
    day = timestamp.date()
    for inv in ctx.where(Invoice, customer_id=cus.id, status="FINALIZED"):
        if inv.period_start <= day < inv.period_end:
            why = f"the period {inv.period_start}..{inv.period_end} is already invoiced ({inv.id})"
            raise RuleViolation(why, field="timestamp", hint="void the invoice to bill late usage")
    return ctx.create(
        Event,
        transaction_id=transaction_id,
        customer_id=cus.id,
        event_type=event_type,
        timestamp=timestamp,
        properties=properties or {},
    )


@service.tool(
    intent="show the customer's usage",
    example=first_example(Customer, "customer_id", starting_on="2026-02-01", ending_before="2026-03-01"),
)
def get_usage(ctx: Ctx, customer_id: CustomerId, starting_on: Date, ending_before: Date) -> list[Usage]:
    """A customer's usage per active billable metric over a window.

    Args:
        customer_id: The customer.
        starting_on: First day.
        ending_before: The day after the last.
    """
    ctx.get(Customer, customer_id, field="customer_id")
    if ending_before <= starting_on:
        raise RuleViolation("ending_before must be after starting_on", field="ending_before", hint="widen the window")
    found = _events_in(ctx, customer_id, starting_on, ending_before)
    return [
        Usage(metric_id=m.id, name=m.name, aggregation=m.aggregation, value=aggregate(m, found))
        for m in ctx.where(Metric, status="active")
    ]


# -- contracts and balances -------------------------------------------------------------------


def _example_contract(ctx: Ctx) -> dict[str, Any] | None:
    card = ctx.first(RateCard)
    for cus in ctx.where(Customer, status="active"):
        if card is not None and not ctx.where(Contract, customer_id=cus.id, status="active"):
            return {"customer_id": cus.id, "rate_card_id": card.id, "starting_at": ctx.today().isoformat()}
    return None


@service.tool(intent="put the customer on a contract", write=True, example=_example_contract)
def create_contract(
    ctx: Ctx, customer_id: CustomerId, rate_card_id: RateCardId, starting_at: Date, ending_before: Date | None = None
) -> Contract:
    """Start a contract that bills a customer's usage on a rate card; a customer's contracts may not overlap.

    Args:
        customer_id: The customer.
        rate_card_id: The rate card.
        starting_at: First day (the first of a month at the latest a month back).
        ending_before: The day it ends; omit for open-ended.
    """
    cus = ctx.get(Customer, customer_id, field="customer_id")
    card = ctx.get(RateCard, rate_card_id, field="rate_card_id")
    if cus.status != "active":
        raise RuleViolation("the customer is archived", field="customer_id", hint="pick an active customer")
    if not card.rates:
        raise RuleViolation("the rate card prices nothing", field="rate_card_id", hint="add rates to it first")
    if ending_before is not None and ending_before <= starting_at:
        raise RuleViolation("ending_before must be after starting_at", field="ending_before", hint="move it later")
    for current in ctx.where(Contract, customer_id=cus.id, status="active"):
        if current.ending_before is None or current.ending_before > starting_at:
            why = f"active contract {current.id} runs until {current.ending_before or 'further notice'}"
            raise Conflict(why, field="customer_id", hint="end it with usagebilling__end_contract, start after it")
    return ctx.create(
        Contract, customer_id=cus.id, rate_card_id=card.id, starting_at=starting_at, ending_before=ending_before
    )


@service.tool(
    intent="end the contract",
    write=True,
    example=first_example(Contract, "contract_id", where={"status": "active"}, ending_before="2026-04-01"),
)
def end_contract(ctx: Ctx, contract_id: ContractId, ending_before: Date) -> Contract:
    """Set the day an active contract ends (a month boundary after today); it bills until then.

    Args:
        contract_id: The contract.
        ending_before: The first of a month after today.
    """
    ctr = ctx.get(Contract, contract_id, field="contract_id")
    if ctr.status != "active":
        raise Conflict("the contract has ended", field="contract_id", hint="nothing to do")
    if ending_before.day != 1 or ending_before <= ctx.today():
        why = "contracts end on the first of a month after today"
        raise RuleViolation(why, field="ending_before", hint=f"e.g. {_month(ctx.today())[1]}")
    return ctx.update(ctr, ending_before=ending_before)


@service.tool(
    intent="grant the credit or commit",
    write=True,
    example=first_example(
        Contract,
        "contract_id",
        where={"status": "active"},
        type="credit",
        name="Goodwill credit",
        amount=50000,
        starting_at="2026-03-01",
        ending_before="2026-12-01",
    ),
)
def add_balance(
    ctx: Ctx,
    contract_id: ContractId,
    type: BalanceType,
    name: Title,
    amount: Annotated[int, Field(ge=100, le=10**10)],
    starting_at: Date,
    ending_before: Date,
) -> Balance:
    """Add a free credit or a prepaid commit to an active contract; it draws down invoices while it applies.

    Args:
        contract_id: The contract.
        type: credit (free) or commit (prepaid).
        name: What it is.
        amount: Cents.
        starting_at: First day it applies.
        ending_before: The day it expires (after today and after starting_at).
    """
    ctr = ctx.get(Contract, contract_id, field="contract_id")
    if ctr.status != "active":
        raise RuleViolation("the contract has ended", field="contract_id", hint="use an active contract")
    if ending_before <= max(starting_at, ctx.today()):
        why = "ending_before must be after starting_at and after today"
        raise RuleViolation(why, field="ending_before", hint="pick a later expiry")
    return ctx.create(
        Balance,
        contract_id=ctr.id,
        type=type,
        name=name,
        amount=amount,
        remaining=amount,
        starting_at=starting_at,
        ending_before=ending_before,
    )


# -- invoices ---------------------------------------------------------------------------------


@service.tool(
    intent="refresh the draft invoice",
    write=True,
    example=first_example(Contract, "contract_id", where={"status": "active"}),
)
def refresh_draft_invoice(ctx: Ctx, contract_id: ContractId) -> Invoice:
    """Create or recompute the current month's DRAFT invoice of an active contract from its usage so far.

    Args:
        contract_id: The contract.
    """
    ctr = ctx.get(Contract, contract_id, field="contract_id")
    if ctr.status != "active":
        raise RuleViolation("the contract has ended", field="contract_id", hint="only active contracts bill")
    start, end = _month(ctx.today())
    card = ctx.get(RateCard, ctr.rate_card_id)
    lines, subtotal = price(card, _metrics(ctx), _events_in(ctx, ctr.customer_id, start, end))
    inv = ctx.first(Invoice, contract_id=ctr.id, period_start=start, status="DRAFT")
    if inv is None:
        return ctx.create(
            Invoice,
            customer_id=ctr.customer_id,
            contract_id=ctr.id,
            period_start=start,
            period_end=end,
            line_items=lines,
            subtotal=subtotal,
            total=subtotal,
        )
    return ctx.update(inv, line_items=lines, subtotal=subtotal, total=subtotal)


@service.tool(
    intent="finalize the invoice",
    write=True,
    example=first_example(Invoice, "invoice_id", where={"status": "DRAFT", "period_start": dt.date(2026, 2, 1)}),
)
def finalize_invoice(ctx: Ctx, invoice_id: InvoiceId) -> Invoice:
    """Finalize a DRAFT invoice whose period has ended: usage is priced, credits then commits are drawn down.

    Args:
        invoice_id: The invoice.
    """
    inv = ctx.get(Invoice, invoice_id, field="invoice_id")
    if inv.status != "DRAFT":
        raise Conflict(f"the invoice is {inv.status}", field="invoice_id", hint="only DRAFT invoices are finalized")
    if inv.period_end > ctx.today():
        why = f"the period runs until {inv.period_end}"
        raise RuleViolation(why, field="invoice_id", hint="finalize it once the period has ended")
    ctr = ctx.get(Contract, inv.contract_id)
    card = ctx.get(RateCard, ctr.rate_card_id)
    lines, subtotal = price(card, _metrics(ctx), _events_in(ctx, inv.customer_id, inv.period_start, inv.period_end))
    left, drawn = subtotal, []
    usable = [
        b
        for b in ctx.where(Balance, contract_id=ctr.id)
        if b.remaining and b.starting_at < inv.period_end and b.ending_before > inv.period_start
    ]
    for bal in sorted(usable, key=lambda b: (b.type != "credit", b.ending_before, b.id)):
        take = min(left, bal.remaining)
        if take:
            ctx.update(bal, remaining=bal.remaining - take)
            drawn.append(Drawdown(balance_id=bal.id, amount=take))
            left -= take
    return ctx.update(
        inv,
        status="FINALIZED",
        line_items=lines,
        subtotal=subtotal,
        drawdowns=tuple(drawn),
        total=left,
        finalized_at=ctx.now(),
    )


@service.tool(
    intent="void the invoice",
    write=True,
    destructive=True,
    example=first_example(Invoice, "invoice_id", where={"status": "FINALIZED"}),
)
def void_invoice(ctx: Ctx, invoice_id: InvoiceId) -> Invoice:
    """Void a FINALIZED invoice: the credits and commits it drew are restored and its period reopens.

    Args:
        invoice_id: The invoice.
    """
    inv = ctx.get(Invoice, invoice_id, field="invoice_id")
    if inv.status != "FINALIZED":
        raise Conflict(f"the invoice is {inv.status}", field="invoice_id", hint="only FINALIZED invoices are voided")
    for d in inv.drawdowns:
        bal = ctx.get(Balance, d.balance_id)
        ctx.update(bal, remaining=bal.remaining + d.amount)
    return ctx.update(inv, status="VOID")


# -- seed -------------------------------------------------------------------------------------

METRICS: tuple[tuple[str, str, Aggregation, str | None], ...] = (
    ("Webhook deliveries", "webhook", "COUNT", None),
    ("API requests", "api_request", "COUNT", None),
    ("Compute hours", "compute", "SUM", "cpu_hours"),
    ("Peak storage GB", "storage_snapshot", "MAX", "gb"),
    ("Monthly active users", "login", "UNIQUE", "user_id"),
    ("Legacy exports", "export", "COUNT", None),
)
CARDS = (("Standard 2026", (0.5, 1200.0, 25.0, 300.0), (20, 5, 10, 3)), ("Startup", (0.4, 1000.0), (50, 10)))


def _seed_usage(s: SeedContext, cus: Customer, k: int, start: dt.date, days: int) -> None:
    """A month (or the days so far) of one customer's usage events."""
    for d in range(0, days, 3):
        when = utc_at(start + dt.timedelta(days=d), 10 + d % 8)
        made: list[tuple[str, str, dict[str, float | str]]] = [
            (str(j), "api_request", {"endpoint": "/v1/search"}) for j in range(3 + (k + d) % 4)
        ]
        made += [
            ("c", "compute", {"cpu_hours": round(0.5 + (k * d) % 7 * 0.75, 2)}),
            ("s", "storage_snapshot", {"gb": float(10 + 4 * k + d)}),
            ("u", "login", {"user_id": f"u{(d + k) % 5}"}),
        ]
        for tag, etype, props in made:
            tx = f"{cus.ingest_alias}-{start:%Y%m}-{d}-{tag}"
            s.create(Event, transaction_id=tx, customer_id=cus.id, event_type=etype, timestamp=when, properties=props)


@service.seeder
def seed(s: SeedContext) -> None:
    """Customer companies with contracts, three months of usage, credits and commits, invoices in every status."""
    for name, etype, agg, key in METRICS:
        s.create(
            Metric,
            name=name,
            event_type=etype,
            aggregation=agg,
            aggregation_key=key,
            status="archived" if etype == "export" else "active",
        )
    mets = s.records(Metric)
    cards = [
        s.create(
            RateCard,
            name=name,
            created_at=s.ago(days=400),
            rates=tuple(
                Rate(metric_id=m.id, unit_price=p, free_units=f)
                for m, p, f in zip(mets[1:], prices, free, strict=False)
            ),
        )
        for name, prices, free in CARDS
    ]
    by_id = {m.id: m for m in mets}
    today = s.now.date()
    mar = today.replace(day=1)
    jan, feb = add_months(mar, -2), add_months(mar, -1)
    for k, company in enumerate(s.population.customers[:8]):
        contact = s.population.first_contact(company)
        alias = company.domain.split(".")[0].lower()[:40] + f"-{k}"
        cus = s.create(
            Customer,
            name=company.name,
            ingest_alias=alias,
            created_at=s.ago(days=300 - 10 * k),
            billing_email=contact.email if contact else f"billing@{company.domain}",
        )
        if k == 7:
            continue
        status: Any = "ended" if k == 6 else "active"
        ctr = s.create(
            Contract,
            customer_id=cus.id,
            rate_card_id=cards[k % 2].id,
            starting_at=dt.date(2025, 10, 1),
            ending_before=mar if k == 6 else None,
            status=status,
            created_at=s.ago(days=160),
        )
        bal = None
        if k % 3 == 0:
            kind: BalanceType = "credit" if k == 0 else "commit"
            bal = s.create(
                Balance,
                contract_id=ctr.id,
                type=kind,
                name=f"2026 {kind}",
                amount=500_000 if k else 20_000,
                remaining=500_000 if k else 20_000,
                starting_at=jan,
                ending_before=dt.date(2027, 1, 1),
                created_at=s.ago(days=70),
            )
        months = (jan, feb) if k == 6 else (jan, feb, mar)
        for start in months:
            end = _month(start)[1]
            _seed_usage(s, cus, k, start, min((end - start).days, (today - start).days + 1))
            found = [e for e in s.records(Event) if e.customer_id == cus.id and start <= e.timestamp.date() < end]
            lines, subtotal = price(cards[k % 2], by_id, found)
            final = start == jan
            drawn: tuple[Drawdown, ...] = ()
            if final and bal is not None:
                drawn = (Drawdown(balance_id=bal.id, amount=min(subtotal, bal.remaining)),)
                bal = s.update(bal, remaining=bal.remaining - drawn[0].amount)
            st: InvoiceStatus = "FINALIZED" if final else "DRAFT"
            if final and k == 5:
                st = "VOID"
            s.create(
                Invoice,
                customer_id=cus.id,
                contract_id=ctr.id,
                period_start=start,
                period_end=end,
                status=st,
                line_items=lines,
                subtotal=subtotal,
                drawdowns=drawn,
                total=subtotal - sum(d.amount for d in drawn),
                finalized_at=utc_at(end, 12) if final else None,
                updated_at=utc_at(end, 12) if final else s.now,
            )
