"""Sentry Hive: alert import and merge, observable dedup and formats, the case life cycle and its tasks."""

from __future__ import annotations

from typing import Any

from compoworld import Episode
from tests.services.helpers import ServiceTools

SECOPS = ServiceTools("secops")
WORLD = SECOPS.world
ok, refused, every = SECOPS.ok, SECOPS.refused, SECOPS.every
POP = WORLD.population
STAFF = {p.email for p in POP.employees}


def case_with(ep: Episode, status: str, *, mandatory_open: bool) -> dict[str, Any]:
    for case in every(ep, "list_cases", status=status):
        tasks = every(ep, "list_tasks", case_id=case["id"], mandatory=True)
        if any(t["status"] in ("Waiting", "InProgress") for t in tasks) == mandatory_open:
            return case
    raise AssertionError(f"no {status} case with mandatory_open={mandatory_open}")


def new_alert(ep: Episode, ref: str, observables: list[dict[str, Any]], severity: int = 2) -> dict[str, Any]:
    made: dict[str, Any] = ok(
        ep,
        "create_alert",
        type="edr-detection",
        source="EDR",
        source_ref=ref,
        title="Credential dumping attempt",
        severity=severity,
        observables=observables,
    )
    return made


def test_seeded_alerts_and_cases_come_from_the_population_and_the_home_staff(ep: Episode) -> None:
    alerts = every(ep, "list_alerts")
    reporters = {a["reporter_email"] for a in alerts if a["type"] == "phishing-report"}
    assert reporters and reporters <= STAFF
    assert {a["status"] for a in alerts} == {"New", "Imported", "Ignored"}
    for a in every(ep, "list_alerts", status="Imported"):
        assert a["case_id"] is not None
        case_obs = {(o["data_type"], o["data"]) for o in every(ep, "list_observables", case_id=a["case_id"])}
        assert {(o["data_type"], o["data"]) for o in a["observables"]} <= case_obs
    cases = every(ep, "list_cases")
    assert {c["status"] for c in cases} == {"New", "InProgress", "Resolved"}
    assert {c["assignee"] for c in cases} <= STAFF
    for c in every(ep, "list_cases", status="Resolved"):
        assert c["resolution_status"] and c["summary"] and c["end_date"]


def test_promoting_an_alert_opens_a_case_with_its_observables_once(ep: Episode) -> None:
    alert = every(ep, "list_alerts", status="New")[0]
    analyst = sorted(STAFF)[0]
    res = ok(ep, "promote_alert", alert_id=alert["id"], assignee=analyst)
    case = res["case"]
    assert (case["title"], case["severity"], case["tlp"], case["status"]) == (
        alert["title"],
        alert["severity"],
        alert["tlp"],
        "New",
    )
    assert res["alert"]["status"] == "Imported" and res["alert"]["case_id"] == case["id"]
    assert (
        res["observables_added"] == len(alert["observables"]) == len(every(ep, "list_observables", case_id=case["id"]))
    )
    refused(ep, "promote_alert", "conflict", "alert_id", alert_id=alert["id"])
    ignored = every(ep, "list_alerts", status="Ignored")[0]
    refused(ep, "promote_alert", "rule_violation", "alert_id", alert_id=ignored["id"])
    other = every(ep, "list_alerts", status="New")[0]
    refused(ep, "promote_alert", "rule_violation", "assignee", alert_id=other["id"], assignee="someone@example.org")


def test_merging_an_alert_dedups_observables_and_raises_the_severity(ep: Episode) -> None:
    case = case_with(ep, "InProgress", mandatory_open=True)
    known = every(ep, "list_observables", case_id=case["id"])[0]
    alert = new_alert(
        ep,
        "EDR-9001",
        [
            {"data_type": known["data_type"], "data": known["data"], "ioc": True},
            {"data_type": "ip", "data": "203.0.113.9"},
        ],
        severity=4,
    )
    res = ok(ep, "merge_alert_into_case", alert_id=alert["id"], case_id=case["id"])
    assert (res["observables_added"], res["observables_merged"]) == (1, 1)
    assert res["case"]["severity"] == 4
    pairs = [(o["data_type"], o["data"]) for o in every(ep, "list_observables", case_id=case["id"])]
    assert len(pairs) == len(set(pairs)) and ("ip", "203.0.113.9") in pairs
    resolved = every(ep, "list_cases", status="Resolved")[0]
    second = new_alert(ep, "EDR-9002", [])
    refused(ep, "merge_alert_into_case", "rule_violation", "case_id", alert_id=second["id"], case_id=resolved["id"])


def test_an_alert_is_unique_by_type_source_and_reference_and_its_observables_must_fit_their_type(
    ep: Episode,
) -> None:
    taken = every(ep, "list_alerts", type="edr-detection")[0]
    refused(
        ep,
        "create_alert",
        "conflict",
        "source_ref",
        type=taken["type"],
        source=taken["source"],
        source_ref=taken["source_ref"],
        title="Same detection again",
    )
    refused(
        ep,
        "create_alert",
        "rule_violation",
        "observables[1].data",
        type="ids",
        source="Network IDS",
        source_ref="NET-1",
        title="Scan",
        observables=[{"data_type": "domain", "data": "Scan.Example.COM"}, {"data_type": "ip", "data": "10.0.0.300"}],
    )
    made = new_alert(
        ep,
        "EDR-9003",
        [{"data_type": "domain", "data": "Bad.Example.com"}, {"data_type": "domain", "data": "bad.example.com"}],
    )
    assert made["observables"] == [{"data_type": "domain", "data": "bad.example.com", "ioc": False}]


def test_an_observable_is_unique_per_case_by_type_and_normalised_value(ep: Episode) -> None:
    case = case_with(ep, "InProgress", mandatory_open=True)
    digest = "AB" * 32
    obs = ok(ep, "add_observable", case_id=case["id"], data_type="hash", data=digest, ioc=True)
    assert obs["data"] == digest.lower() and obs["ioc"] is True
    refused(ep, "add_observable", "conflict", "data", case_id=case["id"], data_type="hash", data=digest.lower())
    refused(ep, "add_observable", "rule_violation", "data", case_id=case["id"], data_type="hash", data="abc123")
    refused(ep, "add_observable", "rule_violation", "data", case_id=case["id"], data_type="mail", data="not-an-address")
    other = every(ep, "list_cases", status="New")[0]
    ok(ep, "add_observable", case_id=other["id"], data_type="hash", data=digest)


def test_a_case_resolves_only_in_progress_with_mandatory_tasks_done(ep: Episode) -> None:
    args = {"resolution_status": "TruePositive", "impact_status": "WithImpact", "summary": "Host reimaged."}
    blocked = case_with(ep, "InProgress", mandatory_open=True)
    refused(ep, "resolve_case", "rule_violation", "case_id", case_id=blocked["id"], **args)
    new = every(ep, "list_cases", status="New")[0]
    refused(ep, "resolve_case", "rule_violation", "case_id", case_id=new["id"], **args)
    ready = case_with(ep, "InProgress", mandatory_open=False)
    refused(
        ep,
        "resolve_case",
        "rule_violation",
        "impact_status",
        case_id=ready["id"],
        resolution_status="FalsePositive",
        impact_status="WithImpact",
        summary="Benign.",
    )
    refused(ep, "resolve_case", "rule_violation", "summary", case_id=ready["id"], **(args | {"summary": "  "}))
    done = ok(ep, "resolve_case", case_id=ready["id"], **args)
    assert (done["status"], done["resolution_status"], done["summary"]) == (
        "Resolved",
        "TruePositive",
        "Host reimaged.",
    )
    assert {t["status"] for t in every(ep, "list_tasks", case_id=ready["id"])} <= {"Completed", "Cancel"}
    for task in every(ep, "list_tasks", case_id=blocked["id"], mandatory=True):
        if task["status"] == "Waiting":
            ok(ep, "complete_task", task_id=task["id"])
    assert ok(ep, "resolve_case", case_id=blocked["id"], **args)["status"] == "Resolved"


def test_a_resolved_case_is_frozen_until_reopened(ep: Episode) -> None:
    case = every(ep, "list_cases", status="Resolved")[0]
    refused(ep, "update_case", "rule_violation", "case_id", case_id=case["id"], severity=4)
    refused(ep, "add_observable", "rule_violation", "case_id", case_id=case["id"], data_type="ip", data="192.0.2.1")
    refused(ep, "create_task", "rule_violation", "case_id", case_id=case["id"], title="Look again")
    again = ok(ep, "reopen_case", case_id=case["id"])
    assert (again["status"], again["resolution_status"], again["summary"], again["end_date"]) == (
        "InProgress",
        None,
        None,
        None,
    )
    assert ok(ep, "update_case", case_id=case["id"], severity=4)["severity"] == 4
    refused(ep, "reopen_case", "conflict", "case_id", case_id=case["id"])


def test_starting_a_case_needs_a_staff_assignee_and_tasks_wait_for_the_start(ep: Episode) -> None:
    refused(ep, "create_case", "rule_violation", "assignee", title="Lost laptop", assignee="x@partner-mail.com")
    case = ok(ep, "create_case", title="Lost laptop", severity=3)
    refused(ep, "start_case", "rule_violation", "case_id", case_id=case["id"])
    task = ok(ep, "create_task", case_id=case["id"], title="Remote wipe", mandatory=True)
    refused(ep, "complete_task", "rule_violation", "task_id", task_id=task["id"])
    ok(ep, "update_case", case_id=case["id"], assignee=sorted(STAFF)[1])
    assert ok(ep, "start_case", case_id=case["id"])["status"] == "InProgress"
    assert ok(ep, "complete_task", task_id=task["id"])["status"] == "Completed"
    refused(ep, "cancel_task", "rule_violation", "task_id", task_id=task["id"])


def test_an_ignored_alert_leaves_triage(ep: Episode) -> None:
    alert = every(ep, "list_alerts", status="New")[0]
    assert ok(ep, "ignore_alert", alert_id=alert["id"])["status"] == "Ignored"
    refused(ep, "ignore_alert", "rule_violation", "alert_id", alert_id=alert["id"])
    assert alert["id"] not in {a["id"] for a in every(ep, "list_alerts", status="New")}
