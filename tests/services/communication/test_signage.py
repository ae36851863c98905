"""Beacon Screens: pairing, health, playlists of ready assets, schedule overlaps, emergency overrides, now playing."""

from __future__ import annotations

import datetime as dt
from typing import Any

from compoworld import Episode
from tests.services.helpers import ServiceTools

SIGN = ServiceTools("signage")
WORLD = SIGN.world
ok, refused, every = SIGN.ok, SIGN.refused, SIGN.every
POP = WORLD.population
ME = POP.employees[0].email
NOW = WORLD.epoch


def at(**delta: float) -> str:
    return (NOW + dt.timedelta(**delta)).isoformat()


def screen(ep: Episode, name: str) -> dict[str, Any]:
    return next(s for s in every(ep, "list_screens") if s["name"] == name)


def playlist(ep: Episode, name: str) -> dict[str, Any]:
    return next(p for p in every(ep, "list_playlists") if p["name"] == name)


def test_seeded_screens_cover_every_health_and_sites_are_the_home_city(ep: Episode) -> None:
    fleet = ok(ep, "screen_health")
    assert fleet["online"] and fleet["offline"] and fleet["never_seen"]
    assert screen(ep, "Cafeteria")["id"] in fleet["offline"]
    assert any(POP.home.place.city in s["site"] for s in every(ep, "list_screens"))
    assets = {a["id"]: a for a in every(ep, "list_assets")}
    for p in every(ep, "list_playlists"):
        assert all(assets[i["asset_id"]]["status"] == "ready" for i in p["items"])


def test_a_heartbeat_brings_an_offline_screen_online(ep: Episode) -> None:
    caf = screen(ep, "Cafeteria")
    ok(ep, "report_heartbeat", screen_id=caf["id"])
    assert caf["id"] in ok(ep, "screen_health", site=caf["site"])["online"]


def test_pairing_needs_a_code_and_a_unique_name(ep: Episode) -> None:
    refused(ep, "pair_screen", "conflict", "name", pairing_code="ABC123", name="Lobby main", site="HQ")
    made = ok(ep, "pair_screen", pairing_code="ABC123", name="Meeting room 4", site="HQ")
    assert ok(ep, "now_playing", screen_id=made["id"])["source"] == "nothing"
    assert made["id"] in ok(ep, "screen_health")["never_seen"]
    res = ep.call(SIGN.tool("pair_screen"), {"pairing_code": "abc", "name": "X", "site": "HQ"})
    assert not res.ok


def test_only_ready_assets_join_playlists_and_videos_keep_their_length(ep: Episode) -> None:
    pl = playlist(ep, "Holiday specials")
    processing = every(ep, "list_assets", status="processing")[0]
    refused(ep, "add_to_playlist", "rule_violation", "asset_id", playlist_id=pl["id"], asset_id=processing["id"])
    video = every(ep, "list_assets", kind="video", status="ready")[0]
    refused(
        ep,
        "add_to_playlist",
        "rule_violation",
        "duration_seconds",
        playlist_id=pl["id"],
        asset_id=video["id"],
        duration_seconds=5,
    )
    image = every(ep, "list_assets", kind="image", status="ready")[0]
    ok(ep, "add_to_playlist", playlist_id=pl["id"], asset_id=video["id"])
    out = ok(ep, "add_to_playlist", playlist_id=pl["id"], asset_id=image["id"], duration_seconds=7)
    assert [i["duration_seconds"] for i in out["items"]] == [video["duration_seconds"], 7]
    assert ok(ep, "finish_asset", asset_id=processing["id"])["status"] == "ready"
    ok(ep, "add_to_playlist", playlist_id=pl["id"], asset_id=processing["id"])


def test_assets_and_playlists_in_use_cannot_be_deleted(ep: Episode) -> None:
    lobby = playlist(ep, "Lobby loop")
    refused(ep, "delete_playlist", "rule_violation", "playlist_id", playlist_id=lobby["id"])
    first = lobby["items"][0]["asset_id"]
    refused(ep, "delete_asset", "rule_violation", "asset_id", asset_id=first)
    for pl in every(ep, "list_playlists"):
        while any(i["asset_id"] == first for i in pl["items"]):
            pos = [i["asset_id"] for i in pl["items"]].index(first)
            pl = ok(ep, "remove_from_playlist", playlist_id=pl["id"], position=pos)
    ok(ep, "delete_asset", asset_id=first)


def test_same_priority_schedules_may_not_overlap_on_a_screen(ep: Episode) -> None:
    pl = playlist(ep, "Office loop")
    lobby = screen(ep, "Lobby main")
    base = {"name": "Evening", "playlist_id": pl["id"], "screen_ids": [lobby["id"]]}
    refused(
        ep, "create_schedule", "conflict", "starts_at", starts_at=at(hours=1), ends_at=at(hours=3), priority=8, **base
    )
    ok(ep, "create_schedule", starts_at=at(hours=1), ends_at=at(hours=3), priority=9, **base)
    refused(ep, "create_schedule", "rule_violation", "ends_at", starts_at=at(hours=5), ends_at=at(hours=4), **base)
    empty = playlist(ep, "Holiday specials")
    refused(
        ep,
        "create_schedule",
        "rule_violation",
        "playlist_id",
        starts_at=at(days=9),
        ends_at=at(days=10),
        **(base | {"playlist_id": empty["id"]}),
    )
    refused(
        ep,
        "create_schedule",
        "rule_violation",
        "screen_ids",
        starts_at=at(days=9),
        ends_at=at(days=10),
        **(base | {"screen_ids": [lobby["id"], lobby["id"]]}),
    )


def test_now_playing_prefers_override_then_schedule_then_default(ep: Episode) -> None:
    lobby = screen(ep, "Lobby main")
    scheduled = ok(ep, "now_playing", screen_id=lobby["id"])
    assert (scheduled["source"], scheduled["playlist_id"]) == ("schedule", playlist(ep, "Office loop")["id"])
    kitchen = ok(ep, "now_playing", screen_id=screen(ep, "Floor 2 kitchen")["id"])
    office = playlist(ep, "Office loop")
    assert (kitchen["source"], kitchen["loop_seconds"]) == (
        "default",
        sum(i["duration_seconds"] for i in office["items"]),
    )
    caf = ok(ep, "now_playing", screen_id=screen(ep, "Cafeteria")["id"])
    assert (caf["source"], caf["message"]) == ("override", "Cafeteria closed for cleaning.")


def test_one_active_emergency_per_screen_until_cleared(ep: Episode) -> None:
    refused(ep, "start_emergency", "conflict", "screen_ids", message="Evacuate", started_by=ME)
    active = every(ep, "list_overrides", status="active")[0]
    refused(
        ep,
        "start_emergency",
        "rule_violation",
        "started_by",
        message="Evacuate",
        started_by="x@y.io",
        screen_ids=[screen(ep, "Lobby main")["id"]],
    )
    assert ok(ep, "clear_override", override_id=active["id"])["status"] == "cleared"
    refused(ep, "clear_override", "rule_violation", "override_id", override_id=active["id"])
    every_screen = ok(ep, "start_emergency", message="Evacuate now", started_by=ME)
    assert len(every_screen["screen_ids"]) == len(every(ep, "list_screens"))
    for s in every(ep, "list_screens"):
        assert ok(ep, "now_playing", screen_id=s["id"])["message"] == "Evacuate now"


def test_default_playlists_must_exist_and_screen_names_stay_unique(ep: Episode) -> None:
    lobby = screen(ep, "Lobby main")
    refused(ep, "update_screen", "conflict", "name", screen_id=lobby["id"], name="Cafeteria")
    holiday = playlist(ep, "Holiday specials")
    moved = ok(ep, "update_screen", screen_id=screen(ep, "Warehouse entrance")["id"], playlist_id=holiday["id"])
    assert moved["playlist_id"] == holiday["id"]
    refused(ep, "create_playlist", "conflict", "name", name="Lobby loop")
