"""Strongroom Secrets (Vault KV v2-style): policies, check-and-set, versions, rotation, leases, audit."""

from __future__ import annotations

from typing import Any

from compoworld import Episode
from tests.services.helpers import ServiceTools

SEC = ServiceTools("secrets")
WORLD = SEC.world
ok, refused, every, items, first = SEC.ok, SEC.refused, SEC.every, SEC.items, SEC.first
POP = WORLD.population


def who(ep: Episode, *policies: str) -> str:
    for ident in every(ep, "list_identities", disabled=False):
        if tuple(ident["policies"]) == policies:
            return str(ident["email"])
    raise AssertionError(policies)


def secret(ep: Episode, full_path: str) -> dict[str, Any]:
    return first(ep, "secrets", full_path=full_path)


# -- the seeded world -----------------------------------------------------------------------


def test_identities_are_staff_and_logins_belong_to_finance_people_at_vendor_companies() -> None:
    ep = Episode(WORLD)
    staff = {p.email: p.name for p in POP.employees}
    for ident in every(ep, "list_identities", kind="user"):
        assert staff[ident["email"]] == ident["name"]
    companies = {c.name for c in POP.customers}
    for login in every(ep, "list_secrets", kind="login"):
        assert login["username"] in staff and login["vendor"] in companies and login["website"].startswith("https://")


# -- policies -------------------------------------------------------------------------------


def test_the_most_specific_rule_wins_and_deny_takes_everything(ep: Episode) -> None:
    admin = who(ep, "admin")
    dev = who(ep, "developer", "no-finance")
    deployer = who(ep, "developer", "deployer")
    fin = who(ep, "finance")

    def caps(email: str, path: str) -> list[str]:
        return list(ok(ep, "check_capabilities", actor_email=email, full_path=path)["capabilities"])

    assert "destroy" in caps(admin, "finance/bank/portal")
    assert caps(dev, "production/payments/gateway-key") == ["list"]
    assert caps(dev, "production/db/orders") == ["lease"]
    assert caps(deployer, "production/db/orders") == ["lease", "read"]
    assert caps(dev, "finance/tax/portal") == []
    assert caps(fin, "finance/bank/portal") == ["list", "read"]
    assert "write" in caps(fin, "finance/tax/portal")


def test_a_caller_without_the_capability_is_refused_and_nothing_is_audited(ep: Episode) -> None:
    dev = who(ep, "developer", "no-finance")
    refused(
        ep,
        "read_secret",
        "rule_violation",
        "actor_email",
        vault="production",
        path="payments/gateway-key",
        actor_email=dev,
    )
    disabled = first(ep, "identities", disabled=True)["email"]
    refused(ep, "read_secret", "rule_violation", "actor_email", vault="staging", path="db/orders", actor_email=disabled)
    refused(
        ep,
        "read_secret",
        "not_found",
        "actor_email",
        vault="staging",
        path="db/orders",
        actor_email="stranger@elsewhere.example",
    )


def test_changing_a_policy_changes_access_at_once(ep: Episode) -> None:
    dev = who(ep, "developer", "no-finance")
    rules = [{"path": "staging/*", "capabilities": ["list"]}]
    ok(ep, "write_policy", name="developer", rules=rules)
    refused(ep, "read_secret", "rule_violation", "actor_email", vault="staging", path="db/orders", actor_email=dev)
    refused(ep, "write_policy", "rule_violation", "rules", name="x", rules=rules + rules)
    refused(
        ep,
        "update_identity",
        "rule_violation",
        "policies",
        identity_id=first(ep, "identities")["id"],
        policies=["ghost"],
    )


# -- versions -------------------------------------------------------------------------------


def test_reading_returns_the_current_value_and_is_audited(ep: Episode) -> None:
    admin = who(ep, "admin")
    sec = secret(ep, "production/db/billing")
    data = ok(ep, "read_secret", vault="production", path="db/billing", actor_email=admin)
    assert data["version"] == sec["current_version"] and data["value"]
    events = items(ep, "audit_events", actor_email=admin, action="read")
    assert [(e["full_path"], e["version"]) for e in events] == [("production/db/billing", sec["current_version"])]


def test_check_and_set_protects_concurrent_writes(ep: Episode) -> None:
    admin = who(ep, "admin")
    sec = secret(ep, "production/db/billing")
    args = {"vault": "production", "path": "db/billing", "actor_email": admin, "value": "rotated-by-hand"}
    refused(ep, "write_secret", "rule_violation", "cas", **args)
    refused(ep, "write_secret", "conflict", "cas", **args, cas=sec["current_version"] - 1)
    new = ok(ep, "write_secret", **args, cas=sec["current_version"])
    assert new["current_version"] == sec["current_version"] + 1
    assert ok(ep, "read_secret", vault="production", path="db/billing", actor_email=admin)["value"] == "rotated-by-hand"


def test_old_versions_beyond_max_versions_are_dropped(ep: Episode) -> None:
    dev = who(ep, "developer", "no-finance")
    sec = secret(ep, "staging/feature-flags/sdk-key")
    ok(ep, "update_secret", secret_id=sec["id"], max_versions=2)
    ok(ep, "write_secret", vault="staging", path="feature-flags/sdk-key", actor_email=dev, value="v-next")
    n = sec["current_version"] + 1
    ok(ep, "read_secret", vault="staging", path="feature-flags/sdk-key", actor_email=dev, version=n - 1)
    refused(
        ep,
        "read_secret",
        "not_found",
        "version",
        vault="staging",
        path="feature-flags/sdk-key",
        actor_email=dev,
        version=n - 2,
    )


def test_deleted_versions_can_be_undeleted_but_destroyed_ones_never(ep: Episode) -> None:
    admin = who(ep, "admin")
    base = {"vault": "staging", "path": "db/orders", "actor_email": admin}
    ok(ep, "delete_secret_version", **base, version=2)
    refused(ep, "read_secret", "rule_violation", "version", **base)
    refused(ep, "delete_secret_version", "conflict", "version", **base, version=2)
    ok(ep, "undelete_secret_version", **base, version=2)
    assert ok(ep, "read_secret", **base)["version"] == 2
    ok(ep, "destroy_secret_version", **base, version=1)
    refused(ep, "undelete_secret_version", "rule_violation", "version", **base, version=1)
    refused(ep, "read_secret", "rule_violation", "version", **base, version=1)


# -- rotation -------------------------------------------------------------------------------


def test_rotation_writes_a_generated_value_and_clears_the_overdue_report(ep: Episode) -> None:
    report = ok(ep, "rotation_report")
    overdue = {r["full_path"] for r in report}
    assert "production/db/orders" in overdue
    assert all(r["days_overdue"] >= 0 for r in report)
    admin = who(ep, "admin")
    before = ok(ep, "read_secret", vault="production", path="db/orders", actor_email=admin)["value"]
    rotated = ok(ep, "rotate_secret", vault="production", path="db/orders", actor_email=admin)
    after = ok(ep, "read_secret", vault="production", path="db/orders", actor_email=admin)
    assert after["version"] == rotated["current_version"] and after["value"] != before
    assert "production/db/orders" not in {r["full_path"] for r in ok(ep, "rotation_report")}
    fin = who(ep, "finance")
    refused(ep, "rotate_secret", "rule_violation", "actor_email", vault="finance", path="bank/portal", actor_email=fin)


# -- leases ---------------------------------------------------------------------------------


def test_leases_are_for_database_secrets_and_bounded_by_the_max_ttl(ep: Episode) -> None:
    dev = who(ep, "developer", "no-finance")
    sec = secret(ep, "production/db/orders")
    issued = ok(ep, "issue_lease", vault="production", path="db/orders", actor_email=dev, ttl_hours=2)
    assert issued["lease"]["issued_to_email"] == dev and issued["password"]
    refused(
        ep,
        "issue_lease",
        "rule_violation",
        "ttl_hours",
        vault="production",
        path="db/orders",
        actor_email=dev,
        ttl_hours=sec["max_lease_ttl_hours"] + 1,
    )
    refused(ep, "issue_lease", "rule_violation", "path", vault="staging", path="feature-flags/sdk-key", actor_email=dev)
    lease_id = issued["lease"]["id"]
    renewed = ok(ep, "renew_lease", lease_id=lease_id, actor_email=dev, increment_hours=500)
    assert renewed["expires_at"] > issued["lease"]["expires_at"]
    refused(
        ep, "renew_lease", "rule_violation", "increment_hours", lease_id=lease_id, actor_email=dev, increment_hours=1
    )
    ok(ep, "revoke_lease", lease_id=lease_id, actor_email=dev)
    refused(ep, "revoke_lease", "rule_violation", "lease_id", lease_id=lease_id, actor_email=dev)
    assert [e["action"] for e in items(ep, "audit_events", actor_email=dev)][-3:] == ["lease", "renew", "revoke"]


# -- vaults and new secrets -----------------------------------------------------------------


def test_creating_a_secret_needs_write_and_a_free_path(ep: Episode) -> None:
    fin = who(ep, "finance")
    vendor = POP.customers[3]
    created = ok(
        ep,
        "create_secret",
        vault="finance",
        path="payroll/portal",
        value="pw",
        actor_email=fin,
        kind="login",
        username=fin,
        website=f"https://{vendor.domain}",
        vendor=vendor.name,
    )
    assert (created["owner_email"], created["current_version"]) == (fin, 1)
    refused(ep, "create_secret", "conflict", "path", vault="finance", path="payroll/portal", value="x", actor_email=fin)
    refused(
        ep, "create_secret", "rule_violation", "actor_email", vault="production", path="new", value="x", actor_email=fin
    )
    refused(ep, "create_vault", "conflict", "name", name="finance", owner_email=fin)
    refused(ep, "create_vault", "rule_violation", "owner_email", name="bots", owner_email=f"ci-bot@{POP.home.domain}")
