"""Keystone Access: physical access control (sites, doors, schedules, groups, credentials, events, lockdowns).

Modeled on the Brivo Access API (and Verkada Access): sites with their doors
(access points) in a mode (card_only, unlocked, locked); schedules of weekdays and
hours; access groups that grant a set of doors during a schedule; users (card
holders, matched by e-mail) in groups, suspended or active; credentials (cards,
mobile passes, PINs) issued to a user with a unique number, one active per kind,
suspended, reactivated or revoked (final); access events, granted or denied
with a reason (unknown credential, credential or user suspended, no group for
the door, outside schedule, lockdown) when a credential is presented at a door;
and site lockdowns that lock every door, refuse mode changes and deny all access
until cleared.
"""

from __future__ import annotations

import datetime as dt
from typing import Annotated, Any, Literal

from pydantic import StringConstraints

from compoworld.engine.context import Ctx
from compoworld.engine.errors import Conflict, RuleViolation
from compoworld.engine.records import Record
from compoworld.engine.service import Service, Transition
from compoworld.engine.state import SeedContext
from compoworld.engine.types import City, DateTime, Email, IdOf, PersonName, Text, Timezone, Title
from compoworld.services.kit.examples import first_example
from compoworld.services.kit.lists import require_employee
from compoworld.services.kit.records import Created, Timestamped, Value

__all__ = ["service"]

service = Service(
    "doors",
    title="Keystone Access",
    category="physical_access",
    modeled_on="Brivo Access API / Verkada Access: sites, access points (doors), schedules, groups, users, "
    "credentials, access events, lockdown scenarios",
    description="Physical access control for the company's offices: sites and their doors, opening schedules, "
    "access groups granting doors to people, the badges and mobile credentials issued to them, every "
    "granted or denied door event, and emergency lockdowns.",
)

SiteId = Annotated[str, IdOf("doors.site")]
DoorId = Annotated[str, IdOf("doors.door")]
ScheduleId = Annotated[str, IdOf("doors.schedule")]
GroupId = Annotated[str, IdOf("doors.group")]
UserId = Annotated[str, IdOf("doors.user")]
CredentialId = Annotated[str, IdOf("doors.credential")]
EventId = Annotated[str, IdOf("doors.access_event")]
LockdownId = Annotated[str, IdOf("doors.lockdown")]

ClockTime = Annotated[str, StringConstraints(pattern=r"^([01]\d|2[0-3]):[0-5]\d$")]
"""A time of day, HH:MM."""
CardNumber = Annotated[str, StringConstraints(pattern=r"^\d{2}-\d{5}$")]
"""A credential number: facility code and card number (26-10423)."""

Weekday = Literal["mon", "tue", "wed", "thu", "fri", "sat", "sun"]
DoorKind = Literal["entrance", "interior", "server_room", "loading_dock", "stairwell"]
DoorMode = Literal["card_only", "unlocked", "locked"]
UserStatus = Literal["active", "suspended"]
CredKind = Literal["card", "mobile", "pin"]
CredStatus = Literal["active", "suspended", "revoked"]
Result = Literal["granted", "denied"]
DenyReason = Literal[
    "none", "unknown_credential", "credential_inactive", "user_suspended", "no_access", "outside_schedule", "lockdown"
]

DAYS: tuple[Weekday, ...] = ("mon", "tue", "wed", "thu", "fri", "sat", "sun")


class Site(Timestamped):
    """An office or building."""

    id: SiteId
    name: Title
    """Its name."""
    city: City
    """Where it is."""
    timezone: Timezone
    """Its time zone."""
    lockdown_active: bool = False
    """Whether a lockdown is in force."""


class Door(Timestamped):
    """A door (access point) with a reader."""

    id: DoorId
    site_id: SiteId
    """The site."""
    name: Title
    """Its name (unique per site)."""
    kind: DoorKind = "interior"
    """entrance, interior, server_room, loading_dock or stairwell."""
    mode: DoorMode = "card_only"
    """card_only (badge needed), unlocked (free passage) or locked (nobody)."""


class Schedule(Timestamped):
    """When access applies: weekdays and hours (site time)."""

    id: ScheduleId
    name: Title
    """Its name."""
    days: tuple[Weekday, ...]
    """The weekdays it covers."""
    start: ClockTime = "00:00"
    """From (HH:MM)."""
    end: ClockTime = "23:59"
    """Until (HH:MM)."""


class Group(Timestamped):
    """An access group: doors its members may open during a schedule."""

    id: GroupId
    name: Title
    """Its name (unique)."""
    door_ids: tuple[DoorId, ...]
    """The doors it grants."""
    schedule_id: ScheduleId
    """When."""
    description: Text = ""
    """Who it is for."""


class User(Timestamped):
    """A card holder."""

    id: UserId
    email: Email
    """Their e-mail (unique)."""
    name: PersonName
    """Their name."""
    group_ids: tuple[GroupId, ...] = ()
    """Their access groups."""
    status: UserStatus = "active"
    """active or suspended."""


class Credential(Created):
    """A badge, mobile pass or PIN issued to a user."""

    id: CredentialId
    user_id: UserId
    """The holder."""
    kind: CredKind = "card"
    """card, mobile or pin."""
    number: CardNumber
    """Facility code and number (unique)."""
    status: CredStatus = "active"
    """active, suspended or revoked."""


class AccessEvent(Record):
    """A credential presented at a door."""

    id: EventId
    door_id: DoorId
    """The door."""
    number: CardNumber
    """The credential number presented."""
    user_id: UserId | None = None
    """The holder, if known."""
    result: Result
    """granted or denied."""
    reason: DenyReason = "none"
    """Why it was denied."""
    occurred_at: DateTime
    """When."""


class Lockdown(Record):
    """An emergency lockdown of a site."""

    id: LockdownId
    site_id: SiteId
    """The site."""
    reason: Text
    """Why."""
    initiated_by: Email
    """Who started it."""
    status: Literal["active", "cleared"] = "active"
    """active or cleared."""
    started_at: DateTime
    """When it began."""
    cleared_at: DateTime | None = None
    """When it ended."""
    cleared_by: Email | None = None
    """Who cleared it."""


class Holder(Value):
    """Someone who can open a door, and through which group."""

    user_id: UserId
    """The user."""
    email: Email
    """Their e-mail."""
    name: PersonName
    """Their name."""
    group: Title
    """The group granting the door."""


# -- rules ------------------------------------------------------------------------------------


def _guard_door(ctx: Ctx, new: Any, old: Any) -> None:
    site = ctx.get(Site, new.site_id, field="site_id")
    for d in ctx.where(Door, site_id=site.id, name=new.name):
        if d.id != new.id:
            raise Conflict(f"{site.name} already has a door {new.name!r}", field="name", hint="pick another name")
    if old is not None and site.lockdown_active and old.mode != new.mode:
        raise RuleViolation(f"{site.name} is in lockdown", field="door_id", hint="clear the lockdown first")


def _guard_schedule(ctx: Ctx, new: Any, old: Any) -> None:
    if not new.days or len(set(new.days)) != len(new.days):
        raise RuleViolation("list each weekday once, at least one", field="days", hint="e.g. ['mon', 'tue']")
    if new.end <= new.start:
        raise RuleViolation("end must be after start", field="end", hint="a schedule lies within one day")


def _delete_schedule(ctx: Ctx, new: Any, old: Any) -> None:
    if ctx.first(Group, schedule_id=old.id) is not None:
        raise Conflict(f"schedule {old.name!r} is used by a group", field="schedule_id", hint="change the group")


def _guard_group(ctx: Ctx, new: Any, old: Any) -> None:
    if not new.door_ids or len(set(new.door_ids)) != len(new.door_ids):
        raise RuleViolation("list each door once, at least one", field="door_ids", hint="see list_doors")
    for did in new.door_ids:
        ctx.get(Door, did, field="door_ids")
    ctx.get(Schedule, new.schedule_id, field="schedule_id")
    for g in ctx.where(Group, name=new.name):
        if g.id != new.id:
            raise Conflict(f"a group is already named {new.name!r}", field="name", hint="pick another name")


def _delete_group(ctx: Ctx, new: Any, old: Any) -> None:
    for u in ctx.scan(User):
        if old.id in u.group_ids:
            ctx.update(u, group_ids=tuple(g for g in u.group_ids if g != old.id))


def _guard_user(ctx: Ctx, new: Any, old: Any) -> None:
    for u in ctx.where(User, email=new.email):
        if u.id != new.id:
            raise Conflict(f"{new.email} is already user {u.id}", field="email", hint="update that user")
    for gid in new.group_ids:
        ctx.get(Group, gid, field="group_ids")


sites = service.resource(
    Site,
    name="site",
    plural="sites",
    prefix="site",
    create=False,
    filters=("city", "lockdown_active"),
    search=("name",),
    update=("name", "timezone"),
    delete=False,
)
doors = service.resource(
    Door,
    name="door",
    plural="doors",
    prefix="door",
    create=("site_id", "name", "kind", "mode"),
    filters=("site_id", "kind", "mode"),
    search=("name",),
    update=("name", "kind", "mode"),
    delete=False,
    guard_create=_guard_door,
    guard_update=_guard_door,
)
schedules = service.resource(
    Schedule,
    name="schedule",
    plural="schedules",
    prefix="sch",
    create=("name", "days", "start", "end"),
    get=False,
    search=("name",),
    update=("name", "days", "start", "end"),
    guard_create=_guard_schedule,
    guard_update=_guard_schedule,
    guard_delete=_delete_schedule,
)
groups = service.resource(
    Group,
    name="group",
    plural="groups",
    prefix="grp",
    create=("name", "door_ids", "schedule_id", "description"),
    filters=("schedule_id", "name"),
    search=("name", "description"),
    update=("name", "door_ids", "schedule_id", "description"),
    guard_create=_guard_group,
    guard_update=_guard_group,
    guard_delete=_delete_group,
    title="access group",
)
users = service.resource(
    User,
    name="user",
    plural="users",
    prefix="usr",
    create=("email", "name", "group_ids"),
    filters=("email", "status"),
    search=("name", "email"),
    update=("name", "group_ids"),
    delete=False,
    transitions={
        "suspend": Transition("status", ("active",), "suspended", "suspend the user"),
        "reactivate": Transition("status", ("suspended",), "active", "reactivate the user"),
    },
    guard_create=_guard_user,
    guard_update=_guard_user,
)
credentials = service.resource(
    Credential,
    name="credential",
    plural="credentials",
    prefix="cred",
    create=False,
    filters=("user_id", "kind", "status", "number"),
    delete=False,
    transitions={
        "suspend": Transition("status", ("active",), "suspended", "suspend the credential"),
        "reactivate": Transition("status", ("suspended",), "active", "reactivate the credential"),
        "revoke": Transition("status", ("active", "suspended"), "revoked", "revoke the credential", destructive=True),
    },
)
events = service.resource(
    AccessEvent,
    name="access_event",
    plural="access_events",
    prefix="evt",
    create=False,
    get=False,
    filters=("door_id", "user_id", "result", "reason", "number"),
    delete=False,
)
lockdowns = service.resource(
    Lockdown,
    name="lockdown",
    plural="lockdowns",
    prefix="lck",
    create=False,
    get=False,
    filters=("site_id", "status"),
    delete=False,
)


# -- domain tools -----------------------------------------------------------------------------


@service.tool(
    intent="issue a credential to the user",
    write=True,
    example=first_example(User, "user_id", where={"status": "active"}, kind="pin"),
)
def issue_credential(ctx: Ctx, user_id: UserId, kind: CredKind = "card") -> Credential:
    """Issue a new credential to an active user; a user holds one active credential of each kind.

    Args:
        user_id: The user.
        kind: card, mobile or pin.
    """
    user = ctx.get(User, user_id, field="user_id")
    if user.status != "active":
        raise RuleViolation(f"user {user.email} is suspended", field="user_id", hint="reactivate the user first")
    if ctx.first(Credential, user_id=user.id, kind=kind, status="active") is not None:
        raise Conflict(f"{user.email} already has an active {kind}", field="kind", hint="revoke it first")
    number = f"26-{10000 + ctx.next_number(Credential, 'card'):05d}"
    while ctx.first(Credential, number=number) is not None:
        number = f"26-{10000 + ctx.next_number(Credential, 'card'):05d}"
    return ctx.create(Credential, user_id=user.id, kind=kind, number=number)


def _in_schedule(sch: Schedule, when: dt.datetime) -> bool:
    return DAYS[when.weekday()] in sch.days and sch.start <= when.strftime("%H:%M") <= sch.end


def _decide(ctx: Ctx, door: Door, cred: Credential | None) -> tuple[Result, DenyReason, str | None]:
    site = ctx.get(Site, door.site_id)
    if cred is None:
        return "denied", "unknown_credential", None
    user = ctx.get(User, cred.user_id)
    if site.lockdown_active or door.mode == "locked":
        return "denied", "lockdown", user.id
    if cred.status != "active":
        return "denied", "credential_inactive", user.id
    if user.status != "active":
        return "denied", "user_suspended", user.id
    if door.mode == "unlocked":
        return "granted", "none", user.id
    groups = [ctx.get(Group, g) for g in user.group_ids]
    granting = [g for g in groups if door.id in g.door_ids]
    if not granting:
        return "denied", "no_access", user.id
    if not any(_in_schedule(ctx.get(Schedule, g.schedule_id), ctx.now()) for g in granting):
        return "denied", "outside_schedule", user.id
    return "granted", "none", user.id


def _example_present(ctx: Ctx) -> dict[str, Any] | None:
    cred = ctx.first(Credential, status="active")
    door = ctx.first(Door, kind="entrance")
    return None if cred is None or door is None else {"door_id": door.id, "number": cred.number}


@service.tool(intent="present the credential at the door", write=True, example=_example_present)
def present_credential(ctx: Ctx, door_id: DoorId, number: CardNumber) -> AccessEvent:
    """Present a credential at a door's reader: the door decides and logs a granted or denied event.

    Args:
        door_id: The door.
        number: The credential number read.
    """
    door = ctx.get(Door, door_id, field="door_id")
    cred = ctx.first(Credential, number=number)
    result, reason, user_id = _decide(ctx, door, cred)
    return ctx.create(
        AccessEvent,
        door_id=door.id,
        number=number,
        user_id=user_id,
        result=result,
        reason=reason,
        occurred_at=ctx.now(),
    )


@service.tool(
    intent="start a lockdown of the site",
    write=True,
    example=first_example(Site, "site_id", where={"lockdown_active": False}, reason="Intruder in the lobby"),
)
def start_lockdown(ctx: Ctx, site_id: SiteId, reason: Text, initiated_by: Email | None = None) -> Lockdown:
    """Lock down a site: every door denies access and modes cannot change until the lockdown is cleared.

    Args:
        site_id: The site.
        reason: Why (required).
        initiated_by: The employee starting it (default: the site's first security employee).
    """
    site = ctx.get(Site, site_id, field="site_id")
    if site.lockdown_active:
        raise Conflict(f"{site.name} is already in lockdown", field="site_id", hint="clear it first")
    if not reason.strip():
        raise RuleViolation("a lockdown needs a reason", field="reason", hint="say why")
    who = initiated_by or ctx.population.employees[0].email
    require_employee(ctx, who, field="initiated_by", hint="only staff start lockdowns")
    ctx.update(site, lockdown_active=True)
    return ctx.create(Lockdown, site_id=site.id, reason=reason.strip(), initiated_by=who, started_at=ctx.now())


@service.tool(
    intent="clear the lockdown",
    write=True,
    example=first_example(Lockdown, "lockdown_id", where={"status": "active"}, fields={"cleared_by": "initiated_by"}),
)
def clear_lockdown(ctx: Ctx, lockdown_id: LockdownId, cleared_by: Email) -> Lockdown:
    """End an active lockdown: the site's doors work normally again.

    Args:
        lockdown_id: The lockdown.
        cleared_by: The employee clearing it.
    """
    lock = ctx.get(Lockdown, lockdown_id, field="lockdown_id")
    if lock.status != "active":
        raise Conflict(f"lockdown {lock.id} is already cleared", field="lockdown_id", hint="nothing to do")
    require_employee(ctx, cleared_by, field="cleared_by", hint="only staff clear lockdowns")
    ctx.update(ctx.get(Site, lock.site_id), lockdown_active=False)
    return ctx.update(lock, status="cleared", cleared_at=ctx.now(), cleared_by=cleared_by)


@service.tool(intent="list who can open the door", example=first_example(Door, "door_id"))
def door_holders(ctx: Ctx, door_id: DoorId) -> list[Holder]:
    """The active users whose groups grant a door (whatever the time), with the granting group.

    Args:
        door_id: The door.
    """
    door = ctx.get(Door, door_id, field="door_id")
    out: list[Holder] = []
    for u in ctx.where(User, status="active"):
        for gid in u.group_ids:
            g = ctx.get(Group, gid)
            if door.id in g.door_ids:
                out.append(Holder(user_id=u.id, email=u.email, name=u.name, group=g.name))
                break
    return out


# -- seed -------------------------------------------------------------------------------------

DOORS: tuple[tuple[str, DoorKind, DoorMode], ...] = (
    ("Main entrance", "entrance", "card_only"),
    ("Loading dock", "loading_dock", "card_only"),
    ("Server room", "server_room", "card_only"),
    ("Stairwell B", "stairwell", "locked"),
    ("Reception", "interior", "unlocked"),
)


@service.seeder
def seed(s: SeedContext) -> None:
    """Two sites with doors, schedules, groups, employees with credentials, and a day of access events."""
    pop = s.population
    made_sites = []
    for k, place in enumerate([pop.home.place, *[c.place for c in pop.customers[:1]]]):
        made_sites.append(
            s.create(
                Site,
                name=f"{place.city} office",
                city=place.city,
                timezone=place.timezone,
                created_at=s.ago(days=700 - 100 * k),
                updated_at=s.ago(days=100),
            )
        )
    site_doors = {
        site.id: [
            s.create(
                Door, site_id=site.id, name=n, kind=kd, mode=md, created_at=s.ago(days=600), updated_at=s.ago(days=30)
            )
            for n, kd, md in DOORS
        ]
        for site in made_sites
    }
    office = s.create(
        Schedule,
        name="Business hours",
        days=DAYS[:5],
        start="07:00",
        end="19:00",
        created_at=s.ago(days=600),
        updated_at=s.ago(days=600),
    )
    always = s.create(
        Schedule,
        name="Always",
        days=DAYS,
        start="00:00",
        end="23:59",
        created_at=s.ago(days=600),
        updated_at=s.ago(days=600),
    )
    s.create(
        Schedule,
        name="Weekend cleaning",
        days=("sat",),
        start="08:00",
        end="12:00",
        created_at=s.ago(days=90),
        updated_at=s.ago(days=90),
    )
    hq = site_doors[made_sites[0].id]
    staff_group = s.create(
        Group,
        name="All staff",
        door_ids=tuple(d.id for d in site_doors[made_sites[0].id][:1] + hq[4:]),
        schedule_id=office.id,
        description="Every employee, business hours.",
        created_at=s.ago(days=600),
        updated_at=s.ago(days=600),
    )
    it_group = s.create(
        Group,
        name="IT and facilities",
        door_ids=(hq[0].id, hq[1].id, hq[2].id),
        schedule_id=always.id,
        description="Round-the-clock access incl. server room.",
        created_at=s.ago(days=600),
        updated_at=s.ago(days=600),
    )
    it = {p.email for p in pop.staff("IT", "Engineering", fallback=2)[:3]}
    for k, p in enumerate(pop.employees[:16]):
        groups = (staff_group.id, it_group.id) if p.email in it else (staff_group.id,)
        status: UserStatus = "suspended" if k == 7 else "active"
        u = s.create(
            User,
            email=p.email,
            name=p.name,
            group_ids=groups,
            status=status,
            created_at=s.ago(days=500 - k),
            updated_at=s.ago(days=20),
        )
        cred = s.create(
            Credential,
            user_id=u.id,
            kind="card",
            number=f"26-{20000 + k:05d}",
            status="revoked" if k == 11 else "suspended" if k == 13 else "active",
            created_at=s.ago(days=400 - k),
        )
        for j, door in enumerate((hq[0], hq[2])):
            granted = door.id in (it_group.door_ids if p.email in it else staff_group.door_ids)
            result, reason = ("granted", "none") if granted else ("denied", "no_access")
            if cred.status != "active" or status == "suspended":
                result, reason = "denied", "credential_inactive" if cred.status != "active" else "user_suspended"
            s.create(
                AccessEvent,
                door_id=door.id,
                number=cred.number,
                user_id=u.id,
                result=result,
                reason=reason,
                occurred_at=s.ago(hours=20 - k, minutes=10 * j),
            )
    s.create(
        Lockdown,
        site_id=made_sites[1].id,
        reason="Fire alarm drill",
        initiated_by=pop.employees[0].email,
        status="cleared",
        started_at=s.ago(days=30),
        cleared_at=s.ago(days=30, hours=-1),
        cleared_by=pop.employees[0].email,
    )
    annex = made_sites[1]
    s.update(annex, lockdown_active=True)
    s.create(
        Lockdown,
        site_id=annex.id,
        reason="Suspicious package reported at the loading dock",
        initiated_by=pop.employees[1].email,
        started_at=s.ago(hours=1),
    )
