"""Cadenza Music: playlists and their limits, markets and explicit filters, library, follows, queue and devices."""

from __future__ import annotations

from typing import Any

from compoworld import Episode
from tests.services.helpers import ServiceTools

TU = ServiceTools("tunes")
WORLD = TU.world
ok, refused, every = TU.ok, TU.refused, TU.every
POP = WORLD.population


def users(ep: Episode, **filters: Any) -> list[dict[str, Any]]:
    return every(ep, "list_users", **filters)


def listener(ep: Episode, **want: Any) -> dict[str, Any]:
    return next(u for u in users(ep) if all(u[k] == v for k, v in want.items()))


def own_playlist(ep: Episode, user: dict[str, Any], collaborative: bool = False) -> dict[str, Any]:
    return every(ep, "list_playlists", owner_id=user["id"], collaborative=collaborative)[0]


def items(ep: Episode, playlist_id: str) -> list[str]:
    rows = sorted(every(ep, "list_playlist_items", playlist_id=playlist_id), key=lambda i: i["position"])
    assert [i["position"] for i in rows] == list(range(len(rows)))
    return [i["track_id"] for i in rows]


def track_for(ep: Episode, user: dict[str, Any], *, explicit: bool = False, available: bool = True) -> str:
    for t in every(ep, "list_tracks", explicit=explicit):
        if (user["country"] in t["available_markets"]) == available:
            return str(t["id"])
    raise AssertionError("no such track")


def test_seeded_listeners_are_consumers_and_records_agree() -> None:
    ep = Episode(WORLD)
    people = {p.email: p for p in POP.consumers}
    seen = users(ep)
    assert len(seen) == 8 and {u["product"] for u in seen} == {"free", "premium"}
    assert any(u["explicit_filter_locked"] for u in seen)
    for u in seen:
        assert people[u["email"]].name == u["display_name"]
        for pl in every(ep, "list_playlists", owner_id=u["id"]):
            assert pl["track_count"] == len(items(ep, pl["id"]))
            assert not (pl["public"] and pl["collaborative"])
        active = every(ep, "list_devices", user_id=u["id"], is_active=True)
        assert len(active) == 1
        queued = every(ep, "list_queue_entries", user_id=u["id"])
        assert bool(queued) == (u["product"] == "premium")
    follows = every(ep, "list_followed_artists")
    for a in every(ep, "list_artists"):
        assert a["followers"] % 1000 == sum(f["artist_id"] == a["id"] for f in follows)


def test_collaborative_playlists_are_never_public() -> None:
    ep = Episode(WORLD)
    u = listener(ep)
    refused(ep, "create_playlist", "rule_violation", "collaborative", user_id=u["id"], name="Jam", collaborative=True)
    pl = ok(ep, "create_playlist", user_id=u["id"], name="Jam", public=False, collaborative=True)
    assert pl["track_count"] == 0 and pl["owner_id"] == u["id"]
    shared = own_playlist(ep, u, collaborative=True)
    refused(ep, "update_playlist", "rule_violation", "public", playlist_id=shared["id"], public=True)
    done = ok(ep, "update_playlist", playlist_id=shared["id"], collaborative=False, public=True)
    assert done["public"] and not done["collaborative"]
    refused(ep, "update_playlist", "rule_violation", "description", playlist_id=shared["id"], description="x" * 301)


def test_add_tracks_at_a_position_shifts_the_rest() -> None:
    ep = Episode(WORLD)
    u = listener(ep, explicit_filter_enabled=False)
    pl = own_playlist(ep, u)
    before = items(ep, pl["id"])
    new = track_for(ep, u)
    out = ok(ep, "add_tracks_to_playlist", playlist_id=pl["id"], user_id=u["id"], track_ids=[new, new], position=1)
    assert out["track_count"] == len(before) + 2 and out["snapshot_id"] != pl["snapshot_id"]
    assert items(ep, pl["id"]) == [before[0], new, new, *before[1:]]
    refused(
        ep, "add_tracks_to_playlist", "rule_violation", "position", playlist_id=pl["id"], user_id=u["id"],
        track_ids=[new], position=out["track_count"] + 1,
    )  # fmt: skip
    refused(
        ep, "add_tracks_to_playlist", "rule_violation", "track_ids", playlist_id=pl["id"], user_id=u["id"],
        track_ids=[new] * 101,
    )  # fmt: skip


def test_only_the_owner_edits_a_playlist_unless_it_is_collaborative() -> None:
    ep = Episode(WORLD)
    owner, other = users(ep)[0], [x for x in users(ep) if not x["explicit_filter_enabled"]][1]
    mine, shared = own_playlist(ep, owner), own_playlist(ep, owner, collaborative=True)
    track = track_for(ep, other)
    refused(
        ep, "add_tracks_to_playlist", "rule_violation", "user_id", playlist_id=mine["id"], user_id=other["id"],
        track_ids=[track],
    )  # fmt: skip
    ok(ep, "add_tracks_to_playlist", playlist_id=shared["id"], user_id=other["id"], track_ids=[track])
    added = every(ep, "list_playlist_items", playlist_id=shared["id"], track_id=track)
    assert added[-1]["added_by"] == other["id"]
    first = items(ep, mine["id"])[0]
    refused(
        ep, "remove_tracks_from_playlist", "rule_violation", "user_id", playlist_id=mine["id"], user_id=other["id"],
        track_ids=[first],
    )  # fmt: skip


def test_markets_and_the_explicit_filter_decide_what_can_be_added() -> None:
    ep = Episode(WORLD)
    filtered = listener(ep, explicit_filter_enabled=True, explicit_filter_locked=False)
    pl = own_playlist(ep, filtered)
    dirty = track_for(ep, filtered, explicit=True)
    refused(
        ep, "add_tracks_to_playlist", "rule_violation", "track_ids", playlist_id=pl["id"], user_id=filtered["id"],
        track_ids=[dirty],
    )  # fmt: skip
    abroad = track_for(ep, filtered, available=False)
    refused(
        ep, "add_tracks_to_playlist", "rule_violation", "track_ids", playlist_id=pl["id"], user_id=filtered["id"],
        track_ids=[abroad],
    )  # fmt: skip
    ok(ep, "update_user", user_id=filtered["id"], explicit_filter_enabled=False)
    ok(ep, "add_tracks_to_playlist", playlist_id=pl["id"], user_id=filtered["id"], track_ids=[dirty])
    locked = listener(ep, explicit_filter_locked=True)
    refused(ep, "update_user", "rule_violation", "explicit_filter_enabled", user_id=locked["id"],
            explicit_filter_enabled=False)  # fmt: skip


def test_remove_takes_every_occurrence_and_reorder_moves_a_run() -> None:
    ep = Episode(WORLD)
    u = listener(ep, explicit_filter_enabled=False)
    pl = own_playlist(ep, u)
    before = items(ep, pl["id"])
    ok(ep, "add_tracks_to_playlist", playlist_id=pl["id"], user_id=u["id"], track_ids=[before[0]])
    out = ok(ep, "remove_tracks_from_playlist", playlist_id=pl["id"], user_id=u["id"], track_ids=[before[0]])
    assert out["track_count"] == len(before) - 1 and items(ep, pl["id"]) == before[1:]
    refused(
        ep, "remove_tracks_from_playlist", "not_found", "track_ids", playlist_id=pl["id"], user_id=u["id"],
        track_ids=[before[0]],
    )  # fmt: skip
    rest = before[1:]
    ok(ep, "reorder_playlist_items", playlist_id=pl["id"], range_start=0, range_length=2, insert_before=len(rest))
    assert items(ep, pl["id"]) == rest[2:] + rest[:2]
    refused(ep, "reorder_playlist_items", "rule_violation", "range_start", playlist_id=pl["id"],
            range_start=len(rest) - 1, range_length=2, insert_before=0)  # fmt: skip
    summary = ok(ep, "get_playlist_summary", playlist_id=pl["id"])
    durations = {t["id"]: t["duration_ms"] for t in every(ep, "list_tracks")}
    assert summary["total_duration_ms"] == sum(durations[t] for t in rest)
    assert summary["remaining_capacity"] == 10_000 - len(rest)


def test_library_saves_at_most_fifty_and_is_idempotent() -> None:
    ep = Episode(WORLD)
    u = listener(ep)
    saved = [s["track_id"] for s in every(ep, "list_saved_tracks", user_id=u["id"])]
    fresh = next(t["id"] for t in every(ep, "list_tracks") if t["id"] not in saved)
    out = ok(ep, "save_tracks", user_id=u["id"], track_ids=[fresh, saved[0]])
    assert out["changed"] == [fresh] and out["unchanged"] == [saved[0]]
    refused(ep, "save_tracks", "rule_violation", "track_ids", user_id=u["id"], track_ids=[fresh] * 51)
    gone = ok(ep, "remove_saved_tracks", user_id=u["id"])
    assert gone["changed"] == [fresh]
    assert fresh not in [s["track_id"] for s in every(ep, "list_saved_tracks", user_id=u["id"])]


def test_following_changes_the_artists_follower_count() -> None:
    ep = Episode(WORLD)
    u = listener(ep)
    have = {f["artist_id"] for f in every(ep, "list_followed_artists", user_id=u["id"])}
    artist = next(a for a in every(ep, "list_artists") if a["id"] not in have)
    ok(ep, "follow_artists", user_id=u["id"], artist_ids=[artist["id"]])
    after = next(a for a in every(ep, "list_artists") if a["id"] == artist["id"])
    assert after["followers"] == artist["followers"] + 1
    ok(ep, "unfollow_artist", user_id=u["id"], artist_id=artist["id"])
    refused(ep, "unfollow_artist", "not_found", "artist_id", user_id=u["id"], artist_id=artist["id"])


def test_the_queue_needs_premium_and_an_allowed_track() -> None:
    ep = Episode(WORLD)
    free = listener(ep, product="free")
    refused(ep, "add_to_queue", "rule_violation", "user_id", user_id=free["id"], track_id=track_for(ep, free))
    premium = listener(ep, product="premium", explicit_filter_enabled=False)
    queued = every(ep, "list_queue_entries", user_id=premium["id"])
    entry = ok(ep, "add_to_queue", user_id=premium["id"], track_id=track_for(ep, premium))
    assert entry["position"] == len(queued)
    refused(ep, "add_to_queue", "rule_violation", "track_id", user_id=premium["id"],
            track_id=track_for(ep, premium, available=False))  # fmt: skip


def test_transfer_playback_moves_the_queue_but_not_to_restricted_or_foreign_devices() -> None:
    ep = Episode(WORLD)
    u = listener(ep, product="premium")
    devs = every(ep, "list_devices", user_id=u["id"])
    active = next(d for d in devs if d["is_active"])
    target = next(d for d in devs if not d["is_active"] and not d["is_restricted"])
    moved = ok(ep, "transfer_playback", user_id=u["id"], device_id=target["id"])
    assert moved["is_active"] and moved["current_track_id"] == active["current_track_id"]
    assert all(q["device_id"] == target["id"] for q in every(ep, "list_queue_entries", user_id=u["id"]))
    assert [d["id"] for d in every(ep, "list_devices", user_id=u["id"], is_active=True)] == [target["id"]]
    premium = {x["id"] for x in users(ep, product="premium")}
    car = next(d for d in every(ep, "list_devices") if d["is_restricted"] and d["user_id"] in premium)
    refused(ep, "transfer_playback", "rule_violation", "device_id", user_id=car["user_id"], device_id=car["id"])
    other = next(x for x in users(ep) if x["id"] != u["id"])
    refused(ep, "transfer_playback", "rule_violation", "device_id", user_id=other["id"], device_id=target["id"])
