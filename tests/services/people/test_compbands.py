"""Payscale Planner: bands, band fit, merit cycles, raises within band and budget, approvals, closing a cycle."""

from __future__ import annotations

from typing import Any

from compoworld import Episode
from tests.services.helpers import ServiceTools

PAY = ServiceTools("compbands")
WORLD = PAY.world
ok, refused, every = PAY.ok, PAY.refused, PAY.every
POP = WORLD.population
STAFF = {p.email for p in POP.employees}
LEAD = POP.employees[-1].email


def active(ep: Episode) -> dict[str, Any]:
    return every(ep, "list_cycles", status="active")[0]


def band_of(ep: Episode, p: dict[str, Any]) -> dict[str, Any]:
    found = every(ep, "list_bands", level_id=p["level_id"], family=p["family"], country=p["country"])
    assert len(found) == 1
    return found[0]


def free_placement(ep: Episode, cycle_id: str) -> dict[str, Any]:
    taken = {
        x["placement_id"]
        for x in every(ep, "list_proposals", cycle_id=cycle_id)
        if x["status"] in ("draft", "submitted", "approved")
    }
    return next(p for p in every(ep, "list_placements") if p["id"] not in taken and p["manager_email"])


def test_every_employee_is_placed_inside_a_band_of_their_country(ep: Episode) -> None:
    placed = every(ep, "list_placements")
    assert {p["employee_email"] for p in placed} == STAFF
    for p in placed:
        b = band_of(ep, p)
        assert b["currency"] == p["currency"]
        fit = ok(ep, "band_fit", placement_id=p["id"])
        assert fit["band_id"] == b["id"] and not fit["below_min"] and not fit["above_max"]
        assert fit["compa_ratio"] == round(p["base_salary_cents"] / b["mid_cents"], 3)
        assert p["manager_email"] is None or p["manager_email"] in STAFF


def test_bands_need_an_ordered_range_and_are_unique_per_level_family_country(ep: Episode) -> None:
    b = every(ep, "list_bands")[0]
    triple = {"level_id": b["level_id"], "family": b["family"], "country": b["country"], "currency": b["currency"]}
    refused(ep, "define_band", "conflict", "level_id", min_cents=1, mid_cents=2, max_cents=3, **triple)
    new = triple | {"family": "Legal"}
    refused(ep, "define_band", "rule_violation", "mid_cents", min_cents=5, mid_cents=4, max_cents=9, **new)
    refused(ep, "define_band", "rule_violation", "mid_cents", min_cents=5, mid_cents=5, max_cents=5, **new)
    assert ok(ep, "define_band", min_cents=5, mid_cents=6, max_cents=9, **new)["family"] == "Legal"
    refused(ep, "update_band", "rule_violation", "mid_cents", band_id=b["id"], mid_cents=b["max_cents"] + 1)


def test_levels_have_unique_codes_and_held_levels_cannot_be_deleted(ep: Episode) -> None:
    lvl = every(ep, "list_levels")[0]
    refused(ep, "add_level", "conflict", "code", code=lvl["code"], name="Again", track="manager", rank=9)
    refused(ep, "delete_level", "rule_violation", "level_id", level_id=lvl["id"])
    made = ok(ep, "add_level", code="P9", name="Fellow", track="individual_contributor", rank=12)
    ok(
        ep,
        "define_band",
        level_id=made["id"],
        family="Legal",
        country="US",
        currency="USD",
        min_cents=1,
        mid_cents=2,
        max_cents=3,
    )
    ok(ep, "delete_level", level_id=made["id"])
    assert every(ep, "list_bands", family="Legal") == []


def test_a_raise_is_never_a_cut_nor_above_the_band_nor_self_proposed(ep: Episode) -> None:
    cyc = active(ep)
    p = free_placement(ep, cyc["id"])
    b = band_of(ep, p)
    base = {"cycle_id": cyc["id"], "placement_id": p["id"], "proposed_by": p["manager_email"]}
    cur = p["base_salary_cents"]
    refused(ep, "propose_raise", "rule_violation", "proposed_salary_cents", proposed_salary_cents=cur, **base)
    over = b["max_cents"] + 1
    refused(ep, "propose_raise", "rule_violation", "proposed_salary_cents", proposed_salary_cents=over, **base)
    own = base | {"proposed_by": p["employee_email"]}
    refused(ep, "propose_raise", "rule_violation", "proposed_by", proposed_salary_cents=cur + 100, **own)
    refused(
        ep,
        "propose_raise",
        "rule_violation",
        "proposed_by",
        proposed_salary_cents=cur + 100,
        **(base | {"proposed_by": "x@y.io"}),
    )
    prop = ok(ep, "propose_raise", proposed_salary_cents=b["max_cents"], **base)
    assert prop["increase_cents"] == b["max_cents"] - cur and prop["status"] == "draft"
    assert prop["increase_percent"] == round(100 * (b["max_cents"] - cur) / cur, 2)
    refused(ep, "propose_raise", "conflict", "placement_id", proposed_salary_cents=cur + 100, **base)


def test_raises_are_proposed_only_in_an_active_cycle(ep: Episode) -> None:
    for status in ("closed", "draft"):
        cyc = every(ep, "list_cycles", status=status)[0]
        p = free_placement(ep, cyc["id"])
        refused(
            ep,
            "propose_raise",
            "rule_violation",
            "cycle_id",
            cycle_id=cyc["id"],
            placement_id=p["id"],
            proposed_salary_cents=p["base_salary_cents"] + 100,
            proposed_by=p["manager_email"],
        )
    closed = every(ep, "list_cycles", status="closed")[0]
    refused(ep, "update_cycle", "rule_violation", "cycle_id", cycle_id=closed["id"], name="Renamed")
    refused(ep, "launch_cycle", "conflict", "cycle_id", cycle_id=closed["id"])


def test_submitted_raises_must_fit_the_remaining_budget(ep: Episode) -> None:
    cyc = active(ep)
    before = ok(ep, "cycle_budget", cycle_id=cyc["id"])
    assert before["remaining_cents"] == before["budget_cents"] - before["approved_cents"] - before["submitted_cents"]
    ok(ep, "update_cycle", cycle_id=cyc["id"], name="Renamed cycle")
    p = free_placement(ep, cyc["id"])
    b = band_of(ep, p)
    prop = ok(
        ep,
        "propose_raise",
        cycle_id=cyc["id"],
        placement_id=p["id"],
        proposed_by=p["manager_email"],
        proposed_salary_cents=b["max_cents"],
    )
    if prop["increase_cents"] > before["remaining_cents"]:
        refused(ep, "submit_proposal", "rule_violation", "proposal_id", proposal_id=prop["id"])
    else:
        ok(ep, "submit_proposal", proposal_id=prop["id"])
        after = ok(ep, "cycle_budget", cycle_id=cyc["id"])
        assert after["submitted_cents"] == before["submitted_cents"] + prop["increase_cents"]


def test_a_cycle_with_a_small_budget_refuses_a_large_raise(ep: Episode) -> None:
    draft = every(ep, "list_cycles", status="draft")[0]
    ok(ep, "update_cycle", cycle_id=draft["id"], budget_percent=0.01)
    cyc = ok(ep, "launch_cycle", cycle_id=draft["id"])
    assert cyc["status"] == "active" and cyc["eligible"] == len(STAFF)
    p = free_placement(ep, cyc["id"])
    b = band_of(ep, p)
    prop = ok(
        ep,
        "propose_raise",
        cycle_id=cyc["id"],
        placement_id=p["id"],
        proposed_by=p["manager_email"],
        proposed_salary_cents=b["max_cents"],
    )
    assert prop["increase_cents"] > cyc["budget_cents"]
    refused(ep, "submit_proposal", "rule_violation", "proposal_id", proposal_id=prop["id"])


def test_approvers_are_neither_the_employee_nor_the_proposer(ep: Episode) -> None:
    sub = every(ep, "list_proposals", status="submitted")[0]
    refused(
        ep,
        "approve_proposal",
        "rule_violation",
        "approver_email",
        proposal_id=sub["id"],
        approver_email=sub["proposed_by"],
    )
    refused(
        ep,
        "approve_proposal",
        "rule_violation",
        "approver_email",
        proposal_id=sub["id"],
        approver_email=sub["employee_email"],
    )
    who = next(e for e in sorted(STAFF) if e not in (sub["proposed_by"], sub["employee_email"]))
    assert ok(ep, "reject_proposal", proposal_id=sub["id"], approver_email=who)["status"] == "rejected"
    refused(ep, "approve_proposal", "conflict", "proposal_id", proposal_id=sub["id"], approver_email=who)


def test_closing_a_cycle_applies_approved_raises_and_withdraws_the_rest(ep: Episode) -> None:
    cyc = active(ep)
    props = every(ep, "list_proposals", cycle_id=cyc["id"])
    assert ok(ep, "close_cycle", cycle_id=cyc["id"])["status"] == "closed"
    for x in props:
        p = ok(ep, "get_placement", placement_id=x["placement_id"])
        after = ok(ep, "get_proposal", proposal_id=x["id"])
        if x["status"] == "approved":
            assert p["base_salary_cents"] == x["proposed_salary_cents"]
        else:
            assert p["base_salary_cents"] == x["current_salary_cents"]
            if x["status"] in ("draft", "submitted"):
                assert after["status"] == "withdrawn"
    assert {x["status"] for x in props} >= {"approved", "submitted", "draft"}
    refused(ep, "close_cycle", "conflict", "cycle_id", cycle_id=cyc["id"])
