"""Quotient Commissions: tiered rates, quotas before credits, splits, statement approval, disputes, locked payouts."""

from __future__ import annotations

from typing import Any

from compoworld import Episode
from tests.services.helpers import ServiceTools

COMM = ServiceTools("commissions")
WORLD = COMM.world
ok, refused, every = COMM.ok, COMM.refused, COMM.every
POP = WORLD.population
REPS = [p.email for p in POP.staff("Sales", fallback=3)]
FIN = POP.staff("Finance", fallback=1)[0].email


def period(ep: Episode, k: int) -> dict[str, Any]:
    return every(ep, "list_periods")[k]


def credit(ep: Episode, per: dict[str, Any], rep: str, ref: str = "006NEW0001", **kw: Any) -> Any:
    args = {
        "deal_ref": ref,
        "company_name": POP.customers[0].name,
        "rep_email": rep,
        "period_id": per["id"],
        "deal_amount": 10_000_000,
        "closed_on": per["starts_on"],
    } | kw
    return args


def test_seeded_statements_match_their_credits_and_the_rate_table(ep: Episode) -> None:
    for st in every(ep, "list_statements"):
        credits = every(ep, "list_credits", rep_email=st["rep_email"], period_id=st["period_id"], status="active")
        assert st["credited"] == sum(c["amount"] for c in credits)
        assert st["rep_email"] in REPS
        plan = ok(ep, "get_plan", plan_id=st["plan_id"])
        q, got, total = st["quota"], st["credited"], 0.0
        tiers = plan["tiers"]
        for k, t in enumerate(tiers):
            lo = q * t["from_attainment"] / 100
            hi = q * tiers[k + 1]["from_attainment"] / 100 if k + 1 < len(tiers) else float("inf")
            total += max(0.0, min(got, hi) - lo) * t["rate"] / 100
        assert st["commission"] == round(total)
    for po in every(ep, "list_payouts", locked=True):
        assert ok(ep, "get_period", period_id=po["period_id"])["status"] == "closed"


def test_accelerators_pay_the_slice_above_quota_at_the_higher_rate(ep: Episode) -> None:
    plan = ok(
        ep,
        "create_plan",
        name="Test plan",
        tiers=[{"from_attainment": 0, "rate": 10}, {"from_attainment": 100, "rate": 20}],
    )
    ok(ep, "activate_plan", plan_id=plan["id"])
    nxt = period(ep, 3)
    ok(ep, "set_quota", rep_email=REPS[0], period_id=nxt["id"], plan_id=plan["id"], amount=1_000_000)
    ok(ep, "credit_deal", **credit(ep, nxt, REPS[0], deal_amount=1_500_000))
    st = ok(ep, "calculate_statement", rep_email=REPS[0], period_id=nxt["id"])
    assert (st["attainment"], st["commission"]) == (150.0, 100_000 + 100_000)


def test_plan_tiers_must_start_at_zero_and_rise(ep: Episode) -> None:
    refused(ep, "create_plan", "rule_violation", "tiers", name="Bad", tiers=[{"from_attainment": 50, "rate": 5}])
    refused(
        ep,
        "create_plan",
        "rule_violation",
        "tiers",
        name="Bad",
        tiers=[{"from_attainment": 0, "rate": 5}, {"from_attainment": 0, "rate": 9}],
    )
    draft = every(ep, "list_plans", status="draft")[0]
    nxt = period(ep, 3)
    refused(
        ep,
        "set_quota",
        "rule_violation",
        "plan_id",
        rep_email=REPS[0],
        period_id=nxt["id"],
        plan_id=draft["id"],
        amount=100,
    )


def test_a_deal_is_credited_only_to_a_rep_with_a_quota_in_an_open_period(ep: Episode) -> None:
    closed, current, nxt = period(ep, 0), period(ep, 2), period(ep, 3)
    refused(ep, "credit_deal", "rule_violation", "period_id", **credit(ep, closed, REPS[0]))
    refused(ep, "credit_deal", "rule_violation", "rep_email", **credit(ep, nxt, REPS[0]))
    refused(ep, "credit_deal", "rule_violation", "rep_email", **credit(ep, current, FIN))
    refused(
        ep, "credit_deal", "rule_violation", "closed_on", **credit(ep, current, REPS[0], closed_on=nxt["starts_on"])
    )
    made = ok(ep, "credit_deal", **credit(ep, current, REPS[0], split=60))
    assert made["amount"] == 6_000_000
    refused(ep, "credit_deal", "conflict", "deal_ref", **credit(ep, current, REPS[0], split=10))
    refused(ep, "credit_deal", "rule_violation", "split", **credit(ep, current, REPS[1], split=50))
    assert ok(ep, "credit_deal", **credit(ep, current, REPS[1], split=40))["amount"] == 4_000_000


def test_reversing_a_credit_lowers_the_recalculated_statement(ep: Episode) -> None:
    st = every(ep, "list_statements", status="draft")[0]
    line = st["lines"][0]
    ok(ep, "reverse_credit", credit_id=line["credit_id"])
    again = ok(ep, "calculate_statement", rep_email=st["rep_email"], period_id=st["period_id"])
    assert again["credited"] == st["credited"] - line["amount"] and again["id"] == st["id"]
    refused(ep, "reverse_credit", "conflict", "credit_id", credit_id=line["credit_id"])
    old = every(ep, "list_credits", period_id=period(ep, 0)["id"])[0]
    refused(ep, "reverse_credit", "rule_violation", "credit_id", credit_id=old["id"])


def test_statements_are_published_then_approved_by_finance_not_the_rep(ep: Episode) -> None:
    st = every(ep, "list_statements", status="draft")[0]
    refused(ep, "approve_statement", "rule_violation", "statement_id", statement_id=st["id"], approver_email=FIN)
    ok(ep, "publish_statement", statement_id=st["id"])
    refused(
        ep,
        "approve_statement",
        "rule_violation",
        "approver_email",
        statement_id=st["id"],
        approver_email=st["rep_email"],
    )
    done = ok(ep, "approve_statement", statement_id=st["id"], approver_email=FIN)
    assert (done["status"], done["approved_by"]) == ("approved", FIN)
    refused(
        ep, "calculate_statement", "rule_violation", "period_id", rep_email=st["rep_email"], period_id=st["period_id"]
    )


def test_an_open_dispute_blocks_approval_and_an_adjustment_reopens_the_draft(ep: Episode) -> None:
    d = every(ep, "list_disputes", status="open")[0]
    st = ok(ep, "get_statement", statement_id=d["statement_id"])
    refused(ep, "approve_statement", "conflict", "statement_id", statement_id=st["id"], approver_email=FIN)
    refused(
        ep, "open_dispute", "conflict", "statement_id", statement_id=st["id"], rep_email=st["rep_email"], reason="again"
    )
    ok(ep, "resolve_dispute", dispute_id=d["id"], resolution="Added the split", adjustment=150000)
    after = ok(ep, "get_statement", statement_id=st["id"])
    assert (after["status"], after["total"]) == ("draft", st["commission"] + 150000)
    recalculated = ok(ep, "calculate_statement", rep_email=st["rep_email"], period_id=st["period_id"])
    assert recalculated["total"] == recalculated["commission"] + 150000


def test_only_the_rep_disputes_their_published_statement(ep: Episode) -> None:
    st = next(
        s
        for s in every(ep, "list_statements", status="published")
        if not every(ep, "list_disputes", statement_id=s["id"])
    )
    other = next(r for r in REPS if r != st["rep_email"])
    refused(ep, "open_dispute", "rule_violation", "rep_email", statement_id=st["id"], rep_email=other, reason="x")
    refused(
        ep, "open_dispute", "rule_violation", "reason", statement_id=st["id"], rep_email=st["rep_email"], reason=" "
    )
    d = ok(ep, "open_dispute", statement_id=st["id"], rep_email=st["rep_email"], reason="Missing deal")
    rejected = ok(ep, "resolve_dispute", dispute_id=d["id"], resolution="Deal closed next month")
    assert rejected["status"] == "rejected"
    assert ok(ep, "get_statement", statement_id=st["id"])["status"] == "published"


def test_closing_a_period_needs_approved_statements_and_locks_payouts(ep: Episode) -> None:
    settled, current = period(ep, 1), period(ep, 2)
    refused(ep, "close_period", "rule_violation", "period_id", period_id=current["id"])
    st = next(
        s
        for s in every(ep, "list_statements", period_id=settled["id"])
        if not every(ep, "list_payouts", statement_id=s["id"])
    )
    po = ok(ep, "schedule_payout", statement_id=st["id"], pay_date=current["ends_on"])
    refused(ep, "schedule_payout", "conflict", "statement_id", statement_id=st["id"], pay_date=current["ends_on"])
    assert ok(ep, "close_period", period_id=settled["id"])["status"] == "closed"
    assert {p["locked"] for p in every(ep, "list_payouts", period_id=settled["id"])} == {True}
    assert ok(ep, "mark_payout_paid", payout_id=po["id"])["status"] == "paid"
    refused(ep, "credit_deal", "rule_violation", "period_id", **credit(ep, settled, REPS[0]))
