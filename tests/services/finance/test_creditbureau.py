"""Trade Ledger Credit: credit files of world companies, report pulls, tradelines moving scores, alerts, disputes."""

from __future__ import annotations

from typing import Any

from compoworld import Episode
from compoworld.services.finance.creditbureau import paydex_of, risk_of
from tests.services.helpers import ServiceTools

CB = ServiceTools("creditbureau")
WORLD = CB.world
ok, refused, every = CB.ok, CB.refused, CB.every
POP = WORLD.population
ME = POP.employees[0].email


def file_of(ep: Episode, index: int = 0) -> dict[str, Any]:
    return every(ep, "list_credit_files")[index]


def test_every_world_company_has_a_consistent_credit_file(ep: Episode) -> None:
    files = every(ep, "list_credit_files")
    assert {f["company_name"] for f in files} == {c.name for c in POP.customers}
    assert len({f["duns_number"] for f in files}) == len(files)
    for f in files:
        assert f["paydex"] == paydex_of(f["days_beyond_terms"])
        assert f["risk_class"] == risk_of(f["intelliscore"], f["bankrupt"])


def test_a_report_snapshots_the_file_and_is_not_bought_twice_a_day(ep: Episode) -> None:
    f = file_of(ep, 10)
    args = {"company_name": f["company_name"], "report_type": "comprehensive", "purpose": "supplier_vetting"}
    refused(ep, "pull_report", "rule_violation", "pulled_by", pulled_by="someone@outside.io", **args)
    refused(
        ep,
        "pull_report",
        "rule_violation",
        "company_name",
        pulled_by=ME,
        **(args | {"company_name": "No Such Company"}),
    )
    rep = ok(ep, "pull_report", pulled_by=ME, **args)
    assert (rep["paydex"], rep["intelliscore"], rep["price"]) == (f["paydex"], f["intelliscore"], 12_995)
    refused(ep, "pull_report", "conflict", "company_name", pulled_by=ME, **args)
    assert ok(ep, "pull_report", pulled_by=ME, **(args | {"report_type": "business_profile"}))["price"] == 3_995


def test_late_trade_experience_lowers_scores_and_alerts_monitors(ep: Episode) -> None:
    mon = every(ep, "list_monitors", status="active")[0]
    f = ok(ep, "get_credit_file", credit_file_id=mon["file_id"])
    ok(ep, "update_monitor", monitor_id=mon["id"], alert_on=["late_payment", "score_drop"], score_drop_points=1)
    before = len(every(ep, "list_alerts", monitor_id=mon["id"]))
    ok(
        ep,
        "report_tradeline",
        company_name=f["company_name"],
        credit_limit=1_000_000,
        balance=900_000,
        days_beyond_terms=f["days_beyond_terms"] + 60,
        reported_by=ME,
    )
    after = ok(ep, "get_credit_file", credit_file_id=f["id"])
    assert after["intelliscore"] < f["intelliscore"] and after["days_beyond_terms"] > f["days_beyond_terms"]
    assert after["paydex"] == paydex_of(after["days_beyond_terms"])
    kinds = [a["kind"] for a in every(ep, "list_alerts", monitor_id=mon["id"])[before:]]
    assert sorted(kinds) == ["late_payment", "score_drop"]


def test_paused_monitors_stay_quiet_and_tradelines_respect_limits(ep: Episode) -> None:
    mon = every(ep, "list_monitors", status="paused")[0]
    f = ok(ep, "get_credit_file", credit_file_id=mon["file_id"])
    refused(
        ep,
        "report_tradeline",
        "rule_violation",
        "balance",
        company_name=f["company_name"],
        credit_limit=10,
        balance=11,
        days_beyond_terms=0,
        reported_by=ME,
    )
    ok(
        ep,
        "report_tradeline",
        company_name=f["company_name"],
        credit_limit=100,
        balance=10,
        days_beyond_terms=90,
        reported_by=ME,
    )
    assert len(every(ep, "list_alerts", monitor_id=mon["id"])) == 0


def test_one_monitor_per_person_and_company(ep: Episode) -> None:
    mon = every(ep, "list_monitors")[0]
    refused(
        ep,
        "create_monitor",
        "conflict",
        "file_id",
        file_id=mon["file_id"],
        owner_email=mon["owner_email"],
        alert_on=["bankruptcy"],
    )
    refused(
        ep,
        "create_monitor",
        "rule_violation",
        "alert_on",
        file_id=file_of(ep, 20)["id"],
        owner_email=ME,
        alert_on=["new_lien", "new_lien"],
    )
    made = ok(ep, "create_monitor", file_id=file_of(ep, 20)["id"], owner_email=ME, alert_on=["new_lien"])
    assert made["company_name"] == file_of(ep, 20)["company_name"] and made["status"] == "active"


def test_alerts_are_acknowledged_then_dismissed(ep: Episode) -> None:
    alert = every(ep, "list_alerts", status="new")[0]
    assert ok(ep, "acknowledge_alert", alert_id=alert["id"])["status"] == "acknowledged"
    refused(ep, "acknowledge_alert", "rule_violation", "alert_id", alert_id=alert["id"])
    assert ok(ep, "dismiss_alert", alert_id=alert["id"])["status"] == "dismissed"


def test_disputes_run_one_per_topic_and_resolve_after_investigation(ep: Episode) -> None:
    d = every(ep, "list_disputes", status="open")[0]
    refused(
        ep,
        "create_dispute",
        "conflict",
        "topic",
        file_id=d["file_id"],
        topic=d["topic"],
        description="Again",
        filed_by=ME,
    )
    refused(ep, "resolve_dispute", "rule_violation", "dispute_id", dispute_id=d["id"], upheld=True, resolution="x")
    ok(ep, "investigate_dispute", dispute_id=d["id"])
    refused(ep, "resolve_dispute", "rule_violation", "resolution", dispute_id=d["id"], upheld=True, resolution=" ")
    done = ok(ep, "resolve_dispute", dispute_id=d["id"], upheld=True, resolution="Supplier corrected its report")
    assert done["status"] == "resolved"
    f = ok(ep, "get_credit_file", credit_file_id=d["file_id"])
    assert (f["days_beyond_terms"], f["paydex"]) == (0, 80)


def test_a_rejected_dispute_leaves_the_file_unchanged(ep: Episode) -> None:
    d = every(ep, "list_disputes", status="investigating")[0]
    f = ok(ep, "get_credit_file", credit_file_id=d["file_id"])
    assert ok(ep, "resolve_dispute", dispute_id=d["id"], upheld=False, resolution="Confirmed")["status"] == "rejected"
    assert ok(ep, "get_credit_file", credit_file_id=d["file_id"]) == f
