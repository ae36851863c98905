"""Canvasly: roles decide who edits, comments or views; frames; templates; ownership; archive; exports."""

from __future__ import annotations

from typing import Any

from compoworld import Episode
from tests.services.helpers import ServiceTools

WB = ServiceTools("whiteboard")
WORLD = WB.world
ok, refused, every = WB.ok, WB.refused, WB.every
STAFF = [p.email for p in WORLD.population.employees]


def board(ep: Episode, name: str) -> dict[str, Any]:
    return next(b for b in every(ep, "list_boards") if b["name"] == name)


def role(ep: Episode, board_id: str, r: str) -> str:
    return str(every(ep, "list_members", board_id=board_id, role=r)[0]["email"])


def outsider(ep: Episode, board_id: str) -> str:
    taken = {m["email"] for m in every(ep, "list_members", board_id=board_id)}
    return next(e for e in STAFF if e not in taken)


def test_each_seeded_board_has_one_owner_and_notes_sit_in_frames(ep: Episode) -> None:
    for b in every(ep, "list_boards"):
        owners = every(ep, "list_members", board_id=b["id"], role="owner")
        assert [m["email"] for m in owners] == [b["owner_email"]]
        frames = {i["id"] for i in every(ep, "list_items", board_id=b["id"], type="frame")}
        for note in every(ep, "list_items", board_id=b["id"], type="sticky_note"):
            assert note["parent_id"] in frames
    assert {m["email"] for m in every(ep, "list_members")} <= set(STAFF)


def test_roles_decide_who_edits_comments_and_views(ep: Episode) -> None:
    b = board(ep, "Q3 planning workshop")
    viewer, commenter, editor = (role(ep, b["id"], r) for r in ("viewer", "commenter", "editor"))
    refused(ep, "add_item", "rule_violation", "by_email", board_id=b["id"], by_email=commenter, type="text")
    refused(ep, "add_comment", "rule_violation", "author_email", board_id=b["id"], author_email=viewer, body="Hi")
    ok(ep, "add_comment", board_id=b["id"], author_email=commenter, body="Hi")
    ok(ep, "add_item", board_id=b["id"], by_email=editor, type="shape", color="blue")
    ok(ep, "export_board", board_id=b["id"], requested_by=viewer, format="png")
    refused(
        ep,
        "export_board",
        "rule_violation",
        "requested_by",
        board_id=b["id"],
        requested_by=outsider(ep, b["id"]),
        format="png",
    )


def test_team_policies_open_boards_to_every_employee(ep: Episode) -> None:
    team = board(ep, "Customer journey map")
    ok(ep, "add_item", board_id=team["id"], by_email=outsider(ep, team["id"]), type="sticky_note", content="Pain")
    tpl = board(ep, "Retrospective template")
    who = outsider(ep, tpl["id"])
    ok(ep, "export_board", board_id=tpl["id"], requested_by=who, format="pdf")
    refused(ep, "add_item", "rule_violation", "by_email", board_id=tpl["id"], by_email=who, type="text")


def test_items_nest_only_in_frames_of_the_same_board_and_frames_do_not_nest(ep: Episode) -> None:
    b = board(ep, "Q3 planning workshop")
    owner = b["owner_email"]
    frame = every(ep, "list_items", board_id=b["id"], type="frame")[0]
    note = every(ep, "list_items", board_id=b["id"], type="sticky_note")[0]
    refused(
        ep,
        "add_item",
        "rule_violation",
        "parent_id",
        board_id=b["id"],
        by_email=owner,
        type="frame",
        parent_id=frame["id"],
    )
    refused(
        ep,
        "add_item",
        "rule_violation",
        "parent_id",
        board_id=b["id"],
        by_email=owner,
        type="text",
        parent_id=note["id"],
    )
    other = every(ep, "list_items", board_id=board(ep, "Customer journey map")["id"], type="frame")[0]
    refused(ep, "update_item", "rule_violation", "parent_id", item_id=note["id"], parent_id=other["id"])
    inside = ok(ep, "add_item", board_id=b["id"], by_email=owner, type="text", parent_id=frame["id"])
    ok(ep, "delete_item", item_id=frame["id"])
    assert ok(ep, "get_item", item_id=inside["id"])["parent_id"] is None


def test_boards_copy_templates_with_their_frames(ep: Episode) -> None:
    tpl = board(ep, "Retrospective template")
    me = STAFF[-1]
    refused(
        ep,
        "create_board",
        "rule_violation",
        "template_id",
        name="X",
        owner_email=me,
        template_id=board(ep, "Q3 planning workshop")["id"],
    )
    made = ok(ep, "create_board", name="Sprint 12 retro", owner_email=me, template_id=tpl["id"])
    titles = sorted(i["content"] for i in every(ep, "list_items", board_id=made["id"], type="frame"))
    assert titles == sorted(i["content"] for i in every(ep, "list_items", board_id=tpl["id"], type="frame"))
    assert role(ep, made["id"], "owner") == me


def test_sharing_and_roles_respect_the_owner(ep: Episode) -> None:
    b = board(ep, "Q3 planning workshop")
    editor, viewer = role(ep, b["id"], "editor"), role(ep, b["id"], "viewer")
    new = outsider(ep, b["id"])
    refused(
        ep, "share_board", "rule_violation", "by_email", board_id=b["id"], by_email=viewer, email=new, role="viewer"
    )
    assert ok(ep, "share_board", board_id=b["id"], by_email=editor, email=new, role="commenter")["role"] == "commenter"
    refused(
        ep, "share_board", "rule_violation", "by_email", board_id=b["id"], by_email=editor, email=new, role="editor"
    )
    assert (
        ok(ep, "share_board", board_id=b["id"], by_email=b["owner_email"], email=new, role="editor")["role"] == "editor"
    )
    refused(
        ep, "share_board", "conflict", "role", board_id=b["id"], by_email=b["owner_email"], email=new, role="editor"
    )
    refused(
        ep,
        "share_board",
        "rule_violation",
        "email",
        board_id=b["id"],
        by_email=editor,
        email=b["owner_email"],
        role="viewer",
    )
    owner_m = every(ep, "list_members", board_id=b["id"], role="owner")[0]
    refused(ep, "remove_member", "rule_violation", "member_id", member_id=owner_m["id"])


def test_transferring_ownership_keeps_exactly_one_owner(ep: Episode) -> None:
    b = board(ep, "Q3 planning workshop")
    editor = role(ep, b["id"], "editor")
    refused(
        ep,
        "transfer_ownership",
        "rule_violation",
        "new_owner_email",
        board_id=b["id"],
        new_owner_email=outsider(ep, b["id"]),
    )
    assert ok(ep, "transfer_ownership", board_id=b["id"], new_owner_email=editor)["owner_email"] == editor
    owners = every(ep, "list_members", board_id=b["id"], role="owner")
    assert [m["email"] for m in owners] == [editor]
    assert b["owner_email"] in {m["email"] for m in every(ep, "list_members", board_id=b["id"], role="editor")}


def test_archived_boards_are_read_only(ep: Episode) -> None:
    b = board(ep, "Old brainstorm")
    refused(ep, "add_item", "rule_violation", "board_id", board_id=b["id"], by_email=b["owner_email"], type="text")
    refused(ep, "add_comment", "rule_violation", "board_id", board_id=b["id"], author_email=b["owner_email"], body="x")
    note = every(ep, "list_items", board_id=b["id"], type="sticky_note")[0]
    refused(ep, "update_item", "rule_violation", "item_id", item_id=note["id"], content="changed")
    ok(ep, "export_board", board_id=b["id"], requested_by=b["owner_email"], format="csv")
    ok(ep, "update_board", board_id=b["id"], archived=False)
    ok(ep, "add_item", board_id=b["id"], by_email=b["owner_email"], type="text")


def test_exports_count_items_and_csv_needs_sticky_notes(ep: Episode) -> None:
    tpl = board(ep, "Retrospective template")
    refused(
        ep,
        "export_board",
        "rule_violation",
        "format",
        board_id=tpl["id"],
        requested_by=tpl["owner_email"],
        format="csv",
    )
    b = board(ep, "Q3 planning workshop")
    exp = ok(ep, "export_board", board_id=b["id"], requested_by=b["owner_email"], format="csv")
    assert (exp["status"], exp["item_count"]) == (
        "queued",
        len(every(ep, "list_items", board_id=b["id"], type="sticky_note")),
    )
    assert ok(ep, "finish_export", export_id=exp["id"])["status"] == "done"
    refused(ep, "finish_export", "rule_violation", "export_id", export_id=exp["id"])
