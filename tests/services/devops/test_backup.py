"""Vaultline Backup: job runs and failures, retries, retention and immutability, four-eyes restores, guards."""

from __future__ import annotations

from typing import Any

from compoworld import Episode
from tests.services.helpers import ServiceTools

BACKUP = ServiceTools("backup")
WORLD = BACKUP.world
ok, refused, every = BACKUP.ok, BACKUP.refused, BACKUP.every
POP = WORLD.population
STAFF = {p.email for p in POP.employees}
OPS = [p.email for p in POP.staff("IT", "Engineering", fallback=6)]


def job(ep: Episode, name: str) -> dict[str, Any]:
    return next(j for j in every(ep, "list_jobs") if j["name"] == name)


def workload(ep: Episode, name: str) -> dict[str, Any]:
    return every(ep, "list_workloads", name=name)[0]


def repo(ep: Episode, name: str) -> dict[str, Any]:
    return every(ep, "list_repositories", name=name)[0]


def test_seeded_jobs_match_their_sessions_points_and_repositories(ep: Episode) -> None:
    for j in every(ep, "list_jobs"):
        runs = every(ep, "list_sessions", job_id=j["id"])
        assert runs and runs[-1]["result"] == j["last_result"] and runs[-1]["started_at"] == j["last_run_at"]
        assert (j["next_run_at"] is None) == (j["status"] == "disabled")
        assert j["owner_email"] in OPS
    for r in every(ep, "list_repositories"):
        assert r["used_gb"] == sum(p["size_gb"] for p in every(ep, "list_restore_points", repository_id=r["id"]))
    assert {w["owner_email"] for w in every(ep, "list_workloads")} <= STAFF


def test_a_run_writes_increments_and_fills_the_repository(ep: Episode) -> None:
    j = job(ep, "ERP database")
    r = repo(ep, "Primary-Hardened")
    before = every(ep, "list_restore_points", job_id=j["id"])
    run = ok(ep, "start_job", job_id=j["id"])
    assert (run["result"], run["processed_ids"], run["failed_ids"]) == ("success", j["workload_ids"], [])
    after = every(ep, "list_restore_points", job_id=j["id"])
    assert len(after) == len(before) + 1 and after[-1]["point_type"] == "increment"
    assert after[-1]["immutable_until"] is not None
    assert ok(ep, "get_repository", repository_id=r["id"])["used_gb"] == r["used_gb"] + run["transferred_gb"]
    assert ok(ep, "get_workload", workload_id=j["workload_ids"][0])["last_backup_at"] == run["started_at"]


def test_offline_workloads_fail_and_a_retry_reruns_only_them(ep: Episode) -> None:
    j = job(ep, "Build servers")
    down = workload(ep, "build-02")
    assert j["last_result"] == "warning"
    again = ok(ep, "retry_job", job_id=j["id"])
    assert (again["retry"], again["result"], again["processed_ids"]) == (True, "failed", [])
    ok(ep, "update_workload", workload_id=down["id"], status="online")
    fixed = ok(ep, "retry_job", job_id=j["id"])
    assert (fixed["result"], fixed["processed_ids"]) == ("success", [down["id"]])
    assert ok(ep, "get_job", job_id=j["id"])["last_result"] == "success"
    refused(ep, "retry_job", "rule_violation", "job_id", job_id=j["id"])


def test_disabled_jobs_do_not_run_or_get_scheduled(ep: Episode) -> None:
    j = job(ep, "Production servers nightly")
    off = ok(ep, "disable_job", job_id=j["id"])
    assert off["next_run_at"] is None
    refused(ep, "start_job", "rule_violation", "job_id", job_id=j["id"])
    on = ok(ep, "enable_job", job_id=j["id"])
    assert on["next_run_at"] is not None and on["next_run_at"].endswith("T22:00:00Z")
    weekly = ok(ep, "update_job", job_id=j["id"], schedule="manual")
    assert weekly["next_run_at"] is None


def test_retention_prunes_old_points_unless_immutable(ep: Episode) -> None:
    spare = repo(ep, "Spare-Blob")
    free = workload(ep, "print-01")
    made = ok(
        ep,
        "create_job",
        name="Print server",
        workload_ids=[free["id"]],
        repository_id=spare["id"],
        owner_email=OPS[0],
        retention_points=2,
    )
    for _ in range(3):
        ok(ep, "start_job", job_id=made["id"])
    kept = every(ep, "list_restore_points", job_id=made["id"])
    assert [p["point_type"] for p in kept] == ["increment", "increment"]
    assert ok(ep, "get_repository", repository_id=spare["id"])["used_gb"] == sum(p["size_gb"] for p in kept)
    build = job(ep, "Build servers")
    locked = every(ep, "list_restore_points", job_id=build["id"], workload_id=build["workload_ids"][0])
    assert len(locked) == build["retention_points"]
    ok(ep, "start_job", job_id=build["id"])
    assert len(every(ep, "list_restore_points", job_id=build["id"], workload_id=build["workload_ids"][0])) == 4


def test_a_workload_belongs_to_one_job_run_by_an_operator(ep: Episode) -> None:
    taken = workload(ep, "web-01")
    free = workload(ep, "print-01")
    base = {"name": "Extra", "repository_id": repo(ep, "Spare-Blob")["id"], "owner_email": OPS[0]}
    refused(ep, "create_job", "conflict", "workload_ids", workload_ids=[taken["id"]], **base)
    refused(ep, "create_job", "rule_violation", "workload_ids", workload_ids=[free["id"], free["id"]], **base)
    outsider = next(e for e in sorted(STAFF) if e not in OPS)
    refused(
        ep,
        "create_job",
        "rule_violation",
        "owner_email",
        workload_ids=[free["id"]],
        **(base | {"owner_email": outsider}),
    )
    refused(ep, "create_job", "conflict", "name", workload_ids=[free["id"]], **(base | {"name": "erp DATABASE"}))
    j = job(ep, "ERP database")
    refused(ep, "update_job", "conflict", "workload_ids", job_id=j["id"], workload_ids=[taken["id"]])


def test_runs_need_an_available_repository_with_space(ep: Episode) -> None:
    j = job(ep, "Production servers nightly")
    r = repo(ep, "Primary-Hardened")
    ok(ep, "update_repository", repository_id=r["id"], capacity_gb=r["used_gb"] + 10)
    refused(ep, "start_job", "rule_violation", "job_id", job_id=j["id"])
    ok(ep, "update_repository", repository_id=r["id"], capacity_gb=r["used_gb"] + 1000, status="maintenance")
    refused(ep, "start_job", "rule_violation", "job_id", job_id=j["id"])
    ok(ep, "update_repository", repository_id=r["id"], status="available")
    assert ok(ep, "start_job", job_id=j["id"])["result"] == "success"


def test_restores_over_the_original_need_a_second_operator(ep: Episode) -> None:
    down = workload(ep, "build-02")
    point = every(ep, "list_restore_points", workload_id=down["id"], corrupted=False)[-1]
    args = {
        "restore_point_id": point["id"],
        "kind": "full",
        "reason": "Rebuild after disk loss",
        "requested_by": OPS[0],
    }
    refused(
        ep, "start_restore", "rule_violation", "target_hostname", to_original=True, target_hostname="x.corp", **args
    )
    pending = ok(ep, "start_restore", to_original=True, **args)
    assert (pending["status"], pending["completed_at"]) == ("pending_approval", None)
    refused(ep, "start_restore", "conflict", "restore_point_id", to_original=True, **args)
    refused(ep, "approve_restore", "rule_violation", "approver_email", restore_id=pending["id"], approver_email=OPS[0])
    done = ok(ep, "approve_restore", restore_id=pending["id"], approver_email=OPS[1])
    assert (done["status"], done["decided_by"]) == ("completed", OPS[1])
    assert ok(ep, "get_workload", workload_id=down["id"])["status"] == "online"
    refused(ep, "reject_restore", "conflict", "restore_id", restore_id=pending["id"], approver_email=OPS[2])
    other = ok(ep, "start_restore", to_original=False, target_hostname="restore-02.corp", **args)
    assert other["status"] == "completed" and other["completed_at"] is not None


def test_restores_refuse_corrupt_points_and_wrong_item_kinds(ep: Episode) -> None:
    bad = every(ep, "list_restore_points", corrupted=True)[0]
    base = {"to_original": False, "target_hostname": "r.corp", "reason": "Test", "requested_by": OPS[0]}
    refused(ep, "start_restore", "rule_violation", "restore_point_id", restore_point_id=bad["id"], kind="full", **base)
    vm = every(ep, "list_restore_points", workload_id=workload(ep, "web-01")["id"])[0]
    refused(ep, "start_restore", "rule_violation", "kind", restore_point_id=vm["id"], kind="mailbox_items", **base)
    outsider = next(e for e in sorted(STAFF) if e not in OPS)
    refused(
        ep,
        "start_restore",
        "rule_violation",
        "requested_by",
        restore_point_id=vm["id"],
        kind="file_level",
        **(base | {"requested_by": outsider}),
    )
    assert ok(ep, "start_restore", restore_point_id=vm["id"], kind="instant_recovery", **base)["status"] == "completed"


def test_immutable_points_and_used_infrastructure_cannot_be_deleted(ep: Episode) -> None:
    locked = every(ep, "list_restore_points", repository_id=repo(ep, "Primary-Hardened")["id"])[0]
    refused(ep, "delete_restore_point", "rule_violation", "restore_point_id", restore_point_id=locked["id"])
    nas = repo(ep, "Legacy-NAS")
    old = every(ep, "list_restore_points", repository_id=nas["id"])[0]
    ok(ep, "delete_restore_point", restore_point_id=old["id"])
    assert ok(ep, "get_repository", repository_id=nas["id"])["used_gb"] == nas["used_gb"] - old["size_gb"]
    refused(ep, "delete_repository", "conflict", "repository_id", repository_id=nas["id"])
    ok(ep, "delete_repository", repository_id=repo(ep, "Spare-Blob")["id"])
    refused(ep, "delete_workload", "conflict", "workload_id", workload_id=workload(ep, "web-01")["id"])
    refused(ep, "delete_job", "conflict", "job_id", job_id=job(ep, "ERP database")["id"])
    ok(ep, "delete_job", job_id=job(ep, "Legacy archive")["id"])
