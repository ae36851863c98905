"""Firstday Journeys: templates, journeys from templates, readiness, day one, cancellation, documents, equipment."""

from __future__ import annotations

import datetime as dt
from typing import Any

from compoworld import Episode
from tests.services.helpers import ServiceTools

ONB = ServiceTools("onboarding")
WORLD = ONB.world
ok, refused, every, first = ONB.ok, ONB.refused, ONB.every, ONB.first
POP = WORLD.population
TODAY = WORLD.epoch.date()
STAFF = {p.email for p in POP.employees}
MANAGER = POP.employees[0].email


def day(days: int) -> str:
    return (TODAY + dt.timedelta(days=days)).isoformat()


def start(ep: Episode, **over: Any) -> dict[str, Any]:
    return dict(ok(ep, "start_journey", **_args(ep, **over)))


def test_seeded_journeys_link_population_people_and_follow_their_status(ep: Episode) -> None:
    consumers = {p.email for p in POP.consumers}
    statuses = set()
    for j in every(ep, "list_journeys"):
        statuses.add(j["status"])
        assert j["manager_email"] in STAFF
        assert j["personal_email"] in consumers or j["work_email"] in STAFF
        check = ok(ep, "check_readiness", journey_id=j["id"])
        if j["status"] in ("ready", "active", "completed"):
            assert not check["unsigned_documents"] and not check["open_tasks_before_start"]
    assert statuses == {"preboarding", "ready", "active", "completed", "cancelled"}


def test_starting_a_journey_turns_steps_into_dated_tasks_and_sends_documents(ep: Episode) -> None:
    j = start(ep)
    tpl = ok(ep, "get_template", template_id=j["template_id"])
    steps = every(ep, "list_steps", template_id=tpl["id"])
    made = every(ep, "list_tasks", journey_id=j["id"])
    assert len(made) == len(steps)
    for s, t in zip(sorted(steps, key=lambda x: x["title"]), sorted(made, key=lambda x: x["title"]), strict=True):
        assert t["due_date"] == day(20 + s["offset_days"])
        if s["owner_role"] == "manager":
            assert t["assignee_email"] == MANAGER
        if s["owner_role"] == "new_hire":
            assert t["assignee_email"] == "noor.haddad@example.net"
    docs = every(ep, "list_documents", journey_id=j["id"])
    assert sorted(d["kind"] for d in docs) == sorted(tpl["required_documents"])
    assert {d["status"] for d in docs} == {"sent"}


def test_a_journey_needs_a_published_template_a_future_start_an_employee_manager_and_is_unique(ep: Episode) -> None:
    draft = first(ep, "templates", status="draft")
    refused(ep, "start_journey", "rule_violation", "template_id", **_args(ep, template_id=draft["id"]))
    refused(ep, "start_journey", "rule_violation", "start_date", **_args(ep, start_date=day(-1)))
    refused(ep, "start_journey", "rule_violation", "manager_email", **_args(ep, manager_email="x@y.io"))
    start(ep)
    refused(ep, "start_journey", "conflict", "personal_email", **_args(ep))


def _args(ep: Episode, **over: Any) -> dict[str, Any]:
    tpl = first(ep, "templates", status="published")
    return {
        "template_id": tpl["id"],
        "new_hire_name": "Noor Haddad",
        "personal_email": "noor.haddad@example.net",
        "job_title": "Account Executive",
        "department": "Sales",
        "manager_email": MANAGER,
        "start_date": day(20),
    } | over


def test_templates_publish_only_with_steps_and_change_only_as_drafts(ep: Episode) -> None:
    empty = ok(ep, "create_template", name="Sales onboarding", department="Sales")
    refused(ep, "publish_template", "rule_violation", "template_id", template_id=empty["id"])
    ok(ep, "create_step", template_id=empty["id"], title="Shadow three calls", owner_role="manager", offset_days=3)
    assert ok(ep, "publish_template", template_id=empty["id"])["status"] == "published"
    refused(
        ep,
        "create_step",
        "rule_violation",
        "template_id",
        template_id=empty["id"],
        title="Late step",
        owner_role="hr",
        offset_days=1,
    )


def test_readiness_blocks_until_documents_tasks_and_equipment_are_done(ep: Episode) -> None:
    j = start(ep, start_date=day(12))
    refused(ep, "mark_ready", "rule_violation", "journey_id", journey_id=j["id"])
    for d in every(ep, "list_documents", journey_id=j["id"]):
        ok(ep, "sign_document", document_id=d["id"])
    for t in every(ep, "list_tasks", journey_id=j["id"]):
        if t["due_date"] < day(12):
            done = ok(ep, "complete_task", task_id=t["id"])
            assert done["completed_at"] is not None
    eq = ok(ep, "request_equipment", journey_id=j["id"], item="laptop", model_name="MacBook Air 13")
    assert ok(ep, "check_readiness", journey_id=j["id"])["undelivered_equipment"] == [eq["id"]]
    refused(ep, "deliver_equipment_request", "rule_violation", "equipment_request_id", equipment_request_id=eq["id"])
    refused(
        ep,
        "ship_equipment",
        "rule_violation",
        "equipment_request_id",
        equipment_request_id=eq["id"],
        tracking_number="1Z999AA10123456784",
    )
    ok(ep, "approve_equipment_request", equipment_request_id=eq["id"])
    ok(ep, "ship_equipment", equipment_request_id=eq["id"], tracking_number="1Z999AA10123456784")
    ok(ep, "deliver_equipment_request", equipment_request_id=eq["id"])
    assert ok(ep, "check_readiness", journey_id=j["id"])["ready"] is True
    ready = ok(ep, "mark_ready", journey_id=j["id"])
    assert ready["status"] == "ready" and ready["ready_at"] is not None
    refused(ep, "begin_day_one", "rule_violation", "journey_id", journey_id=j["id"])


def test_day_one_then_completion_when_no_task_is_open(ep: Episode) -> None:
    j = next(x for x in every(ep, "list_journeys", status="ready") if x["start_date"] <= day(0))
    active = ok(ep, "begin_day_one", journey_id=j["id"])
    assert active["status"] == "active"
    open_tasks = every(ep, "list_tasks", journey_id=j["id"], status="open")
    assert open_tasks
    refused(ep, "complete_journey", "rule_violation", "journey_id", journey_id=j["id"])
    refused(ep, "skip_task", "rule_violation", "reason", task_id=open_tasks[0]["id"], reason="  ")
    ok(ep, "skip_task", task_id=open_tasks[0]["id"], reason="Done in the welcome meeting")
    for t in open_tasks[1:]:
        ok(ep, "complete_task", task_id=t["id"])
    assert ok(ep, "complete_journey", journey_id=j["id"])["status"] == "completed"
    refused(ep, "cancel_journey", "rule_violation", "journey_id", journey_id=j["id"], reason="Too late")


def test_rescheduling_moves_open_tasks_and_sends_a_ready_journey_back(ep: Episode) -> None:
    j = next(x for x in every(ep, "list_journeys", status="ready") if x["start_date"] > day(0))
    before = {t["id"]: t for t in every(ep, "list_tasks", journey_id=j["id"])}
    moved = ok(ep, "reschedule_start", journey_id=j["id"], shift_days=7)
    assert moved["status"] == "preboarding" and moved["ready_at"] is None
    for t in every(ep, "list_tasks", journey_id=j["id"]):
        shift = 7 if t["status"] == "open" else 0
        old = dt.date.fromisoformat(before[t["id"]]["due_date"])
        assert t["due_date"] == (old + dt.timedelta(days=shift)).isoformat()
    refused(ep, "reschedule_start", "rule_violation", "shift_days", journey_id=j["id"], shift_days=-60)


def test_cancelling_skips_tasks_voids_documents_and_cancels_equipment(ep: Episode) -> None:
    j = every(ep, "list_journeys", status="preboarding")[0]
    refused(ep, "cancel_journey", "rule_violation", "reason", journey_id=j["id"], reason=" ")
    done = ok(ep, "cancel_journey", journey_id=j["id"], reason="Offer rescinded")
    assert (done["status"], done["cancel_reason"]) == ("cancelled", "Offer rescinded")
    assert {t["status"] for t in every(ep, "list_tasks", journey_id=j["id"])} <= {"done", "skipped"}
    assert {d["status"] for d in every(ep, "list_documents", journey_id=j["id"])} <= {"signed", "voided"}
    assert {e["status"] for e in every(ep, "list_equipment_requests", journey_id=j["id"])} <= {
        "cancelled",
        "shipped",
        "delivered",
    }
    refused(ep, "send_document", "rule_violation", "journey_id", journey_id=j["id"], kind="nda")


def test_documents_and_equipment_are_not_duplicated(ep: Episode) -> None:
    j = start(ep)
    refused(ep, "send_document", "conflict", "kind", journey_id=j["id"], kind="offer_letter")
    nda = ok(ep, "send_document", journey_id=j["id"], kind="nda")
    ok(ep, "void_document", document_id=nda["id"])
    assert ok(ep, "send_document", journey_id=j["id"], kind="nda")["status"] == "sent"
    ok(ep, "request_equipment", journey_id=j["id"], item="badge", model_name="HID iCLASS")
    refused(ep, "request_equipment", "conflict", "item", journey_id=j["id"], item="badge", model_name="Other")


def test_work_email_moves_new_hire_tasks_and_is_unique(ep: Episode) -> None:
    j = start(ep)
    taken = next(x["work_email"] for x in every(ep, "list_journeys") if x["work_email"])
    refused(ep, "set_work_email", "conflict", "work_email", journey_id=j["id"], work_email=taken)
    ok(ep, "set_work_email", journey_id=j["id"], work_email="noor.haddad@corp.example.com")
    for t in every(ep, "list_tasks", journey_id=j["id"], owner_role="new_hire"):
        assert t["assignee_email"] == "noor.haddad@corp.example.com"
    t = every(ep, "list_tasks", journey_id=j["id"], owner_role="hr")[0]
    refused(ep, "update_task", "rule_violation", "assignee_email", task_id=t["id"], assignee_email="a@b.io")
