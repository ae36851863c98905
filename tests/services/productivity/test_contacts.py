"""Roster Contacts: unique addresses per book, merges of duplicates, groups, system groups, other contacts."""

from __future__ import annotations

from typing import Any

from compoworld import Episode
from tests.services.helpers import ServiceTools

CT = ServiceTools("contacts")
WORLD = CT.world
ok, refused, every = CT.ok, CT.refused, CT.every
POP = WORLD.population
OWNER = POP.employees[0].email


def contact(ep: Episode, owner: str = OWNER) -> dict[str, Any]:
    return next(c for c in every(ep, "list_contacts", owner_email=owner) if c["emails"])


def group(ep: Episode, name: str, owner: str = OWNER) -> dict[str, Any]:
    return next(g for g in every(ep, "list_groups", owner_email=owner) if g["name"] == name)


def test_seeded_books_hold_partner_people_as_the_population_knows_them(ep: Episode) -> None:
    people = {p.email: p for p in POP.contacts}
    books = every(ep, "list_contacts")
    assert {c["owner_email"] for c in books} <= {p.email for p in POP.employees}
    for c in books:
        for e in c["emails"]:
            p = people[e["value"]]
            assert c["display_name"] == p.name and c["phones"][0]["value"] == p.phone
    assert every(ep, "list_contacts", starred=True)


def test_an_address_belongs_to_one_contact_of_a_book(ep: Episode) -> None:
    c = contact(ep)
    taken = c["emails"][0]["value"]
    refused(ep, "create_contact", "conflict", "email", owner_email=OWNER, given_name="Al", email=taken)
    other = POP.employees[1].email
    made = ok(ep, "create_contact", owner_email=other, given_name="Al", family_name="Bo", email=taken)
    assert made["display_name"] == "Al Bo"
    second = every(ep, "list_contacts", owner_email=OWNER)[1]
    refused(ep, "add_email", "conflict", "email", contact_id=second["id"], email=taken)
    refused(ep, "create_contact", "rule_violation", "email", owner_email=OWNER, given_name="Solo")


def test_updating_names_renames_the_display_name(ep: Episode) -> None:
    c = contact(ep)
    changed = ok(ep, "update_contact", contact_id=c["id"], given_name="Alexandra")
    assert changed["display_name"] == f"Alexandra {c['family_name']}"


def test_duplicates_are_found_and_merged_keeping_everything(ep: Episode) -> None:
    sets = ok(ep, "find_duplicates", owner_email=OWNER)
    assert sets and {s["reason"] for s in sets} == {"same_name", "same_phone"}
    keep_id, dup_id = sets[0]["contact_ids"]
    keep, dup = ok(ep, "get_contact", contact_id=keep_id), ok(ep, "get_contact", contact_id=dup_id)
    refused(ep, "merge_contacts", "rule_violation", "duplicate_id", contact_id=keep_id, duplicate_id=keep_id)
    merged = ok(ep, "merge_contacts", contact_id=keep_id, duplicate_id=dup_id)
    assert merged["emails"] == keep["emails"] + dup["emails"]
    assert merged["notes"].endswith(dup["notes"]) and merged["group_ids"] == keep["group_ids"]
    refused(ep, "get_contact", "not_found", "contact_id", contact_id=dup_id)
    assert ok(ep, "find_duplicates", owner_email=OWNER) == []


def test_merges_stay_within_one_address_book(ep: Episode) -> None:
    a, b = contact(ep), contact(ep, POP.employees[1].email)
    refused(ep, "merge_contacts", "rule_violation", "duplicate_id", contact_id=a["id"], duplicate_id=b["id"])


def test_a_contact_keeps_an_address_or_a_number(ep: Episode) -> None:
    made = ok(ep, "create_contact", owner_email=OWNER, given_name="Mo", email="mo@inbox.io")
    refused(ep, "remove_email", "rule_violation", "email", contact_id=made["id"], email="mo@inbox.io")
    refused(ep, "remove_email", "rule_violation", "email", contact_id=made["id"], email="zz@inbox.io")
    ok(ep, "add_phone", contact_id=made["id"], phone="+15555550100")
    refused(ep, "add_phone", "conflict", "phone", contact_id=made["id"], phone="+15555550100")
    assert ok(ep, "remove_email", contact_id=made["id"], email="mo@inbox.io")["emails"] == []


def test_group_names_are_unique_and_system_groups_fixed(ep: Episode) -> None:
    refused(ep, "create_group", "conflict", "name", owner_email=OWNER, name="clients")
    system = group(ep, "myContacts")
    refused(ep, "update_group", "rule_violation", "group_id", group_id=system["id"], name="Everyone")
    refused(ep, "delete_group", "rule_violation", "group_id", group_id=system["id"])
    refused(ep, "modify_group_members", "rule_violation", "group_id", group_id=system["id"], add_contact_ids=[])
    book = every(ep, "list_contacts", owner_email=OWNER)
    assert ok(ep, "group_members", group_id=system["id"])["member_count"] == len(book)
    assert ok(ep, "create_group", owner_email=POP.employees[1].email, name="Family")["group_type"] == (
        "user_contact_group"
    )


def test_group_membership_is_modified_within_the_book(ep: Episode) -> None:
    g = group(ep, "Conference 2026")
    before = ok(ep, "group_members", group_id=g["id"])
    outside = [c["id"] for c in every(ep, "list_contacts", owner_email=OWNER) if c["id"] not in before["contact_ids"]]
    after = ok(ep, "modify_group_members", group_id=g["id"], add_contact_ids=outside[:2])
    assert after["member_count"] == before["member_count"] + 2
    foreign = contact(ep, POP.employees[1].email)
    refused(
        ep,
        "modify_group_members",
        "rule_violation",
        "add_contact_ids",
        group_id=g["id"],
        add_contact_ids=[foreign["id"]],
    )
    refused(
        ep,
        "modify_group_members",
        "rule_violation",
        "remove_contact_ids",
        group_id=g["id"],
        remove_contact_ids=[outside[2]],
    )


def test_deleting_a_group_keeps_its_contacts_unless_asked(ep: Episode) -> None:
    g = group(ep, "Clients")
    members = ok(ep, "group_members", group_id=g["id"])["contact_ids"]
    ok(ep, "delete_group", group_id=g["id"])
    for cid in members:
        assert g["id"] not in ok(ep, "get_contact", contact_id=cid)["group_ids"]
    g2 = group(ep, "Clients", POP.employees[1].email)
    gone = ok(ep, "group_members", group_id=g2["id"])["contact_ids"]
    ok(ep, "delete_group", group_id=g2["id"], delete_contacts=True)
    refused(ep, "get_contact", "not_found", "contact_id", contact_id=gone[0])


def test_other_contacts_are_copied_once(ep: Episode) -> None:
    oc = every(ep, "list_other_contacts", owner_email=OWNER)[0]
    made = ok(ep, "copy_other_contact", other_contact_id=oc["id"])
    assert (made["emails"][0]["value"], made["display_name"]) == (oc["email"], oc["display_name"])
    refused(ep, "copy_other_contact", "conflict", "other_contact_id", other_contact_id=oc["id"])
    found = ok(ep, "search_contacts", owner_email=OWNER, query=oc["email"][:5])
    assert made["id"] in {c["id"] for c in found}
