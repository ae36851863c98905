"""Bastion Exposure: scan launches and states, risk acceptance with expiry, recasts, asset inventory, exposure."""

from __future__ import annotations

import datetime as dt
from typing import Any

from compoworld import Episode
from tests.services.helpers import ServiceTools

VULN = ServiceTools("vulnscan")
WORLD = VULN.world
ok, refused, every = VULN.ok, VULN.refused, VULN.every
POP = WORLD.population
TODAY = WORLD.epoch.date()
STAFF = {p.email for p in POP.employees}
ANALYST = POP.employees[0].email


def scan(ep: Episode, status: str) -> dict[str, Any]:
    return every(ep, "list_scans", status=status)[0]


def open_finding(ep: Episode, severity: str) -> dict[str, Any]:
    for f in every(ep, "list_findings", state="open", severity=severity):
        if not every(ep, "list_exceptions", plugin_id=f["plugin_id"], status="active"):
            return f
    raise AssertionError(f"no open {severity} finding without a rule")


def day(days: int) -> str:
    return (TODAY + dt.timedelta(days=days)).isoformat()


def test_seeded_assets_belong_to_employees_and_rules_shape_the_findings(ep: Episode) -> None:
    for a in every(ep, "list_assets"):
        assert a["owner_email"] in STAFF
    for a in every(ep, "list_assets", kind="laptop"):
        owner = next(p for p in POP.employees if p.email == a["owner_email"])
        assert owner.last_name.lower().replace(" ", "-")[:3] in a["hostname"]
    recast = every(ep, "list_exceptions", action="recast", status="active")[0]
    for f in every(ep, "list_findings", plugin_id=recast["plugin_id"]):
        assert (f["severity"], f["original_severity"]) == (recast["new_severity"], "low")
    for f in every(ep, "list_findings", state="accepted"):
        rule = every(ep, "list_exceptions", status="active", action="accept", plugin_id=f["plugin_id"])
        assert [r["id"] for r in rule] == [f["exception_id"]]
    assert {s["status"] for s in every(ep, "list_scans")} == {"empty", "running", "paused", "completed", "aborted"}


def test_a_scan_launches_only_when_not_running_or_paused(ep: Episode) -> None:
    done = scan(ep, "completed")
    launched = ok(ep, "launch_scan", scan_id=done["id"])
    assert (launched["status"], launched["runs"]) == ("running", done["runs"] + 1)
    refused(ep, "launch_scan", "conflict", "scan_id", scan_id=done["id"])
    paused = scan(ep, "paused")
    refused(ep, "launch_scan", "conflict", "scan_id", scan_id=paused["id"])
    assert ok(ep, "stop_scan", scan_id=paused["id"])["status"] == "aborted"
    assert ok(ep, "launch_scan", scan_id=paused["id"])["status"] == "running"
    assert ok(ep, "pause_scan", scan_id=done["id"])["status"] == "paused"
    assert ok(ep, "resume_scan", scan_id=done["id"])["status"] == "running"
    refused(ep, "pause_scan", "rule_violation", "scan_id", scan_id=scan(ep, "empty")["id"])


def test_a_scan_needs_distinct_targets(ep: Episode) -> None:
    a = every(ep, "list_assets")[0]
    refused(ep, "create_scan", "rule_violation", "target_ids", name="Nothing", target_ids=[])
    refused(ep, "create_scan", "rule_violation", "target_ids", name="Twice", target_ids=[a["id"], a["id"]])
    made = ok(ep, "create_scan", name="One host", target_ids=[a["id"]], owner_email=ANALYST)
    assert (made["status"], made["runs"]) == ("empty", 0)
    assert ok(ep, "launch_scan", scan_id=made["id"])["status"] == "running"


def test_accepting_a_risk_needs_a_reason_and_an_expiry_within_policy(ep: Episode) -> None:
    f = open_finding(ep, "medium")
    base = {"plugin_id": f["plugin_id"], "asset_id": f["asset_id"], "requested_by": ANALYST}
    refused(ep, "accept_risk", "rule_violation", "expires_on", reason="Isolated", expires_on=day(0), **base)
    refused(ep, "accept_risk", "rule_violation", "expires_on", reason="Isolated", expires_on=day(366), **base)
    refused(ep, "accept_risk", "rule_violation", "reason", reason="   ", expires_on=day(30), **base)
    refused(
        ep,
        "accept_risk",
        "rule_violation",
        "requested_by",
        reason="x",
        expires_on=day(30),
        **(base | {"requested_by": "a@b.io"}),
    )
    rule = ok(ep, "accept_risk", reason="Isolated VLAN", expires_on=day(365), **base)
    assert (rule["action"], rule["status"], rule["expires_on"]) == ("accept", "active", day(365))
    covered = every(ep, "list_findings", exception_id=rule["id"])
    assert [c["id"] for c in covered] == [f["id"]] and covered[0]["state"] == "accepted"
    refused(
        ep, "accept_risk", "conflict", "plugin_id", reason="Fleet", expires_on=day(30), **(base | {"asset_id": None})
    )


def test_critical_findings_are_accepted_for_at_most_90_days(ep: Episode) -> None:
    f = open_finding(ep, "critical")
    base = {"plugin_id": f["plugin_id"], "asset_id": f["asset_id"], "requested_by": ANALYST, "reason": "Patch window"}
    refused(ep, "accept_risk", "rule_violation", "expires_on", expires_on=day(91), **base)
    assert ok(ep, "accept_risk", expires_on=day(90), **base)["expires_on"] == day(90)


def test_revoking_an_acceptance_reopens_its_findings(ep: Episode) -> None:
    rule = every(ep, "list_exceptions", action="accept", status="active")[0]
    covered = every(ep, "list_findings", exception_id=rule["id"])
    assert covered
    assert ok(ep, "revoke_exception", exception_id=rule["id"])["status"] == "revoked"
    for f in covered:
        again = ok(ep, "get_finding", finding_id=f["id"])
        assert (again["state"], again["exception_id"]) == ("reopened", None)
    refused(ep, "revoke_exception", "conflict", "exception_id", exception_id=rule["id"])
    assert ok(ep, "fix_finding", finding_id=covered[0]["id"])["state"] == "fixed"


def test_a_recast_changes_severity_until_revoked(ep: Episode) -> None:
    f = open_finding(ep, "high")
    args = {"plugin_id": f["plugin_id"], "reason": "Internal only", "requested_by": ANALYST}
    refused(ep, "recast_severity", "rule_violation", "new_severity", new_severity="high", **args)
    refused(ep, "recast_severity", "rule_violation", "expires_on", new_severity="low", expires_on=day(0), **args)
    rule = ok(ep, "recast_severity", new_severity="low", **args)
    sevs = {x["severity"] for x in every(ep, "list_findings", plugin_id=f["plugin_id"])}
    assert sevs == {"low"}
    refused(ep, "recast_severity", "conflict", "plugin_id", new_severity="medium", asset_id=f["asset_id"], **args)
    ok(ep, "revoke_exception", exception_id=rule["id"])
    assert {x["severity"] for x in every(ep, "list_findings", plugin_id=f["plugin_id"])} == {"high"}


def test_fixing_applies_to_open_findings_only_and_records_when(ep: Episode) -> None:
    f = open_finding(ep, "high")
    fixed = ok(ep, "fix_finding", finding_id=f["id"])
    assert fixed["state"] == "fixed" and fixed["last_fixed"] is not None
    accepted = every(ep, "list_findings", state="accepted")[0]
    refused(ep, "fix_finding", "rule_violation", "finding_id", finding_id=accepted["id"])
    refused(ep, "fix_finding", "rule_violation", "finding_id", finding_id=f["id"])


def test_assets_are_unique_by_hostname_and_address(ep: Episode) -> None:
    known = every(ep, "list_assets")[0]
    new = {"kind": "server", "operating_system": "Debian 12", "criticality": 7}
    refused(ep, "import_asset", "conflict", "hostname", hostname=known["hostname"], ipv4="10.99.0.1", **new)
    refused(ep, "import_asset", "conflict", "ipv4", hostname="mq-01.internal", ipv4=known["ipv4"], **new)
    refused(
        ep,
        "import_asset",
        "rule_violation",
        "owner_email",
        hostname="mq-01.internal",
        ipv4="10.99.0.1",
        owner_email="z@q.io",
        **new,
    )
    made = ok(ep, "import_asset", hostname="mq-01.internal", ipv4="10.99.0.1", owner_email=ANALYST, **new)
    assert made["criticality"] == 7 and made["owner_email"] == ANALYST


def test_exposure_counts_open_findings_and_scores_by_criticality(ep: Episode) -> None:
    for a in every(ep, "list_assets", kind="server")[:3]:
        found = every(ep, "list_findings", asset_id=a["id"])
        live = [f for f in found if f["state"] in ("open", "reopened")]
        exp = ok(ep, "asset_exposure", asset_id=a["id"])
        assert sum(exp["open_by_severity"].values()) == len(live)
        assert exp["accepted"] == sum(f["state"] == "accepted" for f in found)
        vpr = max((f["vpr_score"] for f in live), default=0.0)
        assert exp["exposure_score"] == round(a["criticality"] * vpr * 10)
