"""Sitebook: RFIs and the ball in court, submittal workflows, change orders and the contract, project stages."""

from __future__ import annotations

import datetime as dt
from typing import Any

from compoworld import Episode
from tests.services.helpers import ServiceTools

SITE = ServiceTools("construction")
WORLD = SITE.world
ok, refused, every, first = SITE.ok, SITE.refused, SITE.every, SITE.first
POP = WORLD.population
TODAY = WORLD.epoch.date()
STAFF = {p.email for p in POP.employees}


def active(ep: Episode) -> dict[str, Any]:
    return first(ep, "projects", stage="course_of_construction")


def crew(ep: Episode, project_id: str, permission: str = "standard") -> list[dict[str, Any]]:
    return every(ep, "list_members", project_id=project_id, permission=permission)


def test_seeded_projects_belong_to_customers_and_their_directories_to_the_world(ep: Episode) -> None:
    customers = {c.name for c in POP.customers}
    contacts = {p.email for p in POP.contacts}
    stages = set()
    for p in every(ep, "list_projects"):
        stages.add(p["stage"])
        assert p["owner_company"] in customers and p["project_manager"] in STAFF
        admins = crew(ep, p["id"], "admin")
        assert [m["email"] for m in admins] == [p["project_manager"]]
        assert all(m["email"] in contacts for m in crew(ep, p["id"]))
        approved = sum(c["amount"] for c in every(ep, "list_change_orders", project_id=p["id"], status="approved"))
        assert p["revised_contract"] == p["original_contract"] + approved
    assert stages == {"bidding", "pre_construction", "course_of_construction", "post_construction", "closed"}


def test_the_ball_passes_from_assignee_to_manager_and_an_rfi_closes_only_when_answered(ep: Episode) -> None:
    p = active(ep)
    sub = crew(ep, p["id"])[0]["email"]
    base = {"project_id": p["id"], "subject": "Beam pocket", "question": "Which detail governs?"}
    draft = ok(ep, "create_rfi", rfi_manager=p["project_manager"], assignee=sub, **base)
    assert (draft["status"], draft["ball_in_court"], draft["number"]) == ("draft", None, 4)
    opened = ok(ep, "open_rfi", rfi_id=draft["id"])
    assert (opened["status"], opened["ball_in_court"]) == ("open", sub)
    refused(ep, "close_rfi", "rule_violation", "rfi_id", rfi_id=draft["id"])
    refused(
        ep,
        "respond_to_rfi",
        "rule_violation",
        "responder",
        rfi_id=draft["id"],
        responder=p["project_manager"],
        answer="x",
    )
    answered = ok(ep, "respond_to_rfi", rfi_id=draft["id"], responder=sub, answer="Detail 5 governs.", cost_impact=True)
    assert (answered["ball_in_court"], answered["official_answer"]) == (p["project_manager"], "Detail 5 governs.")
    closed = ok(ep, "close_rfi", rfi_id=draft["id"])
    assert (closed["status"], closed["ball_in_court"]) == ("closed", None)


def test_rfis_need_directory_members_who_may_act(ep: Episode) -> None:
    p = active(ep)
    base = {"project_id": p["id"], "subject": "Slab", "question": "?", "rfi_manager": p["project_manager"]}
    refused(ep, "create_rfi", "rule_violation", "assignee", assignee="stranger@nowhere.io", **base)
    reader = crew(ep, p["id"], "read_only")[0]["email"]
    refused(ep, "create_rfi", "rule_violation", "assignee", assignee=reader, **base)
    refused(ep, "create_rfi", "rule_violation", "assignee", assignee=p["project_manager"], **base)
    sub = crew(ep, p["id"])[0]["email"]
    refused(ep, "create_rfi", "rule_violation", "due_date", assignee=sub, due_date=TODAY.isoformat(), **base)
    assert ok(ep, "create_rfi", assignee=sub, send=True, **base)["ball_in_court"] == sub


def test_a_submittal_moves_through_its_workflow_in_order(ep: Episode) -> None:
    p = active(ep)
    sub = crew(ep, p["id"])[0]["email"]
    other = crew(ep, p["id"])[1]["email"]
    base = {"project_id": p["id"], "title": "Storefront", "spec_section": "08 41 13", "submitted_by": sub}
    refused(ep, "create_submittal", "rule_violation", "approvers", approvers=[sub], **base)
    refused(ep, "create_submittal", "rule_violation", "approvers", approvers=[other, other], **base)
    made = ok(ep, "create_submittal", approvers=[other, p["project_manager"]], **base)
    refused(
        ep,
        "review_submittal",
        "rule_violation",
        "submittal_id",
        submittal_id=made["id"],
        reviewer=other,
        response="approved",
    )
    assert ok(ep, "distribute_submittal", submittal_id=made["id"])["ball_in_court"] == other
    refused(
        ep,
        "review_submittal",
        "rule_violation",
        "reviewer",
        submittal_id=made["id"],
        reviewer=p["project_manager"],
        response="approved",
    )
    step = ok(ep, "review_submittal", submittal_id=made["id"], reviewer=other, response="approved")
    assert (step["status"], step["ball_in_court"]) == ("open", p["project_manager"])
    done = ok(
        ep, "review_submittal", submittal_id=made["id"], reviewer=p["project_manager"], response="approved_as_noted"
    )
    assert (done["status"], done["ball_in_court"]) == ("approved_as_noted", None)


def test_a_returned_submittal_comes_back_as_a_new_revision(ep: Episode) -> None:
    back = first(ep, "submittals", status="revise_and_resubmit")
    assert back["ball_in_court"] == back["submitted_by"]
    again = ok(ep, "revise_submittal", submittal_id=back["id"])
    assert (again["revision"], again["status"], again["ball_in_court"]) == (1, "open", back["approvers"][0])
    refused(ep, "revise_submittal", "rule_violation", "submittal_id", submittal_id=again["id"])


def test_an_approved_change_order_moves_the_contract_and_the_completion_date(ep: Episode) -> None:
    p = active(ep)
    co = ok(
        ep,
        "create_change_order",
        project_id=p["id"],
        title="Extra outlets",
        reason="owner_request",
        amount=2_000_000,
        schedule_impact_days=3,
    )
    pending = {"change_order_id": co["id"], "approved_by": p["project_manager"]}
    refused(ep, "approve_change_order", "rule_violation", "change_order_id", **pending)
    ok(ep, "submit_change_order", change_order_id=co["id"])
    refused(ep, "update_change_order", "rule_violation", "change_order_id", change_order_id=co["id"], amount=1)
    sub = crew(ep, p["id"])[0]["email"]
    refused(ep, "approve_change_order", "rule_violation", "approved_by", change_order_id=co["id"], approved_by=sub)
    assert ok(ep, "approve_change_order", **pending)["status"] == "approved"
    after = ok(ep, "get_project", project_id=p["id"])
    assert after["revised_contract"] == p["revised_contract"] + 2_000_000
    assert dt.date.fromisoformat(after["completion_date"]) == dt.date.fromisoformat(
        p["completion_date"]
    ) + dt.timedelta(days=3)
    refused(ep, "void_change_order", "rule_violation", "change_order_id", change_order_id=co["id"])


def test_change_orders_are_bounded_and_linked_only_to_costly_rfis(ep: Episode) -> None:
    p = active(ep)
    base = {"project_id": p["id"], "title": "Big change", "reason": "owner_request"}
    refused(ep, "create_change_order", "rule_violation", "amount", amount=p["original_contract"] // 4 + 1, **base)
    free = next(r for r in every(ep, "list_rfis", project_id=p["id"]) if not r["cost_impact"])
    refused(ep, "create_change_order", "rule_violation", "rfi_id", amount=100, rfi_id=free["id"], **base)
    costly = next(r for r in every(ep, "list_rfis", project_id=p["id"]) if r["cost_impact"])
    made = ok(ep, "create_change_order", amount=-100_000, rfi_id=costly["id"], **base)
    assert (made["status"], made["rfi_id"], made["number"]) == ("draft", costly["id"], 4)


def test_a_project_closes_only_when_nothing_is_open_and_never_goes_back(ep: Episode) -> None:
    p = first(ep, "projects", stage="post_construction")
    refused(ep, "update_project", "rule_violation", "project_id", project_id=p["id"], stage="closed")
    refused(ep, "update_project", "rule_violation", "stage", project_id=p["id"], stage="pre_construction")
    done = first(ep, "projects", stage="closed")
    refused(ep, "update_project", "rule_violation", "project_id", project_id=done["id"], name="Renamed")
    refused(
        ep,
        "add_member",
        "rule_violation",
        "project_id",
        project_id=done["id"],
        name="Ann Lee",
        email="ann@lee.io",
        company="Lee Glazing",
    )


def test_a_new_project_puts_its_manager_in_the_directory_and_numbers_are_unique(ep: Episode) -> None:
    known = every(ep, "list_projects")[0]
    pm = POP.employees[1].email
    base = {
        "name": "Clinic fit-out",
        "owner_company": POP.customers[0].name,
        "city": "Lyon",
        "original_contract": 10**8,
    }
    dates = {"start_date": TODAY.isoformat(), "completion_date": (TODAY + dt.timedelta(days=90)).isoformat()}
    refused(ep, "create_project", "conflict", "number", number=known["number"], project_manager=pm, **base, **dates)
    refused(
        ep,
        "create_project",
        "rule_violation",
        "project_manager",
        number="2027-900",
        project_manager="x@y.io",
        **base,
        **dates,
    )
    made = ok(ep, "create_project", number="2027-900", project_manager=pm, **base, **dates)
    assert made["revised_contract"] == 10**8 and made["stage"] == "pre_construction"
    assert [m["email"] for m in crew(ep, made["id"], "admin")] == [pm]
    refused(ep, "add_member", "conflict", "email", project_id=made["id"], name="X Y", email=pm, company="Us")
