"""Dialtrace: call tracking and marketing attribution: tracking numbers per source, calls, form leads, tags.

Modeled on the CallRail API v3: companies (the businesses tracked, active or
disabled), tracking numbers provisioned in an area code for a marketing source
(Google Ads, Google organic, Facebook, Bing, direct, print) that forward to a
destination number, calls with caller, duration, answered and first-call
flags, lead status (good_lead, not_a_lead) and value, tags kept per company,
form submissions with the visitor's contact details and lead status, and a
source report of calls, leads and value per source. A disabled company gets
no new numbers and its numbers are disabled with it; a number never forwards
to itself; calls come in only on active numbers; a call is a first call when
that caller never called the company before; a lead value is set only on a
good lead; tags used on a call exist in the call's company.
"""

from __future__ import annotations

import datetime as dt
from typing import Annotated, Any, Literal

from pydantic import Field, StringConstraints

from compoworld.engine.context import Ctx
from compoworld.engine.errors import Conflict, RuleViolation
from compoworld.engine.service import Service, Transition
from compoworld.engine.state import SeedContext
from compoworld.engine.types import Cents, DateTime, Email, IdOf, PersonName, Phone, Timezone, Title, Url
from compoworld.services.kit.examples import first_example
from compoworld.services.kit.records import Created, Timestamped, Value

__all__ = ["service"]

service = Service(
    "calltracking",
    title="Dialtrace",
    category="call_tracking",
    modeled_on="CallRail API v3 (companies, trackers/tracking numbers by source, calls with lead status and value, "
    "tags, form submissions, source attribution)",
    description="Call tracking for the company's marketing: tracking numbers for each ad and traffic source, the "
    "calls they receive with duration and lead quality, web form leads, tags, and which sources bring leads.",
)

CompanyId = Annotated[str, IdOf("calltracking.company")]
NumberId = Annotated[str, IdOf("calltracking.tracking_number")]
CallId = Annotated[str, IdOf("calltracking.call")]
FormId = Annotated[str, IdOf("calltracking.form_submission")]
TagId = Annotated[str, IdOf("calltracking.tag")]

Source = Literal["google_ads", "google_organic", "facebook", "bing", "direct", "print"]
LeadStatus = Literal["good_lead", "not_a_lead", "unscored"]
AreaCode = Annotated[str, StringConstraints(pattern=r"^[2-9][0-9]{2}$")]
"""A North American area code."""
TagName = Annotated[str, StringConstraints(pattern=r"^[A-Za-z0-9][A-Za-z0-9 _-]{0,39}$")]
"""A tag name."""


class TrackedCompany(Timestamped):
    """A business whose calls are tracked."""

    id: CompanyId
    name: Title
    """Its name (unique)."""
    time_zone: Timezone = "America/New_York"
    """Reporting time zone."""
    status: Literal["active", "disabled"] = "active"
    """active or disabled."""


class TrackingNumber(Timestamped):
    """A phone number that attributes calls to a source."""

    id: NumberId
    company_id: CompanyId
    """The company."""
    name: Title
    """Its label, e.g. Google Ads - Spring."""
    number: Phone
    """The tracking number (unique)."""
    destination_number: Phone
    """Where calls forward."""
    source: Source
    """The marketing source it tracks."""
    status: Literal["active", "disabled"] = "active"
    """active or disabled."""


class Call(Timestamped):
    """A call received on a tracking number."""

    id: CallId
    company_id: CompanyId
    """The company."""
    tracking_number_id: NumberId
    """The number dialed."""
    source: Source
    """Its source."""
    caller_number: Phone
    """Who called."""
    caller_name: str = ""
    """Caller ID name."""
    duration_s: Annotated[int, Field(ge=0)] = 0
    """Talk time in seconds."""
    answered: bool = True
    """Whether it was answered."""
    first_call: bool = True
    """Whether this caller never called the company before."""
    lead_status: LeadStatus = "unscored"
    """good_lead, not_a_lead or unscored."""
    value: Cents = 0
    """Value of the lead, cents."""
    tags: tuple[str, ...] = ()
    """Tag names."""
    note: str = ""
    """Notes."""
    started_at: DateTime
    """When it started."""


class FormSubmission(Created):
    """A web form lead attributed to a source."""

    id: FormId
    company_id: CompanyId
    """The company."""
    source: Source
    """Its source."""
    form_url: Url
    """The page of the form."""
    customer_email: Email
    """The visitor's e-mail."""
    customer_name: PersonName
    """Their name."""
    customer_phone: Phone | None = None
    """Their phone."""
    lead_status: LeadStatus = "unscored"
    """good_lead, not_a_lead or unscored."""


class Tag(Created):
    """A tag of a company."""

    id: TagId
    company_id: CompanyId
    """The company."""
    name: TagName
    """Its name (unique in the company)."""
    color: Literal["gray", "red", "orange", "green", "blue", "purple"] = "gray"
    """Display color."""


class SourceRow(Value):
    """Leads per source."""

    source: str
    """The source."""
    calls: int
    """Calls."""
    answered: int
    """Answered calls."""
    first_time_callers: int
    """First calls."""
    forms: int
    """Form submissions."""
    good_leads: int
    """Calls and forms scored good."""
    value: int
    """Lead value, cents."""


# -- rules ------------------------------------------------------------------------------------


def _active_company(ctx: Ctx, company_id: str, field: str = "company_id") -> TrackedCompany:
    co = ctx.get(TrackedCompany, company_id, field=field)
    if co.status != "active":
        raise RuleViolation(f"{co.name} is disabled", field=field, hint="enable the company first")
    return co


def _guard_company(ctx: Ctx, new: Any, old: Any) -> None:
    for other in ctx.where(TrackedCompany, name=new.name):
        if other.id != new.id:
            raise Conflict(f"a company named {new.name!r} exists", field="name", hint="use that company")
    if old is not None and new.status == "disabled" and old.status == "active":
        for n in ctx.where(TrackingNumber, company_id=new.id, status="active"):
            ctx.update(n, status="disabled")


def _guard_number(ctx: Ctx, new: Any, old: Any) -> None:
    if new.destination_number == new.number:
        raise RuleViolation(
            "a tracking number cannot forward to itself",
            field="destination_number",
            hint="forward to the business line",
        )
    if old is not None and new.status == "active" and old.status == "disabled":
        _active_company(ctx, new.company_id, "tracking_number_id")


def _guard_call(ctx: Ctx, new: Any, old: Any) -> None:
    if new.value and new.lead_status != "good_lead":
        raise RuleViolation("only a good lead has a value", field="value", hint="set lead_status good_lead too")


def _guard_tag(ctx: Ctx, new: Any, old: Any) -> None:
    ctx.get(TrackedCompany, new.company_id, field="company_id")
    for other in ctx.where(Tag, company_id=new.company_id):
        if other.id != new.id and other.name.lower() == new.name.lower():
            raise Conflict(f"tag {new.name!r} exists", field="name", hint="use the existing tag")


companies = service.resource(
    TrackedCompany,
    name="company",
    plural="companies",
    prefix="com",
    create=("name", "time_zone"),
    filters=("status", "name"),
    search=("name",),
    update=("name", "time_zone"),
    delete=False,
    transitions={
        "disable": Transition("status", ("active",), "disabled", "disable the company"),
        "enable": Transition("status", ("disabled",), "active", "enable the company"),
    },
    guard_create=_guard_company,
    guard_update=_guard_company,
)
numbers = service.resource(
    TrackingNumber,
    name="tracking_number",
    plural="tracking_numbers",
    prefix="trk",
    create=False,
    filters=("company_id", "source", "status", "number"),
    search=("name",),
    update=("name", "destination_number"),
    delete=False,
    unique=("number",),
    transitions={
        "disable": Transition("status", ("active",), "disabled", "disable the tracking number"),
        "enable": Transition("status", ("disabled",), "active", "re-enable the tracking number"),
    },
    guard_update=_guard_number,
)
calls = service.resource(
    Call,
    name="call",
    plural="calls",
    prefix="call",
    create=False,
    filters=("company_id", "tracking_number_id", "source", "caller_number", "lead_status", "answered"),
    search=("caller_name", "note"),
    update=("lead_status", "value", "note"),
    delete=False,
    guard_update=_guard_call,
)
forms = service.resource(
    FormSubmission,
    name="form_submission",
    plural="form_submissions",
    prefix="form",
    create=("company_id", "source", "form_url", "customer_email", "customer_name", "customer_phone"),
    filters=("company_id", "source", "customer_email", "lead_status"),
    search=("customer_name",),
    update=("lead_status",),
    delete=False,
)
tags = service.resource(
    Tag,
    name="tag",
    plural="tags",
    prefix="tag",
    create=("company_id", "name", "color"),
    filters=("company_id",),
    search=("name",),
    update=("color",),
    guard_create=_guard_tag,
)


# -- domain tools -----------------------------------------------------------------------------


@service.tool(
    intent="provision a tracking number",
    write=True,
    example=first_example(
        TrackedCompany,
        "company_id",
        where={"status": "active"},
        area_code="415",
        source="bing",
        name="Bing Ads - Brand",
        destination_number="+14155550100",
    ),
)
def provision_number(
    ctx: Ctx, company_id: CompanyId, area_code: AreaCode, source: Source, name: Title, destination_number: Phone
) -> TrackingNumber:
    """Buy a local tracking number in an area code for a source of an active company.

    Args:
        company_id: The company.
        area_code: The area code wanted.
        source: google_ads, google_organic, facebook, bing, direct or print.
        name: Its label.
        destination_number: Where calls forward (the business line).
    """
    co = _active_company(ctx, company_id)
    if len(ctx.where(TrackingNumber, company_id=co.id, status="active")) >= 25:
        raise RuleViolation(
            "a company has at most 25 active numbers", field="company_id", hint="disable an unused number"
        )
    number = f"+1{area_code}555{ctx.next_number(TrackingNumber, 'line') % 10000 + 2000:04d}"
    made = ctx.create(
        TrackingNumber, company_id=co.id, name=name, number=number, destination_number=destination_number, source=source
    )
    _guard_number(ctx, made, None)
    return made


def _example_call(ctx: Ctx) -> dict[str, Any] | None:
    n = ctx.first(TrackingNumber, status="active")
    return (
        None
        if n is None
        else {"tracking_number": n.number, "caller_number": "+13125550199", "caller_name": "Pat Lee", "duration_s": 95}
    )


@service.tool(intent="log an incoming call", write=True, example=_example_call)
def log_call(
    ctx: Ctx,
    tracking_number: Phone,
    caller_number: Phone,
    caller_name: str = "",
    duration_s: Annotated[int, Field(ge=0)] = 0,
    answered: bool = True,
) -> Call:
    """Record a call received on an active tracking number, attributed to its source.

    Args:
        tracking_number: The number dialed.
        caller_number: Who called.
        caller_name: Caller ID name.
        duration_s: Talk time (0 when missed).
        answered: Whether it was answered.
    """
    num = ctx.first(TrackingNumber, number=tracking_number)
    if num is None:
        raise RuleViolation(
            f"{tracking_number} is not a tracking number", field="tracking_number", hint="list tracking numbers"
        )
    if num.status != "active":
        raise RuleViolation(f"{tracking_number} is disabled", field="tracking_number", hint="enable it first")
    if not answered and duration_s:
        raise RuleViolation("a missed call has no talk time", field="duration_s", hint="set 0")
    first = not ctx.where(Call, company_id=num.company_id, caller_number=caller_number)
    return ctx.create(
        Call,
        company_id=num.company_id,
        tracking_number_id=num.id,
        source=num.source,
        caller_number=caller_number,
        caller_name=caller_name,
        duration_s=duration_s,
        answered=answered,
        first_call=first,
        started_at=ctx.now(),
    )


@service.tool(
    intent="tag the call",
    write=True,
    example=first_example(Call, "call_id", where={"tags": ()}, tags=["Quote request", "Support"]),
)
def tag_call(ctx: Ctx, call_id: CallId, tags: list[TagName]) -> Call:
    """Add tags of the call's company to a call (as CallRail's update call with ``tags``); known tags are kept.

    Args:
        call_id: The call.
        tags: Tag names to add (case does not matter); each must exist in the company.
    """
    call = ctx.get(Call, call_id, field="call_id")
    known = {t.name.lower(): t.name for t in ctx.where(Tag, company_id=call.company_id)}
    missing = sorted({x for x in tags if x.lower() not in known})
    if not tags or missing:
        raise RuleViolation(
            f"unknown tags: {', '.join(missing)}" if missing else "name at least one tag",
            field="tags",
            hint="create the tags with calltracking__create_tag first",
        )
    added = [known[x.lower()] for x in tags if known[x.lower()] not in call.tags]
    if not added:
        raise Conflict("the call already has every tag named", field="tags", hint="nothing to add")
    return ctx.update(call, tags=(*call.tags, *dict.fromkeys(added)))


@service.tool(
    intent="score the call as a lead",
    write=True,
    example=first_example(Call, "call_id", where={"lead_status": "unscored"}, lead_status="good_lead", value=25000),
)
def score_call(ctx: Ctx, call_id: CallId, lead_status: LeadStatus, value: Cents = 0) -> Call:
    """Mark a call a good lead (with its value) or not a lead.

    Args:
        call_id: The call.
        lead_status: good_lead, not_a_lead or unscored.
        value: Lead value in cents (good leads only).
    """
    call = ctx.get(Call, call_id, field="call_id")
    if value and lead_status != "good_lead":
        raise RuleViolation("only a good lead has a value", field="value", hint="set lead_status good_lead")
    if lead_status == "good_lead" and not call.answered:
        raise RuleViolation(
            "a missed call is not scored a good lead", field="lead_status", hint="call them back and score that call"
        )
    return ctx.update(call, lead_status=lead_status, value=value)


@service.tool(intent="report leads by source", example=first_example(TrackedCompany, "company_id", days=30))
def source_report(ctx: Ctx, company_id: CompanyId, days: Annotated[int, Field(ge=1, le=365)] = 30) -> list[SourceRow]:
    """Calls, answered calls, first-time callers, forms, good leads and value per source over the last days.

    Args:
        company_id: The company.
        days: How many days back.
    """
    co = ctx.get(TrackedCompany, company_id, field="company_id")
    since = ctx.now() - dt.timedelta(days=days)
    rows: dict[str, dict[str, int]] = {}
    keys = ("calls", "answered", "first_time_callers", "forms", "good_leads", "value")
    for c in ctx.where(Call, company_id=co.id):
        if c.started_at >= since:
            r = rows.setdefault(c.source, dict.fromkeys(keys, 0))
            r["calls"] += 1
            r["answered"] += c.answered
            r["first_time_callers"] += c.first_call
            r["good_leads"] += c.lead_status == "good_lead"
            r["value"] += c.value
    for f in ctx.where(FormSubmission, company_id=co.id):
        if f.created_at >= since:
            r = rows.setdefault(f.source, dict.fromkeys(keys, 0))
            r["forms"] += 1
            r["good_leads"] += f.lead_status == "good_lead"
    return [SourceRow(source=s, **v) for s, v in sorted(rows.items())]


# -- seed -------------------------------------------------------------------------------------

LINES: tuple[tuple[str, Source, str], ...] = (
    ("Google Ads - Search", "google_ads", "415"),
    ("Website - Organic", "google_organic", "415"),
    ("Facebook - Lead ads", "facebook", "212"),
    ("Print - Trade magazine", "print", "312"),
    ("Direct - Homepage", "direct", "415"),
)


@service.seeder
def seed(s: SeedContext) -> None:
    """The company and a sister brand, numbers per source, calls from the world's contacts, forms and tags."""
    pop = s.population
    home = s.create(TrackedCompany, name=pop.home.name, created_at=s.ago(days=500), updated_at=s.ago(days=30))
    s.create(
        TrackedCompany,
        name=f"{pop.home.name} Outlet",
        status="disabled",
        created_at=s.ago(days=300),
        updated_at=s.ago(days=60),
    )
    dest = "+14155550100"
    made = [
        s.create(
            TrackingNumber,
            company_id=home.id,
            name=name,
            number=f"+1{area}555{2100 + k:04d}",
            destination_number=dest,
            source=src,
            status="disabled" if k == 3 else "active",
            created_at=s.ago(days=400 - 30 * k),
            updated_at=s.ago(days=10),
        )
        for k, (name, src, area) in enumerate(LINES)
    ]
    for name, color in (("Quote request", "green"), ("Support", "blue"), ("Spam", "red")):
        s.create(Tag, company_id=home.id, name=name, color=color, created_at=s.ago(days=200))
    people = [p for p in pop.contacts[:14] if p.phone.startswith("+")]
    seen: set[str] = set()
    for k in range(20):
        p = people[k % len(people)]
        num = made[k % len(made)]
        answered = k % 6 != 5
        status: LeadStatus = ("good_lead", "not_a_lead", "unscored")[k % 3] if answered else "unscored"
        s.create(
            Call,
            company_id=home.id,
            tracking_number_id=num.id,
            source=num.source,
            caller_number=p.phone,
            caller_name=p.name,
            duration_s=60 + 23 * k if answered else 0,
            answered=answered,
            first_call=p.phone not in seen,
            lead_status=status,
            value=15000 + 1000 * k if status == "good_lead" else 0,
            tags=("Quote request",) if status == "good_lead" else (),
            started_at=s.ago(days=(k * 3) % 40, hours=k),
            created_at=s.ago(days=(k * 3) % 40),
            updated_at=s.ago(days=(k * 3) % 40),
        )
        seen.add(p.phone)
    for k, p in enumerate(pop.contacts[14:20]):
        s.create(
            FormSubmission,
            company_id=home.id,
            source=LINES[k % 3][1],
            form_url=f"https://{pop.home.domain}/contact",
            customer_email=p.email,
            customer_name=p.name,
            customer_phone=p.phone if p.phone.startswith("+") else None,
            lead_status=("good_lead", "unscored")[k % 2],
            created_at=s.ago(days=2 + 5 * k),
        )
