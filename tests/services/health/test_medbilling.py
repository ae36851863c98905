"""Clearpath Claims: claim building, scrubbing edits, submission, acknowledgements, balanced ERAs, appeals, statements."""

from __future__ import annotations

import datetime as dt
from typing import Any

from compoworld import Episode
from tests.services.helpers import ServiceTools

BILL = ServiceTools("medbilling")
WORLD = BILL.world
ok, refused, every, first = BILL.ok, BILL.refused, BILL.every, BILL.first
POP = WORLD.population
TODAY = WORLD.epoch.date()


def day(days: int) -> str:
    return (TODAY + dt.timedelta(days=days)).isoformat()


def insured(ep: Episode) -> dict[str, Any]:
    return next(p for p in every(ep, "list_patients") if p["payer_id"])


def new_claim(ep: Episode, dx: list[str] | None = None) -> dict[str, Any]:
    prv = every(ep, "list_providers")[0]
    return dict(
        ok(
            ep,
            "create_claim",
            patient_id=insured(ep)["id"],
            provider_id=prv["id"],
            service_date=day(-3),
            diagnosis_codes=dx or ["E11.9", "I10"],
        )
    )


def test_seeded_patients_come_from_the_population_and_money_balances(ep: Episode) -> None:
    consumers = {p.email for p in POP.consumers}
    assert {p["email"] for p in every(ep, "list_patients")} <= consumers
    for c in every(ep, "list_claims"):
        lines = every(ep, "list_lines", claim_id=c["id"])
        assert c["total_charge_cents"] == sum(x["charge_cents"] * x["units"] for x in lines)
        for r in every(ep, "list_remittances", claim_id=c["id"]):
            if r["denial_code"] is None:
                assert (
                    r["paid_cents"] + r["contractual_cents"] + r["patient_responsibility_cents"]
                    == c["total_charge_cents"]
                )
    assert {c["status"] for c in every(ep, "list_claims")} >= {"draft", "ready", "submitted", "paid", "denied"}


def test_a_claim_needs_an_insured_patient_a_past_date_and_distinct_diagnoses(ep: Episode) -> None:
    prv = every(ep, "list_providers")[0]
    selfpay = next(p for p in every(ep, "list_patients") if p["payer_id"] is None)
    args = {"provider_id": prv["id"], "diagnosis_codes": ["J06.9"]}
    refused(ep, "create_claim", "rule_violation", "patient_id", patient_id=selfpay["id"], service_date=day(-1), **args)
    refused(
        ep, "create_claim", "rule_violation", "service_date", patient_id=insured(ep)["id"], service_date=day(2), **args
    )
    refused(
        ep,
        "create_claim",
        "rule_violation",
        "diagnosis_codes",
        patient_id=insured(ep)["id"],
        service_date=day(-1),
        provider_id=prv["id"],
        diagnosis_codes=["I10", "I10"],
    )
    claim = new_claim(ep)
    assert (claim["status"], claim["payer_id"], claim["total_charge_cents"]) == ("draft", insured(ep)["payer_id"], 0)
    assert claim["claim_number"].startswith("CLM-")


def test_lines_change_the_total_only_on_drafts(ep: Episode) -> None:
    claim = new_claim(ep)
    line = ok(ep, "add_line", claim_id=claim["id"], cpt="99213", charge_cents=12500, diagnosis_pointers=[1], units=1)
    ok(ep, "add_line", claim_id=claim["id"], cpt="36415", charge_cents=1500, diagnosis_pointers=[2], units=2)
    assert ok(ep, "get_claim", claim_id=claim["id"])["total_charge_cents"] == 15500
    ok(ep, "delete_line", line_id=line["id"])
    assert ok(ep, "get_claim", claim_id=claim["id"])["total_charge_cents"] == 3000
    paid = first(ep, "claims", status="paid")
    refused(
        ep,
        "add_line",
        "rule_violation",
        "claim_id",
        claim_id=paid["id"],
        cpt="99213",
        charge_cents=100,
        diagnosis_pointers=[1],
    )


def test_the_scrubber_finds_edits_and_only_clean_claims_are_ready(ep: Episode) -> None:
    claim = new_claim(ep)
    empty = ok(ep, "scrub_claim", claim_id=claim["id"])
    assert empty["status"] == "draft" and empty["edits"][0].startswith("NO_LINES")
    ok(ep, "add_line", claim_id=claim["id"], cpt="99214", charge_cents=18500, diagnosis_pointers=[3])
    ok(ep, "add_line", claim_id=claim["id"], cpt="20610", charge_cents=21000, diagnosis_pointers=[1])
    ok(ep, "add_line", claim_id=claim["id"], cpt="20610", charge_cents=21000, diagnosis_pointers=[1])
    found = ok(ep, "scrub_claim", claim_id=claim["id"])["edits"]
    assert sorted(e.split(":")[0] for e in found) == ["BAD_POINTER", "DUPLICATE", "MODIFIER_25"]
    refused(ep, "submit_claim", "rule_violation", "claim_id", claim_id=claim["id"])
    stale = next(c for c in every(ep, "list_claims", status="draft") if c["service_date"] < day(-365))
    assert any(e.startswith("TIMELY_FILING") for e in ok(ep, "scrub_claim", claim_id=stale["id"])["edits"])
    clean = new_claim(ep)
    ok(ep, "add_line", claim_id=clean["id"], cpt="99213", charge_cents=12500, diagnosis_pointers=[1, 2])
    assert ok(ep, "scrub_claim", claim_id=clean["id"]) == {"claim_id": clean["id"], "status": "ready", "edits": []}


def test_submission_and_acknowledgement_move_the_claim(ep: Episode) -> None:
    ready = first(ep, "claims", status="ready")
    sent = ok(ep, "submit_claim", claim_id=ready["id"])
    assert sent["status"] == "submitted" and sent["submitted_at"] is not None
    refused(ep, "submit_claim", "rule_violation", "claim_id", claim_id=ready["id"])
    refused(ep, "record_acknowledgement", "rule_violation", "reason", claim_id=ready["id"], accepted=False)
    rejected = ok(ep, "record_acknowledgement", claim_id=ready["id"], accepted=False, reason="Invalid member id")
    assert (rejected["status"], rejected["rejection_reason"]) == ("rejected", "Invalid member id")
    assert ok(ep, "correct_claim", claim_id=ready["id"])["status"] == "draft"
    assert ok(ep, "scrub_claim", claim_id=ready["id"])["status"] == "ready"
    ok(ep, "submit_claim", claim_id=ready["id"])
    assert ok(ep, "record_acknowledgement", claim_id=ready["id"], accepted=True)["status"] == "accepted"


def test_a_remittance_must_balance_and_a_denial_pays_nothing(ep: Episode) -> None:
    claim = first(ep, "claims", status="accepted")
    total = claim["total_charge_cents"]
    refused(
        ep,
        "post_remittance",
        "rule_violation",
        "paid_cents",
        claim_id=claim["id"],
        paid_cents=total // 2,
        check_number="EFT1234",
    )
    refused(
        ep,
        "post_remittance",
        "rule_violation",
        "paid_cents",
        claim_id=claim["id"],
        paid_cents=10,
        check_number="EFT1234",
        denial_code="50",
    )
    ok(
        ep,
        "post_remittance",
        claim_id=claim["id"],
        paid_cents=total - 5000,
        contractual_cents=3000,
        patient_responsibility_cents=2000,
        check_number="EFT1234",
    )
    after = ok(ep, "get_claim", claim_id=claim["id"])
    assert (after["status"], after["paid_cents"], after["patient_responsibility_cents"]) == ("paid", total - 5000, 2000)
    refused(
        ep,
        "post_remittance",
        "rule_violation",
        "claim_id",
        claim_id=claim["id"],
        paid_cents=0,
        check_number="EFT9",
        denial_code="97",
    )


def test_a_denial_is_appealed_twice_at_most(ep: Episode) -> None:
    denied = first(ep, "claims", status="denied")
    refused(ep, "file_appeal", "rule_violation", "reason", claim_id=denied["id"], reason=" ")
    first_level = ok(ep, "file_appeal", claim_id=denied["id"], reason="Necessity documented")
    assert (first_level["level"], ok(ep, "get_claim", claim_id=denied["id"])["status"]) == (1, "appealed")
    refused(ep, "file_appeal", "rule_violation", "claim_id", claim_id=denied["id"], reason="Again")
    assert ok(ep, "decide_appeal", appeal_id=first_level["id"], overturned=False)["status"] == "upheld"
    second = ok(ep, "file_appeal", claim_id=denied["id"], reason="Peer-to-peer review")
    assert second["level"] == 2
    ok(ep, "decide_appeal", appeal_id=second["id"], overturned=False)
    refused(ep, "file_appeal", "rule_violation", "claim_id", claim_id=denied["id"], reason="Third try")
    refused(ep, "decide_appeal", "rule_violation", "appeal_id", appeal_id=second["id"], overturned=True)


def test_an_overturned_appeal_is_paid_by_a_new_remittance(ep: Episode) -> None:
    claim = first(ep, "claims", status="appealed")
    appeal = every(ep, "list_appeals", claim_id=claim["id"])[0]
    assert ok(ep, "decide_appeal", appeal_id=appeal["id"], overturned=True)["status"] == "overturned"
    total = claim["total_charge_cents"]
    ok(ep, "post_remittance", claim_id=claim["id"], paid_cents=total, check_number="EFT7777")
    assert ok(ep, "get_claim", claim_id=claim["id"])["status"] == "paid"


def test_statements_bill_patient_responsibility_once_and_close_when_paid(ep: Episode) -> None:
    open_st = first(ep, "statements", status="sent")
    refused(ep, "create_statement", "rule_violation", "patient_id", patient_id=open_st["patient_id"])
    owed = next(
        c
        for c in every(ep, "list_claims", status="paid")
        if c["patient_responsibility_cents"] and c["patient_id"] != open_st["patient_id"]
    )
    st = ok(ep, "create_statement", patient_id=owed["patient_id"])
    assert (st["claim_ids"], st["amount_cents"]) == ([owed["id"]], owed["patient_responsibility_cents"])
    refused(
        ep,
        "record_patient_payment",
        "rule_violation",
        "amount_cents",
        statement_id=st["id"],
        amount_cents=st["amount_cents"] + 1,
    )
    ok(ep, "record_patient_payment", statement_id=st["id"], amount_cents=st["amount_cents"] - 100)
    assert ok(ep, "record_patient_payment", statement_id=st["id"], amount_cents=100)["status"] == "paid"


def test_insurance_member_ids_are_unique_per_payer(ep: Episode) -> None:
    taken = insured(ep)
    made = ok(ep, "create_patient", name="Rui Costa", birth_date="1980-04-04", email="rui.costa@example.net")
    refused(
        ep,
        "set_insurance",
        "conflict",
        "member_id",
        patient_id=made["id"],
        payer_id=taken["payer_id"],
        member_id=taken["member_id"],
    )
    done = ok(ep, "set_insurance", patient_id=made["id"], payer_id=taken["payer_id"], member_id="NEW123456")
    assert (done["payer_id"], done["member_id"]) == (taken["payer_id"], "NEW123456")
