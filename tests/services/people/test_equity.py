"""Ledgerline Equity: 409A pricing, the option pool, board consents, vesting cliffs, exercises, the cap table."""

from __future__ import annotations

import datetime as dt
from typing import Any

from compoworld import Episode
from tests.services.helpers import ServiceTools

EQ = ServiceTools("equity")
WORLD = EQ.world
ok, refused, every = EQ.ok, EQ.refused, EQ.every
POP = WORLD.population
TODAY = WORLD.epoch.date()
STAFF = {p.email for p in POP.employees}
LEGAL = POP.employees[0].email


def employee(ep: Episode) -> dict[str, Any]:
    return every(ep, "list_stakeholders", relationship="employee")[0]


def fmv(ep: Episode) -> int:
    vals = every(ep, "list_valuations", status="final")
    live = [v for v in vals if v["effective_date"] <= TODAY.isoformat() <= v["expires_on"]]
    return int(max(live, key=lambda v: v["effective_date"])["fmv_cents"])


def draft(ep: Episode, **over: Any) -> dict[str, Any]:
    args = {
        "stakeholder_id": employee(ep)["id"],
        "grant_type": "iso",
        "quantity": 5000,
        "exercise_price_cents": fmv(ep),
        "vesting_start": TODAY.isoformat(),
    }
    return dict(ok(ep, "draft_grant", **(args | over)))


def test_seeded_cap_table_is_consistent_with_the_people_of_the_world(ep: Episode) -> None:
    for s in every(ep, "list_stakeholders"):
        if s["relationship"] in ("founder", "employee"):
            assert s["email"] in STAFF
        if s["relationship"] == "investor":
            assert s["entity_name"] and s["preferred_shares"] > 0
    common = every(ep, "list_share_classes", kind="common")[0]
    live = [
        g for g in every(ep, "list_grants") if g["status"] in ("draft", "pending_approval", "outstanding", "exercised")
    ]
    assert common["pool_granted"] == sum(g["quantity"] for g in live)
    held = sum(s["common_shares"] for s in every(ep, "list_stakeholders"))
    assert common["issued_shares"] == held
    table = ok(ep, "cap_table")
    assert table["fully_diluted_shares"] == sum(r["shares"] for r in table["rows"])
    assert table["current_fmv_cents"] == fmv(ep)


def test_options_cannot_be_priced_below_the_current_409a(ep: Episode) -> None:
    value = fmv(ep)
    sh = employee(ep)["id"]
    base = {"stakeholder_id": sh, "grant_type": "iso", "quantity": 1000, "vesting_start": TODAY.isoformat()}
    refused(ep, "draft_grant", "rule_violation", "exercise_price_cents", exercise_price_cents=value - 1, **base)
    refused(
        ep,
        "draft_grant",
        "rule_violation",
        "exercise_price_cents",
        **(base | {"grant_type": "rsu"}),
        exercise_price_cents=5,
    )
    refused(
        ep,
        "draft_grant",
        "rule_violation",
        "cliff_months",
        exercise_price_cents=value,
        cliff_months=13,
        vesting_months=12,
        **base,
    )
    g = ok(ep, "draft_grant", exercise_price_cents=value, **base)
    assert (g["status"], g["exercise_price_cents"]) == ("draft", value)


def test_isos_go_to_employees_only(ep: Episode) -> None:
    investor = every(ep, "list_stakeholders", relationship="investor")[0]
    args = {
        "stakeholder_id": investor["id"],
        "quantity": 1000,
        "exercise_price_cents": fmv(ep),
        "vesting_start": TODAY.isoformat(),
    }
    refused(ep, "draft_grant", "rule_violation", "grant_type", grant_type="iso", **args)
    assert ok(ep, "draft_grant", grant_type="nso", **args)["grant_type"] == "nso"


def test_grants_must_fit_the_option_pool_and_cancelling_returns_shares(ep: Episode) -> None:
    common = every(ep, "list_share_classes", kind="common")[0]
    free = common["pool_reserved"] - common["pool_granted"]
    refused(ep, "draft_grant", "rule_violation", "quantity", **_args(ep, quantity=free + 1))
    g = draft(ep, quantity=free)
    assert ok(ep, "get_share_class", share_class_id=common["id"])["pool_granted"] == common["pool_reserved"]
    refused(ep, "draft_grant", "rule_violation", "quantity", **_args(ep, quantity=1))
    assert ok(ep, "cancel_grant", grant_id=g["id"])["status"] == "cancelled"
    assert ok(ep, "get_share_class", share_class_id=common["id"])["pool_granted"] == common["pool_granted"]
    refused(ep, "cancel_grant", "conflict", "grant_id", grant_id=g["id"])


def _args(ep: Episode, **over: Any) -> dict[str, Any]:
    base = {
        "stakeholder_id": employee(ep)["id"],
        "grant_type": "iso",
        "quantity": 5000,
        "exercise_price_cents": fmv(ep),
        "vesting_start": TODAY.isoformat(),
    }
    return base | over


def test_a_board_consent_makes_drafts_outstanding_for_ten_years(ep: Episode) -> None:
    g = draft(ep)
    refused(
        ep,
        "request_board_approval",
        "rule_violation",
        "prepared_by",
        title="X",
        grant_ids=[g["id"]],
        prepared_by="a@b.io",
    )
    refused(
        ep,
        "request_board_approval",
        "rule_violation",
        "grant_ids",
        title="X",
        grant_ids=[g["id"], g["id"]],
        prepared_by=LEGAL,
    )
    out = every(ep, "list_grants", status="outstanding")[0]
    refused(ep, "request_board_approval", "conflict", "grant_ids", title="X", grant_ids=[out["id"]], prepared_by=LEGAL)
    consent = ok(ep, "request_board_approval", title="New hire grants", grant_ids=[g["id"]], prepared_by=LEGAL)
    pending = ok(ep, "get_grant", grant_id=g["id"])
    assert (pending["status"], pending["consent_id"]) == ("pending_approval", consent["id"])
    refused(ep, "update_grant", "rule_violation", "grant_id", grant_id=g["id"], quantity=10)
    assert ok(ep, "approve_consent", consent_id=consent["id"])["status"] == "approved"
    done = ok(ep, "get_grant", grant_id=g["id"])
    assert (done["status"], done["granted_on"]) == ("outstanding", TODAY.isoformat())
    assert done["expires_on"] == TODAY.replace(year=TODAY.year + 10).isoformat()
    refused(ep, "approve_consent", "conflict", "consent_id", consent_id=consent["id"])


def test_a_rejected_consent_sends_its_grants_back_to_draft(ep: Episode) -> None:
    consent = every(ep, "list_consents", status="pending")[0]
    refused(ep, "reject_consent", "rule_violation", "note", consent_id=consent["id"], note=" ")
    assert ok(ep, "reject_consent", consent_id=consent["id"], note="Wait for the new 409A")["status"] == "rejected"
    for gid in consent["grant_ids"]:
        g = ok(ep, "get_grant", grant_id=gid)
        assert (g["status"], g["consent_id"]) == ("draft", None)
    assert ok(ep, "update_grant", grant_id=consent["grant_ids"][0], quantity=7)["quantity"] == 7


def test_nothing_vests_before_the_cliff_then_monthly(ep: Episode) -> None:
    before = draft(ep, vesting_start=(TODAY - dt.timedelta(days=300)).isoformat(), quantity=4800)
    after = draft(ep, vesting_start=(TODAY - dt.timedelta(days=500)).isoformat(), quantity=4800)
    c = ok(ep, "request_board_approval", title="T", grant_ids=[before["id"], after["id"]], prepared_by=LEGAL)
    ok(ep, "approve_consent", consent_id=c["id"])
    early = ok(ep, "vesting_schedule", grant_id=before["id"])
    assert early["vested"] == 0 and early["events"][0]["shares"] == 1200
    late = ok(ep, "vesting_schedule", grant_id=after["id"])
    assert late["vested"] == 1600 and late["exercisable"] == 1600
    assert late["events"][-1]["cumulative"] == 4800
    refused(ep, "exercise_options", "rule_violation", "quantity", grant_id=before["id"], quantity=1)


def test_exercising_takes_vested_options_and_issues_common_shares(ep: Episode) -> None:
    g = every(ep, "list_grants", status="outstanding", grant_type="iso")[0]
    sched = ok(ep, "vesting_schedule", grant_id=g["id"])
    requested = sum(e["quantity"] for e in every(ep, "list_exercises", grant_id=g["id"], status="requested"))
    free = sched["exercisable"] - requested
    refused(ep, "exercise_options", "rule_violation", "quantity", grant_id=g["id"], quantity=free + 1)
    ex = ok(ep, "exercise_options", grant_id=g["id"], quantity=free)
    assert ex["cost_cents"] == free * g["exercise_price_cents"]
    holder = ok(ep, "get_stakeholder", stakeholder_id=g["stakeholder_id"])
    common = every(ep, "list_share_classes", kind="common")[0]
    done = ok(ep, "complete_exercise", exercise_id=ex["id"])
    assert done["status"] == "completed"
    assert ok(ep, "get_grant", grant_id=g["id"])["exercised_shares"] == free
    assert ok(ep, "get_stakeholder", stakeholder_id=holder["id"])["common_shares"] == holder["common_shares"] + free
    assert ok(ep, "get_share_class", share_class_id=common["id"])["issued_shares"] == common["issued_shares"] + free
    refused(ep, "complete_exercise", "conflict", "exercise_id", exercise_id=ex["id"])
    rsu = every(ep, "list_grants", grant_type="rsu")[0]
    refused(ep, "exercise_options", "rule_violation", "grant_id", grant_id=rsu["id"], quantity=1)


def test_a_grant_with_an_exercise_in_progress_cannot_be_cancelled(ep: Episode) -> None:
    ex = every(ep, "list_exercises", status="requested")[0]
    refused(ep, "cancel_grant", "conflict", "grant_id", grant_id=ex["grant_id"])
    assert ok(ep, "cancel_exercise", exercise_id=ex["id"])["status"] == "cancelled"
    assert ok(ep, "cancel_grant", grant_id=ex["grant_id"])["status"] == "cancelled"


def test_a_409a_is_final_once_and_lapses_after_twelve_months(ep: Episode) -> None:
    refused(
        ep,
        "record_valuation",
        "rule_violation",
        "effective_date",
        effective_date=(TODAY + dt.timedelta(days=1)).isoformat(),
        fmv_cents=100,
        provider="Scalar",
    )
    refused(
        ep,
        "record_valuation",
        "rule_violation",
        "fmv_cents",
        effective_date=TODAY.isoformat(),
        fmv_cents=0,
        provider="Scalar",
    )
    stale = ok(
        ep,
        "record_valuation",
        effective_date=(TODAY - dt.timedelta(days=400)).isoformat(),
        fmv_cents=50,
        provider="Old",
    )
    refused(ep, "finalize_valuation", "rule_violation", "valuation_id", valuation_id=stale["id"])
    v = ok(ep, "record_valuation", effective_date=TODAY.isoformat(), fmv_cents=140, provider="Scalar")
    assert v["expires_on"] == (TODAY.replace(year=TODAY.year + 1) - dt.timedelta(days=1)).isoformat()
    ok(ep, "finalize_valuation", valuation_id=v["id"])
    refused(ep, "finalize_valuation", "conflict", "valuation_id", valuation_id=v["id"])
    assert fmv(ep) == 140 and ok(ep, "cap_table")["current_fmv_cents"] == 140
    refused(ep, "draft_grant", "rule_violation", "exercise_price_cents", **_args(ep, exercise_price_cents=139))
    pending = every(ep, "list_consents", status="pending")[0]
    refused(ep, "approve_consent", "rule_violation", "consent_id", consent_id=pending["id"])


def test_stakeholders_are_unique_by_email_and_employees_must_work_here(ep: Episode) -> None:
    known = every(ep, "list_stakeholders")[0]
    refused(ep, "add_stakeholder", "conflict", "email", name="Dup", email=known["email"], relationship="advisor")
    refused(
        ep, "add_stakeholder", "rule_violation", "email", name="Out", email="x@elsewhere.io", relationship="employee"
    )
    refused(
        ep, "add_stakeholder", "rule_violation", "entity_name", name="VC", email="vc@fund.io", relationship="investor"
    )
    made = ok(ep, "add_stakeholder", name="VC", email="vc@fund.io", relationship="investor", entity_name="North Fund")
    assert (made["common_shares"], made["preferred_shares"]) == (0, 0)
