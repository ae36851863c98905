"""Alertline: emergency mass notification to staff, with groups, templates, incidents and confirmed responses.

Modeled on the Everbridge Suite API (``/contacts``, ``/groups``,
``/notificationTemplates``, ``/incidents``, ``/notifications`` with
``broadcastContacts``, ``priority``, ``type`` Standard or Polling, delivery
paths and ``confirmation``; responses from recipients; incident ``status``
Open / Closed): contacts with e-mail, phone and their site; groups; templates
with a message, delivery paths and response options; incidents that broadcasts
belong to; broadcasts sent at once or scheduled, which may ask recipients to
confirm or to pick one of the response options until they expire; and the
broadcast report of who confirmed, who answered what, and who did not.

A broadcast has at least one recipient (groups or contacts), at least one
delivery path, and response options only when it asks for a confirmation
(2-9 distinct options). An incident's broadcasts are sent only while the
incident is open; closing an incident cancels its scheduled broadcasts.
Responses come from recipients of a sent broadcast before it expires, with one
of its options; a later response replaces an earlier one. Contact e-mails are
unique; a group in use by a scheduled broadcast cannot be deleted.
"""

from __future__ import annotations

import datetime as dt
from typing import Annotated, Any, Literal

from pydantic import Field, StringConstraints

from compoworld.engine.context import Ctx
from compoworld.engine.errors import Conflict, RuleViolation
from compoworld.engine.records import CREATED, UPDATED, Record
from compoworld.engine.service import Service, Transition
from compoworld.engine.state import SeedContext
from compoworld.engine.types import City, DateTime, Email, FirstName, IdOf, LastName, Phone, Text, Title
from compoworld.services.kit.examples import first_example
from compoworld.services.kit.lists import require_employee
from compoworld.services.kit.records import Value

__all__ = ["service"]

service = Service(
    "massnotify",
    title="Alertline",
    category="mass_notification",
    modeled_on="Everbridge Suite API: contacts, groups, notification templates, incidents (open/close), "
    "notifications (broadcasts) with delivery paths, priority, confirmation and polling responses, reports",
    description="Emergency and critical-event notification for the company's people: contacts with their site, "
    "groups, message templates, incidents, broadcasts by e-mail, SMS, voice and app push that ask people to "
    "confirm they are safe, their responses, and who has not answered yet.",
)

ContactId = Annotated[str, IdOf("massnotify.contact")]
GroupId = Annotated[str, IdOf("massnotify.group")]
TemplateId = Annotated[str, IdOf("massnotify.template")]
IncidentId = Annotated[str, IdOf("massnotify.incident")]
BroadcastId = Annotated[str, IdOf("massnotify.broadcast")]
ResponseId = Annotated[str, IdOf("massnotify.response")]

Path = Literal["email", "sms", "voice", "push"]
Option = Annotated[str, StringConstraints(min_length=1, max_length=60)]
"""A response option such as "I am safe"."""
Priority = Literal["standard", "priority"]
BroadcastStatus = Literal["scheduled", "sent", "cancelled"]


class Contact(Record):
    """A person who can be notified."""

    id: ContactId
    first_name: FirstName
    """First name."""
    last_name: LastName
    """Last name."""
    email: Email
    """E-mail (unique)."""
    phone: Phone | None = None
    """Mobile phone for SMS and voice."""
    site: City | None = None
    """The office or city they work at."""
    record_type: Literal["employee", "contractor", "visitor"] = "employee"
    """employee, contractor or visitor."""
    group_ids: tuple[GroupId, ...] = ()
    """Groups they belong to."""
    created_at: Annotated[DateTime, CREATED]
    """When they were added."""


class Group(Record):
    """A group of contacts."""

    id: GroupId
    name: Title
    """Its unique name."""
    created_at: Annotated[DateTime, CREATED]
    """When it was made."""
    description: Text = ""
    """Who is in it."""


class Template(Record):
    """A reusable notification."""

    id: TemplateId
    name: Title
    """Its name."""
    title: Title
    """The message title."""
    body: Text
    """The message."""
    paths: tuple[Path, ...] = ("email", "sms")
    """Delivery paths."""
    response_options: tuple[Option, ...] = ()
    """Options recipients answer with (empty: no confirmation)."""
    created_at: Annotated[DateTime, CREATED]
    """When it was made."""


class Incident(Record):
    """A critical event being managed."""

    id: IncidentId
    name: Title
    """What is happening."""
    category: Literal["weather", "fire", "it_outage", "security", "health", "facilities"]
    """The kind of event."""
    site: City | None = None
    """Where."""
    owner_email: Email
    """The employee managing it."""
    status: Literal["open", "closed"] = "open"
    """open or closed."""
    created_at: Annotated[DateTime, CREATED]
    """When it was opened."""
    updated_at: Annotated[DateTime, UPDATED]
    """When it last changed."""


class Broadcast(Record):
    """A notification sent to contacts."""

    id: BroadcastId
    title: Title
    """Its title."""
    body: Text
    """Its message."""
    incident_id: IncidentId | None = None
    """The incident it belongs to."""
    template_id: TemplateId | None = None
    """The template it came from."""
    group_ids: tuple[GroupId, ...] = ()
    """Groups sent to."""
    contact_ids: tuple[ContactId, ...] = ()
    """Individual contacts sent to."""
    recipients: tuple[ContactId, ...] = ()
    """Everyone it reaches (groups expanded)."""
    paths: tuple[Path, ...]
    """Delivery paths."""
    priority: Priority = "standard"
    """standard or priority (overrides quiet hours)."""
    response_options: tuple[Option, ...] = ()
    """Options for the confirmation (empty: none asked)."""
    sender_email: Email
    """The employee who sent it."""
    status: BroadcastStatus = "sent"
    """scheduled, sent or cancelled."""
    send_at: DateTime | None = None
    """When a scheduled broadcast goes out."""
    sent_at: DateTime | None = None
    """When it went out."""
    expires_at: DateTime | None = None
    """When responses close."""
    created_at: Annotated[DateTime, CREATED]
    """When it was created."""


class Response(Record):
    """A recipient's answer to a broadcast."""

    id: ResponseId
    broadcast_id: BroadcastId
    """The broadcast."""
    contact_id: ContactId
    """Who answered."""
    option: Option
    """Their answer."""
    responded_at: DateTime
    """When."""


class Report(Value):
    """Who answered a broadcast."""

    broadcast_id: BroadcastId
    """The broadcast."""
    recipients: int
    """How many it reached."""
    by_option: dict[str, int]
    """Answers per option."""
    not_responded: list[Email]
    """E-mails of recipients without an answer."""


# -- rules ------------------------------------------------------------------------------------


def _guard_contact(ctx: Ctx, new: Any, old: Any) -> None:
    same = ctx.first(Contact, email=new.email)
    if same is not None and same.id != new.id:
        raise Conflict(f"{new.email} is already contact {same.id}", field="email", hint="update that contact")


def _guard_group(ctx: Ctx, new: Any, old: Any) -> None:
    same = ctx.first(Group, name=new.name)
    if same is not None and same.id != new.id:
        raise Conflict(f"a group is already named {new.name!r}", field="name", hint="pick another name")


def _guard_group_delete(ctx: Ctx, new: Any, old: Any) -> None:
    for b in ctx.where(Broadcast, status="scheduled"):
        if old.id in b.group_ids:
            raise Conflict(f"scheduled broadcast {b.id} uses it", field="group_id", hint="cancel that broadcast first")
    for c in ctx.scan(Contact):
        if old.id in c.group_ids:
            ctx.update(c, group_ids=tuple(g for g in c.group_ids if g != old.id))


def _check_options(options: tuple[str, ...] | list[str], field: str) -> None:
    if options and (len(options) < 2 or len(options) > 9 or len(set(options)) != len(options)):
        raise RuleViolation("give 2-9 distinct response options", field=field, hint='e.g. ["I am safe", "I need help"]')


def _guard_template(ctx: Ctx, new: Any, old: Any) -> None:
    _check_options(new.response_options, "response_options")
    if not new.paths or len(set(new.paths)) != len(new.paths):
        raise RuleViolation("give distinct delivery paths", field="paths", hint='e.g. ["email", "sms"]')


def _guard_incident(ctx: Ctx, new: Any, old: Any) -> None:
    require_employee(ctx, new.owner_email, field="owner_email", hint="incidents are managed by staff")
    if old is not None and old.status == "open" and new.status == "closed":
        for b in ctx.where(Broadcast, incident_id=old.id, status="scheduled"):
            ctx.update(b, status="cancelled")


contacts = service.resource(
    Contact,
    name="contact",
    plural="contacts",
    prefix="ct",
    create=("first_name", "last_name", "email", "phone", "site", "record_type"),
    filters=("email", "site", "record_type", "phone"),
    search=("first_name", "last_name", "email"),
    update=("phone", "site", "record_type"),
    guard_create=_guard_contact,
)
groups = service.resource(
    Group,
    name="group",
    plural="groups",
    prefix="grp",
    guard_delete=_guard_group_delete,
    guard_create=_guard_group,
    guard_update=_guard_group,
    create=("name", "description"),
    update=("name", "description"),
    filters=("name",),
    search=("name", "description"),
)
templates = service.resource(
    Template,
    name="template",
    plural="templates",
    prefix="tpl",
    create=("name", "title", "body", "paths", "response_options"),
    filters=("name",),
    search=("name", "title", "body"),
    update=("title", "body", "paths", "response_options"),
    guard_create=_guard_template,
    guard_update=_guard_template,
    title="notification template",
)
incidents = service.resource(
    Incident,
    name="incident",
    plural="incidents",
    prefix="inc",
    create=("name", "category", "site", "owner_email"),
    filters=("status", "category", "site", "owner_email"),
    search=("name",),
    update=("name", "owner_email"),
    delete=False,
    transitions={"close": Transition("status", ("open",), "closed", "close the incident")},
    guard_create=_guard_incident,
    guard_update=_guard_incident,
)
broadcasts = service.resource(
    Broadcast,
    name="broadcast",
    plural="broadcasts",
    prefix="bc",
    create=False,
    filters=("incident_id", "status", "sender_email", "priority", "template_id"),
    search=("title", "body"),
    delete=False,
)
responses = service.resource(
    Response,
    name="response",
    plural="responses",
    prefix="rsp",
    create=False,
    get=False,
    filters=("broadcast_id", "contact_id", "option"),
    delete=False,
)


# -- domain tools -----------------------------------------------------------------------------


def _membership_example(ctx: Ctx) -> dict[str, Any] | None:
    g = ctx.first(Group)
    c = next((c for c in ctx.scan(Contact) if g is not None and g.id not in c.group_ids), None)
    return None if g is None or c is None else {"group_id": g.id, "contact_id": c.id}


@service.tool(intent="add the contact to the group", write=True, example=_membership_example)
def add_to_group(ctx: Ctx, group_id: GroupId, contact_id: ContactId) -> Contact:
    """Put a contact in a group.

    Args:
        group_id: The group.
        contact_id: The contact.
    """
    contact = ctx.get(Contact, contact_id, field="contact_id")
    target = ctx.get(Group, group_id, field="group_id").id
    if target not in contact.group_ids:
        return ctx.update(contact, group_ids=tuple(sorted((*contact.group_ids, target))))
    raise Conflict(f"{contact.email} is already in group {target}", field="contact_id", hint="nothing to do")


def _example_remove(ctx: Ctx) -> dict[str, Any] | None:
    c = next((c for c in ctx.scan(Contact) if c.group_ids), None)
    return None if c is None else {"group_id": c.group_ids[0], "contact_id": c.id}


@service.tool(intent="remove the contact from the group", write=True, example=_example_remove)
def remove_from_group(ctx: Ctx, group_id: GroupId, contact_id: ContactId) -> Contact:
    """Take a contact out of a group.

    Args:
        group_id: The group.
        contact_id: The contact.
    """
    c = ctx.get(Contact, contact_id, field="contact_id")
    if group_id not in c.group_ids:
        raise RuleViolation(f"{c.email} is not in group {group_id}", field="group_id", hint="see the contact's groups")
    return ctx.update(c, group_ids=tuple(g for g in c.group_ids if g != group_id))


def _example_send(ctx: Ctx) -> dict[str, Any] | None:
    inc = ctx.first(Incident, status="open")
    g = ctx.first(Group)
    if inc is None or g is None:
        return None
    return {
        "title": "Office closed today",
        "body": "Work from home; confirm you got this.",
        "sender_email": inc.owner_email,
        "group_ids": [g.id],
        "incident_id": inc.id,
        "response_options": ["Acknowledged", "Need help"],
    }


@service.tool(intent="send the emergency broadcast", write=True, example=_example_send)
def send_broadcast(
    ctx: Ctx,
    title: Title,
    body: Text,
    sender_email: Email,
    group_ids: list[GroupId] | None = None,
    contact_ids: list[ContactId] | None = None,
    paths: list[Path] | None = None,
    incident_id: IncidentId | None = None,
    template_id: TemplateId | None = None,
    response_options: Annotated[list[Option], Field(max_length=9)] | None = None,
    priority: Priority = "standard",
    expires_in_minutes: Annotated[int, Field(ge=5, le=10080)] = 240,
    send_at: DateTime | None = None,
) -> Broadcast:
    """Send (or schedule) a broadcast to groups and contacts; a template fills paths and options not given.

    Args:
        title: Its title.
        body: Its message.
        sender_email: The employee sending it.
        group_ids: Groups to reach.
        contact_ids: Individual contacts to reach.
        paths: Delivery paths: email, sms, voice, push (default: the template's, else email and sms).
        incident_id: The open incident it belongs to.
        template_id: A template to start from.
        response_options: 2-9 options recipients answer with (asks for a confirmation).
        priority: standard or priority.
        expires_in_minutes: How long responses are taken after it goes out.
        send_at: A future time to send it; omit to send now.
    """
    require_employee(ctx, sender_email, field="sender_email", hint="broadcasts are sent by staff")
    tpl = None if template_id is None else ctx.get(Template, template_id, field="template_id")
    use_paths = tuple(paths) if paths else (tpl.paths if tpl else ("email", "sms"))
    options = tuple(response_options) if response_options is not None else (tpl.response_options if tpl else ())
    _check_options(options, "response_options")
    if len(set(use_paths)) != len(use_paths):
        raise RuleViolation("a delivery path is listed twice", field="paths", hint="list each path once")
    if incident_id is not None and ctx.get(Incident, incident_id, field="incident_id").status != "open":
        raise RuleViolation("the incident is closed", field="incident_id", hint="open a new incident")
    reach: list[str] = []
    for gid in group_ids or []:
        ctx.get(Group, gid, field="group_ids")
        reach += [c.id for c in ctx.scan(Contact) if gid in c.group_ids]
    for cid in contact_ids or []:
        reach.append(ctx.get(Contact, cid, field="contact_ids").id)
    recipients = tuple(sorted(set(reach)))
    if not recipients:
        raise RuleViolation(
            "the broadcast reaches nobody", field="group_ids", hint="give groups with members or contacts"
        )
    if send_at is not None and send_at <= ctx.now():
        raise RuleViolation("send_at must be in the future", field="send_at", hint="omit it to send now")
    out = send_at or ctx.now()
    return ctx.create(
        Broadcast,
        title=title,
        body=body,
        incident_id=incident_id,
        template_id=template_id,
        group_ids=tuple(group_ids or ()),
        contact_ids=tuple(contact_ids or ()),
        recipients=recipients,
        paths=use_paths,
        priority=priority,
        response_options=options,
        sender_email=sender_email,
        status="scheduled" if send_at else "sent",
        send_at=send_at,
        sent_at=None if send_at else ctx.now(),
        expires_at=out + dt.timedelta(minutes=expires_in_minutes),
    )


@service.tool(
    intent="cancel the scheduled broadcast",
    write=True,
    example=first_example(Broadcast, "broadcast_id", where={"status": "scheduled"}),
)
def cancel_broadcast(ctx: Ctx, broadcast_id: BroadcastId) -> Broadcast:
    """Cancel a broadcast that has not gone out yet.

    Args:
        broadcast_id: The broadcast.
    """
    b = ctx.get(Broadcast, broadcast_id, field="broadcast_id")
    if b.status != "scheduled":
        raise Conflict(f"broadcast is {b.status}", field="broadcast_id", hint="only scheduled broadcasts cancel")
    return ctx.update(b, status="cancelled")


def _example_respond(ctx: Ctx) -> dict[str, Any] | None:
    for b in ctx.where(Broadcast, status="sent"):
        if b.response_options and b.expires_at and b.expires_at > ctx.now():
            who = ctx.get(Contact, b.recipients[0])
            return {"broadcast_id": b.id, "contact_email": who.email, "option": b.response_options[0]}
    return None


@service.tool(intent="record the recipient's response", write=True, example=_example_respond)
def record_response(ctx: Ctx, broadcast_id: BroadcastId, contact_email: Email, option: Option) -> Response:
    """Record a recipient's answer to a sent broadcast before it expires; a new answer replaces the old.

    Args:
        broadcast_id: The broadcast.
        contact_email: The recipient's e-mail.
        option: One of the broadcast's response options.
    """
    b = ctx.get(Broadcast, broadcast_id, field="broadcast_id")
    if b.status != "sent":
        raise RuleViolation(f"broadcast is {b.status}", field="broadcast_id", hint="only sent broadcasts take answers")
    if not b.response_options:
        raise RuleViolation("this broadcast asks for no response", field="broadcast_id", hint="nothing to record")
    if b.expires_at is not None and ctx.now() >= b.expires_at:
        raise RuleViolation(f"responses closed at {b.expires_at}", field="broadcast_id", hint="send a new broadcast")
    c = ctx.first(Contact, email=contact_email)
    if c is None or c.id not in b.recipients:
        raise RuleViolation(f"{contact_email} did not receive it", field="contact_email", hint="check the recipient")
    if option not in b.response_options:
        raise RuleViolation(
            f"{option!r} is not an option", field="option", hint=f"use one of {list(b.response_options)}"
        )
    old = ctx.first(Response, broadcast_id=b.id, contact_id=c.id)
    if old is not None:
        return ctx.update(old, option=option, responded_at=ctx.now())
    return ctx.create(Response, broadcast_id=b.id, contact_id=c.id, option=option, responded_at=ctx.now())


@service.tool(intent="report on the broadcast's responses", example=first_example(Broadcast, "broadcast_id"))
def broadcast_report(ctx: Ctx, broadcast_id: BroadcastId) -> Report:
    """How many a broadcast reached, the answers per option and who has not answered.

    Args:
        broadcast_id: The broadcast.
    """
    b = ctx.get(Broadcast, broadcast_id, field="broadcast_id")
    got = {r.contact_id: r.option for r in ctx.where(Response, broadcast_id=b.id)}
    counts = {o: sum(1 for v in got.values() if v == o) for o in b.response_options}
    silent = [ctx.get(Contact, cid).email for cid in b.recipients if cid not in got] if b.response_options else []
    return Report(broadcast_id=b.id, recipients=len(b.recipients), by_option=counts, not_responded=sorted(silent))


# -- seed -------------------------------------------------------------------------------------


@service.seeder
def seed(s: SeedContext) -> None:
    """Every employee as a contact in department and site groups, templates, incidents and answered broadcasts."""
    pop = s.population
    depts = sorted({p.department for p in pop.employees if p.department})
    groups = {
        d: s.create(Group, name=f"{d} team", description=f"Everyone in {d}.", created_at=s.ago(days=300)) for d in depts
    }
    site = pop.home.place.city
    hq = s.create(Group, name=f"{site} office", description="Everyone at headquarters.", created_at=s.ago(days=300))
    made: list[Contact] = []
    for k, p in enumerate(pop.employees):
        gids = ((groups[p.department].id,) if p.department else ()) + ((hq.id,) if k % 4 else ())
        made.append(
            s.create(
                Contact,
                first_name=p.first_name,
                last_name=p.last_name,
                email=p.email,
                phone=p.phone,
                site=p.place.city if k % 4 == 0 else site,
                group_ids=gids,
                created_at=s.ago(days=200),
            )
        )
    safe = ("I am safe", "I need help", "Not on site")
    tpl = s.create(
        Template,
        name="Safety check",
        title="Safety check: please confirm",
        body="Please confirm your status.",
        paths=("sms", "push", "email"),
        response_options=safe,
        created_at=s.ago(days=250),
    )
    s.create(
        Template, name="IT outage", title="IT service disruption", body="Systems are down.", created_at=s.ago(days=200)
    )
    ops = pop.staff("Operations", fallback=2)
    storm = s.create(
        Incident,
        name=f"Severe storm warning — {site}",
        category="weather",
        site=site,
        owner_email=ops[0].email,
        created_at=s.ago(hours=6),
        updated_at=s.ago(hours=6),
    )
    fire = s.create(
        Incident,
        name="Fire alarm at headquarters",
        category="fire",
        site=site,
        owner_email=ops[-1].email,
        status="closed",
        created_at=s.ago(days=20),
        updated_at=s.ago(days=20),
    )
    live = s.create(
        Broadcast,
        title="Storm: confirm you are safe",
        body="A severe storm is approaching. Stay indoors and confirm your status.",
        incident_id=storm.id,
        template_id=tpl.id,
        group_ids=(hq.id,),
        recipients=tuple(sorted(c.id for c in made if hq.id in c.group_ids)),
        paths=tpl.paths,
        priority="priority",
        response_options=safe,
        sender_email=ops[0].email,
        sent_at=s.ago(hours=5),
        expires_at=s.ago(hours=-19),
        created_at=s.ago(hours=5),
    )
    for k, cid in enumerate(live.recipients[:12]):
        s.create(
            Response, broadcast_id=live.id, contact_id=cid, option=safe[0 if k % 5 else 1], responded_at=s.ago(hours=4)
        )
    s.create(
        Broadcast,
        title="Office reopening tomorrow",
        body="The office reopens tomorrow at 8:00 if the storm has passed.",
        incident_id=storm.id,
        group_ids=(hq.id,),
        recipients=live.recipients,
        paths=("email",),
        sender_email=ops[0].email,
        status="scheduled",
        send_at=s.ago(hours=-14),
        expires_at=s.ago(hours=-18),
        created_at=s.ago(hours=1),
    )
    old = s.create(
        Broadcast,
        title="Evacuate the building",
        body="Fire alarm: leave by the nearest exit and gather at the assembly point.",
        incident_id=fire.id,
        template_id=tpl.id,
        group_ids=(hq.id,),
        recipients=live.recipients,
        paths=("sms", "voice"),
        priority="priority",
        response_options=safe,
        sender_email=ops[-1].email,
        sent_at=s.ago(days=20),
        expires_at=s.ago(days=19),
        created_at=s.ago(days=20),
    )
    for cid in old.recipients:
        s.create(
            Response, broadcast_id=old.id, contact_id=cid, option=safe[0], responded_at=s.ago(days=20, minutes=-10)
        )
