"""Daybook Holidays: real holiday rules, substitute days, long weekends, working days and company calendars."""

from __future__ import annotations

import datetime as dt
from typing import Any

from compoworld import Episode
from compoworld.services.information.holidays import easter
from tests.services.helpers import ServiceTools

HOL = ServiceTools("holidays")
WORLD = HOL.world
ok, refused, every = HOL.ok, HOL.refused, HOL.every
POP = WORLD.population
TODAY = WORLD.epoch.date()


def named(rows: list[dict[str, Any]], name: str) -> dict[str, Any]:
    return next(r for r in rows if r["name"] == name)


# -- the rules ------------------------------------------------------------------------------------


def test_easter_and_the_feasts_that_follow_it() -> None:
    assert [easter(y).isoformat() for y in (2024, 2025, 2026, 2027)] == [
        "2024-03-31",
        "2025-04-20",
        "2026-04-05",
        "2027-03-28",
    ]
    ep = Episode(WORLD)
    de = ok(ep, "public_holidays", year=2026, country="DE")
    assert named(de, "Good Friday")["date"] == "2026-04-03" and named(de, "Ascension Day")["date"] == "2026-05-14"
    assert named(de, "Whit Monday")["local_name"] == "Pfingstmontag"
    assert named(de, "German Unity Day")["observed_on"] is None  # a Saturday, and Germany has no substitutes


def test_substitute_days_follow_each_countrys_rule() -> None:
    ep = Episode(WORLD)
    us = ok(ep, "public_holidays", year=2026, country="US")
    assert named(us, "Independence Day")["observed_on"] == "2026-07-03"
    gb = ok(ep, "public_holidays", year=2026, country="GB")
    assert named(gb, "Boxing Day")["observed_on"] == "2026-12-28"
    jp = ok(ep, "public_holidays", year=2026, country="JP")
    assert named(jp, "Constitution Memorial Day")["observed_on"] == "2026-05-06"
    assert named(jp, "Citizens' Holiday")["date"] == "2026-09-22"
    nl = ok(ep, "public_holidays", year=2026, country="NL")
    assert named(nl, "Easter Sunday")["type"] == "observance"


def test_is_public_holiday_counts_substitute_days(ep: Episode) -> None:
    check = ok(ep, "is_public_holiday", country="US", date="2026-07-03")
    assert check["is_public_holiday"] and not check["is_working_day"]
    assert [h["name"] for h in check["holidays"]] == ["Independence Day"]
    today = ok(ep, "is_public_holiday", country="DE")
    assert today["date"] == TODAY.isoformat() and today["is_working_day"]
    refused(ep, "is_public_holiday", "not_found", "country", country="ZZ")


def test_next_holidays_start_today(ep: Episode) -> None:
    nxt = ok(ep, "next_public_holidays", country="FR", count=3)
    assert [h["name"] for h in nxt] == ["Easter Monday", "Labour Day", "Victory in Europe Day"]
    assert all(h["date"] >= TODAY.isoformat() for h in nxt)


# -- long weekends and working days ---------------------------------------------------------------


def test_long_weekends_with_and_without_bridge_days(ep: Episode) -> None:
    weekends = ok(ep, "long_weekends", year=2026, country="DE")
    easter_weekend = next(w for w in weekends if w["start"] == "2026-04-03")
    assert (easter_weekend["end"], easter_weekend["day_count"], easter_weekend["need_bridge_day"]) == (
        "2026-04-06",
        4,
        False,
    )
    ascension = next(w for w in weekends if w["start"] == "2026-05-14")
    assert ascension["need_bridge_day"] and ascension["bridge_days"] == ["2026-05-15"] and ascension["day_count"] == 4


def test_working_days_and_due_dates(ep: Episode) -> None:
    april = ok(ep, "working_days_between", country="DE", start="2026-04-01", end="2026-04-30")
    assert (april["working_days"], april["holiday_dates"]) == (20, ["2026-04-03", "2026-04-06"])
    assert april["working_days"] + april["weekend_days"] + april["holidays_off"] == 30
    due = ok(ep, "add_working_days", country="DE", date="2026-04-02", days=1)
    assert (due["date"], due["skipped"]) == ("2026-04-07", ["2026-04-03", "2026-04-06"])
    back = ok(ep, "add_working_days", country="DE", date="2026-04-07", days=-1)
    assert back["date"] == "2026-04-02"
    assert ok(ep, "add_working_days", country="US", date="2026-07-03", days=0)["date"] == "2026-07-06"
    refused(ep, "working_days_between", "rule_violation", "end", country="DE", start="2026-05-01", end="2026-04-01")


def test_every_world_country_has_holiday_data(ep: Episode) -> None:
    supported = {c["country"]: c for c in ok(ep, "supported_countries")}
    assert {p.country for p in POP.places} <= set(supported)
    assert supported["DE"]["public_holidays_this_year"] == 9


# -- company calendars ----------------------------------------------------------------------------


def test_calendars_follow_the_staffs_countries() -> None:
    ep = Episode(WORLD)
    staff = {p.email: p for p in POP.employees}
    cals = every(ep, "list_calendars")
    assert cals[0]["country"] == POP.home.place.country and cals[0]["company"] == POP.home.name
    for cal in cals:
        assert cal["feed_url"] == f"https://cal.daybook.app/feeds/{cal['id']}.ics"
        for sub in every(ep, "list_subscribers", calendar_id=cal["id"]):
            assert staff[sub["email"]].place.country == cal["country"] and staff[sub["email"]].name == sub["name"]
        for day in every(ep, "list_company_days", calendar_id=cal["id"]):
            assert dt.date.fromisoformat(day["date"]).weekday() < 5


def test_company_days_are_weekdays_that_are_not_holidays(ep: Episode) -> None:
    cal = ok(ep, "create_calendar", name="Berlin hub", company=POP.home.name, country="DE", owner_email="hr@inbox.io")
    args = {"calendar_id": cal["id"], "name": "Team day", "kind": "company_day"}
    refused(ep, "create_company_day", "rule_violation", "date", **args, date="2026-06-13")
    refused(ep, "create_company_day", "rule_violation", "date", **args, date="2026-05-25")
    ok(ep, "create_company_day", **args, date="2026-06-12")
    refused(ep, "create_company_day", "conflict", "date", **args, date="2026-06-12")
    refused(ep, "create_company_day", "rule_violation", "kind", **{**args, "kind": "bridge_day"}, date="2026-06-10")
    bridge = ok(ep, "create_company_day", **{**args, "kind": "bridge_day"}, date="2026-05-15")
    assert bridge["kind"] == "bridge_day"
    suggested = ok(ep, "suggest_bridge_days", calendar_id=cal["id"], year=2026)
    assert "2026-05-15" not in [d for w in suggested for d in w["bridge_days"]]
    due = ok(ep, "calendar_due_date", calendar_id=cal["id"], date="2026-06-11", days=1)
    assert (due["date"], due["skipped"]) == ("2026-06-15", ["2026-06-12"])
    days = ok(ep, "calendar_days_off", calendar_id=cal["id"], year=2026)
    assert {"date": "2026-06-12", "name": "Team day", "source": "company_day"} in days
    count = ok(ep, "calendar_working_days", calendar_id=cal["id"], start="2026-05-11", end="2026-05-15")
    assert (count["working_days"], count["holiday_dates"]) == (3, ["2026-05-14", "2026-05-15"])


def test_bridge_days_are_limited_per_year(ep: Episode) -> None:
    cal = ok(ep, "create_calendar", name="Milan hub", company=POP.home.name, country="IT", owner_email="hr@inbox.io")
    bridges = [w["bridge_days"][0] for w in ok(ep, "suggest_bridge_days", calendar_id=cal["id"], year=2026)]
    assert len(bridges) >= 4
    for day in bridges[:3]:
        ok(ep, "create_company_day", calendar_id=cal["id"], date=day, name="Ponte", kind="bridge_day")
    refused(
        ep,
        "create_company_day",
        "rule_violation",
        "kind",
        calendar_id=cal["id"],
        date=bridges[3],
        name="Ponte",
        kind="bridge_day",
    )


def test_subscriptions_and_calendar_removal(ep: Episode) -> None:
    cal = every(ep, "list_calendars")[0]
    sub = every(ep, "list_subscribers", calendar_id=cal["id"])[0]
    refused(ep, "create_subscriber", "conflict", "email", calendar_id=cal["id"], name=sub["name"], email=sub["email"])
    refused(ep, "delete_calendar", "rule_violation", "calendar_id", calendar_id=cal["id"])
    refused(
        ep,
        "create_calendar",
        "not_found",
        "country",
        name="Moon base",
        company=POP.home.name,
        country="ZZ",
        owner_email="hr@inbox.io",
    )
    empty = next(c for c in every(ep, "list_calendars") if not every(ep, "list_subscribers", calendar_id=c["id"]))
    ok(ep, "create_company_day", calendar_id=empty["id"], date="2026-06-10", name="Opening day", kind="company_day")
    ok(ep, "delete_calendar", calendar_id=empty["id"])
    assert [d for d in every(ep, "list_company_days") if d["calendar_id"] == empty["id"]] == []
