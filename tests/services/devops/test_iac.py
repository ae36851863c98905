"""Terraform Deck: run queue, confirmation and policy checks, locks, variables, state versions, workspaces."""

from __future__ import annotations

from typing import Any

from compoworld import Episode
from tests.services.helpers import ServiceTools

IAC = ServiceTools("iac")
WORLD = IAC.world
ok, refused, every = IAC.ok, IAC.refused, IAC.every
STAFF = [p.email for p in WORLD.population.employees]


def ws(ep: Episode, name: str) -> dict[str, Any]:
    return every(ep, "list_workspaces", name=name)[0]


def owner(ep: Episode) -> str:
    return str(every(ep, "list_organizations")[0]["owner_emails"][0])


def not_owner(ep: Episode) -> str:
    return next(e for e in STAFF if e != owner(ep))


def test_seeded_state_matches_workspaces_and_secrets_stay_hidden(ep: Episode) -> None:
    assert set(every(ep, "list_organizations")[0]["owner_emails"]) <= set(STAFF)
    for w in every(ep, "list_workspaces"):
        versions = every(ep, "list_state_versions", workspace_id=w["id"])
        if w["resource_count"]:
            latest = max(versions, key=lambda v: v["serial"])
            assert (latest["id"], latest["resource_count"]) == (w["current_state_version_id"], w["resource_count"])
        active = [
            r
            for r in every(ep, "list_runs", workspace_id=w["id"])
            if r["status"] not in ("planned_and_finished", "applied", "discarded", "canceled", "errored", "pending")
        ]
        assert len(active) <= 1
    for v in every(ep, "list_variables", sensitive=True):
        assert v["value"] is None


def test_variables_are_unique_per_category_and_sensitive_values_are_write_only(ep: Episode) -> None:
    w = ws(ep, "app-prod")
    refused(ep, "create_variable", "conflict", "key", workspace_id=w["id"], key="region", value="x")
    assert ok(ep, "create_variable", workspace_id=w["id"], key="region", value="x", category="env")["value"] == "x"
    refused(
        ep,
        "create_variable",
        "rule_violation",
        "hcl",
        workspace_id=w["id"],
        key="TF_LOG",
        value="1",
        category="env",
        hcl=True,
    )
    secret = ok(ep, "create_variable", workspace_id=w["id"], key="db_password", value="hunter2", sensitive=True)
    assert secret["value"] is None
    refused(ep, "update_variable", "rule_violation", "sensitive", variable_id=secret["id"], sensitive=False)
    assert ok(ep, "update_variable", variable_id=secret["id"], value="s3cret")["value"] is None


def test_a_run_queues_behind_the_active_one_and_plans_when_it_is_discarded(ep: Episode) -> None:
    w = ws(ep, "app-prod")
    active = every(ep, "list_runs", workspace_id=w["id"], status="policy_checked")[0]
    queued = ok(ep, "create_run", workspace_id=w["id"], message="Tune autoscaling", created_by=STAFF[0])
    assert queued["status"] == "pending"
    assert ok(ep, "cancel_run", run_id=queued["id"])["status"] == "canceled"
    refused(ep, "cancel_run", "rule_violation", "run_id", run_id=active["id"])
    older = every(ep, "list_runs", workspace_id=w["id"], status="pending")[0]
    assert ok(ep, "discard_run", run_id=active["id"], comment="stale")["status"] == "discarded"
    assert ok(ep, "get_run", run_id=older["id"])["status"] != "pending"
    refused(ep, "discard_run", "rule_violation", "run_id", run_id=active["id"])


def test_applying_writes_a_new_state_version(ep: Episode) -> None:
    w = ws(ep, "app-prod")
    run = every(ep, "list_runs", workspace_id=w["id"], status="policy_checked")[0]
    refused(ep, "apply_run", "rule_violation", "confirmed_by", run_id=run["id"], confirmed_by="a@b.io")
    done = ok(ep, "apply_run", run_id=run["id"], confirmed_by=STAFF[0], comment="ship it")
    assert (done["status"], done["confirmed_by"]) == ("applied", STAFF[0])
    after = ws(ep, "app-prod")
    assert after["resource_count"] == w["resource_count"] + run["additions"] - run["destructions"]
    sv = ok(ep, "get_state_version", state_version_id=after["current_state_version_id"])
    assert (sv["run_id"], sv["resource_count"]) == (run["id"], after["resource_count"])
    refused(ep, "apply_run", "rule_violation", "run_id", run_id=run["id"], confirmed_by=STAFF[0])


def test_soft_policy_failures_need_an_owner_override_and_hard_ones_error(ep: Episode) -> None:
    soft = every(ep, "list_runs", status="policy_soft_failed")[0]
    refused(ep, "apply_run", "rule_violation", "run_id", run_id=soft["id"], confirmed_by=STAFF[0])
    refused(
        ep, "override_policy", "rule_violation", "user_email", run_id=soft["id"], user_email=not_owner(ep), comment="ok"
    )
    refused(ep, "override_policy", "rule_violation", "comment", run_id=soft["id"], user_email=owner(ep), comment=" ")
    over = ok(ep, "override_policy", run_id=soft["id"], user_email=owner(ep), comment="Planned decommission")
    assert over["status"] == "policy_override"
    ok(ep, "apply_run", run_id=soft["id"], confirmed_by=owner(ep))
    w = ws(ep, "networking-prod")
    destroy = ok(ep, "create_run", workspace_id=w["id"], message="Tear down", created_by=STAFF[0], is_destroy=True)
    assert (destroy["status"], destroy["destructions"]) == ("errored", w["resource_count"])
    assert "limit-mass-destroy (hard-mandatory)" in destroy["policy_results"]


def test_locks_are_released_by_their_holder_or_forced_by_an_owner(ep: Episode) -> None:
    w = ws(ep, "app-prod")
    ok(ep, "lock_workspace", workspace_id=w["id"], user_email=not_owner(ep), reason="maintenance")
    refused(ep, "lock_workspace", "conflict", "workspace_id", workspace_id=w["id"], user_email=owner(ep))
    run = every(ep, "list_runs", workspace_id=w["id"], status="policy_checked")[0]
    refused(ep, "apply_run", "conflict", "run_id", run_id=run["id"], confirmed_by=STAFF[0])
    other = next(e for e in STAFF if e not in (owner(ep), not_owner(ep)))
    refused(ep, "unlock_workspace", "rule_violation", "user_email", workspace_id=w["id"], user_email=other)
    refused(ep, "unlock_workspace", "rule_violation", "user_email", workspace_id=w["id"], user_email=other, force=True)
    assert ok(ep, "unlock_workspace", workspace_id=w["id"], user_email=owner(ep), force=True)["locked"] is False
    refused(ep, "unlock_workspace", "conflict", "workspace_id", workspace_id=w["id"], user_email=owner(ep))


def test_state_rollback_needs_the_lock_and_writes_a_copy(ep: Episode) -> None:
    w = ws(ep, "data-platform")
    versions = sorted(every(ep, "list_state_versions", workspace_id=w["id"]), key=lambda v: v["serial"])
    refused(
        ep,
        "rollback_state",
        "rule_violation",
        "user_email",
        state_version_id=versions[0]["id"],
        user_email=next(e for e in STAFF if e != w["locked_by"]),
    )
    refused(
        ep,
        "rollback_state",
        "conflict",
        "state_version_id",
        state_version_id=versions[-1]["id"],
        user_email=w["locked_by"],
    )
    sv = ok(ep, "rollback_state", state_version_id=versions[0]["id"], user_email=w["locked_by"])
    assert (sv["serial"], sv["resource_count"]) == (versions[-1]["serial"] + 1, versions[0]["resource_count"])
    assert ws(ep, "data-platform")["current_state_version_id"] == sv["id"]


def test_auto_apply_applies_clean_plans_and_local_workspaces_take_no_runs(ep: Episode) -> None:
    staging = ws(ep, "app-staging")
    run = ok(ep, "create_run", workspace_id=staging["id"], message="Nightly drift fix", created_by=STAFF[1])
    assert run["status"] in ("applied", "planned_and_finished")
    if run["status"] == "applied":
        assert ws(ep, "app-staging")["current_state_version_id"] != staging["current_state_version_id"]
    sandbox = ws(ep, "sandbox")
    refused(
        ep, "create_run", "rule_violation", "workspace_id", workspace_id=sandbox["id"], message="x", created_by=STAFF[0]
    )


def test_workspaces_with_resources_or_locks_cannot_be_deleted(ep: Episode) -> None:
    refused(ep, "delete_workspace", "rule_violation", "workspace_id", workspace_id=ws(ep, "app-prod")["id"])
    refused(ep, "delete_workspace", "rule_violation", "workspace_id", workspace_id=ws(ep, "data-platform")["id"])
    org = every(ep, "list_organizations")[0]["id"]
    refused(ep, "create_workspace", "conflict", "name", organization_id=org, name="sandbox")
    sandbox = ws(ep, "sandbox")
    ok(ep, "delete_workspace", workspace_id=sandbox["id"])
    assert all(v["workspace_id"] != sandbox["id"] for v in every(ep, "list_variables"))
    assert ok(ep, "create_workspace", organization_id=org, name="sandbox")["resource_count"] == 0
