"""Podindex: shows on a schedule, search filters that hold, rankings that agree, ordered team playlists."""

from __future__ import annotations

import datetime as dt
import itertools
from typing import Any

from compoworld import Episode
from tests.services.helpers import ServiceTools

POD = ServiceTools("podcastsearch")
WORLD = POD.world
ok, refused, every = POD.ok, POD.refused, POD.every
POP = WORLD.population
NOW = WORLD.epoch


def podcasts(ep: Episode) -> list[dict[str, Any]]:
    found: list[dict[str, Any]] = ok(ep, "best_podcasts")
    return found


def test_company_shows_are_hosted_by_their_people(ep: Episode) -> None:
    home = ok(ep, "search", q=POP.home.name, type="podcast")["podcasts"]
    [show] = [p for p in home if p["publisher"] == POP.home.name]
    staff = {p.email: p.name for p in POP.employees}
    assert staff[show["email"]] == show["host"]
    for p in podcasts(ep):
        assert p["total_episodes"] > 0 and p["earliest_pub_date"] <= p["latest_pub_date"] <= NOW.isoformat()[:19] + "Z"


def test_episodes_come_out_on_a_fixed_weekday_in_order(ep: Episode) -> None:
    show = podcasts(ep)[0]
    eps = ok(ep, "list_episodes", podcast_id=show["id"], limit=10)
    days = [dt.datetime.fromisoformat(e["pub_date"]) for e in eps]
    assert days == sorted(days, reverse=True) and len({d.weekday() for d in days}) == 1
    gaps = {(a - b).days for a, b in itertools.pairwise(days)}
    assert gaps <= {7, 14} and len(gaps) == 1
    older = ok(ep, "list_episodes", podcast_id=show["id"], published_before=eps[-1]["pub_date"], limit=5)
    assert older and all(e["pub_date"] < eps[-1]["pub_date"] for e in older)
    first = ok(ep, "list_episodes", podcast_id=show["id"], sort="oldest_first", limit=1)[0]
    assert first["pub_date"] == show["earliest_pub_date"] and first["title"].startswith("1. ")
    assert ok(ep, "get_episode", episode_id=first["id"]) == first


def test_search_filters_hold_for_every_result_and_pages_cover_the_total(ep: Episode) -> None:
    args = {"q": "pricing", "len_min": 20, "len_max": 60, "published_after": "2025-06-01", "sort_by_date": True}
    seen: list[dict[str, Any]] = []
    offset: int | None = 0
    while offset is not None:
        page = ok(ep, "search", offset=offset, **args)
        seen += page["episodes"]
        offset = page["next_offset"]
    assert seen and len(seen) == page["total"]
    for e in seen:
        assert "pricing" in e["title"].lower() or "pricing" in e["description"].lower()
        assert 1200 <= e["audio_length_sec"] <= 3600 and e["pub_date"] >= "2025-06-01"
    dates = [e["pub_date"] for e in seen]
    assert dates == sorted(dates, reverse=True)
    refused(ep, "search", "rule_violation", "len_max", q="pricing", len_min=30, len_max=10)
    refused(ep, "search", "not_found", "genre_ids.0", q="pricing", genre_ids=[5])


def test_safe_mode_and_genres_filter_podcasts(ep: Episode) -> None:
    crime = ok(ep, "best_podcasts", genre_id=135)
    assert crime and all(135 in p["genre_ids"] for p in crime)
    safe = ok(ep, "best_podcasts", genre_id=135, safe_mode=True)
    assert all(not p["explicit_content"] for p in safe)
    business = ok(ep, "best_podcasts", genre_id=93)
    assert any(171 in p["genre_ids"] for p in business)  # a parent genre includes its children
    tops = {g["id"] for g in ok(ep, "list_genres", top_level_only=True)}
    assert 93 in tops and 171 not in tops
    refused(ep, "best_podcasts", "not_found", "genre_id", genre_id=5)


def test_rankings_agree_with_listen_scores(ep: Episode) -> None:
    best = podcasts(ep)
    scores = [p["listen_score"] for p in best]
    assert scores == sorted(scores, reverse=True)
    order = ["0.01%", "0.1%", "0.5%", "1%", "2.5%", "5%", "10%"]
    ranks = [order.index(p["listen_score_global_rank"]) for p in best]
    assert ranks == sorted(ranks)
    for c in ok(ep, "list_curated_lists"):
        got = [p["listen_score"] for p in c["podcasts"]]
        assert got == sorted(got, reverse=True)
    rec = ok(ep, "get_recommendations", podcast_id=best[0]["id"])
    assert best[0]["id"] not in {p["id"] for p in rec}
    assert all(set(p["genre_ids"]) & set(best[0]["genre_ids"]) for p in rec)


def test_seeded_playlists_belong_to_staff_with_dense_positions(ep: Episode) -> None:
    staff = {p.email for p in POP.employees}
    lists = every(ep, "list_playlists")
    assert {p["status"] for p in lists} == {"active", "archived"} and all(p["owner_email"] in staff for p in lists)
    for pl in lists:
        found = every(ep, "list_items", playlist_id=pl["id"])
        assert sorted(i["position"] for i in found) == list(range(1, len(found) + 1))
        for i in found:
            tool, key = ("get_episode", "episode_id") if i["kind"] == "episode" else ("get_podcast", "podcast_id")
            assert ok(ep, tool, **{key: i["ref_id"]})["title"] == i["title"]


def positions(ep: Episode, playlist_id: str) -> list[str]:
    return [i["id"] for i in sorted(every(ep, "list_items", playlist_id=playlist_id), key=lambda i: i["position"])]


def test_adding_moving_and_removing_items_keeps_the_order_dense(ep: Episode) -> None:
    pl = POD.first(ep, "playlists", status="active", visibility="team")
    before = positions(ep, pl["id"])
    show = podcasts(ep)[-1]
    added = ok(
        ep,
        "add_to_playlist",
        playlist_id=pl["id"],
        kind="podcast",
        ref_id=show["id"],
        added_by=pl["owner_email"],
        position=2,
    )
    assert added["position"] == 2 and positions(ep, pl["id"]) == [before[0], added["id"], *before[1:]]
    ok(ep, "move_item", item_id=added["id"], position=len(before) + 1)
    assert positions(ep, pl["id"]) == [*before, added["id"]]
    ok(ep, "delete_item", item_id=before[0])
    after = every(ep, "list_items", playlist_id=pl["id"])
    assert sorted(i["position"] for i in after) == list(range(1, len(before) + 1))
    refused(ep, "move_item", "rule_violation", "position", item_id=added["id"], position=len(before) + 1)


def test_an_item_is_added_once_by_staff_and_must_exist(ep: Episode) -> None:
    pl = POD.first(ep, "playlists", status="active")
    item = POD.first(ep, "items", playlist_id=pl["id"])
    me = pl["owner_email"]
    refused(
        ep,
        "add_to_playlist",
        "conflict",
        "ref_id",
        playlist_id=pl["id"],
        kind=item["kind"],
        ref_id=item["ref_id"],
        added_by=me,
    )
    refused(
        ep, "add_to_playlist", "not_found", "ref_id", playlist_id=pl["id"], kind="episode", ref_id="0" * 32, added_by=me
    )
    show = podcasts(ep)[-1]
    refused(
        ep,
        "add_to_playlist",
        "not_found",
        "ref_id",
        playlist_id=pl["id"],
        kind="episode",
        ref_id=show["id"],
        added_by=me,
    )
    refused(
        ep,
        "add_to_playlist",
        "rule_violation",
        "added_by",
        playlist_id=pl["id"],
        kind="podcast",
        ref_id=show["id"],
        added_by=POP.contacts[0].email,
    )


def test_an_archived_playlist_is_frozen(ep: Episode) -> None:
    old = POD.first(ep, "playlists", status="archived")
    item = POD.first(ep, "items", playlist_id=old["id"])
    show = podcasts(ep)[0]
    refused(
        ep,
        "add_to_playlist",
        "rule_violation",
        "playlist_id",
        playlist_id=old["id"],
        kind="podcast",
        ref_id=show["id"],
        added_by=old["owner_email"],
    )
    refused(ep, "move_item", "rule_violation", "item_id", item_id=item["id"], position=1)
    refused(ep, "update_item", "rule_violation", "item_id", item_id=item["id"], note="x")
    refused(ep, "delete_item", "rule_violation", "item_id", item_id=item["id"])
    refused(ep, "update_playlist", "rule_violation", "playlist_id", playlist_id=old["id"], name="Back")
