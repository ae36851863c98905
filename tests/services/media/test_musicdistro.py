"""Soundwire Distribution: releases and tracks, submission to stores, takedowns, splits and earnings."""

from __future__ import annotations

import datetime as dt
from typing import Any

from compoworld import Episode
from tests.services.helpers import ServiceTools

MD = ServiceTools("musicdistro")
WORLD = MD.world
ok, refused, every = MD.ok, MD.refused, MD.every
TODAY = WORLD.epoch.date()
EMAILS = {p.email for p in WORLD.population.people}


def day(days: int) -> str:
    return (TODAY + dt.timedelta(days=days)).isoformat()


def new_release(ep: Episode, rtype: str = "single", tracks: int = 1) -> dict[str, Any]:
    artist = every(ep, "list_artists")[0]
    rel = ok(ep, "create_release", title="Fresh Cut", artist_id=artist["id"], type=rtype, release_date=day(10))
    for k in range(tracks):
        ok(ep, "add_track", release_id=rel["id"], title=f"Song {k}", duration_s=180, songwriter="Ana Ruiz")
    return dict(rel)


def test_seeded_artists_are_world_people_and_live_releases_have_upcs_and_stores(ep: Episode) -> None:
    assert all(a["email"] in EMAILS for a in every(ep, "list_artists"))
    statuses = {r["status"] for r in every(ep, "list_releases")}
    assert statuses == {"draft", "in_review", "live", "taken_down"}
    for rel in every(ep, "list_releases", status="live"):
        assert rel["upc"] is not None
        assert any(d["status"] == "live" for d in every(ep, "list_deliveries", release_id=rel["id"]))


def test_tracks_get_unique_isrcs_and_numbers_within_the_type_limit(ep: Episode) -> None:
    rel = new_release(ep, "single", 3)
    made = every(ep, "list_tracks", release_id=rel["id"])
    assert [t["track_number"] for t in made] == [1, 2, 3]
    isrcs = [t["isrc"] for t in every(ep, "list_tracks")]
    assert len(isrcs) == len(set(isrcs))
    refused(
        ep,
        "add_track",
        "rule_violation",
        "release_id",
        release_id=rel["id"],
        title="Four",
        duration_s=100,
        songwriter="Ana Ruiz",
    )


def test_submission_checks_track_count_date_and_stores_and_assigns_a_upc(ep: Episode) -> None:
    ep_rel = new_release(ep, "ep", 2)
    refused(ep, "submit_release", "rule_violation", "release_id", release_id=ep_rel["id"], stores=["spotify"])
    rel = new_release(ep)
    refused(ep, "submit_release", "rule_violation", "stores", release_id=rel["id"], stores=[])
    refused(ep, "submit_release", "rule_violation", "stores", release_id=rel["id"], stores=["tidal", "tidal"])
    done = ok(ep, "submit_release", release_id=rel["id"], stores=["spotify", "tidal"])
    assert done["status"] == "in_review" and len(done["upc"]) == 12
    assert {d["status"] for d in every(ep, "list_deliveries", release_id=rel["id"])} == {"queued"}
    refused(ep, "submit_release", "rule_violation", "release_id", release_id=rel["id"], stores=["deezer"])


def test_only_drafts_are_edited_or_deleted(ep: Episode) -> None:
    live = every(ep, "list_releases", status="live")[0]
    refused(ep, "update_release", "rule_violation", "release_id", release_id=live["id"], title="Renamed")
    refused(ep, "delete_release", "rule_violation", "release_id", release_id=live["id"])
    track = every(ep, "list_tracks", release_id=live["id"])[0]
    refused(ep, "update_track", "rule_violation", "track_id", track_id=track["id"], title="Renamed")
    draft = new_release(ep)
    ok(ep, "delete_release", release_id=draft["id"])
    assert all(t["release_id"] != draft["id"] for t in every(ep, "list_tracks"))


def test_a_release_goes_live_with_its_first_store_and_comes_down_on_takedown(ep: Episode) -> None:
    rel = new_release(ep)
    ok(ep, "submit_release", release_id=rel["id"], stores=["spotify", "apple_music"])
    first = every(ep, "list_deliveries", release_id=rel["id"])[0]
    assert ok(ep, "confirm_delivery", delivery_id=first["id"])["status"] == "live"
    assert ok(ep, "get_release", release_id=rel["id"])["status"] == "live"
    refused(ep, "confirm_delivery", "rule_violation", "delivery_id", delivery_id=first["id"])
    refused(ep, "remove_from_stores", "rule_violation", "stores", release_id=rel["id"], stores=["tiktok"])
    partial = ok(ep, "remove_from_stores", release_id=rel["id"], stores=["spotify"])
    assert partial["status"] == "live"
    assert ok(ep, "remove_from_stores", release_id=rel["id"])["status"] == "taken_down"
    states = {d["store"]: d["status"] for d in every(ep, "list_deliveries", release_id=rel["id"])}
    assert states == {"spotify": "takedown_requested", "apple_music": "taken_down"}
    refused(ep, "remove_from_stores", "rule_violation", "release_id", release_id=rel["id"])


def test_splits_total_at_most_100_percent_once_per_collaborator(ep: Episode) -> None:
    track = every(ep, "list_tracks")[-1]
    args = {"track_id": track["id"], "collaborator_name": "Lee Park"}
    ok(ep, "invite_split", collaborator_email="lee@beats.io", percent=60, **args)
    refused(ep, "invite_split", "conflict", "collaborator_email", collaborator_email="lee@beats.io", percent=5, **args)
    refused(ep, "invite_split", "rule_violation", "percent", collaborator_email="kim@beats.io", percent=41, **args)
    other = ok(ep, "invite_split", collaborator_email="kim@beats.io", percent=40, **args)
    assert ok(ep, "decline_split", split_id=other["id"])["status"] == "declined"
    refused(ep, "accept_split", "rule_violation", "split_id", split_id=other["id"])
    assert ok(ep, "invite_split", collaborator_email="kim@beats.io", percent=40, **args)["status"] == "invited"


def test_artist_earnings_subtract_accepted_splits(ep: Episode) -> None:
    split = every(ep, "list_splits", status="invited")[0]
    track = ok(ep, "get_track", track_id=split["track_id"])
    artist_id = ok(ep, "get_release", release_id=track["release_id"])["artist_id"]
    before = ok(ep, "artist_earnings", artist_id=artist_id)
    assert before["gross"] > 0 and before["net"] == before["gross"] - before["to_collaborators"]
    assert sum(before["by_store"].values()) == before["gross"]
    ok(ep, "accept_split", split_id=split["id"])
    after = ok(ep, "artist_earnings", artist_id=artist_id)
    mine = sum(e["amount"] for e in every(ep, "list_earnings", track_id=track["id"]))
    expected = before["to_collaborators"] + round(mine * split["percent"] / 100)
    assert abs(after["to_collaborators"] - expected) <= len(every(ep, "list_earnings", track_id=track["id"]))


def test_artist_names_are_unique(ep: Episode) -> None:
    first = every(ep, "list_artists")[0]
    refused(ep, "create_artist", "conflict", "name", name=first["name"], contact_name="X Y", email="x@y.io")
    made = ok(ep, "create_artist", name="Brand New Act", contact_name="X Y", email="x@y.io")
    assert every(ep, "list_artists", email="x@y.io")[0]["id"] == made["id"]
