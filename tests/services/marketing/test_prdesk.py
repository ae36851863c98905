"""Byline PR: media lists, pitch rules (opt-outs, no double pitching), release embargoes, coverage and reports."""

from __future__ import annotations

import datetime as dt
from typing import Any

from compoworld import Episode
from tests.services.helpers import ServiceTools

PR = ServiceTools("prdesk")
WORLD = PR.world
ok, refused, every, first = PR.ok, PR.refused, PR.every, PR.first
POP = WORLD.population
NOW = WORLD.epoch
TEAM = POP.employees[0].email


def iso(days: float) -> str:
    return (NOW + dt.timedelta(days=days)).isoformat()


def draft_release(ep: Episode) -> dict[str, Any]:
    made: dict[str, Any] = ok(
        ep, "create_press_release", headline="We open a Lisbon office", body="Full text.", author_email=TEAM
    )
    return made


def test_journalists_are_world_people_and_lists_belong_to_the_team(ep: Episode) -> None:
    people = {p.email: p for p in POP.people}
    staff = {p.email for p in POP.employees}
    for j in every(ep, "list_journalists"):
        assert people[j["email"]].name == j["name"]
    for ml in every(ep, "list_media_lists"):
        assert ml["owner_email"] in staff
    for r in every(ep, "list_press_releases"):
        assert r["author_email"] in staff and POP.home.name in r["body"]
    refused(ep, "create_media_list", "rule_violation", "owner_email", name="X", owner_email="x@press.io")


def test_a_pitch_skips_opted_out_journalists(ep: Episode) -> None:
    out = first(ep, "journalists", opted_out=True)
    fine = first(ep, "journalists", opted_out=False)
    ml = ok(ep, "create_media_list", name="Launch list", owner_email=TEAM)
    ok(ep, "add_to_media_list", media_list_id=ml["id"], journalist_ids=[out["id"], fine["id"], fine["id"]])
    assert ok(ep, "get_media_list", media_list_id=ml["id"])["journalist_ids"] == [out["id"], fine["id"]]
    pitch = ok(ep, "create_pitch", subject="Story idea", body="Hi", media_list_id=ml["id"], sender_email=TEAM)
    sent = ok(ep, "send_pitch", pitch_id=pitch["id"])
    assert (sent["status"], sent["recipient_ids"], sent["skipped"]) == ("sent", [fine["id"]], 1)
    refused(ep, "send_pitch", "rule_violation", "pitch_id", pitch_id=pitch["id"])
    refused(ep, "update_pitch", "rule_violation", "pitch_id", pitch_id=pitch["id"], subject="Edited")


def test_nobody_is_pitched_twice_about_one_release(ep: Episode) -> None:
    draft = first(ep, "pitches", status="draft", query="AI launch")
    earlier = [
        p for p in every(ep, "list_pitches", status="sent") if p["press_release_id"] == draft["press_release_id"]
    ]
    already = {j for p in earlier for j in p["recipient_ids"]}
    sent = ok(ep, "send_pitch", pitch_id=draft["id"])
    assert already and not already & set(sent["recipient_ids"])
    again = ok(
        ep,
        "create_pitch",
        subject="Reminder",
        body="Hi again",
        media_list_id=draft["media_list_id"],
        press_release_id=draft["press_release_id"],
        sender_email=TEAM,
    )
    refused(ep, "send_pitch", "rule_violation", "pitch_id", pitch_id=again["id"])


def test_a_release_is_pitched_only_once_scheduled(ep: Episode) -> None:
    rel = draft_release(ep)
    ml = first(ep, "media_lists")
    pitch = ok(
        ep,
        "create_pitch",
        subject="Heads up",
        body="Hi",
        media_list_id=ml["id"],
        press_release_id=rel["id"],
        sender_email=TEAM,
    )
    refused(ep, "send_pitch", "rule_violation", "pitch_id", pitch_id=pitch["id"])
    ok(ep, "schedule_press_release", press_release_id=rel["id"], release_at=iso(3), embargo_until=iso(2))
    assert ok(ep, "send_pitch", pitch_id=pitch["id"])["status"] == "sent"


def test_embargoes_lie_between_now_and_the_release(ep: Episode) -> None:
    rel = draft_release(ep)
    args = {"press_release_id": rel["id"]}
    refused(ep, "schedule_press_release", "rule_violation", "release_at", release_at=iso(-1), **args)
    refused(
        ep, "schedule_press_release", "rule_violation", "embargo_until", release_at=iso(2), embargo_until=iso(3), **args
    )
    refused(
        ep,
        "schedule_press_release",
        "rule_violation",
        "embargo_until",
        release_at=iso(2),
        embargo_until=iso(-1),
        **args,
    )
    done = ok(ep, "schedule_press_release", release_at=iso(2), embargo_until=iso(1), **args)
    assert (done["status"], done["embargo_until"][:10]) == ("scheduled", iso(1)[:10])
    published = ok(ep, "publish_press_release", **args)
    assert published["status"] == "published" and published["embargo_until"] is None
    refused(ep, "update_press_release", "rule_violation", "press_release_id", headline="Changed", **args)


def test_withdrawal_is_allowed_within_a_day_of_publication(ep: Episode) -> None:
    old = next(r for r in every(ep, "list_press_releases", status="published"))
    refused(ep, "withdraw_press_release", "rule_violation", "press_release_id", press_release_id=old["id"])
    rel = draft_release(ep)
    refused(ep, "withdraw_press_release", "rule_violation", "press_release_id", press_release_id=rel["id"])
    ok(ep, "publish_press_release", press_release_id=rel["id"])
    assert ok(ep, "withdraw_press_release", press_release_id=rel["id"])["status"] == "withdrawn"
    refused(ep, "publish_press_release", "rule_violation", "press_release_id", press_release_id=rel["id"])


def test_coverage_before_the_embargo_lifts_is_flagged(ep: Episode) -> None:
    sched = first(ep, "press_releases", status="scheduled")
    writer = first(ep, "journalists", opted_out=False)
    clip = ok(
        ep,
        "log_coverage",
        url="https://leaky.example.com/scoop",
        headline="Leaked: the AI launch",
        outlet_id=writer["outlet_id"],
        journalist_id=writer["id"],
        published_at=iso(0),
        press_release_id=sched["id"],
    )
    outlet = ok(ep, "get_outlet", outlet_id=writer["outlet_id"])
    assert (clip["embargo_broken"], clip["reach"]) == (True, outlet["monthly_visitors"])
    refused(
        ep,
        "log_coverage",
        "conflict",
        "url",
        url=clip["url"],
        headline="x",
        outlet_id=outlet["id"],
        published_at=iso(0),
    )
    refused(
        ep,
        "log_coverage",
        "rule_violation",
        "published_at",
        url="https://a.example.com/b",
        headline="x",
        outlet_id=outlet["id"],
        published_at=iso(1),
    )


def test_coverage_report_sums_clips_reach_and_sentiment(ep: Episode) -> None:
    rel = first(ep, "press_releases", status="published")
    clips = every(ep, "list_coverage", press_release_id=rel["id"])
    since, until = iso(-120)[:10], iso(0)[:10]
    rep = ok(ep, "coverage_report", since=since, until=until, press_release_id=rel["id"])
    assert rep["clips"] == len(clips) > 0
    assert rep["total_reach"] == sum(c["reach"] for c in clips)
    assert sum(rep["by_sentiment"].values()) == len(clips)
    assert rep["embargo_breaks"] == sum(c["embargo_broken"] for c in clips)
    refused(ep, "coverage_report", "rule_violation", "until", since=until, until=since)


def test_removing_journalists_needs_them_on_the_list(ep: Episode) -> None:
    ml = first(ep, "media_lists")
    member = ml["journalist_ids"][0]
    after = ok(ep, "remove_from_media_list", media_list_id=ml["id"], journalist_ids=[member])
    assert member not in after["journalist_ids"]
    refused(
        ep,
        "remove_from_media_list",
        "rule_violation",
        "journalist_ids",
        media_list_id=ml["id"],
        journalist_ids=[member],
    )
    refused(
        ep, "add_to_media_list", "not_found", "journalist_ids", media_list_id=ml["id"], journalist_ids=["jour_999999"]
    )
