"""Fleetsync Delivery: project limits, syncs with history, windows, Git pushes, rollbacks, terminations."""

from __future__ import annotations

from typing import Any

from compoworld import Episode
from tests.services.helpers import ServiceTools

GITOPS = ServiceTools("gitops")
WORLD = GITOPS.world
ok, refused, every, first = GITOPS.ok, GITOPS.refused, GITOPS.every, GITOPS.first
POP = WORLD.population
STAFF = {p.email for p in POP.employees}
DEV = POP.employees[0].email
SHA = "c0ffee" + "0" * 34


def app(ep: Episode, name: str) -> dict[str, Any]:
    return first(ep, "applications", name=name)


def project(ep: Episode, name: str) -> dict[str, Any]:
    return first(ep, "projects", name=name)


def test_seeded_applications_match_their_projects_and_history(ep: Episode) -> None:
    for a in every(ep, "list_applications"):
        p = ok(ep, "get_project", project_id=a["project_id"])
        assert a["repo_url"] in p["source_repos"] and a["destination"] in p["destinations"]
        assert a["owner_email"] in STAFF
        entries = every(ep, "list_history_entries", application_id=a["id"])
        assert [h["number"] for h in entries] == list(range(1, len(entries) + 1))
        assert entries[-1]["revision"] == a["synced_revision"]
        assert (a["sync_status"] == "Synced") == (a["head_revision"] == a["synced_revision"])


def test_an_application_deploys_only_from_and_to_what_its_project_allows(ep: Episode) -> None:
    p = project(ep, "storefront")
    base = {"project_id": p["id"], "server": p["destinations"][0]["server"], "owner_email": DEV}
    good = base | {"repo_url": p["source_repos"][0], "namespace": p["destinations"][0]["namespace"]}
    refused(ep, "create_application", "rule_violation", "repo_url", name="x", **good | {"repo_url": "https://x.io/r"})
    refused(ep, "create_application", "rule_violation", "namespace", name="x", **good | {"namespace": "kube-system"})
    refused(ep, "create_application", "conflict", "name", name="catalog-api", **good)
    made = ok(ep, "create_application", name="search-api", **good)
    assert (made["sync_status"], made["health_status"], made["synced_revision"]) == ("OutOfSync", "Missing", None)
    added = ok(ep, "add_project_destination", project_id=p["id"], server=base["server"], namespace="search")
    assert {"server": base["server"], "namespace": "search"} in added["destinations"]
    ok(ep, "create_application", name="search-indexer", **good | {"namespace": "search"})


def test_a_sync_runs_hooks_records_history_and_makes_the_app_synced_and_healthy(ep: Episode) -> None:
    a = app(ep, "cert-manager")
    before = every(ep, "list_history_entries", application_id=a["id"])
    refused(ep, "sync_application", "rule_violation", "initiated_by", application_id=a["id"], initiated_by="x@y.io")
    op = ok(ep, "sync_application", application_id=a["id"], initiated_by=DEV)
    assert (op["phase"], op["revision"], op["initiated_by"]) == ("Succeeded", a["head_revision"], DEV)
    assert {h["phase"] for h in op["hooks"]} == {"PreSync", "PostSync"}
    after = ok(ep, "get_application", application_id=a["id"])
    assert (after["sync_status"], after["health_status"], after["synced_revision"]) == (
        "Synced",
        "Healthy",
        a["head_revision"],
    )
    entries = every(ep, "list_history_entries", application_id=a["id"])
    assert len(entries) == len(before) + 1 and entries[-1]["operation_id"] == op["id"]


def test_only_one_operation_runs_at_a_time_and_a_running_one_can_be_terminated(ep: Episode) -> None:
    a = app(ep, "checkout-api")
    running = first(ep, "operations", application_id=a["id"], phase="Running")
    refused(ep, "sync_application", "conflict", "application_id", application_id=a["id"], initiated_by=DEV)
    done = ok(ep, "terminate_operation", operation_id=running["id"])
    assert done["phase"] == "Failed" and done["finished_at"] is not None
    assert {h["status"] for h in done["hooks"]} == {"Failed"}
    refused(ep, "terminate_operation", "conflict", "operation_id", operation_id=running["id"])
    assert ok(ep, "sync_application", application_id=a["id"], initiated_by=DEV)["phase"] == "Succeeded"


def test_a_deny_window_blocks_automated_syncs_but_lets_manual_ones_through_when_allowed(ep: Episode) -> None:
    p = project(ep, "payments")
    state = ok(ep, "sync_window_state", project_id=p["id"])
    assert (state["automated_allowed"], state["manual_allowed"]) == (False, True)
    worker = app(ep, "payments-worker")
    pushed = ok(ep, "receive_git_push", repo_url=worker["repo_url"], branch="main", revision=SHA)
    auto = {x["id"] for x in every(ep, "list_applications", project_id=p["id"], auto_sync=True)}
    assert set(pushed["blocked"]) == auto and pushed["auto_synced"] == []
    window = first(ep, "sync_windows", project_id=p["id"], kind="deny")
    ok(ep, "update_sync_window", sync_window_id=window["id"], manual_sync=False)
    refused(ep, "sync_application", "rule_violation", "application_id", application_id=worker["id"], initiated_by=DEV)
    ok(ep, "delete_sync_window", sync_window_id=window["id"])
    assert ok(ep, "sync_application", application_id=worker["id"], initiated_by=DEV)["revision"] == SHA


def test_a_git_push_outdates_tracking_apps_and_auto_syncs_those_with_the_policy(ep: Episode) -> None:
    p = project(ep, "storefront")
    assert ok(ep, "sync_window_state", project_id=p["id"])["automated_allowed"] is True
    repo = p["source_repos"][0]
    result = ok(ep, "receive_git_push", repo_url=repo, branch="main", revision=SHA)
    apps = every(ep, "list_applications", project_id=p["id"])
    assert set(result["refreshed"]) == {a["id"] for a in apps}
    for a in apps:
        assert a["head_revision"] == SHA
        assert a["sync_status"] == ("Synced" if a["auto_sync"] else "OutOfSync")
    assert len(result["auto_synced"]) == sum(a["auto_sync"] for a in apps)
    op = ok(ep, "get_operation", operation_id=result["auto_synced"][0])
    assert (op["automated"], op["initiated_by"]) == (True, None)
    refused(ep, "receive_git_push", "not_found", "repo_url", repo_url=repo, branch="release", revision=SHA)


def test_a_rollback_redeploys_history_and_is_refused_under_auto_sync(ep: Episode) -> None:
    a = app(ep, "catalog-api")
    refused(
        ep,
        "rollback_application",
        "rule_violation",
        "application_id",
        application_id=a["id"],
        number=1,
        initiated_by=DEV,
    )
    refused(ep, "update_application", "rule_violation", "auto_sync", application_id=a["id"], auto_sync=False)
    ok(ep, "update_application", application_id=a["id"], auto_sync=False, prune=False, self_heal=False)
    current = every(ep, "list_history_entries", application_id=a["id"])[-1]
    refused(
        ep,
        "rollback_application",
        "conflict",
        "number",
        application_id=a["id"],
        number=current["number"],
        initiated_by=DEV,
    )
    refused(ep, "rollback_application", "not_found", "number", application_id=a["id"], number=99, initiated_by=DEV)
    op = ok(ep, "rollback_application", application_id=a["id"], number=1, initiated_by=DEV)
    old = every(ep, "list_history_entries", application_id=a["id"])
    assert op["rollback"] and op["revision"] == old[0]["revision"] == old[-1]["revision"]
    after = ok(ep, "get_application", application_id=a["id"])
    assert (after["synced_revision"], after["sync_status"]) == (old[0]["revision"], "OutOfSync")


def test_projects_and_destinations_in_use_cannot_be_removed(ep: Episode) -> None:
    p = project(ep, "platform")
    refused(ep, "delete_project", "conflict", "project_id", project_id=p["id"])
    used = app(ep, "ingress-nginx")["destination"]
    refused(ep, "remove_project_destination", "conflict", "namespace", project_id=p["id"], **used)
    refused(
        ep,
        "remove_project_destination",
        "not_found",
        "namespace",
        project_id=p["id"],
        server=used["server"],
        namespace="nowhere",
    )
    spare = next(d for d in p["destinations"] if d["namespace"] == "platform-sandbox")
    left = ok(ep, "remove_project_destination", project_id=p["id"], **spare)
    assert spare not in left["destinations"]
    empty = project(ep, "sandbox")
    ok(ep, "delete_project", project_id=empty["id"])
    assert not every(ep, "list_projects", name="sandbox")


def test_project_names_are_unique_and_windows_need_distinct_days(ep: Episode) -> None:
    args = {
        "source_repos": ["https://github.com/acme/x"],
        "destinations": [{"server": "https://kubernetes.default.svc", "namespace": "x"}],
        "owner_email": DEV,
    }
    refused(ep, "create_project", "conflict", "name", name="payments", **args)
    refused(ep, "create_project", "rule_violation", "owner_email", name="ml", **args | {"owner_email": "q@q.io"})
    made = ok(ep, "create_project", name="ml", **args)
    w = {"project_id": made["id"], "kind": "deny", "start_hour": 1, "duration_hours": 2}
    refused(ep, "create_sync_window", "rule_violation", "days", days=[], **w)
    refused(ep, "create_sync_window", "rule_violation", "days", days=["mon", "mon"], **w)
    ok(ep, "create_sync_window", days=["mon", "tue"], **w)
