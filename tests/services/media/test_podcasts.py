"""Airwave Podcasts: audio before publishing, unique numbers per season, private subscribers, analytics."""

from __future__ import annotations

import datetime as dt
from typing import Any

from compoworld import Episode
from tests.services.helpers import ServiceTools

PODS = ServiceTools("podcasts")
WORLD = PODS.world
ok, refused, every = PODS.ok, PODS.refused, PODS.every
POP = WORLD.population
NOW = WORLD.epoch
TODAY = NOW.date()


def show(ep: Episode, private: bool = False) -> dict[str, Any]:
    return every(ep, "list_shows", private=private)[0]


def episode(ep: Episode, sh: dict[str, Any], **filters: Any) -> dict[str, Any]:
    return every(ep, "list_episodes", show_id=sh["id"], **filters)[0]


def new_draft(ep: Episode, sh: dict[str, Any], number: int | None, season: int = 3) -> dict[str, Any]:
    made = ok(
        ep,
        "create_episode",
        show_id=sh["id"],
        title="Fresh ideas",
        summary="",
        type="full",
        season=season,
        number=number,
    )
    return dict(made)


def test_hosts_are_staff_and_downloads_belong_to_published_episodes() -> None:
    ep = Episode(WORLD)
    staff = {p.email: p for p in POP.employees}
    for sh in every(ep, "list_shows"):
        assert staff[sh["owner_email"]].name == sh["author"]
        report = ok(ep, "show_analytics", show_id=sh["id"])
        published = every(ep, "list_episodes", show_id=sh["id"], status="published")
        per_episode = sum(ok(ep, "episode_analytics", episode_id=e["id"])["total_downloads"] for e in published)
        assert report["total_downloads"] == per_episode > 0
        assert len(report["days"]) == 14 and report["end_date"] == TODAY.isoformat()
    private = show(ep, private=True)
    assert all(s["email"] in staff for s in every(ep, "list_subscribers", show_id=private["id"]))


def test_an_episode_is_published_only_with_its_audio(ep: Episode) -> None:
    sh = show(ep)
    silent = next(
        e
        for e in every(ep, "list_episodes", show_id=sh["id"], status="draft")
        if e["audio_url"] is None and e["type"] == "full"
    )
    refused(ep, "publish_episode", "rule_violation", "episode_id", episode_id=silent["id"])
    refused(
        ep,
        "upload_audio",
        "rule_violation",
        "file_size",
        episode_id=silent["id"],
        filename="take1.mp3",
        file_size=500_000_001,
    )
    refused(
        ep,
        "upload_audio",
        "invalid_arguments",
        "filename",
        episode_id=silent["id"],
        filename="take1.flac",
        file_size=1000,
    )
    up = ok(ep, "upload_audio", episode_id=silent["id"], filename="take 1.mp3", file_size=32_000_000)
    assert up["duration"] == 2000 and up["audio_url"].endswith("take_1.mp3")
    live = ok(ep, "publish_episode", episode_id=silent["id"])
    assert (live["status"], live["published_at"] is not None) == ("published", True)
    refused(ep, "publish_episode", "conflict", "episode_id", episode_id=silent["id"])
    refused(
        ep, "upload_audio", "rule_violation", "episode_id", episode_id=silent["id"], filename="fix.mp3", file_size=1000
    )


def test_full_episodes_need_a_number_unique_in_their_season(ep: Episode) -> None:
    sh = show(ep)
    taken = episode(ep, sh, status="published", type="full")
    refused(
        ep,
        "create_episode",
        "conflict",
        "number",
        show_id=sh["id"],
        title="Dup",
        summary="",
        type="full",
        season=taken["season"],
        number=taken["number"],
    )
    other_show = every(ep, "list_shows", private=False)[1]
    ok(
        ep,
        "create_episode",
        show_id=other_show["id"],
        title="Same number elsewhere",
        summary="",
        type="full",
        season=taken["season"],
        number=taken["number"] + 50,
    )
    draft = new_draft(ep, sh, None)
    ok(ep, "upload_audio", episode_id=draft["id"], filename="a.m4a", file_size=10_000_000)
    refused(ep, "publish_episode", "rule_violation", "episode_id", episode_id=draft["id"])
    ok(ep, "update_episode", episode_id=draft["id"], number=1)
    refused(
        ep,
        "update_episode",
        "conflict",
        "number",
        episode_id=draft["id"],
        season=taken["season"],
        number=taken["number"],
    )
    assert ok(ep, "publish_episode", episode_id=draft["id"])["number"] == 1
    refused(ep, "update_episode", "rule_violation", "number", episode_id=draft["id"], number=2)


def test_trailers_and_bonus_episodes_may_go_without_a_number(ep: Episode) -> None:
    sh = show(ep)
    bonus = episode(ep, sh, type="bonus")
    assert bonus["number"] is None
    ok(ep, "upload_audio", episode_id=bonus["id"], filename="bonus.wav", file_size=8_000_000)
    assert ok(ep, "publish_episode", episode_id=bonus["id"])["status"] == "published"


def test_scheduling_needs_audio_and_a_future_time(ep: Episode) -> None:
    sh = show(ep)
    ready = next(e for e in every(ep, "list_episodes", show_id=sh["id"], status="draft") if e["audio_url"])
    refused(
        ep,
        "schedule_episode",
        "rule_violation",
        "scheduled_for",
        episode_id=ready["id"],
        scheduled_for=(NOW - dt.timedelta(hours=1)).isoformat(),
    )
    later = (NOW + dt.timedelta(days=2)).isoformat()
    done = ok(ep, "schedule_episode", episode_id=ready["id"], scheduled_for=later)
    assert (done["status"], done["scheduled_for"]) == ("scheduled", later.replace("+00:00", "Z"))
    silent = next(e for e in every(ep, "list_episodes", show_id=sh["id"], status="draft") if not e["audio_url"])
    refused(ep, "schedule_episode", "rule_violation", "episode_id", episode_id=silent["id"], scheduled_for=later)
    published = episode(ep, sh, status="published")
    refused(ep, "schedule_episode", "rule_violation", "episode_id", episode_id=published["id"], scheduled_for=later)


def test_unpublishing_returns_to_draft_and_only_drafts_are_deleted(ep: Episode) -> None:
    sh = show(ep)
    published = episode(ep, sh, status="published", type="full")
    refused(ep, "delete_episode", "rule_violation", "episode_id", episode_id=published["id"])
    back = ok(ep, "unpublish_episode", episode_id=published["id"])
    assert (back["status"], back["published_at"]) == ("draft", None)
    refused(ep, "unpublish_episode", "conflict", "episode_id", episode_id=published["id"])
    refused(ep, "episode_analytics", "rule_violation", "episode_id", episode_id=published["id"])
    ok(ep, "delete_episode", episode_id=published["id"])
    new_draft(ep, sh, published["number"], season=published["season"])


def test_private_shows_take_subscribers_up_to_their_limit_and_stay_private(ep: Episode) -> None:
    private = show(ep, private=True)
    public = show(ep)
    refused(ep, "create_subscriber", "rule_violation", "show_id", show_id=public["id"], email=POP.employees[0].email)
    existing = every(ep, "list_subscribers", show_id=private["id"])
    refused(ep, "create_subscriber", "conflict", "email", show_id=private["id"], email=existing[0]["email"])
    known = {s["email"] for s in existing}
    fresh = [p.email for p in POP.people if p.email not in known]
    for email in fresh[: private["subscriber_limit"] - len(existing)]:
        sub = ok(ep, "create_subscriber", show_id=private["id"], email=email)
        assert sub["feed_url"].endswith(sub["id"])
    refused(ep, "create_subscriber", "rule_violation", "show_id", show_id=private["id"], email=fresh[-1])
    ok(ep, "delete_subscriber", subscriber_id=existing[0]["id"])
    ok(ep, "create_subscriber", show_id=private["id"], email=fresh[-1])
    refused(ep, "update_show", "rule_violation", "private", show_id=private["id"], private=False)


def test_making_a_public_show_private_gives_it_a_subscriber_limit(ep: Episode) -> None:
    public = show(ep)
    made = ok(ep, "update_show", show_id=public["id"], private=True)
    assert made["private"] and made["subscriber_limit"] == 100
    ok(
        ep,
        "create_subscriber",
        show_id=public["id"],
        email=POP.customers[0].name.lower().replace(" ", "") + "@example.com",
    )


def test_analytics_ranges_run_forward_over_at_most_ninety_days(ep: Episode) -> None:
    sh = show(ep)
    refused(
        ep,
        "show_analytics",
        "rule_violation",
        "start_date",
        show_id=sh["id"],
        start_date=TODAY.isoformat(),
        end_date=(TODAY - dt.timedelta(days=1)).isoformat(),
    )
    refused(
        ep,
        "show_analytics",
        "rule_violation",
        "start_date",
        show_id=sh["id"],
        start_date=(TODAY - dt.timedelta(days=90)).isoformat(),
        end_date=TODAY.isoformat(),
    )
    full = ok(
        ep,
        "show_analytics",
        show_id=sh["id"],
        start_date=(TODAY - dt.timedelta(days=89)).isoformat(),
        end_date=TODAY.isoformat(),
    )
    assert len(full["days"]) == 90 and full["total_downloads"] == sum(d["downloads"] for d in full["days"])
    last_week = ok(
        ep,
        "show_analytics",
        show_id=sh["id"],
        start_date=(TODAY - dt.timedelta(days=6)).isoformat(),
        end_date=TODAY.isoformat(),
    )
    assert last_week["total_downloads"] == sum(d["downloads"] for d in full["days"][-7:])
