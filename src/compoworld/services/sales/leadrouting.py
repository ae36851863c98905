"""Relayline: inbound lead routing, lead-to-account matching, round-robin queues, meeting handoffs and SLAs.

Modeled on LeanData (lead-to-account matching by e-mail domain, routing rules
in priority order, round-robin pools, assignment audit log, SLA tracking) and
Chili Piper (meeting handoffs booked on the new owner's calendar): a new lead
whose domain matches a known account goes to that account's owner; otherwise
the first active rule (by priority) whose conditions it meets sends it to a
round-robin queue, whose active members take leads in turn; a routed lead
must be accepted within the SLA or a breach is logged; a meeting is booked
only with the lead's owner and moves booked → held, no_show or cancelled.
"""

from __future__ import annotations

import datetime as dt
from typing import Annotated, Any, Literal

from pydantic import Field

from compoworld.engine.context import Ctx
from compoworld.engine.errors import Conflict, RuleViolation
from compoworld.engine.service import Service, Transition
from compoworld.engine.state import SeedContext
from compoworld.engine.types import CompanyName, Country, DateTime, Domain, Email, IdOf, MeetingLink, PersonName, Title
from compoworld.services.kit.examples import first_example
from compoworld.services.kit.lists import require_employee
from compoworld.services.kit.records import Created, Timestamped

__all__ = ["service"]

service = Service(
    "leadrouting",
    title="Relayline",
    category="lead_routing",
    modeled_on="LeanData (lead-to-account matching, routing rules, round robin, audit log, SLAs) / Chili Piper "
    "(meeting handoffs)",
    description="Inbound lead routing for the sales team: leads matched to existing accounts by e-mail domain and "
    "given to the account owner, routing rules by country, size and source that feed round-robin queues of reps, "
    "acceptance SLAs and their breaches, and meetings booked with the new owner.",
)

QueueId = Annotated[str, IdOf("leadrouting.queue")]
RuleId = Annotated[str, IdOf("leadrouting.rule")]
LeadId = Annotated[str, IdOf("leadrouting.lead")]
OwnerId = Annotated[str, IdOf("leadrouting.account_owner")]
MeetingId = Annotated[str, IdOf("leadrouting.meeting")]
BreachId = Annotated[str, IdOf("leadrouting.sla_breach")]

Source = Literal["web_form", "event", "partner", "content_download", "chat"]
LeadStatus = Literal["new", "routed", "accepted", "disqualified"]


class Queue(Timestamped):
    """A round-robin pool of reps."""

    id: QueueId
    name: Title
    """Its name (unique)."""
    members: list[Email] = Field(min_length=1, max_length=30)
    """The reps, in turn order."""
    next_index: int = 0
    """Whose turn is next."""
    sla_minutes: Annotated[int, Field(ge=5, le=10_080)] = 60
    """Minutes a rep has to accept a lead."""
    status: Literal["active", "paused"] = "active"
    """active or paused."""


class Rule(Timestamped):
    """A routing rule: leads meeting its conditions go to its queue."""

    id: RuleId
    name: Title
    """Its name."""
    priority: Annotated[int, Field(ge=1, le=1000)]
    """Evaluation order (1 first; unique)."""
    queue_id: QueueId
    """Where matching leads go."""
    countries: list[Country] = Field(default_factory=list, max_length=50)
    """Lead countries it takes (empty: any)."""
    min_employees: Annotated[int, Field(ge=0)] = 0
    """Smallest company size."""
    sources: list[Source] = Field(default_factory=list, max_length=5)
    """Lead sources it takes (empty: any)."""
    status: Literal["active", "inactive"] = "active"
    """active or inactive."""


class AccountOwner(Timestamped):
    """A known account and its owner, for lead-to-account matching."""

    id: OwnerId
    account_name: CompanyName
    """The account."""
    domain: Domain
    """Its e-mail domain."""
    owner_email: Email
    """The account executive who owns it."""


class Lead(Timestamped):
    """An inbound lead."""

    id: LeadId
    email: Email
    """The lead's e-mail."""
    name: PersonName
    """The lead's name."""
    company_name: CompanyName
    """The lead's company."""
    country: Country
    """The lead's country."""
    employees: Annotated[int, Field(ge=0)] = 0
    """Company size."""
    source: Source
    """web_form, event, partner, content_download or chat."""
    status: LeadStatus = "new"
    """new, routed, accepted or disqualified."""
    owner_email: Email | None = None
    """The rep it was routed to."""
    matched_account: CompanyName | None = None
    """The existing account it matched."""
    routed_by: Literal["account_match", "round_robin"] | None = None
    """How it was routed."""
    rule_id: RuleId | None = None
    """The rule that routed it."""
    routed_at: DateTime | None = None
    """When it was routed."""
    sla_due_at: DateTime | None = None
    """When it must be accepted."""


class Meeting(Created):
    """A first meeting booked for a lead with its owner."""

    id: MeetingId
    lead_id: LeadId
    """The lead."""
    owner_email: Email
    """The rep meeting them."""
    starts_at: DateTime
    """When."""
    meeting_link: MeetingLink
    """The video link."""
    status: Literal["booked", "held", "no_show", "cancelled"] = "booked"
    """booked, held, no_show or cancelled."""


class SlaBreach(Created):
    """A lead not accepted within its SLA."""

    id: BreachId
    lead_id: LeadId
    """The lead."""
    owner_email: Email
    """The rep who missed it."""
    minutes_late: int
    """How late, when found."""
    status: Literal["open", "excused"] = "open"
    """open or excused."""


# -- rules ------------------------------------------------------------------------------------


def _guard_queue(ctx: Ctx, new: Any, old: Any) -> None:
    if len(set(new.members)) != len(new.members):
        raise RuleViolation("a rep is listed twice", field="members", hint="list each rep once")
    for email in new.members:
        require_employee(ctx, email, field="members", hint="queues hold reps")
    if new.next_index >= len(new.members):
        ctx.update(new, next_index=0)


def _guard_rule(ctx: Ctx, new: Any, old: Any) -> None:
    ctx.get(Queue, new.queue_id, field="queue_id")
    for other in ctx.where(Rule, priority=new.priority):
        if other.id != new.id:
            raise Conflict(f"rule {other.name!r} has priority {new.priority}", field="priority", hint="pick another")


def _guard_owner(ctx: Ctx, new: Any, old: Any) -> None:
    require_employee(ctx, new.owner_email, field="owner_email", hint="accounts are owned by reps")


queues = service.resource(
    Queue,
    name="queue",
    plural="queues",
    prefix="que",
    create=("name", "members", "sla_minutes"),
    filters=("status", "name"),
    update=("name", "members", "sla_minutes"),
    delete=False,
    unique=("name",),
    transitions={
        "pause": Transition("status", ("active",), "paused", "pause the queue"),
        "resume": Transition("status", ("paused",), "active", "resume the queue"),
    },
    guard_create=_guard_queue,
    guard_update=_guard_queue,
    title="round-robin queue",
)
rules = service.resource(
    Rule,
    name="rule",
    plural="rules",
    prefix="rul",
    create=("name", "priority", "queue_id", "countries", "min_employees", "sources"),
    filters=("queue_id", "status"),
    search=("name",),
    update=("name", "priority", "queue_id", "countries", "min_employees", "sources", "status"),
    guard_create=_guard_rule,
    guard_update=_guard_rule,
    title="routing rule",
)
owners = service.resource(
    AccountOwner,
    name="account_owner",
    plural="account_owners",
    prefix="own",
    create=False,
    get=False,
    filters=("account_name", "domain", "owner_email"),
    update=("owner_email",),
    delete=False,
    guard_update=_guard_owner,
    title="account owner",
)
leads = service.resource(
    Lead,
    name="lead",
    plural="leads",
    prefix="lea",
    create=("email", "name", "company_name", "country", "employees", "source"),
    filters=("status", "email", "owner_email", "company_name", "source", "matched_account"),
    search=("name", "company_name"),
    delete=False,
    transitions={"disqualify": Transition("status", ("new", "routed"), "disqualified", "disqualify the lead")},
)
meetings = service.resource(
    Meeting,
    name="meeting",
    plural="meetings",
    prefix="mtg",
    create=False,
    filters=("lead_id", "owner_email", "status"),
    delete=False,
    transitions={
        "complete": Transition("status", ("booked",), "held", "mark the meeting held"),
        "no_show": Transition("status", ("booked",), "no_show", "mark the meeting a no-show"),
        "cancel": Transition("status", ("booked",), "cancelled", "cancel the meeting"),
    },
)
breaches = service.resource(
    SlaBreach,
    name="sla_breach",
    plural="sla_breaches",
    prefix="sla",
    create=False,
    get=False,
    filters=("lead_id", "owner_email", "status"),
    delete=False,
    transitions={"excuse": Transition("status", ("open",), "excused", "excuse the SLA breach")},
    title="SLA breach",
)


# -- domain tools -----------------------------------------------------------------------------


def _takes(rule: Rule, lead: Lead) -> bool:
    return (
        (not rule.countries or lead.country in rule.countries)
        and lead.employees >= rule.min_employees
        and (not rule.sources or lead.source in rule.sources)
    )


@service.tool(
    intent="route the lead",
    write=True,
    example=first_example(Lead, "lead_id", where={"status": "new"}),
)
def route_lead(ctx: Ctx, lead_id: LeadId) -> Lead:
    """Route a new lead: to its matched account's owner, else through the first active rule's round-robin queue.

    The account is matched by the lead's e-mail domain; a queue gives leads to its members in turn.

    Args:
        lead_id: The lead.
    """
    lead = ctx.get(Lead, lead_id, field="lead_id")
    if lead.status != "new":
        raise Conflict(f"the lead is already {lead.status}", field="lead_id", hint="route new leads only")
    now = ctx.now()
    match = ctx.first(AccountOwner, domain=lead.email.rsplit("@", 1)[1].lower())
    if match is not None:
        return ctx.update(
            lead,
            status="routed",
            owner_email=match.owner_email,
            matched_account=match.account_name,
            routed_by="account_match",
            routed_at=now,
            sla_due_at=now + dt.timedelta(minutes=60),
        )
    for rule in sorted(ctx.where(Rule, status="active"), key=lambda r: r.priority):
        queue = ctx.get(Queue, rule.queue_id)
        if queue.status != "active" or not _takes(rule, lead):
            continue
        rep = queue.members[queue.next_index % len(queue.members)]
        ctx.update(queue, next_index=(queue.next_index + 1) % len(queue.members))
        return ctx.update(
            lead,
            status="routed",
            owner_email=rep,
            routed_by="round_robin",
            rule_id=rule.id,
            routed_at=now,
            sla_due_at=now + dt.timedelta(minutes=queue.sla_minutes),
        )
    raise RuleViolation(
        "no active rule takes this lead", field="lead_id", hint="add or activate a routing rule, or resume its queue"
    )


@service.tool(
    intent="accept the routed lead",
    write=True,
    example=first_example(Lead, "lead_id", where={"status": "routed"}, fields={"accepted_by": "owner_email"}),
)
def accept_lead(ctx: Ctx, lead_id: LeadId, accepted_by: Email) -> Lead:
    """The lead's owner accepts it (stops the SLA clock).

    Args:
        lead_id: The lead.
        accepted_by: The owner's e-mail.
    """
    lead = ctx.get(Lead, lead_id, field="lead_id")
    if lead.status != "routed":
        raise RuleViolation(f"the lead is {lead.status}", field="lead_id", hint="only routed leads are accepted")
    if accepted_by != lead.owner_email:
        raise RuleViolation(f"the lead belongs to {lead.owner_email}", field="accepted_by", hint="the owner accepts")
    return ctx.update(lead, status="accepted")


@service.tool(intent="check the lead SLAs", write=True, example=lambda ctx: {})
def check_sla(ctx: Ctx) -> list[SlaBreach]:
    """Log a breach for every routed lead not accepted by its SLA deadline (once per lead)."""
    now = ctx.now()
    made: list[SlaBreach] = []
    for lead in ctx.where(Lead, status="routed"):
        if lead.sla_due_at and lead.sla_due_at < now and lead.owner_email and not ctx.first(SlaBreach, lead_id=lead.id):
            late = int((now - lead.sla_due_at).total_seconds() // 60)
            made.append(ctx.create(SlaBreach, lead_id=lead.id, owner_email=lead.owner_email, minutes_late=late))
    return made


def _example_book(ctx: Ctx) -> dict[str, Any] | None:
    lead = next(
        (x for x in ctx.where(Lead, status="accepted") if not ctx.first(Meeting, lead_id=x.id, status="booked")), None
    )
    if lead is None:
        return None
    start = (ctx.now() + dt.timedelta(days=2)).replace(minute=0, second=0, microsecond=0)
    return {"lead_id": lead.id, "starts_at": start.isoformat(), "meeting_link": "https://meet.example.com/intro-1"}


@service.tool(intent="book a meeting with the lead", write=True, example=_example_book)
def book_meeting(ctx: Ctx, lead_id: LeadId, starts_at: DateTime, meeting_link: MeetingLink) -> Meeting:
    """Book the handoff meeting of a routed or accepted lead with its owner, in the future; one booked at a time.

    Args:
        lead_id: The lead.
        starts_at: When it starts.
        meeting_link: The video link.
    """
    lead = ctx.get(Lead, lead_id, field="lead_id")
    if lead.status not in ("routed", "accepted") or lead.owner_email is None:
        raise RuleViolation(f"the lead is {lead.status}", field="lead_id", hint="route the lead first")
    if starts_at <= ctx.now():
        raise RuleViolation("starts_at is in the past", field="starts_at", hint="book a future time")
    if ctx.first(Meeting, lead_id=lead.id, status="booked"):
        raise Conflict("the lead already has a meeting booked", field="lead_id", hint="cancel it first")
    return ctx.create(
        Meeting, lead_id=lead.id, owner_email=lead.owner_email, starts_at=starts_at, meeting_link=meeting_link
    )


# -- seed -------------------------------------------------------------------------------------


@service.seeder
def seed(s: SeedContext) -> None:
    """Owners of existing accounts, queues of reps, rules, leads from world contacts in every state."""
    pop = s.population
    reps = pop.staff("Sales", fallback=6)
    for k, company in enumerate(pop.customers[:12]):
        s.create(
            AccountOwner,
            account_name=company.name,
            domain=company.domain,
            owner_email=reps[k % len(reps)].email,
            created_at=s.ago(days=300),
            updated_at=s.ago(days=300),
        )
    # A queue holds at most 30 reps: a larger sales team is split into its first sixty.
    emails = [p.email for p in reps][:60]
    q_ent = s.create(
        Queue,
        name="Enterprise AEs",
        members=emails[: max(1, len(emails) // 2)],
        sla_minutes=30,
        created_at=s.ago(days=200),
        updated_at=s.ago(days=10),
    )
    q_smb = s.create(
        Queue,
        name="Inbound SDRs",
        members=emails[len(emails) // 2 :] or emails,
        sla_minutes=15,
        created_at=s.ago(days=200),
        updated_at=s.ago(days=10),
    )
    s.create(
        Queue,
        name="Partner desk",
        members=emails[:1],
        status="paused",
        created_at=s.ago(days=100),
        updated_at=s.ago(days=20),
    )
    s.create(
        Rule,
        name="Large companies to enterprise",
        priority=10,
        queue_id=q_ent.id,
        min_employees=1000,
        created_at=s.ago(days=200),
        updated_at=s.ago(days=10),
    )
    s.create(
        Rule,
        name="Everyone else to SDRs",
        priority=100,
        queue_id=q_smb.id,
        created_at=s.ago(days=200),
        updated_at=s.ago(days=10),
    )
    for k, person in enumerate(pop.contacts[:14]):
        employer = pop.company_of(person)
        if employer is None:
            continue
        state: LeadStatus = ("new", "new", "routed", "accepted", "routed", "disqualified", "new")[k % 7]
        created = s.ago(hours=3 + 5 * k)
        matched = next((o for o in s.records(AccountOwner) if o.domain == employer.domain), None)
        owner = matched.owner_email if matched else emails[k % len(emails)]
        routed = state != "new" and state != "disqualified"
        lead = s.create(
            Lead,
            email=person.email,
            name=person.name,
            company_name=employer.name,
            country=employer.place.country,
            employees=employer.employees,
            source=("web_form", "event", "content_download", "chat", "partner")[k % 5],
            status=state,
            owner_email=owner if routed else None,
            matched_account=matched.account_name if matched and routed else None,
            routed_by=("account_match" if matched else "round_robin") if routed else None,
            routed_at=created + dt.timedelta(minutes=2) if routed else None,
            sla_due_at=created + dt.timedelta(minutes=32) if routed else None,
            created_at=created,
            updated_at=created,
        )
        if state == "accepted":
            s.create(
                Meeting,
                lead_id=lead.id,
                owner_email=owner,
                starts_at=s.now + dt.timedelta(days=1 + k % 3),
                meeting_link=f"https://meet.{pop.home.domain}/intro-{k}",
                created_at=created,
                status="booked" if k < 7 else "held",
            )
        if state == "routed" and k > 5:
            s.create(SlaBreach, lead_id=lead.id, owner_email=owner, minutes_late=45, created_at=s.ago(hours=1))
