"""Stash Bookmarks: saving without duplicates, sharing roles, read-later states, Trash, tags, highlights, links."""

from __future__ import annotations

from typing import Any

from compoworld import Episode
from tests.services.helpers import ServiceTools

BM = ServiceTools("bookmarks")
WORLD = BM.world
ok, refused, every = BM.ok, BM.refused, BM.every
POP = WORLD.population
STAFF = {p.email for p in POP.employees}


def shared(ep: Episode, role: str) -> dict[str, Any]:
    return every(ep, "list_collaborators", role=role)[0]


def unread(ep: Episode) -> dict[str, Any]:
    return every(ep, "list_bookmarks", status="unread")[0]


def test_seeded_bookmarks_belong_to_staff_and_link_to_partner_sites(ep: Episode) -> None:
    marks = every(ep, "list_bookmarks")
    assert {b["owner_email"] for b in marks} <= STAFF
    assert {b["status"] for b in marks} == {"unread", "archived", "trashed"}
    domains = {c.domain for c in POP.companies}
    partner = [b for b in marks if "partners" in b["tags"]]
    assert partner and all(b["site"] in domains for b in partner)
    for b in marks:
        if b["collection_id"]:
            assert ok(ep, "get_collection", collection_id=b["collection_id"])["owner_email"] == b["owner_email"]


def test_a_page_is_saved_once_per_person_whatever_its_tracking_parameters(ep: Episode) -> None:
    b = unread(ep)
    owner = b["owner_email"]
    variant = b["link"].replace("https://", "http://").rstrip("/") + "/?utm_source=x#top"
    refused(ep, "save_bookmark", "conflict", "link", link=variant, owner_email=owner, title="Again")
    other = next(p.email for p in POP.employees if p.email != owner)
    made = ok(ep, "save_bookmark", link=variant, owner_email=other, title="Mine", tags=["reading", "reading"])
    assert (made["collection_id"], made["status"], made["tags"]) == (None, "unread", ["reading"])


def test_only_the_owner_and_members_may_save_into_a_collection(ep: Episode) -> None:
    member, viewer = shared(ep, "member"), shared(ep, "viewer")
    col = member["collection_id"]
    link = "https://example.org/guide"
    refused(
        ep,
        "save_bookmark",
        "rule_violation",
        "collection_id",
        link=link,
        owner_email=viewer["email"],
        title="G",
        collection_id=viewer["collection_id"],
    )
    stranger = next(p.email for p in POP.consumers)
    refused(
        ep,
        "save_bookmark",
        "rule_violation",
        "collection_id",
        link=link,
        owner_email=stranger,
        title="G",
        collection_id=col,
    )
    made = ok(ep, "save_bookmark", link=link, owner_email=member["email"], title="Guide", collection_id=col)
    assert made["collection_id"] == col
    ok(ep, "update_collaborator", collaborator_id=viewer["id"], role="member")
    assert (
        ok(
            ep,
            "save_bookmark",
            link=link,
            owner_email=viewer["email"],
            title="G",
            collection_id=viewer["collection_id"],
        )["collection_id"]
        == viewer["collection_id"]
    )


def test_sharing_refuses_the_owner_duplicates_and_sub_collections(ep: Episode) -> None:
    member = shared(ep, "member")
    col = ok(ep, "get_collection", collection_id=member["collection_id"])
    refused(ep, "share_collection", "rule_violation", "email", collection_id=col["id"], email=col["owner_email"])
    refused(ep, "share_collection", "conflict", "email", collection_id=col["id"], email=member["email"])
    sub = next(c for c in every(ep, "list_collections") if c["parent_id"])
    refused(ep, "share_collection", "rule_violation", "collection_id", collection_id=sub["id"], email="x@y.io")
    made = ok(ep, "share_collection", collection_id=col["id"], email="friend@mailbox.net")
    assert (made["role"], made["invited_by"]) == ("viewer", col["owner_email"])


def test_read_later_states_move_through_archive_trash_and_restore(ep: Episode) -> None:
    b = unread(ep)
    assert ok(ep, "archive_bookmark", bookmark_id=b["id"])["status"] == "archived"
    refused(ep, "archive_bookmark", "rule_violation", "bookmark_id", bookmark_id=b["id"])
    assert ok(ep, "unarchive_bookmark", bookmark_id=b["id"])["status"] == "unread"
    assert ok(ep, "trash_bookmark", bookmark_id=b["id"])["status"] == "trashed"
    refused(ep, "update_bookmark", "rule_violation", "bookmark_id", bookmark_id=b["id"], title="New")
    refused(ep, "add_highlight", "rule_violation", "bookmark_id", bookmark_id=b["id"], text="x")
    assert ok(ep, "restore_bookmark", bookmark_id=b["id"])["status"] == "unread"
    assert ok(ep, "favorite_bookmark", bookmark_id=b["id"])["favorite"] is True


def test_permanent_delete_only_from_the_trash_and_takes_the_highlights(ep: Episode) -> None:
    hl = every(ep, "list_highlights")[0]
    bid = hl["bookmark_id"]
    refused(ep, "delete_bookmark", "rule_violation", "bookmark_id", bookmark_id=bid)
    ok(ep, "trash_bookmark", bookmark_id=bid)
    ok(ep, "delete_bookmark", bookmark_id=bid)
    assert hl["id"] not in {h["id"] for h in every(ep, "list_highlights")}


def test_deleting_a_collection_trashes_its_bookmarks_but_not_while_it_has_children(ep: Episode) -> None:
    sub = next(c for c in every(ep, "list_collections") if c["parent_id"])
    refused(ep, "delete_collection", "rule_violation", "collection_id", collection_id=sub["parent_id"])
    inside = every(ep, "list_bookmarks", collection_id=sub["parent_id"])
    ok(ep, "delete_collection", collection_id=sub["id"])
    ok(ep, "delete_collection", collection_id=sub["parent_id"])
    for b in inside:
        again = ok(ep, "get_bookmark", bookmark_id=b["id"])
        assert (again["status"], again["collection_id"]) == ("trashed", None)


def test_collections_nest_only_under_the_owners_own_and_never_in_a_loop(ep: Episode) -> None:
    sub = next(c for c in every(ep, "list_collections") if c["parent_id"])
    parent = sub["parent_id"]
    refused(ep, "update_collection", "rule_violation", "parent_id", collection_id=parent, parent_id=sub["id"])
    foreign = next(c for c in every(ep, "list_collections") if c["owner_email"] != sub["owner_email"])
    refused(
        ep,
        "create_collection",
        "rule_violation",
        "parent_id",
        title="X",
        owner_email=sub["owner_email"],
        parent_id=foreign["id"],
    )


def test_renaming_a_tag_merges_it_and_recounts(ep: Episode) -> None:
    owner = unread(ep)["owner_email"]
    tags = ok(ep, "list_tags", owner_email=owner)
    assert tags[0]["tag"] == "partners"
    other = tags[-1]
    live = [b for b in every(ep, "list_bookmarks", owner_email=owner) if b["status"] != "trashed"]
    either = sum(bool({"partners", other["tag"]} & set(b["tags"])) for b in live)
    merged = ok(ep, "rename_tag", owner_email=owner, tag=other["tag"], new_tag="partners")
    assert merged[0] == {"tag": "partners", "count": either} and either > tags[0]["count"]
    assert other["tag"] not in {t["tag"] for t in merged}
    refused(ep, "rename_tag", "rule_violation", "tag", owner_email=owner, tag=other["tag"], new_tag="zzz")


def test_duplicates_are_found_and_broken_links_flagged(ep: Episode) -> None:
    groups = []
    for p in POP.employees[:12]:
        groups += ok(ep, "find_duplicates", owner_email=p.email)
    assert groups and all(len(g["bookmark_ids"]) == 2 for g in groups)
    dead = next(b for b in every(ep, "list_bookmarks") if b["site"].endswith("geocities.example"))
    assert ok(ep, "check_link", bookmark_id=dead["id"])["broken"] is True
    assert ok(ep, "get_bookmark", bookmark_id=dead["id"])["broken"] is True
    fine = every(ep, "list_bookmarks", kind="document")[0]
    assert ok(ep, "check_link", bookmark_id=fine["id"])["broken"] is False
