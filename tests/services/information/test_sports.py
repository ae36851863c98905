"""Matchday Sports: scores follow the clock, tables and scorers follow the results, follows raise alerts once."""

from __future__ import annotations

from typing import Any

from compoworld import Episode
from tests.services.helpers import ServiceTools

SP = ServiceTools("sports")
WORLD = SP.world
ok, refused, every = SP.ok, SP.refused, SP.every
POP = WORLD.population
STAFF = {p.email for p in POP.employees}
LEAGUES = (39, 78, 98)


def fixtures(ep: Episode, league: int, **args: Any) -> list[dict[str, Any]]:
    return list(ok(ep, "list_fixtures", league_id=league, **args))


def test_a_live_match_shows_the_goals_scored_so_far(ep: Episode) -> None:
    live = ok(ep, "list_live_fixtures")
    assert live
    for f in live:
        assert f["status"] in ("1H", "HT", "2H") and 0 < f["elapsed"] <= 90
        assert all(g["minute"] <= f["elapsed"] for g in f["events"])
        assert f["home_goals"] == sum(g["team_id"] == f["home_team_id"] for g in f["events"])
        assert f["away_goals"] == sum(g["team_id"] == f["away_team_id"] for g in f["events"])
        assert ok(ep, "get_fixture", fixture_id=f["id"]) == f
        assert f in fixtures(ep, f["league_id"], status=f["status"])


def test_fixture_statuses_follow_the_kickoff(ep: Episode) -> None:
    for f in fixtures(ep, 39):
        if f["status"] in ("NS", "PST"):
            assert (f["home_goals"], f["away_goals"], f["events"]) == (None, None, [])
        if f["status"] == "FT":
            assert f["home_goals"] + f["away_goals"] == len(f["events"])
    kinds = {f["status"] for f in fixtures(ep, 39)}
    assert {"NS", "FT"} <= kinds
    past = ok(ep, "list_leagues", country_code="GB")[0]["seasons"][0]
    assert {f["status"] for f in fixtures(ep, 39, season=past["year"])} <= {"FT", "PST"}


def test_the_table_is_computed_from_finished_matches(ep: Episode) -> None:
    for league in LEAGUES:
        table = ok(ep, "get_standings", league_id=league)
        done = [f for f in fixtures(ep, league) if f["status"] == "FT"]
        assert sum(s["played"] for s in table) == 2 * len(done)
        assert sum(s["goals_for"] for s in table) == sum(f["home_goals"] + f["away_goals"] for f in done)
        for k, s in enumerate(table):
            assert s["rank"] == k + 1 and s["points"] == 3 * s["win"] + s["draw"]
            assert s["goals_diff"] == s["goals_for"] - s["goals_against"]
        assert [s["points"] for s in table] == sorted((s["points"] for s in table), reverse=True)


def test_top_scorers_count_goals_of_finished_matches(ep: Episode) -> None:
    done = [f for f in fixtures(ep, 78) if f["status"] == "FT"]
    top = ok(ep, "top_scorers", league_id=78, limit=5)
    for p in top:
        assert p["goals"] == sum(g["player_id"] == p["id"] for f in done for g in f["events"])
        assert ok(ep, "get_player", player_id=p["id"]) == p
        assert p in ok(ep, "list_players", team_id=p["team_id"])
    assert [p["goals"] for p in top] == sorted((p["goals"] for p in top), reverse=True)


def test_head_to_head_and_filters_refuse_mismatched_clubs(ep: Episode) -> None:
    meetings = ok(ep, "head_to_head", team_a=42, team_b=49)
    assert len(meetings) == 6 and all({f["home_team_id"], f["away_team_id"]} == {42, 49} for f in meetings)
    refused(ep, "head_to_head", "rule_violation", "team_b", team_a=42, team_b=157)
    refused(ep, "list_fixtures", "rule_violation", "team_id", league_id=39, team_id=157)
    refused(ep, "list_fixtures", "not_found", "season", league_id=39, season=2001)
    refused(ep, "get_standings", "not_found", "league_id", league_id=1)
    rounds = ok(ep, "list_rounds", league_id=98)
    assert len(rounds) == 18 and sum(r["current"] for r in rounds) == 1


def test_the_home_company_sponsors_a_club(ep: Episode) -> None:
    sponsored = [t for t in ok(ep, "list_teams") if t["shirt_sponsor"] == POP.home.name]
    assert len(sponsored) == 1
    assert ok(ep, "get_team", team_id=sponsored[0]["id"]) == sponsored[0]
    others = {t["shirt_sponsor"] for t in ok(ep, "list_teams") if t["shirt_sponsor"]}
    assert others - {POP.home.name} <= {c.name for c in POP.customers}


def test_seeded_follows_belong_to_staff_and_alerts_match_results(ep: Episode) -> None:
    follows = every(ep, "list_follows")
    assert all(f["follower_email"] in STAFF for f in follows)
    assert {f["status"] for f in follows} == {"active", "muted"}
    for a in every(ep, "list_alerts"):
        f = ok(ep, "get_fixture", fixture_id=a["fixture_id"])
        assert f["status"] == "FT" and f"{f['home_goals']}-{f['away_goals']}" in a["message"]


def test_a_club_is_followed_once_by_staff_only(ep: Episode) -> None:
    who = POP.employees[-1].email
    ok(ep, "create_follow", follower_email=who, team_id=287)
    refused(ep, "create_follow", "conflict", "team_id", follower_email=who, team_id=287)
    refused(ep, "create_follow", "rule_violation", "follower_email", follower_email=POP.contacts[0].email, team_id=42)
    refused(ep, "create_follow", "not_found", "team_id", follower_email=who, team_id=12345)


def test_syncing_raises_each_goal_and_final_whistle_once(ep: Episode) -> None:
    follow = next(f for f in every(ep, "list_follows", status="active") if f["notify_goals"])
    made = ok(ep, "sync_alerts", follow_id=follow["id"])
    assert made and {a["kind"] for a in made} == {"goal", "full_time"}
    for a in made:
        f = ok(ep, "get_fixture", fixture_id=a["fixture_id"])
        assert follow["team_id"] in (f["home_team_id"], f["away_team_id"])
    finals = [a for a in made if a["kind"] == "full_time"]
    goals = sum(len(ok(ep, "get_fixture", fixture_id=a["fixture_id"])["events"]) for a in finals)
    assert len(made) - len(finals) >= goals
    assert ok(ep, "sync_alerts", follow_id=follow["id"]) == []
    ok(ep, "mute_follow", follow_id=follow["id"])
    refused(ep, "sync_alerts", "rule_violation", "follow_id", follow_id=follow["id"])


def test_alerts_are_read_once_and_go_with_their_follow(ep: Episode) -> None:
    alert = SP.first(ep, "alerts", status="unread")
    assert ok(ep, "mark_read_alert", alert_id=alert["id"])["status"] == "read"
    refused(ep, "mark_read_alert", "rule_violation", "alert_id", alert_id=alert["id"])
    ok(ep, "delete_follow", follow_id=alert["follow_id"])
    assert all(a["follow_id"] != alert["follow_id"] for a in every(ep, "list_alerts"))
    refused(ep, "get_alert", "not_found", "alert_id", alert_id=alert["id"])
