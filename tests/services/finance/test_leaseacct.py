"""Leasebook: ASC 842 classification, activation schedules, monthly journals, modifications, terminations."""

from __future__ import annotations

from typing import Any

from compoworld import Episode
from compoworld.services.finance.leaseacct import period_of, present_value
from tests.services.helpers import ServiceTools

LA = ServiceTools("leaseacct")
WORLD = LA.world
ok, refused, every = LA.ok, LA.refused, LA.every
POP = WORLD.population
TODAY = WORLD.epoch.date()
NOW = period_of(TODAY)
ME = POP.employees[0].email


def draft(ep: Episode, **over: Any) -> dict[str, Any]:
    args = {
        "name": "Warehouse racking",
        "lessor_name": "Initech",
        "asset_type": "equipment",
        "owner_email": ME,
        "commencement_date": TODAY.replace(day=1).isoformat(),
        "term_months": 24,
        "monthly_payment": 100_000,
        "discount_rate": 6.0,
        "asset_fair_value": 10_000_000,
        "asset_life_months": 120,
    } | over
    made: dict[str, Any] = ok(ep, "create_lease", **args)
    return made


def test_seeded_leases_come_from_world_lessors_and_reconcile(ep: Episode) -> None:
    names = {c.name for c in POP.customers}
    for lease in every(ep, "list_leases", status="active"):
        assert lease["lessor_name"] in names and lease["classification"] in ("operating", "finance")
        left = every(ep, "list_schedule_rows", lease_id=lease["id"], journaled=False)
        done = every(ep, "list_schedule_rows", lease_id=lease["id"], journaled=True)
        assert lease["liability_balance"] == (
            done[-1]["liability_end"]
            if done
            else present_value(lease["monthly_payment"], lease["term_months"], lease["discount_rate"])
        )
        assert left[-1]["liability_end"] == 0


def test_classification_follows_the_asc842_criteria(ep: Episode) -> None:
    op = ok(ep, "classify_lease", lease_id=draft(ep)["id"])
    assert (op["classification"], op["reasons"]) == ("operating", [])
    long = ok(ep, "classify_lease", lease_id=draft(ep, asset_life_months=30)["id"])
    assert long["classification"] == "finance" and long["term_share"] == 80.0
    pv = ok(ep, "classify_lease", lease_id=draft(ep, asset_fair_value=2_000_000)["id"])
    assert pv["classification"] == "finance" and pv["value_share"] >= 90


def test_activation_needs_a_classification_and_books_the_present_value(ep: Episode) -> None:
    lease = draft(ep)
    refused(ep, "activate_lease", "rule_violation", "lease_id", lease_id=lease["id"])
    ok(ep, "classify_lease", lease_id=lease["id"])
    active = ok(ep, "activate_lease", lease_id=lease["id"])
    pv = present_value(100_000, 24, 6.0)
    assert active["liability_balance"] == active["rou_asset_balance"] == pv
    rows = every(ep, "list_schedule_rows", lease_id=lease["id"])
    assert len(rows) == 24 and sum(r["principal"] for r in rows) == pv
    [entry] = every(ep, "list_journal_entries", lease_id=lease["id"])
    assert (entry["kind"], entry["amount"]) == ("initial_recognition", pv)
    refused(ep, "update_lease", "rule_violation", "lease_id", lease_id=lease["id"], monthly_payment=1)
    refused(ep, "delete_lease", "rule_violation", "lease_id", lease_id=lease["id"])


def test_changing_a_draft_clears_its_classification(ep: Episode) -> None:
    lease = draft(ep)
    ok(ep, "classify_lease", lease_id=lease["id"])
    changed = ok(ep, "update_lease", lease_id=lease["id"], term_months=100)
    assert changed["classification"] == "unclassified"


def test_monthly_journals_are_generated_once_and_move_balances(ep: Episode) -> None:
    refused(ep, "generate_period_journals", "rule_violation", "period", period="2999-01")
    before = {x["id"]: x for x in every(ep, "list_leases", status="active")}
    made = ok(ep, "generate_period_journals", period=NOW)
    assert made and all(j["period"] == NOW and j["status"] == "draft" for j in made)
    for lease_id, old in before.items():
        [row] = every(ep, "list_schedule_rows", lease_id=lease_id, period=NOW)
        assert row["journaled"] and ok(ep, "get_lease", lease_id=lease_id)["liability_balance"] == row["liability_end"]
        assert row["liability_end"] < old["liability_balance"]
    refused(ep, "generate_period_journals", "rule_violation", "period", period=NOW)
    posted = ok(ep, "post_period", period=NOW)
    assert {j["status"] for j in posted} == {"posted"}
    refused(ep, "post_journal_entry", "rule_violation", "journal_entry_id", journal_entry_id=posted[0]["id"])


def test_a_modification_remeasures_the_remaining_liability(ep: Episode) -> None:
    lease = every(ep, "list_leases", status="active")[0]
    args = {"lease_id": lease["id"], "reason": "Rent review", "recorded_by": ME}
    refused(
        ep,
        "modify_lease",
        "rule_violation",
        "new_monthly_payment",
        new_monthly_payment=lease["monthly_payment"],
        new_term_months=lease["term_months"],
        **args,
    )
    refused(ep, "modify_lease", "rule_violation", "new_term_months", new_monthly_payment=1, new_term_months=1, **args)
    mod = ok(
        ep,
        "modify_lease",
        new_monthly_payment=lease["monthly_payment"] * 2,
        new_term_months=lease["term_months"],
        **args,
    )
    assert mod["adjustment"] > 0 and mod["old_payment"] == lease["monthly_payment"]
    after = ok(ep, "get_lease", lease_id=lease["id"])
    assert after["liability_balance"] == lease["liability_balance"] + mod["adjustment"]
    future = [
        r for r in every(ep, "list_schedule_rows", lease_id=lease["id"]) if r["period"] == mod["effective_period"]
    ]
    assert future[0]["payment"] == lease["monthly_payment"] * 2


def test_termination_writes_off_balances_and_stops_the_schedule(ep: Episode) -> None:
    lease = every(ep, "list_leases", status="active")[0]
    ended = ok(ep, "terminate_lease", lease_id=lease["id"], termination_payment=50_000)
    assert (ended["status"], ended["liability_balance"], ended["rou_asset_balance"]) == ("terminated", 0, 0)
    assert not every(ep, "list_schedule_rows", lease_id=lease["id"], journaled=False)
    kinds = {j["kind"] for j in every(ep, "list_journal_entries", lease_id=lease["id"])}
    assert "termination" in kinds
    refused(ep, "terminate_lease", "rule_violation", "lease_id", lease_id=lease["id"])


def test_maturity_analysis_reconciles_to_the_liability(ep: Episode) -> None:
    report = ok(ep, "maturity_analysis")
    active = every(ep, "list_leases", status="active")
    assert report["liability"] == sum(x["liability_balance"] for x in active)
    assert report["undiscounted_total"] == sum(
        ok(ep, "lease_balance", lease_id=x["id"])["remaining_payments"] for x in active
    )
