"""Crewroom: teams with owners, members and guests, their channels, threaded posts and tabs.

Modeled on the Microsoft Graph Teams API v1.0 (team, conversationMember with
roles, channel with membershipType, chatMessage with subject, importance,
mentions and replies, softDelete, teamsTab, team archive): people act by their
e-mail; only owners manage members, settings and archiving, and a team always
keeps an owner; people outside the company join only as guests and guests are
never owners; every team has a General channel that cannot be deleted; a
private channel is seen only by its own members, who must be members of the
team; a post can be replied to but a reply cannot; only the author edits a
message, the author or an owner deletes it; an archived team is read-only.
"""

from __future__ import annotations

import datetime as dt
from typing import Annotated, Any, Literal

from pydantic import BaseModel, Field, StringConstraints

from compoworld.engine.context import Ctx
from compoworld.engine.entities import Person
from compoworld.engine.errors import Conflict, NotFound, RuleViolation
from compoworld.engine.records import CREATED, Record
from compoworld.engine.service import Service
from compoworld.engine.state import SeedContext
from compoworld.engine.types import DateTime, Email, IdOf, PersonName, Text, Title, Url
from compoworld.services.kit.records import Created
from compoworld.world.org import department_of, is_lead

__all__ = ["service"]

service = Service(
    "teamchat",
    title="Crewroom",
    category="chat",
    modeled_on="Microsoft Graph Teams API v1.0 (team, conversationMember, channel, chatMessage, teamsTab, "
    "team archive)",
    description="Team collaboration: teams of owners, members and external guests, standard and private "
    "channels, threaded channel posts with subjects, importance and @mentions, channel tabs, and "
    "archived read-only teams.",
)

TeamId = Annotated[str, IdOf("teamchat.team")]
MemberId = Annotated[str, IdOf("teamchat.team_member")]
ChannelId = Annotated[str, IdOf("teamchat.channel")]
ChannelMemberId = Annotated[str, IdOf("teamchat.channel_member")]
MessageId = Annotated[str, IdOf("teamchat.message")]
TabId = Annotated[str, IdOf("teamchat.tab")]

DisplayName = Annotated[str, StringConstraints(min_length=1, max_length=50, strip_whitespace=True)]
Role = Literal["owner", "member", "guest"]
Importance = Literal["normal", "high", "urgent"]
Mentions = Annotated[list[Email], Field(max_length=20)]


class Team(Created):
    """A team: a group of people with its channels."""

    id: TeamId
    display_name: DisplayName
    """Team name; unique."""
    description: Text = ""
    """What the team is for."""
    visibility: Literal["public", "private"] = "private"
    """public teams can be joined by any employee; private ones only by an owner's invitation."""
    allow_members_create_channels: bool = True
    """Whether members (not only owners) may create channels."""
    archived: bool = False
    """Archived teams are read-only."""


class TeamMember(Record):
    """A person's membership of a team."""

    id: MemberId
    team_id: TeamId
    """The team."""
    email: Email
    """The person's e-mail."""
    display_name: PersonName
    """The person's name."""
    role: Role = "member"
    """owner, member, or guest (someone outside the company)."""
    joined_at: Annotated[DateTime, CREATED]
    """When they joined."""


class Channel(Created):
    """A channel of a team."""

    id: ChannelId
    team_id: TeamId
    """The team."""
    display_name: DisplayName
    """Channel name; unique within the team."""
    description: Text = ""
    """What the channel is for."""
    membership_type: Literal["standard", "private"] = "standard"
    """standard (every team member) or private (only its own members)."""
    is_general: bool = False
    """The team's General channel, which cannot be deleted."""
    email: Email | None = None
    """Address that posts e-mails into the channel."""


class ChannelMember(Record):
    """A member of a private channel."""

    id: ChannelMemberId
    channel_id: ChannelId
    """The private channel."""
    email: Email
    """The member's e-mail."""
    role: Literal["owner", "member"] = "member"
    """owner (manages the channel) or member."""
    joined_at: Annotated[DateTime, CREATED]
    """When they were added."""


class Message(Record):
    """A channel post or a reply to one."""

    id: MessageId
    channel_id: ChannelId
    """The channel."""
    reply_to_id: MessageId | None = None
    """The post this replies to; null for a post."""
    author_email: Email
    """Who wrote it."""
    author_name: PersonName
    """The author's name."""
    subject: Title | None = None
    """Subject line of a post."""
    body: Text
    """Message text; emptied when deleted."""
    importance: Importance = "normal"
    """normal, high or urgent."""
    mentions: tuple[Email, ...] = ()
    """People @mentioned."""
    reply_count: int = 0
    """Replies to a post."""
    deleted: bool = False
    """Whether it was deleted (its replies remain)."""
    edited_at: DateTime | None = None
    """When it was last edited."""
    created_at: Annotated[DateTime, CREATED]
    """When it was posted."""


class Tab(Record):
    """An app or website pinned as a tab of a channel."""

    id: TabId
    channel_id: ChannelId
    """The channel."""
    display_name: DisplayName
    """Tab name; unique within the channel."""
    app: Literal["website", "wiki", "planner", "files", "powerbi"]
    """The app the tab shows."""
    content_url: Url
    """What the tab shows."""
    created_by: Email
    """Who added it."""
    created_at: Annotated[DateTime, CREATED]
    """When it was added."""


def _guard_team_update(ctx: Ctx, new: Any, old: Any) -> None:
    if old.archived:
        raise RuleViolation(
            f"team {old.display_name} is archived and read-only",
            field="team_id",
            hint="unarchive it with teamchat__set_team_archived first",
        )


def _guard_tab_delete(ctx: Ctx, new: Any, old: Any) -> None:
    channel = ctx.get(Channel, old.channel_id)
    _writable(ctx, channel.team_id, "tab_id")


teams = service.resource(
    Team,
    name="team",
    plural="teams",
    prefix="team",
    create=False,
    filters=("visibility", "archived"),
    search=("display_name", "description"),
    update=("description", "visibility", "allow_members_create_channels"),
    delete=False,
    unique=("display_name",),
    guard_update=_guard_team_update,
)
members = service.resource(
    TeamMember,
    name="team_member",
    plural="team_members",
    prefix="tm",
    create=False,
    get=False,
    filters=("team_id", "email", "role"),
    search=("display_name", "email"),
    delete=False,
    title="team member",
)
channels = service.resource(
    Channel,
    name="channel",
    plural="channels",
    prefix="ch",
    create=False,
    get=False,
    filters=("team_id", "membership_type", "is_general", "email"),
    search=("display_name", "description"),
    delete=False,
)
channel_members = service.resource(
    ChannelMember,
    name="channel_member",
    plural="channel_members",
    prefix="cm",
    create=False,
    get=False,
    filters=("channel_id", "email", "role"),
    delete=False,
    title="private channel member",
)
messages = service.resource(
    Message,
    name="message",
    plural="messages",
    prefix="msg",
    create=False,
    get=False,
    filters=("channel_id", "reply_to_id", "author_email", "importance", "deleted"),
    search=("subject", "body"),
    delete=False,
    title="channel message",
)
tabs = service.resource(
    Tab,
    name="tab",
    plural="tabs",
    prefix="tab",
    create=False,
    get=False,
    filters=("channel_id", "app"),
    search=("display_name",),
    guard_delete=_guard_tab_delete,
    title="channel tab",
)


# -- access rules -----------------------------------------------------------------------------


def _writable(ctx: Ctx, team_id: str, field: str) -> Team:
    team = ctx.get(Team, team_id, field=field)
    if team.archived:
        raise RuleViolation(
            f"team {team.display_name} is archived and read-only",
            field=field,
            hint="an owner can unarchive it with teamchat__set_team_archived",
        )
    return team


def _membership(ctx: Ctx, team_id: str, email: str) -> TeamMember | None:
    return ctx.first(TeamMember, team_id=team_id, email=email)


def _require_member(ctx: Ctx, team: Team, email: str, field: str) -> TeamMember:
    m = _membership(ctx, team.id, email)
    if m is None:
        raise RuleViolation(
            f"{email} is not a member of team {team.display_name}",
            field=field,
            hint="an owner must add them with teamchat__add_team_member first",
        )
    return m


def _require_owner(ctx: Ctx, team: Team, email: str, field: str) -> TeamMember:
    m = _require_member(ctx, team, email, field)
    if m.role != "owner":
        raise RuleViolation(
            f"{email} is a {m.role} of team {team.display_name}, not an owner",
            field=field,
            hint="only team owners can do this; list the team's owners with teamchat__list_team_members",
        )
    return m


def _can_see(ctx: Ctx, channel: Channel, email: str) -> bool:
    if _membership(ctx, channel.team_id, email) is None:
        return False
    if channel.membership_type == "private":
        return ctx.first(ChannelMember, channel_id=channel.id, email=email) is not None
    return True


def _require_access(ctx: Ctx, channel: Channel, email: str, field: str) -> TeamMember:
    team = ctx.get(Team, channel.team_id)
    m = _require_member(ctx, team, email, field)
    if not _can_see(ctx, channel, email):
        raise RuleViolation(
            f"{email} is not a member of the private channel {channel.display_name}",
            field=field,
            hint="a channel owner must add them with teamchat__add_channel_member",
        )
    return m


def _is_internal(ctx: Ctx, email: str) -> bool:
    return email.endswith("@" + ctx.population.home.domain)


def _name_of(ctx: Ctx, email: str) -> str | None:
    for p in ctx.population.people:
        if p.email == email:
            return p.name
    return None


def _check_mentions(ctx: Ctx, channel: Channel, mentions: list[str]) -> tuple[str, ...]:
    for i, email in enumerate(mentions):
        if not _can_see(ctx, channel, email):
            raise RuleViolation(
                f"{email} cannot see channel {channel.display_name} and cannot be mentioned there",
                field=f"mentions.{i}",
                hint="mention only members of the channel",
            )
    return tuple(dict.fromkeys(mentions))


def _channel_email(domain: str, team: Team, name: str, n: int) -> str:
    """The address that posts by e-mail into the ``n``-th channel of the team."""
    slug = "".join(ch for ch in name.lower() if ch.isalnum())[:20] or "channel"
    return f"{slug}.{team.id.replace('_', '')}{n}@teams.{domain}"


# -- examples ---------------------------------------------------------------------------------


def _owner_of_live_team(ctx: Ctx) -> tuple[Team, TeamMember]:
    for team in ctx.where(Team, archived=False):
        owner = ctx.first(TeamMember, team_id=team.id, role="owner")
        if owner is not None:
            return team, owner
    raise LookupError("no live team")


def _outsider(ctx: Ctx, team: Team) -> str:
    for p in ctx.population.employees:
        if _membership(ctx, team.id, p.email) is None:
            return p.email
    raise LookupError("everyone is a member")


def _example_create_team(ctx: Ctx) -> dict[str, Any]:
    return {
        "display_name": "Q3 Offsite",
        "owner_email": ctx.population.employees[0].email,
        "description": "Planning the offsite.",
    }


def _example_add_member(ctx: Ctx) -> dict[str, Any]:
    team, owner = _owner_of_live_team(ctx)
    return {"team_id": team.id, "actor_email": owner.email, "email": _outsider(ctx, team)}


def _example_remove_member(ctx: Ctx) -> dict[str, Any] | None:
    for team in ctx.where(Team, archived=False):
        owner = ctx.first(TeamMember, team_id=team.id, role="owner")
        other = ctx.first(TeamMember, team_id=team.id, role="member")
        if owner is not None and other is not None:
            return {"team_id": team.id, "actor_email": owner.email, "email": other.email}
    return None


def _example_set_role(ctx: Ctx) -> dict[str, Any] | None:
    args = _example_remove_member(ctx)
    return None if args is None else {**args, "role": "owner"}


def _example_archive(ctx: Ctx) -> dict[str, Any]:
    team, owner = _owner_of_live_team(ctx)
    return {"team_id": team.id, "actor_email": owner.email, "archived": True}


def _example_create_channel(ctx: Ctx) -> dict[str, Any]:
    team, owner = _owner_of_live_team(ctx)
    return {"team_id": team.id, "creator_email": owner.email, "display_name": "Release planning"}


def _private_channel_with_owner(ctx: Ctx) -> tuple[Channel, ChannelMember] | None:
    for ch in ctx.where(Channel, membership_type="private"):
        if ctx.get(Team, ch.team_id).archived:
            continue
        owner = ctx.first(ChannelMember, channel_id=ch.id, role="owner")
        if owner is not None:
            return ch, owner
    return None


def _example_add_channel_member(ctx: Ctx) -> dict[str, Any] | None:
    found = _private_channel_with_owner(ctx)
    if found is None:
        return None
    ch, owner = found
    for m in ctx.where(TeamMember, team_id=ch.team_id):
        if ctx.first(ChannelMember, channel_id=ch.id, email=m.email) is None:
            return {"channel_id": ch.id, "actor_email": owner.email, "email": m.email}
    return None


def _example_delete_channel(ctx: Ctx) -> dict[str, Any] | None:
    for ch in ctx.where(Channel, is_general=False):
        team = ctx.get(Team, ch.team_id)
        owner = ctx.first(TeamMember, team_id=team.id, role="owner")
        if not team.archived and owner is not None:
            return {"channel_id": ch.id, "actor_email": owner.email}
    return None


def _example_post(ctx: Ctx) -> dict[str, Any]:
    team, owner = _owner_of_live_team(ctx)
    general = next(c for c in ctx.where(Channel, team_id=team.id, is_general=True))
    return {"channel_id": general.id, "author_email": owner.email, "body": "Welcome, everyone!", "subject": "Hello"}


def _live_post(ctx: Ctx) -> Message | None:
    for m in ctx.where(Message, reply_to_id=None, deleted=False):
        ch = ctx.get(Channel, m.channel_id)
        if not ctx.get(Team, ch.team_id).archived and _can_see(ctx, ch, m.author_email):
            return m
    return None


def _example_reply(ctx: Ctx) -> dict[str, Any] | None:
    m = _live_post(ctx)
    return None if m is None else {"message_id": m.id, "author_email": m.author_email, "body": "Agreed."}


def _example_edit(ctx: Ctx) -> dict[str, Any] | None:
    m = _live_post(ctx)
    return None if m is None else {"message_id": m.id, "author_email": m.author_email, "body": "Updated text."}


def _example_delete(ctx: Ctx) -> dict[str, Any] | None:
    m = _live_post(ctx)
    return None if m is None else {"message_id": m.id, "actor_email": m.author_email}


def _example_thread(ctx: Ctx) -> dict[str, Any] | None:
    m = _live_post(ctx)
    return None if m is None else {"message_id": m.id, "viewer_email": m.author_email}


def _example_tab(ctx: Ctx) -> dict[str, Any]:
    team, owner = _owner_of_live_team(ctx)
    general = next(c for c in ctx.where(Channel, team_id=team.id, is_general=True))
    return {
        "channel_id": general.id,
        "actor_email": owner.email,
        "display_name": "Roadmap board",
        "app": "planner",
        "content_url": "https://planner.example.com/boards/42",
    }


# -- teams and members ------------------------------------------------------------------------


@service.tool(intent="create a team", write=True, example=_example_create_team)
def create_team(
    ctx: Ctx,
    display_name: DisplayName,
    owner_email: Email,
    description: Text = "",
    visibility: Literal["public", "private"] = "private",
) -> Team:
    """Create a team owned by an employee; it gets its General channel.

    Args:
        display_name: Team name; unique.
        owner_email: E-mail of the employee who owns the team.
        description: What the team is for.
        visibility: public (any employee may join) or private.
    """
    if not _is_internal(ctx, owner_email):
        raise RuleViolation(
            f"{owner_email} is outside the company", field="owner_email", hint="a team is owned by an employee"
        )
    name = _name_of(ctx, owner_email)
    if name is None:
        raise NotFound(f"no employee with e-mail {owner_email}", field="owner_email", hint="check the address")
    for t in ctx.scan(Team):
        if t.display_name.casefold() == display_name.casefold():
            raise Conflict(f"a team named {t.display_name} exists ({t.id})", field="display_name", hint="pick a name")
    team = ctx.create(Team, display_name=display_name, description=description, visibility=visibility)
    ctx.create(TeamMember, team_id=team.id, email=owner_email, display_name=name, role="owner")
    ctx.create(
        Channel,
        team_id=team.id,
        display_name="General",
        is_general=True,
        email=_channel_email(ctx.population.home.domain, team, "General", 1),
    )
    return team


@service.tool(intent="add someone to the team", write=True, example=_example_add_member)
def add_team_member(
    ctx: Ctx,
    team_id: TeamId,
    actor_email: Email,
    email: Email,
    role: Role = "member",
    display_name: PersonName | None = None,
) -> TeamMember:
    """Add a person to a team.

    Owners add anyone; an employee may add themself to a public team as a
    member. People outside the company join only as guests (and need a
    display name if the directory does not know them).

    Args:
        team_id: The team.
        actor_email: E-mail of the person adding (an owner, or the person joining a public team).
        email: E-mail of the person added.
        role: owner, member or guest.
        display_name: Name of a guest the directory does not know.
    """
    team = _writable(ctx, team_id, "team_id")
    if not (actor_email == email and team.visibility == "public" and role == "member"):
        _require_owner(ctx, team, actor_email, "actor_email")
    if _membership(ctx, team.id, email) is not None:
        raise Conflict(f"{email} is already in team {team.display_name}", field="email", hint="change their role")
    internal = _is_internal(ctx, email)
    if not internal and role != "guest":
        raise RuleViolation(
            f"{email} is outside the company and can only be a guest", field="role", hint="pass role='guest'"
        )
    if internal and role == "guest":
        raise RuleViolation(f"{email} is an employee, not a guest", field="role", hint="add them as member or owner")
    name = _name_of(ctx, email) or display_name
    if name is None:
        raise RuleViolation(
            f"the directory does not know {email}", field="display_name", hint="pass the guest's display_name"
        )
    return ctx.create(TeamMember, team_id=team.id, email=email, display_name=name, role=role)


class Removal(BaseModel):
    """A person removed from a team."""

    team_member_id: MemberId = Field(description="The removed membership.")
    email: Email = Field(description="Who was removed.")
    private_channel_ids: list[ChannelId] = Field(description="Private channels they were removed from too.")


@service.tool(intent="remove someone from the team", write=True, destructive=True, example=_example_remove_member)
def remove_team_member(ctx: Ctx, team_id: TeamId, actor_email: Email, email: Email) -> Removal:
    """Remove a person from a team and its private channels.

    Owners remove anyone; anyone may leave. The last owner cannot be removed.

    Args:
        team_id: The team.
        actor_email: E-mail of the owner removing, or of the person leaving.
        email: E-mail of the person removed.
    """
    team = _writable(ctx, team_id, "team_id")
    if actor_email != email:
        _require_owner(ctx, team, actor_email, "actor_email")
    m = _membership(ctx, team.id, email)
    if m is None:
        raise NotFound(f"{email} is not in team {team.display_name}", field="email", hint="list the team's members")
    if m.role == "owner" and len(ctx.where(TeamMember, team_id=team.id, role="owner")) == 1:
        raise RuleViolation(
            f"{email} is the last owner of {team.display_name}",
            field="email",
            hint="make another member an owner with teamchat__set_member_role first",
        )
    dropped = []
    for ch in ctx.where(Channel, team_id=team.id, membership_type="private"):
        cm = ctx.first(ChannelMember, channel_id=ch.id, email=email)
        if cm is not None:
            ctx.delete(cm)
            dropped.append(ch.id)
    ctx.delete(m)
    return Removal(team_member_id=m.id, email=email, private_channel_ids=dropped)


@service.tool(intent="change the person's role in the team", write=True, example=_example_set_role)
def set_member_role(
    ctx: Ctx, team_id: TeamId, actor_email: Email, email: Email, role: Literal["owner", "member"]
) -> TeamMember:
    """Promote a member to owner or make an owner a member; only owners may.

    Guests cannot become owners or members, and the last owner stays an owner.

    Args:
        team_id: The team.
        actor_email: E-mail of the owner making the change.
        email: E-mail of the person whose role changes.
        role: owner or member.
    """
    team = _writable(ctx, team_id, "team_id")
    _require_owner(ctx, team, actor_email, "actor_email")
    m = _membership(ctx, team.id, email)
    if m is None:
        raise NotFound(f"{email} is not in team {team.display_name}", field="email", hint="add them first")
    if m.role == "guest":
        raise RuleViolation(f"{email} is a guest", field="email", hint="guests keep the guest role")
    if m.role == role:
        raise RuleViolation(f"{email} is already {role}", field="role", hint="nothing to change")
    if m.role == "owner" and len(ctx.where(TeamMember, team_id=team.id, role="owner")) == 1:
        raise RuleViolation(
            f"{email} is the last owner of {team.display_name}", field="email", hint="promote someone else first"
        )
    return ctx.update(m, role=role)


@service.tool(intent="archive or unarchive the team", write=True, example=_example_archive)
def set_team_archived(ctx: Ctx, team_id: TeamId, actor_email: Email, archived: bool) -> Team:
    """Archive a team (it becomes read-only) or bring it back; only owners may.

    Args:
        team_id: The team.
        actor_email: E-mail of an owner.
        archived: True to archive, False to unarchive.
    """
    team = ctx.get(Team, team_id, field="team_id")
    _require_owner(ctx, team, actor_email, "actor_email")
    if team.archived == archived:
        raise RuleViolation(
            f"team {team.display_name} is already {'archived' if archived else 'active'}",
            field="archived",
            hint="nothing to change",
        )
    return ctx.update(team, archived=archived)


class JoinedTeam(BaseModel):
    """A team a person belongs to."""

    team: Team = Field(description="The team.")
    role: Role = Field(description="The person's role in it.")
    channel_ids: list[ChannelId] = Field(description="Channels of the team the person can see.")


@service.tool(intent="list the teams the person is in")
def list_joined_teams(ctx: Ctx, email: Email, include_archived: bool = False) -> list[JoinedTeam]:
    """List the teams a person belongs to, with their role and the channels they can see.

    Args:
        email: The person's e-mail.
        include_archived: Whether to include archived teams.
    """
    out = []
    for m in ctx.where(TeamMember, email=email):
        team = ctx.get(Team, m.team_id)
        if team.archived and not include_archived:
            continue
        visible = [c.id for c in ctx.where(Channel, team_id=team.id) if _can_see(ctx, c, email)]
        out.append(JoinedTeam(team=team, role=m.role, channel_ids=visible))
    return out


# -- channels ---------------------------------------------------------------------------------


@service.tool(intent="create a channel in the team", write=True, example=_example_create_channel)
def create_channel(
    ctx: Ctx,
    team_id: TeamId,
    creator_email: Email,
    display_name: DisplayName,
    description: Text = "",
    membership_type: Literal["standard", "private"] = "standard",
) -> Channel:
    """Create a channel; the creator of a private channel becomes its owner.

    Owners can always create channels; members only if the team allows it;
    guests never. Names are unique within the team (ignoring case) and
    "General" is reserved.

    Args:
        team_id: The team.
        creator_email: E-mail of the team member creating it.
        display_name: Channel name.
        description: What it is for.
        membership_type: standard or private.
    """
    team = _writable(ctx, team_id, "team_id")
    m = _require_member(ctx, team, creator_email, "creator_email")
    if m.role == "guest" or (m.role == "member" and not team.allow_members_create_channels):
        raise RuleViolation(
            f"{creator_email} ({m.role}) may not create channels in {team.display_name}",
            field="creator_email",
            hint="ask a team owner to create it",
        )
    taken = {c.display_name.casefold() for c in ctx.where(Channel, team_id=team.id)} | {"general"}
    if display_name.casefold() in taken:
        raise Conflict(
            f"team {team.display_name} already has a channel named {display_name}",
            field="display_name",
            hint="pick another name",
        )
    n = len(ctx.where(Channel, team_id=team.id)) + 1
    ch = ctx.create(
        Channel,
        team_id=team.id,
        display_name=display_name,
        description=description,
        membership_type=membership_type,
        email=_channel_email(ctx.population.home.domain, team, display_name, n)
        if membership_type == "standard"
        else None,
    )
    if membership_type == "private":
        ctx.create(ChannelMember, channel_id=ch.id, email=creator_email, role="owner")
    return ch


class ChannelDeletion(BaseModel):
    """A deleted channel."""

    channel_id: ChannelId = Field(description="The deleted channel.")
    deleted_messages: int = Field(description="Messages deleted with it.")


@service.tool(intent="delete the channel", write=True, destructive=True, example=_example_delete_channel)
def delete_channel(ctx: Ctx, channel_id: ChannelId, actor_email: Email) -> ChannelDeletion:
    """Delete a channel with its messages, tabs and members; only team owners may.

    The General channel cannot be deleted.

    Args:
        channel_id: The channel.
        actor_email: E-mail of a team owner.
    """
    ch = ctx.get(Channel, channel_id, field="channel_id")
    team = _writable(ctx, ch.team_id, "channel_id")
    if ch.is_general:
        raise RuleViolation("the General channel cannot be deleted", field="channel_id", hint="delete another channel")
    _require_owner(ctx, team, actor_email, "actor_email")
    n = 0
    for rec in ctx.where(Message, channel_id=ch.id):
        ctx.delete(rec)
        n += 1
    for tab in ctx.where(Tab, channel_id=ch.id):
        ctx.delete(tab)
    for cm in ctx.where(ChannelMember, channel_id=ch.id):
        ctx.delete(cm)
    ctx.delete(ch)
    return ChannelDeletion(channel_id=ch.id, deleted_messages=n)


@service.tool(intent="add someone to the private channel", write=True, example=_example_add_channel_member)
def add_channel_member(
    ctx: Ctx, channel_id: ChannelId, actor_email: Email, email: Email, role: Literal["owner", "member"] = "member"
) -> ChannelMember:
    """Add a team member to a private channel; only the channel's owners may.

    The person must already be a member (or guest) of the team; guests cannot be channel owners.

    Args:
        channel_id: The private channel.
        actor_email: E-mail of a channel owner.
        email: E-mail of the person added.
        role: owner or member.
    """
    ch = ctx.get(Channel, channel_id, field="channel_id")
    team = _writable(ctx, ch.team_id, "channel_id")
    if ch.membership_type != "private":
        raise RuleViolation(
            f"{ch.display_name} is a standard channel: every team member is in it",
            field="channel_id",
            hint="add the person to the team instead",
        )
    actor = ctx.first(ChannelMember, channel_id=ch.id, email=actor_email)
    if actor is None or actor.role != "owner":
        raise RuleViolation(
            f"{actor_email} is not an owner of {ch.display_name}",
            field="actor_email",
            hint="list the channel's members with role='owner'",
        )
    m = _require_member(ctx, team, email, "email")
    if ctx.first(ChannelMember, channel_id=ch.id, email=email) is not None:
        raise Conflict(f"{email} is already in {ch.display_name}", field="email", hint="nothing to do")
    if m.role == "guest" and role == "owner":
        raise RuleViolation("guests cannot own channels", field="role", hint="add the guest as a member")
    return ctx.create(ChannelMember, channel_id=ch.id, email=email, role=role)


# -- messages ---------------------------------------------------------------------------------


@service.tool(intent="post in the channel", write=True, example=_example_post)
def post_message(
    ctx: Ctx,
    channel_id: ChannelId,
    author_email: Email,
    body: Text,
    subject: Title | None = None,
    importance: Importance = "normal",
    mentions: Mentions | None = None,
) -> Message:
    """Start a new post in a channel the author can see.

    Mentioned people must be able to see the channel. Archived teams are read-only.

    Args:
        channel_id: The channel.
        author_email: E-mail of the author.
        body: The message.
        subject: Subject line of the post.
        importance: normal, high or urgent.
        mentions: E-mails of people to @mention.
    """
    ch = ctx.get(Channel, channel_id, field="channel_id")
    _writable(ctx, ch.team_id, "channel_id")
    m = _require_access(ctx, ch, author_email, "author_email")
    if not body.strip():
        raise RuleViolation("the message is empty", field="body", hint="write something")
    return ctx.create(
        Message,
        channel_id=ch.id,
        author_email=author_email,
        author_name=m.display_name,
        subject=subject,
        body=body,
        importance=importance,
        mentions=_check_mentions(ctx, ch, mentions or []),
    )


@service.tool(intent="reply to the post", write=True, example=_example_reply)
def reply_to_message(
    ctx: Ctx, message_id: MessageId, author_email: Email, body: Text, mentions: Mentions | None = None
) -> Message:
    """Reply to a channel post; replies to replies are not possible (reply to the post).

    Args:
        message_id: The post.
        author_email: E-mail of the author.
        body: The reply.
        mentions: E-mails of people to @mention.
    """
    post = ctx.get(Message, message_id, field="message_id")
    if post.reply_to_id is not None:
        raise RuleViolation(
            "replies cannot be replied to", field="message_id", hint=f"reply to the post {post.reply_to_id} instead"
        )
    if post.deleted:
        raise RuleViolation("the post was deleted", field="message_id", hint="start a new post")
    ch = ctx.get(Channel, post.channel_id)
    _writable(ctx, ch.team_id, "message_id")
    m = _require_access(ctx, ch, author_email, "author_email")
    if not body.strip():
        raise RuleViolation("the reply is empty", field="body", hint="write something")
    reply = ctx.create(
        Message,
        channel_id=ch.id,
        reply_to_id=post.id,
        author_email=author_email,
        author_name=m.display_name,
        body=body,
        mentions=_check_mentions(ctx, ch, mentions or []),
    )
    ctx.update(post, reply_count=post.reply_count + 1)
    return reply


@service.tool(intent="edit the message", write=True, idempotent=True, example=_example_edit)
def edit_message(ctx: Ctx, message_id: MessageId, author_email: Email, body: Text) -> Message:
    """Change the text of one's own message.

    Args:
        message_id: The message.
        author_email: E-mail of its author.
        body: The new text.
    """
    msg = ctx.get(Message, message_id, field="message_id")
    ch = ctx.get(Channel, msg.channel_id)
    _writable(ctx, ch.team_id, "message_id")
    if msg.author_email != author_email:
        raise RuleViolation("only the author can edit a message", field="author_email", hint=f"ask {msg.author_email}")
    if msg.deleted:
        raise RuleViolation("a deleted message cannot be edited", field="message_id", hint="post again")
    if not body.strip():
        raise RuleViolation("the message is empty", field="body", hint="delete it instead")
    if body == msg.body:
        return msg
    return ctx.update(msg, body=body, edited_at=ctx.now())


@service.tool(intent="delete the message", write=True, destructive=True, example=_example_delete)
def delete_message(ctx: Ctx, message_id: MessageId, actor_email: Email) -> Message:
    """Delete a message (its text is removed, its replies stay); the author or a team owner may.

    Args:
        message_id: The message.
        actor_email: E-mail of the author or of a team owner.
    """
    msg = ctx.get(Message, message_id, field="message_id")
    ch = ctx.get(Channel, msg.channel_id)
    team = _writable(ctx, ch.team_id, "message_id")
    if msg.deleted:
        raise Conflict("the message is already deleted", field="message_id", hint="nothing to do")
    if msg.author_email != actor_email:
        _require_owner(ctx, team, actor_email, "actor_email")
    return ctx.update(msg, deleted=True, body="")


class Thread(BaseModel):
    """A post with its replies."""

    post: Message = Field(description="The post.")
    replies: list[Message] = Field(description="Replies, oldest first (deleted ones included, emptied).")


@service.tool(intent="read the thread", example=_example_thread)
def get_thread(ctx: Ctx, message_id: MessageId, viewer_email: Email) -> Thread:
    """Read a post and its replies as a person who can see the channel.

    Args:
        message_id: The post, or one of its replies.
        viewer_email: E-mail of the person reading.
    """
    msg = ctx.get(Message, message_id, field="message_id")
    post = ctx.get(Message, msg.reply_to_id) if msg.reply_to_id else msg
    _require_access(ctx, ctx.get(Channel, post.channel_id), viewer_email, "viewer_email")
    replies = sorted(ctx.where(Message, reply_to_id=post.id), key=lambda m: (m.created_at, m.id))
    return Thread(post=post, replies=replies)


@service.tool(intent="find the messages that mention the person")
def list_mentions(ctx: Ctx, email: Email, since: DateTime | None = None) -> list[Message]:
    """List live messages that @mention a person, in channels they can see, newest first.

    Args:
        email: The person's e-mail.
        since: Only messages posted at or after this time.
    """
    found = []
    seen: dict[str, bool] = {}
    for team_m in ctx.where(TeamMember, email=email):
        for ch in ctx.where(Channel, team_id=team_m.team_id):
            if ch.id not in seen:
                seen[ch.id] = _can_see(ctx, ch, email)
            if not seen[ch.id]:
                continue
            for m in ctx.where(Message, channel_id=ch.id, deleted=False):
                if email in m.mentions and (since is None or m.created_at >= since):
                    found.append(m)
    found.sort(key=lambda m: (m.created_at, m.id), reverse=True)
    return found


@service.tool(intent="add a tab to the channel", write=True, example=_example_tab)
def add_tab(
    ctx: Ctx,
    channel_id: ChannelId,
    actor_email: Email,
    display_name: DisplayName,
    app: Literal["website", "wiki", "planner", "files", "powerbi"],
    content_url: Url,
) -> Tab:
    """Pin an app or website as a tab of a channel the actor can see (not guests).

    Tab names are unique within a channel; content must be served over https.

    Args:
        channel_id: The channel.
        actor_email: E-mail of the team member adding it.
        display_name: Tab name.
        app: website, wiki, planner, files or powerbi.
        content_url: What the tab shows (https).
    """
    ch = ctx.get(Channel, channel_id, field="channel_id")
    _writable(ctx, ch.team_id, "channel_id")
    m = _require_access(ctx, ch, actor_email, "actor_email")
    if m.role == "guest":
        raise RuleViolation("guests cannot add tabs", field="actor_email", hint="ask a team member")
    if not content_url.startswith("https://"):
        raise RuleViolation("tabs show https content only", field="content_url", hint="use the https:// address")
    if any(t.display_name.casefold() == display_name.casefold() for t in ctx.where(Tab, channel_id=ch.id)):
        raise Conflict(f"{ch.display_name} already has a tab {display_name}", field="display_name", hint="rename it")
    return ctx.create(
        Tab, channel_id=ch.id, display_name=display_name, app=app, content_url=content_url, created_by=actor_email
    )


# -- seed -------------------------------------------------------------------------------------

EXTRA_CHANNELS = {
    "Engineering": (("Releases", "standard"), ("Incidents", "standard"), ("Architecture", "private")),
    "Sales": (("Deals", "standard"), ("Forecast", "private")),
    "Support": (("Escalations", "standard"),),
    "Finance": (("Month-end close", "standard"), ("Payroll", "private")),
    "People": (("Hiring", "private"),),
    "Operations": (("Facilities", "standard"),),
    "Marketing": (("Campaigns", "standard"), ("Brand", "standard")),
}
POSTS = (
    ("Weekly update", "Here is what happened this week: shipped two fixes and closed the quarter plan."),
    ("Heads-up", "The office network will be down on Saturday morning for maintenance."),
    ("Question", "Does anyone have the latest version of the customer deck?"),
    ("Kudos", "Huge thanks to everyone who helped with the launch!"),
    ("Action needed", "Please review the draft before Thursday."),
)
REPLIES = ("Thanks for the update!", "On it.", "I'll take a look today.", "Great work, team.", "Done.")


@service.seeder
def seed(s: SeedContext) -> None:
    """Department teams with their channels, a project team, a customer team with guests, an archived team."""
    pop = s.population
    staff = list(pop.employees)
    by_dept: dict[str, list[Person]] = {}
    for p in staff:
        by_dept.setdefault(department_of(p), []).append(p)
    for dept in sorted(by_dept):
        people = by_dept[dept]
        leads = [p for p in people if is_lead(p)] or people[:1]
        team = _seed_team(
            s,
            dept,
            f"The {dept} department.",
            people,
            leads[:2],
            [],
            visibility="public" if dept in ("Engineering", "Marketing") else "private",
            allow_members_create_channels=dept != "Finance",
        )
        _seed_channels(s, team, people, EXTRA_CHANNELS.get(dept, ()))
    project = [staff[i] for i in range(0, len(staff), 4)]
    team = _seed_team(s, "Product Launch 2026", "Cross-functional launch team.", project, project[:1], [])
    _seed_channels(s, team, project, (("Launch checklist", "standard"), ("Pricing", "private")))
    customer = pop.customers[0]
    guests = list(pop.people_at(customer))
    account = pop.staff("Sales", "Support", fallback=4)[:4]
    team = _seed_team(
        s, f"{customer.name} account", f"Shared workspace with {customer.name}.", account, account[:1], guests
    )
    _seed_channels(s, team, account + guests, (("Onboarding", "standard"),))
    old = staff[1::6]
    team = _seed_team(s, "Office Move 2025", "Planning the move to the new office.", old, old[:1], [], archived=True)
    _seed_channels(s, team, old, ())


def _seed_team(
    s: SeedContext,
    name: str,
    desc: str,
    people: list[Person],
    owners: list[Person],
    guests: list[Person],
    **kw: Any,
) -> Team:
    """A team with its members, owners and guests, all joined when it was created."""
    created = s.now - dt.timedelta(days=s.rng.randint(60, 700))
    team = s.create(Team, display_name=name, description=desc, created_at=created, **kw)
    owner_keys = {p.key for p in owners}
    for p in people:
        role: Role = "owner" if p.key in owner_keys else "member"
        s.create(TeamMember, team_id=team.id, email=p.email, display_name=p.name, role=role, joined_at=created)
    for p in guests:
        s.create(TeamMember, team_id=team.id, email=p.email, display_name=p.name, role="guest", joined_at=created)
    return team


def _seed_channels(s: SeedContext, team: Team, people: list[Person], specs: tuple[tuple[str, str], ...]) -> None:
    """The team's General channel and its other channels with posts; the first other channel has a site tab."""
    domain = s.population.home.domain
    general = s.create(
        Channel,
        team_id=team.id,
        display_name="General",
        is_general=True,
        email=_channel_email(domain, team, "General", 1),
        created_at=team.created_at,
    )
    _seed_posts(s, general, people, 4)
    for n, (name, kind) in enumerate(specs, start=2):
        ch = s.create(
            Channel,
            team_id=team.id,
            display_name=name,
            membership_type=kind,
            description=f"{name} for the {team.display_name} team.",
            email=_channel_email(domain, team, name, n) if kind == "standard" else None,
            created_at=team.created_at + dt.timedelta(days=n),
        )
        inside = people
        if kind == "private":
            inside = people[: max(2, len(people) // 2)]
            for i, p in enumerate(inside):
                s.create(ChannelMember, channel_id=ch.id, email=p.email, role="owner" if i == 0 else "member")
        _seed_posts(s, ch, inside, 3)
        if n == 2:
            s.create(
                Tab,
                channel_id=ch.id,
                display_name="Team site",
                app="website",
                content_url=f"https://intranet.{domain}/{team.display_name.lower().replace(' ', '-')}",
                created_by=people[0].email,
            )


def _seed_posts(s: SeedContext, ch: Channel, people: list[Person], n: int) -> None:
    """``n`` posts in the channel over the last month, some mentioning a colleague, some with replies."""
    for k in range(n):
        author = people[(k * 3 + len(ch.id)) % len(people)]
        subject, body = POSTS[(k + len(ch.display_name)) % len(POSTS)]
        when = s.now - dt.timedelta(hours=s.rng.randint(2, 24 * 30))
        mention = people[(k + 1) % len(people)]
        post = s.create(
            Message,
            channel_id=ch.id,
            author_email=author.email,
            author_name=author.name,
            subject=subject,
            body=body,
            importance="high" if subject == "Action needed" else "normal",
            mentions=(mention.email,) if k % 2 == 0 and mention.key != author.key else (),
            created_at=when,
        )
        replies = k % 3
        for j in range(replies):
            who = people[(k + j + 2) % len(people)]
            s.create(
                Message,
                channel_id=ch.id,
                reply_to_id=post.id,
                author_email=who.email,
                author_name=who.name,
                body=REPLIES[(k + j) % len(REPLIES)],
                created_at=when + dt.timedelta(minutes=10 * (j + 1)),
            )
        if replies:
            s.update(post, reply_count=replies)
