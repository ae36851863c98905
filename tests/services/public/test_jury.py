"""Jury Desk: qualification, deferral and excusal rules, check-in, panels from the pool, juror pay."""

from __future__ import annotations

import datetime as dt
from typing import Any

from compoworld import Episode
from tests.services.helpers import ServiceTools

JR = ServiceTools("jury")
WORLD = JR.world
ok, refused, every, first = JR.ok, JR.refused, JR.every, JR.first
POP = WORLD.population
TODAY = WORLD.epoch.date()
YES = {"us_citizen": True, "county_resident": True, "understands_english": True, "felony_conviction": False}


def summon(ep: Episode, birth: str = "1980-04-02", last: str = "Whitfield") -> dict[str, Any]:
    made: dict[str, Any] = ok(
        ep,
        "issue_summons",
        first_name="Dolores",
        last_name=last,
        birth_date=birth,
        city="Springfield",
        weeks_ahead=4,
        email="dolores@example.org",
    )
    return made


def test_summonses_go_to_the_worlds_adult_residents(ep: Episode) -> None:
    people = {(p.first_name, p.last_name, p.birth_date.isoformat()) for p in POP.consumers}
    for s in every(ep, "list_summonses"):
        assert (s["first_name"], s["last_name"], s["birth_date"]) in people
        assert (TODAY - dt.date.fromisoformat(s["birth_date"])).days >= 18 * 365
    panel = first(ep, "panels", status="sent")
    assert len(every(ep, "list_summonses", panel_id=panel["id"])) == panel["size"]


def test_a_summons_is_for_a_monday_and_one_at_a_time(ep: Episode) -> None:
    s = summon(ep)
    day = dt.date.fromisoformat(s["service_date"])
    assert day.weekday() == 0 and s["status"] == "issued" and len(s["summons_number"]) == 8
    refused(
        ep,
        "issue_summons",
        "conflict",
        "last_name",
        first_name="Dolores",
        last_name="Whitfield",
        birth_date="1980-04-02",
        city="Springfield",
        weeks_ahead=8,
    )


def test_the_questionnaire_qualifies_or_disqualifies_with_reasons(ep: Episode) -> None:
    good = summon(ep)
    assert ok(ep, "submit_questionnaire", summons_number=good["summons_number"], **YES)["status"] == "qualified"
    refused(ep, "submit_questionnaire", "conflict", "summons_number", summons_number=good["summons_number"], **YES)
    bad = summon(ep, last="Ortega")
    out = ok(
        ep,
        "submit_questionnaire",
        summons_number=bad["summons_number"],
        **(YES | {"us_citizen": False, "felony_conviction": True}),
    )
    assert (out["status"], out["disqualified_reason"]) == ("disqualified", "not a US citizen; felony conviction")


def test_a_deferral_is_granted_once_within_six_months_on_a_weekday(ep: Episode) -> None:
    s = summon(ep)
    day = dt.date.fromisoformat(s["service_date"])
    num = s["summons_number"]
    refused(
        ep,
        "request_deferral",
        "rule_violation",
        "new_date",
        summons_number=num,
        new_date=(day + dt.timedelta(days=200)).isoformat(),
    )
    refused(
        ep,
        "request_deferral",
        "rule_violation",
        "new_date",
        summons_number=num,
        new_date=(day + dt.timedelta(days=5)).isoformat(),
    )
    moved = ok(ep, "request_deferral", summons_number=num, new_date=(day + dt.timedelta(days=28)).isoformat())
    assert moved["deferrals"] == 1
    refused(
        ep,
        "request_deferral",
        "rule_violation",
        "summons_number",
        summons_number=num,
        new_date=(day + dt.timedelta(days=35)).isoformat(),
    )


def test_excusals_check_age_and_recent_service(ep: Episode) -> None:
    young = summon(ep)
    refused(
        ep, "request_excusal", "rule_violation", "reason", summons_number=young["summons_number"], reason="age_70_plus"
    )
    refused(
        ep,
        "request_excusal",
        "rule_violation",
        "reason",
        summons_number=young["summons_number"],
        reason="recent_service",
    )
    old = summon(ep, birth="1950-01-01", last="Abernathy")
    assert ok(ep, "request_excusal", summons_number=old["summons_number"], reason="age_70_plus")["status"] == "excused"
    released = first(ep, "summonses", status="released")
    again = ok(
        ep,
        "issue_summons",
        first_name=released["first_name"],
        last_name=released["last_name"],
        birth_date=released["birth_date"],
        city=released["city"],
        weeks_ahead=3,
    )
    assert ok(ep, "request_excusal", summons_number=again["summons_number"], reason="recent_service")["excuse_reason"]


def test_check_in_only_on_the_service_date_once_a_day(ep: Episode) -> None:
    later = next(s for s in every(ep, "list_summonses", status="qualified") if s["service_date"] > TODAY.isoformat())
    refused(ep, "check_in", "rule_violation", "summons_number", summons_number=later["summons_number"])
    now = first(ep, "summonses", status="qualified", service_date=TODAY.isoformat())
    assert ok(ep, "check_in", summons_number=now["summons_number"], round_trip_miles=20)["status"] == "checked_in"
    refused(ep, "check_in", "conflict", "summons_number", summons_number=now["summons_number"])
    refused(
        ep,
        "check_in",
        "conflict",
        "summons_number",
        summons_number=first(ep, "summonses", status="issued")["summons_number"],
    )


def test_a_panel_draws_free_checked_in_jurors_of_the_pool(ep: Episode) -> None:
    pool = first(ep, "pools", service_date=TODAY.isoformat())
    free = every(ep, "list_summonses", status="checked_in")
    args = {"pool_id": pool["id"], "judge": "Hon. Ann Lee", "courtroom": "Courtroom 2C"}
    refused(ep, "create_panel", "rule_violation", "size", case_number="2026-CR-000777", size=len(free) + 1, **args)
    taken = first(ep, "panels", status="sent")
    refused(ep, "create_panel", "conflict", "case_number", case_number=taken["case_number"], size=6, **args)
    panel = ok(ep, "create_panel", case_number="2026-CR-000777", size=6, **args)
    seated = every(ep, "list_summonses", panel_id=panel["id"])
    assert [s["id"] for s in seated] == [s["id"] for s in free[:6]]
    assert all(s["status"] == "impaneled" for s in seated)


def test_release_pays_fifteen_a_day_plus_mileage_and_pay_can_be_donated(ep: Episode) -> None:
    panel = first(ep, "panels", status="sent")
    juror = every(ep, "list_summonses", panel_id=panel["id"])[0]
    est = ok(ep, "pay_estimate", summons_number=juror["summons_number"])
    miles = every(ep, "list_attendance", summons_id=juror["id"])[0]["round_trip_miles"]
    assert (est["days"], est["fees_cents"], est["mileage_cents"]) == (1, 1500, miles * 45)
    ok(ep, "release_panel", panel_id=panel["id"])
    refused(ep, "release_panel", "conflict", "panel_id", panel_id=panel["id"])
    pay = every(ep, "list_payments", summons_id=juror["id"])[0]
    assert (pay["amount_cents"], pay["status"]) == (est["total_cents"], "pending")
    assert ok(ep, "donate_pay", payment_id=pay["id"])["amount_cents"] == 0
    refused(ep, "issue_payment", "rule_violation", "payment_id", payment_id=pay["id"])
