"""Latchkey Business: vault permissions, item history, sharing, members and recovery, groups and vaults."""

from __future__ import annotations

import datetime as dt
from typing import Any

from compoworld import Episode
from tests.services.helpers import ServiceTools

PW = ServiceTools("passwords")
WORLD = PW.world
ok, refused, every = PW.ok, PW.refused, PW.every
STAFF = {p.email for p in WORLD.population.employees}


def group(ep: Episode, name: str) -> dict[str, Any]:
    return every(ep, "list_groups", name=name)[0]


def vault(ep: Episode, name: str) -> dict[str, Any]:
    return every(ep, "list_vaults", name=name)[0]


def member_of(ep: Episode, name: str) -> str:
    """An active member of a group who is not an administrator."""
    admins = set(group(ep, "Administrators")["member_emails"])
    for email in group(ep, name)["member_emails"]:
        if email not in admins and every(ep, "list_members", email=email, state="ACTIVE"):
            return str(email)
    raise AssertionError(f"no plain active member in {name}")


def item(ep: Episode, vault_name: str, **filters: Any) -> dict[str, Any]:
    return every(ep, "list_items", vault_id=vault(ep, vault_name)["id"], **filters)[0]


def test_seeded_members_have_private_vaults_and_items_hide_passwords(ep: Episode) -> None:
    members = every(ep, "list_members")
    assert {m["state"] for m in members} == {"PENDING", "ACTIVE", "SUSPENDED", "RECOVERY_STARTED"}
    private = {v["owner_email"] for v in every(ep, "list_vaults", type="PERSONAL")}
    assert private == {m["email"] for m in members} and private <= STAFF
    for g in every(ep, "list_groups"):
        assert set(g["member_emails"]) <= private
    for it in every(ep, "list_items"):
        assert "password" not in it and (it["password_strength"] is None) == (not it["has_password"])


def test_item_writes_need_the_vaults_permission(ep: Episode) -> None:
    eng, fin = vault(ep, "Engineering"), vault(ep, "Finance")
    finance_user = member_of(ep, "Finance")
    args = {"title": "Sandbox", "category": "SERVER", "password": "Sandbox-2026!x"}
    refused(ep, "create_item", "rule_violation", "actor_email", vault_id=eng["id"], actor_email=finance_user, **args)
    made = ok(ep, "create_item", vault_id=fin["id"], actor_email=finance_user, **args)
    assert made["has_password"] and made["password_strength"] == "good"
    refused(ep, "archive_item", "rule_violation", "actor_email", item_id=made["id"], actor_email=finance_user)
    own = every(ep, "list_vaults", type="PERSONAL", owner_email=finance_user)[0]
    assert ok(ep, "create_item", vault_id=own["id"], actor_email=finance_user, **args)["vault_id"] == own["id"]
    other = member_of(ep, "Engineering")
    refused(ep, "create_item", "rule_violation", "actor_email", vault_id=own["id"], actor_email=other, **args)
    pending = every(ep, "list_members", state="PENDING")[0]["email"]
    refused(ep, "create_item", "rule_violation", "actor_email", vault_id=fin["id"], actor_email=pending, **args)
    refused(
        ep, "create_item", "rule_violation", "password", vault_id=fin["id"], actor_email=finance_user, title="Portal"
    )


def test_grants_follow_permission_dependencies_and_private_vaults_are_never_shared(ep: Episode) -> None:
    fin, eng = vault(ep, "Finance"), group(ep, "Engineering")
    refused(
        ep,
        "grant_vault_access",
        "rule_violation",
        "permissions",
        vault_id=fin["id"],
        group_id=eng["id"],
        permissions=["create_items"],
    )
    refused(
        ep,
        "grant_vault_access",
        "rule_violation",
        "permissions",
        vault_id=fin["id"],
        group_id=eng["id"],
        permissions=["view_items", "delete_items"],
    )
    private = every(ep, "list_vaults", type="PERSONAL")[0]
    refused(
        ep,
        "grant_vault_access",
        "rule_violation",
        "vault_id",
        vault_id=private["id"],
        group_id=eng["id"],
        permissions=["view_items"],
    )
    ok(ep, "grant_vault_access", vault_id=fin["id"], group_id=eng["id"], permissions=["view_items", "edit_items"])
    refused(
        ep,
        "grant_vault_access",
        "conflict",
        "group_id",
        vault_id=fin["id"],
        group_id=eng["id"],
        permissions=["view_items"],
    )
    engineer = member_of(ep, "Engineering")
    bank = item(ep, "Finance", category="LOGIN")
    assert ok(ep, "update_item", item_id=bank["id"], actor_email=engineer, title="Bank")["title"] == "Bank"


def test_edits_keep_history_and_an_old_version_can_be_restored(ep: Episode) -> None:
    engineer = member_of(ep, "Engineering")
    it = item(ep, "Engineering", category="API_CREDENTIAL")
    v1 = ok(ep, "update_item", item_id=it["id"], actor_email=engineer, title="CircleCI token (deploy)")
    assert v1["version"] == it["version"] + 1
    changed = ok(ep, "change_password", item_id=it["id"], actor_email=engineer, password="abc")
    assert (changed["version"], changed["password_strength"]) == (it["version"] + 2, "terrible")
    old = next(v for v in every(ep, "list_item_versions", item_id=it["id"]) if v["version"] == it["version"])
    assert old["title"] == it["title"]
    back = ok(ep, "restore_item_version", version_id=old["id"], actor_email=engineer)
    assert (back["title"], back["version"]) == (it["title"], it["version"] + 3)
    finance_user = member_of(ep, "Finance")
    fin_old = next(
        v
        for v in every(ep, "list_item_versions")
        if v["item_id"] in {i["id"] for i in every(ep, "list_items", vault_id=vault(ep, "Finance")["id"])}
    )
    refused(
        ep, "restore_item_version", "rule_violation", "actor_email", version_id=fin_old["id"], actor_email=finance_user
    )


def test_items_are_archived_before_they_are_deleted(ep: Episode) -> None:
    admin = group(ep, "Administrators")["member_emails"][0]
    engineer = member_of(ep, "Engineering")
    it = item(ep, "Engineering", category="SERVER")
    refused(ep, "delete_item", "rule_violation", "item_id", item_id=it["id"], actor_email=admin)
    assert ok(ep, "archive_item", item_id=it["id"], actor_email=engineer)["state"] == "archived"
    refused(ep, "archive_item", "conflict", "item_id", item_id=it["id"], actor_email=engineer)
    refused(ep, "change_password", "rule_violation", "item_id", item_id=it["id"], actor_email=engineer, password="x")
    refused(ep, "delete_item", "rule_violation", "actor_email", item_id=it["id"], actor_email=engineer)
    ok(ep, "delete_item", item_id=it["id"], actor_email=admin)
    assert all(i["id"] != it["id"] for i in every(ep, "list_items"))


def test_share_links_need_the_share_permission_and_expire(ep: Episode) -> None:
    engineer, finance_user = member_of(ep, "Engineering"), member_of(ep, "Finance")
    it = item(ep, "Engineering", category="LOGIN")
    link = ok(ep, "share_item", item_id=it["id"], actor_email=engineer, expires_in="1d", recipients=["a@partner.io"])
    made, ends = (dt.datetime.fromisoformat(link[k]) for k in ("created_at", "expires_at"))
    assert link["status"] == "active" and ends - made == dt.timedelta(days=1)
    bank = item(ep, "Finance", category="LOGIN")
    refused(ep, "share_item", "rule_violation", "actor_email", item_id=bank["id"], actor_email=finance_user)
    assert ok(ep, "revoke_share", share_id=link["id"])["status"] == "revoked"
    refused(ep, "revoke_share", "rule_violation", "share_id", share_id=link["id"])


def test_recovery_is_started_by_another_recovery_member_and_completed_by_the_member(ep: Episode) -> None:
    rec = group(ep, "Recovery")["member_emails"]
    target = every(ep, "list_members", email=member_of(ep, "Engineering"))[0]
    refused(
        ep,
        "begin_recovery",
        "rule_violation",
        "recovered_by",
        member_id=target["id"],
        recovered_by=member_of(ep, "Finance"),
    )
    me = every(ep, "list_members", email=rec[1])[0]
    refused(ep, "begin_recovery", "rule_violation", "recovered_by", member_id=me["id"], recovered_by=rec[1])
    started = ok(ep, "begin_recovery", member_id=target["id"], recovered_by=rec[0])
    assert (started["state"], started["recovery_by"]) == ("RECOVERY_STARTED", rec[0])
    refused(ep, "begin_recovery", "rule_violation", "member_id", member_id=target["id"], recovered_by=rec[0])
    done = ok(ep, "complete_recovery_member", member_id=target["id"])
    assert (done["state"], done["recovery_by"]) == ("ACTIVE", None)


def test_members_are_invited_confirmed_and_the_last_owner_stays(ep: Episode) -> None:
    known = {m["email"] for m in every(ep, "list_members")}
    newcomer = next(p for p in WORLD.population.employees if p.email not in known)
    refused(ep, "invite_member", "conflict", "email", email=next(iter(known)), name="Dup")
    m = ok(ep, "invite_member", email=newcomer.email, name=newcomer.name)
    assert m["state"] == "PENDING" and every(ep, "list_vaults", type="PERSONAL", owner_email=newcomer.email)
    assert ok(ep, "confirm_member", member_id=m["id"])["state"] == "ACTIVE"
    owner = every(ep, "list_members", role="owner")[0]
    refused(ep, "suspend_member", "rule_violation", "member_id", member_id=owner["id"])
    ok(ep, "update_member", member_id=m["id"], role="owner")
    assert ok(ep, "suspend_member", member_id=owner["id"])["state"] == "SUSPENDED"


def test_built_in_groups_and_private_or_busy_vaults_are_protected(ep: Episode) -> None:
    owners = group(ep, "Owners")
    refused(ep, "delete_group", "rule_violation", "group_id", group_id=owners["id"])
    refused(ep, "update_group", "rule_violation", "member_emails", group_id=owners["id"], member_emails=[])
    refused(ep, "create_group", "rule_violation", "member_emails", name="Contractors", member_emails=["x@y.io"])
    refused(ep, "delete_vault", "rule_violation", "vault_id", vault_id=vault(ep, "Finance")["id"])
    private = every(ep, "list_vaults", type="PERSONAL")[0]
    refused(ep, "delete_vault", "rule_violation", "vault_id", vault_id=private["id"])
    ok(ep, "delete_vault", vault_id=vault(ep, "Old Projects")["id"])
