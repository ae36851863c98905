"""Tracewell Service Desk: ITIL priority and SLAs, group assignment, CAB approval, catalog requests."""

from __future__ import annotations

import datetime as dt
from typing import Any

from compoworld import Episode
from tests.services.helpers import ServiceTools

SD = ServiceTools("servicedesk")
WORLD = SD.world
ok, refused, every = SD.ok, SD.refused, SD.every
POP = WORLD.population
SLA_HOURS = {1: 4, 2: 8, 3: 24, 4: 72, 5: 120}


def ts(value: str) -> dt.datetime:
    return dt.datetime.fromisoformat(value.replace("Z", "+00:00"))


def caller(ep: Episode) -> dict[str, Any]:
    return every(ep, "list_users", active=True)[0]


def group(ep: Episode, name: str) -> dict[str, Any]:
    return next(g for g in every(ep, "list_assignment_groups") if g["name"] == name)


def new_incident(ep: Episode, **extra: Any) -> dict[str, Any]:
    args: dict[str, Any] = dict(
        caller_email=caller(ep)["email"], short_description="Printer jams", impact=3, urgency=2, category="hardware"
    )
    args.update(extra)
    return dict(ok(ep, "create_incident", **args))


def active_member(ep: Episode, grp: dict[str, Any]) -> str:
    active = {u["email"] for u in every(ep, "list_users", active=True)}
    return next(m for m in grp["members"] if m in active)


def new_change(ep: Episode, ci: dict[str, Any], days: int = 30, **extra: Any) -> dict[str, Any]:
    start = WORLD.epoch + dt.timedelta(days=days)
    args: dict[str, Any] = dict(
        short_description="Upgrade firmware",
        type="normal",
        risk="moderate",
        requested_by=caller(ep)["email"],
        cmdb_ci_id=ci["id"],
        planned_start=start.isoformat(),
        planned_end=(start + dt.timedelta(hours=2)).isoformat(),
    )
    args.update(extra)
    return dict(ok(ep, "create_change_request", **args))


def operational_ci(ep: Episode) -> dict[str, Any]:
    return every(ep, "list_configuration_items", operational_status="operational")[0]


# -- the world --------------------------------------------------------------------------------


def test_users_are_the_home_staff_and_groups_are_made_of_them() -> None:
    ep = Episode(WORLD)
    users = every(ep, "list_users")
    staff = {p.email: p for p in POP.employees}
    assert {u["email"] for u in users} == set(staff)
    assert all(u["name"] == staff[u["email"]].name and u["title"] == staff[u["email"]].job_title for u in users)
    for grp in every(ep, "list_assignment_groups"):
        assert grp["members"] and set(grp["members"]) <= set(staff) and grp["manager_email"] in staff
    kinds = {g["kind"] for g in every(ep, "list_assignment_groups")}
    assert kinds == {"incident", "fulfilment", "cab"}


def test_seeded_priorities_follow_the_matrix_and_catalog_items_are_world_products() -> None:
    ep = Episode(WORLD)
    incs = every(ep, "list_incidents")
    assert {i["state"] for i in incs} == {"new", "in_progress", "on_hold", "resolved", "closed", "canceled"}
    matrix = {(1, 1): 1, (1, 2): 2, (2, 1): 2, (1, 3): 3, (2, 2): 3, (3, 1): 3, (2, 3): 4, (3, 2): 4, (3, 3): 5}
    for inc in incs:
        assert inc["priority"] == matrix[(inc["impact"], inc["urgency"])]
    products = {p.sku: p for p in POP.products}
    hardware = every(ep, "list_catalog_items", category="hardware")
    assert hardware and all(i["price"] == products[i["sku"]].price_cents for i in hardware)
    for req in every(ep, "list_requests"):
        assert req["total"] == req["unit_price"] * req["quantity"]


# -- incidents --------------------------------------------------------------------------------


def test_priority_and_sla_come_from_impact_and_urgency(ep: Episode) -> None:
    inc = new_incident(ep, impact=1, urgency=1)
    assert inc["priority"] == 1 and inc["state"] == "new"
    assert ts(inc["sla_due"]) - ts(inc["opened_at"]) == dt.timedelta(hours=4)
    assert inc["assignment_group_id"] == group(ep, "Service Desk")["id"]
    changed = ok(ep, "update_incident", incident_id=inc["id"], impact=3, urgency=2)
    assert changed["priority"] == 4
    assert ts(changed["sla_due"]) - ts(changed["opened_at"]) == dt.timedelta(hours=72)


def test_an_incident_on_an_item_goes_to_its_support_group(ep: Episode) -> None:
    ci = operational_ci(ep)
    inc = new_incident(ep, cmdb_ci_id=ci["id"])
    assert inc["assignment_group_id"] == ci["support_group_id"]
    retired = every(ep, "list_configuration_items", operational_status="retired")[0]
    refused(
        ep,
        "create_incident",
        "rule_violation",
        "cmdb_ci_id",
        caller_email=caller(ep)["email"],
        short_description="Old share gone",
        impact=3,
        urgency=3,
        cmdb_ci_id=retired["id"],
    )


def test_unknown_or_inactive_callers_cannot_raise_incidents(ep: Episode) -> None:
    args = dict(short_description="Help", impact=3, urgency=3)
    refused(ep, "create_incident", "not_found", "caller_email", caller_email="nobody@nowhere.example", **args)
    inactive = every(ep, "list_users", active=False)[0]
    refused(ep, "create_incident", "rule_violation", "caller_email", caller_email=inactive["email"], **args)


def test_only_a_member_of_the_group_can_be_assigned(ep: Episode) -> None:
    inc = new_incident(ep)
    desk = group(ep, "Service Desk")
    outsider = next(u["email"] for u in every(ep, "list_users", active=True) if u["email"] not in desk["members"])
    msg = refused(ep, "assign_incident", "rule_violation", "assigned_to", incident_id=inc["id"], assigned_to=outsider)
    assert "not a member" in msg
    done = ok(ep, "assign_incident", incident_id=inc["id"], assigned_to=active_member(ep, desk))
    assert done["state"] == "in_progress"


def test_resolving_needs_an_assignee_and_a_resolved_incident_can_be_reopened(ep: Episode) -> None:
    inc = new_incident(ep)
    args = dict(incident_id=inc["id"], close_code="solved_permanently", close_notes="Cleared the jam")
    refused(ep, "resolve_incident", "rule_violation", "incident_id", **args)
    ok(ep, "assign_incident", incident_id=inc["id"], assigned_to=active_member(ep, group(ep, "Service Desk")))
    refused(ep, "resolve_incident", "rule_violation", "close_notes", **{**args, "close_notes": " "})
    solved = ok(ep, "resolve_incident", **args)
    assert solved["state"] == "resolved" and solved["resolved_at"] is not None
    again = ok(ep, "reactivate_incident", incident_id=inc["id"], reason="Jams again")
    assert (again["state"], again["reopen_count"], again["resolved_at"]) == ("in_progress", 1, None)


def test_time_on_hold_extends_the_sla(ep: Episode) -> None:
    inc = every(ep, "list_incidents", state="in_progress")[0]
    refused(
        ep, "hold_incident", "rule_violation", "change_request_id", incident_id=inc["id"], hold_reason="awaiting_change"
    )
    held = ok(ep, "hold_incident", incident_id=inc["id"], hold_reason="awaiting_caller")
    assert held["state"] == "on_hold" and held["on_hold_since"] is not None
    new_incident(ep)  # time passes: every write moves the clock
    new_incident(ep)
    back = ok(ep, "reactivate_incident", incident_id=inc["id"], reason="Caller replied")
    paused = back["sla_paused_minutes"] - inc["sla_paused_minutes"]
    assert paused >= 2
    assert ts(back["sla_due"]) - ts(inc["sla_due"]) == dt.timedelta(minutes=paused)


def test_a_closed_incident_is_final(ep: Episode) -> None:
    inc = every(ep, "list_incidents", state="closed")[0]
    refused(ep, "update_incident", "rule_violation", "incident_id", incident_id=inc["id"], urgency=1)
    refused(ep, "reactivate_incident", "rule_violation", "incident_id", incident_id=inc["id"], reason="Again")
    resolved = every(ep, "list_incidents", state="resolved")[0]
    assert ok(ep, "close_incident", incident_id=resolved["id"])["state"] == "closed"


def test_sla_breaches_lists_overdue_open_incidents_most_overdue_first() -> None:
    ep = Episode(WORLD)
    report = ok(ep, "sla_breaches")
    overdue = [e["overdue_minutes"] for e in report["open_breached"]]
    assert overdue and overdue == sorted(overdue, reverse=True) and min(overdue) > 0
    now = ts(report["as_of"])
    for entry in report["open_breached"]:
        inc = ok(ep, "get_incident", incident_id=entry["incident_id"])
        assert inc["state"] in ("new", "in_progress", "on_hold")
        assert now > ts(entry["sla_due"]) >= ts(inc["sla_due"])


# -- changes ----------------------------------------------------------------------------------


def test_a_normal_change_needs_the_manager_and_the_cab(ep: Episode) -> None:
    ci = operational_ci(ep)
    chg = new_change(ep, ci)
    sent = ok(ep, "request_change_approval", change_request_id=chg["id"])
    assert sent["change_request"]["state"] == "authorize"
    grp = next(g for g in every(ep, "list_assignment_groups") if g["id"] == chg["assignment_group_id"])
    cab = group(ep, "Change Advisory Board")
    expected = {grp["manager_email"], *cab["members"]} - {chg["requested_by"]}
    approvals = sent["approvals"]
    assert {a["approver_email"] for a in approvals} == expected
    first = approvals[0]
    wrong = next(a["approver_email"] for a in approvals[1:]) if len(approvals) > 1 else caller(ep)["email"]
    refused(
        ep,
        "decide_approval",
        "rule_violation",
        "approver_email",
        approval_id=first["id"],
        approver_email=wrong,
        decision="approved",
    )
    refused(
        ep,
        "decide_approval",
        "rule_violation",
        "comments",
        approval_id=first["id"],
        approver_email=first["approver_email"],
        decision="rejected",
    )
    for a in approvals:
        last = ok(ep, "decide_approval", approval_id=a["id"], approver_email=a["approver_email"], decision="approved")
    assert last["document_state"] == "scheduled"
    assert ok(ep, "implement_change_request", change_request_id=chg["id"])["state"] == "implement"


def test_one_rejection_sends_the_change_back_and_lapses_the_other_approvals(ep: Episode) -> None:
    chg = new_change(ep, operational_ci(ep))
    approvals = ok(ep, "request_change_approval", change_request_id=chg["id"])["approvals"]
    a = approvals[0]
    out = ok(
        ep,
        "decide_approval",
        approval_id=a["id"],
        approver_email=a["approver_email"],
        decision="rejected",
        comments="No rollback plan",
    )
    assert out["document_state"] == "new"
    states = {x["state"] for x in every(ep, "list_approvals", change_request_id=chg["id"])}
    assert states <= {"rejected", "not_required"}


def test_standard_changes_are_low_risk_and_pre_approved(ep: Episode) -> None:
    ci = operational_ci(ep)
    start = (WORLD.epoch + dt.timedelta(days=50)).isoformat()
    end = (WORLD.epoch + dt.timedelta(days=50, hours=1)).isoformat()
    base = dict(short_description="Rotate certs", requested_by=caller(ep)["email"], cmdb_ci_id=ci["id"])
    refused(
        ep,
        "create_change_request",
        "rule_violation",
        "risk",
        type="standard",
        risk="high",
        planned_start=start,
        planned_end=end,
        **base,
    )
    refused(
        ep,
        "create_change_request",
        "rule_violation",
        "planned_end",
        type="normal",
        risk="low",
        planned_start=end,
        planned_end=start,
        **base,
    )
    chg = ok(ep, "create_change_request", type="standard", risk="low", planned_start=start, planned_end=end, **base)
    sent = ok(ep, "request_change_approval", change_request_id=chg["id"])
    assert sent["change_request"]["state"] == "scheduled" and sent["approvals"] == []


def test_overlapping_changes_on_one_item_conflict(ep: Episode) -> None:
    ci = operational_ci(ep)
    first = new_change(ep, ci, days=60)
    ok(ep, "request_change_approval", change_request_id=first["id"])
    second = new_change(ep, ci, days=60)
    msg = refused(ep, "request_change_approval", "conflict", "change_request_id", change_request_id=second["id"])
    assert first["number"] in msg
    ok(ep, "cancel_change_request", change_request_id=first["id"])
    assert all(a["state"] == "not_required" for a in every(ep, "list_approvals", change_request_id=first["id"]))
    assert ok(ep, "request_change_approval", change_request_id=second["id"])["change_request"]["state"] == "authorize"


def test_closing_a_change_resumes_the_incidents_waiting_on_it(ep: Episode) -> None:
    inc = every(ep, "list_incidents", state="in_progress")[0]
    chg = every(ep, "list_change_requests", state="scheduled")[0]
    ok(ep, "hold_incident", incident_id=inc["id"], hold_reason="awaiting_change", change_request_id=chg["id"])
    refused(
        ep,
        "close_change_request",
        "rule_violation",
        "change_request_id",
        change_request_id=chg["id"],
        close_code="successful",
        close_notes="Done",
    )
    ok(ep, "implement_change_request", change_request_id=chg["id"])
    out = ok(ep, "close_change_request", change_request_id=chg["id"], close_code="successful", close_notes="Done")
    assert inc["id"] in out["resumed_incident_ids"]
    assert ok(ep, "get_incident", incident_id=inc["id"])["state"] == "in_progress"


# -- requests ---------------------------------------------------------------------------------


def test_a_costly_request_waits_for_the_fulfilment_manager(ep: Episode) -> None:
    item = next(
        i
        for i in every(ep, "list_catalog_items", category="hardware", active=True)
        if i["price"] * i["max_quantity"] > i["approval_over"]
    )
    qty = next(q for q in range(1, item["max_quantity"] + 1) if item["price"] * q > item["approval_over"])
    who = caller(ep)["email"]
    refused(
        ep,
        "submit_request",
        "rule_violation",
        "quantity",
        sku=item["sku"],
        requested_for=who,
        quantity=item["max_quantity"] + 1,
    )
    req = ok(ep, "submit_request", sku=item["sku"], requested_for=who, quantity=qty)
    assert (req["state"], req["total"]) == ("awaiting_approval", item["price"] * qty)
    refused(ep, "fulfill_request", "rule_violation", "request_id", request_id=req["id"], fulfilled_by=who)
    appr = every(ep, "list_approvals", request_id=req["id"])[0]
    fgroup = next(g for g in every(ep, "list_assignment_groups") if g["id"] == item["fulfilment_group_id"])
    assert appr["approver_email"] == fgroup["manager_email"]
    out = ok(ep, "decide_approval", approval_id=appr["id"], approver_email=appr["approver_email"], decision="approved")
    assert out["document_state"] == "approved"
    outsider = next(u["email"] for u in every(ep, "list_users", active=True) if u["email"] not in fgroup["members"])
    refused(ep, "fulfill_request", "rule_violation", "fulfilled_by", request_id=req["id"], fulfilled_by=outsider)
    done = ok(ep, "fulfill_request", request_id=req["id"], fulfilled_by=active_member(ep, fgroup))
    assert done["state"] == "fulfilled"


def test_cheap_requests_are_approved_at_once_and_retired_items_refused(ep: Episode) -> None:
    access = every(ep, "list_catalog_items", category="access")[0]
    req = ok(ep, "submit_request", sku=access["sku"], requested_for=caller(ep)["email"])
    assert req["state"] == "approved" and every(ep, "list_approvals", request_id=req["id"]) == []
    gone = every(ep, "list_catalog_items", active=False)[0]
    refused(ep, "submit_request", "rule_violation", "sku", sku=gone["sku"], requested_for=caller(ep)["email"])
    refused(ep, "submit_request", "not_found", "sku", sku="NO-SUCH-SKU", requested_for=caller(ep)["email"])
