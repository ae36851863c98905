"""Success Hub: health scorecards, risk CTAs, playbooks and closing rules, success plans, timeline, renewals."""

from __future__ import annotations

import datetime as dt
from typing import Any

from compoworld import Episode
from tests.services.helpers import ServiceTools

HUB = ServiceTools("successhub")
WORLD = HUB.world
ok, refused, every = HUB.ok, HUB.refused, HUB.every
POP = WORLD.population
TODAY = WORLD.epoch.date()


def day(n: int) -> str:
    return (TODAY + dt.timedelta(days=n)).isoformat()


def account(ep: Episode, color: str) -> dict[str, Any]:
    return next(a for a in every(ep, "list_accounts", health_color=color) if a["stage"] != "churned")


def playbook(ep: Episode, kind: str) -> dict[str, Any]:
    return every(ep, "list_playbooks", cta_type=kind)[0]


def color(score: int) -> str:
    return "green" if score >= 70 else "yellow" if score >= 40 else "red"


def test_seeded_health_is_the_weighted_mean_of_the_scorecard(ep: Episode) -> None:
    companies = {c.domain: c for c in POP.customers}
    staff = {p.email for p in POP.employees}
    for a in every(ep, "list_accounts"):
        assert companies[a["domain"]].name == a["name"] and a["csm_email"] in staff
        found = every(ep, "list_measures", account_id=a["id"])
        score = round(sum(m["score"] * m["weight"] for m in found) / sum(m["weight"] for m in found))
        assert (a["health_score"], a["health_color"]) == (score, color(score))
        risks = [c for c in every(ep, "list_ctas", account_id=a["id"], type="risk") if c["status"] != "closed_success"]
        assert bool(risks) == (a["health_color"] == "red")
    assert {a["health_color"] for a in every(ep, "list_accounts")} == {"green", "yellow", "red"}


def test_a_big_drop_needs_a_comment_and_turning_red_opens_one_risk_cta(ep: Episode) -> None:
    acc = account(ep, "yellow")
    usage = every(ep, "list_measures", account_id=acc["id"], name="product_usage")[0]
    refused(ep, "score_measure", "rule_violation", "comment", measure_id=usage["id"], score=usage["score"] - 25)
    for m in every(ep, "list_measures", account_id=acc["id"]):
        after = ok(ep, "score_measure", measure_id=m["id"], score=10, comment="Usage collapsed after reorg")
    assert (after["health_score"], after["health_color"]) == (10, "red")
    risk = every(ep, "list_ctas", account_id=acc["id"], type="risk")
    assert [(c["status"], c["priority"], c["owner_email"]) for c in risk] == [("new", "high", acc["csm_email"])]
    back = ok(ep, "score_measure", measure_id=usage["id"], score=50)
    assert back["health_color"] == "red" and len(every(ep, "list_ctas", account_id=acc["id"], type="risk")) == 1


def test_a_cta_takes_a_playbook_of_its_type_and_one_open_cta_per_reason(ep: Episode) -> None:
    acc = account(ep, "green")
    base = {
        "account_id": acc["id"],
        "name": "Grow seats",
        "type": "expansion",
        "reason": "Seat growth",
        "owner_email": acc["csm_email"],
        "due_date": day(20),
    }
    refused(ep, "create_cta", "rule_violation", "playbook_id", playbook_id=playbook(ep, "risk")["id"], **base)
    refused(ep, "create_cta", "rule_violation", "due_date", **(base | {"due_date": day(-1)}))
    refused(ep, "create_cta", "rule_violation", "owner_email", **(base | {"owner_email": "cs@partner.io"}))
    book = playbook(ep, "expansion")
    cta = ok(ep, "create_cta", playbook_id=book["id"], **base)
    made = every(ep, "list_tasks", cta_id=cta["id"])
    assert [(t["title"], t["due_date"]) for t in made] == [(t["title"], day(t["days_after"])) for t in book["tasks"]]
    refused(ep, "create_cta", "conflict", "reason", **(base | {"reason": "SEAT GROWTH"}))


def test_a_cta_closes_as_success_only_when_its_tasks_are_done(ep: Episode) -> None:
    acc = account(ep, "green")
    cta = ok(
        ep,
        "create_cta",
        account_id=acc["id"],
        name="Onboard new team",
        type="lifecycle",
        reason="New team",
        owner_email=acc["csm_email"],
        due_date=day(10),
        playbook_id=playbook(ep, "lifecycle")["id"],
    )
    found = every(ep, "list_tasks", cta_id=cta["id"])
    ok(ep, "complete_task", task_id=found[0]["id"])
    assert ok(ep, "get_cta", cta_id=cta["id"])["status"] == "work_in_progress"
    refused(ep, "complete_task", "conflict", "task_id", task_id=found[0]["id"])
    refused(ep, "close_cta", "rule_violation", "cta_id", cta_id=cta["id"], outcome="closed_success")
    for t in found[1:]:
        ok(ep, "complete_task", task_id=t["id"])
    done = ok(ep, "close_cta", cta_id=cta["id"], outcome="closed_success")
    assert done["status"] == "closed_success" and done["closed_at"] is not None
    refused(ep, "close_cta", "conflict", "cta_id", cta_id=cta["id"], outcome="closed_lost", reason="x")


def test_a_cta_closes_lost_with_a_reason_and_its_tasks_freeze(ep: Episode) -> None:
    cta = every(ep, "list_ctas", status="work_in_progress")[0]
    refused(ep, "close_cta", "rule_violation", "reason", cta_id=cta["id"], outcome="closed_lost")
    lost = ok(ep, "close_cta", cta_id=cta["id"], outcome="closed_lost", reason="Customer declined the programme")
    assert (lost["status"], lost["closed_reason"]) == ("closed_lost", "Customer declined the programme")
    left = every(ep, "list_tasks", cta_id=cta["id"], done=False)
    assert left
    refused(ep, "complete_task", "rule_violation", "task_id", task_id=left[0]["id"])


def test_a_success_plan_activates_with_objectives_and_completes_when_all_are_achieved(ep: Episode) -> None:
    acc = account(ep, "green")
    plan = ok(ep, "create_plan", account_id=acc["id"], name="Expansion plan", owner_email=acc["csm_email"])
    refused(ep, "activate_plan", "rule_violation", "plan_id", plan_id=plan["id"])
    ok(ep, "add_objective", plan_id=plan["id"], title="Launch in APAC", due_date=day(30))
    refused(ep, "add_objective", "conflict", "title", plan_id=plan["id"], title="launch in apac", due_date=day(40))
    refused(ep, "achieve_objective", "rule_violation", "plan_id", plan_id=plan["id"], title="Launch in APAC")
    ok(ep, "activate_plan", plan_id=plan["id"])
    refused(ep, "achieve_objective", "rule_violation", "title", plan_id=plan["id"], title="Unknown goal")
    ok(ep, "add_objective", plan_id=plan["id"], title="Exec sponsor named", due_date=day(15))
    ok(ep, "achieve_objective", plan_id=plan["id"], title="Launch in APAC")
    refused(ep, "complete_plan", "rule_violation", "plan_id", plan_id=plan["id"])
    ok(ep, "achieve_objective", plan_id=plan["id"], title="Exec sponsor named")
    assert ok(ep, "complete_plan", plan_id=plan["id"])["status"] == "complete"


def test_timeline_activities_are_past_at_the_account_and_milestones_have_notes(ep: Episode) -> None:
    acc = account(ep, "yellow")
    base = {"account_id": acc["id"], "subject": "Check-in", "author_email": acc["csm_email"]}
    future = (WORLD.epoch + dt.timedelta(hours=3)).isoformat()
    refused(ep, "log_activity", "rule_violation", "occurred_at", type="call", occurred_at=future, **base)
    refused(ep, "log_activity", "rule_violation", "contact_email", type="call", contact_email="x@elsewhere.org", **base)
    refused(ep, "log_activity", "rule_violation", "notes", type="milestone", **base)
    made = ok(ep, "log_activity", type="call", contact_email=f"cto@{acc['domain']}", **base)
    assert made["occurred_at"].startswith(TODAY.isoformat())
    assert made["id"] in {a["id"] for a in every(ep, "list_activities", account_id=acc["id"])}


def test_renewals_at_risk_are_unhealthy_or_flagged_and_soonest_first(ep: Episode) -> None:
    risks = ok(ep, "renewals_at_risk", within_days=365)
    assert [r["renewal_date"] for r in risks] == sorted(r["renewal_date"] for r in risks)
    accounts = {a["id"]: a for a in every(ep, "list_accounts")}
    for r in risks:
        a = accounts[r["account_id"]]
        assert a["stage"] != "churned" and (a["health_color"] != "green" or r["open_risk_ctas"] > 0)
    expected = {
        a["id"]
        for a in accounts.values()
        if a["stage"] != "churned" and a["health_color"] != "green" and a["renewal_date"] <= day(365)
    }
    assert expected <= {r["account_id"] for r in risks}


def test_a_churned_account_takes_no_new_cta(ep: Episode) -> None:
    gone = every(ep, "list_accounts", stage="churned")[0]
    refused(
        ep,
        "create_cta",
        "rule_violation",
        "account_id",
        account_id=gone["id"],
        name="Win back",
        type="risk",
        reason="Churned",
        owner_email=gone["csm_email"],
        due_date=day(5),
    )


def test_a_new_account_starts_onboarding_with_a_neutral_scorecard(ep: Episode) -> None:
    taken = {a["domain"] for a in every(ep, "list_accounts")}
    company = next(c for c in POP.customers if c.domain not in taken)
    csm = POP.employees[0].email
    args = {"name": company.name, "domain": company.domain, "csm_email": csm, "arr": 1_000_000}
    refused(ep, "create_account", "rule_violation", "renewal_date", renewal_date=day(0), **args)
    refused(ep, "create_account", "conflict", "domain", renewal_date=day(365), **(args | {"domain": sorted(taken)[0]}))
    acc = ok(ep, "create_account", renewal_date=day(365), **args)
    assert (acc["stage"], acc["health_score"], acc["currency"]) == ("onboarding", 50, POP.home.place.currency)
    assert {m["score"] for m in every(ep, "list_measures", account_id=acc["id"])} == {50}
