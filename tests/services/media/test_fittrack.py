"""Stridelog: activities and gear distance, gear rules, segments and records, visibility, kudos, comments, clubs."""

from __future__ import annotations

import datetime as dt
from typing import Any

from compoworld import Episode
from tests.services.helpers import ServiceTools

FT = ServiceTools("fittrack")
WORLD = FT.world
ok, refused, every = FT.ok, FT.refused, FT.every
POP = WORLD.population


def ago(**delta: float) -> str:
    return (WORLD.epoch - dt.timedelta(**delta)).isoformat()


def athletes(ep: Episode) -> list[dict[str, Any]]:
    return every(ep, "list_athletes")


def gear_of(ep: Episode, athlete_id: str, kind: str = "shoes", status: str = "active") -> dict[str, Any]:
    return every(ep, "list_gear", athlete_id=athlete_id, kind=kind, status=status)[0]


def run(ep: Episode, athlete_id: str, **kw: Any) -> dict[str, Any]:
    args = dict(name="Test run", sport_type="Run", start_date=ago(hours=2), distance=5000.0, moving_time=1500,
                elapsed_time=1600) | kw  # fmt: skip
    return dict(ok(ep, "create_activity", athlete_id=athlete_id, **args))


def test_seeded_records_add_up() -> None:
    ep = Episode(WORLD)
    people = {p.email: p for p in POP.people}
    acts = every(ep, "list_activities")
    for a in athletes(ep):
        assert people[a["email"]].first_name == a["firstname"]
    for g in every(ep, "list_gear"):
        on = sum(x["distance"] for x in acts if x["gear_id"] == g["id"])
        assert abs(g["distance"] - on - (100_000 if g["status"] == "retired" else 0)) < 1
    for x in acts:
        assert x["moving_time"] <= x["elapsed_time"]
        assert x["kudos_count"] == len(every(ep, "list_kudos_list", activity_id=x["id"]))
    for c in every(ep, "list_clubs"):
        live = every(ep, "list_club_memberships", club_id=c["id"], status="active")
        assert c["member_count"] == len(live)
    assert {x["visibility"] for x in acts} == {"everyone", "followers_only", "only_me"}


def test_activity_distance_counts_on_its_gear_and_times_are_checked() -> None:
    ep = Episode(WORLD)
    a = athletes(ep)[0]
    shoes = gear_of(ep, a["id"])
    act = run(ep, a["id"], gear_id=shoes["id"])
    assert gear_of(ep, a["id"])["distance"] == round(shoes["distance"] + 5000.0, 1)
    refused(ep, "create_activity", "rule_violation", "moving_time", athlete_id=a["id"], name="x", sport_type="Run",
            start_date=ago(hours=1), distance=1000.0, moving_time=700, elapsed_time=600)  # fmt: skip
    refused(ep, "create_activity", "rule_violation", "start_date", athlete_id=a["id"], name="x", sport_type="Run",
            start_date=ago(hours=-1), distance=1000.0, moving_time=300, elapsed_time=600)  # fmt: skip
    refused(ep, "update_activity", "rule_violation", "moving_time", activity_id=act["id"], moving_time=99999)
    ok(ep, "delete_activity", activity_id=act["id"])
    assert gear_of(ep, a["id"])["distance"] == shoes["distance"]


def test_gear_must_fit_the_sport_the_athlete_and_not_be_retired() -> None:
    ep = Episode(WORLD)
    a, b = athletes(ep)[0], athletes(ep)[1]
    bike = gear_of(ep, a["id"], kind="bike")
    refused(ep, "create_activity", "rule_violation", "gear_id", athlete_id=a["id"], name="x", sport_type="Run",
            start_date=ago(hours=1), distance=1000.0, moving_time=300, elapsed_time=400, gear_id=bike["id"])  # fmt: skip
    refused(ep, "create_activity", "rule_violation", "gear_id", athlete_id=b["id"], name="x", sport_type="Ride",
            start_date=ago(hours=1), distance=1000.0, moving_time=300, elapsed_time=400, gear_id=bike["id"])  # fmt: skip
    shoes = gear_of(ep, a["id"])
    ok(ep, "retire_gear", gear_id=shoes["id"])
    refused(ep, "create_activity", "rule_violation", "gear_id", athlete_id=a["id"], name="x", sport_type="Run",
            start_date=ago(hours=1), distance=1000.0, moving_time=300, elapsed_time=400, gear_id=shoes["id"])  # fmt: skip
    ok(ep, "reactivate_gear", gear_id=shoes["id"])
    run(ep, a["id"], gear_id=shoes["id"])


def test_changing_an_activitys_gear_moves_its_distance() -> None:
    ep = Episode(WORLD)
    a = athletes(ep)[0]
    first, second = every(ep, "list_gear", athlete_id=a["id"], kind="shoes", status="active")[:2]
    act = run(ep, a["id"], gear_id=first["id"], distance=7000.0)
    ok(ep, "update_activity", activity_id=act["id"], gear_id=second["id"])
    now = {g["id"]: g["distance"] for g in every(ep, "list_gear", athlete_id=a["id"])}
    assert now[first["id"]] == first["distance"] and now[second["id"]] == round(second["distance"] + 7000.0, 1)


def test_segment_efforts_need_the_right_sport_and_length_and_rank_personal_records() -> None:
    ep = Episode(WORLD)
    a = athletes(ep)[0]
    seg = next(s for s in every(ep, "list_segments", activity_type="Run") if s["distance"] > 1000)
    short = run(ep, a["id"], distance=seg["distance"] - 1)
    refused(ep, "record_segment_effort", "rule_violation", "segment_id", activity_id=short["id"], segment_id=seg["id"],
            elapsed_time=100)  # fmt: skip
    ride = next(s for s in every(ep, "list_segments", activity_type="Ride"))
    long = run(ep, a["id"], distance=seg["distance"] * 3)
    refused(ep, "record_segment_effort", "rule_violation", "segment_id", activity_id=long["id"], segment_id=ride["id"],
            elapsed_time=100)  # fmt: skip
    refused(ep, "record_segment_effort", "rule_violation", "elapsed_time", activity_id=long["id"],
            segment_id=seg["id"], elapsed_time=long["elapsed_time"] + 1)  # fmt: skip
    effort = ok(ep, "record_segment_effort", activity_id=long["id"], segment_id=seg["id"], elapsed_time=1)
    assert effort["pr_rank"] == 1
    ranks = sorted(
        (e["elapsed_time"], e["pr_rank"]) for e in every(ep, "list_segment_efforts", segment_id=seg["id"],
                                                         athlete_id=a["id"])
    )  # fmt: skip
    assert [r for _, r in ranks[:3]] == [1, 2, 3][: len(ranks[:3])]
    refused(ep, "record_segment_effort", "conflict", "segment_id", activity_id=long["id"], segment_id=seg["id"],
            elapsed_time=2)  # fmt: skip
    board = ok(ep, "get_segment_leaderboard", segment_id=seg["id"])
    assert board[0]["athlete_id"] == a["id"] and board[0]["elapsed_time"] == 1
    hidden = run(ep, athletes(ep)[1]["id"], distance=seg["distance"] * 2, visibility="only_me")
    ok(ep, "record_segment_effort", activity_id=hidden["id"], segment_id=seg["id"], elapsed_time=1)
    board = ok(ep, "get_segment_leaderboard", segment_id=seg["id"])
    assert athletes(ep)[1]["id"] not in [r["athlete_id"] for r in board if r["elapsed_time"] == 1]


def test_kudos_follow_visibility_and_go_once_never_to_oneself() -> None:
    ep = Episode(WORLD)
    people = athletes(ep)
    owner = next(p for p in people if p["follower_ids"])
    follower = next(p for p in people if p["id"] in owner["follower_ids"])
    stranger = next(p for p in people if p["id"] not in owner["follower_ids"] and p["id"] != owner["id"])
    act = run(ep, owner["id"], visibility="followers_only")
    refused(ep, "give_kudos", "rule_violation", "athlete_id", activity_id=act["id"], athlete_id=owner["id"])
    refused(ep, "give_kudos", "rule_violation", "activity_id", activity_id=act["id"], athlete_id=stranger["id"])
    ok(ep, "give_kudos", activity_id=act["id"], athlete_id=follower["id"])
    refused(ep, "give_kudos", "conflict", "athlete_id", activity_id=act["id"], athlete_id=follower["id"])
    secret = run(ep, owner["id"], visibility="only_me")
    refused(ep, "give_kudos", "rule_violation", "activity_id", activity_id=secret["id"], athlete_id=follower["id"])
    assert ok(ep, "get_activity", activity_id=act["id"])["kudos_count"] == 1


def test_only_the_author_or_the_owner_deletes_a_comment() -> None:
    ep = Episode(WORLD)
    owner, author, other = athletes(ep)[:3]
    act = run(ep, owner["id"])
    c = ok(ep, "comment_on_activity", activity_id=act["id"], athlete_id=author["id"], text="Strong finish!")
    refused(ep, "delete_comment", "rule_violation", "athlete_id", comment_id=c["id"], athlete_id=other["id"])
    ok(ep, "delete_comment", comment_id=c["id"], athlete_id=owner["id"])
    assert ok(ep, "get_activity", activity_id=act["id"])["comment_count"] == 0


def test_private_clubs_queue_join_requests_and_keep_an_admin() -> None:
    ep = Episode(WORLD)
    private = every(ep, "list_clubs", private=True)[0]
    inside = {m["athlete_id"] for m in every(ep, "list_club_memberships", club_id=private["id"])}
    newcomer = next(a for a in athletes(ep) if a["id"] not in inside)
    req = ok(ep, "join_club", club_id=private["id"], athlete_id=newcomer["id"])
    assert req["status"] == "pending"
    refused(ep, "join_club", "conflict", "athlete_id", club_id=private["id"], athlete_id=newcomer["id"])
    ok(ep, "approve_club_membership", club_membership_id=req["id"])
    assert every(ep, "list_clubs", private=True)[0]["member_count"] == private["member_count"] + 1
    admin = every(ep, "list_club_memberships", club_id=private["id"], role="admin")[0]
    refused(ep, "leave_club", "rule_violation", "athlete_id", club_id=private["id"], athlete_id=admin["athlete_id"])
    ok(ep, "leave_club", club_id=private["id"], athlete_id=newcomer["id"])
    assert every(ep, "list_clubs", private=True)[0]["member_count"] == private["member_count"]


def test_stats_total_the_athletes_activities() -> None:
    ep = Episode(WORLD)
    a = athletes(ep)[0]
    acts = every(ep, "list_activities", athlete_id=a["id"])
    stats = ok(ep, "get_athlete_stats", athlete_id=a["id"])
    assert sum(t["count"] for t in stats["all_time"]) == len(acts)
    runs = next(t for t in stats["all_time"] if t["sport_type"] == "Run")
    assert abs(runs["distance"] - sum(x["distance"] for x in acts if x["sport_type"] == "Run")) < 0.5
    assert stats["biggest_distance"] == max(x["distance"] for x in acts)
