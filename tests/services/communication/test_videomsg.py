"""Clipcast: seats and recording limits, processing, privacy and who may watch, feedback, transcripts, insights."""

from __future__ import annotations

from typing import Any

from compoworld import Episode
from tests.services.helpers import ServiceTools

VID = ServiceTools("videomsg")
WORLD = VID.world
ok, refused, every = VID.ok, VID.refused, VID.every
POP = WORLD.population
STAFF = [p.email for p in POP.employees]
OUTSIDER = "someone@example.org"


def member(ep: Episode, seat: str) -> str:
    return str(every(ep, "list_members", seat=seat)[0]["email"])


def video(ep: Episode, **where: Any) -> dict[str, Any]:
    return every(ep, "list_videos", **where)[0]


def test_seeded_members_are_employees_and_videos_cover_every_status(ep: Episode) -> None:
    mems = every(ep, "list_members")
    assert {m["email"] for m in mems} <= set(STAFF)
    assert {m["seat"] for m in mems} == {"creator", "creator_lite", "viewer"}
    seats = {m["email"]: m["seat"] for m in mems}
    vids = every(ep, "list_videos")
    assert {v["status"] for v in vids} == {"processing", "ready", "failed", "archived"}
    for v in vids:
        assert seats[v["owner_email"]] != "viewer"
        if seats[v["owner_email"]] == "creator_lite":
            assert v["duration_seconds"] <= 300


def test_viewer_seats_cannot_record_and_lite_seats_are_capped_at_five_minutes(ep: Episode) -> None:
    refused(
        ep,
        "record_video",
        "rule_violation",
        "owner_email",
        owner_email=member(ep, "viewer"),
        title="Hi",
        duration_seconds=30,
    )
    refused(ep, "record_video", "rule_violation", "owner_email", owner_email=OUTSIDER, title="Hi", duration_seconds=30)
    lite = member(ep, "creator_lite")
    refused(
        ep, "record_video", "rule_violation", "duration_seconds", owner_email=lite, title="Long", duration_seconds=301
    )
    made = ok(ep, "record_video", owner_email=lite, title="Short", duration_seconds=300)
    assert (made["status"], made["privacy"], made["transcript_status"]) == ("processing", "workspace", "none")


def test_processing_finishes_once_and_only_ready_videos_are_watched(ep: Episode) -> None:
    made = ok(ep, "record_video", owner_email=member(ep, "creator"), title="Demo", duration_seconds=120)
    viewer = next(e for e in STAFF if e != made["owner_email"])
    refused(
        ep, "record_view", "rule_violation", "video_id", video_id=made["id"], viewer_email=viewer, watched_seconds=10
    )
    assert ok(ep, "complete_processing", video_id=made["id"])["status"] == "ready"
    refused(ep, "complete_processing", "conflict", "video_id", video_id=made["id"])
    view = ok(ep, "record_view", video_id=made["id"], viewer_email=viewer, watched_seconds=118)
    assert view["completed"] is True
    refused(
        ep,
        "record_view",
        "rule_violation",
        "watched_seconds",
        video_id=made["id"],
        viewer_email=viewer,
        watched_seconds=121,
    )


def test_privacy_decides_who_may_watch(ep: Episode) -> None:
    v = video(ep, status="ready", privacy="workspace")
    refused(
        ep, "record_view", "rule_violation", "viewer_email", video_id=v["id"], viewer_email=OUTSIDER, watched_seconds=5
    )
    guest = STAFF[-1]
    refused(ep, "share_video", "rule_violation", "shared_with", video_id=v["id"], privacy="specific_people")
    ok(ep, "share_video", video_id=v["id"], privacy="specific_people", shared_with=[STAFF[-2]])
    refused(
        ep, "record_view", "rule_violation", "viewer_email", video_id=v["id"], viewer_email=guest, watched_seconds=5
    )
    refused(ep, "share_video", "rule_violation", "password", video_id=v["id"], privacy="password")
    ok(ep, "share_video", video_id=v["id"], privacy="password", password="s3cret")
    refused(
        ep,
        "record_view",
        "rule_violation",
        "password",
        video_id=v["id"],
        viewer_email=guest,
        watched_seconds=5,
        password="nope",
    )
    ok(ep, "record_view", video_id=v["id"], viewer_email=guest, watched_seconds=5, password="s3cret")
    ok(ep, "share_video", video_id=v["id"], privacy="public")
    assert ok(ep, "record_view", video_id=v["id"], viewer_email=OUTSIDER, watched_seconds=5)["completed"] is False


def test_comments_need_comments_enabled_and_a_moment_inside_the_video(ep: Episode) -> None:
    v = video(ep, status="ready", privacy="workspace", comments_enabled=True)
    who = next(e for e in STAFF if e != v["owner_email"])
    base = {"video_id": v["id"], "author_email": who}
    refused(
        ep,
        "add_comment",
        "rule_violation",
        "timestamp_seconds",
        body="Late",
        timestamp_seconds=v["duration_seconds"] + 1,
        **base,
    )
    c = ok(ep, "add_comment", body="Nice point", timestamp_seconds=12, **base)
    reply = ok(ep, "add_comment", body="Agreed", parent_id=c["id"], **base)
    assert reply["parent_id"] == c["id"]
    ok(ep, "update_video", video_id=v["id"], comments_enabled=False)
    refused(ep, "add_comment", "rule_violation", "video_id", body="More", **base)
    refused(ep, "add_reaction", "rule_violation", "video_id", viewer_email=who, emoji="🔥", video_id=v["id"])


def test_a_reaction_counts_once_per_viewer_emoji_and_moment(ep: Episode) -> None:
    v = video(ep, status="ready", privacy="workspace", comments_enabled=True)
    who = v["owner_email"]
    ok(ep, "add_reaction", video_id=v["id"], viewer_email=who, emoji="🎉", timestamp_seconds=3)
    refused(
        ep, "add_reaction", "conflict", "emoji", video_id=v["id"], viewer_email=who, emoji="🎉", timestamp_seconds=3
    )
    ok(ep, "add_reaction", video_id=v["id"], viewer_email=who, emoji="🎉", timestamp_seconds=4)
    assert ok(ep, "video_insights", video_id=v["id"])["reactions"]["🎉"] == 2


def test_transcripts_are_generated_for_ready_videos_then_searchable(ep: Episode) -> None:
    v = video(ep, status="ready", transcript_status="none")
    refused(ep, "complete_transcript", "rule_violation", "video_id", video_id=v["id"], text="x")
    assert ok(ep, "generate_transcript", video_id=v["id"], language="de")["transcript_status"] == "generating"
    refused(ep, "generate_transcript", "conflict", "video_id", video_id=v["id"])
    refused(ep, "complete_transcript", "rule_violation", "text", video_id=v["id"], text="  ")
    ok(ep, "complete_transcript", video_id=v["id"], text="Zebra quarterly kickoff")
    assert [x["id"] for x in every(ep, "list_videos", query="Zebra")] == [v["id"]]
    failed = video(ep, status="failed")
    refused(ep, "generate_transcript", "rule_violation", "video_id", video_id=failed["id"])


def test_insights_match_recorded_views(ep: Episode) -> None:
    for v in every(ep, "list_videos", status="ready"):
        seen = every(ep, "list_views", video_id=v["id"])
        ins = ok(ep, "video_insights", video_id=v["id"])
        assert ins["views"] == len(seen)
        assert ins["unique_viewers"] == len({w["viewer_email"] for w in seen})
        done = {w["viewer_email"] for w in seen if w["completed"]}
        assert set(ins["viewers_who_did_not_finish"]) == {w["viewer_email"] for w in seen} - done


def test_folders_are_unique_per_owner_and_deleted_only_when_empty(ep: Episode) -> None:
    v = next(x for x in every(ep, "list_videos") if x["folder_id"])
    folder = ok(ep, "get_folder", folder_id=v["folder_id"])
    refused(ep, "create_folder", "conflict", "name", name=folder["name"], owner_email=folder["owner_email"])
    refused(ep, "delete_folder", "rule_violation", "folder_id", folder_id=folder["id"])
    other = ok(ep, "create_folder", name="Elsewhere", owner_email=member(ep, "viewer"))
    refused(ep, "update_video", "rule_violation", "folder_id", video_id=v["id"], folder_id=other["id"])
    for x in every(ep, "list_videos", folder_id=folder["id"]):
        ok(ep, "delete_video", video_id=x["id"])
    ok(ep, "delete_folder", folder_id=folder["id"])


def test_archive_frees_a_lite_seat_and_the_last_admin_stays(ep: Episode) -> None:
    admin = every(ep, "list_members", role="admin")[0]
    refused(ep, "update_member", "rule_violation", "role", member_id=admin["id"], role="member")
    v = video(ep, status="ready")
    assert ok(ep, "archive_video", video_id=v["id"])["status"] == "archived"
    refused(ep, "archive_video", "rule_violation", "video_id", video_id=v["id"])
    assert ok(ep, "restore_video", video_id=v["id"])["status"] == "ready"
    refused(ep, "add_member", "conflict", "email", email=admin["email"])
    refused(ep, "add_member", "rule_violation", "email", email=OUTSIDER)
