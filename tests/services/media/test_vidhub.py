"""Reelhouse: processing and privacy, scheduling, limits, quota, playlists, comments and moderation, captions, subscribers."""

from __future__ import annotations

import datetime as dt
from typing import Any

from compoworld import Episode
from compoworld.services.media.vidhub import COSTS, DAILY_QUOTA, tag_length
from tests.services.helpers import ServiceTools

VH = ServiceTools("vidhub")
WORLD = VH.world
ok, refused, every = VH.ok, VH.refused, VH.every
POP = WORLD.population


def channel(ep: Episode, suffix: str = "") -> dict[str, Any]:
    """The brand channel, or the one whose title ends with ``suffix``."""
    chans = every(ep, "list_channels")
    return next(c for c in chans if c["title"].endswith(suffix)) if suffix else chans[0]


def video(ep: Episode, ch: dict[str, Any], **filters: Any) -> dict[str, Any]:
    return every(ep, "list_videos", channel_id=ch["id"], **filters)[0]


def used(ep: Episode) -> int:
    return int(ok(ep, "get_quota_usage")["units_used"])


def later(**delta: float) -> str:
    return (WORLD.epoch + dt.timedelta(**delta)).isoformat()


def fresh_viewer(ep: Episode, ch: dict[str, Any]) -> str:
    """A consumer who never commented on the channel and is not hidden."""
    spoke = {c["commenter_email"] for c in every(ep, "list_comments", channel_id=ch["id"])}
    return next(p.email for p in POP.consumers if p.email not in spoke and p.email not in ch["hidden_users"])


def upload(ep: Episode, ch: dict[str, Any], **kw: Any) -> dict[str, Any]:
    title = kw.pop("title", "New video")
    return dict(ok(ep, "upload_video", channel_id=ch["id"], title=title, duration_seconds=120, **kw))


# -- the world --------------------------------------------------------------------------------


def test_seeded_channels_are_consistent_with_their_records_and_the_population() -> None:
    ep = Episode(WORLD)
    people = {p.email: p for p in POP.people}
    home = "@" + POP.home.domain
    for ch in every(ep, "list_channels"):
        assert ch["owner_email"].endswith(home)
        subs = every(ep, "list_subscriptions", channel_id=ch["id"])
        assert ch["subscriber_count"] == len(subs)
        assert all(people[s["subscriber_email"]].name == s["subscriber_name"] for s in subs)
        vids = every(ep, "list_videos", channel_id=ch["id"])
        assert ch["video_count"] == len(vids)
        assert {v["upload_status"] for v in vids} >= {"uploaded", "processing", "processed", "failed"}
        for v in vids:
            live = [c for c in every(ep, "list_comments", video_id=v["id"]) if c["moderation_status"] == "published"]
            assert v["comment_count"] == len(live)
            if v["publish_at"]:
                assert v["privacy_status"] == "private" and v["publish_at"] > later()
            if v["privacy_status"] != "private":
                assert v["upload_status"] == "processed" and v["published_at"]
        for pl in every(ep, "list_playlists", channel_id=ch["id"]):
            items = every(ep, "list_playlist_items", playlist_id=pl["id"])
            assert sorted(i["position"] for i in items) == list(range(pl["item_count"]))
    for c in every(ep, "list_comments"):
        if c["commenter_email"]:
            assert people[c["commenter_email"]].name == c["author_display_name"]
            assert people[c["commenter_email"]].role == "consumer"
        else:
            assert c["author_channel_id"] == c["channel_id"] and c["parent_id"]
    statuses = {c["moderation_status"] for c in every(ep, "list_comments")}
    assert statuses == {"published", "heldForReview", "rejected"}


# -- uploads, limits and quota ----------------------------------------------------------------


def test_uploads_check_title_description_tags_and_length(ep: Episode) -> None:
    brand, eng = channel(ep), channel(ep, "Engineering")
    base = {"channel_id": brand["id"], "duration_seconds": 60}
    refused(ep, "upload_video", "rule_violation", "title", title="Launch <live>", **base)
    refused(ep, "upload_video", "rule_violation", "title", title="x" * 101, **base)
    refused(ep, "upload_video", "rule_violation", "description", title="ok", description="é" * 2501, **base)
    assert upload(ep, brand, description="é" * 2500)["upload_status"] == "uploaded"
    tags = [f"ab c{n:02d}" for n in range(56)]
    assert tag_length(tags) == 56 * 8 + 55, "quotes around tags with spaces and commas count"
    refused(ep, "upload_video", "rule_violation", "tags", title="ok", tags=tags, **base)
    assert upload(ep, brand, tags=tags[:55])["tags"] == tags[:55]
    refused(ep, "upload_video", "invalid_arguments", "tags", title="ok", tags=[f"t{n:02d}" for n in range(101)], **base)
    long = {"title": "Webinar recording", "duration_seconds": 16 * 60}
    refused(ep, "upload_video", "rule_violation", "duration_seconds", channel_id=eng["id"], **long)
    refused(
        ep,
        "upload_video",
        "rule_violation",
        "duration_seconds",
        channel_id=brand["id"],
        title="x",
        duration_seconds=43201,
    )
    made = ok(ep, "upload_video", channel_id=brand["id"], tags=["demo", "demo", "how to"], **long)
    assert made["tags"] == ["demo", "how to"] and made["privacy_status"] == "private"
    assert ok(ep, "get_channel", channel_id=brand["id"])["video_count"] == brand["video_count"] + 3


def test_every_change_spends_quota_until_the_day_runs_out(ep: Episode) -> None:
    brand = channel(ep)
    start = ok(ep, "get_quota_usage")
    upload(ep, brand)
    after = ok(ep, "get_quota_usage")
    assert (after["units_used"], after["uploads"]) == (start["units_used"], start["uploads"] + 1)
    v = video(ep, brand, upload_status="uploaded")
    ok(ep, "process_video", video_id=v["id"])
    assert used(ep) == start["units_used"], "processing is the platform's, not a call"
    track = every(ep, "list_captions", language="en", track_kind="standard")[0]
    while used(ep) + COSTS["captions.update"] <= DAILY_QUOTA:
        ok(ep, "update_caption", caption_id=track["id"], is_draft=not track["is_draft"])
        track = next(c for c in every(ep, "list_captions", video_id=track["video_id"]) if c["id"] == track["id"])
    msg = refused(ep, "update_caption", "rule_violation", None, caption_id=track["id"], name="Renamed")
    assert "quotaExceeded" in msg
    report = ok(ep, "get_quota_usage")
    assert report["remaining"] == DAILY_QUOTA - report["units_used"] < COSTS["captions.update"]
    ok(ep, "update_video", video_id=v["id"], title="Still fits: 50 units")
    for _ in range(report["uploads_remaining"]):
        upload(ep, brand)
    msg = refused(
        ep, "upload_video", "rule_violation", None, channel_id=brand["id"], title="One more", duration_seconds=60
    )
    assert "videos.insert" in msg
    yesterday = ok(ep, "get_quota_usage", day=str(dt.date.fromisoformat(report["day"]) - dt.timedelta(days=1)))
    assert yesterday["units_used"] > 0


# -- processing and publishing ----------------------------------------------------------------


def test_processing_moves_uploaded_to_processing_to_processed_or_failed(ep: Episode) -> None:
    brand = channel(ep)
    v = upload(ep, brand, privacy_status="public")
    refused(ep, "complete_video_processing", "rule_violation", "video_id", video_id=v["id"], outcome="processed")
    assert ok(ep, "process_video", video_id=v["id"])["upload_status"] == "processing"
    refused(ep, "process_video", "rule_violation", "video_id", video_id=v["id"])
    refused(ep, "complete_video_processing", "rule_violation", "failure_reason", video_id=v["id"], outcome="failed")
    refused(
        ep,
        "complete_video_processing",
        "rule_violation",
        "failure_reason",
        video_id=v["id"],
        outcome="processed",
        failure_reason="codec",
    )
    done = ok(ep, "complete_video_processing", video_id=v["id"], outcome="processed")
    assert (done["upload_status"], done["privacy_status"]) == ("processed", "public") and done["published_at"]
    w = upload(ep, brand)
    ok(ep, "process_video", video_id=w["id"])
    bad = ok(ep, "complete_video_processing", video_id=w["id"], outcome="failed", failure_reason="conversion")
    assert (bad["upload_status"], bad["failure_reason"]) == ("failed", "conversion")
    refused(ep, "process_video", "rule_violation", "video_id", video_id=w["id"])


def test_failed_and_rejected_videos_never_play(ep: Episode) -> None:
    brand = channel(ep)
    failed = video(ep, brand, upload_status="failed")
    rejected = video(ep, brand, upload_status="rejected")
    playlist = every(ep, "list_playlists", channel_id=brand["id"])[0]
    for v in (failed, rejected):
        refused(ep, "publish_video", "rule_violation", "video_id", video_id=v["id"])
        refused(ep, "update_video", "rule_violation", "video_id", video_id=v["id"], privacy_status="unlisted")
        refused(ep, "add_playlist_item", "rule_violation", "video_id", playlist_id=playlist["id"], video_id=v["id"])
        refused(ep, "create_caption", "rule_violation", "video_id", video_id=v["id"], language="en", name="English")


def test_only_processed_videos_go_public(ep: Episode) -> None:
    brand = channel(ep)
    pending = video(ep, brand, upload_status="processing")
    msg = refused(ep, "publish_video", "rule_violation", "video_id", video_id=pending["id"])
    assert "processing" in msg
    refused(ep, "update_video", "rule_violation", "video_id", video_id=pending["id"], privacy_status="public")
    live = video(ep, brand, privacy_status="public")
    refused(ep, "publish_video", "conflict", "video_id", video_id=live["id"])
    before = used(ep)
    draft = next(
        v
        for v in every(ep, "list_videos", channel_id=brand["id"], privacy_status="private")
        if v["upload_status"] == "processed" and not v["publish_at"]
    )
    out = ok(ep, "publish_video", video_id=draft["id"])
    assert (out["privacy_status"], out["published_at"]) == ("public", later().replace("+00:00", "Z"))
    assert used(ep) == before + COSTS["videos.update"]


def test_publish_at_schedules_only_never_published_private_videos(ep: Episode) -> None:
    brand = channel(ep)
    scheduled = next(v for v in every(ep, "list_videos", channel_id=brand["id"]) if v["publish_at"])
    live = video(ep, brand, privacy_status="public")
    refused(ep, "update_video", "rule_violation", "publish_at", video_id=live["id"], publish_at=later(days=2))
    ok(ep, "update_video", video_id=live["id"], privacy_status="private")
    refused(ep, "update_video", "rule_violation", "publish_at", video_id=live["id"], publish_at=later(days=2))
    refused(ep, "update_video", "rule_violation", "publish_at", video_id=scheduled["id"], publish_at=later(hours=-1))
    refused(
        ep,
        "update_video",
        "rule_violation",
        "publish_at",
        video_id=scheduled["id"],
        publish_at=later(days=9),
        privacy_status="unlisted",
    )
    moved = ok(ep, "update_video", video_id=scheduled["id"], publish_at=later(days=9))
    assert moved["publish_at"] == later(days=9).replace("+00:00", "Z")
    now_public = ok(ep, "publish_video", video_id=scheduled["id"])
    assert now_public["publish_at"] is None and now_public["published_at"]
    brand_up = upload(ep, brand, publish_at=later(days=1))
    assert brand_up["publish_at"] and brand_up["upload_status"] == "uploaded"
    refused(
        ep,
        "upload_video",
        "rule_violation",
        "publish_at",
        channel_id=brand["id"],
        title="x",
        duration_seconds=60,
        privacy_status="public",
        publish_at=later(days=1),
    )


def test_custom_thumbnails_need_a_verified_channel_and_an_image(ep: Episode) -> None:
    brand, eng = channel(ep), channel(ep, "Engineering")
    mine = video(ep, brand, privacy_status="public")
    theirs = video(ep, eng, privacy_status="public")
    refused(
        ep,
        "set_thumbnail",
        "rule_violation",
        "video_id",
        video_id=theirs["id"],
        image_url="https://cdn.example.com/a.png",
    )
    refused(
        ep,
        "set_thumbnail",
        "rule_violation",
        "image_url",
        video_id=mine["id"],
        image_url="https://cdn.example.com/a.gif",
    )
    refused(
        ep,
        "set_thumbnail",
        "rule_violation",
        "image_url",
        video_id=mine["id"],
        image_url="http://cdn.example.com/a.png",
    )
    out = ok(ep, "set_thumbnail", video_id=mine["id"], image_url="https://cdn.example.com/a.PNG")
    assert out["thumbnail_url"] == "https://cdn.example.com/a.PNG"


def test_deleting_a_video_takes_its_items_comments_and_captions(ep: Episode) -> None:
    brand = channel(ep)
    highlights = every(ep, "list_playlists", channel_id=brand["id"], privacy_status="public")[0]
    first = every(ep, "list_playlist_items", playlist_id=highlights["id"])
    gone = next(i for i in first if i["position"] == 0)
    ok(ep, "delete_video", video_id=gone["video_id"])
    left = every(ep, "list_playlist_items", playlist_id=highlights["id"])
    assert sorted(i["position"] for i in left) == list(range(len(first) - 1))
    assert all(c["video_id"] != gone["video_id"] for c in every(ep, "list_comments", channel_id=brand["id"]))
    assert all(c["video_id"] != gone["video_id"] for c in every(ep, "list_captions"))
    after = ok(ep, "get_channel", channel_id=brand["id"])
    assert after["video_count"] == brand["video_count"] - 1
    assert next(p for p in every(ep, "list_playlists") if p["id"] == highlights["id"])["item_count"] == len(left)


# -- playlists --------------------------------------------------------------------------------


def test_playlist_items_keep_contiguous_positions(ep: Episode) -> None:
    brand = channel(ep)
    refused(ep, "create_playlist", "rule_violation", "title", channel_id=brand["id"], title="x" * 151)
    pl = ok(ep, "create_playlist", channel_id=brand["id"], title="Getting started", privacy_status="unlisted")
    vids = [v for v in every(ep, "list_videos", channel_id=brand["id"]) if v["upload_status"] == "processed"][:3]
    a = ok(ep, "add_playlist_item", playlist_id=pl["id"], video_id=vids[0]["id"])
    b = ok(ep, "add_playlist_item", playlist_id=pl["id"], video_id=vids[1]["id"])
    c = ok(ep, "add_playlist_item", playlist_id=pl["id"], video_id=vids[2]["id"], position=0, note="Start here")
    refused(
        ep, "add_playlist_item", "rule_violation", "position", playlist_id=pl["id"], video_id=vids[0]["id"], position=4
    )
    refused(
        ep, "add_playlist_item", "rule_violation", "note", playlist_id=pl["id"], video_id=vids[0]["id"], note="n" * 281
    )

    def order() -> list[str]:
        items = every(ep, "list_playlist_items", playlist_id=pl["id"])
        return [i["id"] for i in sorted(items, key=lambda i: i["position"])]

    assert order() == [c["id"], a["id"], b["id"]]
    ok(ep, "move_playlist_item", playlist_item_id=c["id"], position=2)
    assert order() == [a["id"], b["id"], c["id"]]
    refused(ep, "move_playlist_item", "rule_violation", "position", playlist_item_id=c["id"], position=3)
    out = ok(ep, "remove_playlist_item", playlist_item_id=a["id"])
    assert out["item_count"] == 2 and order() == [b["id"], c["id"]]
    ok(ep, "delete_playlist", playlist_id=pl["id"])
    assert all(i["playlist_id"] != pl["id"] for i in every(ep, "list_playlist_items"))


# -- comments ---------------------------------------------------------------------------------


def test_comments_only_on_public_videos_not_made_for_kids(ep: Episode) -> None:
    brand = channel(ep)
    viewer = fresh_viewer(ep, brand)
    private = video(ep, brand, privacy_status="private")
    refused(ep, "post_comment", "rule_violation", "video_id", video_id=private["id"], commenter_email=viewer, text="Hi")
    live = video(ep, brand, privacy_status="public")
    refused(
        ep,
        "post_comment",
        "not_found",
        "commenter_email",
        video_id=live["id"],
        commenter_email="nobody@nowhere.example",
        text="Hi",
    )
    refused(ep, "post_comment", "rule_violation", "text", video_id=live["id"], commenter_email=viewer, text=" ")
    ok(ep, "update_video", video_id=live["id"], made_for_kids=True)
    refused(ep, "post_comment", "rule_violation", "video_id", video_id=live["id"], commenter_email=viewer, text="Hi")


def test_the_channels_hold_setting_decides_the_moderation_status(ep: Episode) -> None:
    brand, academy, eng = channel(ep), channel(ep, "Academy"), channel(ep, "Engineering")
    cases = (
        (brand, "Nice one", "published"),
        (brand, "More at https://example.com/tips", "heldForReview"),
        (academy, "More at https://example.com/tips", "published"),
        (eng, "Nice one", "heldForReview"),
        (academy, "http://a.example http://b.example https://c.example", "likelySpam"),
    )
    for ch, text, status in cases:
        v = video(ep, ch, privacy_status="public")
        before = ok(ep, "get_video", video_id=v["id"])["comment_count"]
        made = ok(ep, "post_comment", video_id=v["id"], commenter_email=fresh_viewer(ep, ch), text=text)
        assert made["moderation_status"] == status, (ch["title"], text)
        after = ok(ep, "get_video", video_id=v["id"])["comment_count"]
        assert after == before + (status == "published")


def test_replies_go_only_to_published_top_level_comments(ep: Episode) -> None:
    brand = channel(ep)
    held = every(ep, "list_comments", channel_id=brand["id"], moderation_status="heldForReview")[0]
    refused(ep, "reply_to_comment", "rule_violation", "comment_id", comment_id=held["id"], text="Thanks")
    reply = next(c for c in every(ep, "list_comments", channel_id=brand["id"]) if c["parent_id"])
    refused(ep, "reply_to_comment", "rule_violation", "comment_id", comment_id=reply["id"], text="Thanks")
    top = next(
        c
        for c in every(ep, "list_comments", channel_id=brand["id"], moderation_status="published")
        if c["parent_id"] is None and c["commenter_email"]
    )
    count = ok(ep, "get_video", video_id=top["video_id"])["comment_count"]
    made = ok(ep, "reply_to_comment", comment_id=top["id"], text="Glad it helped!")
    assert (made["author_channel_id"], made["author_display_name"], made["commenter_email"]) == (
        brand["id"],
        brand["title"],
        None,
    )
    assert ok(ep, "get_comment", comment_id=top["id"])["reply_count"] == top["reply_count"] + 1
    assert ok(ep, "get_video", video_id=top["video_id"])["comment_count"] == count + 1


def test_moderation_and_banned_authors(ep: Episode) -> None:
    brand = channel(ep)
    held = every(ep, "list_comments", channel_id=brand["id"], moderation_status="heldForReview")[0]
    args = {"comment_id": held["id"]}
    refused(
        ep,
        "set_comment_moderation_status",
        "rule_violation",
        "ban_author",
        moderation_status="published",
        ban_author=True,
        **args,
    )
    refused(
        ep, "set_comment_moderation_status", "conflict", "moderation_status", moderation_status="heldForReview", **args
    )
    own = next(c for c in every(ep, "list_comments", channel_id=brand["id"]) if c["author_channel_id"])
    refused(
        ep,
        "set_comment_moderation_status",
        "rule_violation",
        "comment_id",
        comment_id=own["id"],
        moderation_status="rejected",
    )
    count = ok(ep, "get_video", video_id=held["video_id"])["comment_count"]
    ok(ep, "set_comment_moderation_status", moderation_status="published", **args)
    assert ok(ep, "get_video", video_id=held["video_id"])["comment_count"] == count + 1
    banned = ok(ep, "set_comment_moderation_status", moderation_status="rejected", ban_author=True, **args)
    assert banned["moderation_status"] == "rejected"
    assert held["commenter_email"] in ok(ep, "get_channel", channel_id=brand["id"])["hidden_users"]
    assert ok(ep, "get_video", video_id=held["video_id"])["comment_count"] == count
    again = ok(ep, "post_comment", video_id=held["video_id"], commenter_email=held["commenter_email"], text="Hello?")
    assert again["moderation_status"] == "rejected"


def test_only_the_channels_own_comments_are_deleted(ep: Episode) -> None:
    brand = channel(ep)
    viewer_comment = next(c for c in every(ep, "list_comments", channel_id=brand["id"]) if c["commenter_email"])
    refused(ep, "delete_comment", "rule_violation", "comment_id", comment_id=viewer_comment["id"])
    own = next(c for c in every(ep, "list_comments", channel_id=brand["id"]) if c["author_channel_id"])
    parent = ok(ep, "get_comment", comment_id=own["parent_id"])
    count = ok(ep, "get_video", video_id=own["video_id"])["comment_count"]
    assert ok(ep, "delete_comment", comment_id=own["id"])["deleted_replies"] == 0
    assert ok(ep, "get_comment", comment_id=parent["id"])["reply_count"] == parent["reply_count"] - 1
    assert ok(ep, "get_video", video_id=own["video_id"])["comment_count"] == count - 1


# -- captions, subscribers, channel -----------------------------------------------------------


def test_caption_tracks_are_unique_by_language_and_name(ep: Episode) -> None:
    brand = channel(ep)
    track = every(ep, "list_captions", language="en", track_kind="standard")[0]
    refused(ep, "create_caption", "conflict", "name", video_id=track["video_id"], language="en", name=track["name"])
    refused(
        ep,
        "create_caption",
        "rule_violation",
        "track_kind",
        video_id=track["video_id"],
        language="fr",
        track_kind="asr",
    )
    before = used(ep)
    fr = ok(ep, "create_caption", video_id=track["video_id"], language="fr", name="Français", is_draft=True)
    assert used(ep) == before + COSTS["captions.insert"]
    ok(ep, "update_caption", caption_id=fr["id"], is_draft=False)
    assert used(ep) == before + COSTS["captions.insert"] + COSTS["captions.update"]
    ok(ep, "create_caption", video_id=track["video_id"], language="fr", name="Français (forced)", track_kind="forced")
    refused(ep, "update_caption", "conflict", "name", caption_id=fr["id"], name="Français (forced)")
    ok(ep, "delete_caption", caption_id=fr["id"])
    assert used(ep) == before + COSTS["captions.insert"] * 2 + COSTS["captions.update"] + COSTS["captions.delete"]
    failed = video(ep, brand, upload_status="failed")
    refused(ep, "create_caption", "rule_violation", "video_id", video_id=failed["id"], language="de", name="Deutsch")


def test_subscribers_subscribe_once_and_never_to_their_own_channel(ep: Episode) -> None:
    academy = channel(ep, "Academy")
    refused(
        ep,
        "subscribe_to_channel",
        "rule_violation",
        "subscriber_email",
        channel_id=academy["id"],
        subscriber_email=academy["owner_email"],
    )
    existing = every(ep, "list_subscriptions", channel_id=academy["id"])[0]
    refused(
        ep,
        "subscribe_to_channel",
        "conflict",
        "subscriber_email",
        channel_id=academy["id"],
        subscriber_email=existing["subscriber_email"],
    )
    subs = {s["subscriber_email"] for s in every(ep, "list_subscriptions", channel_id=academy["id"])}
    newcomer = next(p for p in POP.consumers if p.email not in subs)
    made = ok(ep, "subscribe_to_channel", channel_id=academy["id"], subscriber_email=newcomer.email)
    assert made["subscriber_name"] == newcomer.name
    assert ok(ep, "get_channel", channel_id=academy["id"])["subscriber_count"] == academy["subscriber_count"] + 1
    gone = ok(ep, "unsubscribe_from_channel", channel_id=academy["id"], subscriber_email=existing["subscriber_email"])
    assert gone["id"] == existing["id"]
    refused(
        ep,
        "unsubscribe_from_channel",
        "not_found",
        "subscriber_email",
        channel_id=academy["id"],
        subscriber_email=existing["subscriber_email"],
    )
    assert ok(ep, "get_channel", channel_id=academy["id"])["subscriber_count"] == academy["subscriber_count"]


def test_channel_updates_cost_quota_and_keep_the_description_short(ep: Episode) -> None:
    brand = channel(ep)
    refused(ep, "update_channel", "rule_violation", "description", channel_id=brand["id"], description="x" * 1001)
    before = used(ep)
    out = ok(ep, "update_channel", channel_id=brand["id"], comment_hold="hold_all")
    assert out["comment_hold"] == "hold_all" and used(ep) == before + COSTS["channels.update"]
    v = video(ep, brand, privacy_status="public")
    held = ok(ep, "post_comment", video_id=v["id"], commenter_email=fresh_viewer(ep, brand), text="First!")
    assert held["moderation_status"] == "heldForReview"


def test_approving_and_rejecting_comments_follow_their_state_machine(ep: Episode) -> None:
    brand = channel(ep)
    held = every(ep, "list_comments", channel_id=brand["id"], moderation_status="heldForReview")[0]
    count = ok(ep, "get_video", video_id=held["video_id"])["comment_count"]
    before = used(ep)
    shown = ok(ep, "approve_comment", comment_id=held["id"])
    assert shown["moderation_status"] == "published" and shown["updated_at"]
    assert ok(ep, "get_video", video_id=held["video_id"])["comment_count"] == count + 1
    assert used(ep) == before + COSTS["comments.setModerationStatus"]
    refused(ep, "approve_comment", "rule_violation", "comment_id", comment_id=held["id"])
    assert ok(ep, "reject_comment", comment_id=held["id"])["moderation_status"] == "rejected"
    refused(ep, "reject_comment", "rule_violation", "comment_id", comment_id=held["id"])
    assert ok(ep, "get_video", video_id=held["video_id"])["comment_count"] == count
    own = next(c for c in every(ep, "list_comments", channel_id=brand["id"]) if c["author_channel_id"])
    refused(ep, "reject_comment", "rule_violation", "comment_id", comment_id=own["id"])
