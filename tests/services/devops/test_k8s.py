"""Helm Cluster: quotas, rollouts and rollbacks, pod replacement, services, config maps, jobs, namespaces."""

from __future__ import annotations

from typing import Any

from compoworld import Episode
from tests.services.helpers import ServiceTools

K8S = ServiceTools("k8s")
WORLD = K8S.world
ok, refused, every = K8S.ok, K8S.refused, K8S.every
STAFF = {p.email for p in WORLD.population.employees}


def dep(ep: Episode, name: str) -> dict[str, Any]:
    return every(ep, "list_deployments", name=name)[0]


def live(ep: Episode, **filters: Any) -> list[dict[str, Any]]:
    return [p for p in every(ep, "list_pods", **filters) if p["phase"] in ("Pending", "Running")]


def test_seeded_deployments_run_their_replicas_within_quota(ep: Episode) -> None:
    for d in every(ep, "list_deployments"):
        pods = live(ep, deployment_id=d["id"])
        assert len(pods) == d["replicas"] and {p["image"] for p in pods} == {d["image"]}
        assert (d["history"][-1]["revision"], d["history"][-1]["image"]) == (d["revision"], d["image"])
        assert d["owner_email"] is None or d["owner_email"] in STAFF
    for ns in every(ep, "list_namespaces"):
        use = ok(ep, "namespace_usage", namespace_id=ns["id"])
        assert use["pods_used"] <= use["pods_quota"] and use["cpu_used_m"] <= use["cpu_quota_m"]
    for svc in every(ep, "list_services"):
        assert every(ep, "list_deployments", namespace=svc["namespace"], name=svc["selector_app"])


def test_scaling_adds_and_removes_pods_within_the_quota(ep: Episode) -> None:
    api = dep(ep, "payments-api")
    msg = refused(ep, "scale_deployment", "rule_violation", "replicas", deployment_id=api["id"], replicas=8)
    assert "exceeded quota" in msg and "requests.cpu" in msg
    assert ok(ep, "scale_deployment", deployment_id=api["id"], replicas=7)["replicas"] == 7
    assert len(live(ep, deployment_id=api["id"])) == 7
    ok(ep, "scale_deployment", deployment_id=api["id"], replicas=0)
    assert live(ep, deployment_id=api["id"]) == []
    refused(ep, "scale_deployment", "conflict", "replicas", deployment_id=api["id"], replicas=0)


def test_a_new_image_rolls_out_a_revision_and_undo_rolls_back(ep: Episode) -> None:
    web = dep(ep, "storefront")
    old_image = web["image"]
    refused(ep, "set_image", "conflict", "image", deployment_id=web["id"], image=old_image)
    new = ok(ep, "set_image", deployment_id=web["id"], image="nginx:1.27.1", change_cause="hotfix")
    assert (new["revision"], new["image"]) == (web["revision"] + 1, "nginx:1.27.1")
    assert {p["image"] for p in live(ep, deployment_id=web["id"])} == {"nginx:1.27.1"}
    back = ok(ep, "rollback_deployment", deployment_id=web["id"])
    assert (back["image"], back["revision"]) == (old_image, web["revision"] + 2)
    assert back["history"][-1]["change_cause"] == f"rollback to revision {web['revision']}"
    first = ok(ep, "rollback_deployment", deployment_id=web["id"], to_revision=1)
    assert first["image"] == web["history"][0]["image"]
    refused(ep, "rollback_deployment", "rule_violation", "to_revision", deployment_id=web["id"], to_revision=99)


def test_a_paused_deployment_neither_rolls_out_nor_back(ep: Episode) -> None:
    web = dep(ep, "storefront")
    ok(ep, "pause_deployment", deployment_id=web["id"])
    refused(ep, "set_image", "rule_violation", "deployment_id", deployment_id=web["id"], image="nginx:2.0")
    refused(ep, "rollback_deployment", "rule_violation", "deployment_id", deployment_id=web["id"])
    ok(ep, "resume_deployment", deployment_id=web["id"])
    assert ok(ep, "set_image", deployment_id=web["id"], image="nginx:2.0")["image"] == "nginx:2.0"
    etl = dep(ep, "etl-scheduler")
    refused(ep, "rollback_deployment", "rule_violation", "deployment_id", deployment_id=etl["id"])


def test_a_deleted_deployment_pod_is_replaced_but_a_job_pod_is_not(ep: Episode) -> None:
    web = dep(ep, "storefront")
    victim = live(ep, deployment_id=web["id"])[0]
    ok(ep, "delete_pod", pod_id=victim["id"])
    pods = live(ep, deployment_id=web["id"])
    assert len(pods) == web["replicas"] and victim["id"] not in {p["id"] for p in pods}
    job_pods = [p for p in live(ep, namespace="data") if p["job_id"]]
    ok(ep, "delete_pod", pod_id=job_pods[0]["id"])
    assert len([p for p in live(ep, namespace="data") if p["job_id"]]) == len(job_pods) - 1


def test_services_select_deployments_and_node_ports_are_unique(ep: Episode) -> None:
    base = {"namespace": "web", "port": 80, "target_port": 8080}
    refused(ep, "create_service", "rule_violation", "selector_app", name="x", selector_app="nope", **base)
    refused(
        ep,
        "create_service",
        "rule_violation",
        "node_port",
        name="x",
        selector_app="storefront",
        node_port=31000,
        **base,
    )
    refused(
        ep,
        "create_service",
        "conflict",
        "node_port",
        name="x",
        selector_app="storefront",
        type="NodePort",
        node_port=30080,
        **base,
    )
    refused(ep, "create_service", "conflict", "name", name="storefront", selector_app="storefront", **base)
    made = ok(ep, "create_service", name="x", selector_app="storefront", type="NodePort", **base)
    assert made["node_port"] == 30000 and made["external_ip"] is None


def test_config_maps_are_unique_and_immutable_ones_never_change(ep: Episode) -> None:
    frozen = every(ep, "list_config_maps", immutable=True)[0]
    refused(ep, "update_config_map", "rule_violation", "config_map_id", config_map_id=frozen["id"], data={"A": "1"})
    refused(ep, "create_config_map", "conflict", "name", namespace=frozen["namespace"], name=frozen["name"], data={})
    refused(ep, "create_config_map", "rule_violation", "data", namespace="web", name="bad", data={"a b": "1"})
    refused(ep, "create_config_map", "rule_violation", "namespace", namespace="nope", name="c", data={})
    soft = every(ep, "list_config_maps", immutable=False)[0]
    assert ok(ep, "update_config_map", config_map_id=soft["id"], data={"LOG_LEVEL": "debug"})["data"] == {
        "LOG_LEVEL": "debug"
    }


def test_jobs_suspend_and_resume_their_pods(ep: Episode) -> None:
    refused(
        ep,
        "create_job",
        "rule_violation",
        "parallelism",
        namespace="data",
        name="j",
        image="python:3.12",
        completions=1,
        parallelism=2,
    )
    job = ok(ep, "create_job", namespace="data", name="j", image="python:3.12", completions=4, parallelism=2)
    assert len(live(ep, job_id=job["id"])) == 2
    ok(ep, "suspend_job", job_id=job["id"])
    assert live(ep, job_id=job["id"]) == []
    assert ok(ep, "resume_job", job_id=job["id"])["status"] == "Running"
    assert len(live(ep, job_id=job["id"])) == 2
    done = every(ep, "list_jobs", status="Complete")[0]
    refused(ep, "suspend_job", "rule_violation", "job_id", job_id=done["id"])


def test_quotas_cannot_drop_below_use_and_namespaces_delete_with_their_contents(ep: Episode) -> None:
    pay = every(ep, "list_namespaces", name="payments")[0]
    refused(ep, "update_namespace", "rule_violation", "pods_quota", namespace_id=pay["id"], pods_quota=1)
    system = every(ep, "list_namespaces", name="kube-system")[0]
    refused(ep, "delete_namespace", "rule_violation", "namespace_id", namespace_id=system["id"])
    refused(ep, "create_namespace", "conflict", "name", name="payments")
    ok(ep, "delete_namespace", namespace_id=pay["id"])
    for tool in ("list_deployments", "list_pods", "list_services", "list_config_maps"):
        assert every(ep, tool, namespace="payments") == []
