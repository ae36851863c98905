"""Probewise: check settings, judging runs, alerts on state changes, muting and maintenance, dashboards."""

from __future__ import annotations

import datetime as dt
from typing import Any

from compoworld import Episode
from tests.services.helpers import ServiceTools

SYN = ServiceTools("synthetics")
WORLD = SYN.world
ok, refused, every = SYN.ok, SYN.refused, SYN.every
POP = WORLD.population
DOMAIN = POP.home.domain
STAFF = {p.email for p in POP.employees}
NOW = WORLD.epoch


def check(ep: Episode, name: str) -> dict[str, Any]:
    return next(c for c in every(ep, "list_checks") if c["name"] == name)


def run(ep: Episode, c: dict[str, Any], ms: int, code: int = 200, body: str = "") -> dict[str, Any]:
    out: dict[str, Any] = ok(
        ep, "record_run", check_id=c["id"], region=c["regions"][0], response_time=ms, status_code=code, body=body
    )
    return out


def test_seeded_checks_watch_the_company_sites_and_their_state_matches_the_last_result(ep: Episode) -> None:
    regions = {loc["region"] for loc in every(ep, "list_locations")}
    for c in every(ep, "list_checks"):
        assert f".{DOMAIN}/" in c["url"] and c["owner_email"] in STAFF
        assert set(c["regions"]) <= regions
        last = every(ep, "list_check_results", check_id=c["id"])[-1]
        assert {"passed": "passing", "degraded": "degraded", "failed": "failing"}[last["outcome"]] == c["state"]


def test_check_settings_are_validated(ep: Episode) -> None:
    base = {"name": "Status", "url": f"https://status.{DOMAIN}/"}
    refused(ep, "create_api_check", "rule_violation", "regions", regions=[], **base)
    refused(ep, "create_api_check", "rule_violation", "regions", regions=["xx-north-9"], **base)
    refused(ep, "create_api_check", "rule_violation", "frequency", regions=["eu-west-1"], frequency=7, **base)
    refused(
        ep,
        "create_api_check",
        "rule_violation",
        "degraded_response_time",
        regions=["eu-west-1"],
        degraded_response_time=20_000,
        max_response_time=10_000,
        **base,
    )
    refused(ep, "create_api_check", "conflict", "name", regions=["eu-west-1"], **(base | {"name": "Homepage"}))
    made = ok(ep, "create_api_check", regions=["eu-west-1"], **base)
    assert made["assertions"] == [{"source": "status_code", "comparison": "equals", "target": "200"}]
    assert made["state"] is None
    refused(
        ep,
        "create_browser_check",
        "rule_violation",
        "script",
        name="B",
        url=base["url"],
        regions=["eu-west-1"],
        script="  ",
    )
    refused(ep, "update_check", "rule_violation", "frequency", check_id=check(ep, "Homepage")["id"], frequency=2)


def test_runs_are_judged_against_assertions_and_response_limits(ep: Episode) -> None:
    api = check(ep, "Public API health")
    assert run(ep, api, 400)["result"]["outcome"] == "passed"
    slow = run(ep, api, api["degraded_response_time"] + 1)
    assert (slow["result"]["outcome"], slow["state"], slow["changed"]) == ("degraded", "degraded", True)
    too_slow = run(ep, api, api["max_response_time"] + 1)
    assert too_slow["result"]["outcome"] == "failed" and "max" in too_slow["result"]["error"]
    wrong = run(ep, api, 100, code=500)
    assert wrong["result"]["outcome"] == "failed" and not wrong["changed"]
    refused(
        ep,
        "record_run",
        "rule_violation",
        "region",
        check_id=api["id"],
        region="sa-east-1",
        response_time=1,
        status_code=200,
    )


def test_state_changes_alert_subscribed_channels_by_their_flags(ep: Episode) -> None:
    home = check(ep, "Homepage")
    subs = every(ep, "list_subscriptions", check_id=home["id"])
    failed = run(ep, home, 100, code=502)
    assert failed["state"] == "failing" and len(failed["alerts"]) == len(subs)
    again = run(ep, home, 100, code=502)
    assert again["alerts"] == []
    back = run(ep, home, 300)
    assert {a["id"] for a in every(ep, "list_alerts", check_id=home["id"], kind="recovery")} == set(back["alerts"])
    channels = {s["channel_id"] for s in subs}
    recovering = [c for c in every(ep, "list_alert_channels") if c["id"] in channels and c["send_recovery"]]
    assert len(back["alerts"]) == len(recovering)


def test_degraded_alerts_go_only_to_channels_that_ask(ep: Episode) -> None:
    home = check(ep, "Homepage")
    slow = run(ep, home, home["degraded_response_time"] + 10)
    sent = [a for a in every(ep, "list_alerts", kind="degraded") if a["id"] in slow["alerts"]]
    wanted = [c["id"] for c in every(ep, "list_alert_channels") if c["send_degraded"]]
    assert sent and all(a["channel_id"] in wanted for a in sent)


def test_muted_checks_and_maintenance_windows_hold_alerts_back(ep: Episode) -> None:
    docs = check(ep, "Docs search")
    assert docs["muted"]
    quiet = run(ep, docs, 100, code=500)
    assert (quiet["changed"], quiet["alerts"], quiet["silenced_by"]) == (True, [], "muted")
    ok(ep, "update_check", check_id=docs["id"], muted=False)
    back = run(ep, docs, 100)
    assert (back["alerts"], back["silenced_by"]) == ([], "maintenance")
    api = check(ep, "Public API health")
    start = NOW - dt.timedelta(minutes=5)
    ok(
        ep,
        "create_maintenance_window",
        name="DB failover",
        tags=["api"],
        starts_at=start.isoformat(),
        ends_at=(start + dt.timedelta(hours=1)).isoformat(),
    )
    assert run(ep, api, 100, code=500)["silenced_by"] == "maintenance"


def test_maintenance_windows_need_tags_and_a_sensible_span(ep: Episode) -> None:
    start = NOW + dt.timedelta(days=1)
    args = {"name": "W", "starts_at": start.isoformat()}
    refused(
        ep,
        "create_maintenance_window",
        "rule_violation",
        "tags",
        tags=[],
        ends_at=(start + dt.timedelta(hours=1)).isoformat(),
        **args,
    )
    refused(
        ep, "create_maintenance_window", "rule_violation", "ends_at", tags=["web"], ends_at=start.isoformat(), **args
    )
    refused(
        ep,
        "create_maintenance_window",
        "rule_violation",
        "ends_at",
        tags=["web"],
        ends_at=(start + dt.timedelta(days=8)).isoformat(),
        **args,
    )


def test_deactivated_checks_take_no_runs(ep: Episode) -> None:
    old = check(ep, "Spring campaign landing page")
    assert old["activated"] is False
    refused(
        ep,
        "record_run",
        "conflict",
        "check_id",
        check_id=old["id"],
        region=old["regions"][0],
        response_time=1,
        status_code=200,
    )
    ok(ep, "activate_check", check_id=old["id"])
    assert run(ep, old, 200)["state"] == "passing"


def test_channels_need_their_target_and_subscribe_once(ep: Episode) -> None:
    refused(ep, "create_alert_channel", "rule_violation", "email", name="Mail", type="email")
    refused(ep, "create_alert_channel", "rule_violation", "phone", name="SMS", type="sms")
    sms = ok(ep, "create_alert_channel", name="SMS", type="sms", phone="+14155550100")
    api = check(ep, "Public API health")
    ok(ep, "subscribe_channel", check_id=api["id"], channel_id=sms["id"])
    refused(ep, "subscribe_channel", "conflict", "channel_id", check_id=api["id"], channel_id=sms["id"])
    ok(ep, "delete_alert_channel", alert_channel_id=sms["id"])
    assert sms["id"] not in {x["channel_id"] for x in every(ep, "list_subscriptions", check_id=api["id"])}


def test_dashboards_have_unique_custom_urls(ep: Episode) -> None:
    taken = every(ep, "list_dashboards")[0]["custom_url"]
    refused(ep, "create_dashboard", "conflict", "custom_url", custom_url=taken, header="Again")
    made = ok(ep, "create_dashboard", custom_url="partner-status", header="Partner status", tags=["api"])
    assert (made["tags"], made["is_private"]) == (["api"], False)
