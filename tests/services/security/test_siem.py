"""Sentinel Grid: thresholds fire, grouping, suppressions, watchlist urgency, triage and investigations."""

from __future__ import annotations

import datetime as dt
from typing import Any

from compoworld import Episode
from tests.services.helpers import ServiceTools

SIEM = ServiceTools("siem")
WORLD = SIEM.world
ok, refused, every = SIEM.ok, SIEM.refused, SIEM.every
POP = WORLD.population
TODAY = WORLD.epoch.date()
STAFF = {p.email for p in POP.employees}
ANALYST = POP.employees[0].email


def rule(ep: Episode, prefix: str) -> dict[str, Any]:
    return next(r for r in every(ep, "list_rules") if r["name"].startswith(prefix))


def day(days: int) -> str:
    return (TODAY + dt.timedelta(days=days)).isoformat()


def test_seeded_notables_concern_the_company_and_follow_their_rules(ep: Episode) -> None:
    for n in every(ep, "list_notables"):
        r = ok(ep, "get_rule", rule_id=n["rule_id"])
        assert n["entity"] == r["entity"]
        if n["entity"] == "user":
            assert n["entity_value"] in STAFF
        bump = 1 if n["watchlists"] else 0
        order = ["informational", "low", "medium", "high", "critical"]
        assert order.index(n["urgency"]) == min(order.index(r["severity"]) + bump, 4)
        assert (n["status"] == "closed") == (n["disposition"] is not None)


def test_a_rule_fires_at_its_threshold_and_groups_hits_on_open_notables(ep: Episode) -> None:
    brute = rule(ep, "Brute force")
    user = sorted(STAFF)[0]
    below = ok(ep, "run_rule", rule_id=brute["id"], entity_value=user, event_count=brute["threshold"] - 1)
    assert (below["fired"], below["notable_id"]) == (False, None)
    first = ok(ep, "run_rule", rule_id=brute["id"], entity_value=user.upper(), event_count=brute["threshold"])
    assert first["fired"] and not first["grouped"]
    again = ok(ep, "run_rule", rule_id=brute["id"], entity_value=user, event_count=brute["threshold"] + 5)
    assert again["grouped"] and again["notable_id"] == first["notable_id"]
    n = ok(ep, "get_notable", notable_id=first["notable_id"])
    assert (n["event_count"], n["status"], n["entity_value"]) == (2 * brute["threshold"] + 5, "new", user)
    refused(
        ep, "run_rule", "rule_violation", "entity_value", rule_id=brute["id"], entity_value="10.0.0.1", event_count=50
    )


def test_disabled_rules_do_not_run(ep: Episode) -> None:
    mass = rule(ep, "Mass file deletion")
    refused(ep, "run_rule", "conflict", "rule_id", rule_id=mass["id"], entity_value="web-01.internal", event_count=999)
    ok(ep, "enable_rule", rule_id=mass["id"])
    assert ok(ep, "run_rule", rule_id=mass["id"], entity_value="web-01.internal", event_count=999)["fired"]


def test_watchlisted_entities_raise_urgency(ep: Episode) -> None:
    dns = rule(ep, "Rare DNS")
    plain = ok(ep, "run_rule", rule_id=dns["id"], entity_value="web-02.internal", event_count=500)
    assert ok(ep, "get_notable", notable_id=plain["notable_id"])["urgency"] == dns["severity"]
    hosts = every(ep, "list_watchlists", kind="host")[0]
    ok(ep, "add_watchlist_item", watchlist_id=hosts["id"], value="build-09.internal", note="Signing keys")
    refused(ep, "add_watchlist_item", "conflict", "value", watchlist_id=hosts["id"], value="BUILD-09.internal")
    refused(ep, "add_watchlist_item", "rule_violation", "value", watchlist_id=hosts["id"], value="not a host")
    hit = ok(ep, "run_rule", rule_id=dns["id"], entity_value="build-09.internal", event_count=500)
    n = ok(ep, "get_notable", notable_id=hit["notable_id"])
    assert n["urgency"] == "high" and n["watchlists"] == [hosts["name"]]


def test_suppressions_silence_a_rule_for_an_entity_within_90_days(ep: Episode) -> None:
    travel = rule(ep, "Impossible travel")
    user = sorted(STAFF)[1]
    base = {"name": "Travelling sales", "rule_id": travel["id"], "entity_value": user, "created_by": ANALYST}
    refused(ep, "create_suppression", "rule_violation", "expires_on", reason="VPN", expires_on=day(91), **base)
    refused(ep, "create_suppression", "rule_violation", "reason", reason=" ", expires_on=day(10), **base)
    refused(
        ep,
        "create_suppression",
        "rule_violation",
        "entity_value",
        reason="VPN",
        expires_on=day(10),
        **(base | {"entity_value": "1.2.3.4"}),
    )
    sup = ok(ep, "create_suppression", reason="Corporate VPN egress", expires_on=day(90), **base)
    refused(ep, "create_suppression", "conflict", "entity_value", reason="VPN", expires_on=day(10), **base)
    run = ok(ep, "run_rule", rule_id=travel["id"], entity_value=user, event_count=1)
    assert (run["fired"], run["suppressed_by"], run["notable_id"]) == (True, sup["id"], None)
    ok(ep, "disable_suppression", suppression_id=sup["id"])
    assert ok(ep, "run_rule", rule_id=travel["id"], entity_value=user, event_count=1)["notable_id"] is not None


def test_triage_assigns_and_closes_with_a_disposition(ep: Episode) -> None:
    n = every(ep, "list_notables", status="new")[0]
    refused(ep, "close_notable", "rule_violation", "notable_id", notable_id=n["id"], disposition="true_positive")
    refused(ep, "assign_notable", "rule_violation", "owner_email", notable_id=n["id"], owner_email="x@y.io")
    assert ok(ep, "assign_notable", notable_id=n["id"], owner_email=ANALYST)["status"] == "in_progress"
    refused(ep, "close_notable", "rule_violation", "comment", notable_id=n["id"], disposition="false_positive")
    closed = ok(ep, "close_notable", notable_id=n["id"], disposition="false_positive", comment="Rule too broad")
    assert (closed["status"], closed["disposition"]) == ("closed", "false_positive")
    refused(ep, "close_notable", "conflict", "notable_id", notable_id=n["id"], disposition="undetermined")
    refused(ep, "assign_notable", "conflict", "notable_id", notable_id=n["id"], owner_email=ANALYST)
    back = ok(ep, "reopen_notable", notable_id=n["id"])
    assert (back["status"], back["disposition"]) == ("in_progress", None)


def test_investigations_collect_notables_once_and_close_when_all_are_closed(ep: Episode) -> None:
    live = every(ep, "list_investigations", status="in_progress")[0]
    inside = every(ep, "list_notables", investigation_id=live["id"])
    assert inside
    other = every(ep, "list_investigations", status="open")[0]
    refused(
        ep, "add_to_investigation", "conflict", "notable_id", investigation_id=other["id"], notable_id=inside[0]["id"]
    )
    refused(
        ep, "close_investigation", "rule_violation", "investigation_id", investigation_id=live["id"], summary="Done"
    )
    for n in inside:
        ok(ep, "close_notable", notable_id=n["id"], disposition="benign_positive")
    refused(ep, "close_investigation", "rule_violation", "summary", investigation_id=live["id"], summary="  ")
    done = ok(ep, "close_investigation", investigation_id=live["id"], summary="Backup job; benign.")
    assert done["status"] == "closed"
    refused(ep, "reopen_notable", "rule_violation", "notable_id", notable_id=inside[0]["id"])
    fresh = every(ep, "list_notables", status="new")[0]
    refused(
        ep, "add_to_investigation", "conflict", "investigation_id", investigation_id=live["id"], notable_id=fresh["id"]
    )
    assert (
        ok(ep, "add_to_investigation", investigation_id=other["id"], notable_id=fresh["id"])["status"] == "in_progress"
    )


def test_rules_with_open_notables_are_disabled_not_deleted(ep: Episode) -> None:
    brute = rule(ep, "Brute force")
    refused(ep, "delete_rule", "conflict", "rule_id", rule_id=brute["id"])
    refused(ep, "create_rule", "conflict", "name", name=brute["name"], query="index=auth")
    refused(ep, "create_rule", "rule_violation", "query", name="Empty", query="   ")
    assert ok(ep, "disable_rule", rule_id=brute["id"])["enabled"] is False
    made = ok(
        ep, "create_rule", name="Service account interactive sign-in", query="index=auth user=svc-*", entity="user"
    )
    ok(ep, "delete_rule", rule_id=made["id"])
