"""Hazardwatch: one earthquake catalog behind every query, FEMA declarations by state, sites raise alerts once."""

from __future__ import annotations

import datetime as dt

from compoworld import Episode
from compoworld.engine.state import EPOCH
from tests.services.helpers import ServiceTools

HZ = ServiceTools("hazards")
WORLD = HZ.world
ok, refused, every = HZ.ok, HZ.refused, HZ.every
POP = WORLD.population
STAFF = {p.email for p in POP.employees}
TOKYO = {"latitude": 35.6762, "longitude": 139.6503}


def test_search_count_and_lookup_agree(ep: Episode) -> None:
    found = ok(ep, "search_earthquakes", minmagnitude=3.5, limit=200)
    count = ok(ep, "count_earthquakes", minmagnitude=3.5)
    assert len(found) == count["count"] > 0 and count["max_mag"] == max(q["mag"] for q in found)
    assert [q["time"] for q in found] == sorted((q["time"] for q in found), reverse=True)
    for q in found[:10]:
        assert q["mag"] >= 3.5 and ok(ep, "get_earthquake", event_id=q["id"]) == q
    refused(ep, "get_earthquake", "not_found", "event_id", event_id="zz00000999")


def test_a_circle_search_keeps_events_within_the_radius(ep: Episode) -> None:
    near = ok(ep, "search_earthquakes", maxradiuskm=400, limit=200, **TOKYO)
    assert near and all(q["distance_km"] <= 400 and q["region"] == "Japan" for q in near)
    biggest = ok(ep, "search_earthquakes", orderby="magnitude", limit=5)
    assert [q["mag"] for q in biggest] == sorted((q["mag"] for q in biggest), reverse=True)
    refused(ep, "search_earthquakes", "rule_violation", "maxradiuskm", maxradiuskm=100, latitude=35.0)


def test_time_windows_are_checked(ep: Episode) -> None:
    end = EPOCH.isoformat()
    refused(ep, "search_earthquakes", "rule_violation", "endtime", starttime=end, endtime="2025-01-01T00:00:00Z")
    refused(ep, "count_earthquakes", "rule_violation", "endtime", starttime="2024-01-01T00:00:00Z", endtime=end)
    refused(
        ep,
        "search_earthquakes",
        "rule_violation",
        "starttime",
        starttime="1999-06-01T00:00:00Z",
        endtime="1999-07-01T00:00:00Z",
    )


def test_feeds_hold_the_recent_events_of_their_level(ep: Episode) -> None:
    week = ok(ep, "get_summary_feed", level="2.5", period="week")
    start = (EPOCH - dt.timedelta(days=7)).isoformat()
    assert len(week) == ok(ep, "count_earthquakes", starttime=start)["count"]
    day = ok(ep, "get_summary_feed", level="2.5", period="day")
    assert day and all(q["status"] == "automatic" for q in day)
    assert all(q["mag"] >= 4.5 for q in ok(ep, "get_summary_feed", level="4.5", period="month"))
    for q in ok(ep, "get_summary_feed", level="4.5", period="month"):
        assert (q["alert"] is not None) and q["url"].endswith(q["id"])


def test_declarations_filter_by_state_county_and_type(ep: Episode) -> None:
    ca = ok(ep, "list_declarations", state="CA")
    assert ca and all(d["state"] == "CA" for d in ca)
    assert [d["declaration_date"] for d in ca] == sorted((d["declaration_date"] for d in ca), reverse=True)
    sf = ok(ep, "list_declarations", state="CA", county="San Francisco")
    assert sf and all("San Francisco" in d["designated_areas"] for d in sf)
    for d in ok(ep, "list_declarations", declaration_type="FM"):
        assert d["incident_type"] == "Fire" and ok(ep, "get_declaration", disaster_number=d["disaster_number"]) == d
    refused(ep, "list_declarations", "not_found", "county", county="Kings")
    refused(ep, "list_declarations", "not_found", "state", state="VT")
    refused(ep, "get_declaration", "not_found", "disaster_number", disaster_number=1)


def test_seeded_sites_belong_to_staff_with_alerts_in_every_state(ep: Episode) -> None:
    sites = every(ep, "list_sites")
    assert all(s["owner_email"] in STAFF for s in sites)
    assert {s["status"] for s in sites} == {"active", "paused"}
    alerts = every(ep, "list_alerts")
    assert {a["status"] for a in alerts} == {"open", "acknowledged", "resolved"}
    for a in alerts:
        site = ok(ep, "get_site", site_id=a["site_id"])
        if a["source"] == "usgs":
            assert a["distance_km"] <= site["radius_km"]


def test_checking_a_site_raises_each_event_once(ep: Episode) -> None:
    owner = POP.employees[0].email
    site = ok(ep, "create_site", name="Osaka plant", owner_email=owner, radius_km=600, min_magnitude=3.0, **TOKYO)
    made = ok(ep, "check_site", site_id=site["id"])
    since = dt.datetime.fromisoformat(site["created_at"]) - dt.timedelta(days=7)
    quakes = ok(ep, "site_earthquakes", site_id=site["id"], days=8)
    expected = {q["id"] for q in quakes if dt.datetime.fromisoformat(q["time"]) > since and q["mag"] >= 3.0}
    assert made and {a["ref"] for a in made} == expected
    assert all(a["source"] == "usgs" and a["status"] == "open" and a["owner_email"] == owner for a in made)
    assert ok(ep, "check_site", site_id=site["id"]) == []
    assert ok(ep, "get_site", site_id=site["id"])["last_checked_at"] is not None


def test_a_us_site_names_a_covered_state_and_one_of_its_counties(ep: Episode) -> None:
    owner = POP.employees[1].email
    site = ok(
        ep,
        "create_site",
        name="LA depot",
        owner_email=owner,
        latitude=34.05,
        longitude=-118.24,
        radius_km=1,
        min_magnitude=9,
        state="CA",
    )
    moved = ok(ep, "update_site", site_id=site["id"], county="Los Angeles")
    assert moved["county"] == "Los Angeles"
    refused(ep, "update_site", "rule_violation", "county", site_id=site["id"], county="Harris")
    refused(
        ep,
        "create_site",
        "rule_violation",
        "state",
        name="VT barn",
        owner_email=owner,
        latitude=44.0,
        longitude=-72.7,
        state="VT",
    )


def test_sites_are_unique_per_owner_staff_only_and_paused_sites_are_not_checked(ep: Episode) -> None:
    site = HZ.first(ep, "sites", status="active")
    refused(
        ep,
        "create_site",
        "conflict",
        "name",
        name=site["name"],
        owner_email=site["owner_email"],
        latitude=0,
        longitude=0,
    )
    refused(
        ep,
        "create_site",
        "rule_violation",
        "owner_email",
        name="X",
        owner_email=POP.contacts[0].email,
        latitude=0,
        longitude=0,
    )
    ok(ep, "pause_site", site_id=site["id"])
    refused(ep, "check_site", "rule_violation", "site_id", site_id=site["id"])


def test_alerts_move_open_to_resolved_and_block_deleting_their_site(ep: Episode) -> None:
    alert = HZ.first(ep, "alerts", status="open")
    refused(ep, "delete_site", "rule_violation", "site_id", site_id=alert["site_id"])
    assert ok(ep, "acknowledge_alert", alert_id=alert["id"])["status"] == "acknowledged"
    refused(ep, "acknowledge_alert", "rule_violation", "alert_id", alert_id=alert["id"])
    for a in every(ep, "list_alerts", site_id=alert["site_id"], status="open"):
        ok(ep, "resolve_alert", alert_id=a["id"])
    ok(ep, "delete_site", site_id=alert["site_id"])
    refused(ep, "get_alert", "not_found", "alert_id", alert_id=alert["id"])
