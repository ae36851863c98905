"""Bulwark Claims: policy periods, coverage fit, reserves, payment authority and claim closure."""

from __future__ import annotations

from typing import Any

from compoworld import Episode
from tests.services.helpers import ServiceTools

INS = ServiceTools("insurance")
WORLD = INS.world
ok, refused, every = INS.ok, INS.refused, INS.every
POP = WORLD.population


def policy(ep: Episode, product: str, status: str = "in_force") -> dict[str, Any]:
    return every(ep, "list_policies", product=product, status=status)[0]


def new_claim(ep: Episode, product: str = "homeowners", cause: str = "water_damage") -> dict[str, Any]:
    pol = policy(ep, product)
    return dict(
        ok(
            ep,
            "open_claim",
            policy_number=pol["policy_number"],
            loss_date="2026-02-27",
            loss_cause=cause,
            description="Burst pipe under the sink.",
            claimant_name=pol["insured_name"],
            claimant_email=pol["insured_email"],
        )
    )


def coverage(ep: Episode, claim: dict[str, Any], type_: str) -> dict[str, Any]:
    return every(ep, "list_coverages", policy_id=claim["policy_id"], type=type_)[0]


def adjuster(ep: Episode, **filters: Any) -> dict[str, Any]:
    return next(a for a in every(ep, "list_adjusters", active=True) if all(a[k] == v for k, v in filters.items()))


def workable(ep: Episode, reserve: int = 2_000_00) -> tuple[dict[str, Any], dict[str, Any]]:
    """A fresh claim assigned to the adjuster with most authority, with an exposure reserved."""
    claim = new_claim(ep)
    adj = max(every(ep, "list_adjusters", active=True), key=lambda a: a["authority_limit"])
    ok(ep, "assign_claim", claim_id=claim["id"], adjuster_id=adj["id"])
    exp = ok(
        ep, "add_exposure", claim_id=claim["id"], coverage_id=coverage(ep, claim, "dwelling")["id"], reserve=reserve
    )
    return claim, exp


def test_insureds_come_from_the_population_and_adjusters_from_the_staff() -> None:
    ep = Episode(WORLD)
    people = {p.email: p for p in POP.people}
    for pol in every(ep, "list_policies"):
        person = people[pol["insured_email"]]
        assert pol["insured_name"] == person.name
        company = POP.company_of(person)
        assert pol["insured_company"] == (
            company.name if pol["product"] in ("commercial_property", "general_liability") else None
        )
    staff = {p.email for p in POP.employees}
    assert {a["email"] for a in every(ep, "list_adjusters")} <= staff


def test_seeded_reserves_and_payments_respect_limits_and_authority() -> None:
    ep = Episode(WORLD)
    pays = every(ep, "list_claim_payments", status="issued")
    adjusters = {a["id"]: a for a in every(ep, "list_adjusters")}
    covs = {c["id"]: c for c in every(ep, "list_coverages")}
    for exp in every(ep, "list_exposures"):
        cov = covs[exp["coverage_id"]]
        assert exp["paid"] == sum(p["amount"] for p in pays if p["exposure_id"] == exp["id"])
        assert exp["paid"] + exp["reserve"] <= cov["limit"] - cov["deductible"]
    for p in pays:
        assert p["amount"] <= adjusters[p["issued_by"]]["authority_limit"]
    for claim in every(ep, "list_claims", status="closed"):
        assert all(e["status"] == "closed" for e in every(ep, "list_exposures", claim_id=claim["id"]))


def test_a_claim_is_opened_only_for_a_loss_the_policy_covered(ep: Episode) -> None:
    pol = policy(ep, "personal_auto")
    base = {
        "policy_number": pol["policy_number"],
        "loss_cause": "collision",
        "description": "Hit a post.",
        "claimant_name": pol["insured_name"],
        "claimant_email": pol["insured_email"],
    }
    refused(
        ep, "open_claim", "not_found", "policy_number", **{**base, "policy_number": "PA-999999"}, loss_date="2026-02-27"
    )
    refused(ep, "open_claim", "rule_violation", "loss_date", **base, loss_date="2026-03-05")
    refused(ep, "open_claim", "rule_violation", "loss_date", **base, loss_date="2020-01-01")
    cancelled = every(ep, "list_policies", status="cancelled")[0]
    refused(
        ep,
        "open_claim",
        "rule_violation",
        "loss_date",
        **{**base, "policy_number": cancelled["policy_number"]},
        loss_date="2026-02-27",
    )
    claim = ok(ep, "open_claim", **base, loss_date="2026-02-27")
    assert (claim["status"], claim["adjuster_id"], claim["loss_location"]) == ("open", None, pol["risk_address"])
    assert claim["claim_number"].startswith("CLM-")


def test_adjusters_take_claims_up_to_their_capacity(ep: Episode) -> None:
    claim = new_claim(ep)
    inactive = every(ep, "list_adjusters", active=False)[0]
    refused(ep, "assign_claim", "rule_violation", "adjuster_id", claim_id=claim["id"], adjuster_id=inactive["id"])
    adj = adjuster(ep)
    held = len(every(ep, "list_claims", adjuster_id=adj["id"], status="open"))
    ok(ep, "update_adjuster", adjuster_id=adj["id"], max_open_claims=held)
    refused(ep, "assign_claim", "rule_violation", "adjuster_id", claim_id=claim["id"], adjuster_id=adj["id"])
    ok(ep, "update_adjuster", adjuster_id=adj["id"], max_open_claims=held + 1)
    assert ok(ep, "assign_claim", claim_id=claim["id"], adjuster_id=adj["id"])["adjuster_id"] == adj["id"]
    refused(ep, "update_adjuster", "rule_violation", "active", adjuster_id=adj["id"], active=False)


def test_an_exposure_needs_a_fitting_coverage_of_the_policy_once(ep: Episode) -> None:
    claim = new_claim(ep)
    elsewhere = every(ep, "list_coverages", type="collision")[0]
    refused(ep, "add_exposure", "rule_violation", "coverage_id", claim_id=claim["id"], coverage_id=elsewhere["id"])
    dwelling = coverage(ep, claim, "dwelling")
    room = dwelling["limit"] - dwelling["deductible"]
    refused(
        ep,
        "add_exposure",
        "rule_violation",
        "reserve",
        claim_id=claim["id"],
        coverage_id=dwelling["id"],
        reserve=room + 1,
    )
    ok(ep, "add_exposure", claim_id=claim["id"], coverage_id=dwelling["id"], reserve=room)
    refused(ep, "add_exposure", "conflict", "coverage_id", claim_id=claim["id"], coverage_id=dwelling["id"])
    theft = new_claim(ep, cause="theft")
    refused(
        ep,
        "add_exposure",
        "rule_violation",
        "coverage_id",
        claim_id=theft["id"],
        coverage_id=coverage(ep, theft, "loss_of_use")["id"],
    )


def test_payments_draw_down_the_reserve_within_authority(ep: Episode) -> None:
    claim, exp = workable(ep, reserve=3_000_00)
    base = {"exposure_id": exp["id"], "payee_person": claim["claimant_name"], "payee_email": claim["claimant_email"]}
    refused(ep, "issue_payment", "rule_violation", "amount", **base, amount=3_000_01)
    refused(ep, "issue_payment", "rule_violation", "payee_person", exposure_id=exp["id"], amount=100_00)
    pay = ok(ep, "issue_payment", **base, amount=1_000_00)
    assert pay["issued_by"] == ok(ep, "get_claim", claim_id=claim["id"])["adjuster_id"]
    after = ok(ep, "get_exposure", exposure_id=exp["id"])
    assert (after["reserve"], after["paid"]) == (2_000_00, 1_000_00)
    final = ok(ep, "issue_payment", **base, amount=500_00, final=True)
    closed = ok(ep, "get_exposure", exposure_id=exp["id"])
    assert (final["payment_type"], closed["status"], closed["reserve"], closed["paid"]) == (
        "final",
        "closed",
        0,
        1_500_00,
    )
    refused(ep, "issue_payment", "rule_violation", "exposure_id", **base, amount=100)


def test_a_payment_above_the_adjusters_authority_is_refused(ep: Episode) -> None:
    claim = new_claim(ep)
    low = min(every(ep, "list_adjusters", active=True), key=lambda a: a["authority_limit"])
    ok(ep, "update_adjuster", adjuster_id=low["id"], max_open_claims=100)
    ok(ep, "assign_claim", claim_id=claim["id"], adjuster_id=low["id"])
    exp = ok(
        ep,
        "add_exposure",
        claim_id=claim["id"],
        coverage_id=coverage(ep, claim, "dwelling")["id"],
        reserve=low["authority_limit"] * 2,
    )
    msg = refused(
        ep,
        "issue_payment",
        "rule_violation",
        "amount",
        exposure_id=exp["id"],
        amount=low["authority_limit"] + 1,
        payee_company="Allied Restoration",
    )
    assert "authority" in msg
    unassigned = new_claim(ep, cause="fire")
    exp2 = ok(
        ep,
        "add_exposure",
        claim_id=unassigned["id"],
        coverage_id=coverage(ep, unassigned, "dwelling")["id"],
        reserve=500_00,
    )
    refused(
        ep,
        "issue_payment",
        "rule_violation",
        "exposure_id",
        exposure_id=exp2["id"],
        amount=100_00,
        payee_company="Allied Restoration",
    )


def test_reserves_never_exceed_what_the_coverage_can_still_pay(ep: Episode) -> None:
    claim, exp = workable(ep)
    ok(ep, "issue_payment", exposure_id=exp["id"], amount=1_500_00, payee_person=claim["claimant_name"])
    cov = coverage(ep, claim, "dwelling")
    room = cov["limit"] - cov["deductible"] - 1_500_00
    refused(ep, "set_reserve", "rule_violation", "reserve", exposure_id=exp["id"], reserve=room + 1)
    assert ok(ep, "set_reserve", exposure_id=exp["id"], reserve=room)["reserve"] == room
    fin = ok(ep, "claim_financials", claim_id=claim["id"])
    assert (fin["total_paid"], fin["total_reserve"], fin["total_incurred"]) == (1_500_00, room, 1_500_00 + room)
    assert fin["exposures"][0]["remaining"] == room


def test_voiding_a_payment_restores_the_reserve_and_reopens_the_exposure(ep: Episode) -> None:
    claim, exp = workable(ep, reserve=800_00)
    pay = ok(ep, "issue_payment", exposure_id=exp["id"], amount=800_00, payee_person=claim["claimant_name"], final=True)
    refused(ep, "void_payment", "rule_violation", "reason", claim_payment_id=pay["id"], reason="")
    ok(ep, "void_payment", claim_payment_id=pay["id"], reason="Wrong bank details")
    back = ok(ep, "get_exposure", exposure_id=exp["id"])
    assert (back["status"], back["reserve"], back["paid"]) == ("open", 800_00, 0)
    refused(ep, "void_payment", "rule_violation", "claim_payment_id", claim_payment_id=pay["id"], reason="Again")


def test_a_claim_closes_when_nothing_is_open_and_can_be_reopened(ep: Episode) -> None:
    claim, exp = workable(ep)
    refused(ep, "close_claim", "rule_violation", "claim_id", claim_id=claim["id"], reason="Settled")
    ok(ep, "close_exposure", exposure_id=exp["id"])
    closed = ok(ep, "close_claim", claim_id=claim["id"], reason="Settled")
    assert closed["status"] == "closed"
    refused(ep, "update_claim", "rule_violation", "claim_id", claim_id=claim["id"], description="More")
    refused(
        ep,
        "add_exposure",
        "rule_violation",
        "claim_id",
        claim_id=claim["id"],
        coverage_id=coverage(ep, claim, "personal_property")["id"],
    )
    again = ok(ep, "reopen_claim", claim_id=claim["id"], reason="Mould found later")
    assert again["status"] == "open" and "Mould" in again["description"]
    refused(ep, "reopen_claim", "rule_violation", "claim_id", claim_id=claim["id"], reason="Twice")
