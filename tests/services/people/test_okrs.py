"""Northstar OKRs: check-ins and roll-up, alignment levels, key result rules, quarters opening, closing and carry-over."""

from __future__ import annotations

from typing import Any

from compoworld import Episode
from compoworld.world.org import org_chart
from tests.services.helpers import ServiceTools

OK = ServiceTools("okrs")
WORLD = OK.world
ok, refused, every = OK.ok, OK.refused, OK.every
POP = WORLD.population


def quarter(ep: Episode, status: str, index: int = 0) -> dict[str, Any]:
    return every(ep, "list_periods", status=status)[index]


def objective(ep: Episode, period: dict[str, Any], title: str) -> dict[str, Any]:
    found = [o for o in every(ep, "list_objectives", period_id=period["id"]) if o["title"] == title]
    assert len(found) == 1, found
    return found[0]


def krs(ep: Episode, obj: dict[str, Any]) -> list[dict[str, Any]]:
    return every(ep, "list_key_results", objective_id=obj["id"])


def current(ep: Episode) -> dict[str, Any]:
    """The running quarter: active, and not yet ended."""
    return quarter(ep, "active", 1)


def test_seeded_teams_are_the_departments_and_closed_quarters_are_graded() -> None:
    ep = Episode(WORLD)
    chart = org_chart(POP.employees)
    users = {u["id"]: u for u in every(ep, "list_users")}
    assert {u["email"] for u in users.values()} == {p.email for p in POP.employees}
    for team in every(ep, "list_teams"):
        assert users[team["lead_id"]]["email"] == chart.heads[team["name"]].email
    assert [p["status"] for p in every(ep, "list_periods")] == ["closed", "active", "active", "planning"]
    for o in every(ep, "list_objectives", period_id=quarter(ep, "closed")["id"]):
        assert o["locked"] and o["final_score"] == round(o["progress"] / 100, 2)
    company = objective(ep, current(ep), "Grow recurring revenue")
    kids = every(ep, "list_objectives", parent_objective_id=company["id"])
    assert company["progress"] == round(sum(k["progress"] for k in kids) / len(kids), 1)


def test_a_check_in_moves_the_key_result_its_objective_and_the_aligned_parent(ep: Episode) -> None:
    q = current(ep)
    team = objective(ep, q, "Answer faster")
    first, second = krs(ep, team)
    assert (first["start_value"], first["target_value"]) == (8, 2)  # a decrease: hours down from 8 to 2
    done = ok(
        ep,
        "check_in",
        key_result_id=first["id"],
        author_id=first["owner_id"],
        value=5,
        confidence=8,
        note="New triage rota",
    )
    assert (done["previous_value"], done["value"]) == (first["current_value"], 5)
    kr = next(k for k in krs(ep, team) if k["id"] == first["id"])
    assert kr["progress"] == 50 and kr["confidence"] == 8
    after = objective(ep, q, "Answer faster")
    assert after["progress"] == round(
        (50 * first["weight"] + second["progress"] * second["weight"]) / (first["weight"] + second["weight"]), 1
    )
    assert after["health"] == "off_track"  # the second key result still reports confidence 3
    ok(ep, "check_in", key_result_id=second["id"], author_id=second["owner_id"], value=30, confidence=7)
    assert objective(ep, q, "Answer faster")["health"] == "on_track"
    parent = objective(ep, q, "Grow recurring revenue")
    kids = every(ep, "list_objectives", parent_objective_id=parent["id"])
    assert parent["progress"] == round(sum(k["progress"] for k in kids) / len(kids), 1)


def test_check_ins_need_an_active_quarter_an_owner_or_team_member_and_a_fitting_value(ep: Episode) -> None:
    q = current(ep)
    team = objective(ep, q, "Ship reliably")
    deploys, launch = krs(ep, team)
    member = next(u for u in every(ep, "list_users", team_id=team["team_id"]) if u["id"] != team["owner_id"])
    ok(ep, "check_in", key_result_id=deploys["id"], author_id=member["id"], value=12, confidence=6)
    outsider = next(u for u in every(ep, "list_users") if u["team_id"] != team["team_id"])
    refused(
        ep,
        "check_in",
        "rule_violation",
        "author_id",
        key_result_id=deploys["id"],
        author_id=outsider["id"],
        value=13,
        confidence=6,
    )
    refused(
        ep,
        "check_in",
        "rule_violation",
        "value",
        key_result_id=launch["id"],
        author_id=member["id"],
        value=2,
        confidence=6,
    )
    assert ok(ep, "check_in", key_result_id=launch["id"], author_id=member["id"], value=1, confidence=9)["value"] == 1
    planned = objective(ep, quarter(ep, "planning"), "Ship reliably")
    later = krs(ep, planned)[0]
    msg = refused(
        ep,
        "check_in",
        "rule_violation",
        "key_result_id",
        key_result_id=later["id"],
        author_id=later["owner_id"],
        value=6,
        confidence=5,
    )
    assert "not started" in msg
    closed = objective(ep, quarter(ep, "closed"), "Ship reliably")
    old = krs(ep, closed)[0]
    refused(
        ep,
        "check_in",
        "rule_violation",
        "key_result_id",
        key_result_id=old["id"],
        author_id=old["owner_id"],
        value=6,
        confidence=5,
    )


def test_objectives_align_upwards_within_their_quarter(ep: Episode) -> None:
    q = current(ep)
    company = objective(ep, q, "Delight customers")
    team_obj = objective(ep, q, "Answer faster")
    personal = objective(ep, q, "Cut the ticket backlog")
    user = personal["owner_id"]
    team = every(ep, "list_teams")[0]
    refused(
        ep,
        "create_objective",
        "rule_violation",
        "parent_objective_id",
        period_id=q["id"],
        level="team",
        title="Team on team",
        team_id=team["id"],
        parent_objective_id=team_obj["id"],
    )
    refused(
        ep,
        "create_objective",
        "rule_violation",
        "parent_objective_id",
        period_id=q["id"],
        level="personal",
        title="Me on me",
        owner_id=user,
        parent_objective_id=personal["id"],
    )
    refused(
        ep,
        "create_objective",
        "rule_violation",
        "parent_objective_id",
        period_id=q["id"],
        level="company",
        title="Aligned company",
        owner_id=user,
        parent_objective_id=company["id"],
    )
    other_q = objective(ep, quarter(ep, "planning"), "Delight customers")
    refused(
        ep,
        "create_objective",
        "rule_violation",
        "parent_objective_id",
        period_id=q["id"],
        level="team",
        title="Cross quarter",
        team_id=team["id"],
        parent_objective_id=other_q["id"],
    )
    refused(ep, "create_objective", "rule_violation", "team_id", period_id=q["id"], level="team", title="No team")
    made = ok(
        ep,
        "create_objective",
        period_id=q["id"],
        level="team",
        title="Happier customers",
        team_id=team["id"],
        parent_objective_id=company["id"],
    )
    assert made["owner_id"] == team["lead_id"] and made["progress"] == 0
    refused(
        ep,
        "update_objective",
        "rule_violation",
        "parent_objective_id",
        objective_id=personal["id"],
        parent_objective_id=other_q["id"],
    )
    moved = ok(ep, "update_objective", objective_id=personal["id"], parent_objective_id=company["id"])
    assert moved["parent_objective_id"] == company["id"]
    refused(
        ep,
        "create_objective",
        "rule_violation",
        "period_id",
        period_id=quarter(ep, "closed")["id"],
        level="personal",
        title="Too late",
        owner_id=user,
    )


def test_key_results_must_measure_something_and_stay_few(ep: Episode) -> None:
    q = current(ep)
    obj = objective(ep, q, "Close five enterprise deals")
    owner = obj["owner_id"]
    base = {"objective_id": obj["id"], "owner_id": owner}
    refused(
        ep, "create_key_result", "rule_violation", "target_value", title="Flat", start_value=3, target_value=3, **base
    )
    refused(
        ep,
        "create_key_result",
        "rule_violation",
        "target_value",
        title="Bad milestone",
        kind="milestone",
        target_value=5,
        **base,
    )
    refused(
        ep,
        "create_key_result",
        "rule_violation",
        "target_value",
        title="Bad percent",
        kind="percent",
        target_value=150,
        **base,
    )
    before = objective(ep, q, "Close five enterprise deals")["progress"]
    made = ok(ep, "create_key_result", title="Renewals signed", start_value=10, target_value=20, weight=3, **base)
    assert made["current_value"] == 10 and made["progress"] == 0
    assert objective(ep, q, "Close five enterprise deals")["progress"] < before
    for n in range(3):
        ok(ep, "create_key_result", title=f"Extra {n}", target_value=5, **base)
    msg = refused(ep, "create_key_result", "rule_violation", "objective_id", title="Sixth", target_value=5, **base)
    assert "5 key results" in msg
    rollup = objective(ep, q, "Grow recurring revenue")
    refused(
        ep,
        "create_key_result",
        "rule_violation",
        "objective_id",
        objective_id=rollup["id"],
        owner_id=owner,
        title="Direct",
        target_value=5,
    )
    locked = objective(ep, quarter(ep, "closed"), "Delight customers")
    refused(
        ep,
        "create_key_result",
        "rule_violation",
        "objective_id",
        objective_id=locked["id"],
        owner_id=owner,
        title="Late",
        target_value=5,
    )


def test_a_quarter_starts_only_with_a_company_objective(ep: Episode) -> None:
    planned = quarter(ep, "planning")
    objs = every(ep, "list_objectives", period_id=planned["id"])
    company = [o for o in objs if o["level"] == "company"]
    refused(
        ep,
        "delete_objective",
        "rule_violation",
        "objective_id",
        objective_id=next(o for o in company if every(ep, "list_objectives", parent_objective_id=o["id"]))["id"],
    )
    for o in [o for o in objs if o["level"] != "company"] + company:
        ok(ep, "delete_objective", objective_id=o["id"])
    gone = {o["id"] for o in objs}
    assert not [k for k in every(ep, "list_key_results") if k["objective_id"] in gone]
    assert not [c for c in every(ep, "list_check_ins") if c["objective_id"] in gone]
    refused(ep, "activate_period", "rule_violation", "period_id", period_id=planned["id"])
    ok(
        ep,
        "create_objective",
        period_id=planned["id"],
        level="company",
        title="Expand to Asia",
        owner_id=every(ep, "list_users")[0]["id"],
    )
    assert ok(ep, "activate_period", period_id=planned["id"])["status"] == "active"


def test_closing_an_ended_quarter_grades_and_locks_it(ep: Episode) -> None:
    running = current(ep)
    msg = refused(ep, "close_period", "rule_violation", "period_id", period_id=running["id"])
    assert running["end_date"] in msg
    ended = quarter(ep, "active", 0)
    closing = ok(ep, "close_period", period_id=ended["id"])
    assert closing["period"]["status"] == "closed" and closing["graded"]
    for o in closing["graded"]:
        assert o["locked"] and o["final_score"] == round(o["progress"] / 100, 2)
    scores = [o["final_score"] for o in closing["graded"]]
    assert closing["average_score"] == round(sum(scores) / len(scores), 2)
    refused(ep, "close_period", "rule_violation", "period_id", period_id=ended["id"])
    obj = closing["graded"][1]
    kr = every(ep, "list_key_results", objective_id=obj["id"])[0]
    refused(
        ep,
        "check_in",
        "rule_violation",
        "key_result_id",
        key_result_id=kr["id"],
        author_id=kr["owner_id"],
        value=1,
        confidence=5,
    )
    refused(ep, "update_objective", "rule_violation", "objective_id", objective_id=obj["id"], title="Renamed")
    refused(ep, "delete_objective", "rule_violation", "objective_id", objective_id=obj["id"])


def test_unfinished_objectives_carry_over_with_key_results_starting_where_they_stand(ep: Episode) -> None:
    closed = quarter(ep, "closed")
    planned = quarter(ep, "planning")
    source = objective(ep, closed, "Open the DACH market")
    assert source["progress"] < 100
    copy = ok(ep, "carry_over_objective", objective_id=source["id"], period_id=planned["id"])
    assert (
        copy["carried_from_id"] == source["id"]
        and copy["parent_objective_id"] is None
        and copy["period_id"] == planned["id"]
    )
    old = {k["title"]: k for k in krs(ep, source)}
    new = krs(ep, copy)
    assert new and all(old[k["title"]]["progress"] < 100 for k in new)
    for k in new:
        if k["kind"] == "numeric":
            assert k["start_value"] == k["current_value"] == old[k["title"]]["current_value"]
    refused(
        ep, "carry_over_objective", "rule_violation", "objective_id", objective_id=source["id"], period_id=planned["id"]
    )
    refused(
        ep,
        "carry_over_objective",
        "rule_violation",
        "period_id",
        objective_id=objective(ep, planned, "Ship reliably")["id"],
        period_id=current(ep)["id"],
    )
    q = current(ep)
    kr = krs(ep, objective(ep, q, "Cut the ticket backlog"))[0]
    ok(ep, "check_in", key_result_id=kr["id"], author_id=kr["owner_id"], value=kr["target_value"], confidence=10)
    done = objective(ep, q, "Cut the ticket backlog")
    assert done["progress"] == 100
    refused(
        ep, "carry_over_objective", "rule_violation", "objective_id", objective_id=done["id"], period_id=planned["id"]
    )


def test_the_period_report_flags_risk_and_objectives_without_check_ins(ep: Episode) -> None:
    q = current(ep)
    report = ok(ep, "period_report", period_id=q["id"])
    assert {lvl["level"] for lvl in report["levels"]} == {"company", "team", "personal"}
    risky = [o["title"] for o in report["at_risk"]]
    assert "Answer faster" in risky and report["not_started"] == []
    progress = [o["progress"] for o in report["at_risk"]]
    assert progress == sorted(progress)
    planned = ok(ep, "period_report", period_id=quarter(ep, "planning")["id"])
    assert planned["at_risk"] == [] and len(planned["not_started"]) == len(
        every(ep, "list_objectives", period_id=quarter(ep, "planning")["id"])
    )
