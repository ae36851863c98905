"""Keystone Identity: the Okta user lifecycle, group membership, app assignment rules and MFA factors."""

from __future__ import annotations

from typing import Any

from compoworld import Episode
from tests.services.helpers import ServiceTools

IDENTITY = ServiceTools("identity")
WORLD = IDENTITY.world
ok, refused, every = IDENTITY.ok, IDENTITY.refused, IDENTITY.every
POP = WORLD.population


def user(ep: Episode, status: str) -> dict[str, Any]:
    return every(ep, "list_users", status=status)[0]


def group(ep: Episode, name: str) -> dict[str, Any]:
    return every(ep, "list_groups", name=name)[0]


def app(ep: Episode, label: str) -> dict[str, Any]:
    return next(a for a in every(ep, "list_applications") if a["label"] == label)


def admins(ep: Episode) -> list[str]:
    return [m["user_id"] for m in every(ep, "list_memberships", group_id=group(ep, "Administrators")["id"])]


# -- the world ------------------------------------------------------------------------------


def test_users_are_the_home_employees_with_their_work_email_as_login() -> None:
    ep = Episode(WORLD)
    users = every(ep, "list_users")
    assert sorted(u["login"] for u in users) == sorted(p.email for p in POP.employees)
    assert {u["status"] for u in users} == {
        "staged",
        "provisioned",
        "active",
        "recovery",
        "locked_out",
        "suspended",
        "deprovisioned",
    }


# -- lifecycle --------------------------------------------------------------------------------


def test_the_lifecycle_only_moves_as_okta_allows(ep: Episode) -> None:
    staged = user(ep, "staged")
    refused(ep, "suspend_user", "rule_violation", "user_id", user_id=staged["id"])
    assert ok(ep, "activate_user", user_id=staged["id"])["status"] == "active"
    assert ok(ep, "suspend_user", user_id=staged["id"])["status"] == "suspended"
    refused(ep, "activate_user", "rule_violation", "user_id", user_id=staged["id"])
    assert ok(ep, "unsuspend_user", user_id=staged["id"])["status"] == "active"
    assert ok(ep, "deactivate_user", user_id=staged["id"])["status"] == "deprovisioned"
    refused(ep, "unsuspend_user", "rule_violation", "user_id", user_id=staged["id"])


def test_only_a_deprovisioned_user_can_be_deleted_and_their_access_goes_with_them(ep: Episode) -> None:
    active = next(u for u in every(ep, "list_users", status="active") if u["id"] not in admins(ep))
    refused(ep, "delete_user", "rule_violation", "user_id", user_id=active["id"])
    ok(ep, "deactivate_user", user_id=active["id"])
    snap = ep.snapshot()
    ok(ep, "delete_user", user_id=active["id"])
    counts = ep.diff(snap).counts()
    assert counts["identity.users"]["removed"] == 1 and counts["identity.memberships"]["removed"] >= 1


def test_the_last_active_admin_cannot_be_suspended_or_removed_from_the_admin_group(ep: Episode) -> None:
    first, second = admins(ep)
    admin_group = group(ep, "Administrators")["id"]
    ok(ep, "remove_user_from_group", group_id=admin_group, user_id=second)
    refused(ep, "remove_user_from_group", "rule_violation", "user_id", group_id=admin_group, user_id=first)
    refused(ep, "suspend_user", "rule_violation", "user_id", user_id=first)


# -- groups -----------------------------------------------------------------------------------


def test_group_names_are_unique(ep: Episode) -> None:
    refused(ep, "create_group", "conflict", "name", name="Engineering")
    ok(ep, "create_group", name="Incident commanders")


def test_a_deprovisioned_user_cannot_be_added_to_a_group(ep: Episode) -> None:
    gone = user(ep, "deprovisioned")
    refused(
        ep,
        "add_user_to_group",
        "rule_violation",
        "user_id",
        group_id=group(ep, "Contractors")["id"],
        user_id=gone["id"],
    )
    snap = ep.snapshot()
    ok(ep, "add_user_to_group", group_id=group(ep, "Contractors")["id"], user_id=user(ep, "active")["id"])
    assert ep.diff(snap).counts() == {"identity.memberships": {"added": 1, "updated": 0, "removed": 0}}


def test_built_in_groups_cannot_be_deleted(ep: Episode) -> None:
    refused(ep, "delete_group", "rule_violation", "group_id", group_id=group(ep, "Everyone")["id"])


# -- applications -----------------------------------------------------------------------------


def test_assigning_an_app_needs_the_user_in_its_required_group(ep: Episode) -> None:
    code = app(ep, "Code Host")
    eng = code["required_group_id"]
    members = {m["user_id"] for m in every(ep, "list_memberships", group_id=eng)}
    outsider = next(u for u in every(ep, "list_users", status="active") if u["id"] not in members)
    refused(
        ep, "assign_user_to_application", "rule_violation", "user_id", application_id=code["id"], user_id=outsider["id"]
    )
    ok(ep, "add_user_to_group", group_id=eng, user_id=outsider["id"])
    snap = ep.snapshot()
    made = ok(ep, "assign_user_to_application", application_id=code["id"], user_id=outsider["id"])
    assert made["app_username"] == outsider["login"]
    assert ep.diff(snap).counts() == {"identity.app_assignments": {"added": 1, "updated": 0, "removed": 0}}
    refused(ep, "assign_user_to_application", "conflict", "user_id", application_id=code["id"], user_id=outsider["id"])


def test_a_deprovisioned_user_cannot_be_assigned_an_app(ep: Episode) -> None:
    gone = user(ep, "deprovisioned")
    refused(
        ep,
        "assign_user_to_application",
        "rule_violation",
        "user_id",
        application_id=app(ep, "Mail")["id"],
        user_id=gone["id"],
    )


def test_an_inactive_app_cannot_be_assigned_and_an_active_one_cannot_be_deleted(ep: Episode) -> None:
    legacy = app(ep, "Legacy Wiki")
    refused(
        ep,
        "assign_user_to_application",
        "rule_violation",
        "application_id",
        application_id=legacy["id"],
        user_id=user(ep, "active")["id"],
    )
    refused(ep, "delete_application", "rule_violation", "application_id", application_id=app(ep, "Mail")["id"])
    ok(ep, "delete_application", application_id=legacy["id"])


# -- factors and passwords ----------------------------------------------------------------------


def test_a_factor_is_enrolled_pending_and_activated_with_a_six_digit_code(ep: Episode) -> None:
    u = next(
        x
        for x in every(ep, "list_users", status="active")
        if not every(ep, "list_factors", user_id=x["id"], factor_type="email")
    )
    factor = ok(ep, "enroll_factor", user_id=u["id"], factor_type="email")
    assert factor["status"] == "pending_activation" and factor["email"] == u["email"]
    refused(ep, "enroll_factor", "conflict", "factor_type", user_id=u["id"], factor_type="email")
    refused(ep, "activate_factor", "rule_violation", "pass_code", factor_id=factor["id"], pass_code="12ab")
    assert ok(ep, "activate_factor", factor_id=factor["id"], pass_code="482913")["status"] == "active"


def test_a_password_reset_puts_the_user_in_recovery_until_a_strong_password_is_set(ep: Episode) -> None:
    u = user(ep, "active")
    refused(ep, "reset_password", "rule_violation", "user_id", user_id=user(ep, "suspended")["id"])
    reset = ok(ep, "reset_password", user_id=u["id"])
    assert reset["status"] == "recovery" and reset["reset_password_url"].startswith("https://")
    refused(ep, "set_password", "rule_violation", "new_password", user_id=u["id"], new_password="short")
    back = ok(ep, "set_password", user_id=u["id"], new_password="Tangerine-Orbit-42")
    assert back["status"] == "active" and back["password_changed_at"] is not None
