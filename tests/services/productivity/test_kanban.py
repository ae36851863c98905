"""Pinboard (Trello-style): board members on cards, labels per board, list archiving, checklists and due dates."""

from __future__ import annotations

from typing import Any

from compoworld import Episode
from tests.services.helpers import ServiceTools

KANBAN = ServiceTools("kanban")
WORLD = KANBAN.world
ok, refused, every, items, first = KANBAN.ok, KANBAN.refused, KANBAN.every, KANBAN.items, KANBAN.first
POP = WORLD.population


def board(ep: Episode, name: str) -> dict[str, Any]:
    return first(ep, "boards", query=name)


def open_list(ep: Episode, board_id: str, name: str) -> dict[str, Any]:
    return first(ep, "lists", board_id=board_id, name=name, closed=False)


def board_emails(ep: Episode, board_id: str) -> set[str]:
    return {m["member_email"] for m in items(ep, "board_memberships", board_id=board_id)}


def outsider(ep: Episode, board_id: str) -> str:
    inside = board_emails(ep, board_id)
    return next(p.email for p in POP.employees if p.email not in inside)


# -- the seeded world -----------------------------------------------------------------------


def test_members_are_the_home_staff_and_board_people_are_members() -> None:
    ep = Episode(WORLD)
    staff = {p.email: p.name for p in POP.employees}
    members = every(ep, "list_members")
    assert {m["email"]: m["full_name"] for m in members} == staff
    for card in every(ep, "list_cards"):
        assert set(card["member_emails"]) <= board_emails(ep, card["board_id"])
        labels = {lb["id"] for lb in items(ep, "labels", board_id=card["board_id"])}
        assert set(card["label_ids"]) <= labels


def test_seeded_check_item_badges_match_the_items_and_onboarding_cards_name_customers() -> None:
    ep = Episode(WORLD)
    for card in every(ep, "list_cards"):
        its = every(ep, "list_check_items", card_id=card["id"])
        assert card["check_items"] == len(its)
        assert card["check_items_checked"] == sum(1 for i in its if i["state"] == "complete")
        if card["due_complete"]:
            assert card["due"] is not None and card["check_items_checked"] == card["check_items"]
    onboarding = board(ep, "Customer Onboarding")
    companies = {c.name for c in POP.customers}
    cards = every(ep, "list_cards", board_id=onboarding["id"])
    assert cards and all(c["customer_company"] in companies for c in cards)


# -- boards ---------------------------------------------------------------------------------


def test_a_new_board_gets_default_lists_and_its_creator_as_admin(ep: Episode) -> None:
    owner = POP.employees[5].email
    new = ok(ep, "create_board", name="Launch plan", desc="", visibility="private", owner_email=owner)
    assert [lst["name"] for lst in items(ep, "lists", board_id=new["id"])] == ["To Do", "Doing", "Done"]
    assert [(m["member_email"], m["role"]) for m in items(ep, "board_memberships", board_id=new["id"])] == [
        (owner, "admin")
    ]
    refused(
        ep,
        "create_board",
        "not_found",
        "owner_email",
        name="X",
        desc="",
        visibility="public",
        owner_email="stranger@elsewhere.example",
    )


def test_a_closed_board_is_read_only_until_reopened(ep: Episode) -> None:
    closed = first(ep, "boards", closed=True)
    lst = first(ep, "lists", board_id=closed["id"])
    card = first(ep, "cards", board_id=closed["id"])
    refused(ep, "create_card", "rule_violation", "list_id", list_id=lst["id"], name="New role")
    refused(ep, "update_card", "rule_violation", "card_id", card_id=card["id"], name="Renamed")
    refused(ep, "update_board", "rule_violation", "board_id", board_id=closed["id"], name="Renamed")
    ok(ep, "reopen_board", board_id=closed["id"])
    assert ok(ep, "create_card", list_id=lst["id"], name="New role")["board_id"] == closed["id"]


def test_adding_a_board_member_only_for_workspace_members_and_once(ep: Episode) -> None:
    b = board(ep, "Office Move")
    email = outsider(ep, b["id"])
    ok(ep, "add_board_member", board_id=b["id"], email=email)
    refused(ep, "add_board_member", "conflict", "email", board_id=b["id"], email=email)
    refused(ep, "add_board_member", "not_found", "email", board_id=b["id"], email="nobody@nowhere.example")


# -- cards ----------------------------------------------------------------------------------


def test_only_board_members_go_on_cards_and_only_the_boards_labels(ep: Episode) -> None:
    b = board(ep, "Office Move")
    lst = open_list(ep, b["id"], "To Do")
    other = board(ep, "Content Calendar")
    foreign_label = first(ep, "labels", board_id=other["id"])
    stranger = outsider(ep, b["id"])
    refused(
        ep, "create_card", "rule_violation", "member_emails", list_id=lst["id"], name="Pack", member_emails=[stranger]
    )
    refused(
        ep,
        "create_card",
        "rule_violation",
        "label_ids",
        list_id=lst["id"],
        name="Pack",
        label_ids=[foreign_label["id"]],
    )
    card = ok(ep, "create_card", list_id=lst["id"], name="Pack", member_emails=[b["owner_email"]])
    refused(ep, "update_card", "rule_violation", "member_emails", card_id=card["id"], member_emails=[stranger])
    ok(ep, "add_board_member", board_id=b["id"], email=stranger)
    assert ok(ep, "update_card", card_id=card["id"], member_emails=[stranger])["member_emails"] == [stranger]


def test_new_cards_go_to_the_top_or_bottom_of_the_list(ep: Episode) -> None:
    b = board(ep, "Office Move")
    lst = open_list(ep, b["id"], "To Do")
    top = ok(ep, "create_card", list_id=lst["id"], name="First thing", position="top")
    bottom = ok(ep, "create_card", list_id=lst["id"], name="Last thing")
    positions = sorted((c["pos"], c["id"]) for c in items(ep, "cards", list_id=lst["id"]))
    assert positions[0][1] == top["id"] and positions[-1][1] == bottom["id"]


def test_moving_a_card_to_another_board_drops_its_labels_and_non_members(ep: Episode) -> None:
    src = board(ep, "Content Calendar")
    dst = board(ep, "Office Move")
    card = next(c for c in items(ep, "cards", board_id=src["id"], closed=False) if c["label_ids"])
    target = open_list(ep, dst["id"], "Doing")
    moved = ok(ep, "move_card", card_id=card["id"], list_id=target["id"], position="top")
    assert (moved["board_id"], moved["list_id"], moved["label_ids"]) == (dst["id"], target["id"], [])
    assert set(moved["member_emails"]) <= board_emails(ep, dst["id"])


def test_a_card_cannot_move_to_an_archived_list_and_an_archived_card_does_not_move(ep: Episode) -> None:
    b = board(ep, "Content Calendar")
    parked = first(ep, "lists", board_id=b["id"], closed=True)
    card = first(ep, "cards", board_id=b["id"], closed=False)
    refused(ep, "move_card", "rule_violation", "list_id", card_id=card["id"], list_id=parked["id"])
    archived = first(ep, "cards", board_id=b["id"], closed=True)
    refused(ep, "move_card", "rule_violation", "card_id", card_id=archived["id"], list_id=card["list_id"])
    refused(ep, "update_card", "rule_violation", "card_id", card_id=archived["id"], name="Edited")


def test_archiving_a_list_with_open_cards_needs_archive_cards(ep: Episode) -> None:
    b = board(ep, "Office Move")
    lst = open_list(ep, b["id"], "To Do")
    open_cards = {c["id"] for c in items(ep, "cards", list_id=lst["id"], closed=False)}
    assert open_cards
    refused(ep, "archive_list", "rule_violation", "archive_cards", list_id=lst["id"])
    res = ok(ep, "archive_list", list_id=lst["id"], archive_cards=True)
    assert res["archived_list"]["closed"] and set(res["archived_card_ids"]) == open_cards
    assert all(c["closed"] for c in items(ep, "cards", list_id=lst["id"]))
    card = next(iter(open_cards))
    refused(ep, "restore_card", "rule_violation", "card_id", card_id=card)


# -- checklists and due dates ---------------------------------------------------------------


def test_ticking_items_updates_the_badges_and_due_complete_needs_every_item(ep: Episode) -> None:
    b = board(ep, "Office Move")
    lst = open_list(ep, b["id"], "Doing")
    card = ok(ep, "create_card", list_id=lst["id"], name="Order boxes", due="2026-03-10T12:00:00Z")
    chk = ok(ep, "create_checklist", card_id=card["id"], name="Steps")
    a = ok(ep, "add_check_item", checklist_id=chk["id"], name="Get quotes")
    ok(ep, "add_check_item", checklist_id=chk["id"], name="Pay", member_email=b["owner_email"])
    refused(ep, "update_card", "rule_violation", "due_complete", card_id=card["id"], due_complete=True)
    after = ok(ep, "set_check_item_state", check_item_id=a["id"], state="complete")
    assert (after["check_items"], after["check_items_checked"]) == (2, 1)
    for item in items(ep, "check_items", checklist_id=chk["id"], state="incomplete"):
        ok(ep, "set_check_item_state", check_item_id=item["id"], state="complete")
    assert ok(ep, "update_card", card_id=card["id"], due_complete=True)["due_complete"]
    reopened = ok(ep, "set_check_item_state", check_item_id=a["id"], state="incomplete")
    assert (reopened["check_items_checked"], reopened["due_complete"]) == (1, False)


def test_a_card_without_a_due_date_cannot_be_marked_complete(ep: Episode) -> None:
    b = board(ep, "Office Move")
    card = ok(ep, "create_card", list_id=open_list(ep, b["id"], "Doing")["id"], name="No deadline")
    refused(ep, "update_card", "rule_violation", "due_complete", card_id=card["id"], due_complete=True)
    refused(
        ep,
        "update_card",
        "rule_violation",
        "start",
        card_id=card["id"],
        start="2026-04-02T00:00:00Z",
        due="2026-04-01T00:00:00Z",
    )


def test_label_names_are_unique_per_board(ep: Episode) -> None:
    b = board(ep, "Office Move")
    refused(ep, "create_label", "conflict", "name", board_id=b["id"], name="Urgent", color="purple")
    new = ok(ep, "create_label", board_id=b["id"], name="Facilities", color="purple")
    lst = open_list(ep, b["id"], "To Do")
    card = ok(ep, "create_card", list_id=lst["id"], name="Keys", label_ids=[new["id"]], customer_company="Acme")
    assert card["label_ids"] == [new["id"]]
    assert [c["id"] for c in items(ep, "cards", customer_company="Acme")] == [card["id"]]


def test_new_lists_go_left_or_right_of_the_others(ep: Episode) -> None:
    b = board(ep, "Office Move")
    right = ok(ep, "create_list", board_id=b["id"], name="Waiting")
    left = ok(ep, "create_list", board_id=b["id"], name="Inbox", position="top")
    ordered = sorted(items(ep, "lists", board_id=b["id"]), key=lambda lst: lst["pos"])
    assert (ordered[0]["id"], ordered[-1]["id"]) == (left["id"], right["id"])
    closed = first(ep, "boards", closed=True)
    refused(ep, "create_list", "rule_violation", "board_id", board_id=closed["id"], name="Late")
