"""Stratus Compute (EC2-style): instance lifecycle, vCPU quota, volume attach rules, security groups, costs."""

from __future__ import annotations

from typing import Any

from compoworld import Episode
from tests.services.helpers import ServiceTools

CLOUD = ServiceTools("cloud")
WORLD = CLOUD.world
ok, refused, every, items, first = CLOUD.ok, CLOUD.refused, CLOUD.every, CLOUD.items, CLOUD.first
POP = WORLD.population


def machine(ep: Episode, name: str) -> dict[str, Any]:
    return first(ep, "instances", query=name)


def launch(ep: Episode, **extra: Any) -> dict[str, Any]:
    args = {
        "name": "batch-1",
        "instance_type": "t3.medium",
        "image": "ubuntu-24.04-x86_64",
        "availability_zone": "eu-central-1a",
        "owner_email": POP.employees[0].email,
        **extra,
    }
    return dict(ok(ep, "run_instance", **args))


# -- the seeded world -----------------------------------------------------------------------


def test_owners_are_staff_and_every_live_instance_has_one_root_volume() -> None:
    ep = Episode(WORLD)
    staff = {p.email for p in POP.employees}
    for inst in every(ep, "list_instances"):
        assert inst["owner_email"] in staff
        vols = items(ep, "volumes", instance_id=inst["id"])
        if inst["state"] == "terminated":
            assert vols == []
        else:
            assert [v["device"] for v in vols if v["is_root"]] == ["/dev/xvda"]
            assert all(v["availability_zone"] == inst["availability_zone"] for v in vols)
    assert {i["state"] for i in every(ep, "list_instances")} == {"running", "stopped", "terminated"}


# -- lifecycle ------------------------------------------------------------------------------


def test_launching_creates_a_running_instance_with_a_root_volume(ep: Episode) -> None:
    res = launch(ep, public_ip=True)
    inst, root = res["instance"], res["root_volume"]
    assert inst["state"] == "running" and inst["public_ip"] and inst["architecture"] == "x86_64"
    assert (root["instance_id"], root["is_root"], root["delete_on_termination"]) == (inst["id"], True, True)
    refused(
        ep,
        "run_instance",
        "rule_violation",
        "instance_type",
        name="x",
        instance_type="t4g.small",
        image="ubuntu-24.04-x86_64",
        availability_zone="eu-central-1a",
        owner_email=POP.employees[0].email,
    )
    refused(
        ep,
        "run_instance",
        "rule_violation",
        "instance_type",
        name="x",
        instance_type="z9.huge",
        image="ubuntu-24.04-x86_64",
        availability_zone="eu-central-1a",
        owner_email=POP.employees[0].email,
    )


def test_the_vcpu_quota_caps_running_instances(ep: Episode) -> None:
    used = ok(ep, "estimate_monthly_cost")["running_vcpus"]
    big = 16
    for _ in range((64 - used) // big):
        launch(ep, instance_type="c6i.4xlarge")
    msg = refused(
        ep,
        "run_instance",
        "rule_violation",
        "instance_type",
        name="one-more",
        instance_type="c6i.4xlarge",
        image="ubuntu-24.04-x86_64",
        availability_zone="eu-central-1a",
        owner_email=POP.employees[0].email,
    )
    assert "VcpuLimitExceeded" in msg
    while ok(ep, "estimate_monthly_cost")["running_vcpus"] <= 60:
        launch(ep)  # 2 vCPUs each
    stopped = first(ep, "instances", state="stopped", instance_type="r6i.xlarge")  # 4 vCPUs
    refused(ep, "start_instance", "rule_violation", "instance_id", instance_id=stopped["id"])


def test_stop_start_and_state_errors(ep: Episode) -> None:
    inst = machine(ep, "bastion")
    stopped = ok(ep, "stop_instance", instance_id=inst["id"])
    assert (stopped["state"], stopped["public_ip"]) == ("stopped", None)
    refused(ep, "stop_instance", "rule_violation", "instance_id", instance_id=inst["id"])
    assert ok(ep, "start_instance", instance_id=inst["id"])["state"] == "running"
    gone = first(ep, "instances", state="terminated")
    refused(ep, "start_instance", "rule_violation", "instance_id", instance_id=gone["id"])
    refused(ep, "update_instance", "rule_violation", "instance_id", instance_id=gone["id"], name="revived")


def test_the_type_changes_only_while_stopped_and_within_the_architecture(ep: Episode) -> None:
    inst = machine(ep, "billing-worker")
    refused(
        ep, "modify_instance_type", "rule_violation", "instance_id", instance_id=inst["id"], instance_type="m6i.large"
    )
    ok(ep, "stop_instance", instance_id=inst["id"])
    refused(
        ep, "modify_instance_type", "rule_violation", "instance_type", instance_id=inst["id"], instance_type="m7g.large"
    )
    assert ok(ep, "modify_instance_type", instance_id=inst["id"], instance_type="m6i.large")["instance_type"] == (
        "m6i.large"
    )


def test_termination_needs_protection_off_and_frees_non_root_volumes(ep: Episode) -> None:
    api = machine(ep, "api-server-1")
    refused(ep, "terminate_instance", "rule_violation", "instance_id", instance_id=api["id"])
    ok(ep, "update_instance", instance_id=api["id"], termination_protection=False)
    vols = items(ep, "volumes", instance_id=api["id"])
    ok(ep, "terminate_instance", instance_id=api["id"])
    left = {v["id"]: v for v in every(ep, "list_volumes")}
    for v in vols:
        if v["delete_on_termination"]:
            assert v["id"] not in left
        else:
            assert (left[v["id"]]["state"], left[v["id"]]["instance_id"]) == ("available", None)


# -- volumes --------------------------------------------------------------------------------


def test_a_volume_attaches_only_in_its_zone_on_a_free_device(ep: Episode) -> None:
    vol = first(ep, "volumes", state="available", availability_zone="eu-central-1a")
    other_zone = machine(ep, "billing-worker")
    refused(
        ep,
        "attach_volume",
        "rule_violation",
        "instance_id",
        volume_id=vol["id"],
        instance_id=other_zone["id"],
        device="/dev/sdg",
    )
    target = machine(ep, "api-server-1")
    refused(ep, "attach_volume", "conflict", "device", volume_id=vol["id"], instance_id=target["id"], device="/dev/sdf")
    att = ok(ep, "attach_volume", volume_id=vol["id"], instance_id=target["id"], device="/dev/sdg")
    assert (att["state"], att["instance_id"]) == ("in-use", target["id"])
    refused(ep, "delete_volume", "rule_violation", "volume_id", volume_id=vol["id"])
    ok(ep, "detach_volume", volume_id=vol["id"])
    ok(ep, "delete_volume", volume_id=vol["id"])


def test_a_running_instances_root_volume_cannot_be_detached(ep: Episode) -> None:
    inst = machine(ep, "bastion")
    root = first(ep, "volumes", instance_id=inst["id"], is_root=True)
    refused(ep, "detach_volume", "rule_violation", "volume_id", volume_id=root["id"])
    ok(ep, "stop_instance", instance_id=inst["id"])
    assert ok(ep, "detach_volume", volume_id=root["id"])["state"] == "available"


def test_volume_sizes_iops_and_snapshot_restores_are_checked(ep: Episode) -> None:
    owner = POP.employees[0].email
    base = {"availability_zone": "eu-central-1b", "owner_email": owner}
    refused(ep, "create_volume", "rule_violation", "size_gib", **base, size_gib=50, volume_type="st1")
    refused(ep, "create_volume", "rule_violation", "iops", **base, size_gib=10, volume_type="io2", iops=9000)
    refused(ep, "create_volume", "rule_violation", "iops", **base, size_gib=200, volume_type="sc1", iops=3000)
    snap = first(ep, "snapshots")
    refused(
        ep, "create_volume", "rule_violation", "size_gib", **base, size_gib=snap["size_gib"] - 1, snapshot_id=snap["id"]
    )
    restored = ok(ep, "create_volume", **base, snapshot_id=snap["id"])
    assert (restored["size_gib"], restored["snapshot_id"], restored["iops"]) == (snap["size_gib"], snap["id"], 3000)
    taken = ok(ep, "create_snapshot", volume_id=restored["id"], owner_email=owner, description="copy")
    assert taken["size_gib"] == restored["size_gib"]


# -- security groups ------------------------------------------------------------------------


def test_ingress_rules_are_unique_and_groups_in_use_cannot_be_deleted(ep: Episode) -> None:
    web = first(ep, "security_groups", name="web")
    rule = {"protocol": "tcp", "from_port": 443, "to_port": 443, "cidr": "0.0.0.0/0"}
    refused(ep, "authorize_ingress", "conflict", "cidr", security_group_id=web["id"], **rule)
    refused(
        ep,
        "authorize_ingress",
        "rule_violation",
        "from_port",
        security_group_id=web["id"],
        protocol="tcp",
        from_port=9000,
        to_port=8000,
        cidr="10.0.0.0/8",
    )
    added = ok(
        ep,
        "authorize_ingress",
        security_group_id=web["id"],
        protocol="tcp",
        from_port=8080,
        to_port=8080,
        cidr="10.0.0.0/8",
    )
    assert len(added["rules"]) == len(web["rules"]) + 1
    removed = ok(ep, "revoke_ingress", security_group_id=web["id"], **rule)
    assert len(removed["rules"]) == len(web["rules"])
    refused(ep, "revoke_ingress", "rule_violation", "cidr", security_group_id=web["id"], **rule)
    refused(ep, "delete_security_group", "rule_violation", "security_group_id", security_group_id=web["id"])
    unused = first(ep, "security_groups", name="legacy-ftp")
    ok(ep, "delete_security_group", security_group_id=unused["id"])


# -- costs ----------------------------------------------------------------------------------


def test_the_cost_estimate_adds_running_instances_volumes_and_snapshots() -> None:
    ep = Episode(WORLD)
    est = ok(ep, "estimate_monthly_cost")
    prices = {t["name"]: t["monthly_price"] for t in every(ep, "list_instance_types")}
    running = sum(prices[i["instance_type"]] for i in every(ep, "list_instances", state="running"))
    assert sum(r["instances"] for r in est["by_owner"]) == running
    assert est["total"] == sum(r["total"] for r in est["by_owner"])
    assert all(r["total"] == r["instances"] + r["volumes"] + r["snapshots"] for r in est["by_owner"])
    top = est["by_owner"][0]
    mine = ok(ep, "estimate_monthly_cost", owner_email=top["owner_email"])
    assert mine["by_owner"] == [top] and mine["total"] == top["total"]


def test_stopping_an_instance_removes_its_price_but_not_its_volumes(ep: Episode) -> None:
    inst = machine(ep, "ci-runner-1")
    before = ok(ep, "estimate_monthly_cost", owner_email=inst["owner_email"])["by_owner"][0]
    ok(ep, "stop_instance", instance_id=inst["id"])
    after = ok(ep, "estimate_monthly_cost", owner_email=inst["owner_email"])["by_owner"][0]
    price = first(ep, "instance_types", name=inst["instance_type"])["monthly_price"]
    assert after["instances"] == before["instances"] - price and after["volumes"] == before["volumes"]
