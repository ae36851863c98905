"""County Tax Roll: exemptions lower taxable value, appeals hold certification, bills, installments and penalties."""

from __future__ import annotations

from typing import Any

from compoworld import Episode
from tests.services.helpers import ServiceTools

PT = ServiceTools("propertytax")
WORLD = PT.world
ok, refused, every, first = PT.ok, PT.refused, PT.every, PT.first
POP = WORLD.population
TODAY = WORLD.epoch.date()
YEAR = TODAY.year


def current(ep: Episode, parcel: dict[str, Any]) -> dict[str, Any]:
    return first(ep, "assessments", parcel_id=parcel["id"], tax_year=YEAR)


def quiet_parcel(ep: Episode, cls: str) -> dict[str, Any]:
    """A parcel of the class whose current assessment is preliminary with nothing open."""
    for p in every(ep, "list_parcels", property_class=cls):
        a = current(ep, p)
        busy = every(ep, "list_appeals", assessment_id=a["id"]) or every(
            ep, "list_exemptions", parcel_id=p["id"], tax_year=YEAR, status="pending"
        )
        if a["status"] == "preliminary" and not busy:
            return p
    raise AssertionError(cls)


def test_owners_are_residents_and_taxable_value_is_market_less_exemptions(ep: Episode) -> None:
    names = {p.name for p in POP.consumers}
    for p in every(ep, "list_parcels"):
        assert p["owner_name"] in names
    for a in every(ep, "list_assessments"):
        approved = every(ep, "list_exemptions", parcel_id=a["parcel_id"], tax_year=a["tax_year"], status="approved")
        assert a["exemptions_cents"] == sum(e["amount_cents"] for e in approved)
        assert a["taxable_value_cents"] == a["market_value_cents"] - a["exemptions_cents"]


def test_exemption_rules_and_approval_lowers_taxable_value(ep: Episode) -> None:
    shop = quiet_parcel(ep, "commercial")
    refused(ep, "apply_exemption", "rule_violation", "kind", parcel_number=shop["parcel_number"], kind="homestead")
    refused(
        ep,
        "apply_exemption",
        "rule_violation",
        "owner_birth_date",
        parcel_number=shop["parcel_number"],
        kind="senior",
        owner_birth_date="1990-01-01",
    )
    ex = ok(ep, "apply_exemption", parcel_number=shop["parcel_number"], kind="senior", owner_birth_date="1950-03-03")
    refused(
        ep,
        "apply_exemption",
        "conflict",
        "kind",
        parcel_number=shop["parcel_number"],
        kind="senior",
        owner_birth_date="1950-03-03",
    )
    before = current(ep, shop)
    ok(ep, "approve_exemption", exemption_id=ex["id"])
    after = current(ep, shop)
    assert after["taxable_value_cents"] == before["taxable_value_cents"] - 2500000
    est = ok(ep, "tax_estimate", parcel_number=shop["parcel_number"])
    assert est["tax_cents"] == round(after["taxable_value_cents"] * 18.5 / 1000)


def test_appeals_are_filed_by_the_deadline_below_the_value_once(ep: Episode) -> None:
    p = quiet_parcel(ep, "residential")
    a = current(ep, p)
    refused(
        ep,
        "file_appeal",
        "rule_violation",
        "requested_value_cents",
        assessment_id=a["id"],
        requested_value_cents=a["market_value_cents"],
        reason="Too high",
    )
    refused(ep, "file_appeal", "rule_violation", "reason", assessment_id=a["id"], requested_value_cents=1, reason=" ")
    made = ok(
        ep,
        "file_appeal",
        assessment_id=a["id"],
        requested_value_cents=a["market_value_cents"] // 2,
        reason="Comparable sales",
    )
    assert (made["status"], made["owner_email"]) == ("filed", p["owner_email"])
    refused(ep, "file_appeal", "conflict", "assessment_id", assessment_id=a["id"], requested_value_cents=1, reason="x")
    last_year = first(ep, "assessments", parcel_id=p["id"], tax_year=YEAR - 1)
    refused(
        ep,
        "file_appeal",
        "rule_violation",
        "assessment_id",
        assessment_id=last_year["id"],
        requested_value_cents=1,
        reason="x",
    )


def test_an_open_appeal_holds_certification_until_granted(ep: Episode) -> None:
    appeal = first(ep, "appeals", status="filed")
    refused(ep, "certify_assessment", "rule_violation", "assessment_id", assessment_id=appeal["assessment_id"])
    refused(ep, "decide_appeal", "rule_violation", "appeal_id", appeal_id=appeal["id"], granted=False)
    refused(
        ep, "schedule_hearing", "rule_violation", "hearing_on", appeal_id=appeal["id"], hearing_on=TODAY.isoformat()
    )
    ok(ep, "schedule_hearing", appeal_id=appeal["id"], hearing_on=f"{YEAR + 1}-01-15")
    a = ok(ep, "get_assessment", assessment_id=appeal["assessment_id"])
    refused(
        ep,
        "decide_appeal",
        "rule_violation",
        "decided_value_cents",
        appeal_id=appeal["id"],
        granted=True,
        decided_value_cents=appeal["requested_value_cents"] - 1,
    )
    value = appeal["requested_value_cents"] + 100000
    assert (
        ok(ep, "decide_appeal", appeal_id=appeal["id"], granted=True, decided_value_cents=value)["status"] == "granted"
    )
    after = ok(ep, "get_assessment", assessment_id=a["id"])
    assert after["market_value_cents"] == value and after["taxable_value_cents"] == value - after["exemptions_cents"]
    assert ok(ep, "certify_assessment", assessment_id=a["id"])["status"] == "certified"


def test_a_certified_assessment_is_billed_once_in_two_halves(ep: Episode) -> None:
    p = quiet_parcel(ep, "agricultural")
    a = current(ep, p)
    refused(ep, "generate_bill", "rule_violation", "assessment_id", assessment_id=a["id"])
    ok(ep, "certify_assessment", assessment_id=a["id"])
    bill = ok(ep, "generate_bill", assessment_id=a["id"])
    assert bill["amount_cents"] == round(a["taxable_value_cents"] * 18.5 / 1000)
    halves = every(ep, "list_installments", bill_id=bill["id"])
    assert sum(i["amount_cents"] for i in halves) == bill["amount_cents"] and len(halves) == 2
    refused(ep, "generate_bill", "conflict", "assessment_id", assessment_id=a["id"])
    refused(ep, "apply_exemption", "rule_violation", "parcel_number", parcel_number=p["parcel_number"], kind="veteran")


def test_payments_settle_whole_installments_in_order_with_late_penalties(ep: Episode) -> None:
    bill = next(b for b in every(ep, "list_bills", status="open") if b["paid_cents"] == 0)
    first_half, second_half = every(ep, "list_installments", bill_id=bill["id"])
    late = first_half["amount_cents"] * 110 // 100
    refused(
        ep,
        "pay_bill",
        "rule_violation",
        "amount_cents",
        bill_number=bill["bill_number"],
        amount_cents=first_half["amount_cents"],
    )
    ok(ep, "pay_bill", bill_number=bill["bill_number"], amount_cents=late, payer_email="owner@example.org")
    paid = every(ep, "list_installments", bill_id=bill["id"], status="paid")
    assert [(i["number"], i["penalty_cents"]) for i in paid] == [(1, late - first_half["amount_cents"])]
    rest = second_half["amount_cents"] + (
        second_half["amount_cents"] // 10 if second_half["due_on"] < TODAY.isoformat() else 0
    )
    ok(ep, "pay_bill", bill_number=bill["bill_number"], amount_cents=rest)
    done = ok(ep, "get_bill", bill_id=bill["id"])
    assert (done["status"], done["paid_cents"]) == ("paid", late + rest)
    refused(ep, "pay_bill", "conflict", "bill_number", bill_number=bill["bill_number"], amount_cents=1)


def test_pending_exemptions_hold_certification(ep: Episode) -> None:
    pending = first(ep, "exemptions", status="pending")
    a = first(ep, "assessments", parcel_id=pending["parcel_id"], tax_year=pending["tax_year"])
    if not every(ep, "list_appeals", assessment_id=a["id"]):
        refused(ep, "certify_assessment", "rule_violation", "assessment_id", assessment_id=a["id"])
    ok(ep, "deny_exemption", exemption_id=pending["id"])
    assert ok(ep, "get_assessment", assessment_id=a["id"])["taxable_value_cents"] == a["taxable_value_cents"]


def test_a_withdrawn_appeal_frees_certification_and_a_denied_one_keeps_the_value(ep: Episode) -> None:
    filed = every(ep, "list_appeals", status="filed")
    ok(ep, "withdraw_appeal", appeal_id=filed[0]["id"])
    refused(ep, "withdraw_appeal", "rule_violation", "appeal_id", appeal_id=filed[0]["id"])
    heard = first(ep, "appeals", status="hearing_scheduled")
    before = ok(ep, "get_assessment", assessment_id=heard["assessment_id"])
    assert ok(ep, "decide_appeal", appeal_id=heard["id"], granted=False)["status"] == "denied"
    assert ok(ep, "get_assessment", assessment_id=heard["assessment_id"]) == before
