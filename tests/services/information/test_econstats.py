"""Econbase: transforms follow the levels, vintages show what was known, dashboards hold series once."""

from __future__ import annotations

import itertools
from typing import Any

from compoworld import Episode
from tests.services.helpers import ServiceTools

EC = ServiceTools("econstats")
WORLD = EC.world
ok, refused, every = EC.ok, EC.refused, EC.every
POP = WORLD.population
STAFF = {p.email for p in POP.employees}


def values(ep: Episode, series: str, **args: Any) -> list[tuple[str, Any]]:
    got = ok(ep, "get_observations", series_id=series, **args)
    return [(o["date"], o["value"]) for o in got["observations"]]


def test_series_metadata_matches_its_observations(ep: Episode) -> None:
    for s in ok(ep, "search_series")[:6]:
        obs = values(ep, s["id"])
        assert obs[0][0] == s["observation_start"] and obs[-1][0] == s["observation_end"]
        assert ok(ep, "get_series", series_id=s["id"]) == s
    refused(ep, "get_series", "not_found", "series_id", series_id="NOPE")


def test_changes_and_growth_rates_follow_from_the_levels(ep: Episode) -> None:
    lin = values(ep, "CPIAUCSL", observation_start="2024-01-01")
    chg = dict(values(ep, "CPIAUCSL", observation_start="2024-01-01", units="chg"))
    pc1 = dict(values(ep, "CPIAUCSL", observation_start="2025-01-01", units="pc1"))
    level = dict(lin)
    for (_, v0), (d1, v1) in itertools.pairwise(lin):
        assert abs(chg[d1] - (v1 - v0)) < 0.002
    for d, growth in pc1.items():
        year_ago = f"{int(d[:4]) - 1}{d[4:]}"
        assert abs(growth - 100 * (level[d] - level[year_ago]) / level[year_ago]) < 0.002


def test_aggregation_averages_to_a_lower_frequency_only(ep: Episode) -> None:
    monthly = values(ep, "UNRATE", observation_start="2024-01-01", observation_end="2024-12-31")
    quarterly = values(ep, "UNRATE", observation_start="2024-01-01", observation_end="2024-12-31", frequency="q")
    assert len(quarterly) == 4
    assert abs(quarterly[0][1] - round(sum(v for _, v in monthly[:3]) / 3, 3)) < 0.002
    refused(ep, "get_observations", "rule_violation", "frequency", series_id="GDP", frequency="m")


def test_vintages_show_first_estimates_then_revisions(ep: Episode) -> None:
    dates = ok(ep, "list_vintage_dates", series_id="PAYEMS")
    assert dates == sorted(dates) and len(dates) >= 10
    latest = dict(values(ep, "PAYEMS"))
    early = dict(values(ep, "PAYEMS", vintage_date=dates[-4]))
    assert len(early) == len(latest) - 3
    newest = sorted(early)
    assert early[newest[-1]] != latest[newest[-1]] and early[newest[-2]] != latest[newest[-2]]
    assert all(early[d] == latest[d] for d in newest[:-2])
    cpi_then = dict(values(ep, "CPIAUCSL", vintage_date=dates[-4]))
    cpi_now = dict(values(ep, "CPIAUCSL"))
    assert all(cpi_now[d] == v for d, v in cpi_then.items())
    refused(ep, "get_observations", "rule_violation", "vintage_date", series_id="GDP", vintage_date="2099-01-01")


def test_categories_and_releases_lead_to_their_series(ep: Episode) -> None:
    root = ok(ep, "get_category")
    found = set()
    stack = list(root["children"])
    while stack:
        cat = ok(ep, "get_category", category_id=stack.pop())
        found.update(cat["series"])
        stack.extend(cat["children"])
    every_series = {s["id"] for s in ok(ep, "search_series")}
    assert found == every_series
    released = {sid for r in ok(ep, "list_releases") for sid in r["series"]}
    assert released == every_series
    refused(ep, "get_category", "not_found", "category_id", category_id=999999)


def test_release_dates_include_the_schedule(ep: Episode) -> None:
    past = ok(ep, "list_release_dates", release_id=50, include_upcoming=False)
    ahead = ok(ep, "list_release_dates", release_id=50)
    assert past and len(ahead) > len(past) and ahead[: len(past)] == past
    payems = ok(ep, "get_series", series_id="PAYEMS")
    assert payems["release_id"] == 50 and payems["last_updated"] in ahead
    refused(ep, "list_release_dates", "not_found", "release_id", release_id=4242)


def test_seeded_dashboards_belong_to_staff_and_snapshots_match_the_data(ep: Episode) -> None:
    boards = every(ep, "list_dashboards")
    assert {b["status"] for b in boards} == {"active", "archived"} and all(b["owner_email"] in STAFF for b in boards)
    board = EC.first(ep, "dashboards", status="active")
    for p in ok(ep, "dashboard_snapshot", dashboard_id=board["id"]):
        obs = values(ep, p["series_id"], units=p["units"])
        assert (p["date"], p["value"]) == obs[-1] and p["previous"] == obs[-2][1]


def test_a_series_is_on_a_dashboard_once(ep: Episode) -> None:
    board = EC.first(ep, "dashboards", status="active")
    on = {p["series_id"] for p in every(ep, "list_panels", dashboard_id=board["id"])}
    free = next(s["id"] for s in ok(ep, "search_series") if s["id"] not in on)
    panel = ok(ep, "add_series", dashboard_id=board["id"], series_id=free, units="pch")
    assert panel["units"] == "pch" and panel["title"] == ok(ep, "get_series", series_id=free)["title"]
    refused(ep, "add_series", "conflict", "series_id", dashboard_id=board["id"], series_id=free)
    refused(ep, "add_series", "not_found", "series_id", dashboard_id=board["id"], series_id="NOPE")


def test_a_dashboard_holds_at_most_twelve_series(ep: Episode) -> None:
    board = ok(ep, "create_dashboard", name="Everything", owner_email=POP.employees[0].email)
    for s in ok(ep, "search_series")[:12]:
        ok(ep, "add_series", dashboard_id=board["id"], series_id=s["id"])
    assert len(every(ep, "list_panels", dashboard_id=board["id"])) == 12
    panel = every(ep, "list_panels", dashboard_id=board["id"])[0]
    ok(ep, "delete_panel", panel_id=panel["id"])
    ok(ep, "add_series", dashboard_id=board["id"], series_id=panel["series_id"], units="log")


def test_archived_dashboards_are_frozen_and_names_unique_per_owner(ep: Episode) -> None:
    board = EC.first(ep, "dashboards", status="archived")
    refused(ep, "add_series", "rule_violation", "dashboard_id", dashboard_id=board["id"], series_id="GDP")
    panel = EC.first(ep, "panels", dashboard_id=board["id"])
    refused(ep, "update_panel", "rule_violation", "panel_id", panel_id=panel["id"], units="pc1")
    ok(ep, "unarchive_dashboard", dashboard_id=board["id"])
    assert ok(ep, "update_panel", panel_id=panel["id"], units="pc1")["units"] == "pc1"
    refused(ep, "create_dashboard", "conflict", "name", name=board["name"], owner_email=board["owner_email"])
    refused(ep, "create_dashboard", "rule_violation", "owner_email", name="X", owner_email=POP.contacts[0].email)
