"""Brightpath Tutors: service setup rules, lesson booking and attendance, cancellations, reports, invoicing, tutor pay."""

from __future__ import annotations

import datetime as dt
from typing import Any

from compoworld import Episode
from tests.services.helpers import ServiceTools

TUT = ServiceTools("tutoring")
WORLD = TUT.world
ok, refused, every = TUT.ok, TUT.refused, TUT.every
POP = WORLD.population
NOW = WORLD.epoch


def at(text: str) -> dt.datetime:
    return dt.datetime.fromisoformat(text.replace("Z", "+00:00"))


def when(days: float) -> str:
    return (NOW + dt.timedelta(days=days)).isoformat()


def job(ep: Episode, status: str = "in_progress") -> dict[str, Any]:
    return every(ep, "list_jobs", status=status)[0]


def test_seeded_clients_are_consumer_parents_and_tutors_are_staff(ep: Episode) -> None:
    consumers = {p.email: p for p in POP.consumers}
    for c in every(ep, "list_clients"):
        parent = consumers[c["email"]]
        assert {s["last_name"] for s in every(ep, "list_students", client_id=c["id"])} == {parent.last_name}
    staff = {p.email for p in POP.employees}
    assert all(t["email"] in staff for t in every(ep, "list_tutors"))


def test_a_service_needs_approved_tutors_of_the_subject_and_a_margin(ep: Episode) -> None:
    approved = every(ep, "list_tutors", status="approved")[0]
    pending = every(ep, "list_tutors", status="pending")[0]
    live = every(ep, "list_clients", status="live")[0]
    st = every(ep, "list_students", client_id=live["id"])[0]
    subject = approved["subjects"][0]
    base = {"name": "Exam prep", "student_ids": [st["id"]], "charge_rate_cents": 6000, "pay_rate_cents": 3000}
    other = next(x for x in ("Maths", "English", "French", "Biology") if x not in approved["subjects"])
    refused(ep, "create_job", "rule_violation", "tutor_ids", subject=other, tutor_ids=[approved["id"]], **base)
    refused(
        ep,
        "create_job",
        "rule_violation",
        "tutor_ids",
        subject=pending["subjects"][0],
        tutor_ids=[pending["id"]],
        **base,
    )
    refused(
        ep,
        "create_job",
        "rule_violation",
        "charge_rate_cents",
        subject=subject,
        tutor_ids=[approved["id"]],
        **(base | {"charge_rate_cents": 3000}),
    )
    dormant = every(ep, "list_clients", status="dormant")[0]
    kid = every(ep, "list_students", client_id=dormant["id"])[0]
    refused(
        ep,
        "create_job",
        "rule_violation",
        "student_ids",
        subject=subject,
        tutor_ids=[approved["id"]],
        **(base | {"student_ids": [kid["id"]]}),
    )
    made = ok(ep, "create_job", subject=subject, tutor_ids=[approved["id"]], **base)
    assert made["status"] == "planned"
    refused(ep, "update_job", "rule_violation", "charge_rate_cents", job_id=made["id"], charge_rate_cents=2000)


def test_the_first_lesson_starts_a_planned_service_and_tutors_are_not_double_booked(ep: Episode) -> None:
    j = job(ep, "planned")
    tutor = j["tutor_ids"][0]
    args = {"job_id": j["id"], "tutor_id": tutor, "minutes": 60, "topic": "Algebra"}
    refused(ep, "book_lesson", "rule_violation", "start", start=when(-1), **args)
    busy = [x for x in every(ep, "list_lessons", tutor_id=tutor, status="planned") if at(x["start"]) > NOW]
    first = ok(ep, "book_lesson", start=when(5), **args)
    assert first["student_ids"] == j["student_ids"] and ok(ep, "get_job", job_id=j["id"])["status"] == "in_progress"
    refused(ep, "book_lesson", "conflict", "start", start=when(5 + 1 / 48), **args)
    for b in busy:
        refused(ep, "book_lesson", "conflict", "start", **(args | {"start": b["start"]}))
    other = next(t for t in every(ep, "list_tutors") if t["id"] != tutor)
    refused(ep, "book_lesson", "rule_violation", "tutor_id", start=when(9), **(args | {"tutor_id": other["id"]}))
    refused(
        ep, "book_lesson", "rule_violation", "job_id", start=when(9), **(args | {"job_id": job(ep, "finished")["id"]})
    )


def test_completion_records_attendance_once_the_lesson_started(ep: Episode) -> None:
    planned = every(ep, "list_lessons", status="planned")
    started = next(x for x in planned if at(x["start"]) <= NOW)
    future = next(x for x in planned if at(x["start"]) > NOW)
    refused(ep, "complete_lesson", "rule_violation", "lesson_id", lesson_id=future["id"])
    stranger = next(s["id"] for s in every(ep, "list_students") if s["id"] not in started["student_ids"])
    refused(ep, "complete_lesson", "rule_violation", "absent_ids", lesson_id=started["id"], absent_ids=[stranger])
    done = ok(ep, "complete_lesson", lesson_id=started["id"], absent_ids=list(started["student_ids"]))
    assert (done["status"], done["absent_ids"]) == ("complete", started["student_ids"])
    refused(ep, "complete_lesson", "conflict", "lesson_id", lesson_id=started["id"])
    refused(
        ep,
        "submit_report",
        "rule_violation",
        "student_id",
        lesson_id=started["id"],
        student_id=started["student_ids"][0],
        progress=3,
        content="x",
    )


def test_only_a_late_cancellation_is_chargeable(ep: Episode) -> None:
    planned = [x for x in every(ep, "list_lessons", status="planned") if at(x["start"]) > NOW]
    soon = planned[0]
    j = ok(ep, "get_job", job_id=soon["job_id"])
    later = ok(ep, "book_lesson", job_id=j["id"], tutor_id=soon["tutor_id"], start=when(6), minutes=45, topic="Essay")
    refused(ep, "cancel_lesson", "rule_violation", "chargeable", lesson_id=later["id"], chargeable=True)
    assert ok(ep, "cancel_lesson", lesson_id=later["id"])["status"] == "cancelled"
    assert ok(ep, "cancel_lesson", lesson_id=soon["id"], chargeable=True)["status"] == "cancelled_chargeable"
    refused(ep, "cancel_lesson", "conflict", "lesson_id", lesson_id=soon["id"])


def test_reports_are_written_once_per_present_student_of_a_completed_lesson(ep: Episode) -> None:
    lesson = next(
        x
        for x in every(ep, "list_lessons", status="complete")
        if not every(ep, "list_reports", lesson_id=x["id"]) and not x["absent_ids"]
    )
    sid = lesson["student_ids"][0]
    refused(
        ep,
        "submit_report",
        "rule_violation",
        "content",
        lesson_id=lesson["id"],
        student_id=sid,
        progress=4,
        content=" ",
    )
    rep = ok(ep, "submit_report", lesson_id=lesson["id"], student_id=sid, progress=4, content="Fractions mastered.")
    assert rep["tutor_id"] == lesson["tutor_id"]
    refused(
        ep,
        "submit_report",
        "conflict",
        "student_id",
        lesson_id=lesson["id"],
        student_id=sid,
        progress=5,
        content="again",
    )
    planned = every(ep, "list_lessons", status="planned")[0]
    refused(
        ep,
        "submit_report",
        "rule_violation",
        "lesson_id",
        lesson_id=planned["id"],
        student_id=planned["student_ids"][0],
        progress=3,
        content="early",
    )


def test_an_invoice_bills_uninvoiced_billable_lessons_at_the_charge_rate(ep: Episode) -> None:
    c = next(
        x
        for x in every(ep, "list_clients")
        if any(
            les["invoice_id"] is None and les["status"] in ("complete", "cancelled_chargeable")
            for s in every(ep, "list_students", client_id=x["id"])
            for j in every(ep, "list_jobs")
            if s["id"] in j["student_ids"]
            for les in every(ep, "list_lessons", job_id=j["id"])
        )
    )
    inv = ok(ep, "raise_invoice", client_id=c["id"])
    total = 0
    for lid in inv["lesson_ids"]:
        lesson = ok(ep, "get_lesson", lesson_id=lid)
        assert lesson["invoice_id"] == inv["id"] and lesson["status"] in ("complete", "cancelled_chargeable")
        total += ok(ep, "get_job", job_id=lesson["job_id"])["charge_rate_cents"] * lesson["minutes"] // 60
    assert inv["amount_cents"] == total
    refused(ep, "raise_invoice", "rule_violation", "client_id", client_id=c["id"])
    voided = ok(ep, "void_invoice", invoice_id=inv["id"])
    assert voided["status"] == "void"
    assert ok(ep, "raise_invoice", client_id=c["id"])["lesson_ids"] == inv["lesson_ids"]


def test_paying_from_the_balance_needs_enough_credit(ep: Episode) -> None:
    inv = every(ep, "list_invoices", status="unpaid")[0]
    client = ok(ep, "get_client", client_id=inv["client_id"])
    if client["balance_cents"] >= inv["amount_cents"]:
        ok(ep, "update_client", client_id=client["id"], status="live")
    short = inv["amount_cents"] - client["balance_cents"]
    if short > 0:
        refused(ep, "pay_invoice_from_balance", "rule_violation", "invoice_id", invoice_id=inv["id"])
        ok(ep, "top_up_balance", client_id=client["id"], amount_cents=max(short, 100))
    before = ok(ep, "get_client", client_id=client["id"])["balance_cents"]
    paid = ok(ep, "pay_invoice_from_balance", invoice_id=inv["id"])
    assert paid["status"] == "paid" and paid["paid_at"]
    assert ok(ep, "get_client", client_id=client["id"])["balance_cents"] == before - inv["amount_cents"]
    refused(ep, "pay_invoice_from_balance", "conflict", "invoice_id", invoice_id=inv["id"])
    refused(ep, "void_invoice", "rule_violation", "invoice_id", invoice_id=inv["id"])


def test_a_payment_order_pays_the_tutors_unpaid_completed_lessons(ep: Episode) -> None:
    lesson = next(x for x in every(ep, "list_lessons", status="complete") if x["payment_order_id"] is None)
    tutor = lesson["tutor_id"]
    due = [x for x in every(ep, "list_lessons", tutor_id=tutor, status="complete") if x["payment_order_id"] is None]
    po = ok(ep, "create_payment_order", tutor_id=tutor)
    assert sorted(po["lesson_ids"]) == sorted(x["id"] for x in due)
    rate = {j["id"]: j["pay_rate_cents"] for j in every(ep, "list_jobs")}
    assert po["amount_cents"] == sum(rate[x["job_id"]] * x["minutes"] // 60 for x in due)
    refused(ep, "create_payment_order", "rule_violation", "tutor_id", tutor_id=tutor)
    assert ok(ep, "pay_payment_order", payment_order_id=po["id"])["status"] == "paid"
    refused(ep, "pay_payment_order", "rule_violation", "payment_order_id", payment_order_id=po["id"])
