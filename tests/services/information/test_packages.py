"""Pkgscope Packages: consistent versions, dependencies and advisories, and package watches."""

from __future__ import annotations

import datetime as dt

from compoworld import Episode
from tests.services.helpers import ServiceTools

PK = ServiceTools("packages")
WORLD = PK.world
ok, refused, every = PK.ok, PK.refused, PK.every
POP = WORLD.population
STAFF = {p.email for p in POP.employees}
TODAY = WORLD.epoch.date()
RANK = ["LOW", "MODERATE", "HIGH", "CRITICAL"]


def _key(version: str) -> tuple[int, ...]:
    return tuple(int(x) for x in version.split("."))


def test_versions_are_ordered_and_the_latest_is_the_newest_not_yanked(ep: Episode) -> None:
    for p in ok(ep, "search_packages", limit=50):
        versions = ok(ep, "list_versions", ecosystem=p["ecosystem"], name=p["name"])
        assert len(versions) == p["version_count"]
        keys = [_key(v["version"]) for v in versions]
        assert keys == sorted(keys, reverse=True)
        assert all(v["published_at"] <= TODAY.isoformat() for v in versions)
        latest = next(v for v in versions if not v["yanked"])
        assert latest["version"] == p["latest_version"] and latest["is_default"]
        assert sum(v["is_default"] for v in versions) == 1


def test_the_home_sdk_is_maintained_by_staff_and_customers_publish_clients(ep: Episode) -> None:
    sdk = ok(ep, "search_packages", q="sdk")
    assert len(sdk) == 1 and POP.home.name in sdk[0]["summary"]
    assert set(sdk[0]["maintainers"]) <= STAFF
    mine = ok(ep, "search_packages", maintainer_email=sdk[0]["maintainers"][0])
    assert sdk[0]["name"] in {p["name"] for p in mine}
    for company in POP.customers[:2]:
        (client,) = ok(ep, "search_packages", q=f"client {company.name}")
        people = {p.email for p in POP.people_at(company)}
        assert set(client["maintainers"]) <= people


def test_resolved_dependencies_satisfy_their_ranges_and_reach_indirect_ones(ep: Episode) -> None:
    graph = ok(ep, "get_dependencies", ecosystem="pypi", name="pandas")
    direct = {d["name"] for d in graph["dependencies"] if d["relation"] == "DIRECT"}
    assert direct == {"numpy", "python-dateutil"}
    assert "six" in {d["name"] for d in graph["dependencies"] if d["relation"] == "INDIRECT"}
    for d in graph["dependencies"]:
        low, high = d["requirement"].split(",")
        assert _key(low[2:]) <= _key(d["resolved_version"]) and _key(d["resolved_version"])[0] < int(high[1:])
        got = ok(ep, "get_version", ecosystem="pypi", name=d["name"], version=d["resolved_version"])
        assert not got["yanked"] and got["advisory_keys"] == d["advisory_keys"]
    dependents = ok(ep, "list_dependents", ecosystem="pypi", name="numpy")
    assert "pandas" in {d["name"] for d in dependents}
    refused(ep, "get_dependencies", "not_found", "version", ecosystem="pypi", name="pandas", version="99.0.0")


def test_advisories_affect_exactly_their_version_range(ep: Episode) -> None:
    advisories = ok(ep, "search_advisories")
    assert advisories
    for a in advisories:
        for v in ok(ep, "list_versions", ecosystem=a["ecosystem"], name=a["package"]):
            hit = _key(a["introduced"]) <= _key(v["version"]) and (
                a["fixed"] is None or _key(v["version"]) < _key(a["fixed"])
            )
            assert (a["id"] in v["advisory_keys"]) == hit
    unfixed = ok(ep, "search_advisories", unfixed_only=True)
    assert all(a["fixed"] is None for a in unfixed)
    assert all(a["severity"] in ("HIGH", "CRITICAL") for a in ok(ep, "search_advisories", severity="HIGH"))
    refused(ep, "get_advisory", "not_found", "advisory_id", advisory_id="GHSA-0000-0000-0000")


def test_audit_finds_the_vulnerable_pins_and_a_clean_fix_version(ep: Episode) -> None:
    a = next(x for x in ok(ep, "search_advisories") if x["fixed"] is not None)
    locked = [{"name": a["package"], "version": a["introduced"]}]
    (result,) = ok(ep, "audit_lockfile", ecosystem=a["ecosystem"], packages=locked)
    assert a["id"] in {x["id"] for x in result["advisories"]}
    assert result["fix_version"] is not None and _key(result["fix_version"]) >= _key(a["fixed"])
    clean = ok(ep, "query_vulnerabilities", ecosystem=a["ecosystem"], name=a["package"], version=result["fix_version"])
    assert clean == []
    bad = [{"name": "no-such-package", "version": "1.0.0"}]
    refused(ep, "audit_lockfile", "not_found", "packages.0.name", ecosystem="npm", packages=bad)


def test_downloads_are_daily_and_bounded_to_the_past(ep: Episode) -> None:
    start, today = (TODAY - dt.timedelta(days=6)).isoformat(), TODAY.isoformat()
    got = ok(ep, "get_downloads", ecosystem="npm", name="express", start=start, end=today)
    assert len(got["daily"]) == 7 and got["total"] == sum(got["daily"])
    assert ok(ep, "get_package", ecosystem="npm", name="express")["weekly_downloads"] == got["total"]
    future = (TODAY + dt.timedelta(days=1)).isoformat()
    refused(ep, "get_downloads", "rule_violation", "end", ecosystem="npm", name="express", start=start, end=future)
    far = (TODAY - dt.timedelta(days=400)).isoformat()
    refused(ep, "get_downloads", "rule_violation", "start", ecosystem="npm", name="express", start=far, end=today)


def test_seeded_watches_belong_to_staff_and_pin_real_versions(ep: Episode) -> None:
    watches = every(ep, "list_watches")
    assert {w["status"] for w in watches} == {"active", "paused"} and {w["ecosystem"] for w in watches} == {
        "pypi",
        "npm",
    }
    for w in watches:
        assert w["owner_email"] in STAFF
        v = ok(ep, "get_version", ecosystem=w["ecosystem"], name=w["package_name"], version=w["pinned_version"])
        assert not v["yanked"] and _key(w["last_seen_version"]) >= _key(w["pinned_version"])


def test_checking_a_watch_reports_new_versions_and_advisories_once(ep: Episode) -> None:
    reported = 0
    for w in every(ep, "list_watches", status="active"):
        report = ok(ep, "check_watch", watch_id=w["id"])
        assert all(_key(v["version"]) > _key(w["last_seen_version"]) for v in report["new_versions"])
        for a in report["new_advisories"]:
            assert a["package"] == w["package_name"]
            assert RANK.index(a["severity"]) >= RANK.index(w["min_severity"])
        reported += len(report["new_advisories"])
        again = ok(ep, "check_watch", watch_id=w["id"])
        assert again["new_versions"] == [] and again["new_advisories"] == []
    assert reported > 0


def test_a_paused_watch_is_not_checked_until_resumed(ep: Episode) -> None:
    w = PK.first(ep, "watches", status="paused")
    refused(ep, "check_watch", "rule_violation", "watch_id", watch_id=w["id"])
    ok(ep, "resume_watch", watch_id=w["id"])
    ok(ep, "check_watch", watch_id=w["id"])
    refused(ep, "resume_watch", "rule_violation", "watch_id", watch_id=w["id"])


def test_watches_are_once_per_engineer_for_staff_and_pins_only_move_forward(ep: Episode) -> None:
    w = PK.first(ep, "watches", status="active")
    args = {"ecosystem": w["ecosystem"], "name": w["package_name"], "pinned_version": w["pinned_version"]}
    refused(ep, "watch_package", "conflict", "name", owner_email=w["owner_email"], **args)
    refused(ep, "watch_package", "rule_violation", "owner_email", owner_email=POP.contacts[0].email, **args)
    versions = ok(ep, "list_versions", ecosystem=w["ecosystem"], name=w["package_name"], include_yanked=False)
    older = [v["version"] for v in versions if _key(v["version"]) < _key(w["pinned_version"])]
    if older:
        refused(ep, "bump_pin", "rule_violation", "version", watch_id=w["id"], version=older[0])
    latest = versions[0]["version"]
    if _key(latest) > _key(w["pinned_version"]):
        moved = ok(ep, "bump_pin", watch_id=w["id"], version=latest)
        assert moved["pinned_version"] == latest
    refused(ep, "bump_pin", "rule_violation", "version", watch_id=w["id"], version=latest)
    new = ok(ep, "watch_package", owner_email=POP.employees[-1].email, **args)
    assert (
        new["last_seen_version"]
        == ok(ep, "get_package", ecosystem=w["ecosystem"], name=w["package_name"])["latest_version"]
    )
