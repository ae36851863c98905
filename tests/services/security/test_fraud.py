"""Riskwise: events move scores, workflows queue or block, decisions set standing, review queue rules."""

from __future__ import annotations

from typing import Any

from compoworld import Episode
from tests.services.helpers import ServiceTools

FRAUD = ServiceTools("fraud")
WORLD = FRAUD.world
ok, refused, every = FRAUD.ok, FRAUD.refused, FRAUD.every
POP = WORLD.population
ANALYST = POP.employees[0].email
IP = "192.0.2.44"


def decision(ep: Episode, name: str) -> dict[str, Any]:
    return every(ep, "list_decisions", query=name)[0]


def clean_user(ep: Episode) -> dict[str, Any]:
    for u in every(ep, "list_users", blocked=False):
        if u["account_takeover_score"] < 10 and u["payment_abuse_score"] < 10:
            return u
    raise AssertionError("no clean user")


def test_seeded_users_are_world_people_and_scores_follow_their_events(ep: Episode) -> None:
    people = {p.email for p in POP.people}
    for u in every(ep, "list_users"):
        assert u["email"] in people
        evs = every(ep, "list_events", user_id=u["id"])
        cb = sum(e["type"] == "chargeback" for e in evs)
        fp = sum(e["type"] == "transaction" and e["status"] == "failure" for e in evs)
        assert u["payment_abuse_score"] == min(99, 5 + 20 * fp + 45 * cb)
        assert u["blocked"] == any(
            a["category"] == "block" for a in every(ep, "list_applied_decisions", user_id=u["id"])
        )


def test_a_new_customer_needs_a_name_and_failed_logins_raise_takeover_score(ep: Episode) -> None:
    email = "new.shopper@mailbox.net"
    refused(ep, "track_event", "rule_violation", "name", email=email, type="create_account", ip=IP)
    ok(ep, "track_event", email=email, type="create_account", ip=IP, name="New Shopper")
    user = every(ep, "list_users", email=email)[0]
    before = user["account_takeover_score"]
    ok(ep, "track_event", email=email, type="login", ip="203.0.113.9", status="failure")
    after = ok(ep, "get_user", user_id=user["id"])["account_takeover_score"]
    assert after == before + 18 + 8


def test_a_workflow_queues_risky_logins_once(ep: Episode) -> None:
    u = clean_user(ep)
    for _ in range(2):
        ok(ep, "track_event", email=u["email"], type="login", ip="203.0.113.10", status="failure")
    queued = every(ep, "list_reviews", user_id=u["id"], status="pending")
    assert len(queued) == 1 and queued[0]["abuse_type"] == "account_takeover"
    ok(ep, "track_event", email=u["email"], type="login", ip="203.0.113.11", status="failure")
    assert len(every(ep, "list_reviews", user_id=u["id"], status="pending")) == 1


def test_chargebacks_need_an_order_once_and_auto_block_repeaters(ep: Episode) -> None:
    u = clean_user(ep)
    refused(ep, "track_event", "rule_violation", "order_id", email=u["email"], type="chargeback", ip=IP, amount=900)
    ok(ep, "track_event", email=u["email"], type="chargeback", ip=IP, amount=900, order_id="ORD-1")
    refused(ep, "track_event", "conflict", "order_id", email=u["email"], type="chargeback", ip=IP, order_id="ORD-1")
    assert ok(ep, "get_user", user_id=u["id"])["blocked"] is False
    ok(ep, "track_event", email=u["email"], type="chargeback", ip=IP, amount=900, order_id="ORD-2")
    assert ok(ep, "get_user", user_id=u["id"])["blocked"] is True
    auto = every(ep, "list_applied_decisions", user_id=u["id"], source="automated_rule")
    assert [a["category"] for a in auto] == ["block"]


def test_the_latest_decision_per_abuse_type_sets_the_standing(ep: Episode) -> None:
    u = clean_user(ep)
    ok(ep, "apply_decision", user_id=u["id"], decision_id=decision(ep, "Block payment abuse")["id"], analyst=ANALYST)
    assert ok(ep, "get_user", user_id=u["id"])["blocked"] is True
    ok(ep, "apply_decision", user_id=u["id"], decision_id=decision(ep, "Looks OK payment")["id"], analyst=ANALYST)
    card = ok(ep, "get_scores", user_id=u["id"])
    assert card["latest"]["payment_abuse"] == "accept" and ok(ep, "get_user", user_id=u["id"])["blocked"] is False


def test_archived_decisions_and_outsiders_cannot_decide(ep: Episode) -> None:
    u = clean_user(ep)
    legacy = decision(ep, "Legacy manual block")
    assert legacy["archived"]
    refused(
        ep,
        "apply_decision",
        "rule_violation",
        "decision_id",
        user_id=u["id"],
        decision_id=legacy["id"],
        analyst=ANALYST,
    )
    refused(
        ep,
        "apply_decision",
        "rule_violation",
        "analyst",
        user_id=u["id"],
        decision_id=decision(ep, "Watch payment abuse")["id"],
        analyst="x@y.io",
    )
    used = decision(ep, "Block payment abuse")
    refused(ep, "archive_decision", "rule_violation", "decision_id", decision_id=used["id"])


def test_reviews_are_claimed_then_resolved_with_a_decision_of_their_abuse_type(ep: Episode) -> None:
    rev = every(ep, "list_reviews", status="pending")[0]
    trusted = decision(ep, "Trusted login")
    refused(ep, "resolve_review", "rule_violation", "review_id", review_id=rev["id"], decision_id=trusted["id"])
    refused(ep, "claim_review", "rule_violation", "analyst", review_id=rev["id"], analyst="x@y.io")
    ok(ep, "claim_review", review_id=rev["id"], analyst=ANALYST)
    refused(ep, "claim_review", "conflict", "review_id", review_id=rev["id"], analyst=ANALYST)
    wrong = decision(ep, "Looks OK payment")
    refused(ep, "resolve_review", "rule_violation", "decision_id", review_id=rev["id"], decision_id=wrong["id"])
    done = ok(ep, "resolve_review", review_id=rev["id"], decision_id=trusted["id"])
    assert done["status"] == "resolved" and done["applied_id"]
    assert ok(ep, "get_scores", user_id=rev["user_id"])["latest"]["account_takeover"] == "accept"


def test_block_workflows_need_a_matching_block_decision(ep: Episode) -> None:
    base = {
        "name": "Big orders",
        "event_type": "create_order",
        "abuse_type": "payment_abuse",
        "threshold": 70,
        "action": "block",
    }
    refused(ep, "create_workflow", "rule_violation", "block_decision_id", **base)
    refused(
        ep,
        "create_workflow",
        "rule_violation",
        "block_decision_id",
        block_decision_id=decision(ep, "Ban fake account")["id"],
        **base,
    )
    wf = ok(ep, "create_workflow", block_decision_id=decision(ep, "Block payment abuse")["id"], **base)
    assert wf["status"] == "draft"
    ok(ep, "activate_workflow", workflow_id=wf["id"])
    refused(ep, "update_workflow", "rule_violation", "workflow_id", workflow_id=wf["id"], action="review")


def test_draft_workflows_do_not_run(ep: Episode) -> None:
    draft = every(ep, "list_workflows", status="draft")[0]
    assert draft["event_type"] == "create_account"
    for k in range(3):
        ok(ep, "track_event", email=f"dup{k}@mailbox.net", type="create_account", ip="198.51.100.10", name=f"Dup {k}")
    dup = every(ep, "list_users", email="dup2@mailbox.net")[0]
    assert dup["account_abuse_score"] >= 60 and dup["blocked"] is False
    ok(ep, "activate_workflow", workflow_id=draft["id"])
    ok(ep, "track_event", email="dup9@mailbox.net", type="create_account", ip="198.51.100.10", name="Dup 9")
    assert every(ep, "list_users", email="dup9@mailbox.net")[0]["blocked"] is True
