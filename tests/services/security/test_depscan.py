"""Lockstep Dependencies: ignores and their policy, retests, fix PRs, license policy, project lifecycle."""

from __future__ import annotations

import datetime as dt
from typing import Any

from compoworld import Episode
from tests.services.helpers import ServiceTools

DEP = ServiceTools("depscan")
WORLD = DEP.world
ok, refused, every = DEP.ok, DEP.refused, DEP.every
POP = WORLD.population
TODAY = WORLD.epoch.date()
STAFF = {p.email for p in POP.employees}
DEV = POP.employees[0].email


def day(n: int) -> str:
    return (TODAY + dt.timedelta(days=n)).isoformat()


def issue(ep: Episode, package: str, status: str = "open") -> dict[str, Any]:
    return every(ep, "list_issues", package=package, status=status)[0]


def test_seeded_states_agree(ep: Episode) -> None:
    for i in every(ep, "list_issues", status="ignored"):
        assert ok(ep, "get_ignore", ignore_id=i["ignore_id"])["issue_id"] == i["id"]
    for pr in every(ep, "list_fix_prs"):
        states = {ok(ep, "get_issue", issue_id=x)["status"] for x in pr["issue_ids"]}
        assert states == ({"resolved"} if pr["status"] == "merged" else {"open"})
    for p in every(ep, "list_projects"):
        assert p["owner_email"] in STAFF
        rules = {r["license"]: r["severity"] for r in every(ep, "list_license_rules", org_id=p["org_id"])}
        for i in every(ep, "list_issues", project_id=p["id"], issue_type="license"):
            assert rules[i["license"]] != "none"


def test_ignores_need_reasons_and_respect_policy(ep: Episode) -> None:
    i = issue(ep, "axios")
    base = {"issue_id": i["id"], "ignored_by": DEV}
    refused(ep, "ignore_issue", "rule_violation", "reason", reason_type="wont-fix", reason=" ", **base)
    refused(ep, "ignore_issue", "rule_violation", "expires", reason_type="temporary-ignore", reason="later", **base)
    refused(
        ep,
        "ignore_issue",
        "rule_violation",
        "expires",
        reason_type="temporary-ignore",
        reason="x",
        expires=day(181),
        **base,
    )
    refused(
        ep,
        "ignore_issue",
        "rule_violation",
        "ignored_by",
        reason_type="wont-fix",
        reason="x",
        **(base | {"ignored_by": "a@b.io"}),
    )
    ig = ok(ep, "ignore_issue", reason_type="temporary-ignore", reason="Upgrade next sprint", expires=day(180), **base)
    after = ok(ep, "get_issue", issue_id=i["id"])
    assert (after["status"], after["ignore_id"]) == ("ignored", ig["id"])
    refused(ep, "ignore_issue", "conflict", "issue_id", reason_type="wont-fix", reason="x", **base)
    exploit = issue(ep, "pyyaml")
    assert (exploit["severity"], exploit["exploit_maturity"]) == ("critical", "mature")
    refused(
        ep,
        "ignore_issue",
        "rule_violation",
        "reason_type",
        issue_id=exploit["id"],
        reason_type="wont-fix",
        reason="x",
        ignored_by=DEV,
    )


def test_removing_an_ignore_reopens_the_issue(ep: Episode) -> None:
    ig = every(ep, "list_ignores", reason_type="not-vulnerable")[0]
    ok(ep, "delete_ignore", ignore_id=ig["id"])
    again = ok(ep, "get_issue", issue_id=ig["issue_id"])
    assert (again["status"], again["ignore_id"]) == ("open", None)


def test_a_retest_lapses_expired_ignores_and_counts_open_issues(ep: Episode) -> None:
    lapsed = every(ep, "list_ignores", reason_type="temporary-ignore")[0]
    target = ok(ep, "get_issue", issue_id=lapsed["issue_id"])
    assert target["status"] == "ignored"
    summary = ok(ep, "test_project", project_id=target["project_id"])
    assert ok(ep, "get_issue", issue_id=target["id"])["status"] == "open"
    live = every(ep, "list_issues", project_id=target["project_id"], status="open")
    assert sum(summary["open_by_severity"].values()) == len(live)
    assert summary["fixable"] == sum(i["issue_type"] == "vuln" and i["fixed_in"] is not None for i in live)
    off = every(ep, "list_projects", status="deactivated")[0]
    refused(ep, "test_project", "rule_violation", "project_id", project_id=off["id"])


def test_fix_prs_upgrade_fixable_open_vulnerabilities_once(ep: Episode) -> None:
    i = issue(ep, "django")
    pid = i["project_id"]
    refused(ep, "open_fix_pr", "rule_violation", "issue_ids", project_id=pid, issue_ids=[], opened_by=DEV)
    lic = every(ep, "list_issues", project_id=pid, issue_type="license")[0]
    refused(ep, "open_fix_pr", "rule_violation", "issue_ids", project_id=pid, issue_ids=[lic["id"]], opened_by=DEV)
    other = issue(ep, "lodash")
    refused(ep, "open_fix_pr", "rule_violation", "issue_ids", project_id=pid, issue_ids=[other["id"]], opened_by=DEV)
    nofix = issue(ep, "node-serialize")
    refused(
        ep,
        "open_fix_pr",
        "rule_violation",
        "issue_ids",
        project_id=nofix["project_id"],
        issue_ids=[nofix["id"]],
        opened_by=DEV,
    )
    pr = ok(ep, "open_fix_pr", project_id=pid, issue_ids=[i["id"]], opened_by=DEV)
    assert pr["upgrades"] == [{"package": "django", "from_version": i["version"], "to_version": i["fixed_in"]}]
    assert pr["status"] == "open" and pr["branch"].startswith("snyk-fix-")
    refused(ep, "open_fix_pr", "conflict", "issue_ids", project_id=pid, issue_ids=[i["id"]], opened_by=DEV)
    assert ok(ep, "merge_fix_pr", fix_pr_id=pr["id"])["status"] == "merged"
    assert ok(ep, "get_issue", issue_id=i["id"])["status"] == "resolved"
    refused(ep, "merge_fix_pr", "conflict", "fix_pr_id", fix_pr_id=pr["id"])


def test_a_closed_fix_pr_leaves_its_issues_open(ep: Episode) -> None:
    pr = every(ep, "list_fix_prs", status="open")[0]
    assert ok(ep, "close_fix_pr", fix_pr_id=pr["id"])["status"] == "closed"
    assert ok(ep, "get_issue", issue_id=pr["issue_ids"][0])["status"] == "open"
    again = ok(ep, "open_fix_pr", project_id=pr["project_id"], issue_ids=pr["issue_ids"], opened_by=DEV)
    assert again["status"] == "open"


def test_license_policy_changes_apply_to_the_organizations_issues(ep: Episode) -> None:
    org = every(ep, "list_organizations")[0]
    rule = every(ep, "list_license_rules", org_id=org["id"], license="GPL-3.0")[0]
    mine = {p["id"] for p in every(ep, "list_projects", org_id=org["id"])}
    gpl = every(ep, "list_issues", license="GPL-3.0", issue_type="license")
    assert any(i["project_id"] in mine for i in gpl) and any(i["project_id"] not in mine for i in gpl)
    ok(ep, "update_license_rule", license_rule_id=rule["id"], severity="none")
    for i in every(ep, "list_issues", license="GPL-3.0", issue_type="license"):
        assert i["status"] == ("resolved" if i["project_id"] in mine else "open")
    ok(ep, "update_license_rule", license_rule_id=rule["id"], severity="medium")
    for i in every(ep, "list_issues", license="GPL-3.0", issue_type="license"):
        if i["project_id"] in mine:
            assert (i["status"], i["severity"]) == ("open", "medium")
    refused(ep, "add_license_rule", "conflict", "license", org_id=org["id"], license="GPL-3.0", severity="high")


def test_projects_are_imported_once_and_deactivated_ones_get_no_fixes(ep: Episode) -> None:
    org = every(ep, "list_organizations")[0]
    known = every(ep, "list_projects", org_id=org["id"])[0]
    args = {"org_id": org["id"], "ecosystem": known["ecosystem"], "owner_email": DEV}
    refused(ep, "import_project", "conflict", "repo", repo=known["repo"], **args)
    refused(ep, "import_project", "rule_violation", "owner_email", repo="x/y", **(args | {"owner_email": "z@q.io"}))
    made = ok(ep, "import_project", repo=known["repo"], branch="release", **args)
    assert (made["target_file"], made["status"]) == (known["target_file"], "active")
    i = every(ep, "list_issues", project_id=known["id"], status="open", issue_type="vuln")
    fixable = next(x for x in i if x["fixed_in"])
    ok(ep, "deactivate_project", project_id=known["id"])
    refused(
        ep,
        "open_fix_pr",
        "rule_violation",
        "project_id",
        project_id=known["id"],
        issue_ids=[fixable["id"]],
        opened_by=DEV,
    )


def test_a_project_with_an_open_fix_pr_is_not_deleted(ep: Episode) -> None:
    pr = every(ep, "list_fix_prs", status="open")[0]
    refused(ep, "delete_project", "conflict", "project_id", project_id=pr["project_id"])
    ok(ep, "close_fix_pr", fix_pr_id=pr["id"])
    ok(ep, "delete_project", project_id=pr["project_id"])
    assert all(i["project_id"] != pr["project_id"] for i in every(ep, "list_issues"))
