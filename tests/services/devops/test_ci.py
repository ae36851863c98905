"""Conveyor CI (CircleCI-style): workflow status from jobs, approvals, cancels, reruns, auto-cancel, insights."""

from __future__ import annotations

from typing import Any

from compoworld import Episode
from tests.services.helpers import ServiceTools

CI = ServiceTools("ci")
WORLD = CI.world
ok, refused, every, items, first = CI.ok, CI.refused, CI.every, CI.items, CI.first
POP = WORLD.population
SHA = "a" * 40


def project(ep: Episode, name: str) -> dict[str, Any]:
    return first(ep, "projects", name=name)


def jobs_of(ep: Episode, workflow_id: str) -> dict[str, dict[str, Any]]:
    return {j["name"]: j for j in items(ep, "jobs", workflow_id=workflow_id)}


def trigger(ep: Episode, proj: dict[str, Any], branch: str = "main", who: str | None = None) -> dict[str, Any]:
    user = who or first(ep, "users")["email"]
    return dict(
        ok(
            ep,
            "trigger_pipeline",
            project_id=proj["id"],
            branch=branch,
            revision=SHA,
            commit_subject="Ship the new export",
            triggered_by_email=user,
        )
    )


def finish(ep: Episode, workflow_id: str, *names: str, result: str = "success") -> dict[str, Any]:
    out: dict[str, Any] = {}
    for name in names:
        out = ok(ep, "report_job_result", job_id=jobs_of(ep, workflow_id)[name]["id"], result=result)
    return out


# -- the seeded world -----------------------------------------------------------------------


def test_users_are_engineers_and_projects_follow_the_repositories() -> None:
    ep = Episode(WORLD)
    engineers = {p.email for p in POP.employees if p.department == "Engineering"}
    assert {u["email"] for u in every(ep, "list_users")} == engineers
    org = POP.home.domain.split(".")[0]
    assert all(p["slug"] == f"gh/{org}/{p['name']}" for p in every(ep, "list_projects"))


def test_seeded_workflow_statuses_follow_from_their_jobs_and_numbers_count_up() -> None:
    ep = Episode(WORLD)
    derived = {
        frozenset({"success"}): "success",
        frozenset({"success", "failed"}): "failed",
        frozenset({"success", "running"}): "running",
        frozenset({"success", "on_hold", "blocked"}): "on_hold",
    }
    statuses = set()
    for wf in every(ep, "list_workflows"):
        got = frozenset(j["status"] for j in items(ep, "jobs", workflow_id=wf["id"]))
        if got in derived:
            assert wf["status"] == derived[got], (wf, got)
        statuses.add(wf["status"])
    assert {"success", "failed", "running", "on_hold", "canceled"} <= statuses
    for proj in every(ep, "list_projects"):
        numbers = sorted(p["number"] for p in items(ep, "pipelines", project_id=proj["id"]))
        assert numbers == list(range(1, proj["last_pipeline_number"] + 1))


# -- running workflows ----------------------------------------------------------------------


def test_a_pipeline_on_main_runs_every_matching_workflow_and_jobs_start_when_required_jobs_succeed(
    ep: Episode,
) -> None:
    web = project(ep, "web-app")
    run = trigger(ep, web)
    assert run["pipeline"]["number"] == web["last_pipeline_number"] + 1
    assert sorted(w["name"] for w in run["workflows"]) == ["build-test", "deploy"]
    build = next(w for w in run["workflows"] if w["name"] == "build-test")
    assert {n: j["status"] for n, j in jobs_of(ep, build["id"]).items()} == {
        "build": "running",
        "unit-tests": "blocked",
        "lint": "blocked",
    }
    res = finish(ep, build["id"], "build")
    assert res["workflow"]["status"] == "running"
    assert jobs_of(ep, build["id"])["lint"]["status"] == "running"
    assert finish(ep, build["id"], "unit-tests", "lint")["workflow"]["status"] == "success"


def test_a_feature_branch_runs_only_unfiltered_workflows_and_a_failure_skips_dependents(ep: Episode) -> None:
    web = project(ep, "web-app")
    run = trigger(ep, web, branch="feature/export")
    assert [w["name"] for w in run["workflows"]] == ["build-test"]
    wf = run["workflows"][0]
    res = finish(ep, wf["id"], "build", result="failed")
    assert res["workflow"]["status"] == "failed"
    assert {j["status"] for n, j in jobs_of(ep, wf["id"]).items() if n != "build"} == {"not_run"}
    job = jobs_of(ep, wf["id"])["lint"]
    refused(ep, "report_job_result", "rule_violation", "job_id", job_id=job["id"], result="success")


def test_a_branch_no_workflow_runs_on_is_refused(ep: Episode) -> None:
    web = project(ep, "web-app")
    only_main = [{"name": "deploy", "branches": ["main"], "jobs": [{"name": "build"}]}]
    ok(ep, "update_project", project_id=web["id"], config=only_main)
    refused(
        ep,
        "trigger_pipeline",
        "rule_violation",
        "branch",
        project_id=web["id"],
        branch="feature/x",
        revision=SHA,
        commit_subject="WIP",
        triggered_by_email=first(ep, "users")["email"],
    )


def test_a_config_with_unknown_or_cyclic_requirements_is_refused(ep: Episode) -> None:
    web = project(ep, "web-app")
    unknown = [{"name": "ci", "jobs": [{"name": "test", "requires": ["build"]}]}]
    refused(ep, "update_project", "rule_violation", "config", project_id=web["id"], config=unknown)
    cyclic = [{"name": "ci", "jobs": [{"name": "a", "requires": ["b"]}, {"name": "b", "requires": ["a"]}]}]
    refused(ep, "update_project", "rule_violation", "config", project_id=web["id"], config=cyclic)


# -- approvals ------------------------------------------------------------------------------


def test_approval_needs_an_allowed_approver_who_did_not_trigger_the_pipeline(ep: Episode) -> None:
    web = project(ep, "web-app")
    approver, other_approver = web["deploy_approvers"]
    run = trigger(ep, web, who=approver)
    deploy = next(w for w in run["workflows"] if w["name"] == "deploy")
    res = finish(ep, deploy["id"], "build", "integration-tests")
    assert res["workflow"]["status"] == "on_hold"
    hold = jobs_of(ep, deploy["id"])["hold"]
    outsider = next(u["email"] for u in every(ep, "list_users") if u["email"] not in web["deploy_approvers"])
    refused(ep, "approve_job", "rule_violation", "approver_email", job_id=hold["id"], approver_email=outsider)
    refused(ep, "approve_job", "rule_violation", "approver_email", job_id=hold["id"], approver_email=approver)
    done = ok(ep, "approve_job", job_id=hold["id"], approver_email=other_approver)
    assert (done["job"]["approved_by_email"], done["workflow"]["status"]) == (other_approver, "running")
    assert jobs_of(ep, deploy["id"])["deploy-production"]["status"] == "running"
    refused(ep, "approve_job", "rule_violation", "job_id", job_id=hold["id"], approver_email=other_approver)


# -- cancel, rerun, auto-cancel -------------------------------------------------------------


def test_cancelling_a_held_workflow_cancels_held_jobs_and_skips_blocked_ones(ep: Episode) -> None:
    wf = first(ep, "workflows", status="on_hold")
    who = first(ep, "users")["email"]
    canceled = ok(ep, "cancel_workflow", workflow_id=wf["id"], canceled_by_email=who)
    assert (canceled["status"], canceled["canceled_by_email"]) == ("canceled", who)
    statuses = {j["status"] for j in jobs_of(ep, wf["id"]).values()}
    assert statuses <= {"success", "canceled", "not_run"} and "canceled" in statuses
    refused(ep, "cancel_workflow", "rule_violation", "workflow_id", workflow_id=wf["id"], canceled_by_email=who)


def test_rerun_from_failed_keeps_successful_jobs(ep: Episode) -> None:
    failed = first(ep, "workflows", status="failed")
    before = jobs_of(ep, failed["id"])
    rerun = ok(ep, "rerun_workflow", workflow_id=failed["id"], from_failed=True)
    assert (rerun["rerun_of"], rerun["pipeline_id"], rerun["status"]) == (
        failed["id"],
        failed["pipeline_id"],
        "running",
    )
    after = jobs_of(ep, rerun["id"])
    for name, job in before.items():
        if job["status"] == "success":
            assert after[name]["status"] == "success"
        else:
            assert after[name]["status"] in ("running", "blocked")
    done = first(ep, "workflows", status="success")
    refused(ep, "rerun_workflow", "rule_violation", "from_failed", workflow_id=done["id"], from_failed=True)
    running = first(ep, "workflows", status="running")
    refused(ep, "rerun_workflow", "rule_violation", "workflow_id", workflow_id=running["id"])


def test_a_new_pipeline_on_a_feature_branch_auto_cancels_the_older_running_one(ep: Episode) -> None:
    web = project(ep, "web-app")
    first_run = trigger(ep, web, branch="feature/search")
    second = trigger(ep, web, branch="feature/search")
    old = first_run["workflows"][0]["id"]
    assert second["auto_canceled"] == [old]
    assert ok(ep, "get_workflow", workflow_id=old)["status"] == "canceled"
    third = trigger(ep, web)  # the default branch never auto-cancels
    fourth = trigger(ep, web)
    assert fourth["auto_canceled"] == [] and third["workflows"][0]["status"] == "running"


# -- artifacts, secrets, insights -----------------------------------------------------------


def test_job_artifacts_are_stored_with_download_links(ep: Episode) -> None:
    run = trigger(ep, project(ep, "docs"))
    wf = run["workflows"][0]
    build = jobs_of(ep, wf["id"])["build"]
    res = ok(ep, "report_job_result", job_id=build["id"], result="success", artifact_paths=["site/index.html"])
    assert [a["path"] for a in res["artifacts"]] == ["site/index.html"]
    assert res["artifacts"][0]["url"].startswith("https://")
    assert items(ep, "artifacts", job_id=build["id"]) == res["artifacts"]


def test_env_var_values_are_masked_and_setting_a_name_again_replaces_it(ep: Episode) -> None:
    web = project(ep, "web-app")
    var = ok(ep, "set_env_var", project_id=web["id"], name="DEPLOY_TOKEN", value="super-secret-4321")
    assert var["value"] == "xxxx4321"
    ok(ep, "set_env_var", project_id=web["id"], name="DEPLOY_TOKEN", value="rotated-0007")
    found = items(ep, "env_vars", project_id=web["id"], name="DEPLOY_TOKEN")
    assert [v["value"] for v in found] == ["xxxx0007"]


def test_insights_compute_the_success_rate_of_finished_runs(ep: Episode) -> None:
    web = project(ep, "web-app")
    runs = items(ep, "workflows", project_id=web["id"], name="build-test")
    ins = ok(ep, "workflow_insights", project_id=web["id"], workflow_name="build-test")
    good = sum(1 for w in runs if w["status"] == "success")
    bad = sum(1 for w in runs if w["status"] == "failed")
    assert (ins["total_runs"], ins["successful_runs"], ins["failed_runs"]) == (len(runs), good, bad)
    assert ins["success_rate"] == round(100 * good / (good + bad), 1)
    refused(ep, "workflow_insights", "rule_violation", "workflow_name", project_id=web["id"], workflow_name="nightly")
