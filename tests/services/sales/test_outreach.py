"""Cadence: enrolment rules, steps running mailings and tasks, replies, bounces, opt-outs and mailbox limits."""

from __future__ import annotations

from typing import Any

from compoworld import Episode
from tests.services.helpers import ServiceTools

OUT = ServiceTools("outreach")
WORLD = OUT.world
ok, refused, every = OUT.ok, OUT.refused, OUT.every
POP = WORLD.population
REP = POP.staff("Sales", fallback=3)[0].email


def seq(ep: Episode, name: str) -> dict[str, Any]:
    return next(s for s in every(ep, "list_sequences") if s["name"].startswith(name))


def mailbox(ep: Episode) -> dict[str, Any]:
    return every(ep, "list_mailboxes", sending_disabled=False)[0]


def fresh_prospect(ep: Episode, email: str = "ana.ruiz@prospect.example") -> dict[str, Any]:
    made: dict[str, Any] = ok(
        ep, "create_prospect", email=email, first_name="Ana", last_name="Ruiz", phone="+34911234567", owner_email=REP
    )
    return made


def enrol(ep: Episode, pro: dict[str, Any], sequence: dict[str, Any]) -> dict[str, Any]:
    state: dict[str, Any] = ok(
        ep,
        "add_to_sequence",
        prospect_id=pro["id"],
        sequence_id=sequence["id"],
        mailbox_id=mailbox(ep)["id"],
        added_by=REP,
    )
    return state


def test_seeded_prospects_are_the_worlds_contacts_in_every_state(ep: Episode) -> None:
    people = {p.email: p for p in POP.contacts}
    sales = {p.email for p in POP.employees}
    for p in every(ep, "list_prospects"):
        person = people[p["email"]]
        assert (p["first_name"], p["last_name"], p["owner_email"] in sales) == (
            person.first_name,
            person.last_name,
            True,
        )
        assert p["company_domain"] == p["email"].split("@")[1]
    states = every(ep, "list_states")
    assert {s["state"] for s in states} == {"active", "paused", "finished", "bounced", "opted_out"}
    for s in states:
        assert ok(ep, "get_prospect", prospect_id=s["prospect_id"])["opted_out"] == (s["state"] == "opted_out")
    assert {m["email"] for m in every(ep, "list_mailboxes")} <= sales


def test_enrolment_refuses_opted_out_disabled_and_duplicate(ep: Episode) -> None:
    webinar, cold, off = seq(ep, "Webinar"), seq(ep, "Cold"), seq(ep, "Closed-lost")
    pro = fresh_prospect(ep)
    args = {"prospect_id": pro["id"], "mailbox_id": mailbox(ep)["id"], "added_by": REP}
    refused(ep, "add_to_sequence", "rule_violation", "sequence_id", sequence_id=off["id"], **args)
    dead = every(ep, "list_mailboxes", sending_disabled=True)[0]
    refused(
        ep,
        "add_to_sequence",
        "rule_violation",
        "mailbox_id",
        sequence_id=webinar["id"],
        **(args | {"mailbox_id": dead["id"]}),
    )
    refused(
        ep,
        "add_to_sequence",
        "rule_violation",
        "added_by",
        sequence_id=webinar["id"],
        **(args | {"added_by": "x@y.io"}),
    )
    ok(ep, "add_to_sequence", sequence_id=webinar["id"], **args)
    refused(ep, "add_to_sequence", "conflict", "prospect_id", sequence_id=webinar["id"], **args)
    out = every(ep, "list_prospects", opted_out=True)[0]
    refused(
        ep,
        "add_to_sequence",
        "rule_violation",
        "prospect_id",
        sequence_id=cold["id"],
        **(args | {"prospect_id": out["id"]}),
    )


def test_a_prospect_is_in_one_exclusive_sequence_at_a_time(ep: Episode) -> None:
    cold = seq(ep, "Cold")
    other = ok(ep, "create_sequence", name="Event invite", owner_email=REP, exclusive=True)
    ok(ep, "add_step", sequence_id=other["id"], step_type="call", subject="Invite call")
    ok(ep, "enable_sequence", sequence_id=other["id"])
    pro = fresh_prospect(ep)
    state = enrol(ep, pro, cold)
    refused(
        ep,
        "add_to_sequence",
        "conflict",
        "prospect_id",
        prospect_id=pro["id"],
        sequence_id=other["id"],
        mailbox_id=mailbox(ep)["id"],
        added_by=REP,
    )
    ok(ep, "finish_state", state_id=state["id"])
    assert enrol(ep, pro, other)["state"] == "active"


def test_steps_run_in_order_mailing_then_call_then_mailing(ep: Episode) -> None:
    pro = fresh_prospect(ep)
    state = enrol(ep, pro, seq(ep, "Cold"))
    assert state["step_order"] == 1
    mail = every(ep, "list_mailings", state_id=state["id"])
    assert [m["status"] for m in mail] == ["scheduled"] and "your team" in mail[0]["subject"]
    assert ok(ep, "deliver_mailing", mailing_id=mail[0]["id"])["status"] == "delivered"
    refused(ep, "deliver_mailing", "conflict", "mailing_id", mailing_id=mail[0]["id"])
    task = every(ep, "list_tasks", state_id=state["id"], status="incomplete")
    assert [t["action"] for t in task] == ["call"]
    refused(ep, "complete_task", "rule_violation", "task_id", task_id=task[0]["id"])
    ok(ep, "log_call", prospect_id=pro["id"], user_email=REP, outcome="answered", duration_s=300, task_id=task[0]["id"])
    now = ok(ep, "get_state", state_id=state["id"])
    assert now["step_order"] == 3
    assert [m["status"] for m in every(ep, "list_mailings", state_id=state["id"])] == ["delivered", "scheduled"]


def test_a_mailbox_sends_no_more_than_its_daily_limit(ep: Episode) -> None:
    box = mailbox(ep)
    ok(ep, "update_mailbox", mailbox_id=box["id"], daily_limit=1)
    webinar = seq(ep, "Webinar")
    first = enrol(ep, fresh_prospect(ep, "a1@prospect.example"), webinar)
    second = enrol(ep, fresh_prospect(ep, "a2@prospect.example"), webinar)
    m1 = every(ep, "list_mailings", state_id=first["id"])[0]
    m2 = every(ep, "list_mailings", state_id=second["id"])[0]
    ok(ep, "deliver_mailing", mailing_id=m1["id"])
    refused(ep, "deliver_mailing", "rule_violation", "mailing_id", mailing_id=m2["id"])
    ok(ep, "update_mailbox", mailbox_id=box["id"], daily_limit=5)
    assert ok(ep, "deliver_mailing", mailing_id=m2["id"])["status"] == "delivered"


def test_a_reply_finishes_and_a_bounce_stops_the_sequence(ep: Episode) -> None:
    webinar = seq(ep, "Webinar")
    a = enrol(ep, fresh_prospect(ep, "r1@prospect.example"), webinar)
    b = enrol(ep, fresh_prospect(ep, "r2@prospect.example"), webinar)
    ma = every(ep, "list_mailings", state_id=a["id"])[0]
    refused(ep, "record_reply", "rule_violation", "mailing_id", mailing_id=ma["id"])
    ok(ep, "deliver_mailing", mailing_id=ma["id"])
    done = ok(ep, "record_reply", mailing_id=ma["id"])
    assert (done["state"], done["finish_reason"]) == ("finished", "replied")
    assert every(ep, "list_tasks", state_id=a["id"], status="incomplete") == []
    mb = every(ep, "list_mailings", state_id=b["id"])[0]
    ok(ep, "deliver_mailing", mailing_id=mb["id"])
    assert ok(ep, "record_bounce", mailing_id=mb["id"])["state"] == "bounced"


def test_opting_out_stops_every_live_sequence(ep: Episode) -> None:
    live = every(ep, "list_states", state="active")[0]
    pro = ok(ep, "opt_out_prospect", prospect_id=live["prospect_id"])
    assert pro["opted_out"] is True
    for s in every(ep, "list_states", prospect_id=pro["id"]):
        assert s["state"] not in ("active", "paused")
    assert all(m["status"] != "scheduled" for m in every(ep, "list_mailings", prospect_id=pro["id"]))
    refused(ep, "opt_out_prospect", "conflict", "prospect_id", prospect_id=pro["id"])


def test_a_paused_sequence_sends_nothing_until_resumed(ep: Episode) -> None:
    state = enrol(ep, fresh_prospect(ep), seq(ep, "Webinar"))
    mail = every(ep, "list_mailings", state_id=state["id"])[0]
    assert ok(ep, "pause_state", state_id=state["id"])["state"] == "paused"
    refused(ep, "deliver_mailing", "rule_violation", "mailing_id", mailing_id=mail["id"])
    refused(ep, "pause_state", "rule_violation", "state_id", state_id=state["id"])
    assert ok(ep, "resume_state", state_id=state["id"])["state"] == "active"
    ok(ep, "deliver_mailing", mailing_id=mail["id"])


def test_a_sequence_is_enabled_only_with_steps_and_email_steps_need_a_subject(ep: Episode) -> None:
    made = ok(ep, "create_sequence", name="Trade show", owner_email=REP)
    refused(ep, "enable_sequence", "rule_violation", "sequence_id", sequence_id=made["id"])
    refused(ep, "add_step", "rule_violation", "subject", sequence_id=made["id"], step_type="auto_email")
    first = ok(ep, "add_step", sequence_id=made["id"], step_type="auto_email", subject="Meet us", interval_days=5)
    second = ok(ep, "add_step", sequence_id=made["id"], step_type="task", interval_days=2, body="Book a slot")
    assert (first["order"], first["interval_days"], second["order"]) == (1, 0, 2)
    assert ok(ep, "enable_sequence", sequence_id=made["id"])["step_count"] == 2


def test_finishing_the_last_step_finishes_the_state(ep: Episode) -> None:
    pro = fresh_prospect(ep)
    state = enrol(ep, pro, seq(ep, "Webinar"))
    ok(ep, "deliver_mailing", mailing_id=every(ep, "list_mailings", state_id=state["id"])[0]["id"])
    task = every(ep, "list_tasks", state_id=state["id"], status="incomplete")[0]
    assert task["action"] == "task"
    ok(ep, "complete_task", task_id=task["id"], note="Sent the deck")
    refused(ep, "complete_task", "conflict", "task_id", task_id=task["id"])
    last = next(m for m in every(ep, "list_mailings", state_id=state["id"]) if m["status"] == "scheduled")
    ok(ep, "deliver_mailing", mailing_id=last["id"])
    done = ok(ep, "get_state", state_id=state["id"])
    assert (done["state"], done["finish_reason"]) == ("finished", "completed")
