"""Beacon Desk: support tickets, their conversations, agents, groups and macros.

Modeled on the Zendesk Support REST API v2 (Tickets, Ticket Comments, Users,
Organizations, Groups, Group Memberships, Macros, Satisfaction Ratings):
tickets move new → open → pending/on-hold → solved → closed; solving needs an
assignee, only agents can be assigned, a closed ticket is final (it cannot be
reopened, changed or commented on; a follow-up ticket is opened instead), a
requester's reply reopens a pending or solved ticket, solving a problem ticket
solves its linked incidents, and only solved tickets can be rated.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from typing import Annotated, Any, Literal

from pydantic import BaseModel, Field, StringConstraints

from compoworld.engine.context import Ctx
from compoworld.engine.errors import Conflict, NotFound, RuleViolation
from compoworld.engine.records import CREATED, UPDATED, Deleted, Record
from compoworld.engine.service import Service, Transition
from compoworld.engine.state import SeedContext
from compoworld.engine.types import (
    CompanyName,
    DateTime,
    Domain,
    Email,
    IdOf,
    Language,
    OrderNumber,
    PersonName,
    Phone,
    Text,
    Title,
)
from compoworld.services.kit.examples import first_example
from compoworld.services.kit.records import Created
from compoworld.world import commerce

__all__ = ["service"]

service = Service(
    "helpdesk",
    title="Beacon Desk",
    category="helpdesk",
    modeled_on="Zendesk Support REST API v2 (Ticket, Ticket Comment, User, Organization, Group, "
    "Group Membership, Macro, Satisfaction Rating)",
    description="Customer support ticketing: customers' requests as tickets with public replies and "
    "internal notes, the support agents and groups who work them, macros for canned responses "
    "and customer satisfaction ratings.",
)

UserId = Annotated[str, IdOf("helpdesk.user")]
OrganizationId = Annotated[str, IdOf("helpdesk.organization")]
GroupId = Annotated[str, IdOf("helpdesk.group")]
TicketId = Annotated[str, IdOf("helpdesk.ticket")]
MacroId = Annotated[str, IdOf("helpdesk.macro")]

TicketStatus = Literal["new", "open", "pending", "hold", "solved", "closed"]
Priority = Literal["low", "normal", "high", "urgent"]
TicketType = Literal["problem", "incident", "question", "task"]
Channel = Literal["email", "web", "phone", "chat", "api"]
Role = Literal["end-user", "agent", "admin"]
Score = Literal["good", "bad"]
BadReason = Literal["too_slow", "not_resolved", "agent_knowledge", "agent_attitude", "other"]
ManualStatus = Literal["open", "pending", "hold"]
GroupName = Annotated[str, StringConstraints(min_length=1, max_length=100, strip_whitespace=True)]
Tag = Annotated[str, StringConstraints(pattern=r"^[a-z0-9][a-z0-9_:.\-]{0,79}$")]
TagList = Annotated[list[Tag], Field(min_length=1, max_length=20)]

UNSOLVED: tuple[str, ...] = ("new", "open", "pending", "hold")
STAFF: tuple[str, ...] = ("agent", "admin")
FOLLOW_UP_HINT = "closed tickets are final; open a follow-up with helpdesk__create_ticket and followup_source_id"


class User(Record):
    """A person the help desk knows: an end-user who asks for help or an agent who gives it."""

    id: UserId
    name: PersonName
    """Full name."""
    email: Email
    """Primary e-mail address; unique across users."""
    role: Role = "end-user"
    """end-user (a customer), agent (works tickets) or admin (an agent who also configures the desk)."""
    organization_id: OrganizationId | None = None
    """The organization an end-user belongs to."""
    phone: Phone | None = None
    """Phone number."""
    locale: Language = "en"
    """Language the user is answered in."""
    notes: Text = ""
    """Internal notes about the user, visible to agents only."""
    suspended: bool = False
    """Whether the user is suspended: a suspended user cannot submit tickets, comment or be assigned."""
    created_at: Annotated[DateTime, CREATED]
    """When the user was added."""


class Organization(Record):
    """A customer company whose people submit tickets."""

    id: OrganizationId
    name: CompanyName
    """Company name."""
    domain: Domain | None = None
    """E-mail domain of the company's people; one organization per domain."""
    details: Text = ""
    """Details such as the support plan, visible to agents."""
    group_id: GroupId | None = None
    """Group that new tickets from this organization's users are routed to."""
    created_at: Annotated[DateTime, CREATED]
    """When the organization was added."""


class Group(Created):
    """A team of agents that tickets are routed to."""

    id: GroupId
    name: GroupName
    """Group name; unique across groups."""
    description: Text = ""
    """What the group handles."""
    is_default: bool = False
    """Whether new tickets with no other routing go to this group; the default group cannot be deleted."""


class GroupMembership(Record):
    """An agent's membership in a group; an agent can only be assigned tickets of their groups."""

    id: Annotated[str, IdOf("helpdesk.group_membership")]
    user_id: UserId
    """The agent."""
    group_id: GroupId
    """The group."""
    created_at: Annotated[DateTime, CREATED]
    """When the agent joined the group."""


class Ticket(Record):
    """A customer's request and its state in the support workflow."""

    id: TicketId
    subject: Title
    """Subject line."""
    description: Text
    """The requester's original message (also the ticket's first comment)."""
    status: TicketStatus = "new"
    """new, open, pending (waiting on the requester), hold (waiting on a third party), solved or closed (final)."""
    priority: Priority | None = None
    """Urgency: low, normal, high or urgent."""
    type: TicketType | None = None
    """problem, incident (linked to a problem), question or task (has a due date)."""
    requester_id: UserId
    """The user who asked for help."""
    assignee_id: UserId | None = None
    """The agent working the ticket; required to solve it."""
    group_id: GroupId | None = None
    """The group the ticket is routed to; the assignee must be a member."""
    organization_id: OrganizationId | None = None
    """The requester's organization."""
    via: Channel = "web"
    """Channel the ticket came in through."""
    order_number: OrderNumber | None = None
    """Number of the customer's order the ticket is about."""
    problem_id: TicketId | None = None
    """For an incident: the problem ticket it is an occurrence of."""
    followup_source_id: TicketId | None = None
    """The closed ticket this one follows up on."""
    due_at: DateTime | None = None
    """For a task: when it is due."""
    tags: tuple[Tag, ...] = ()
    """Lower-case tags used for routing and reporting."""
    solved_at: DateTime | None = None
    """When the ticket was last solved."""
    created_at: Annotated[DateTime, CREATED]
    """When the ticket was submitted."""
    updated_at: Annotated[DateTime, UPDATED]
    """When the ticket last changed."""


class Comment(Record):
    """A message on a ticket: a public reply the requester sees or an internal note for agents."""

    id: Annotated[str, IdOf("helpdesk.comment")]
    ticket_id: TicketId
    """The ticket."""
    author_id: UserId
    """Who wrote it."""
    body: Text
    """The message."""
    public: bool = True
    """True for a reply the requester sees, False for an internal note."""
    created_at: Annotated[DateTime, CREATED]
    """When it was written."""


class Macro(Record):
    """A canned set of ticket changes and an optional reply that an agent applies in one step."""

    id: MacroId
    title: Title
    """Name agents pick the macro by."""
    description: Text = ""
    """When to use it."""
    active: bool = True
    """Whether agents can apply it."""
    set_status: ManualStatus | Literal["solved"] | None = None
    """Status the ticket gets (open, pending, hold or solved); null keeps it."""
    set_priority: Priority | None = None
    """Priority the ticket gets; null keeps it."""
    set_type: TicketType | None = None
    """Type the ticket gets; null keeps it."""
    set_group_id: GroupId | None = None
    """Group the ticket is routed to; null keeps it."""
    assign_to_self: bool = False
    """Whether the agent applying the macro becomes the assignee."""
    add_tags: tuple[Tag, ...] = ()
    """Tags added to the ticket."""
    comment_body: Text = ""
    """Comment added by the agent; empty adds none."""
    comment_public: bool = True
    """Whether that comment is a public reply (else an internal note)."""
    updated_at: Annotated[DateTime, UPDATED]
    """When the macro last changed."""


class SatisfactionRating(Record):
    """The requester's rating of how a solved ticket was handled."""

    id: Annotated[str, IdOf("helpdesk.satisfaction_rating")]
    ticket_id: TicketId
    """The rated ticket; one rating per ticket."""
    requester_id: UserId
    """The requester who rated."""
    assignee_id: UserId | None = None
    """The agent the ticket was assigned to when rated."""
    group_id: GroupId | None = None
    """The ticket's group when rated."""
    score: Score
    """good or bad."""
    reason: BadReason | None = None
    """Why a bad rating was given."""
    comment: Text = ""
    """The requester's remark."""
    updated_at: Annotated[DateTime, UPDATED]
    """When the rating was given or last changed."""


# -- rules shared by tools and guards --------------------------------------------------------


def _is_member(ctx: Ctx, user_id: str, group_id: str) -> bool:
    return ctx.first(GroupMembership, user_id=user_id, group_id=group_id) is not None


def _groups_of(ctx: Ctx, user_id: str) -> list[str]:
    return [m.group_id for m in ctx.where(GroupMembership, user_id=user_id)]


def _require_agent(ctx: Ctx, user_id: str, field: str) -> User:
    user = ctx.get(User, user_id, field=field)
    if user.role not in STAFF:
        raise RuleViolation(
            f"user {user.id} ({user.name}) is an end-user, not an agent",
            field=field,
            hint="pick an agent: list users with role 'agent' or 'admin'",
        )
    if user.suspended:
        raise RuleViolation(
            f"agent {user.id} ({user.name}) is suspended",
            field=field,
            hint="pick another agent or unsuspend this one first",
        )
    return user


def _require_not_closed(ticket: Ticket, field: str = "ticket_id") -> None:
    if ticket.status == "closed":
        raise RuleViolation(f"ticket {ticket.id} is closed and cannot be changed", field=field, hint=FOLLOW_UP_HINT)


def _check_assignment(ctx: Ctx, assignee_id: str | None, group_id: str | None, field: str) -> None:
    if assignee_id is None:
        return
    _require_agent(ctx, assignee_id, field)
    if group_id is not None and not _is_member(ctx, assignee_id, group_id):
        groups = ", ".join(_groups_of(ctx, assignee_id)) or "none"
        raise RuleViolation(
            f"agent {assignee_id} is not a member of group {group_id}",
            field=field,
            hint=f"assign an agent of group {group_id}, or route the ticket to one of the agent's groups ({groups})",
        )


def _check_links(ctx: Ctx, ticket_id: str | None, type_: str | None, problem_id: str | None, due_at: Any) -> None:
    if due_at is not None and type_ != "task":
        raise RuleViolation(
            "only tasks have a due date", field="due_at", hint="set type to 'task' or leave due_at empty"
        )
    if problem_id is None:
        return
    if type_ != "incident":
        raise RuleViolation(
            "only incidents can be linked to a problem", field="problem_id", hint="set type to 'incident' as well"
        )
    if problem_id == ticket_id:
        raise RuleViolation(
            "a ticket cannot be its own problem", field="problem_id", hint="link the incident to another ticket"
        )
    problem = ctx.get(Ticket, problem_id, field="problem_id")
    if problem.type != "problem":
        raise RuleViolation(
            f"ticket {problem.id} is not a problem ticket",
            field="problem_id",
            hint="link incidents to a ticket of type 'problem' (list tickets with type='problem')",
        )


def _guard_ticket(ctx: Ctx, new: Any, old: Any) -> None:
    if old is not None and old.status == "closed":
        raise RuleViolation(f"ticket {old.id} is closed and cannot be changed", field="ticket_id", hint=FOLLOW_UP_HINT)
    if new.status == "solved" and new.assignee_id is None:
        raise RuleViolation(
            f"ticket {new.id} cannot be solved without an assignee",
            field="ticket_id",
            hint="assign an agent with helpdesk__assign_ticket first",
        )
    _check_links(ctx, new.id, new.type, new.problem_id, new.due_at)
    if old is not None and old.type == "problem" and new.type != "problem":
        linked = [t for t in ctx.where(Ticket, problem_id=old.id) if t.status in UNSOLVED]
        if linked:
            raise RuleViolation(
                f"problem {old.id} still has {len(linked)} unsolved linked incident(s)",
                field="type",
                hint="solve the problem (which solves its incidents) or unlink them first",
            )
    if old is None or new.group_id != old.group_id or new.assignee_id != old.assignee_id:
        _check_assignment(ctx, new.assignee_id, new.group_id, "group_id")


def _guard_user_update(ctx: Ctx, new: Any, old: Any) -> None:
    if old.role in STAFF and new.role == "end-user":
        open_ = [t for t in ctx.where(Ticket, assignee_id=old.id) if t.status in UNSOLVED]
        if open_:
            raise RuleViolation(
                f"agent {old.id} still has {len(open_)} unsolved ticket(s) assigned",
                field="role",
                hint="reassign their tickets with helpdesk__assign_ticket first",
            )
        if ctx.first(GroupMembership, user_id=old.id) is not None:
            raise RuleViolation(
                f"agent {old.id} is still a member of groups",
                field="role",
                hint="remove the agent's group memberships first",
            )
    if new.role in STAFF and new.organization_id is not None:
        raise RuleViolation(
            "agents do not belong to customer organizations", field="organization_id", hint="leave it empty for agents"
        )


def _guard_user_create(ctx: Ctx, new: Any, old: Any) -> None:
    _guard_user_update(ctx, new, new)


def _guard_user_delete(ctx: Ctx, new: Any, old: Any) -> None:
    if ctx.first(Ticket, requester_id=old.id) is not None or ctx.first(Ticket, assignee_id=old.id) is not None:
        raise RuleViolation(
            f"user {old.id} has tickets and cannot be deleted",
            field="user_id",
            hint="suspend the user with helpdesk__suspend_user instead",
        )
    if ctx.first(GroupMembership, user_id=old.id) is not None:
        raise RuleViolation(
            f"user {old.id} is still a member of groups", field="user_id", hint="remove the group memberships first"
        )


def _guard_membership_delete(ctx: Ctx, new: Any, old: Any) -> None:
    busy = [t for t in ctx.where(Ticket, assignee_id=old.user_id, group_id=old.group_id) if t.status in UNSOLVED]
    if busy:
        raise RuleViolation(
            f"agent {old.user_id} still has {len(busy)} unsolved ticket(s) in group {old.group_id}",
            field="group_membership_id",
            hint="reassign those tickets with helpdesk__assign_ticket first",
        )


def _guard_macro(ctx: Ctx, new: Any, old: Any) -> None:
    if not (new.set_status or new.set_priority or new.set_type or new.set_group_id or new.assign_to_self) and not (
        new.add_tags or new.comment_body.strip()
    ):
        raise RuleViolation(
            "a macro must change something", field="title", hint="set at least one action (status, tags, comment …)"
        )


users = service.resource(
    User,
    name="user",
    plural="users",
    prefix="usr",
    create=("name", "email", "role", "organization_id", "phone", "locale", "notes"),
    filters=("role", "organization_id", "email", "suspended"),
    search=("name", "email"),
    update=("name", "email", "role", "organization_id", "phone", "locale", "notes"),
    transitions={
        "suspend": Transition("suspended", (False,), True, "suspend the user"),
        "unsuspend": Transition("suspended", (True,), False, "lift the user's suspension"),
    },
    unique=("email",),
    guard_create=_guard_user_create,
    guard_update=_guard_user_update,
    guard_delete=_guard_user_delete,
    title="help desk user",
)
organizations = service.resource(
    Organization,
    name="organization",
    plural="organizations",
    prefix="org",
    filters=("domain", "group_id"),
    search=("name", "domain"),
    update=("name", "domain", "details", "group_id"),
    delete=False,
    unique=("domain",),
)
groups = service.resource(
    Group,
    name="group",
    plural="groups",
    prefix="grp",
    create=("name", "description"),
    filters=("is_default",),
    search=("name", "description"),
    update=("name", "description"),
    delete=False,
    unique=("name",),
    title="agent group",
)
memberships = service.resource(
    GroupMembership,
    name="group_membership",
    plural="group_memberships",
    prefix="gm",
    create=False,
    filters=("user_id", "group_id"),
    guard_delete=_guard_membership_delete,
    title="group membership",
)
tickets = service.resource(
    Ticket,
    name="ticket",
    plural="tickets",
    prefix="tkt",
    create=False,
    filters=(
        "status",
        "priority",
        "type",
        "requester_id",
        "assignee_id",
        "group_id",
        "organization_id",
        "order_number",
        "problem_id",
        "via",
    ),
    search=("subject", "description"),
    update=("subject", "priority", "type", "group_id", "order_number", "problem_id", "due_at"),
    delete=False,
    transitions={
        "close": Transition(
            "status",
            ("solved",),
            "closed",
            "close the solved ticket for good",
            description="Close a solved ticket: sets status to 'closed'. Closed tickets are final: they cannot "
            "be reopened, changed or commented on (a follow-up ticket is opened instead).",
            destructive=True,
        ),
    },
    guard_update=_guard_ticket,
    title="support ticket",
)
comments = service.resource(
    Comment,
    name="comment",
    plural="comments",
    prefix="cmt",
    create=False,
    filters=("ticket_id", "author_id", "public"),
    search=("body",),
    delete=False,
    title="ticket comment",
)
macros = service.resource(
    Macro,
    name="macro",
    plural="macros",
    prefix="mac",
    filters=("active", "set_status", "set_group_id"),
    search=("title", "description"),
    update=(
        "title",
        "description",
        "set_status",
        "set_priority",
        "set_type",
        "set_group_id",
        "assign_to_self",
        "add_tags",
        "comment_body",
        "comment_public",
    ),
    transitions={
        "activate": Transition("active", (False,), True, "make the macro available to agents"),
        "deactivate": Transition("active", (True,), False, "retire the macro"),
    },
    guard_create=_guard_macro,
    guard_update=_guard_macro,
)
ratings = service.resource(
    SatisfactionRating,
    name="satisfaction_rating",
    plural="satisfaction_ratings",
    prefix="csat",
    create=False,
    filters=("ticket_id", "score", "assignee_id", "group_id", "requester_id"),
    search=("comment",),
    delete=False,
    title="satisfaction rating",
)


# -- helpers --------------------------------------------------------------------------------


def _default_group(ctx: Ctx) -> str | None:
    grp = ctx.first(Group, is_default=True)
    return grp.id if grp else None


def _solve(ctx: Ctx, ticket: Ticket) -> tuple[Ticket, list[str]]:
    """Solve ``ticket`` (already checked) and, for a problem, its unsolved incidents."""
    solved = ctx.update(ticket, status="solved", solved_at=ctx.now())
    cascaded: list[str] = []
    if solved.type == "problem":
        for inc in ctx.where(Ticket, problem_id=solved.id):
            if inc.status not in UNSOLVED:
                continue
            changes: dict[str, Any] = {"status": "solved", "solved_at": ctx.now()}
            if inc.assignee_id is None:
                changes.update(assignee_id=solved.assignee_id, group_id=solved.group_id)
            ctx.update(inc, **changes)
            cascaded.append(inc.id)
    return solved, cascaded


def _ticket_in(ctx: Ctx, *statuses: str, assigned: bool | None = None, type_: str | None = None) -> Ticket:
    """The first ticket in one of ``statuses`` (for example providers); LookupError when there is none."""
    for t in ctx.scan(Ticket):
        if t.status not in statuses:
            continue
        if assigned is not None and (t.assignee_id is not None) != assigned:
            continue
        if type_ is not None and t.type != type_:
            continue
        return t
    raise LookupError(f"no ticket in status {statuses}")


def _agent_in_group(ctx: Ctx, group_id: str | None) -> str:
    """An active agent of the group, or of any group (for example providers); LookupError when there is none."""
    for m in ctx.where(GroupMembership, group_id=group_id) if group_id else ctx.scan(GroupMembership):
        user = ctx.get(User, m.user_id)
        if not user.suspended:
            return user.id
    raise LookupError("no agent")


# -- domain tools ---------------------------------------------------------------------------


def _example_create(ctx: Ctx) -> dict[str, Any]:
    orders = commerce.first_order_numbers(ctx.population)
    requester = next(
        u for u in ctx.where(User, role="end-user", suspended=False, organization_id=None) if u.email in orders
    )
    return {
        "subject": "Package arrived damaged",
        "description": "The box was crushed and the item inside is broken.",
        "requester_email": requester.email,
        "priority": "high",
        "type": "incident",
        "via": "email",
        "order_number": orders[requester.email],
        "tags": ["damaged"],
    }


@service.tool(intent="open a support ticket for the customer", write=True, example=_example_create)
def create_ticket(
    ctx: Ctx,
    subject: Title,
    description: Text,
    requester_email: Email,
    requester_name: PersonName | None = None,
    priority: Priority | None = None,
    type: TicketType | None = None,
    via: Channel = "web",
    group_id: GroupId | None = None,
    assignee_id: UserId | None = None,
    order_number: OrderNumber | None = None,
    problem_id: TicketId | None = None,
    due_at: DateTime | None = None,
    followup_source_id: TicketId | None = None,
    tags: list[Tag] | None = None,
) -> Ticket:
    """Open a ticket on behalf of a requester; the description becomes its first public comment.

    The requester is found by e-mail, or created as an end-user when a name is
    given. The ticket is routed to the given group, else the requester's
    organization's group, else the default group. It starts as new, or open when
    an assignee (an agent of that group) is given. A closed ticket cannot be
    reopened: pass it as followup_source_id to open a follow-up instead.

    Args:
        subject: Subject line.
        description: The requester's message.
        requester_email: E-mail of the person asking for help.
        requester_name: Full name, used to create the requester when no user has that e-mail.
        priority: low, normal, high or urgent.
        type: problem, incident, question or task.
        via: Channel the request came in through.
        group_id: Group to route the ticket to.
        assignee_id: Agent to assign; must be a member of the ticket's group.
        order_number: Number of the customer's order the request is about.
        problem_id: For an incident, the problem ticket it belongs to.
        due_at: For a task, when it is due.
        followup_source_id: A closed ticket this request follows up on.
        tags: Tags to set (lower case, no spaces).
    """
    if not description.strip():
        raise RuleViolation("the description must not be empty", field="description", hint="describe the request")
    requester = ctx.first(User, email=requester_email)
    if requester is None:
        if requester_name is None:
            raise NotFound(
                f"no user with e-mail {requester_email}",
                field="requester_email",
                hint="pass requester_name to create the requester as a new end-user",
            )
        requester = ctx.create(User, name=requester_name, email=requester_email, role="end-user")
    if requester.suspended:
        raise RuleViolation(
            f"requester {requester.id} is suspended and cannot submit tickets",
            field="requester_email",
            hint="unsuspend the user with helpdesk__unsuspend_user first",
        )
    if followup_source_id is not None:
        source = ctx.get(Ticket, followup_source_id, field="followup_source_id")
        if source.status != "closed":
            raise RuleViolation(
                f"ticket {source.id} is {source.status}; follow-ups are only for closed tickets",
                field="followup_source_id",
                hint="add a comment to the ticket or reopen it with helpdesk__set_ticket_status instead",
            )
    if problem_id is not None:
        problem = ctx.get(Ticket, problem_id, field="problem_id")
        if problem.status not in UNSOLVED:
            raise RuleViolation(
                f"problem {problem.id} is already {problem.status}",
                field="problem_id",
                hint="link new incidents only to unsolved problems",
            )
    _check_links(ctx, None, type, problem_id, due_at)
    org = ctx.find(Organization, requester.organization_id) if requester.organization_id else None
    group = group_id or (org.group_id if org else None) or _default_group(ctx)
    _check_assignment(ctx, assignee_id, group, "assignee_id")
    ticket = ctx.create(
        Ticket,
        subject=subject,
        description=description,
        status="open" if assignee_id else "new",
        priority=priority,
        type=type,
        requester_id=requester.id,
        assignee_id=assignee_id,
        group_id=group,
        organization_id=requester.organization_id,
        via=via,
        order_number=order_number,
        problem_id=problem_id,
        followup_source_id=followup_source_id,
        due_at=due_at,
        tags=tuple(sorted(set(tags or ()))),
    )
    ctx.create(Comment, ticket_id=ticket.id, author_id=requester.id, body=description, public=True)
    return ticket


def _example_comment(ctx: Ctx) -> dict[str, Any]:
    t = _ticket_in(ctx, "open", assigned=True)
    return {"ticket_id": t.id, "author_id": t.assignee_id, "body": "Thanks, we are looking into it.", "public": True}


@service.tool(intent="reply on the ticket or leave an internal note", write=True, example=_example_comment)
def add_ticket_comment(ctx: Ctx, ticket_id: TicketId, author_id: UserId, body: Text, public: bool = True) -> Comment:
    """Add a public reply or an internal note to a ticket.

    Agents may write either; an end-user may only reply publicly on their own
    ticket, and their reply reopens a pending or solved ticket. Closed tickets
    cannot be commented on.

    Args:
        ticket_id: The ticket.
        author_id: The user writing: an agent, or the ticket's requester.
        body: The message.
        public: True for a reply the requester sees, False for an internal note (agents only).
    """
    ticket = ctx.get(Ticket, ticket_id, field="ticket_id")
    _require_not_closed(ticket)
    if not body.strip():
        raise RuleViolation("the comment body must not be empty", field="body", hint="write a message")
    author = ctx.get(User, author_id, field="author_id")
    if author.suspended:
        raise RuleViolation(
            f"user {author.id} is suspended and cannot comment",
            field="author_id",
            hint="unsuspend the user with helpdesk__unsuspend_user, or comment as another user",
        )
    if author.role == "end-user":
        if author.id != ticket.requester_id:
            raise RuleViolation(
                f"end-user {author.id} is not the requester of ticket {ticket.id}",
                field="author_id",
                hint="only the requester or an agent can comment on a ticket",
            )
        if not public:
            raise RuleViolation(
                "end-users cannot write internal notes", field="public", hint="pass public=true for a customer reply"
            )
    comment = ctx.create(Comment, ticket_id=ticket.id, author_id=author.id, body=body, public=public)
    if author.role == "end-user" and ticket.status in ("pending", "solved"):
        ctx.update(ticket, status="open", solved_at=None)
    else:
        ctx.update(ticket)  # touch updated_at like any ticket update
    return comment


def _example_assign(ctx: Ctx) -> dict[str, Any] | None:
    for t in ctx.where(Ticket, status="new"):
        try:
            return {"ticket_id": t.id, "assignee_id": _agent_in_group(ctx, t.group_id)}
        except LookupError:
            continue
    return None


@service.tool(intent="assign the ticket to an agent", write=True, example=_example_assign)
def assign_ticket(ctx: Ctx, ticket_id: TicketId, assignee_id: UserId, group_id: GroupId | None = None) -> Ticket:
    """Assign a ticket to an agent, optionally moving it to another group.

    Only agents (not end-users, not suspended users) can be assignees, and the
    assignee must be a member of the ticket's group. Without a group the
    ticket goes to the agent's first group. Assigning a new ticket opens it.

    Args:
        ticket_id: The ticket.
        assignee_id: The agent to assign.
        group_id: Group to move the ticket to; omit to keep the ticket's group.
    """
    ticket = ctx.get(Ticket, ticket_id, field="ticket_id")
    _require_not_closed(ticket)
    agent = _require_agent(ctx, assignee_id, "assignee_id")
    group = group_id or ticket.group_id
    if group is None:
        mine = _groups_of(ctx, agent.id)
        if not mine:
            raise RuleViolation(
                f"agent {agent.id} belongs to no group",
                field="assignee_id",
                hint="add the agent to a group with helpdesk__create_group_membership first",
            )
        group = mine[0]
    _check_assignment(ctx, agent.id, group, "group_id" if group_id else "assignee_id")
    status = "open" if ticket.status == "new" else ticket.status
    return ctx.update(ticket, assignee_id=agent.id, group_id=group, status=status)


@service.tool(
    intent="change the ticket's status",
    write=True,
    example=first_example(Ticket, "ticket_id", where={"status": "open"}, status="pending"),
)
def set_ticket_status(ctx: Ctx, ticket_id: TicketId, status: ManualStatus) -> Ticket:
    """Set a ticket to open, pending (waiting on the requester) or hold (waiting on a third party).

    A solved ticket can be reopened this way; a closed ticket cannot. To solve
    use helpdesk__solve_ticket; to close, helpdesk__close_ticket.

    Args:
        ticket_id: The ticket.
        status: open, pending or hold.
    """
    ticket = ctx.get(Ticket, ticket_id, field="ticket_id")
    if ticket.status == "closed":
        raise RuleViolation(
            f"ticket {ticket.id} is closed and cannot be reopened", field="ticket_id", hint=FOLLOW_UP_HINT
        )
    if ticket.status == status:
        raise RuleViolation(
            f"ticket {ticket.id} is already {status}", field="status", hint="nothing to do; pick another status"
        )
    return ctx.update(ticket, status=status, solved_at=None)


class SolveResult(BaseModel):
    """A solved ticket and the incidents solved with it."""

    ticket: Ticket = Field(description="The solved ticket.")
    solved_incident_ids: list[TicketId] = Field(
        description="Incidents linked to a solved problem that were solved along with it."
    )


def _example_solve(ctx: Ctx) -> dict[str, Any]:
    t = _ticket_in(ctx, "open", assigned=True)
    return {"ticket_id": t.id, "comment": "This is fixed now; let us know if anything else comes up."}


@service.tool(intent="mark the ticket as solved", write=True, example=_example_solve)
def solve_ticket(ctx: Ctx, ticket_id: TicketId, comment: Text | None = None, public: bool = True) -> SolveResult:
    """Solve a ticket, optionally with a closing reply from its assignee.

    A ticket cannot be solved without an assignee. Solving a problem ticket
    also solves its unsolved linked incidents. Closed tickets cannot change.

    Args:
        ticket_id: The ticket.
        comment: A reply or note from the assignee to add while solving.
        public: Whether that comment is a public reply (else an internal note).
    """
    ticket = ctx.get(Ticket, ticket_id, field="ticket_id")
    _require_not_closed(ticket)
    if ticket.status == "solved":
        raise RuleViolation(f"ticket {ticket.id} is already solved", field="ticket_id", hint="close it or leave it")
    if ticket.assignee_id is None:
        raise RuleViolation(
            f"ticket {ticket.id} cannot be solved without an assignee",
            field="ticket_id",
            hint="assign an agent with helpdesk__assign_ticket first",
        )
    if comment is not None and comment.strip():
        ctx.create(Comment, ticket_id=ticket.id, author_id=ticket.assignee_id, body=comment, public=public)
    solved, cascaded = _solve(ctx, ticket)
    return SolveResult(ticket=solved, solved_incident_ids=cascaded)


class MacroApplication(BaseModel):
    """What applying a macro did."""

    ticket: Ticket = Field(description="The ticket after the macro's changes.")
    comment: Comment | None = Field(description="The comment the macro added, if any.")
    solved_incident_ids: list[TicketId] = Field(description="Incidents solved along with a solved problem.")


def _example_macro(ctx: Ctx) -> dict[str, Any]:
    t = _ticket_in(ctx, "open", assigned=True)
    macro = next(m for m in ctx.where(Macro, active=True) if m.set_group_id is None and m.set_status != "solved")
    return {"ticket_id": t.id, "macro_id": macro.id, "agent_id": t.assignee_id}


@service.tool(intent="apply the macro to the ticket", write=True, example=_example_macro)
def apply_macro(ctx: Ctx, ticket_id: TicketId, macro_id: MacroId, agent_id: UserId) -> MacroApplication:
    """Apply a macro's changes (status, priority, type, group, assignee, tags, comment) to a ticket.

    The macro must be active and the ticket not closed. The same rules as
    manual changes hold: a ticket it solves must end up with an assignee, and
    the assignee must belong to the ticket's group.

    Args:
        ticket_id: The ticket.
        macro_id: The macro.
        agent_id: The agent applying it: the author of its comment and, if the macro says so, the new assignee.
    """
    ticket = ctx.get(Ticket, ticket_id, field="ticket_id")
    _require_not_closed(ticket)
    macro = ctx.get(Macro, macro_id, field="macro_id")
    if not macro.active:
        raise RuleViolation(
            f"macro {macro.id} ({macro.title}) is inactive",
            field="macro_id",
            hint="use an active macro or activate it with helpdesk__activate_macro",
        )
    agent = _require_agent(ctx, agent_id, "agent_id")
    assignee = agent.id if macro.assign_to_self else ticket.assignee_id
    group = macro.set_group_id or ticket.group_id
    if macro.set_group_id and not macro.assign_to_self and assignee and not _is_member(ctx, assignee, group or ""):
        assignee = None  # moving to another group unassigns, as the product does
    _check_assignment(ctx, assignee, group, "macro_id" if not macro.assign_to_self else "agent_id")
    status: str = macro.set_status or ticket.status
    if status == "new" and assignee is not None:
        status = "open"
    if status == "solved" and assignee is None:
        raise RuleViolation(
            f"macro {macro.id} solves the ticket but ticket {ticket.id} has no assignee",
            field="macro_id",
            hint="assign the ticket first, or use a macro that assigns it to you",
        )
    new_type = macro.set_type or ticket.type
    linked = ctx.where(Ticket, problem_id=ticket.id) if ticket.type == "problem" and new_type != "problem" else []
    if any(t.status in UNSOLVED for t in linked):
        raise RuleViolation(
            f"macro {macro.id} would turn problem {ticket.id} into a {new_type} while incidents are linked to it",
            field="macro_id",
            hint="solve the problem first, or use a macro that keeps the ticket type",
        )
    problem_id = ticket.problem_id if new_type == "incident" else None
    due_at = ticket.due_at if new_type == "task" else None
    updated = ctx.update(
        ticket,
        priority=macro.set_priority or ticket.priority,
        type=new_type,
        problem_id=problem_id,
        due_at=due_at,
        group_id=group,
        assignee_id=assignee,
        status=status if status != "solved" else ticket.status,
        tags=tuple(sorted(set(ticket.tags) | set(macro.add_tags))),
    )
    comment = None
    if macro.comment_body.strip():
        comment = ctx.create(
            Comment, ticket_id=ticket.id, author_id=agent.id, body=macro.comment_body, public=macro.comment_public
        )
    cascaded: list[str] = []
    if status == "solved" and updated.status != "solved":
        updated, cascaded = _solve(ctx, updated)
    return MacroApplication(ticket=updated, comment=comment, solved_incident_ids=cascaded)


@service.tool(
    intent="tag the ticket",
    write=True,
    idempotent=True,
    example=first_example(Ticket, "ticket_id", where={"status": "open"}, tags=["vip", "follow_up"]),
)
def add_ticket_tags(ctx: Ctx, ticket_id: TicketId, tags: TagList) -> Ticket:
    """Add tags to a ticket; tags it already has are kept once.

    Closed tickets cannot be changed.

    Args:
        ticket_id: The ticket.
        tags: Tags to add (lower case letters, digits, and _ - : .; no spaces).
    """
    ticket = ctx.get(Ticket, ticket_id, field="ticket_id")
    _require_not_closed(ticket)
    merged = tuple(sorted(set(ticket.tags) | set(tags)))
    if merged == ticket.tags:
        return ticket
    return ctx.update(ticket, tags=merged)


def _example_untag(ctx: Ctx) -> dict[str, Any] | None:
    for t in ctx.scan(Ticket):
        if t.status in UNSOLVED and t.tags:
            return {"ticket_id": t.id, "tags": [t.tags[0]]}
    return None


@service.tool(intent="remove tags from the ticket", write=True, idempotent=True, example=_example_untag)
def remove_ticket_tags(ctx: Ctx, ticket_id: TicketId, tags: TagList) -> Ticket:
    """Remove tags from a ticket; tags it does not have are ignored.

    Closed tickets cannot be changed.

    Args:
        ticket_id: The ticket.
        tags: Tags to remove.
    """
    ticket = ctx.get(Ticket, ticket_id, field="ticket_id")
    _require_not_closed(ticket)
    kept = tuple(t for t in ticket.tags if t not in set(tags))
    if kept == ticket.tags:
        return ticket
    return ctx.update(ticket, tags=kept)


@service.tool(
    intent="record the customer's satisfaction rating",
    write=True,
    example=first_example(
        Ticket, "ticket_id", where={"status": "solved"}, score="good", comment="Quick and friendly help."
    ),
)
def rate_ticket(
    ctx: Ctx, ticket_id: TicketId, score: Score, comment: Text = "", reason: BadReason | None = None
) -> SatisfactionRating:
    """Record the requester's satisfaction rating of a solved ticket, or change the one they gave.

    Only solved tickets can be rated; once a ticket is closed its rating is
    final. A reason can only be given with a bad score.

    Args:
        ticket_id: The solved ticket.
        score: good or bad.
        comment: The requester's remark.
        reason: Why the score is bad (too_slow, not_resolved, agent_knowledge, agent_attitude, other).
    """
    ticket = ctx.get(Ticket, ticket_id, field="ticket_id")
    if ticket.status != "solved":
        hint = (
            "a closed ticket's rating is final"
            if ticket.status == "closed"
            else "ratings are collected once the ticket is solved"
        )
        raise RuleViolation(
            f"ticket {ticket.id} is {ticket.status}; only solved tickets can be rated", field="ticket_id", hint=hint
        )
    if reason is not None and score != "bad":
        raise RuleViolation("a reason can only be given with a bad score", field="reason", hint="omit the reason")
    existing = ctx.first(SatisfactionRating, ticket_id=ticket.id)
    values: dict[str, Any] = {
        "requester_id": ticket.requester_id,
        "assignee_id": ticket.assignee_id,
        "group_id": ticket.group_id,
        "score": score,
        "reason": reason,
        "comment": comment,
    }
    if existing is not None:
        return ctx.update(existing, **values)
    return ctx.create(SatisfactionRating, ticket_id=ticket.id, **values)


class MergeResult(BaseModel):
    """The outcome of merging tickets."""

    target: Ticket = Field(description="The ticket the others were merged into.")
    closed_ticket_ids: list[TicketId] = Field(description="The merged tickets, now closed.")


def _example_merge(ctx: Ctx) -> dict[str, Any]:
    unsolved = [t for t in ctx.scan(Ticket) if t.status in ("new", "open") and t.type != "problem"]
    for target in unsolved:
        for source in unsolved:
            if source.id != target.id and source.requester_id == target.requester_id:
                return {
                    "target_ticket_id": target.id,
                    "source_ticket_ids": [source.id],
                    "agent_id": _agent_in_group(ctx, None),
                }
    a, b = unsolved[0], unsolved[1]
    return {"target_ticket_id": a.id, "source_ticket_ids": [b.id], "agent_id": _agent_in_group(ctx, None)}


@service.tool(intent="merge duplicate tickets into one", write=True, destructive=True, example=_example_merge)
def merge_tickets(
    ctx: Ctx,
    target_ticket_id: TicketId,
    source_ticket_ids: Annotated[list[TicketId], Field(min_length=1, max_length=5)],
    agent_id: UserId,
) -> MergeResult:
    """Merge duplicate tickets into a target ticket and close them.

    Each source ticket gets an internal note and is closed; the target gets a
    note quoting each source's description. No ticket involved may be closed,
    a ticket cannot be merged into itself, and a problem with unsolved
    incidents cannot be merged away.

    Args:
        target_ticket_id: The ticket that stays.
        source_ticket_ids: The duplicates to merge into it (1 to 5).
        agent_id: The agent performing the merge; authors the notes.
    """
    target = ctx.get(Ticket, target_ticket_id, field="target_ticket_id")
    _require_not_closed(target, "target_ticket_id")
    agent = _require_agent(ctx, agent_id, "agent_id")
    if len(set(source_ticket_ids)) != len(source_ticket_ids):
        raise RuleViolation("source tickets are listed twice", field="source_ticket_ids", hint="list each ticket once")
    if target.id in source_ticket_ids:
        raise RuleViolation(
            f"ticket {target.id} cannot be merged into itself",
            field="source_ticket_ids",
            hint="leave the target out of the source tickets",
        )
    sources: list[Ticket] = []
    for i, sid in enumerate(source_ticket_ids):
        src = ctx.get(Ticket, sid, field=f"source_ticket_ids.{i}")
        _require_not_closed(src, f"source_ticket_ids.{i}")
        if any(t.status in UNSOLVED for t in ctx.where(Ticket, problem_id=src.id)):
            raise RuleViolation(
                f"problem {src.id} has unsolved incidents and cannot be merged away",
                field=f"source_ticket_ids.{i}",
                hint="merge into the problem instead, or solve it first",
            )
        sources.append(src)
    for src in sources:
        ctx.create(
            Comment,
            ticket_id=src.id,
            author_id=agent.id,
            body=f"This request was closed and merged into request {target.id} ({target.subject}).",
            public=False,
        )
        ctx.update(src, status="closed", solved_at=src.solved_at or ctx.now())
        ctx.create(
            Comment,
            ticket_id=target.id,
            author_id=agent.id,
            body=f"Request {src.id} ({src.subject}) was closed and merged into this request: {src.description}",
            public=False,
        )
    merged_tags = tuple(sorted(set(target.tags).union(*(s.tags for s in sources))))
    target = ctx.update(
        target,
        tags=merged_tags,
        order_number=target.order_number or next((s.order_number for s in sources if s.order_number), None),
    )
    return MergeResult(target=target, closed_ticket_ids=[s.id for s in sources])


def _example_membership(ctx: Ctx) -> dict[str, Any] | None:
    for user in ctx.where(User, role="agent", suspended=False):
        mine = set(_groups_of(ctx, user.id))
        for group in ctx.scan(Group):
            if group.id not in mine:
                return {"user_id": user.id, "group_id": group.id}
    return None


@service.tool(intent="add the agent to the group", write=True, example=_example_membership)
def create_group_membership(ctx: Ctx, user_id: UserId, group_id: GroupId) -> GroupMembership:
    """Add an agent to a group, so that the group's tickets can be assigned to them.

    Only agents and admins can join groups, and suspended agents cannot; an
    agent is in a group at most once.

    Args:
        user_id: The agent.
        group_id: The group.
    """
    agent = ctx.get(User, user_id, field="user_id")
    if agent.role not in STAFF:
        raise RuleViolation(
            f"user {agent.id} is an end-user; only agents can join groups",
            field="user_id",
            hint="make the user an agent with helpdesk__update_user first",
        )
    if agent.suspended:
        raise RuleViolation(
            f"agent {agent.id} is suspended", field="user_id", hint="unsuspend the agent with helpdesk__unsuspend_user"
        )
    ctx.get(Group, group_id, field="group_id")
    if _is_member(ctx, agent.id, group_id):
        raise Conflict(
            f"agent {agent.id} is already a member of group {group_id}",
            field="group_id",
            hint="nothing to do; list the agent's group memberships to check",
        )
    return ctx.create(GroupMembership, user_id=agent.id, group_id=group_id)


@service.tool(
    intent="delete the agent group",
    write=True,
    destructive=True,
    example=first_example(
        Group,
        "group_id",
        where={"is_default": False},
        match=lambda ctx, g: not any(t.status in UNSOLVED for t in ctx.where(Ticket, group_id=g.id)),
    ),
)
def delete_group(ctx: Ctx, group_id: GroupId) -> Deleted:
    """Delete a group: its memberships end and organizations routed to it lose their routing.

    The default group cannot be deleted, nor a group that still has unsolved
    tickets (move them to another group first). Solved and closed tickets keep
    the group's id in their history.

    Args:
        group_id: The group.
    """
    group = ctx.get(Group, group_id, field="group_id")
    if group.is_default:
        raise RuleViolation(
            f"group {group.id} is the default group and cannot be deleted",
            field="group_id",
            hint="the default group receives unrouted tickets; delete another group",
        )
    busy = [t.id for t in ctx.where(Ticket, group_id=group.id) if t.status in UNSOLVED]
    if busy:
        raise RuleViolation(
            f"group {group.id} still has {len(busy)} unsolved ticket(s)",
            field="group_id",
            hint="move them to another group with helpdesk__assign_ticket or helpdesk__update_ticket first",
        )
    for m in ctx.where(GroupMembership, group_id=group.id):
        ctx.delete(m)
    for org in ctx.where(Organization, group_id=group.id):
        ctx.update(org, group_id=None)
    for macro in ctx.where(Macro, set_group_id=group.id):
        ctx.update(macro, set_group_id=None, active=False)
    ctx.delete(group)
    return Deleted(id=group.id)


class OrganizationDeletion(BaseModel):
    """What deleting an organization did."""

    id: OrganizationId = Field(description="The deleted organization.")
    detached_user_ids: list[UserId] = Field(description="Its users, who now belong to no organization.")


@service.tool(
    intent="delete the organization",
    write=True,
    destructive=True,
    example=first_example(
        Organization,
        "organization_id",
        match=lambda ctx, org: not any(t.status in UNSOLVED for t in ctx.where(Ticket, organization_id=org.id)),
    ),
)
def delete_organization(ctx: Ctx, organization_id: OrganizationId) -> OrganizationDeletion:
    """Delete an organization; its users stay, without an organization.

    An organization with unsolved tickets cannot be deleted (solve or move
    them first). Solved and closed tickets keep the organization's id in their
    history.

    Args:
        organization_id: The organization.
    """
    org = ctx.get(Organization, organization_id, field="organization_id")
    busy = [t.id for t in ctx.where(Ticket, organization_id=org.id) if t.status in UNSOLVED]
    if busy:
        raise RuleViolation(
            f"organization {org.id} still has {len(busy)} unsolved ticket(s) ({', '.join(busy[:5])})",
            field="organization_id",
            hint="solve those tickets first",
        )
    detached = []
    for user in ctx.where(User, organization_id=org.id):
        detached.append(ctx.update(user, organization_id=None).id)
    ctx.delete(org)
    return OrganizationDeletion(id=org.id, detached_user_ids=detached)


@service.tool(intent="find the help desk user with this e-mail address")
def find_user_by_email(ctx: Ctx, email: Email) -> User:
    """Find the user (end-user or agent) whose e-mail is the given address.

    Args:
        email: The e-mail address.
    """
    found = ctx.first(User, email=email)
    if found is None:
        raise NotFound(
            f"no help desk user with e-mail {email}",
            field="email",
            hint="search users by name with helpdesk__list_users, or create one with helpdesk__create_user",
        )
    return found


# -- seed ---------------------------------------------------------------------------------

GROUPS = (
    ("General Support", "Everything not routed elsewhere.", True),
    ("Orders & Shipping", "Order status, delivery problems, returns and exchanges.", False),
    ("Billing", "Invoices, payments, refunds and charges.", False),
    ("Technical Support", "Product defects, set-up problems and escalations.", False),
    ("Onboarding", "New business customers getting started; no current queue.", False),
)

REQUESTS: tuple[tuple[str, str, int, TicketType | None, str], ...] = (
    (
        "Where is my order {order}?",
        "I ordered a week ago and the tracking has not moved. Can you check?",
        1,
        "question",
        "shipping",
    ),
    (
        "Item damaged in order {order}",
        "The {product} arrived with a cracked casing. I'd like a replacement.",
        1,
        "incident",
        "damaged",
    ),
    (
        "Refund for order {order}",
        "I returned the {product} two weeks ago and have not been refunded yet.",
        2,
        "question",
        "refund",
    ),
    (
        "Charged twice",
        "My card was charged twice for the same purchase. Please reverse one charge.",
        2,
        "incident",
        "billing",
    ),
    ("Invoice address is wrong", "Our invoices show an old billing address; please update it.", 2, "task", "invoice"),
    ("{product} stopped working", "After a month the {product} will not turn on any more.", 3, "incident", "defect"),
    (
        "How do I set up the {product}?",
        "The manual is unclear about the first-time set-up steps.",
        3,
        "question",
        "how_to",
    ),
    ("Wrong item received", "I ordered the {product} but received something else.", 1, "incident", "wrong_item"),
    (
        "Change delivery address for {order}",
        "Please ship my order to my office address instead.",
        1,
        "task",
        "address_change",
    ),
    ("Bulk pricing for the {product}", "We'd like a quote for 50 units of the {product}.", 0, "question", "sales"),
)

PROBLEMS = (
    ("Checkout fails with payment error for some cards", "Several customers report a payment error at checkout.", 2),
    ("{product} firmware update bricks devices", "Devices stop booting after the latest firmware update.", 3),
)

REPLIES = (
    "Thanks for reaching out, I'm looking into this now.",
    "Could you send us a photo of the problem, please?",
    "I've escalated this to the team and will update you shortly.",
    "The replacement is on its way; you'll get a tracking number by e-mail.",
)
NOTES = (
    "Customer is a repeat buyer; prioritise.",
    "Checked the order: it left the warehouse on time.",
    "Waiting for the carrier's investigation.",
)

MACROS: tuple[dict[str, Any], ...] = (
    {
        "title": "Take it",
        "description": "Assign the ticket to yourself and open it.",
        "assign_to_self": True,
        "set_status": "open",
    },
    {
        "title": "Ask for more information",
        "description": "Ask the requester for details and wait.",
        "set_status": "pending",
        "comment_body": "Could you send us more details (order number, photos) so we can help?",
    },
    {
        "title": "Close and thank",
        "description": "Solve with a thank-you reply.",
        "set_status": "solved",
        "comment_body": "Glad we could help! This ticket is now solved; just reply if anything else comes up.",
    },
    {
        "title": "Escalate to technical support",
        "description": "Hand a defect over to the technical team.",
        "set_priority": "high",
        "set_group": "Technical Support",
        "add_tags": ("escalated",),
        "comment_body": "Escalating to technical support: customer reports a product defect.",
        "comment_public": False,
    },
    {
        "title": "Refund issued",
        "description": "Tell the customer the refund went out and solve.",
        "set_status": "solved",
        "set_group": "Billing",
        "assign_to_self": True,
        "add_tags": ("refund",),
        "comment_body": "We've issued your refund; it should appear on your statement within 5-10 business days.",
    },
    {
        "title": "Tag as VIP",
        "description": "Mark the requester's ticket as VIP and urgent.",
        "set_priority": "urgent",
        "add_tags": ("vip",),
    },
    {
        "title": "Holiday delays notice",
        "description": "Seasonal notice about shipping delays (retired).",
        "active": False,
        "comment_body": "Due to the holidays, deliveries may take a few extra days.",
    },
)


@service.seeder
def seed(s: SeedContext) -> None:
    """Groups of Support agents, end-users from contacts and consumers, tickets in every state, macros."""
    pop = s.population
    groups_ = _seed_groups(s)
    members = _seed_agents(s, groups_)
    orgs = _seed_organizations(s, groups_)
    end_users = _seed_end_users(s, orgs)
    # About two thirds of the customers have ever contacted support; every fourth company never has.
    quiet_orgs = {org.id for k, org in enumerate(orgs.values()) if k % 4 == 3}
    requesters = [
        u for k, u in enumerate(end_users) if not u.suspended and k % 3 != 1 and u.organization_id not in quiet_orgs
    ]
    desk = _Desk(s, groups_, members, orgs, commerce.first_order_numbers(pop))
    _seed_tickets(desk, requesters)
    _seed_macros(s, groups_)


def _seed_groups(s: SeedContext) -> dict[str, Group]:
    return {
        name: s.create(Group, name=name, description=desc, is_default=default, created_at=s.ago(days=400))
        for name, desc, default in GROUPS
    }


def _active_groups(groups_: dict[str, Group]) -> list[Group]:
    """The groups with a queue (Onboarding has none yet)."""
    return [g for g in groups_.values() if g.name != "Onboarding"]


def _seed_agents(s: SeedContext, groups_: dict[str, Group]) -> dict[str, list[User]]:
    """The Support staff as agents in their home group and the default one; the agents of each group."""
    pop = s.population
    active_groups = _active_groups(groups_)
    support = pop.staff("Support", fallback=4)
    members: dict[str, list[User]] = {g.id: [] for g in groups_.values()}
    for i, person in enumerate(support):
        lead = "Lead" in person.job_title or i == 0
        agent = s.create(
            User,
            name=person.name,
            email=person.email,
            role="admin" if lead else "agent",
            phone=person.phone,
            locale="en",
            notes=person.job_title,
            created_at=s.ago(days=300),
        )
        home = active_groups[i % len(active_groups)]
        mine = [home, groups_["General Support"]] if home.name != "General Support" else [home]
        if i % 3 == 2:
            mine.append(s.rng.choice(active_groups))
        if i % 2 == 0:
            mine.append(groups_["Onboarding"])  # a team with no queue yet
        for g in dict.fromkeys(mine):
            s.create(GroupMembership, user_id=agent.id, group_id=g.id, created_at=s.ago(days=300))
            members[g.id].append(agent)
    return members


def _seed_organizations(s: SeedContext, groups_: dict[str, Group]) -> dict[str, Organization]:
    """The customer companies by key, some routed to a group."""
    orgs = {}
    for company in s.population.customers:
        routing = s.rng.choice((None, None, groups_["Orders & Shipping"].id, groups_["Billing"].id))
        orgs[company.key] = s.create(
            Organization,
            name=company.name,
            domain=company.domain,
            details=f"{company.industry.capitalize()} customer, {company.employees} employees.",
            group_id=routing,
            created_at=s.ago(days=s.rng.randint(60, 700)),
        )
    return orgs


def _seed_end_users(s: SeedContext, orgs: dict[str, Organization]) -> list[User]:
    """Business contacts in their organizations, then consumers; a few of each suspended."""
    pop, rng = s.population, s.rng
    end_users: list[User] = []
    for i, person in enumerate(pop.contacts):
        left = i % 20 == 19
        end_users.append(
            s.create(
                User,
                name=person.name,
                email=person.email,
                role="end-user",
                organization_id=orgs[person.company_key].id if person.company_key in orgs else None,
                phone=person.phone,
                locale=person.place.language,
                suspended=left,
                notes="Left the company; suspended at the customer's request." if left else "",
                created_at=s.ago(days=rng.randint(10, 500)),
            )
        )
    for i, person in enumerate(pop.consumers):
        end_users.append(
            s.create(
                User,
                name=person.name,
                email=person.email,
                role="end-user",
                phone=person.phone if rng.random() < 0.6 else None,
                locale=person.place.language,
                suspended=i % 5 == 4,
                notes=("Sent spam through the web form.", "Abusive messages to agents.")[i % 2] if i % 5 == 4 else "",
                created_at=s.ago(days=rng.randint(10, 500)),
            )
        )
    return end_users


@dataclass(frozen=True)
class _Desk:
    """What seeding a ticket needs: the groups and their agents, the organizations and the consumers' orders."""

    s: SeedContext
    groups: dict[str, Group]
    members: dict[str, list[User]]
    orgs: dict[str, Organization]
    orders: dict[str, str]
    """The number of each consumer's first shop order, by e-mail."""


def _seed_tickets(desk: _Desk, requesters: list[User]) -> None:
    """Tickets in every status, then two problems with their linked incidents."""
    # Open work first, so the first tickets of each status are assigned and workable.
    plan = ["open"] * 26 + ["new"] * 18 + ["pending"] * 14 + ["hold"] * 6 + ["solved"] * 22 + ["closed"] * 34
    share = min(len(requesters) / 70, 4.0)  # the plan is for a scale-1 world; follow the population's size
    plan = [status for k, status in enumerate(plan) for _ in range(int((k + 1) * share) - int(k * share))]
    for k, status in enumerate(plan):
        _seed_ticket(desk, status, k, requesters[(k * 7) % len(requesters)])
    tech = desk.groups["Technical Support"]
    products = desk.s.population.products
    for k, (subject, body, _) in enumerate(PROBLEMS):
        product = products[k].name
        problem = _seed_ticket(
            desk,
            "open",
            k,
            requesters[k],
            type_="problem",
            subject=subject.format(product=product),
            body=body,
            group=tech,
        )
        for j in range(3):
            _seed_ticket(
                desk,
                ("new", "open", "pending")[j],
                k + j,
                requesters[(k * 11 + j * 5 + 3) % len(requesters)],
                type_="incident",
                problem=problem,
                subject=f"{product} problem after update" if k else "Payment error at checkout",
                body="Same symptoms as reported by others.",
                group=tech,
            )


def _seed_ticket(
    desk: _Desk,
    status: str,
    k: int,
    requester: User,
    *,
    type_: TicketType | None = None,
    problem: Ticket | None = None,
    subject: str | None = None,
    body: str | None = None,
    group: Group | None = None,
) -> Ticket:
    """A ticket from the k-th of REQUESTS (unless subject and body are given), with its conversation and rating."""
    s, rng, now = desk.s, desk.s.rng, desk.s.now
    order = desk.orders.get(requester.email)
    template = REQUESTS[k % len(REQUESTS)]
    while order is None and "{order}" in template[0] + template[1]:
        k += 1  # people without an order ask about something else
        template = REQUESTS[k % len(REQUESTS)]
    if "{order}" not in template[0] + template[1]:
        order = None
    product = rng.choice(s.population.products).name
    subj = subject or template[0].format(order=order or "", product=product)
    desc = body or template[1].format(order=order or "", product=product)
    if group is None:
        org = next((o for o in desk.orgs.values() if o.id == requester.organization_id), None)
        group = next((g for g in desk.groups.values() if org and g.id == org.group_id), None) or (
            _active_groups(desk.groups)[template[2]] if rng.random() < 0.8 else desk.groups["General Support"]
        )
    if not desk.members[group.id]:
        group = desk.groups["General Support"]  # every agent works the default queue
    ttype = type_ if type_ is not None else template[3]
    assignee = rng.choice(desk.members[group.id]) if status != "new" else None
    created = s.ago(hours=rng.uniform(2, 24 * (3 if status in ("new", "open") else 40)))
    solved_at = None
    if status in ("solved", "closed"):
        solved_at = min(created + dt.timedelta(hours=rng.uniform(1, 72)), now - dt.timedelta(minutes=30))
    tags = (template[4],) if subject is None else ()
    rec = s.create(
        Ticket,
        subject=subj,
        description=desc,
        status=status,
        priority=rng.choice(("low", "normal", "normal", "high", "urgent")),
        type=ttype,
        requester_id=requester.id,
        assignee_id=assignee.id if assignee else None,
        group_id=group.id,
        organization_id=requester.organization_id,
        via=rng.choice(("email", "email", "web", "phone", "chat")),
        order_number=order,
        problem_id=problem.id if problem and ttype == "incident" else None,
        due_at=created + dt.timedelta(days=rng.randint(2, 14)) if ttype == "task" else None,
        tags=tuple(sorted(set(tags))),
        solved_at=solved_at,
        created_at=created,
        updated_at=solved_at or created + dt.timedelta(minutes=rng.randint(5, 90)),
    )
    _seed_conversation(s, rec, requester, assignee, created)
    if status in ("solved", "closed") and rng.random() < 0.5:
        score: Score = "good" if rng.random() < 0.8 else "bad"
        s.create(
            SatisfactionRating,
            ticket_id=rec.id,
            requester_id=requester.id,
            assignee_id=rec.assignee_id,
            group_id=rec.group_id,
            score=score,
            reason=rng.choice(("too_slow", "not_resolved")) if score == "bad" else None,
            comment="Thanks, all sorted." if score == "good" else "Took far too long.",
            updated_at=(solved_at or now) + dt.timedelta(hours=2),
        )
    return rec


def _seed_conversation(
    s: SeedContext, ticket: Ticket, requester: User, assignee: User | None, created: dt.datetime
) -> None:
    """The requester's message, then the assignee's reply and sometimes an internal note."""
    rng = s.rng
    s.create(
        Comment, ticket_id=ticket.id, author_id=requester.id, body=ticket.description, public=True, created_at=created
    )
    if assignee is None:
        return
    t = created + dt.timedelta(minutes=rng.randint(10, 180))
    s.create(Comment, ticket_id=ticket.id, author_id=assignee.id, body=rng.choice(REPLIES), public=True, created_at=t)
    if rng.random() < 0.35:
        s.create(
            Comment,
            ticket_id=ticket.id,
            author_id=assignee.id,
            body=rng.choice(NOTES),
            public=False,
            created_at=t + dt.timedelta(minutes=5),
        )


def _seed_macros(s: SeedContext, groups_: dict[str, Group]) -> None:
    for spec in MACROS:
        values = dict(spec)
        group_name = values.pop("set_group", None)
        if group_name:
            values["set_group_id"] = groups_[group_name].id
        s.create(Macro, updated_at=s.ago(days=90), **values)
