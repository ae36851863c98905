"""Tallymeter: report spend by filters and grouping, budget thresholds fire once, anomalies, recommendations."""

from __future__ import annotations

from typing import Any

from compoworld import Episode
from tests.services.helpers import ServiceTools

CC = ServiceTools("cloudcost")
WORLD = CC.world
ok, refused, every = CC.ok, CC.refused, CC.every
POP = WORLD.population
STAFF = {p.email for p in POP.employees}
ENGINEER = POP.employees[0].email
MONTH = WORLD.epoch.date().replace(day=1).isoformat()


def report(ep: Episode, title: str) -> dict[str, Any]:
    return every(ep, "list_cost_reports", query=title)[0]


def test_seeded_costs_belong_to_known_teams_and_teams_are_staff(ep: Episode) -> None:
    teams = every(ep, "list_teams")
    names = {t["name"] for t in teams}
    for t in teams:
        assert set(t["member_emails"]) <= STAFF
    assert {c["team"] for c in every(ep, "list_costs")} <= names
    for b in every(ep, "list_budgets"):
        assert set(b["alert_emails"]) <= STAFF


def test_a_report_sums_only_what_its_filters_select(ep: Episode) -> None:
    rep = report(ep, "AWS by service")
    res = ok(ep, "report_costs", cost_report_id=rep["id"])
    aws = [c for c in every(ep, "list_costs", month=MONTH) if c["provider"] == "aws"]
    assert res["total"] == sum(c["amount"] for c in aws)
    assert {line["key"] for line in res["lines"]} == {c["service"] for c in aws}
    amounts = [line["amount"] for line in res["lines"]]
    assert amounts == sorted(amounts, reverse=True)


def test_changing_the_grouping_regroups_the_same_total(ep: Episode) -> None:
    rep = report(ep, "Data platform spend")
    before = ok(ep, "report_costs", cost_report_id=rep["id"])
    ok(ep, "update_cost_report", cost_report_id=rep["id"], group_by="region")
    after = ok(ep, "report_costs", cost_report_id=rep["id"])
    assert after["total"] == before["total"] and {x["key"] for x in after["lines"]} <= {"us", "us-east-1", "global"}
    refused(ep, "update_cost_report", "rule_violation", "teams", cost_report_id=rep["id"], teams=["nobody"])


def test_budget_thresholds_fire_once_a_month(ep: Episode) -> None:
    rep = report(ep, "All cloud by team")
    total = ok(ep, "report_costs", cost_report_id=rep["id"])["total"]
    bud = ok(
        ep,
        "create_budget",
        name="Everything",
        cost_report_id=rep["id"],
        amount=total,
        thresholds=[50, 100, 120],
        alert_emails=[ENGINEER],
    )
    fired = ok(ep, "evaluate_budget", budget_id=bud["id"])
    assert [a["threshold"] for a in fired] == [50, 100]
    assert fired[0]["recipients"] == [ENGINEER] and fired[0]["spend"] == total
    assert ok(ep, "evaluate_budget", budget_id=bud["id"]) == []


def test_budgets_refuse_bad_thresholds_amounts_and_outsiders(ep: Episode) -> None:
    rep = report(ep, "All cloud by team")
    base = {"name": "X", "cost_report_id": rep["id"], "amount": 100_000, "alert_emails": [ENGINEER]}
    refused(ep, "create_budget", "rule_violation", "thresholds", **(base | {"thresholds": [100, 80]}))
    refused(ep, "create_budget", "rule_violation", "amount", **(base | {"amount": 0}))
    refused(ep, "create_budget", "rule_violation", "alert_emails", **(base | {"alert_emails": ["cfo@else.io"]}))
    used = report(ep, "AWS by service")
    refused(ep, "delete_cost_report", "conflict", "cost_report_id", cost_report_id=used["id"])


def test_deleting_a_budget_removes_its_alerts(ep: Episode) -> None:
    bud = every(ep, "list_budgets", query="AWS monthly")[0]
    assert every(ep, "list_budget_alerts", budget_id=bud["id"])
    ok(ep, "delete_budget", budget_id=bud["id"])
    assert all(a["budget_id"] != bud["id"] for a in every(ep, "list_budget_alerts"))


def test_anomalies_are_acknowledged_with_feedback_then_archived(ep: Episode) -> None:
    an = every(ep, "list_anomalies", status="active")[0]
    refused(ep, "archive_anomaly", "rule_violation", "anomaly_id", anomaly_id=an["id"])
    refused(ep, "acknowledge_anomaly", "rule_violation", "feedback", anomaly_id=an["id"], feedback="none")
    ok(ep, "acknowledge_anomaly", anomaly_id=an["id"], feedback="not_ok")
    refused(ep, "acknowledge_anomaly", "conflict", "anomaly_id", anomaly_id=an["id"], feedback="ok")
    refused(ep, "archive_anomaly", "rule_violation", "anomaly_id", anomaly_id=an["id"])
    other = every(ep, "list_anomalies", status="acknowledged", feedback="ok")[0]
    assert ok(ep, "archive_anomaly", anomaly_id=other["id"])["status"] == "archived"


def test_recommendations_are_assigned_before_implemented_and_dismissed_with_reason(ep: Episode) -> None:
    rec = next(r for r in every(ep, "list_recommendations", status="open") if r["assignee"] is None)
    refused(ep, "implement_recommendation", "rule_violation", "recommendation_id", recommendation_id=rec["id"])
    refused(ep, "assign_recommendation", "rule_violation", "assignee", recommendation_id=rec["id"], assignee="a@b.io")
    ok(ep, "assign_recommendation", recommendation_id=rec["id"], assignee=ENGINEER)
    assert ok(ep, "implement_recommendation", recommendation_id=rec["id"])["status"] == "implemented"
    refused(ep, "dismiss_recommendation", "conflict", "recommendation_id", recommendation_id=rec["id"], reason="x")
    other = every(ep, "list_recommendations", status="open")[0]
    refused(ep, "dismiss_recommendation", "rule_violation", "reason", recommendation_id=other["id"], reason=" ")


def test_savings_by_team_totals_open_recommendations(ep: Episode) -> None:
    lines = ok(ep, "savings_by_team")
    recs = every(ep, "list_recommendations", status="open")
    assert sum(x["amount"] for x in lines) == sum(r["monthly_savings"] for r in recs)
    made = ok(ep, "create_team", name="mobile", member_emails=[ENGINEER])
    assert made["name"] == "mobile"
    refused(ep, "create_team", "conflict", "name", name="mobile", member_emails=[])
    refused(ep, "create_team", "rule_violation", "member_emails", name="web", member_emails=["x@y.io"])
