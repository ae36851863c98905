"""Roster Contacts: each person's address book of contacts, contact groups, other contacts and merges.

Modeled on the Google People API v1 (people.createContact / updateContact /
deleteContact / searchContacts, emailAddresses and phoneNumbers with types,
organizations, biographies, birthdays, contactGroups with system groups
``myContacts`` and ``starred`` and user groups, contactGroups.members.modify,
otherContacts with copyOtherContactToMyContactsGroup): a contact belongs to
one person's address book; within one book an e-mail address belongs to one
contact only, so a second one is refused and duplicates (same name, or same
phone) are merged instead, the merge keeping every address, number and group;
a contact has at most 10 e-mail addresses and 10 phone numbers; group names
are unique per book and system groups are neither renamed nor deleted; an
"other contact" (someone the person e-mailed) is copied into My Contacts once.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import StringConstraints

from compoworld.engine.context import Ctx
from compoworld.engine.errors import Conflict, RuleViolation
from compoworld.engine.records import CREATED, UPDATED, Record
from compoworld.engine.service import Service, Transition
from compoworld.engine.state import SeedContext
from compoworld.engine.types import (
    CompanyName,
    Date,
    DateTime,
    Email,
    FirstName,
    IdOf,
    JobTitle,
    LastName,
    PersonName,
    Phone,
    Text,
)
from compoworld.services.kit.examples import first_example
from compoworld.services.kit.records import Value
from compoworld.services.kit.text import fold

__all__ = ["service"]

service = Service(
    "contacts",
    title="Roster Contacts",
    category="address_book",
    modeled_on="Google People API v1 (people: createContact, updateContact, deleteContact, searchContacts; "
    "contactGroups and contactGroups.members.modify; otherContacts.copyOtherContactToMyContactsGroup)",
    description="Each person's address book: contacts with names, typed e-mail addresses and phone numbers, "
    "company and job title, birthday and notes; starred contacts; contact groups; the other contacts "
    "collected from e-mail, copied in when wanted; and duplicates found and merged.",
)

ContactId = Annotated[str, IdOf("contacts.contact")]
GroupId = Annotated[str, IdOf("contacts.group")]
OtherContactId = Annotated[str, IdOf("contacts.other_contact")]

EntryType = Literal["work", "home", "mobile", "other"]
GroupType = Literal["user_contact_group", "system_contact_group"]
GroupName = Annotated[str, StringConstraints(min_length=1, max_length=60)]
"""A contact group's name."""

MAX_ENTRIES = 10
SYSTEM_GROUPS = ("myContacts", "coworkers")


class EmailEntry(Value):
    """One of a contact's e-mail addresses."""

    value: Email
    """The address."""
    type: EntryType = "work"
    """work, home, mobile or other."""


class PhoneEntry(Value):
    """One of a contact's phone numbers."""

    value: Phone
    """The number in E.164 form."""
    type: EntryType = "mobile"
    """work, home, mobile or other."""


class Contact(Record):
    """A person in someone's address book."""

    id: ContactId
    owner_email: Email
    """Whose address book it is in."""
    given_name: FirstName
    """First name."""
    family_name: LastName | None = None
    """Last name."""
    display_name: PersonName
    """The name as shown."""
    emails: tuple[EmailEntry, ...] = ()
    """E-mail addresses (the first is the primary)."""
    phones: tuple[PhoneEntry, ...] = ()
    """Phone numbers (the first is the primary)."""
    company: CompanyName | None = None
    """The organization they work for."""
    job_title: JobTitle | None = None
    """Their job title there."""
    birthday: Date | None = None
    """Their birthday."""
    notes: Text = ""
    """Free-text notes (biography)."""
    starred: bool = False
    """In the starred system group."""
    group_ids: tuple[GroupId, ...] = ()
    """The user contact groups it is in."""
    created_at: Annotated[DateTime, CREATED]
    """When it was added."""
    updated_at: Annotated[DateTime, UPDATED]
    """When it last changed."""


class Group(Record):
    """A contact group (label) of one address book."""

    id: GroupId
    owner_email: Email
    """Whose address book it belongs to."""
    name: GroupName
    """Its name (unique in the book)."""
    group_type: GroupType = "user_contact_group"
    """user_contact_group, or system_contact_group (cannot change)."""
    created_at: Annotated[DateTime, CREATED]
    """When it was made."""
    updated_at: Annotated[DateTime, UPDATED]
    """When it last changed."""


class OtherContact(Record):
    """Someone the person interacted with by e-mail but did not add to their contacts."""

    id: OtherContactId
    owner_email: Email
    """Whose other contacts it is in."""
    display_name: PersonName
    """The name from the e-mail header."""
    email: Email
    """Their address."""
    phone: Phone | None = None
    """A number from their signature."""
    last_interaction: DateTime
    """When they last exchanged mail."""
    copied_contact_id: ContactId | None = None
    """The contact it was copied to, if any."""


class DuplicateSet(Value):
    """Contacts of one book that look like the same person."""

    reason: str
    """same_name or same_phone."""
    key: str
    """The shared name or number."""
    contact_ids: list[ContactId]
    """The contacts, oldest first."""


class GroupMembers(Value):
    """A group and the contacts in it."""

    group_id: GroupId
    """The group."""
    name: str
    """Its name."""
    member_count: int
    """How many contacts it holds."""
    contact_ids: list[ContactId]
    """Its members."""


# -- rules ------------------------------------------------------------------------------------


def _display(given: str, family: str | None) -> str:
    return f"{given} {family}".strip() if family else given


def _email_owner(ctx: Ctx, owner: str, email: str, skip: str | None = None) -> Contact | None:
    want = email.lower()
    for c in ctx.where(Contact, owner_email=owner):
        if c.id != skip and any(e.value.lower() == want for e in c.emails):
            return c
    return None


def _check_email_free(ctx: Ctx, owner: str, email: str, skip: str | None = None, field: str = "email") -> None:
    other = _email_owner(ctx, owner, email, skip)
    if other is not None:
        raise Conflict(
            f"{email} already belongs to contact {other.id} ({other.display_name})",
            field=field,
            hint="update that contact, or merge the two with contacts__merge_contacts",
        )


def _guard_contact(ctx: Ctx, new: Any, old: Any) -> None:
    name = _display(new.given_name, new.family_name)
    if name != new.display_name:
        ctx.update(new, display_name=name)


def _guard_group(ctx: Ctx, new: Any, old: Any) -> None:
    if old is not None and old.group_type == "system_contact_group":
        raise RuleViolation(
            f"system group {old.name!r} cannot change", field="group_id", hint="make a user contact group instead"
        )
    for g in ctx.where(Group, owner_email=new.owner_email):
        if g.id != new.id and fold(g.name) == fold(new.name):
            raise Conflict(f"group {g.name!r} already exists", field="name", hint="pick another name or use that group")


contacts = service.resource(
    Contact,
    name="contact",
    plural="contacts",
    prefix="people",
    create=False,
    filters=("owner_email", "starred", "company", "family_name"),
    search=("display_name", "company", "job_title", "notes"),
    update=("given_name", "family_name", "company", "job_title", "birthday", "notes"),
    delete=True,
    transitions={
        "star": Transition("starred", (False,), True, "star the contact"),
        "unstar": Transition("starred", (True,), False, "unstar the contact"),
    },
    guard_update=_guard_contact,
)
groups = service.resource(
    Group,
    name="group",
    plural="groups",
    prefix="contactGroups",
    create=("owner_email", "name"),
    filters=("owner_email", "group_type"),
    search=("name",),
    update=("name",),
    delete=False,
    guard_create=_guard_group,
    guard_update=_guard_group,
    title="contact group",
)
other_contacts = service.resource(
    OtherContact,
    name="other_contact",
    plural="other_contacts",
    prefix="otherContacts",
    create=False,
    get=False,
    filters=("owner_email", "email", "copied_contact_id"),
    search=("display_name", "email"),
    delete=False,
)


# -- domain tools -----------------------------------------------------------------------------


def _example_create(ctx: Ctx) -> dict[str, Any] | None:
    return {
        "owner_email": ctx.population.employees[0].email,
        "given_name": "Renata",
        "family_name": "Okafor",
        "email": "renata.okafor@postbox.org",
        "phone": "+14155550123",
        "company": "Okafor Design",
    }


@service.tool(intent="add a contact to the address book", write=True, example=_example_create)
def create_contact(
    ctx: Ctx,
    owner_email: Email,
    given_name: FirstName,
    family_name: LastName | None = None,
    email: Email | None = None,
    email_type: EntryType = "work",
    phone: Phone | None = None,
    company: CompanyName | None = None,
    job_title: JobTitle | None = None,
    birthday: Date | None = None,
    notes: Text = "",
) -> Contact:
    """Add a contact to a person's address book; an e-mail address may belong to one contact only.

    Args:
        owner_email: Whose address book.
        given_name: First name.
        family_name: Last name.
        email: Primary e-mail address.
        email_type: work, home, mobile or other.
        phone: Primary phone number (E.164).
        company: Their organization.
        job_title: Their job title.
        birthday: Their birthday.
        notes: Notes.
    """
    if email is None and phone is None and family_name is None:
        raise RuleViolation(
            "a contact with only a first name cannot be told apart",
            field="email",
            hint="give an e-mail address, a phone number or a family name",
        )
    if email is not None:
        _check_email_free(ctx, owner_email, email)
    return ctx.create(
        Contact,
        owner_email=owner_email,
        given_name=given_name,
        family_name=family_name,
        display_name=_display(given_name, family_name),
        emails=(EmailEntry(value=email, type=email_type),) if email else (),
        phones=(PhoneEntry(value=phone),) if phone else (),
        company=company,
        job_title=job_title,
        birthday=birthday,
        notes=notes,
    )


@service.tool(
    intent="add an e-mail address to the contact",
    write=True,
    example=first_example(Contact, "contact_id", email="second.address@inbox.io", type="home"),
)
def add_email(ctx: Ctx, contact_id: ContactId, email: Email, type: EntryType = "work") -> Contact:
    """Add an e-mail address to a contact (at most 10; not one another contact of the book has).

    Args:
        contact_id: The contact.
        email: The address.
        type: work, home, mobile or other.
    """
    c = ctx.get(Contact, contact_id, field="contact_id")
    if any(e.value.lower() == email.lower() for e in c.emails):
        raise Conflict(f"{c.display_name} already has {email}", field="email", hint="nothing to add")
    _check_email_free(ctx, c.owner_email, email, skip=c.id)
    if len(c.emails) >= MAX_ENTRIES:
        raise RuleViolation(f"at most {MAX_ENTRIES} e-mail addresses", field="email", hint="remove one first")
    return ctx.update(c, emails=(*c.emails, EmailEntry(value=email, type=type)))


@service.tool(
    intent="remove an e-mail address from the contact",
    write=True,
    example=lambda ctx: next(
        ({"contact_id": c.id, "email": c.emails[0].value} for c in ctx.scan(Contact) if c.emails and c.phones), None
    ),
)
def remove_email(ctx: Ctx, contact_id: ContactId, email: Email) -> Contact:
    """Remove one of a contact's e-mail addresses.

    Args:
        contact_id: The contact.
        email: The address to remove.
    """
    c = ctx.get(Contact, contact_id, field="contact_id")
    kept = tuple(e for e in c.emails if e.value.lower() != email.lower())
    if len(kept) == len(c.emails):
        raise RuleViolation(f"{c.display_name} has no address {email}", field="email", hint="get the contact first")
    if not kept and not c.phones:
        raise RuleViolation(
            "a contact keeps at least one e-mail address or phone number",
            field="email",
            hint="add a phone number first, or delete the contact",
        )
    return ctx.update(c, emails=kept)


@service.tool(
    intent="add a phone number to the contact",
    write=True,
    example=first_example(Contact, "contact_id", phone="+442079460123", type="work"),
)
def add_phone(ctx: Ctx, contact_id: ContactId, phone: Phone, type: EntryType = "mobile") -> Contact:
    """Add a phone number to a contact (at most 10).

    Args:
        contact_id: The contact.
        phone: The number in E.164 form.
        type: work, home, mobile or other.
    """
    c = ctx.get(Contact, contact_id, field="contact_id")
    if any(p.value == phone for p in c.phones):
        raise Conflict(f"{c.display_name} already has {phone}", field="phone", hint="nothing to add")
    if len(c.phones) >= MAX_ENTRIES:
        raise RuleViolation(f"at most {MAX_ENTRIES} phone numbers", field="phone", hint="remove one first")
    return ctx.update(c, phones=(*c.phones, PhoneEntry(value=phone, type=type)))


def _example_merge(ctx: Ctx) -> dict[str, Any] | None:
    for c in ctx.scan(Contact):
        sets = find_duplicates(ctx, c.owner_email)
        if sets:
            return {"contact_id": sets[0].contact_ids[0], "duplicate_id": sets[0].contact_ids[1]}
    return None


@service.tool(intent="merge the duplicate contacts", write=True, destructive=True, example=_example_merge)
def merge_contacts(ctx: Ctx, contact_id: ContactId, duplicate_id: ContactId) -> Contact:
    """Merge a duplicate into a contact of the same book: addresses, numbers, groups, star and notes are kept.

    Args:
        contact_id: The contact that stays.
        duplicate_id: The contact merged into it and removed.
    """
    keep = ctx.get(Contact, contact_id, field="contact_id")
    dup = ctx.get(Contact, duplicate_id, field="duplicate_id")
    if keep.id == dup.id:
        raise RuleViolation("a contact cannot merge with itself", field="duplicate_id", hint="pick the other contact")
    if keep.owner_email != dup.owner_email:
        raise RuleViolation(
            "the contacts are in different address books",
            field="duplicate_id",
            hint="merge contacts of the same owner only",
        )
    have = {e.value.lower() for e in keep.emails}
    emails = keep.emails + tuple(e for e in dup.emails if e.value.lower() not in have)
    numbers = {p.value for p in keep.phones}
    phones = keep.phones + tuple(p for p in dup.phones if p.value not in numbers)
    if len(emails) > MAX_ENTRIES or len(phones) > MAX_ENTRIES:
        raise RuleViolation("the merge would exceed 10 entries", field="duplicate_id", hint="remove some first")
    for oc in ctx.where(OtherContact, copied_contact_id=dup.id):
        ctx.update(oc, copied_contact_id=keep.id)
    ctx.delete(dup)
    return ctx.update(
        keep,
        emails=emails,
        phones=phones,
        company=keep.company or dup.company,
        job_title=keep.job_title or dup.job_title,
        birthday=keep.birthday or dup.birthday,
        family_name=keep.family_name or dup.family_name,
        notes="\n".join(n for n in (keep.notes, dup.notes) if n),
        starred=keep.starred or dup.starred,
        group_ids=tuple(dict.fromkeys(keep.group_ids + dup.group_ids)),
    )


def _owner_example(ctx: Ctx) -> dict[str, Any] | None:
    c = ctx.first(Contact)
    return None if c is None else {"owner_email": c.owner_email}


@service.tool(intent="find duplicate contacts", example=_owner_example)
def find_duplicates(ctx: Ctx, owner_email: Email) -> list[DuplicateSet]:
    """Contacts of a person's book that share a name or a phone number.

    Args:
        owner_email: Whose address book.
    """
    by: dict[tuple[str, str], list[str]] = {}
    for c in ctx.where(Contact, owner_email=owner_email):
        by.setdefault(("same_name", fold(c.display_name)), []).append(c.id)
        for p in c.phones:
            by.setdefault(("same_phone", p.value), []).append(c.id)
    out = [DuplicateSet(reason=r, key=k, contact_ids=ids) for (r, k), ids in sorted(by.items()) if len(ids) > 1]
    return out


def _example_search(ctx: Ctx) -> dict[str, Any] | None:
    c = ctx.first(Contact)
    return None if c is None else {"owner_email": c.owner_email, "query": c.given_name[:3]}


@service.tool(intent="search the address book", example=_example_search)
def search_contacts(
    ctx: Ctx, owner_email: Email, query: Annotated[str, StringConstraints(min_length=1, max_length=100)]
) -> list[Contact]:
    """Contacts of a person whose name, company, e-mail or phone starts with the query (word prefix).

    Args:
        owner_email: Whose address book.
        query: The start of a name, company, e-mail address or phone number.
    """
    q = fold(query, keep_punctuation=True).strip()
    out = []
    for c in ctx.where(Contact, owner_email=owner_email):
        words = fold(f"{c.display_name} {c.company or ''}").split()
        keys = [e.value.lower() for e in c.emails] + [p.value for p in c.phones]
        if any(w.startswith(q) for w in words) or any(k.startswith(q) for k in keys):
            out.append(c)
    return out[:30]


@service.tool(
    intent="delete the contact group",
    write=True,
    destructive=True,
    example=first_example(Group, "group_id", where={"group_type": "user_contact_group"}),
)
def delete_group(ctx: Ctx, group_id: GroupId, delete_contacts: bool = False) -> Group:
    """Delete a user contact group; its contacts leave it (or are deleted too when asked).

    Args:
        group_id: The group.
        delete_contacts: Also delete the contacts that are in it.
    """
    g = ctx.get(Group, group_id, field="group_id")
    if g.group_type == "system_contact_group":
        raise RuleViolation(f"system group {g.name!r} cannot be deleted", field="group_id", hint="pick a user group")
    for c in ctx.where(Contact, owner_email=g.owner_email):
        if g.id in c.group_ids:
            if delete_contacts:
                ctx.delete(c)
            else:
                ctx.update(c, group_ids=tuple(x for x in c.group_ids if x != g.id))
    ctx.delete(g)
    return g


def _example_modify(ctx: Ctx) -> dict[str, Any] | None:
    g = ctx.first(Group, group_type="user_contact_group")
    if g is None:
        return None
    out = [c.id for c in ctx.where(Contact, owner_email=g.owner_email) if g.id not in c.group_ids]
    return {"group_id": g.id, "add_contact_ids": out[:1]}


@service.tool(intent="add or remove contacts of the group", write=True, example=_example_modify)
def modify_group_members(
    ctx: Ctx,
    group_id: GroupId,
    add_contact_ids: list[ContactId] | None = None,
    remove_contact_ids: list[ContactId] | None = None,
) -> GroupMembers:
    """Add contacts of the group's address book to a user group, and remove others from it.

    Args:
        group_id: The group.
        add_contact_ids: Contacts to add.
        remove_contact_ids: Contacts to remove.
    """
    g = ctx.get(Group, group_id, field="group_id")
    if g.group_type == "system_contact_group":
        raise RuleViolation(
            f"members of system group {g.name!r} cannot be modified", field="group_id", hint="use a user group"
        )
    adds, removes = add_contact_ids or [], remove_contact_ids or []
    if not adds and not removes:
        raise RuleViolation("nothing to change", field="add_contact_ids", hint="list contacts to add or remove")
    if set(adds) & set(removes):
        raise RuleViolation("a contact is both added and removed", field="remove_contact_ids", hint="list it once")
    for fname, ids in (("add_contact_ids", adds), ("remove_contact_ids", removes)):
        for cid in ids:
            c = ctx.get(Contact, cid, field=fname)
            if c.owner_email != g.owner_email:
                raise RuleViolation(
                    f"contact {cid} is in another address book", field=fname, hint="use the group owner's contacts"
                )
            if fname == "add_contact_ids" and g.id not in c.group_ids:
                ctx.update(c, group_ids=(*c.group_ids, g.id))
            if fname == "remove_contact_ids":
                if g.id not in c.group_ids:
                    raise RuleViolation(f"contact {cid} is not in the group", field=fname, hint="list the members")
                ctx.update(c, group_ids=tuple(x for x in c.group_ids if x != g.id))
    return group_members(ctx, g.id)


@service.tool(intent="list the members of the contact group", example=first_example(Group, "group_id"))
def group_members(ctx: Ctx, group_id: GroupId) -> GroupMembers:
    """The contacts in a group; myContacts holds the whole book, coworkers those at the owner's company.

    Args:
        group_id: The group.
    """
    g = ctx.get(Group, group_id, field="group_id")
    book = ctx.where(Contact, owner_email=g.owner_email)
    if g.name == "myContacts":
        ids = [c.id for c in book]
    elif g.name == "coworkers":
        domain = g.owner_email.split("@", 1)[1]
        ids = [c.id for c in book if any(e.value.endswith("@" + domain) for e in c.emails)]
    else:
        ids = [c.id for c in book if g.id in c.group_ids]
    return GroupMembers(group_id=g.id, name=g.name, member_count=len(ids), contact_ids=ids)


@service.tool(
    intent="copy the other contact into my contacts",
    write=True,
    example=first_example(OtherContact, "other_contact_id", where={"copied_contact_id": None}),
)
def copy_other_contact(ctx: Ctx, other_contact_id: OtherContactId) -> Contact:
    """Copy someone from Other contacts into the owner's contacts (once; not if a contact has the address).

    Args:
        other_contact_id: The other contact.
    """
    oc = ctx.get(OtherContact, other_contact_id, field="other_contact_id")
    if oc.copied_contact_id is not None:
        raise Conflict(
            f"already copied to contact {oc.copied_contact_id}",
            field="other_contact_id",
            hint="get that contact with contacts__get_contact",
        )
    _check_email_free(ctx, oc.owner_email, oc.email, field="other_contact_id")
    given, _, family = oc.display_name.partition(" ")
    made = ctx.create(
        Contact,
        owner_email=oc.owner_email,
        given_name=given,
        family_name=family or None,
        display_name=oc.display_name,
        emails=(EmailEntry(value=oc.email),),
        phones=(PhoneEntry(value=oc.phone),) if oc.phone else (),
    )
    ctx.update(oc, copied_contact_id=made.id)
    return made


# -- seed -------------------------------------------------------------------------------------


@service.seeder
def seed(s: SeedContext) -> None:
    """Staff's books of partner contacts in groups, a few starred, duplicate entries, and other contacts."""
    pop = s.population
    outside = [p for p in pop.contacts]
    owners = list(pop.employees[:10])
    for k, owner in enumerate(owners):
        when = s.ago(days=400 - 13 * k)
        for name in SYSTEM_GROUPS:
            s.create(
                Group,
                owner_email=owner.email,
                name=name,
                group_type="system_contact_group",
                created_at=when,
                updated_at=when,
            )
        clients = s.create(Group, owner_email=owner.email, name="Clients", created_at=when, updated_at=when)
        event = s.create(Group, owner_email=owner.email, name="Conference 2026", created_at=when, updated_at=when)
        pick = [outside[(k * 5 + j) % len(outside)] for j in range(9)] if outside else []
        for j, p in enumerate(pick[:7]):
            co = pop.company_of(p)
            s.create(
                Contact,
                owner_email=owner.email,
                given_name=p.first_name,
                family_name=p.last_name,
                display_name=p.name,
                emails=(EmailEntry(value=p.email, type="work"),),
                phones=(PhoneEntry(value=p.phone, type="work" if j % 2 else "mobile"),),
                company=co.name if co else None,
                job_title=p.job_title or None,
                birthday=p.birth_date if j % 3 == 0 else None,
                notes="Met at the partner summit." if j == 2 else "",
                starred=j in (0, 4),
                group_ids=(clients.id,) if j % 2 == 0 else ((event.id,) if j == 3 else ()),
                created_at=s.ago(days=300 - 10 * k - j),
                updated_at=s.ago(days=100 - 5 * k - j),
            )
        if k % 2 == 0 and pick:
            p = pick[1]
            s.create(
                Contact,
                owner_email=owner.email,
                given_name=p.first_name,
                family_name=p.last_name,
                display_name=p.name,
                phones=(PhoneEntry(value=p.phone, type="mobile"),),
                notes="Added from a business card.",
                created_at=s.ago(days=40),
                updated_at=s.ago(days=40),
            )
        for j, p in enumerate(pick[7:9]):
            s.create(
                OtherContact,
                owner_email=owner.email,
                display_name=p.name,
                email=p.email,
                phone=p.phone if j == 0 else None,
                last_interaction=s.ago(days=3 + j + k),
            )
