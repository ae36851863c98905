"""FireLine Prevention: inspections fail with violations and book re-inspections, permits, pre-plans, hydrants."""

from __future__ import annotations

import datetime as dt
from typing import Any

from compoworld import Episode
from tests.services.helpers import ServiceTools

FI = ServiceTools("fireinspect")
WORLD = FI.world
ok, refused, every, first = FI.ok, FI.refused, FI.every, FI.first
POP = WORLD.population
TODAY = WORLD.epoch.date()
INSPECTOR = POP.employees[0].email


def day(n: int) -> str:
    return (TODAY + dt.timedelta(days=n)).isoformat()


def clean(ep: Episode) -> dict[str, Any]:
    for o in every(ep, "list_occupancies"):
        if not every(ep, "list_inspections", occupancy_id=o["id"], status="scheduled") and not every(
            ep, "list_violations", occupancy_id=o["id"], status="open"
        ):
            return o
    raise AssertionError("no quiet occupancy")


def test_occupancies_are_the_worlds_companies_on_their_cycle(ep: Episode) -> None:
    names = {c.name for c in POP.companies}
    months = {"low": 36, "moderate": 24, "high": 12}
    for o in every(ep, "list_occupancies"):
        assert o["name"] in names
        last = dt.date.fromisoformat(o["last_inspected_on"])
        due = dt.date.fromisoformat(o["next_due_on"])
        assert (due.year - last.year) * 12 + due.month - last.month == months[o["risk"]]


def test_scheduling_needs_staff_a_future_day_and_one_visit_at_a_time(ep: Episode) -> None:
    o = clean(ep)
    args = {"occupancy_id": o["id"], "kind": "annual"}
    refused(
        ep,
        "schedule_inspection",
        "rule_violation",
        "inspector_email",
        scheduled_on=day(2),
        inspector_email="x@example.org",
        **args,
    )
    refused(
        ep,
        "schedule_inspection",
        "rule_violation",
        "scheduled_on",
        scheduled_on=day(-1),
        inspector_email=INSPECTOR,
        **args,
    )
    refused(
        ep,
        "schedule_inspection",
        "rule_violation",
        "kind",
        occupancy_id=o["id"],
        kind="reinspection",
        scheduled_on=day(2),
        inspector_email=INSPECTOR,
    )
    ok(ep, "schedule_inspection", scheduled_on=day(0), inspector_email=INSPECTOR, **args)
    refused(
        ep, "schedule_inspection", "conflict", "occupancy_id", scheduled_on=day(3), inspector_email=INSPECTOR, **args
    )


def test_a_failed_inspection_records_violations_and_books_a_reinspection(ep: Episode) -> None:
    o = clean(ep)
    ins = ok(
        ep, "schedule_inspection", occupancy_id=o["id"], kind="annual", scheduled_on=day(0), inspector_email=INSPECTOR
    )
    done = ok(
        ep,
        "complete_inspection",
        inspection_id=ins["id"],
        findings=[{"code": "605.4", "severity": "minor"}, {"code": "901.6", "severity": "major"}],
    )
    assert done["status"] == "failed"
    found = {v["code"]: v["correct_by"] for v in every(ep, "list_violations", inspection_id=ins["id"])}
    assert found == {"605.4": day(30), "901.6": day(14)}
    again = first(ep, "inspections", occupancy_id=o["id"], status="scheduled")
    assert (again["kind"], again["scheduled_on"]) == ("reinspection", day(30))
    refused(ep, "complete_inspection", "conflict", "inspection_id", inspection_id=ins["id"], findings=[])


def test_a_reinspection_passes_only_when_everything_is_corrected(ep: Episode) -> None:
    ins = first(ep, "inspections", kind="reinspection", status="scheduled")
    occ = ins["occupancy_id"]
    failed = ok(ep, "complete_inspection", inspection_id=ins["id"], findings=[{"code": "1031.2", "severity": "major"}])
    assert failed["status"] == "failed"
    assert [v["code"] for v in every(ep, "list_violations", occupancy_id=occ, status="open")] == ["1031.2"]
    nxt = first(ep, "inspections", occupancy_id=occ, status="scheduled")
    refused(ep, "complete_inspection", "rule_violation", "inspection_id", inspection_id=nxt["id"], findings=[])


def test_a_clean_reinspection_passes_and_resets_the_cycle(ep: Episode) -> None:
    ins = first(ep, "inspections", kind="reinspection", status="scheduled")
    passed = ok(ep, "complete_inspection", inspection_id=ins["id"], findings=[])
    assert passed["status"] == "passed"
    assert not every(ep, "list_violations", occupancy_id=ins["occupancy_id"], status="open")
    occ = ok(ep, "get_occupancy", occupancy_id=ins["occupancy_id"])
    assert occ["last_inspected_on"] == day(0) and occ["next_due_on"] > day(360)


def test_permits_need_a_clean_recent_record(ep: Episode) -> None:
    flagged = first(ep, "inspections", kind="reinspection", status="scheduled")["occupancy_id"]
    p = ok(ep, "apply_permit", occupancy_id=flagged, kind="lp_gas")
    assert p["fee_cents"] == 10000
    refused(ep, "apply_permit", "conflict", "kind", occupancy_id=flagged, kind="lp_gas")
    refused(ep, "issue_permit", "rule_violation", "permit_id", permit_id=p["id"])
    good = first(ep, "permits", status="applied")
    issued = ok(ep, "issue_permit", permit_id=good["id"])
    assert issued["valid_from"] == day(0) and issued["valid_to"] == day(364)
    non_assembly = next(o for o in every(ep, "list_occupancies") if o["group"] != "A")
    refused(ep, "apply_permit", "rule_violation", "kind", occupancy_id=non_assembly["id"], kind="assembly")


def test_one_preplan_per_occupancy(ep: Episode) -> None:
    planned = first(ep, "preplans")
    refused(ep, "create_preplan", "conflict", "occupancy_id", occupancy_id=planned["occupancy_id"])
    bare = next(o for o in every(ep, "list_occupancies") if not every(ep, "list_preplans", occupancy_id=o["id"]))
    made = ok(ep, "create_preplan", occupancy_id=bare["id"], sprinklered=True, hazards="Lithium battery storage")
    assert ok(ep, "update_preplan", preplan_id=made["id"], knox_box=True)["knox_box"]


def test_flow_tests_set_the_nfpa_class_of_in_service_hydrants(ep: Episode) -> None:
    h = first(ep, "hydrants", status="in_service")
    for gpm, cls in ((1600, "AA"), (1000, "A"), (999, "B"), (300, "C")):
        assert ok(ep, "record_flow_test", hydrant_number=h["hydrant_number"], flow_gpm=gpm)["nfpa_class"] == cls
    down = first(ep, "hydrants", status="out_of_service")
    refused(
        ep, "record_flow_test", "rule_violation", "hydrant_number", hydrant_number=down["hydrant_number"], flow_gpm=900
    )
    ok(ep, "return_to_service_hydrant", hydrant_id=down["id"])
    assert ok(ep, "record_flow_test", hydrant_number=down["hydrant_number"], flow_gpm=900)["last_tested_on"] == day(0)


def test_due_list_skips_scheduled_and_orders_by_due_date(ep: Episode) -> None:
    due = ok(ep, "due_for_inspection", days_ahead=365)
    assert due
    dates = [o["next_due_on"] for o in due]
    assert dates == sorted(dates) and all(d <= day(365) for d in dates)
    for o in due:
        assert not every(ep, "list_inspections", occupancy_id=o["id"], status="scheduled")
