"""Keyhold Vault: safe membership, dual-control approvals, exclusive checkouts, CPM rotation, safe lifecycle."""

from __future__ import annotations

from typing import Any

from compoworld import Episode
from tests.services.helpers import ServiceTools

PAM = ServiceTools("pam")
WORLD = PAM.world
ok, refused, every = PAM.ok, PAM.refused, PAM.every
STAFF = {p.email for p in WORLD.population.employees}


def safe(ep: Episode, name: str) -> dict[str, Any]:
    return every(ep, "list_safes", name=name)[0]


def member(ep: Episode, safe_id: str, role: str) -> str:
    return str(every(ep, "list_safe_members", safe_id=safe_id, role=role)[0]["member_email"])


def account(ep: Episode, safe_name: str) -> dict[str, Any]:
    return every(ep, "list_accounts", safe_id=safe(ep, safe_name)["id"])[0]


def test_seeded_safes_are_staffed_by_employees_and_locks_match_checkouts(ep: Episode) -> None:
    for s in every(ep, "list_safes"):
        team = every(ep, "list_safe_members", safe_id=s["id"])
        assert {m["member_email"] for m in team} <= STAFF
        assert any(m["role"] == "safe_manager" for m in team)
        if s["require_dual_control"]:
            assert sum(m["role"] in ("approver", "safe_manager") for m in team) >= s["approvers_required"]
    locked = [a for a in every(ep, "list_accounts") if a["locked_by"]]
    assert locked
    for a in locked:
        out = every(ep, "list_checkouts", account_id=a["id"], status="checked_out")
        assert [c["user_email"] for c in out] == [a["locked_by"]]
    assert {r["status"] for r in every(ep, "list_access_requests")} >= {"pending", "approved", "rejected", "cancelled"}


def test_dual_control_request_approve_retrieve_and_check_in_rotates(ep: Episode) -> None:
    s = safe(ep, "WIN-DOMAIN-ADMINS")
    acct = every(ep, "list_accounts", safe_id=s["id"])[1]
    user, approver = member(ep, s["id"], "end_user"), member(ep, s["id"], "approver")
    refused(ep, "retrieve_password", "rule_violation", "request_id", account_id=acct["id"], user_email=user, reason="x")
    req = ok(ep, "request_access", account_id=acct["id"], requester_email=user, reason="Patch DCs", ticket_id="CHG77")
    assert (req["status"], req["approvals_required"]) == ("pending", 1)
    args = {"account_id": acct["id"], "user_email": user, "reason": "Patch DCs", "request_id": req["id"]}
    refused(ep, "retrieve_password", "rule_violation", "request_id", **args)
    assert ok(ep, "approve_request", request_id=req["id"], approver_email=approver)["status"] == "approved"
    out = ok(ep, "retrieve_password", **args)
    assert (out["status"], out["password_version"]) == ("checked_out", acct["password_version"])
    assert ok(ep, "get_account", account_id=acct["id"])["locked_by"] == user
    ok(ep, "check_in", checkout_id=out["id"])
    after = ok(ep, "get_account", account_id=acct["id"])
    assert (after["locked_by"], after["password_version"]) == (None, acct["password_version"] + 1)
    refused(ep, "check_in", "conflict", "checkout_id", checkout_id=out["id"])


def test_two_approvers_are_needed_and_requesters_cannot_approve_themselves(ep: Episode) -> None:
    s = safe(ep, "DB-PROD")
    req = every(ep, "list_access_requests", safe_id=s["id"], status="pending")[0]
    approvers = [m["member_email"] for m in every(ep, "list_safe_members", safe_id=s["id"], role="approver")]
    refused(
        ep,
        "approve_request",
        "rule_violation",
        "approver_email",
        request_id=req["id"],
        approver_email=req["requester_email"],
    )
    user = member(ep, s["id"], "end_user")
    refused(ep, "approve_request", "rule_violation", "approver_email", request_id=req["id"], approver_email=user)
    first = ok(ep, "approve_request", request_id=req["id"], approver_email=approvers[0])
    assert (first["status"], first["approvals"]) == ("pending", [approvers[0]])
    refused(ep, "approve_request", "conflict", "approver_email", request_id=req["id"], approver_email=approvers[0])
    done = ok(ep, "approve_request", request_id=req["id"], approver_email=approvers[1])
    assert (done["status"], done["decided_by"]) == ("approved", approvers[1])
    refused(ep, "approve_request", "conflict", "request_id", request_id=req["id"], approver_email=approvers[0])


def test_rejections_need_a_reason_and_end_the_request(ep: Episode) -> None:
    req = every(ep, "list_access_requests", status="pending")[0]
    approver = member(ep, req["safe_id"], "approver")
    args = {"request_id": req["id"], "approver_email": approver}
    refused(ep, "reject_request", "rule_violation", "reason", reason="  ", **args)
    rejected = ok(ep, "reject_request", reason="No change ticket", **args)
    assert (rejected["status"], rejected["rejection_reason"]) == ("rejected", "No change ticket")
    refused(ep, "approve_request", "conflict", "request_id", **args)
    refused(ep, "cancel_access_request", "rule_violation", "access_request_id", access_request_id=req["id"])


def test_access_requests_only_in_dual_control_safes_by_users_once(ep: Episode) -> None:
    plain = account(ep, "HELPDESK-LOCAL")
    user = member(ep, plain["safe_id"], "end_user")
    refused(
        ep, "request_access", "rule_violation", "account_id", account_id=plain["id"], requester_email=user, reason="x"
    )
    acct = account(ep, "AWS-ROOT")
    auditor = member(ep, acct["safe_id"], "auditor")
    refused(
        ep,
        "request_access",
        "rule_violation",
        "requester_email",
        account_id=acct["id"],
        requester_email=auditor,
        reason="x",
    )
    user = member(ep, acct["safe_id"], "end_user")
    open_req = every(ep, "list_access_requests", account_id=acct["id"], requester_email=user, status="pending")
    if not open_req:
        ok(ep, "request_access", account_id=acct["id"], requester_email=user, reason="Break glass")
    refused(ep, "request_access", "conflict", "account_id", account_id=acct["id"], requester_email=user, reason="Again")


def test_an_expired_approval_no_longer_opens_the_account(ep: Episode) -> None:
    req = every(ep, "list_access_requests", status="expired")[0]
    args = {"account_id": req["account_id"], "user_email": req["requester_email"], "reason": "late"}
    refused(ep, "retrieve_password", "rule_violation", "request_id", request_id=req["id"], **args)


def test_exclusive_use_locks_the_account_to_its_user_until_check_in(ep: Episode) -> None:
    out = every(ep, "list_checkouts", status="checked_out")[0]
    acct = ok(ep, "get_account", account_id=out["account_id"])
    other = next(
        m["member_email"]
        for m in every(ep, "list_safe_members", safe_id=acct["safe_id"], role="end_user")
        if m["member_email"] != out["user_email"]
    )
    refused(ep, "retrieve_password", "conflict", "account_id", account_id=acct["id"], user_email=other, reason="x")
    refused(ep, "change_credentials", "conflict", "account_id", account_id=acct["id"])
    refused(ep, "delete_account", "conflict", "account_id", account_id=acct["id"])
    ok(ep, "check_in", checkout_id=out["id"])
    freed = ok(ep, "get_account", account_id=acct["id"])
    assert (freed["locked_by"], freed["password_version"]) == (None, acct["password_version"])
    mine = ok(ep, "retrieve_password", account_id=acct["id"], user_email=other, reason="Disk alert")
    assert ok(ep, "get_account", account_id=acct["id"])["locked_by"] == other == mine["user_email"]


def test_the_cpm_changes_only_managed_in_sync_accounts(ep: Episode) -> None:
    failed = every(ep, "list_accounts", cpm_status="failure")[0]
    refused(ep, "change_credentials", "rule_violation", "account_id", account_id=failed["id"])
    fixed = ok(ep, "reconcile_credentials", account_id=failed["id"])
    assert (fixed["cpm_status"], fixed["password_version"]) == ("success", failed["password_version"] + 1)
    refused(ep, "reconcile_credentials", "rule_violation", "account_id", account_id=failed["id"])
    off = every(ep, "list_accounts", management_status="disabled")[0]
    refused(ep, "change_credentials", "rule_violation", "account_id", account_id=off["id"])
    ok(ep, "enable_management_account", account_id=off["id"])
    assert ok(ep, "change_credentials", account_id=off["id"])["password_version"] == off["password_version"] + 1


def test_safes_have_unique_names_and_managers_control_membership(ep: Episode) -> None:
    s = safe(ep, "NETWORK-DEVICES")
    creator = s["created_by"]
    refused(ep, "add_safe", "conflict", "name", name="network-devices", created_by=creator)
    made = ok(ep, "add_safe", name="HR-APPS", created_by=creator)
    team = every(ep, "list_safe_members", safe_id=made["id"])
    assert [(m["member_email"], m["role"]) for m in team] == [(creator, "safe_manager")]
    newcomer = next(e for e in sorted(STAFF) if e != creator)
    user = member(ep, s["id"], "end_user")
    add = {"safe_id": made["id"], "member_email": newcomer, "role": "approver"}
    refused(ep, "add_safe_member", "rule_violation", "added_by", added_by=user, **add)
    refused(
        ep, "add_safe_member", "rule_violation", "member_email", **(add | {"member_email": "x@y.io"}), added_by=creator
    )
    ok(ep, "add_safe_member", added_by=creator, **add)
    refused(ep, "add_safe_member", "conflict", "member_email", added_by=creator, **add)
    refused(ep, "delete_safe_member", "rule_violation", "safe_member_id", safe_member_id=team[0]["id"])
    refused(
        ep,
        "update_safe",
        "rule_violation",
        "approvers_required",
        safe_id=made["id"],
        require_dual_control=True,
        approvers_required=3,
    )
    assert ok(ep, "update_safe", safe_id=made["id"], require_dual_control=True, approvers_required=2)[
        "require_dual_control"
    ]


def test_a_safe_is_deleted_only_when_empty(ep: Episode) -> None:
    full = safe(ep, "HELPDESK-LOCAL")
    refused(ep, "delete_safe", "conflict", "safe_id", safe_id=full["id"])
    empty = safe(ep, "LEGACY-ERP")
    team = {m["id"] for m in every(ep, "list_safe_members", safe_id=empty["id"])}
    ok(ep, "delete_safe", safe_id=empty["id"])
    assert team and not team & {m["id"] for m in every(ep, "list_safe_members")}
    acct = ok(
        ep,
        "add_account",
        safe_id=full["id"],
        platform_id="UnixSSH",
        address="nas-01.corp",
        user_name="root",
        added_by=full["created_by"],
    )
    assert (acct["name"], acct["cpm_status"]) == ("UnixSSH-nas-01.corp-root", "pending")
    refused(
        ep,
        "add_account",
        "conflict",
        "user_name",
        safe_id=full["id"],
        platform_id="UnixSSH",
        address="nas-01.corp",
        user_name="ROOT",
        added_by=full["created_by"],
    )
