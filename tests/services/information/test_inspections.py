"""Safeplate Inspections: consistent scores, grades and violations, and establishment monitors."""

from __future__ import annotations

import datetime as dt

from compoworld import Episode
from tests.services.helpers import ServiceTools

IN = ServiceTools("inspections")
WORLD = IN.world
ok, refused, every = IN.ok, IN.refused, IN.every
POP = WORLD.population
STAFF = {p.email for p in POP.employees}
TODAY = WORLD.epoch.date()


def _grade(score: int) -> str:
    return "A" if score <= 13 else "B" if score <= 27 else "C"


def test_scores_are_violation_points_and_grades_follow_the_score(ep: Episode) -> None:
    for e in ok(ep, "search_establishments"):
        inspections = ok(ep, "list_inspections", camis=e["camis"])
        for i in inspections:
            assert i["score"] == sum(v["points"] for v in i["violations"])
            if i["inspection_type"].endswith("Re-inspection") or i["score"] <= 13:
                assert i["grade"] == _grade(i["score"])
            else:
                assert i["grade"] is None
            assert (i["action"].startswith("No violations")) == (i["violations"] == [])
        graded = [i for i in inspections if i["grade"]]
        assert e["grade"] == (graded[0]["grade"] if graded else None)


def test_an_initial_inspection_over_13_is_followed_by_a_reinspection(ep: Episode) -> None:
    for e in ok(ep, "search_establishments"):
        ins = list(reversed(ok(ep, "list_inspections", camis=e["camis"])))
        for k, i in enumerate(ins[:-1]):
            if i["inspection_type"].endswith("Initial Inspection") and i["score"] > 13:
                nxt = ins[k + 1]
                assert nxt["inspection_type"].endswith("Re-inspection")
                gap = dt.date.fromisoformat(nxt["inspection_date"]) - dt.date.fromisoformat(i["inspection_date"])
                assert 7 <= gap.days <= 30
                if i["action"].startswith("Establishment Closed"):
                    assert nxt["action"] == "Establishment re-opened by DOHMH."


def test_the_world_companies_cafeterias_are_listed(ep: Episode) -> None:
    for company in [POP.home, *POP.customers[:3]]:
        (found,) = ok(ep, "search_establishments", dba=f"{company.name} Cafeteria")
        assert found["cuisine_description"] == "American"
    for e in ok(ep, "search_establishments", boro="Queens", grade="A"):
        assert e["boro"] == "Queens" and e["grade"] == "A"
    refused(ep, "get_establishment", "not_found", "camis", camis="99999999")


def test_search_and_closures_agree_with_the_inspections(ep: Episode) -> None:
    start = (TODAY - dt.timedelta(days=366)).isoformat()
    found = ok(ep, "search_inspections", start_date=start, end_date=TODAY.isoformat(), violation_code="04L")
    assert found and all("04L" in {v["violation_code"] for v in i["violations"]} for i in found)
    freq = ok(ep, "get_violation_frequency", start_date=start, end_date=TODAY.isoformat())
    assert next(c["count"] for c in freq if c["violation_code"] == "04L") == len(found)
    far = (TODAY - dt.timedelta(days=1500)).isoformat()
    closures = ok(ep, "list_closures", start_date=far, end_date=TODAY.isoformat())
    assert all(c["score"] >= 28 and c["action"].startswith("Establishment Closed") for c in closures)
    refused(ep, "search_inspections", "rule_violation", "end_date", start_date=far, end_date=TODAY.isoformat())
    refused(
        ep,
        "search_inspections",
        "not_found",
        "violation_code",
        start_date=start,
        end_date=TODAY.isoformat(),
        violation_code="99Z",
    )


def test_stats_and_histories_count_the_same_establishments(ep: Episode) -> None:
    everything = ok(ep, "search_establishments")
    stats = ok(ep, "get_grade_stats")
    assert sum(s["establishments"] for s in stats) == len(everything)
    assert sum(s["grade_a"] for s in stats) == sum(e["grade"] == "A" for e in everything)
    e = max(everything, key=lambda x: len(ok(ep, "list_inspections", camis=x["camis"])))
    history = ok(ep, "get_grade_history", camis=e["camis"])
    assert history and history[-1]["grade"] == e["grade"] and history[-1]["grade_date"] == e["grade_date"]
    recurring = ok(ep, "list_violation_history", camis=e["camis"])
    assert [r["times_cited"] for r in recurring] == sorted((r["times_cited"] for r in recurring), reverse=True)


def test_seeded_monitors_belong_to_staff_and_include_the_own_cafeteria(ep: Episode) -> None:
    monitors = every(ep, "list_monitors")
    assert {m["status"] for m in monitors} == {"active", "paused"}
    own = [m for m in monitors if m["reason"] == "own_site"]
    assert own and own[0]["dba"] == f"{POP.home.name} Cafeteria"
    for m in monitors:
        assert m["owner_email"] in STAFF
        assert ok(ep, "get_establishment", camis=m["camis"])["dba"] == m["dba"]


def test_checking_a_monitor_reports_new_inspections_once(ep: Episode) -> None:
    for m in every(ep, "list_monitors", status="active"):
        expected = ok(ep, "list_inspections", camis=m["camis"], since=m["last_seen_date"])
        report = ok(ep, "check_monitor", monitor_id=m["id"])
        assert [i["inspection_id"] for i in report["new_inspections"]] == [
            i["inspection_id"] for i in reversed(expected)
        ]
        assert report["grade_changed"] == (report["grade"] != m["last_grade"])
        again = ok(ep, "check_monitor", monitor_id=m["id"])
        assert again["new_inspections"] == [] and not again["grade_changed"]
    paused = IN.first(ep, "monitors", status="paused")
    refused(ep, "check_monitor", "rule_violation", "monitor_id", monitor_id=paused["id"])
    ok(ep, "resume_monitor", monitor_id=paused["id"])
    ok(ep, "check_monitor", monitor_id=paused["id"])


def test_monitors_are_once_per_establishment_and_person_and_for_staff(ep: Episode) -> None:
    m = IN.first(ep, "monitors", status="active")
    refused(ep, "monitor_establishment", "conflict", "camis", camis=m["camis"], owner_email=m["owner_email"])
    refused(
        ep,
        "monitor_establishment",
        "rule_violation",
        "owner_email",
        camis=m["camis"],
        owner_email=POP.contacts[0].email,
    )
    refused(ep, "monitor_establishment", "not_found", "camis", camis="99999999", owner_email=m["owner_email"])
    other = next(p.email for p in POP.employees if p.email != m["owner_email"])
    new = ok(ep, "monitor_establishment", camis=m["camis"], owner_email=other, reason="caterer")
    assert new["last_seen_date"] == TODAY.isoformat()
    assert ok(ep, "check_monitor", monitor_id=new["id"])["new_inspections"] == []
