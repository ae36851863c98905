"""Pumpjack Field Ops: daily production, tanks, downtime, workover approvals and run tickets."""

from __future__ import annotations

import datetime as dt
from typing import Any

from compoworld import Episode
from tests.services.helpers import ServiceTools

WO = ServiceTools("wellops")
WORLD = WO.world
ok, refused, every = WO.ok, WO.refused, WO.every
POP = WORLD.population
TODAY = WORLD.epoch.date()
STAFF = {p.email for p in POP.employees}
A, B = POP.employees[0].email, POP.employees[1].email
BUYER = POP.companies[2].name


def day(n: int) -> str:
    return (TODAY + dt.timedelta(days=n)).isoformat()


def producing(ep: Episode) -> dict[str, Any]:
    found: dict[str, Any] = every(ep, "list_wells", status="producing")[0]
    return found


def report(ep: Episode, well: dict[str, Any], when: str, oil: float = 30.0) -> Any:
    return ep.call(
        "wellops__record_production",
        {
            "well_id": well["id"],
            "report_date": when,
            "oil_bbl": oil,
            "gas_mcf": 50.0,
            "water_bbl": 9.0,
            "pumper_email": A,
        },
    )


def test_seeded_leases_wells_and_tanks_add_up(ep: Episode) -> None:
    for lease in every(ep, "list_leases"):
        assert lease["pumper_email"] in STAFF
        made = sum(r["oil_bbl"] for r in every(ep, "list_production_reports", lease_id=lease["id"]))
        sold = sum(t["gross_bbl"] for t in every(ep, "list_run_tickets", lease_id=lease["id"], status="accepted"))
        assert abs(lease["tank_bbl"] - (made - sold)) < 0.05
    for well in every(ep, "list_wells", status="shut_in"):
        assert every(ep, "list_downtimes", well_id=well["id"], status="open")


def test_production_is_reported_once_a_day_for_producing_wells(ep: Episode) -> None:
    well = producing(ep)
    lease = ok(ep, "get_lease", lease_id=well["lease_id"])
    res = report(ep, well, day(0), oil=42.5)
    assert res.ok, res.error
    assert ok(ep, "get_lease", lease_id=lease["id"])["tank_bbl"] == round(lease["tank_bbl"] + 42.5, 2)
    refused(
        ep,
        "record_production",
        "conflict",
        "report_date",
        well_id=well["id"],
        report_date=day(0),
        oil_bbl=1,
        gas_mcf=1,
        water_bbl=1,
        pumper_email=A,
    )
    refused(
        ep,
        "record_production",
        "rule_violation",
        "report_date",
        well_id=well["id"],
        report_date=day(1),
        oil_bbl=1,
        gas_mcf=1,
        water_bbl=1,
        pumper_email=A,
    )
    shut = every(ep, "list_wells", status="shut_in")[0]
    refused(
        ep,
        "record_production",
        "rule_violation",
        "well_id",
        well_id=shut["id"],
        report_date=day(0),
        oil_bbl=1,
        gas_mcf=1,
        water_bbl=1,
        pumper_email=A,
    )


def test_downtime_shuts_a_well_in_until_it_ends(ep: Episode) -> None:
    well = producing(ep)
    down = ok(ep, "start_downtime", well_id=well["id"], reason="power_outage")
    assert ok(ep, "get_well", well_id=well["id"])["status"] == "shut_in"
    refused(ep, "start_downtime", "rule_violation", "well_id", well_id=well["id"], reason="weather")
    assert not report(ep, well, day(0)).ok
    ended = ok(ep, "end_downtime", well_id=well["id"])
    assert (ended["id"], ended["status"], ended["end_date"]) == (down["id"], "closed", day(0))
    assert ok(ep, "get_well", well_id=well["id"])["status"] == "producing"
    refused(ep, "end_downtime", "rule_violation", "well_id", well_id=well["id"])


def test_api_numbers_are_unique(ep: Episode) -> None:
    known = producing(ep)
    refused(
        ep,
        "register_well",
        "conflict",
        "api_number",
        lease_id=known["lease_id"],
        name="Dup 1H",
        api_number=known["api_number"],
    )
    made = ok(ep, "register_well", lease_id=known["lease_id"], name="New 9H", api_number="42-329-49998-00-00")
    assert made["status"] == "drilling"
    assert ok(ep, "complete_well", well_id=made["id"])["status"] == "producing"


def test_a_workover_is_approved_by_someone_other_than_its_requester(ep: Episode) -> None:
    well = every(ep, "list_wells", status="producing")[-1]
    for job in every(ep, "list_workovers", well_id=well["id"]):
        if job["status"] in ("planned", "approved"):
            ok(ep, "cancel_workover", workover_id=job["id"])
    args = {"well_id": well["id"], "job_type": "pump_change", "rig_company": BUYER, "requested_by": A}
    refused(ep, "plan_workover", "rule_violation", "estimated_cost_cents", estimated_cost_cents=0, **args)
    job = ok(ep, "plan_workover", estimated_cost_cents=1500000, **args)
    refused(ep, "plan_workover", "conflict", "well_id", estimated_cost_cents=900000, **args)
    refused(ep, "start_workover", "rule_violation", "workover_id", workover_id=job["id"])
    refused(ep, "approve_workover", "rule_violation", "approver_email", workover_id=job["id"], approver_email=A)
    assert ok(ep, "approve_workover", workover_id=job["id"], approver_email=B)["approved_by"] == B


def test_a_workover_shuts_the_well_in_and_completion_restores_it(ep: Episode) -> None:
    job = every(ep, "list_workovers", status="approved")[0]
    started = ok(ep, "start_workover", workover_id=job["id"])
    assert started["status"] == "in_progress"
    down = every(ep, "list_downtimes", well_id=job["well_id"], status="open")
    assert [d["reason"] for d in down] == ["workover"]
    refused(ep, "end_downtime", "rule_violation", "well_id", well_id=job["well_id"])
    done = ok(ep, "complete_workover", workover_id=job["id"], actual_cost_cents=2222000)
    assert (done["status"], done["actual_cost_cents"]) == ("completed", 2222000)
    assert ok(ep, "get_well", well_id=job["well_id"])["status"] == "producing"


def test_run_tickets_sell_net_barrels_from_the_tanks(ep: Episode) -> None:
    lease = max(every(ep, "list_leases"), key=lambda x: x["tank_bbl"])
    refused(
        ep,
        "record_run_ticket",
        "rule_violation",
        "gross_bbl",
        lease_id=lease["id"],
        purchaser=BUYER,
        gross_bbl=lease["tank_bbl"] + 1,
        bsw_pct=0.2,
        price_cents=7000,
    )
    t = ok(ep, "record_run_ticket", lease_id=lease["id"], purchaser=BUYER, gross_bbl=100, bsw_pct=0.5, price_cents=7000)
    assert (t["status"], t["net_bbl"], t["amount_cents"]) == ("accepted", 99.5, 696500)
    assert ok(ep, "get_lease", lease_id=lease["id"])["tank_bbl"] == round(lease["tank_bbl"] - 100, 2)


def test_wet_oil_is_rejected_and_stays_in_the_tanks(ep: Episode) -> None:
    lease = max(every(ep, "list_leases"), key=lambda x: x["tank_bbl"])
    t = ok(ep, "record_run_ticket", lease_id=lease["id"], purchaser=BUYER, gross_bbl=50, bsw_pct=2.5, price_cents=7000)
    assert (t["status"], t["net_bbl"], t["amount_cents"]) == ("rejected", 0.0, 0)
    assert ok(ep, "get_lease", lease_id=lease["id"])["tank_bbl"] == lease["tank_bbl"]


def test_a_well_is_plugged_only_when_shut_in_without_pending_work(ep: Episode) -> None:
    refused(ep, "plug_well", "rule_violation", "well_id", well_id=producing(ep)["id"])
    busy = every(ep, "list_workovers", status="in_progress")[0]
    refused(ep, "plug_well", "rule_violation", "well_id", well_id=busy["well_id"])
    for well in every(ep, "list_wells", status="shut_in"):
        if well["id"] != busy["well_id"]:
            assert ok(ep, "plug_well", well_id=well["id"])["status"] == "plugged"
            refused(ep, "update_well", "rule_violation", "well_id", well_id=well["id"], lift="esp")
            return
    raise AssertionError("no free shut-in well")


def test_lease_totals_sum_reports_and_royalty(ep: Episode) -> None:
    lease = every(ep, "list_leases")[0]
    totals = ok(ep, "lease_totals", lease_id=lease["id"], start=day(-7), end=day(-1))
    rows = [r for r in every(ep, "list_production_reports", lease_id=lease["id"]) if day(-7) <= r["report_date"]]
    oil = round(sum(r["oil_bbl"] for r in rows), 2)
    assert (totals["days"], totals["oil_bbl"]) == (7, oil)
    assert totals["royalty_bbl"] == round(oil * lease["royalty_pct"] / 100, 2)
    refused(ep, "lease_totals", "rule_violation", "end", lease_id=lease["id"], start=day(-1), end=day(-3))
