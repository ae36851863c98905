"""Folio Wiki: unique titles, optimistic versioning, page trees, restrictions and read-only archived spaces."""

from __future__ import annotations

from typing import Any

from compoworld import Episode
from tests.services.helpers import ServiceTools

WIKI = ServiceTools("wiki")
WORLD = WIKI.world
ok, refused, every = WIKI.ok, WIKI.refused, WIKI.every
POP = WORLD.population
EMPLOYEES = [p.email for p in POP.employees]


def space(ep: Episode, status: str = "current") -> dict[str, Any]:
    return next(s for s in every(ep, "list_spaces", status=status) if s["homepage_id"])


def page(ep: Episode, pred: Any = lambda p: True, status: str = "current") -> dict[str, Any]:
    sid = space(ep, status)["id"]
    return next(p for p in every(ep, "list_pages", space_id=sid) if pred(p))


def editor_of(p: dict[str, Any]) -> str:
    return str(p["editors"][0] if p["editors"] else p["author_email"])


# -- the world ------------------------------------------------------------------------------


def test_authors_are_employees_and_pages_keep_their_version_history() -> None:
    ep = Episode(WORLD)
    pages = every(ep, "list_pages")
    assert all(p["author_email"] in EMPLOYEES for p in pages)
    for p in pages:
        versions = every(ep, "list_page_versions", page_id=p["id"])
        assert sorted(v["number"] for v in versions) == list(range(1, p["version"] + 1))
    assert {s["status"] for s in every(ep, "list_spaces")} == {"current", "archived"}
    assert any(p["editors"] for p in pages) and every(ep, "list_attachments") and every(ep, "list_comments")


# -- creating and titling -------------------------------------------------------------------


def test_creating_a_page_makes_version_one_under_its_parent(ep: Episode) -> None:
    s = space(ep)
    p = ok(
        ep, "create_page", space_id=s["id"], title="Runbook", author_email=s["created_by"], parent_id=s["homepage_id"]
    )
    assert (p["version"], p["parent_id"], p["last_editor_email"]) == (1, s["homepage_id"], s["created_by"])
    assert ep.diff().counts() == {
        "wiki.pages": {"added": 1, "updated": 0, "removed": 0},
        "wiki.page_versions": {"added": 1, "updated": 0, "removed": 0},
    }


def test_page_titles_are_unique_per_space(ep: Episode) -> None:
    taken = page(ep)
    refused(
        ep,
        "create_page",
        "conflict",
        "title",
        space_id=taken["space_id"],
        title=taken["title"],
        author_email=taken["author_email"],
    )
    other = next(s for s in every(ep, "list_spaces", status="current") if s["id"] != taken["space_id"])
    ok(ep, "create_page", space_id=other["id"], title=taken["title"], author_email=other["created_by"])


def test_only_employees_write_pages(ep: Episode) -> None:
    s = space(ep)
    refused(
        ep,
        "create_page",
        "rule_violation",
        "author_email",
        space_id=s["id"],
        title="X",
        author_email=POP.contacts[0].email,
    )


# -- optimistic concurrency -----------------------------------------------------------------


def test_an_update_with_a_stale_version_conflicts_and_changes_nothing(ep: Episode) -> None:
    p = page(ep, lambda p: not p["editors"] and p["version"] > 1)
    refused(
        ep,
        "update_page",
        "conflict",
        "version_number",
        page_id=p["id"],
        version_number=p["version"] - 1,
        editor_email=p["author_email"],
        body="<p>stale</p>",
    )
    out = ok(
        ep,
        "update_page",
        page_id=p["id"],
        version_number=p["version"],
        editor_email=p["author_email"],
        body="<p>fresh</p>",
        message="Refresh",
    )
    assert (out["version"], out["body"]) == (p["version"] + 1, "<p>fresh</p>")
    new_versions = ep.diff().tables["wiki.page_versions"].added
    assert [(v["number"], v["message"]) for v in new_versions] == [(p["version"] + 1, "Refresh")]


def test_restoring_an_old_version_adds_a_new_version_with_its_content(ep: Episode) -> None:
    p = page(ep, lambda p: not p["editors"] and p["version"] > 1)
    first = every(ep, "list_page_versions", page_id=p["id"], number=1)[0]
    out = ok(
        ep,
        "restore_page_version",
        page_id=p["id"],
        restore_number=1,
        version_number=p["version"],
        editor_email=p["author_email"],
    )
    assert (out["version"], out["body"]) == (p["version"] + 1, first["body"])
    refused(
        ep,
        "restore_page_version",
        "conflict",
        "version_number",
        page_id=p["id"],
        restore_number=1,
        version_number=p["version"],
        editor_email=p["author_email"],
    )


def test_renaming_onto_a_taken_title_conflicts(ep: Episode) -> None:
    p = page(ep, lambda p: not p["editors"] and p["parent_id"] is not None)
    home = ok(ep, "get_page", page_id=p["parent_id"])
    refused(
        ep,
        "update_page",
        "conflict",
        "title",
        page_id=p["id"],
        version_number=p["version"],
        editor_email=p["author_email"],
        title=home["title"],
    )


# -- restrictions ---------------------------------------------------------------------------


def test_restricted_pages_are_editable_only_by_their_editors(ep: Episode) -> None:
    p = page(ep, lambda p: bool(p["editors"]))
    outsider = next(e for e in EMPLOYEES if e not in p["editors"])
    refused(
        ep,
        "update_page",
        "rule_violation",
        "editor_email",
        page_id=p["id"],
        version_number=p["version"],
        editor_email=outsider,
        body="<p>nope</p>",
    )
    refused(
        ep,
        "set_page_restrictions",
        "rule_violation",
        "requested_by",
        page_id=p["id"],
        editors=[],
        requested_by=outsider,
    )
    ok(ep, "update_page", page_id=p["id"], version_number=p["version"], editor_email=p["editors"][0], body="<p>ok</p>")


def test_a_restriction_cannot_lock_out_its_author(ep: Episode) -> None:
    p = page(ep, lambda p: not p["editors"])
    other = next(e for e in EMPLOYEES if e != p["author_email"])
    refused(
        ep,
        "set_page_restrictions",
        "rule_violation",
        "editors",
        page_id=p["id"],
        editors=[other],
        requested_by=p["author_email"],
    )
    out = ok(ep, "set_page_restrictions", page_id=p["id"], editors=[p["author_email"]], requested_by=p["author_email"])
    assert out["editors"] == [p["author_email"]]


# -- page trees -----------------------------------------------------------------------------


def test_a_page_with_children_is_deleted_only_with_cascade(ep: Episode) -> None:
    s = space(ep)
    tree = ok(ep, "get_page_tree", page_id=s["homepage_id"])
    parent = next(p for p in tree["descendants"] if every(ep, "list_pages", parent_id=p["id"]) and not p["editors"])
    below = ok(ep, "get_page_tree", page_id=parent["id"])["descendants"]
    refused(ep, "delete_page", "rule_violation", "cascade", page_id=parent["id"], requested_by=parent["author_email"])
    out = ok(ep, "delete_page", page_id=parent["id"], requested_by=parent["author_email"], cascade=True)
    assert set(out["page_ids"]) == {parent["id"]} | {p["id"] for p in below}
    removed = ep.diff().counts()["wiki.pages"]["removed"]
    assert removed == 1 + len(below)


def test_a_space_home_page_cannot_be_deleted(ep: Episode) -> None:
    s = space(ep)
    refused(
        ep,
        "delete_page",
        "rule_violation",
        "page_id",
        page_id=s["homepage_id"],
        requested_by=s["created_by"],
        cascade=True,
    )


def test_a_page_cannot_move_under_its_own_descendant(ep: Episode) -> None:
    s = space(ep)
    child = next(p for p in every(ep, "list_pages", parent_id=s["homepage_id"]) if not p["editors"])
    grand = every(ep, "list_pages", parent_id=child["id"])[0]
    refused(
        ep,
        "move_page",
        "rule_violation",
        "parent_id",
        page_id=child["id"],
        parent_id=grand["id"],
        requested_by=child["author_email"],
    )
    moved = ok(ep, "move_page", page_id=grand["id"], parent_id=None, requested_by=grand["author_email"])
    assert moved["parent_id"] is None
    assert ok(ep, "get_page_tree", page_id=grand["id"])["ancestors"] == []


# -- archived spaces ------------------------------------------------------------------------


def test_an_archived_space_is_read_only(ep: Episode) -> None:
    archived = space(ep, "archived")
    p = page(ep, lambda p: not p["editors"], status="archived")
    refused(
        ep,
        "create_page",
        "rule_violation",
        "space_id",
        space_id=archived["id"],
        title="New",
        author_email=archived["created_by"],
    )
    refused(
        ep,
        "update_page",
        "rule_violation",
        "page_id",
        page_id=p["id"],
        version_number=p["version"],
        editor_email=p["author_email"],
        body="<p>x</p>",
    )
    refused(
        ep, "create_comment", "rule_violation", "page_id", page_id=p["id"], author_email=p["author_email"], body="Hi"
    )
    refused(ep, "add_page_labels", "rule_violation", "page_id", page_id=p["id"], labels=["late"])
    refused(ep, "update_space", "rule_violation", "space_id", space_id=archived["id"], name="Renamed")
    ok(ep, "restore_space", space_id=archived["id"])
    ok(ep, "add_page_labels", page_id=p["id"], labels=["late"])


def test_labels_are_added_once_found_and_removed(ep: Episode) -> None:
    p = page(ep, lambda p: not p["labels"])
    out = ok(ep, "add_page_labels", page_id=p["id"], labels=["runbook", "runbook", "ops"])
    assert out["labels"] == ["runbook", "ops"]
    assert [x["id"] for x in ok(ep, "find_pages_by_label", label="runbook")] == [p["id"]]
    ok(ep, "remove_page_label", page_id=p["id"], label="ops")
    refused(ep, "remove_page_label", "not_found", "label", page_id=p["id"], label="ops")
