"""Gridwatch OMS: a utility's outage management: trouble calls, outages, crews, ETRs and restorations.

Modeled on Milsoft OMS and Oracle Network Management System (premises served
by a transformer on a feeder; trouble calls grouped by the prediction engine
onto the device that serves them; outages that go predicted → confirmed →
dispatched → on_site → restored, or are cancelled as a false alarm while only
predicted; crews of a lead lineman that go available → dispatched → on_site →
available; estimated restoration times (ETR) that must lie ahead and are
counted each time they move; planned outages announced at least 48 hours
ahead). A call on a premise whose transformer has an open outage joins it;
otherwise it predicts a new outage on that transformer. A wire-down call
makes the outage an emergency. Only a confirmed outage takes a crew, only an
available crew is dispatched, restoring needs the crew on site and closes
the outage's calls, frees the crew and counts customer minutes interrupted.
"""

from __future__ import annotations

import datetime as dt
from typing import Annotated, Any, Literal

from pydantic import StringConstraints

from compoworld.engine.context import Ctx
from compoworld.engine.errors import Conflict, RuleViolation
from compoworld.engine.records import Generated
from compoworld.engine.service import Service, Transition
from compoworld.engine.state import SeedContext
from compoworld.engine.types import City, DateTime, Email, IdOf, PersonName, Phone, Text, Title
from compoworld.services.kit.examples import first_example
from compoworld.services.kit.lists import require_employee
from compoworld.services.kit.records import Timestamped, Value

__all__ = ["service"]

service = Service(
    "outages",
    title="Gridwatch OMS",
    category="outage_management",
    modeled_on="Milsoft OMS / Oracle Network Management System (trouble calls, outage prediction on devices, "
    "crews and dispatch, estimated restoration times, restorations, planned outages)",
    description="Outage management for an electric utility: the premises each transformer serves, trouble "
    "calls from customers grouped into outages, crews dispatched and on site, estimated restoration times, "
    "restorations with their cause, and planned outages announced ahead.",
)

PremiseId = Annotated[str, IdOf("outages.premise")]
DeviceId = Annotated[str, IdOf("outages.device")]
CallId = Annotated[str, IdOf("outages.call")]
OutageId = Annotated[str, IdOf("outages.outage")]
CrewId = Annotated[str, IdOf("outages.crew")]

DeviceCode = Annotated[str, StringConstraints(pattern=r"^(TX|FU|RC|BK)-\d{3,6}$")]
"""A device's code: TX transformer, FU fuse, RC recloser, BK feeder breaker."""
DeviceKind = Literal["feeder_breaker", "recloser", "fuse", "transformer"]
CallKind = Literal["no_power", "partial_power", "flicker", "wire_down"]
OutageStatus = Literal["predicted", "confirmed", "dispatched", "on_site", "restored", "cancelled"]
Cause = Literal["unknown", "tree", "vehicle", "equipment_failure", "weather", "animal", "planned"]
CrewStatus = Literal["available", "dispatched", "on_site", "off_shift"]

OPEN: tuple[OutageStatus, ...] = ("predicted", "confirmed", "dispatched", "on_site")
NOTICE = dt.timedelta(hours=48)


class Device(Timestamped):
    """A protective device or transformer on a feeder."""

    id: DeviceId
    code: DeviceCode
    """Its code."""
    kind: DeviceKind
    """feeder_breaker, recloser, fuse or transformer."""
    feeder: Annotated[str, StringConstraints(pattern=r"^F-\d{2,4}$")]
    """The feeder it is on."""
    parent_id: DeviceId | None = None
    """The device upstream of it."""
    city: City
    """Where it is."""


class Premise(Timestamped):
    """A metered service point and its account holder."""

    id: PremiseId
    account_number: Annotated[str, Generated("sequence", "ACCT-{n:07d}")]
    """The customer's account number."""
    customer_name: PersonName
    """The account holder."""
    email: Email
    """Their e-mail."""
    phone: Phone
    """Their phone."""
    street: Title
    """The street address."""
    city: City
    """The city."""
    transformer_id: DeviceId
    """The transformer serving it."""
    critical_care: bool = False
    """Life-support equipment on site (restore first)."""


class Call(Timestamped):
    """A customer's trouble call."""

    id: CallId
    premise_id: PremiseId
    """The premise."""
    kind: CallKind
    """no_power, partial_power, flicker or wire_down."""
    caller_name: PersonName
    """Who called."""
    outage_id: OutageId | None = None
    """The outage it was grouped into."""
    status: Literal["open", "closed"] = "open"
    """open, or closed at restoration."""
    remarks: Text = ""
    """What the caller said."""


class Outage(Timestamped):
    """An outage on a device."""

    id: OutageId
    number: Annotated[str, Generated("sequence", "OUT-{n:06d}")]
    """The outage number."""
    device_id: DeviceId
    """The device out."""
    status: OutageStatus = "predicted"
    """predicted, confirmed, dispatched, on_site, restored or cancelled."""
    cause: Cause = "unknown"
    """unknown, tree, vehicle, equipment_failure, weather, animal or planned."""
    emergency: bool = False
    """Whether a wire is down."""
    customers_affected: int = 0
    """Premises the device serves."""
    critical_customers: int = 0
    """Of which critical-care."""
    started_at: DateTime
    """When it began."""
    etr: DateTime | None = None
    """The estimated restoration time."""
    etr_changes: int = 0
    """How often the ETR was set."""
    crew_id: CrewId | None = None
    """The crew working it."""
    restored_at: DateTime | None = None
    """When power came back."""
    customer_minutes: int = 0
    """Customer minutes interrupted, at restoration."""
    planned: bool = False
    """A planned (announced) outage."""


class Crew(Timestamped):
    """A line, tree or service crew."""

    id: CrewId
    name: Title
    """The crew's name."""
    lead_email: Email
    """The crew lead."""
    kind: Literal["line", "tree", "service"] = "line"
    """line, tree or service."""
    status: CrewStatus = "available"
    """available, dispatched, on_site or off_shift."""


class Affected(Value):
    """Who an outage leaves without power."""

    outage_id: OutageId
    """The outage."""
    premises: list[dict[str, Any]]
    """Each premise: id, account number, customer name, e-mail, critical care."""


# -- rules ------------------------------------------------------------------------------------


def _guard_crew(ctx: Ctx, new: Any, old: Any) -> None:
    require_employee(ctx, new.lead_email, field="lead_email", hint="crew leads are staff")


devices = service.resource(
    Device,
    name="device",
    plural="devices",
    prefix="dev",
    create=False,
    filters=("code", "kind", "feeder", "parent_id", "city"),
    delete=False,
)
premises = service.resource(
    Premise,
    name="premise",
    plural="premises",
    prefix="prem",
    create=False,
    filters=("account_number", "email", "phone", "transformer_id", "critical_care", "city"),
    search=("customer_name", "street"),
    update=("critical_care", "phone"),
    delete=False,
)
calls = service.resource(
    Call,
    name="call",
    plural="calls",
    prefix="call",
    create=False,
    filters=("premise_id", "kind", "outage_id", "status"),
    search=("remarks", "caller_name"),
    delete=False,
    title="trouble call",
)
outages = service.resource(
    Outage,
    name="outage",
    plural="outages",
    prefix="out",
    create=False,
    filters=("number", "device_id", "status", "cause", "emergency", "crew_id", "planned"),
    delete=False,
    transitions={
        "cancel": Transition(
            "status",
            ("predicted",),
            "cancelled",
            "cancel the predicted outage",
            description="Cancel a predicted outage found to be a false alarm (a customer-side fault).",
        )
    },
)
crews = service.resource(
    Crew,
    name="crew",
    plural="crews",
    prefix="crew",
    create=("name", "lead_email", "kind"),
    filters=("status", "kind", "lead_email"),
    search=("name",),
    update=("name", "lead_email"),
    delete=False,
    transitions={
        "end_shift": Transition("status", ("available",), "off_shift", "send the crew off shift"),
        "start_shift": Transition("status", ("off_shift",), "available", "put the crew on shift"),
    },
    guard_create=_guard_crew,
    guard_update=_guard_crew,
)


# -- domain tools -----------------------------------------------------------------------------


def _served(ctx: Ctx, device: Device) -> list[Premise]:
    below = [device.id]
    out: list[Premise] = []
    while below:
        current = below.pop()
        out.extend(ctx.where(Premise, transformer_id=current))
        below.extend(d.id for d in ctx.where(Device, parent_id=current))
    return out


def _open_on(ctx: Ctx, device_id: str) -> Outage | None:
    return next((o for o in ctx.where(Outage, device_id=device_id) if o.status in OPEN), None)


def _example_call(ctx: Ctx) -> dict[str, Any] | None:
    prem = ctx.first(Premise)
    return (
        None
        if prem is None
        else {"account_number": prem.account_number, "kind": "no_power", "caller_name": prem.customer_name}
    )


@service.tool(intent="log a trouble call", write=True, example=_example_call)
def log_call(
    ctx: Ctx,
    account_number: Annotated[str, StringConstraints(pattern=r"^ACCT-\d{7}$")],
    kind: CallKind,
    caller_name: PersonName,
    remarks: Text = "",
) -> Call:
    """Log a customer's call: it joins the open outage on their transformer or predicts a new one.

    Args:
        account_number: The customer's account number (ACCT-0000000).
        kind: no_power, partial_power, flicker or wire_down (an emergency).
        caller_name: Who called.
        remarks: What they said.
    """
    prem = ctx.first(Premise, account_number=account_number)
    if prem is None:
        raise RuleViolation(f"no account {account_number}", field="account_number", hint="find it by e-mail first")
    outage = _open_on(ctx, prem.transformer_id)
    if outage is None and kind != "flicker":
        served = _served(ctx, ctx.get(Device, prem.transformer_id))
        outage = ctx.create(
            Outage,
            device_id=prem.transformer_id,
            started_at=ctx.now(),
            customers_affected=len(served),
            critical_customers=sum(p.critical_care for p in served),
        )
    if outage is not None and kind == "wire_down" and not outage.emergency:
        outage = ctx.update(outage, emergency=True)
    return ctx.create(
        Call,
        premise_id=prem.id,
        kind=kind,
        caller_name=caller_name,
        outage_id=None if outage is None else outage.id,
        remarks=remarks,
        status="open" if outage is not None else "closed",
    )


def _outage(ctx: Ctx, outage_id: str, *allowed: OutageStatus) -> Outage:
    out = ctx.get(Outage, outage_id, field="outage_id")
    if out.status not in allowed:
        raise RuleViolation(
            f"outage {out.number} is {out.status}", field="outage_id", hint=f"it must be {' or '.join(allowed)}"
        )
    return out


@service.tool(
    intent="confirm the outage",
    write=True,
    example=first_example(Outage, "outage_id", where={"status": "predicted"}, cause="tree"),
)
def confirm_outage(ctx: Ctx, outage_id: OutageId, cause: Cause = "unknown") -> Outage:
    """Confirm a predicted outage (by a patrol or SCADA), with its cause if known.

    Args:
        outage_id: The outage.
        cause: unknown, tree, vehicle, equipment_failure, weather or animal.
    """
    out = _outage(ctx, outage_id, "predicted")
    return ctx.update(out, status="confirmed", cause=cause)


def _example_dispatch(ctx: Ctx) -> dict[str, Any] | None:
    out, crew = ctx.first(Outage, status="confirmed"), ctx.first(Crew, status="available")
    return None if out is None or crew is None else {"outage_id": out.id, "crew_id": crew.id}


@service.tool(intent="dispatch a crew to the outage", write=True, example=_example_dispatch)
def dispatch_crew(ctx: Ctx, outage_id: OutageId, crew_id: CrewId) -> Outage:
    """Dispatch an available crew to a confirmed outage.

    Args:
        outage_id: The outage.
        crew_id: The crew.
    """
    out = _outage(ctx, outage_id, "confirmed")
    crew = ctx.get(Crew, crew_id, field="crew_id")
    if crew.status != "available":
        raise RuleViolation(f"crew {crew.name!r} is {crew.status}", field="crew_id", hint="pick an available crew")
    ctx.update(crew, status="dispatched")
    return ctx.update(out, status="dispatched", crew_id=crew.id)


@service.tool(
    intent="mark the crew on site",
    write=True,
    example=first_example(Outage, "outage_id", where={"status": "dispatched"}),
)
def crew_on_site(ctx: Ctx, outage_id: OutageId) -> Outage:
    """Record that the dispatched crew arrived at the outage.

    Args:
        outage_id: The outage.
    """
    out = _outage(ctx, outage_id, "dispatched")
    if out.crew_id is not None:
        ctx.update(ctx.get(Crew, out.crew_id), status="on_site")
    return ctx.update(out, status="on_site")


def _example_etr(ctx: Ctx) -> dict[str, Any] | None:
    out = next((o for o in ctx.scan(Outage) if o.status in OPEN), None)
    return None if out is None else {"outage_id": out.id, "etr": (ctx.now() + dt.timedelta(hours=3)).isoformat()}


@service.tool(intent="set the estimated restoration time", write=True, example=_example_etr)
def set_etr(ctx: Ctx, outage_id: OutageId, etr: DateTime) -> Outage:
    """Set or move an open outage's estimated restoration time; it must lie ahead.

    Args:
        outage_id: The outage.
        etr: When power should be back.
    """
    out = _outage(ctx, outage_id, *OPEN)
    if etr <= ctx.now():
        raise RuleViolation("the ETR must be in the future", field="etr", hint="give a later time")
    return ctx.update(out, etr=etr, etr_changes=out.etr_changes + 1)


@service.tool(
    intent="restore the outage",
    write=True,
    example=first_example(Outage, "outage_id", where={"status": "on_site"}, cause="tree"),
)
def restore_outage(ctx: Ctx, outage_id: OutageId, cause: Cause | None = None) -> Outage:
    """Restore an outage whose crew is on site: calls close, the crew is free, customer minutes are counted.

    Args:
        outage_id: The outage.
        cause: The cause found, if not yet recorded.
    """
    out = _outage(ctx, outage_id, "on_site")
    if out.crew_id is not None:
        ctx.update(ctx.get(Crew, out.crew_id), status="available")
    for call in ctx.where(Call, outage_id=out.id, status="open"):
        ctx.update(call, status="closed")
    minutes_out = int((ctx.now() - out.started_at).total_seconds() // 60)
    return ctx.update(
        out,
        status="restored",
        restored_at=ctx.now(),
        customer_minutes=minutes_out * out.customers_affected,
        cause=out.cause if cause is None else cause,
    )


@service.tool(
    intent="list the premises affected by the outage",
    example=first_example(Outage, "outage_id", where={"status": "confirmed"}),
)
def affected_premises(ctx: Ctx, outage_id: OutageId, critical_only: bool = False) -> Affected:
    """The premises an outage leaves without power, critical-care (life support) ones first.

    Args:
        outage_id: The outage.
        critical_only: Only critical-care premises, for the medical-priority call list.
    """
    device_id = ctx.get(Outage, outage_id, field="outage_id").device_id
    served = [p for p in _served(ctx, ctx.get(Device, device_id)) if p.critical_care or not critical_only]
    served.sort(key=lambda p: (not p.critical_care, p.id))
    return Affected(
        outage_id=outage_id,
        premises=[
            {
                "premise_id": p.id,
                "account_number": p.account_number,
                "customer_name": p.customer_name,
                "email": p.email,
                "critical_care": p.critical_care,
            }
            for p in served
        ],
    )


def _example_plan(ctx: Ctx) -> dict[str, Any] | None:
    dev = next((d for d in ctx.where(Device, kind="fuse") if _open_on(ctx, d.id) is None), None)
    if dev is None:
        return None
    start = ctx.now() + dt.timedelta(days=3)
    return {"device_id": dev.id, "start": start.isoformat(), "end": (start + dt.timedelta(hours=4)).isoformat()}


@service.tool(intent="schedule a planned outage", write=True, example=_example_plan)
def plan_outage(ctx: Ctx, device_id: DeviceId, start: DateTime, end: DateTime) -> Outage:
    """Schedule a planned outage on a device at least 48 hours ahead; its end is the ETR.

    Args:
        device_id: The device to de-energize.
        start: When it starts (48 hours from now at the earliest).
        end: When power returns (after start).
    """
    dev = ctx.get(Device, device_id, field="device_id")
    if start < ctx.now() + NOTICE:
        raise RuleViolation("customers need 48 hours' notice", field="start", hint="start at least 48 hours ahead")
    if end <= start:
        raise RuleViolation("end must be after start", field="end", hint="give a later end")
    if _open_on(ctx, dev.id) is not None:
        raise Conflict(f"{dev.code} already has an open outage", field="device_id", hint="wait for its restoration")
    served = _served(ctx, dev)
    return ctx.create(
        Outage,
        device_id=dev.id,
        status="confirmed",
        cause="planned",
        planned=True,
        started_at=start,
        etr=end,
        etr_changes=1,
        customers_affected=len(served),
        critical_customers=sum(p.critical_care for p in served),
    )


# -- seed -------------------------------------------------------------------------------------


@service.seeder
def seed(s: SeedContext) -> None:
    """Two feeders of devices serving the world's consumers, crews of staff, outages at every stage."""
    pop = s.population
    city = pop.home.place.city
    made: list[Device] = []
    for f in range(2):
        feeder = f"F-{12 + f}"
        breaker = s.create(Device, code=f"BK-{100 + f}", kind="feeder_breaker", feeder=feeder, city=city)
        recloser = s.create(
            Device, code=f"RC-{200 + f}", kind="recloser", feeder=feeder, parent_id=breaker.id, city=city
        )
        for n in range(2):
            fuse = s.create(
                Device, code=f"FU-{300 + 10 * f + n}", kind="fuse", feeder=feeder, parent_id=recloser.id, city=city
            )
            for t in range(2):
                made.append(
                    s.create(
                        Device,
                        code=f"TX-{4000 + 100 * f + 10 * n + t}",
                        kind="transformer",
                        feeder=feeder,
                        parent_id=fuse.id,
                        city=city,
                    )
                )
    people = pop.consumers[:24]
    prem: list[Premise] = []
    for k, p in enumerate(people):
        prem.append(
            s.create(
                Premise,
                customer_name=p.name,
                email=p.email,
                phone=p.phone,
                street=p.address.street,
                city=p.address.city,
                transformer_id=made[k % len(made)].id,
                critical_care=k % 7 == 3,
            )
        )
    leads = pop.staff("Operations", fallback=4)
    crew_made = [
        s.create(Crew, name=name, lead_email=leads[k % len(leads)].email, kind=kind, status=status)
        for k, (name, kind, status) in enumerate(
            (
                ("Line crew 1", "line", "on_site"),
                ("Line crew 2", "line", "available"),
                ("Tree crew A", "tree", "dispatched"),
                ("Service truck 7", "service", "available"),
                ("Line crew 3", "line", "off_shift"),
            )
        )
    ]
    stages: tuple[tuple[OutageStatus, Crew | None], ...] = (
        ("predicted", None),
        ("confirmed", None),
        ("dispatched", crew_made[2]),
        ("on_site", crew_made[0]),
        ("restored", None),
    )
    for k, (status, crew) in enumerate(stages):
        tx = made[k]
        served = [p for p in prem if p.transformer_id == tx.id]
        started = s.ago(hours=30 if status == "restored" else 1 + k)
        restored = started + dt.timedelta(hours=3) if status == "restored" else None
        out = s.create(
            Outage,
            device_id=tx.id,
            status=status,
            cause="tree" if status in ("on_site", "restored") else "unknown",
            emergency=k == 3,
            customers_affected=len(served),
            critical_customers=sum(p.critical_care for p in served),
            started_at=started,
            etr=started + dt.timedelta(hours=4) if k >= 2 else None,
            etr_changes=1 if k >= 2 else 0,
            crew_id=crew.id if crew else None,
            restored_at=restored,
            customer_minutes=180 * len(served) if restored else 0,
        )
        for caller in served[:2]:
            s.create(
                Call,
                premise_id=caller.id,
                kind="wire_down" if k == 3 else "no_power",
                caller_name=caller.customer_name,
                outage_id=out.id,
                status="closed" if status == "restored" else "open",
            )
