"""Vigil Monitoring: thresholds, alert states and who is notified, downtimes, SLOs built on monitors."""

from __future__ import annotations

import datetime as dt
from typing import Any

from compoworld import Episode
from tests.services.helpers import ServiceTools

MONITORING = ServiceTools("monitoring")
WORLD = MONITORING.world
ok, refused, every = MONITORING.ok, MONITORING.refused, MONITORING.every
POP = WORLD.population
NOW = WORLD.epoch
STAFF = [p.email for p in POP.employees]


def quiet_monitor(ep: Episode, **extra: Any) -> dict[str, Any]:
    return every(ep, "list_monitors", overall_state="OK", muted=False, **extra)[0]


def new_monitor(ep: Episode, **fields: Any) -> dict[str, Any]:
    args: dict[str, Any] = {
        "name": "Queue depth",
        "query": "avg(last_5m):avg:queue.depth{service:checkout}",
        "critical_threshold": 100.0,
        "warning_threshold": 50.0,
        "notify_emails": STAFF[:2],
        "creator_email": STAFF[0],
    }
    args.update(fields)
    return dict(ok(ep, "create_monitor", **args))


# -- the world ------------------------------------------------------------------------------


def test_monitors_notify_employees_and_cover_every_state() -> None:
    ep = Episode(WORLD)
    mons = every(ep, "list_monitors")
    assert {m["overall_state"] for m in mons} == {"OK", "Warn", "Alert", "No Data"}
    assert all(e in STAFF for m in mons for e in m["notify_emails"])
    assert any(m["muted"] for m in mons)


# -- thresholds ---------------------------------------------------------------------------------


def test_a_warning_threshold_at_or_past_the_critical_one_is_refused(ep: Episode) -> None:
    base = {"name": "Bad", "query": "avg:cpu{*}", "creator_email": STAFF[0]}
    refused(
        ep,
        "create_monitor",
        "rule_violation",
        "warning_threshold",
        critical_threshold=90.0,
        warning_threshold=95.0,
        **base,
    )
    refused(
        ep,
        "create_monitor",
        "rule_violation",
        "warning_threshold",
        comparator="<",
        critical_threshold=5.0,
        warning_threshold=2.0,
        **base,
    )
    mon = quiet_monitor(ep)
    refused(ep, "update_monitor", "rule_violation", "warning_threshold", monitor_id=mon["id"], warning_threshold=1e6)


def test_only_employees_can_be_notified(ep: Episode) -> None:
    outsider = POP.consumers[0].email
    base = {"name": "X", "query": "avg:cpu{*}", "critical_threshold": 1.0, "creator_email": STAFF[0]}
    refused(ep, "create_monitor", "rule_violation", "notify_emails.0", notify_emails=[outsider], **base)


# -- evaluating ---------------------------------------------------------------------------------


def test_crossing_the_critical_threshold_alerts_and_notifies_the_handles(ep: Episode) -> None:
    mon = new_monitor(ep)
    snap = ep.snapshot()
    warn = ok(ep, "submit_monitor_value", monitor_id=mon["id"], value=60.0)
    assert warn["state"] == "Warn"
    res = ok(ep, "submit_monitor_value", monitor_id=mon["id"], value=150.0)
    assert res["previous_state"] == "Warn" and res["state"] == "Alert"
    assert res["notified_emails"] == STAFF[:2] and res["silenced_by"] is None
    assert res["event"]["alert_type"] == "error"
    assert ep.diff(snap).counts() == {
        "monitoring.events": {"added": 2, "updated": 0, "removed": 0},
        "monitoring.monitors": {"added": 0, "updated": 1, "removed": 0},
    }


def test_a_muted_monitor_changes_state_but_notifies_nobody(ep: Episode) -> None:
    mon = new_monitor(ep)
    refused(
        ep, "mute_monitor", "rule_violation", "end", monitor_id=mon["id"], end=(NOW - dt.timedelta(hours=1)).isoformat()
    )
    ok(ep, "mute_monitor", monitor_id=mon["id"])
    res = ok(ep, "submit_monitor_value", monitor_id=mon["id"], value=500.0)
    assert res["state"] == "Alert" and res["notified_emails"] == [] and res["silenced_by"] == "mute"
    ok(ep, "unmute_monitor", monitor_id=mon["id"])
    back = ok(ep, "submit_monitor_value", monitor_id=mon["id"], value=1.0)
    assert back["state"] == "OK" and back["notified_emails"] == STAFF[:2]


def test_an_active_downtime_on_the_tag_silences_the_monitor(ep: Episode) -> None:
    mon = new_monitor(ep, tags=["service:email"])
    res = ok(ep, "submit_monitor_value", monitor_id=mon["id"], value=500.0)
    assert res["silenced_by"] == "downtime" and res["notified_emails"] == []


def test_the_same_state_again_records_no_event(ep: Episode) -> None:
    mon = quiet_monitor(ep)
    low = mon["critical_threshold"] - 1 if mon["comparator"] in (">", ">=") else mon["critical_threshold"] + 1
    if mon["warning_threshold"] is not None:
        low = mon["warning_threshold"] - 1 if mon["comparator"] in (">", ">=") else mon["warning_threshold"] + 1
    res = ok(ep, "submit_monitor_value", monitor_id=mon["id"], value=low)
    assert res["state"] == "OK" and res["event"] is None


# -- downtimes ----------------------------------------------------------------------------------


def test_a_downtime_must_end_after_it_starts_and_in_the_future(ep: Episode) -> None:
    mon = quiet_monitor(ep)
    start = NOW + dt.timedelta(hours=2)
    refused(
        ep,
        "create_downtime",
        "rule_violation",
        "end",
        monitor_id=mon["id"],
        start=start.isoformat(),
        end=NOW.isoformat(),
    )
    past = NOW - dt.timedelta(days=2)
    refused(
        ep,
        "create_downtime",
        "rule_violation",
        "end",
        monitor_id=mon["id"],
        start=past.isoformat(),
        end=(past + dt.timedelta(hours=1)).isoformat(),
    )
    made = ok(
        ep,
        "create_downtime",
        monitor_id=mon["id"],
        start=start.isoformat(),
        end=(start + dt.timedelta(hours=1)).isoformat(),
    )
    assert ok(ep, "cancel_downtime", downtime_id=made["id"])["status"] == "canceled"


# -- SLOs ---------------------------------------------------------------------------------------


def test_an_slo_target_must_lie_strictly_between_0_and_100(ep: Episode) -> None:
    mon = quiet_monitor(ep)
    for target in (0, 100):
        refused(ep, "create_slo", "rule_violation", "target", name="Uptime", monitor_ids=[mon["id"]], target=target)
    refused(
        ep, "create_slo", "rule_violation", "warning", name="Uptime", monitor_ids=[mon["id"]], target=99.0, warning=98.0
    )
    slo = ok(ep, "create_slo", name="Uptime", monitor_ids=[mon["id"]], target=99.0, warning=99.5)
    status = ok(ep, "get_slo_status", slo_id=slo["id"])
    assert status["state"] == "ok" and status["error_budget_remaining"] == 100.0


def test_a_monitor_used_by_an_slo_cannot_be_deleted(ep: Episode) -> None:
    slo = every(ep, "list_slos")[0]
    refused(ep, "delete_monitor", "rule_violation", None, monitor_id=slo["monitor_ids"][0])
    mon = new_monitor(ep)
    snap = ep.snapshot()
    ok(ep, "delete_monitor", monitor_id=mon["id"])
    assert ep.diff(snap).counts() == {"monitoring.monitors": {"added": 0, "updated": 0, "removed": 1}}


def test_a_breached_slo_reports_a_blown_error_budget(ep: Episode) -> None:
    breached = next(s for s in every(ep, "list_slos") if s["sli_value"] < s["target"])
    status = ok(ep, "get_slo_status", slo_id=breached["id"])
    assert status["state"] == "breached" and status["error_budget_remaining"] < 0


def test_monitors_notifying_a_person_are_found_by_their_work_email(ep: Episode) -> None:
    mon = every(ep, "list_monitors")[0]
    email = mon["notify_emails"][0]
    found = ok(ep, "list_monitors_notifying", email=email)
    assert mon["id"] in {m["id"] for m in found}
    refused(ep, "list_monitors_notifying", "not_found", "email", email=POP.consumers[0].email)
