"""Lumen Photos: uploads, the 60-day trash, albums and covers, shared albums with contributors, search."""

from __future__ import annotations

import datetime as dt
from typing import Any

from compoworld import Episode
from tests.services.helpers import ServiceTools

PH = ServiceTools("photos")
WORLD = PH.world
ok, refused, every = PH.ok, PH.refused, PH.every
POP = WORLD.population
OWNER = POP.employees[0].email
NOW = WORLD.epoch


def shared(ep: Episode) -> dict[str, Any]:
    return every(ep, "list_albums", is_shared=True)[0]


def active(ep: Episode, owner: str = OWNER) -> list[dict[str, Any]]:
    return every(ep, "list_media_items", owner_email=owner, status="active")


def test_seeded_libraries_belong_to_staff_and_albums_hold_their_owners_items(ep: Episode) -> None:
    staff = {p.email for p in POP.employees}
    items = {m["id"]: m for m in every(ep, "list_media_items")}
    assert {m["owner_email"] for m in items.values()} <= staff
    assert {m["status"] for m in items.values()} == {"active", "archived", "trashed"}
    for a in every(ep, "list_albums"):
        assert a["cover_photo_id"] in {e["media_item_id"] for e in a["entries"]}
        for e in a["entries"]:
            assert items[e["media_item_id"]]["owner_email"] == e["added_by"]
            assert items[e["media_item_id"]]["status"] != "trashed"


def test_an_upload_must_fit_its_type_and_not_be_taken_in_the_future(ep: Episode) -> None:
    base = {"owner_email": OWNER, "width": 100, "height": 100}
    past = (NOW - dt.timedelta(days=1)).isoformat()
    refused(
        ep,
        "upload_media_item",
        "rule_violation",
        "filename",
        filename="a.png",
        mime_type="image/jpeg",
        creation_time=past,
        **base,
    )
    refused(
        ep,
        "upload_media_item",
        "rule_violation",
        "creation_time",
        filename="a.jpg",
        mime_type="image/jpeg",
        creation_time=(NOW + dt.timedelta(days=1)).isoformat(),
        **base,
    )
    made = ok(ep, "upload_media_item", filename="clip.MOV", mime_type="video/quicktime", creation_time=past, **base)
    assert (made["media_type"], made["status"]) == ("video", "active")


def test_trash_removes_from_albums_and_restores_only_within_60_days(ep: Episode) -> None:
    album = every(ep, "list_albums", owner_email=OWNER, is_shared=False)[0]
    cover = album["cover_photo_id"]
    trashed = ok(ep, "trash_media_item", media_item_id=cover)
    assert trashed["status"] == "trashed" and trashed["trashed_at"] is not None
    after = ok(ep, "get_album", album_id=album["id"])
    assert after["cover_photo_id"] is None and cover not in {e["media_item_id"] for e in after["entries"]}
    refused(ep, "favorite_media_item", "rule_violation", "media_item_id", media_item_id=cover)
    assert ok(ep, "restore_media_item", media_item_id=cover)["status"] == "active"
    old = next(
        m
        for m in every(ep, "list_media_items", status="trashed")
        if NOW - dt.datetime.fromisoformat(m["trashed_at"].replace("Z", "+00:00")) > dt.timedelta(days=60)
    )
    refused(ep, "restore_media_item", "rule_violation", "media_item_id", media_item_id=old["id"])


def test_emptying_the_trash_deletes_for_good(ep: Episode) -> None:
    gone = ok(ep, "empty_trash", owner_email=OWNER)
    assert gone
    refused(ep, "get_media_item", "not_found", "media_item_id", media_item_id=gone[0])
    refused(ep, "empty_trash", "rule_violation", "owner_email", owner_email=OWNER)


def test_only_the_owner_adds_own_items_to_an_unshared_album(ep: Episode) -> None:
    album = every(ep, "list_albums", owner_email=OWNER, is_shared=False)[0]
    inside = {e["media_item_id"] for e in album["entries"]}
    mine = [m["id"] for m in active(ep) if m["id"] not in inside]
    other = POP.employees[5].email
    refused(
        ep,
        "add_media_items",
        "rule_violation",
        "added_by",
        album_id=album["id"],
        media_item_ids=mine[:1],
        added_by=other,
    )
    refused(
        ep,
        "add_media_items",
        "rule_violation",
        "media_item_ids",
        album_id=album["id"],
        media_item_ids=[active(ep, other)[0]["id"]],
        added_by=OWNER,
    )
    refused(
        ep,
        "add_media_items",
        "conflict",
        "media_item_ids",
        album_id=album["id"],
        media_item_ids=[next(iter(inside))],
        added_by=OWNER,
    )
    res = ok(ep, "add_media_items", album_id=album["id"], media_item_ids=mine, added_by=OWNER)
    assert res["media_items_count"] == len(inside) + len(mine)


def test_a_cover_must_be_a_photo_in_the_album(ep: Episode) -> None:
    album = every(ep, "list_albums", owner_email=OWNER, is_shared=False)[0]
    inside = {e["media_item_id"] for e in album["entries"]}
    outside = next(m for m in active(ep) if m["id"] not in inside)
    refused(ep, "update_album", "rule_violation", "cover_photo_id", album_id=album["id"], cover_photo_id=outside["id"])
    second = album["entries"][1]["media_item_id"]
    assert ok(ep, "update_album", album_id=album["id"], cover_photo_id=second)["cover_photo_id"] == second


def test_contributors_join_by_token_add_their_own_and_leave_with_them(ep: Episode) -> None:
    album = shared(ep)
    newcomer = POP.employees[6].email
    refused(
        ep, "join_shared_album", "rule_violation", "share_token", share_token="AF1Qipnotarealtoken00", email=newcomer
    )
    ok(ep, "join_shared_album", share_token=album["share_token"], email=newcomer)
    refused(ep, "join_shared_album", "conflict", "email", share_token=album["share_token"], email=newcomer)
    mine = active(ep, newcomer)[0]["id"]
    res = ok(ep, "add_media_items", album_id=album["id"], media_item_ids=[mine], added_by=newcomer)
    assert res["changed"] == [mine]
    refused(
        ep,
        "remove_media_items",
        "rule_violation",
        "removed_by",
        album_id=album["id"],
        removed_by=newcomer,
        media_item_ids=[album["entries"][0]["media_item_id"]],
    )
    left = ok(ep, "leave_shared_album", album_id=album["id"], email=newcomer)
    assert left["changed"] == [mine]


def test_unsharing_removes_contributors_and_their_items(ep: Episode) -> None:
    album = shared(ep)
    refused(ep, "delete_album", "rule_violation", "album_id", album_id=album["id"])
    after = ok(ep, "unshare_album", album_id=album["id"])
    assert {e["added_by"] for e in after["entries"]} == {album["owner_email"]}
    assert (after["is_shared"], after["share_token"]) == (False, None)
    assert every(ep, "list_contributors", album_id=album["id"]) == []
    refused(
        ep,
        "join_shared_album",
        "rule_violation",
        "share_token",
        share_token=album["share_token"],
        email=POP.employees[7].email,
    )
    ok(ep, "delete_album", album_id=album["id"])


def test_sharing_gives_a_token_once(ep: Episode) -> None:
    album = every(ep, "list_albums", owner_email=OWNER, is_shared=False)[0]
    made = ok(ep, "share_album", album_id=album["id"], is_collaborative=False)
    assert made["share_token"] and made["is_shared"]
    refused(ep, "share_album", "conflict", "album_id", album_id=album["id"])
    joiner = POP.employees[8].email
    ok(ep, "join_shared_album", share_token=made["share_token"], email=joiner)
    refused(
        ep,
        "add_media_items",
        "rule_violation",
        "added_by",
        album_id=album["id"],
        media_item_ids=[active(ep, joiner)[0]["id"]],
        added_by=joiner,
    )


def test_search_filters_the_library_by_time_type_and_favorites(ep: Episode) -> None:
    mine = every(ep, "list_media_items", owner_email=OWNER)
    found = ok(ep, "search_media_items", owner_email=OWNER)
    assert {m["id"] for m in found} == {m["id"] for m in mine if m["status"] == "active"}
    assert [m["creation_time"] for m in found] == sorted((m["creation_time"] for m in found), reverse=True)
    favs = ok(ep, "search_media_items", owner_email=OWNER, only_favorites=True, include_archived=True)
    assert {m["id"] for m in favs} == {m["id"] for m in mine if m["favorite"] and m["status"] != "trashed"}
    album = every(ep, "list_albums", owner_email=OWNER)[0]
    refused(
        ep,
        "search_media_items",
        "rule_violation",
        "album_id",
        owner_email=OWNER,
        album_id=album["id"],
        media_type="photo",
    )
