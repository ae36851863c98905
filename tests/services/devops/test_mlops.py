"""Gradient Lab: run tracking, params immutability, registry stages, transition requests, aliases, deletion rules."""

from __future__ import annotations

from typing import Any

from compoworld import Episode
from tests.services.helpers import ServiceTools

ML = ServiceTools("mlops")
WORLD = ML.world
ok, refused, every = ML.ok, ML.refused, ML.every
STAFF = [p.email for p in WORLD.population.employees]


def model(ep: Episode, name: str) -> dict[str, Any]:
    return every(ep, "list_registered_models", name=name)[0]


def version(ep: Episode, name: str, stage: str) -> dict[str, Any]:
    return every(ep, "list_model_versions", name=name, current_stage=stage)[0]


def test_seeded_registry_is_consistent(ep: Episode) -> None:
    for m in every(ep, "list_registered_models"):
        assert m["owner_email"] in STAFF
        vers = {v["version"]: v for v in every(ep, "list_model_versions", model_id=m["id"])}
        assert sorted(vers) == list(range(1, len(vers) + 1))
        for alias, num in m["aliases"].items():
            assert vers[num]["current_stage"] == {"champion": "Production", "challenger": "Staging"}[alias]
        for v in vers.values():
            run = ok(ep, "get_run", run_id=v["run_id"])
            assert run["status"] == "FINISHED" and v["source"] == f"runs:/{run['id']}/model"
    gone = every(ep, "list_experiments", lifecycle_stage="deleted")[0]
    assert {r["lifecycle_stage"] for r in every(ep, "list_runs", experiment_id=gone["id"])} == {"deleted"}


def test_params_are_immutable_and_deleted_runs_take_no_logs(ep: Episode) -> None:
    run = every(ep, "list_runs", status="RUNNING")[0]
    key, value = next(iter(run["params"].items()))
    assert ok(ep, "log_param", run_id=run["id"], key=key, value=value)["params"][key] == value
    refused(ep, "log_param", "conflict", "value", run_id=run["id"], key=key, value=value + "0")
    assert ok(ep, "log_metric", run_id=run["id"], key="val_auc", value=0.95)["metrics"]["val_auc"] == 0.95
    ok(ep, "delete_run", run_id=run["id"])
    refused(ep, "log_metric", "rule_violation", "run_id", run_id=run["id"], key="val_auc", value=0.5)
    ok(ep, "restore_run", run_id=run["id"])
    ended = ok(ep, "end_run", run_id=run["id"], status="KILLED")
    assert ended["status"] == "KILLED" and ended["end_time"] is not None
    refused(ep, "end_run", "rule_violation", "run_id", run_id=run["id"])


def test_only_finished_active_runs_become_model_versions(ep: Episode) -> None:
    m = model(ep, "fraud-scorer")
    failed = every(ep, "list_runs", status="FAILED")[0]
    refused(
        ep,
        "create_model_version",
        "rule_violation",
        "run_id",
        registered_model_id=m["id"],
        run_id=failed["id"],
        created_by=m["owner_email"],
    )
    done = every(ep, "list_runs", status="FINISHED")[0]
    before = len(every(ep, "list_model_versions", model_id=m["id"]))
    v = ok(ep, "create_model_version", registered_model_id=m["id"], run_id=done["id"], created_by=m["owner_email"])
    assert (v["version"], v["current_stage"], v["name"]) == (before + 1, "None", "fraud-scorer")
    ok(ep, "delete_run", run_id=done["id"])
    refused(
        ep,
        "create_model_version",
        "rule_violation",
        "run_id",
        registered_model_id=m["id"],
        run_id=done["id"],
        created_by=m["owner_email"],
    )


def test_owners_transition_directly_and_can_archive_the_current_production(ep: Episode) -> None:
    m = model(ep, "churn-classifier")
    staging, prod = version(ep, m["name"], "Staging"), version(ep, m["name"], "Production")
    other = next(e for e in STAFF if e != m["owner_email"])
    refused(
        ep,
        "transition_stage",
        "rule_violation",
        "user_email",
        model_version_id=staging["id"],
        stage="Production",
        user_email=other,
    )
    refused(
        ep,
        "transition_stage",
        "conflict",
        "stage",
        model_version_id=staging["id"],
        stage="Staging",
        user_email=m["owner_email"],
    )
    moved = ok(
        ep,
        "transition_stage",
        model_version_id=staging["id"],
        stage="Production",
        user_email=m["owner_email"],
        archive_existing_versions=True,
    )
    assert moved["current_stage"] == "Production"
    assert ok(ep, "get_model_version", model_version_id=prod["id"])["current_stage"] == "Archived"


def test_transition_requests_are_decided_by_the_owner_not_the_requester(ep: Episode) -> None:
    req = every(ep, "list_transition_requests", status="pending")[0]
    m = model(ep, "demand-forecaster")
    refused(
        ep, "approve_transition", "rule_violation", "user_email", request_id=req["id"], user_email=req["requested_by"]
    )
    refused(
        ep,
        "request_transition",
        "conflict",
        "stage",
        model_version_id=req["version_id"],
        stage="Production",
        requested_by=STAFF[-1],
    )
    old_prod = version(ep, m["name"], "Production")
    moved = ok(ep, "approve_transition", request_id=req["id"], user_email=m["owner_email"])
    assert moved["current_stage"] == "Production"
    assert ok(ep, "get_model_version", model_version_id=old_prod["id"])["current_stage"] == "Archived"
    refused(ep, "reject_transition", "conflict", "request_id", request_id=req["id"], user_email=m["owner_email"])
    again = ok(ep, "request_transition", model_version_id=old_prod["id"], stage="Staging", requested_by=STAFF[-1])
    assert ok(ep, "reject_transition", request_id=again["id"], user_email=m["owner_email"])["status"] == "rejected"


def test_aliases_name_one_existing_version_and_reserved_names_are_refused(ep: Episode) -> None:
    m = model(ep, "churn-classifier")
    refused(ep, "set_alias", "rule_violation", "alias", registered_model_id=m["id"], alias="latest", version=1)
    refused(ep, "set_alias", "rule_violation", "alias", registered_model_id=m["id"], alias="v2", version=1)
    refused(ep, "set_alias", "rule_violation", "version", registered_model_id=m["id"], alias="shadow", version=99)
    moved = ok(ep, "set_alias", registered_model_id=m["id"], alias="champion", version=1)
    assert moved["aliases"]["champion"] == 1
    gone = ok(ep, "delete_alias", registered_model_id=m["id"], alias="champion")
    assert "champion" not in gone["aliases"]
    refused(ep, "delete_alias", "rule_violation", "alias", registered_model_id=m["id"], alias="champion")


def test_deleting_an_experiment_deletes_its_runs_and_restoring_brings_them_back(ep: Episode) -> None:
    exp = every(ep, "list_experiments", name="fraud-detection")[0]
    ok(ep, "delete_experiment", experiment_id=exp["id"])
    assert {r["lifecycle_stage"] for r in every(ep, "list_runs", experiment_id=exp["id"])} == {"deleted"}
    refused(
        ep, "create_run", "rule_violation", "experiment_id", experiment_id=exp["id"], run_name="x", user_email=STAFF[0]
    )
    ok(ep, "restore_experiment", experiment_id=exp["id"])
    assert {r["lifecycle_stage"] for r in every(ep, "list_runs", experiment_id=exp["id"])} == {"active"}
    default = every(ep, "list_experiments", name="Default")[0]
    refused(ep, "delete_experiment", "rule_violation", "experiment_id", experiment_id=default["id"])
    refused(ep, "create_experiment", "conflict", "name", name="fraud-detection")


def test_live_versions_protect_themselves_and_their_model_from_deletion(ep: Episode) -> None:
    m = model(ep, "churn-classifier")
    prod = version(ep, m["name"], "Production")
    refused(ep, "delete_model_version", "rule_violation", "model_version_id", model_version_id=prod["id"])
    refused(ep, "delete_registered_model", "rule_violation", "registered_model_id", registered_model_id=m["id"])
    for stage in ("Production", "Staging"):
        ver = version(ep, m["name"], stage)
        ok(ep, "transition_stage", model_version_id=ver["id"], stage="Archived", user_email=m["owner_email"])
    ok(ep, "delete_model_version", model_version_id=prod["id"])
    assert str(prod["version"]) not in {str(v) for v in model(ep, m["name"])["aliases"].values()}
    ok(ep, "delete_registered_model", registered_model_id=m["id"])
    assert every(ep, "list_model_versions", name=m["name"]) == []
