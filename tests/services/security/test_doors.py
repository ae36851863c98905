"""Keystone Access: door decisions by group, schedule and status, credentials, lockdowns, door holders."""

from __future__ import annotations

from typing import Any

from compoworld import Episode
from tests.services.helpers import ServiceTools

DOORS = ServiceTools("doors")
WORLD = DOORS.world
ok, refused, every = DOORS.ok, DOORS.refused, DOORS.every
POP = WORLD.population
STAFF = {p.email for p in POP.employees}
ADMIN = POP.employees[0].email
DAYS = ("mon", "tue", "wed", "thu", "fri", "sat", "sun")


def hq(ep: Episode) -> dict[str, Any]:
    return every(ep, "list_sites", lockdown_active=False)[0]


def door(ep: Episode, site: dict[str, Any], kind: str) -> dict[str, Any]:
    return every(ep, "list_doors", site_id=site["id"], kind=kind)[0]


def holder(ep: Episode, group: str) -> tuple[dict[str, Any], dict[str, Any]]:
    gid = every(ep, "list_groups", name=group)[0]["id"]
    for u in every(ep, "list_users", status="active"):
        if gid in u["group_ids"] and (gid == u["group_ids"][-1]):
            creds = every(ep, "list_credentials", user_id=u["id"], status="active")
            if creds:
                return u, creds[0]
    raise AssertionError(group)


def present(ep: Episode, d: dict[str, Any], number: str) -> dict[str, Any]:
    out: dict[str, Any] = ok(ep, "present_credential", door_id=d["id"], number=number)
    return out


def test_seeded_users_are_employees_and_events_match_their_credentials(ep: Episode) -> None:
    for u in every(ep, "list_users"):
        assert u["email"] in STAFF
    for e in every(ep, "list_access_events"):
        cred = every(ep, "list_credentials", number=e["number"])[0]
        assert cred["user_id"] == e["user_id"]
        assert (e["result"] == "granted") == (e["reason"] == "none")


def test_a_door_grants_only_through_a_group_and_logs_it(ep: Episode) -> None:
    site = hq(ep)
    _, cred = holder(ep, "All staff")
    server = door(ep, site, "server_room")
    denied = present(ep, server, cred["number"])
    assert (denied["result"], denied["reason"]) == ("denied", "no_access")
    assert present(ep, door(ep, site, "interior"), cred["number"])["result"] == "granted"
    unknown = present(ep, server, "99-99999")
    assert (unknown["reason"], unknown["user_id"]) == ("unknown_credential", None)


def test_schedules_limit_when_a_group_opens_its_doors(ep: Episode) -> None:
    site = hq(ep)
    user, cred = holder(ep, "All staff")
    today = DAYS[WORLD.epoch.weekday()]
    other = next(d for d in DAYS if d != today)
    sch = ok(ep, "create_schedule", name="Other day", days=[other])
    entrance = door(ep, site, "entrance")
    grp = ok(ep, "create_group", name="Odd day", door_ids=[entrance["id"]], schedule_id=sch["id"])
    ok(ep, "update_user", user_id=user["id"], group_ids=[grp["id"]])
    assert present(ep, entrance, cred["number"])["reason"] == "outside_schedule"
    ok(ep, "update_schedule", schedule_id=sch["id"], days=[today, other])
    assert present(ep, entrance, cred["number"])["result"] == "granted"
    refused(ep, "delete_schedule", "conflict", "schedule_id", schedule_id=sch["id"])


def test_suspended_users_and_credentials_are_denied(ep: Episode) -> None:
    site = hq(ep)
    user, cred = holder(ep, "All staff")
    entrance = door(ep, site, "entrance")
    ok(ep, "suspend_credential", credential_id=cred["id"])
    assert present(ep, entrance, cred["number"])["reason"] == "credential_inactive"
    ok(ep, "reactivate_credential", credential_id=cred["id"])
    ok(ep, "suspend_user", user_id=user["id"])
    assert present(ep, entrance, cred["number"])["reason"] == "user_suspended"
    refused(ep, "issue_credential", "rule_violation", "user_id", user_id=user["id"], kind="mobile")


def test_one_active_credential_per_kind_and_revoking_is_final(ep: Episode) -> None:
    user, cred = holder(ep, "All staff")
    refused(ep, "issue_credential", "conflict", "kind", user_id=user["id"], kind="card")
    mobile = ok(ep, "issue_credential", user_id=user["id"], kind="mobile")
    assert mobile["number"] != cred["number"] and mobile["status"] == "active"
    ok(ep, "revoke_credential", credential_id=cred["id"])
    refused(ep, "reactivate_credential", "rule_violation", "credential_id", credential_id=cred["id"])
    assert ok(ep, "issue_credential", user_id=user["id"], kind="card")["status"] == "active"


def test_lockdown_denies_everyone_and_freezes_door_modes(ep: Episode) -> None:
    site = hq(ep)
    _, cred = holder(ep, "IT and facilities")
    reception = door(ep, site, "interior")
    refused(
        ep, "start_lockdown", "rule_violation", "initiated_by", site_id=site["id"], reason="x", initiated_by="a@b.io"
    )
    lock = ok(ep, "start_lockdown", site_id=site["id"], reason="Intruder", initiated_by=ADMIN)
    refused(ep, "start_lockdown", "conflict", "site_id", site_id=site["id"], reason="again", initiated_by=ADMIN)
    assert present(ep, reception, cred["number"])["reason"] == "lockdown"
    refused(ep, "update_door", "rule_violation", "door_id", door_id=reception["id"], mode="card_only")
    ok(ep, "clear_lockdown", lockdown_id=lock["id"], cleared_by=ADMIN)
    assert present(ep, reception, cred["number"])["result"] == "granted"
    refused(ep, "clear_lockdown", "conflict", "lockdown_id", lockdown_id=lock["id"], cleared_by=ADMIN)


def test_an_active_lockdown_is_cleared_by_staff_and_then_doors_change_again(ep: Episode) -> None:
    annex = every(ep, "list_sites", lockdown_active=True)[0]
    lock = every(ep, "list_lockdowns", site_id=annex["id"], status="active")[0]
    dock = door(ep, annex, "loading_dock")
    refused(ep, "update_door", "rule_violation", "door_id", door_id=dock["id"], mode="unlocked")
    refused(ep, "clear_lockdown", "rule_violation", "cleared_by", lockdown_id=lock["id"], cleared_by="x@y.io")
    ok(ep, "clear_lockdown", lockdown_id=lock["id"], cleared_by=ADMIN)
    assert ok(ep, "get_site", site_id=annex["id"])["lockdown_active"] is False
    assert ok(ep, "update_door", door_id=dock["id"], mode="unlocked")["mode"] == "unlocked"


def test_unlocked_doors_let_active_holders_through_and_locked_ones_nobody(ep: Episode) -> None:
    site = hq(ep)
    _, cred = holder(ep, "All staff")
    stair = door(ep, site, "stairwell")
    assert present(ep, stair, cred["number"])["result"] == "denied"
    ok(ep, "update_door", door_id=stair["id"], mode="unlocked")
    assert present(ep, stair, cred["number"])["result"] == "granted"


def test_door_holders_follow_groups_and_names_are_unique(ep: Episode) -> None:
    site = hq(ep)
    server = door(ep, site, "server_room")
    holders = ok(ep, "door_holders", door_id=server["id"])
    assert holders and {h["group"] for h in holders} == {"IT and facilities"}
    grp = every(ep, "list_groups", name="IT and facilities")[0]
    ok(ep, "delete_group", group_id=grp["id"])
    assert ok(ep, "door_holders", door_id=server["id"]) == []
    refused(ep, "create_door", "conflict", "name", site_id=site["id"], name=server["name"])
    refused(
        ep,
        "create_group",
        "conflict",
        "name",
        name="All staff",
        door_ids=[server["id"]],
        schedule_id=every(ep, "list_schedules")[0]["id"],
    )
    refused(ep, "create_user", "conflict", "email", email=ADMIN, name="Dup")
