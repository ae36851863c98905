"""Meshgate: device approval by role, routes and exit nodes, auth keys, tag ownership, policy tests, users."""

from __future__ import annotations

from typing import Any

from compoworld import Episode
from tests.services.helpers import ServiceTools

ZTNA = ServiceTools("ztna")
WORLD = ZTNA.world
ok, refused, every, first = ZTNA.ok, ZTNA.refused, ZTNA.every, ZTNA.first
POP = WORLD.population
STAFF = {p.email for p in POP.employees}


def login(ep: Episode, role: str) -> str:
    return str(first(ep, "users", role=role, status="active")["login_name"])


def device(ep: Episode, hostname: str) -> dict[str, Any]:
    return first(ep, "devices", hostname=hostname)


def test_seeded_tailnet_is_consistent(ep: Episode) -> None:
    users = every(ep, "list_users")
    assert {u["login_name"] for u in users} <= STAFF
    assert [u["role"] for u in users].count("owner") == 1
    logins = {u["login_name"] for u in users}
    for d in every(ep, "list_devices"):
        assert (d["user_email"] is None) == bool(d["tags"])
        assert d["user_email"] is None or d["user_email"] in logins
        assert set(d["enabled_routes"]) <= set(d["advertised_routes"])
        if d["tags"]:
            assert d["key_expiry_disabled"]
    assert len({d["address"] for d in every(ep, "list_devices")}) == len(every(ep, "list_devices"))
    assert ok(ep, "run_acl_tests")["passed"] is True


def test_only_device_admins_authorize_devices(ep: Episode) -> None:
    d = first(ep, "devices", authorized=False)
    for role in ("member", "auditor", "network-admin"):
        refused(ep, "authorize_device", "rule_violation", "actor_email", device_id=d["id"], actor_email=login(ep, role))
    suspended = first(ep, "users", status="suspended")["login_name"]
    refused(ep, "authorize_device", "rule_violation", "actor_email", device_id=d["id"], actor_email=suspended)
    assert ok(ep, "authorize_device", device_id=d["id"], actor_email=login(ep, "it-admin"))["authorized"] is True
    refused(ep, "authorize_device", "conflict", "device_id", device_id=d["id"], actor_email=login(ep, "admin"))


def test_only_advertised_routes_and_exit_nodes_are_approved_by_network_admins(ep: Episode) -> None:
    router, exit_node = device(ep, "office-router"), device(ep, "exit-fra")
    net = login(ep, "network-admin")
    args = {"device_id": router["id"], "actor_email": net}
    refused(
        ep,
        "approve_routes",
        "rule_violation",
        "actor_email",
        **args | {"actor_email": login(ep, "it-admin")},
        routes=router["advertised_routes"],
    )
    refused(ep, "approve_routes", "rule_violation", "routes", routes=["172.16.0.0/16"], **args)
    refused(ep, "approve_routes", "rule_violation", "routes", routes=["10.20.0.5/24"], **args)
    refused(ep, "approve_routes", "rule_violation", "routes", routes=["0.0.0.0/0"], **args)
    both = ok(ep, "approve_routes", routes=router["advertised_routes"], **args)
    assert both["enabled_routes"] == router["advertised_routes"] and not both["exit_node_approved"]
    assert ok(ep, "approve_routes", routes=[], **args)["enabled_routes"] == []
    approved = ok(ep, "approve_routes", device_id=exit_node["id"], routes=["0.0.0.0/0"], actor_email=net)
    assert approved["exit_node_approved"] is True


def test_auth_keys_work_once_unless_reusable_and_never_when_revoked_or_expired(ep: Episode) -> None:
    one_off = first(ep, "auth_keys", description="Web servers")
    refused(
        ep, "register_device", "rule_violation", "auth_key_id", auth_key_id=one_off["id"], hostname="web-3", os="linux"
    )
    revoked = first(ep, "auth_keys", revoked=True)
    refused(ep, "register_device", "rule_violation", "auth_key_id", auth_key_id=revoked["id"], hostname="x", os="linux")
    expired = first(ep, "auth_keys", description="Old office router")
    refused(ep, "register_device", "rule_violation", "auth_key_id", auth_key_id=expired["id"], hostname="x", os="linux")
    ci = first(ep, "auth_keys", description="CI runners")
    refused(ep, "register_device", "conflict", "hostname", auth_key_id=ci["id"], hostname="web-1", os="linux")
    joined = ok(ep, "register_device", auth_key_id=ci["id"], hostname="runner-7", os="linux")
    assert (joined["tags"], joined["user_email"], joined["authorized"], joined["ephemeral"]) == (
        ["tag:ci"],
        None,
        True,
        True,
    )
    assert ok(ep, "get_auth_key", auth_key_id=ci["id"])["uses"] == ci["uses"] + 1


def test_an_untagged_key_gives_devices_to_its_creator_pending_approval(ep: Episode) -> None:
    key = first(ep, "auth_keys", description="New laptop")
    d = ok(ep, "register_device", auth_key_id=key["id"], hostname="new-laptop", os="macOS")
    assert (d["user_email"], d["tags"], d["authorized"], d["key_expiry_disabled"]) == (
        key["created_by"],
        [],
        False,
        False,
    )
    refused(ep, "register_device", "rule_violation", "auth_key_id", auth_key_id=key["id"], hostname="again", os="iOS")
    assert ok(ep, "revoke_auth_key", auth_key_id=key["id"])["revoked"] is True
    refused(ep, "revoke_auth_key", "conflict", "auth_key_id", auth_key_id=key["id"])


def test_tags_are_applied_only_by_their_owners(ep: Episode) -> None:
    member, admin, net = login(ep, "member"), login(ep, "admin"), login(ep, "network-admin")
    refused(ep, "create_auth_key", "rule_violation", "tags", created_by=member, tags=["tag:server"])
    refused(ep, "create_auth_key", "rule_violation", "tags", created_by=admin, tags=["tag:unknown"])
    refused(ep, "create_auth_key", "rule_violation", "tags", created_by=net, tags=["tag:db"])
    key = ok(ep, "create_auth_key", created_by=net, tags=["tag:router"], expiry_days=30, reusable=True)
    assert key["tags"] == ["tag:router"] and key["key_prefix"].startswith("tskey-auth-")
    laptop = first(ep, "devices", user_email=member)
    refused(ep, "set_device_tags", "rule_violation", "tags", device_id=laptop["id"], tags=["tag:db"], actor_email=net)
    tagged = ok(ep, "set_device_tags", device_id=laptop["id"], tags=["tag:server"], actor_email=admin)
    assert (tagged["user_email"], tagged["key_expiry_disabled"]) == (None, True)
    ok(ep, "set_tag_owners", tag="tag:db", owners=[net], actor_email=net)
    ok(ep, "create_auth_key", created_by=net, tags=["tag:db"])


def test_policy_changes_that_break_a_test_are_refused(ep: Episode) -> None:
    net = login(ep, "network-admin")
    ci_rule = next(r for r in every(ep, "list_acl_rules") if r["sources"] == ["tag:ci"])
    refused(ep, "delete_acl_rule", "rule_violation", "acl_rule_id", acl_rule_id=ci_rule["id"], actor_email=net)
    refused(
        ep,
        "add_acl_rule",
        "rule_violation",
        "destinations",
        sources=["autogroup:member"],
        destinations=["tag:db:5432"],
        actor_email=net,
    )
    refused(
        ep,
        "add_acl_rule",
        "rule_violation",
        "actor_email",
        sources=["tag:ci"],
        destinations=["tag:db:22"],
        actor_email=login(ep, "it-admin"),
    )
    ok(ep, "add_acl_rule", sources=["tag:ci"], destinations=["tag:server:9100"], actor_email=net)
    refused(ep, "add_acl_test", "rule_violation", "accept", source="tag:ci", accept=["tag:router:22"], actor_email=net)
    refused(ep, "add_acl_test", "rule_violation", "accept", source="tag:ci", actor_email=net)
    ok(ep, "add_acl_test", source="tag:ci", accept=["tag:server:9100"], actor_email=net)
    assert ok(ep, "run_acl_tests")["tests"] == 3


def test_admins_reach_everything_and_suspended_users_lose_member_access(ep: Episode) -> None:
    net = login(ep, "network-admin")
    member = first(ep, "users", role="member", status="active")
    ok(ep, "add_acl_test", source=login(ep, "admin"), accept=["tag:db:22"], actor_email=net)
    ok(ep, "add_acl_test", source=member["login_name"], accept=["tag:server:80"], actor_email=net)
    suspend = {"user_id": member["id"], "actor_email": login(ep, "it-admin")}
    before = ok(ep, "run_acl_tests")
    assert before["passed"]
    assert ok(ep, "suspend_user", **suspend)["status"] == "suspended"
    after = ok(ep, "run_acl_tests")
    assert not after["passed"] and {f["source"] for f in after["failures"]} == {member["login_name"]}
    assert ok(ep, "suspend_user", suspended=False, **suspend)["status"] == "active"


def test_the_owner_keeps_their_role_and_cannot_be_suspended(ep: Episode) -> None:
    owner = first(ep, "users", role="owner")
    admin, it = login(ep, "admin"), login(ep, "it-admin")
    refused(ep, "suspend_user", "rule_violation", "user_id", user_id=owner["id"], actor_email=admin)
    refused(ep, "set_user_role", "rule_violation", "role", user_id=owner["id"], role="member", actor_email=admin)
    member = first(ep, "users", role="member", status="active")
    refused(ep, "set_user_role", "rule_violation", "role", user_id=member["id"], role="owner", actor_email=admin)
    refused(ep, "set_user_role", "rule_violation", "actor_email", user_id=member["id"], role="admin", actor_email=it)
    assert ok(ep, "set_user_role", user_id=member["id"], role="it-admin", actor_email=admin)["role"] == "it-admin"
    d = first(ep, "devices", authorized=False)
    ok(ep, "authorize_device", device_id=d["id"], actor_email=member["login_name"])


def test_expiring_a_key_and_disabling_expiry(ep: Episode) -> None:
    laptop = first(ep, "devices", user_email=login(ep, "member"))
    it = login(ep, "it-admin")
    refused(
        ep,
        "expire_device_key",
        "rule_violation",
        "actor_email",
        device_id=laptop["id"],
        actor_email=login(ep, "auditor"),
    )
    gone = ok(ep, "expire_device_key", device_id=laptop["id"], actor_email=it)
    assert gone["expires"] <= ok(ep, "get_device", device_id=laptop["id"])["expires"]
    kept = ok(ep, "set_key_expiry", device_id=laptop["id"], disabled=True, actor_email=it)
    assert kept["key_expiry_disabled"] is True
