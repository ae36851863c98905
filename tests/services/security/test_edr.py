"""Sentinel Endpoint: detection triage, containment approval, prevention policies, custom IOCs, seeding."""

from __future__ import annotations

import datetime as dt
from typing import Any

from compoworld import Episode
from tests.services.helpers import ServiceTools

EDR = ServiceTools("edr")
WORLD = EDR.world
ok, refused, every = EDR.ok, EDR.refused, EDR.every
POP = WORLD.population
STAFF = {p.email for p in POP.employees}
A, B = POP.employees[0].email, POP.employees[1].email


def first(ep: Episode, tool: str, **filters: Any) -> dict[str, Any]:
    return every(ep, tool, **filters)[0]


def later(days: int) -> str:
    return (WORLD.epoch + dt.timedelta(days=days)).isoformat()


def test_seeded_hosts_belong_to_staff_and_sit_in_policies_of_their_platform(ep: Episode) -> None:
    hosts = every(ep, "list_hosts")
    assert {h["kind"] for h in hosts} == {"server", "workstation"}
    for h in hosts:
        assert h["owner_email"] in STAFF
        assert ok(ep, "get_policy", policy_id=h["policy_id"])["platform"] == h["platform"]
    defaults = [p for p in every(ep, "list_policies") if p["is_default"]]
    assert sorted(p["platform"] for p in defaults) == ["Linux", "Mac", "Windows"]
    contained = every(ep, "list_hosts", status="contained")
    assert [r["host_id"] for r in every(ep, "list_containments", status="approved")] == [h["id"] for h in contained]


def test_resolving_a_detection_needs_an_assignee_and_a_comment(ep: Episode) -> None:
    det = first(ep, "list_detections", status="new")
    refused(
        ep,
        "resolve_detection",
        "rule_violation",
        "detection_id",
        detection_id=det["id"],
        status="closed",
        comment="done",
    )
    refused(ep, "assign_detection", "rule_violation", "assigned_to", detection_id=det["id"], assigned_to="x@y.io")
    ok(ep, "assign_detection", detection_id=det["id"], assigned_to=A)
    assert ok(ep, "start_detection", detection_id=det["id"])["status"] == "in_progress"
    refused(ep, "resolve_detection", "rule_violation", "comment", detection_id=det["id"], status="closed", comment=" ")
    done = ok(ep, "resolve_detection", detection_id=det["id"], status="true_positive", comment="Malware removed")
    assert (done["status"], done["comment"]) == ("true_positive", "Malware removed")
    refused(
        ep,
        "resolve_detection",
        "rule_violation",
        "detection_id",
        detection_id=det["id"],
        status="closed",
        comment="again",
    )
    assert ok(ep, "reopen_detection", detection_id=det["id"])["status"] == "reopened"


def test_a_false_positive_can_allowlist_its_hash_once(ep: Episode) -> None:
    det = first(ep, "list_detections", status="in_progress")
    refused(
        ep,
        "resolve_detection",
        "rule_violation",
        "allowlist_hash",
        detection_id=det["id"],
        status="true_positive",
        comment="bad",
        allowlist_hash=True,
    )
    ok(
        ep,
        "resolve_detection",
        detection_id=det["id"],
        status="false_positive",
        comment="Signed build tool",
        allowlist_hash=True,
    )
    ioc = first(ep, "list_iocs", value=det["sha256"])
    assert (ioc["type"], ioc["action"], ioc["created_by"]) == ("sha256", "allow", det["assigned_to"])
    again = ok(ep, "reopen_detection", detection_id=det["id"])
    refused(
        ep,
        "resolve_detection",
        "conflict",
        "allowlist_hash",
        detection_id=again["id"],
        status="false_positive",
        comment="still fine",
        allowlist_hash=True,
    )


def test_containment_needs_another_employees_approval_and_can_be_lifted(ep: Episode) -> None:
    host = first(ep, "list_hosts", status="normal", kind="workstation")
    req = ok(ep, "request_containment", host_id=host["id"], reason="Ransomware", requested_by=A)
    assert ok(ep, "get_host", host_id=host["id"])["status"] == "containment_pending"
    refused(ep, "request_containment", "conflict", "host_id", host_id=host["id"], reason="again", requested_by=A)
    refused(ep, "approve_containment", "rule_violation", "approver_email", containment_id=req["id"], approver_email=A)
    done = ok(ep, "approve_containment", containment_id=req["id"], approver_email=B)
    assert (done["status"], done["decided_by"]) == ("approved", B)
    assert ok(ep, "get_host", host_id=host["id"])["status"] == "contained"
    refused(ep, "reject_containment", "conflict", "containment_id", containment_id=req["id"], approver_email=B)
    assert ok(ep, "lift_containment", host_id=host["id"])["status"] == "normal"
    assert ok(ep, "get_containment", containment_id=req["id"])["status"] == "lifted"
    refused(ep, "lift_containment", "rule_violation", "host_id", host_id=host["id"])


def test_rejecting_containment_keeps_the_host_online(ep: Episode) -> None:
    req = first(ep, "list_containments", status="pending")
    other = next(e for e in STAFF if e != req["requested_by"])
    assert ok(ep, "reject_containment", containment_id=req["id"], approver_email=other)["status"] == "rejected"
    assert ok(ep, "get_host", host_id=req["host_id"])["status"] == "normal"


def test_hosts_join_only_enabled_policies_of_their_platform(ep: Episode) -> None:
    mac = first(ep, "list_hosts", platform="Mac")
    relaxed = first(ep, "list_policies", platform="Mac", enabled=False)
    refused(ep, "assign_policy", "rule_violation", "policy_id", host_id=mac["id"], policy_id=relaxed["id"])
    windows = first(ep, "list_policies", platform="Windows")
    refused(ep, "assign_policy", "rule_violation", "policy_id", host_id=mac["id"], policy_id=windows["id"])
    ok(ep, "enable_policy", policy_id=relaxed["id"])
    assert ok(ep, "assign_policy", host_id=mac["id"], policy_id=relaxed["id"])["policy_id"] == relaxed["id"]
    refused(ep, "assign_policy", "conflict", "policy_id", host_id=mac["id"], policy_id=relaxed["id"])


def test_default_and_busy_policies_cannot_be_disabled_or_deleted(ep: Episode) -> None:
    default = first(ep, "list_policies", platform="Linux")
    assert default["is_default"]
    refused(ep, "disable_policy", "rule_violation", "policy_id", policy_id=default["id"])
    refused(ep, "delete_policy", "rule_violation", "policy_id", policy_id=default["id"])
    strict = next(p for p in every(ep, "list_policies", platform="Windows") if not p["is_default"])
    refused(ep, "delete_policy", "rule_violation", "policy_id", policy_id=strict["id"])
    ok(ep, "disable_policy", policy_id=strict["id"])
    refused(ep, "delete_policy", "rule_violation", "policy_id", policy_id=strict["id"])
    refused(ep, "create_policy", "conflict", "name", name=strict["name"], platform="Windows")
    assert ok(ep, "create_policy", name=strict["name"], platform="Linux")["enabled"] is True


def test_iocs_fit_their_type_are_unique_and_network_ones_expire(ep: Episode) -> None:
    base = {"created_by": A, "severity": "high"}
    refused(ep, "create_ioc", "rule_violation", "value", type="sha256", value="abc", action="detect", **base)
    refused(
        ep,
        "create_ioc",
        "rule_violation",
        "action",
        type="domain",
        value="evil.example",
        action="prevent",
        expiration=later(30),
        **base,
    )
    refused(
        ep, "create_ioc", "rule_violation", "expiration", type="domain", value="evil.example", action="detect", **base
    )
    refused(
        ep,
        "create_ioc",
        "rule_violation",
        "expiration",
        type="ipv4",
        value="198.51.100.7",
        action="detect",
        expiration=later(400),
        **base,
    )
    refused(ep, "create_ioc", "rule_violation", "severity", type="md5", value="a" * 32, action="prevent", created_by=A)
    made = ok(ep, "create_ioc", type="domain", value="Evil.Example", action="detect", expiration=later(30), **base)
    assert made["value"] == "evil.example"
    refused(
        ep,
        "create_ioc",
        "conflict",
        "value",
        type="domain",
        value="evil.example",
        action="detect",
        expiration=later(30),
        **base,
    )


def test_host_risk_counts_open_detections(ep: Episode) -> None:
    for h in every(ep, "list_hosts")[:10]:
        dets = every(ep, "list_detections", host_id=h["id"])
        live = [d for d in dets if d["status"] in ("new", "in_progress", "reopened")]
        risk = ok(ep, "host_risk", host_id=h["id"])
        assert sum(risk["open_by_severity"].values()) == len(live)
        assert risk["max_open_score"] == max((d["severity_score"] for d in live), default=0)
        assert risk["status"] == h["status"]
