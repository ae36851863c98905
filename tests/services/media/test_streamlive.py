"""Beamcast Live: one live stream per channel, schedule overlaps, clip windows, moderation, subscriptions."""

from __future__ import annotations

import datetime as dt
from typing import Any

from compoworld import Episode
from tests.services.helpers import ServiceTools

LIVE = ServiceTools("streamlive")
WORLD = LIVE.world
ok, refused, every = LIVE.ok, LIVE.refused, LIVE.every
POP = WORLD.population
NOW = WORLD.epoch


def parse(value: str) -> dt.datetime:
    return dt.datetime.fromisoformat(value)


def channel(ep: Episode, kind: str) -> dict[str, Any]:
    return every(ep, "list_channels", broadcaster_type=kind)[0]


def viewer(ep: Episode, ch: dict[str, Any], nth: int = 0) -> dict[str, Any]:
    """A viewer with no moderator role, ban or subscription on the channel."""
    busy = {m["user_id"] for m in every(ep, "list_moderators", channel_id=ch["id"])}
    busy |= {b["user_id"] for b in every(ep, "list_bans", channel_id=ch["id"])}
    busy |= {s["user_id"] for s in every(ep, "list_subscriptions", channel_id=ch["id"])}
    owners = {c["broadcaster_id"] for c in every(ep, "list_channels")}
    return [u for u in every(ep, "list_users") if u["id"] not in busy | owners][nth]


def active_ban(ep: Episode, ch: dict[str, Any], permanent: bool) -> dict[str, Any]:
    for b in every(ep, "list_bans", channel_id=ch["id"], status="active"):
        if permanent and b["expires_at"] is None:
            return b
        if not permanent and b["expires_at"] and parse(b["expires_at"]) > NOW:
            return b
    raise AssertionError("no such ban")


def test_channels_are_run_by_staff_and_viewers_are_the_populations_people() -> None:
    ep = Episode(WORLD)
    staff = {p.email for p in POP.employees}
    people = {p.email: p for p in POP.people}
    owners = set()
    for ch in every(ep, "list_channels"):
        assert ch["broadcaster_email"] in staff
        owners.add(ch["broadcaster_id"])
    for u in every(ep, "list_users"):
        assert people[u["email"]].name == u["name"]
    live = every(ep, "list_streams", status="live")
    assert len(live) == 1 and every(ep, "list_channels", is_live=True)[0]["id"] == live[0]["channel_id"]
    for sub in every(ep, "list_subscriptions"):
        assert (
            sub["user_id"] not in owners and sub["price_cents"] == {"1000": 499, "2000": 999, "3000": 2499}[sub["tier"]]
        )


def test_a_channel_has_one_live_stream_and_an_ended_stream_stays_ended(ep: Episode) -> None:
    ch = channel(ep, "affiliate")
    stream = ok(ep, "start_stream", channel_id=ch["id"])
    assert (stream["status"], stream["title"]) == ("live", ch["title"])
    refused(ep, "start_stream", "conflict", "channel_id", channel_id=ch["id"])
    ended = ok(ep, "end_stream", stream_id=stream["id"])
    assert ended["status"] == "offline" and ended["ended_at"] is not None
    refused(ep, "end_stream", "conflict", "stream_id", stream_id=stream["id"])
    assert not every(ep, "list_channels", broadcaster_login=ch["broadcaster_login"])[0]["is_live"]
    again = ok(ep, "start_stream", channel_id=ch["id"])
    assert again["id"] != stream["id"]


def test_only_partners_set_a_delay_and_titles_stay_short(ep: Episode) -> None:
    partner, affiliate = channel(ep, "partner"), channel(ep, "affiliate")
    assert ok(ep, "update_channel", channel_id=partner["id"], delay=120)["delay"] == 120
    refused(ep, "update_channel", "rule_violation", "delay", channel_id=affiliate["id"], delay=60)
    refused(ep, "update_channel", "invalid_arguments", "delay", channel_id=partner["id"], delay=901)
    refused(ep, "update_channel", "invalid_arguments", "title", channel_id=partner["id"], title="x" * 141)
    assert ok(ep, "update_channel", channel_id=affiliate["id"], title="Refactoring live")["title"] == "Refactoring live"


def test_schedule_segments_start_ahead_and_do_not_overlap(ep: Episode) -> None:
    ch = channel(ep, "partner")
    seg = every(ep, "list_schedule_segments", channel_id=ch["id"])[0]
    args = {"channel_id": ch["id"], "title": "Q&A"}
    overlapping = parse(seg["start_time"]) + dt.timedelta(minutes=30)
    refused(
        ep,
        "create_schedule_segment",
        "conflict",
        "start_time",
        start_time=overlapping.isoformat(),
        duration_minutes=60,
        **args,
    )
    refused(
        ep,
        "create_schedule_segment",
        "rule_violation",
        "start_time",
        start_time=(NOW - dt.timedelta(hours=1)).isoformat(),
        duration_minutes=60,
        **args,
    )
    refused(
        ep,
        "create_schedule_segment",
        "invalid_arguments",
        "duration_minutes",
        start_time=(NOW + dt.timedelta(days=1)).isoformat(),
        duration_minutes=20,
        **args,
    )
    right_after = parse(seg["end_time"])
    made = ok(ep, "create_schedule_segment", start_time=right_after.isoformat(), duration_minutes=90, **args)
    assert parse(made["end_time"]) - parse(made["start_time"]) == dt.timedelta(minutes=90)


def test_clips_come_from_live_or_recent_streams_up_to_the_point_reached(ep: Episode) -> None:
    live = every(ep, "list_streams", status="live")[0]
    ch = next(c for c in every(ep, "list_channels") if c["id"] == live["channel_id"])
    fan = viewer(ep, ch)
    clip = ok(ep, "create_clip", stream_id=live["id"], creator_id=fan["id"], title="Big reveal", duration=45)
    started = int((NOW - parse(live["started_at"])).total_seconds())
    assert started <= clip["vod_offset"] <= started + 600, "the clip ends where the stream is now"
    assert clip["url"].endswith(clip["id"])
    refused(
        ep,
        "create_clip",
        "rule_violation",
        "vod_offset",
        stream_id=live["id"],
        creator_id=fan["id"],
        title="Later",
        vod_offset=99_999,
    )
    ended = [s for s in every(ep, "list_streams", status="offline")]
    recent = next(s for s in ended if NOW - parse(s["ended_at"]) <= dt.timedelta(hours=24))
    old = next(s for s in ended if NOW - parse(s["ended_at"]) > dt.timedelta(hours=24))
    ok(ep, "create_clip", stream_id=recent["id"], creator_id=fan["id"], title="Replay", duration=20, vod_offset=600)
    refused(
        ep,
        "create_clip",
        "rule_violation",
        "stream_id",
        stream_id=old["id"],
        creator_id=fan["id"],
        title="Old",
        vod_offset=600,
    )
    banned = active_ban(ep, ch, permanent=True)
    refused(
        ep,
        "create_clip",
        "rule_violation",
        "creator_id",
        stream_id=live["id"],
        creator_id=banned["user_id"],
        title="Nope",
    )


def test_moderators_are_neither_the_broadcaster_nor_banned_users(ep: Episode) -> None:
    ch = channel(ep, "partner")
    refused(ep, "add_moderator", "rule_violation", "user_id", channel_id=ch["id"], user_id=ch["broadcaster_id"])
    banned = active_ban(ep, ch, permanent=True)
    refused(ep, "add_moderator", "rule_violation", "user_id", channel_id=ch["id"], user_id=banned["user_id"])
    fan = viewer(ep, ch)
    mod = ok(ep, "add_moderator", channel_id=ch["id"], user_id=fan["id"])
    refused(ep, "add_moderator", "conflict", "user_id", channel_id=ch["id"], user_id=fan["id"])
    ok(ep, "delete_moderator", moderator_id=mod["id"])


def test_the_last_moderator_of_a_live_channel_stays(ep: Episode) -> None:
    ch = every(ep, "list_channels", is_live=True)[0]
    mods = every(ep, "list_moderators", channel_id=ch["id"])
    for m in mods[:-1]:
        ok(ep, "delete_moderator", moderator_id=m["id"])
    refused(ep, "delete_moderator", "rule_violation", "moderator_id", moderator_id=mods[-1]["id"])


def test_bans_and_timeouts(ep: Episode) -> None:
    ch = channel(ep, "partner")
    mod = every(ep, "list_moderators", channel_id=ch["id"])[0]
    fan = viewer(ep, ch)
    base = {"channel_id": ch["id"], "moderator_id": ch["broadcaster_id"]}
    refused(ep, "ban_user", "rule_violation", "user_id", user_id=mod["user_id"], **base)
    refused(ep, "ban_user", "rule_violation", "user_id", user_id=ch["broadcaster_id"], **base)
    refused(
        ep,
        "ban_user",
        "rule_violation",
        "moderator_id",
        channel_id=ch["id"],
        user_id=fan["id"],
        moderator_id=viewer(ep, ch, 1)["id"],
    )
    refused(ep, "ban_user", "invalid_arguments", "duration", user_id=fan["id"], duration=1_209_601, **base)
    timeout = active_ban(ep, ch, permanent=False)
    longer = ok(ep, "ban_user", user_id=timeout["user_id"], duration=3600, reason="Again", **base)
    assert parse(longer["expires_at"]) > NOW + dt.timedelta(minutes=59)
    statuses = {b["id"]: b["status"] for b in every(ep, "list_bans", channel_id=ch["id"], user_id=timeout["user_id"])}
    assert statuses[timeout["id"]] == "lifted" and statuses[longer["id"]] == "active"
    permanent = active_ban(ep, ch, permanent=True)
    refused(ep, "ban_user", "conflict", "user_id", user_id=permanent["user_id"], duration=60, **base)
    assert ok(ep, "unban_user", user_id=permanent["user_id"], **base)["status"] == "lifted"
    refused(ep, "unban_user", "rule_violation", "user_id", user_id=permanent["user_id"], **base)
    expired = next(
        b
        for b in every(ep, "list_bans", channel_id=ch["id"], status="active")
        if b["expires_at"] and parse(b["expires_at"]) <= NOW
    )
    refused(ep, "unban_user", "rule_violation", "user_id", user_id=expired["user_id"], **base)
    ok(ep, "add_moderator", channel_id=ch["id"], user_id=expired["user_id"])


def test_subscriptions_need_a_monetised_channel_and_are_one_per_user(ep: Episode) -> None:
    partner = channel(ep, "partner")
    fan = viewer(ep, partner)
    sub = ok(ep, "create_subscription", channel_id=partner["id"], user_id=fan["id"], tier="2000")
    assert (sub["price_cents"], sub["user_email"]) == (999, fan["email"])
    assert parse(sub["ends_at"]) - parse(sub["created_at"]) == dt.timedelta(days=30)
    refused(ep, "create_subscription", "conflict", "user_id", channel_id=partner["id"], user_id=fan["id"])
    refused(
        ep,
        "create_subscription",
        "rule_violation",
        "user_id",
        channel_id=partner["id"],
        user_id=partner["broadcaster_id"],
    )
    other = viewer(ep, partner)
    refused(
        ep,
        "create_subscription",
        "rule_violation",
        "gifter_id",
        channel_id=partner["id"],
        user_id=other["id"],
        gifter_id=other["id"],
    )
    gift = ok(ep, "create_subscription", channel_id=partner["id"], user_id=other["id"], gifter_id=fan["id"])
    assert gift["is_gift"] and gift["gifter_id"] == fan["id"]
    plain = channel(ep, "")
    refused(
        ep,
        "create_subscription",
        "rule_violation",
        "channel_id",
        channel_id=plain["id"],
        user_id=viewer(ep, plain)["id"],
    )
    lapsed = next(s for s in every(ep, "list_subscriptions", channel_id=partner["id"]) if parse(s["ends_at"]) <= NOW)
    ok(ep, "create_subscription", channel_id=partner["id"], user_id=lapsed["user_id"])
