"""Tidewatch Marine: consistent tides, water levels and currents, and marine alerts."""

from __future__ import annotations

import datetime as dt
import itertools

from compoworld import Episode
from tests.services.helpers import ServiceTools

TD = ServiceTools("tides")
WORLD = TD.world
ok, refused, every = TD.ok, TD.refused, TD.every
POP = WORLD.population
STAFF = {p.email for p in POP.employees}
NOW = WORLD.epoch
TODAY = NOW.date().isoformat()
TOMORROW = (NOW.date() + dt.timedelta(days=1)).isoformat()


def test_high_and_low_tides_alternate_and_bracket_the_hourly_heights(ep: Episode) -> None:
    args = {"station_id": "8518750", "begin_date": TODAY, "end_date": TOMORROW}
    hilo = ok(ep, "get_predictions", **args)
    assert len(hilo) >= 6 and all(a["type"] != b["type"] for a, b in itertools.pairwise(hilo))
    hourly = ok(ep, "get_predictions", interval="h", **args)
    assert len(hourly) == 48
    top, low = max(e["v"] for e in hilo), min(e["v"] for e in hilo)
    assert all(low - 0.01 <= h["v"] <= top + 0.01 for h in hourly)
    metric = ok(ep, "get_predictions", units="metric", **args)
    assert all(abs(m["v"] / 0.3048 - e["v"]) < 0.01 for m, e in zip(metric, hilo, strict=True))


def test_datums_are_ordered_and_flood_levels_lie_above_mhhw(ep: Episode) -> None:
    for station in ok(ep, "list_stations", type="waterlevels"):
        d = ok(ep, "get_datums", station_id=station["id"])
        assert d["MLLW"] == 0 and d["MLLW"] <= d["MLW"] < d["MSL"] < d["MHW"] <= d["MHHW"]
        f = ok(ep, "get_flood_levels", station_id=station["id"])
        assert d["MHHW"] < f["nos_minor"] < f["nos_moderate"] < f["nos_major"]
    anchorage = ok(ep, "get_datums", station_id="9455920")["great_diurnal_range"]
    assert anchorage > 4 * ok(ep, "get_datums", station_id="8723214")["great_diurnal_range"]


def test_observations_stop_at_now_and_are_prediction_plus_residual(ep: Episode) -> None:
    start = (NOW.date() - dt.timedelta(days=1)).isoformat()
    levels = ok(ep, "get_water_levels", station_id="9414290", begin_date=start, end_date=TOMORROW)
    assert levels and levels[-1]["t"] <= NOW.isoformat().replace("+00:00", "Z")
    assert all(abs(x["v"] - x["predicted"] - x["residual"]) < 0.01 for x in levels)
    latest = ok(ep, "get_latest_water_level", station_id="9414290")
    assert latest["t"] == levels[-1]["t"] and latest["v"] == levels[-1]["v"]
    refused(
        ep,
        "get_water_levels",
        "rule_violation",
        "begin_date",
        station_id="9414290",
        begin_date=TOMORROW,
        end_date=TOMORROW,
    )


def test_requests_name_the_right_kind_of_station_and_bounded_periods(ep: Episode) -> None:
    refused(
        ep, "get_predictions", "rule_violation", "station_id", station_id="sf1201", begin_date=TODAY, end_date=TODAY
    )
    refused(
        ep,
        "get_current_predictions",
        "rule_violation",
        "station_id",
        station_id="8518750",
        begin_date=TODAY,
        end_date=TODAY,
    )
    refused(ep, "get_station", "not_found", "station_id", station_id="1234567")
    far = (NOW.date() + dt.timedelta(days=40)).isoformat()
    refused(
        ep,
        "get_predictions",
        "rule_violation",
        "end_date",
        station_id="8518750",
        begin_date=TODAY,
        end_date=far,
        interval="6",
    )
    refused(
        ep, "get_predictions", "rule_violation", "end_date", station_id="8518750", begin_date=TOMORROW, end_date=TODAY
    )


def test_currents_alternate_flood_and_ebb_through_slack(ep: Episode) -> None:
    events = ok(ep, "get_current_predictions", station_id="sf1201", begin_date=TODAY, end_date=TOMORROW)
    station = ok(ep, "get_station", station_id="sf1201")
    flood_dir = 70
    moving = [e for e in events if e["type"] != "slack"]
    assert {e["type"] for e in moving} == {"flood", "ebb"}
    for a, b in itertools.pairwise(moving):
        between = [e for e in events if a["t"] < e["t"] < b["t"] and e["type"] == "slack"]
        assert (a["type"] != b["type"]) == bool(between)
    assert all(e["direction"] == flood_dir for e in moving if e["type"] == "flood")
    assert all(e["direction"] == (flood_dir + 180) % 360 for e in moving if e["type"] == "ebb")
    near = ok(ep, "find_nearest_stations", lat=station["lat"], lon=station["lng"], type="currentpredictions")
    assert near[0]["id"] == "sf1201" and near[0]["distance_km"] == 0


def test_tide_windows_cover_exactly_the_heights_above(ep: Episode) -> None:
    args = {"station_id": "8518750", "begin_date": TODAY, "end_date": TODAY}
    windows = ok(ep, "find_tide_windows", height=3.0, **args)
    hilo = ok(ep, "get_predictions", **args)
    highs = [e for e in hilo if e["type"] == "H" and e["v"] >= 3.0]
    assert len(windows) >= len(highs) > 0
    for h in highs:
        assert any(w["start"] <= h["t"] <= w["end"] for w in windows)
    assert ok(ep, "find_tide_windows", height=30.0, **args) == []


def test_seeded_alerts_belong_to_staff_and_sit_beyond_the_ordinary_tide(ep: Episode) -> None:
    alerts = every(ep, "list_alerts")
    assert {a["status"] for a in alerts} == {"active", "paused", "triggered"}
    for a in alerts:
        assert a["owner_email"] in STAFF
        if a["kind"] == "high_water":
            assert a["threshold"] > ok(ep, "get_datums", station_id=a["station_id"])["MHHW"]
        elif a["kind"] == "low_water":
            assert a["threshold"] < 0
        else:
            assert ok(ep, "get_station", station_id=a["station_id"])["type"] == "currentpredictions"


def test_checking_an_alert_triggers_it_on_a_predicted_crossing(ep: Episode) -> None:
    a = TD.first(ep, "alerts", kind="low_water", status="active")
    hits = ok(ep, "check_alert", alert_id=a["id"])
    assert hits and all(h["value"] <= a["threshold"] for h in hits)
    after = ok(ep, "get_alert", alert_id=a["id"])
    assert after["status"] == "triggered" and after["triggered_at"] == hits[0]["t"]
    assert after["trigger_count"] == a["trigger_count"] + 1
    refused(ep, "check_alert", "rule_violation", "alert_id", alert_id=a["id"])
    ok(ep, "acknowledge_alert", alert_id=a["id"])
    ok(ep, "update_alert", alert_id=a["id"], threshold=-9.0)
    assert ok(ep, "check_alert", alert_id=a["id"]) == []
    assert ok(ep, "get_alert", alert_id=a["id"])["status"] == "active"


def test_paused_alerts_are_not_checked_until_resumed(ep: Episode) -> None:
    a = TD.first(ep, "alerts", status="paused")
    refused(ep, "check_alert", "rule_violation", "alert_id", alert_id=a["id"])
    ok(ep, "resume_alert", alert_id=a["id"])
    ok(ep, "check_alert", alert_id=a["id"])
    refused(
        ep, "acknowledge_alert", "rule_violation", "alert_id", alert_id=TD.first(ep, "alerts", status="active")["id"]
    )


def test_alert_rules_refuse_ordinary_thresholds_duplicates_and_outsiders(ep: Episode) -> None:
    mhhw = ok(ep, "get_datums", station_id="8454000")["MHHW"]
    me = POP.employees[0].email
    base = {"station_id": "8454000", "kind": "high_water", "owner_email": me}
    refused(ep, "create_alert", "rule_violation", "threshold", threshold=mhhw - 0.5, **base)
    refused(
        ep,
        "create_alert",
        "rule_violation",
        "threshold",
        station_id="8454000",
        kind="low_water",
        threshold=0.5,
        owner_email=me,
    )
    refused(
        ep,
        "create_alert",
        "rule_violation",
        "station_id",
        station_id="8454000",
        kind="strong_current",
        threshold=2.0,
        owner_email=me,
    )
    refused(
        ep,
        "create_alert",
        "rule_violation",
        "owner_email",
        **(base | {"owner_email": POP.contacts[0].email}),
        threshold=mhhw + 1,
    )
    created = ok(ep, "create_alert", threshold=mhhw + 1, **base)
    assert created["status"] == "active" and created["station_name"] == "Providence"
    refused(ep, "create_alert", "conflict", "kind", threshold=mhhw + 2, **base)
    refused(ep, "update_alert", "rule_violation", "threshold", alert_id=created["id"], threshold=mhhw - 1)
