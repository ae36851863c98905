"""Channel Hub: partner lifecycle, deal registration with channel conflict and protection, MDF requests and claims."""

from __future__ import annotations

import datetime as dt
from typing import Any

from compoworld import Episode
from tests.services.helpers import ServiceTools

PRM = ServiceTools("partners")
WORLD = PRM.world
ok, refused, every = PRM.ok, PRM.refused, PRM.every
POP = WORLD.population
TODAY = WORLD.epoch.date()
MANAGER = POP.staff("Sales", fallback=3)[0].email


def day(n: int) -> str:
    return (TODAY + dt.timedelta(days=n)).isoformat()


def partner(ep: Episode, tier: str, status: str = "active") -> dict[str, Any]:
    return every(ep, "list_partners", tier=tier, status=status)[0]


def rep(ep: Episode, p: dict[str, Any]) -> str:
    return str(every(ep, "list_users", partner_id=p["id"])[0]["email"])


def register(ep: Episode, p: dict[str, Any], domain: str = "northwind.example") -> dict[str, Any]:
    made: dict[str, Any] = ok(
        ep,
        "register_deal",
        partner_id=p["id"],
        submitted_by=rep(ep, p),
        prospect_company="Northwind",
        prospect_domain=domain,
        prospect_contact_email=f"buyer@{domain}",
        amount=5_000_000,
        expected_close=day(60),
    )
    return made


def test_seeded_partners_are_world_companies_in_every_tier_and_status(ep: Episode) -> None:
    companies = {c.domain: c for c in POP.companies}
    people = {p.email: p for p in POP.people}
    staff = {p.email for p in POP.employees}
    found = every(ep, "list_partners")
    assert {p["tier"] for p in found} == {"registered", "silver", "gold", "platinum"}
    assert {p["status"] for p in found} == {"applied", "active", "suspended", "terminated"}
    for p in found:
        assert companies[p["domain"]].name == p["name"] and p["channel_manager_email"] in staff
        for u in every(ep, "list_users", partner_id=p["id"]):
            assert people[u["email"]].company_key == companies[p["domain"]].key
    for r in every(ep, "list_registrations"):
        assert (r["protected_until"] is not None) == (r["status"] in ("approved", "won"))


def test_only_an_active_partners_own_user_registers_a_prospect_once(ep: Episode) -> None:
    gold, held = partner(ep, "gold"), partner(ep, "silver", "suspended")
    args = {
        "prospect_company": "Acme",
        "prospect_domain": "acme.example",
        "prospect_contact_email": "cfo@acme.example",
        "amount": 1_000_000,
        "expected_close": day(30),
    }
    refused(
        ep, "register_deal", "rule_violation", "partner_id", partner_id=held["id"], submitted_by=rep(ep, held), **args
    )
    refused(
        ep, "register_deal", "rule_violation", "submitted_by", partner_id=gold["id"], submitted_by=rep(ep, held), **args
    )
    mine = {"partner_id": gold["id"], "submitted_by": rep(ep, gold)}
    refused(
        ep,
        "register_deal",
        "rule_violation",
        "prospect_contact_email",
        **(args | mine | {"prospect_contact_email": "cfo@other.example"}),
    )
    refused(ep, "register_deal", "rule_violation", "expected_close", **(args | mine | {"expected_close": day(0)}))
    made = ok(ep, "register_deal", **args, **mine)
    assert (made["status"], made["currency"]) == ("submitted", gold["currency"])
    refused(ep, "register_deal", "conflict", "prospect_domain", **args, **mine)


def test_approval_protects_90_days_and_blocks_a_second_partner(ep: Episode) -> None:
    first, second = partner(ep, "platinum"), partner(ep, "gold")
    a, b = register(ep, first), register(ep, second)
    refused(
        ep,
        "approve_registration",
        "rule_violation",
        "reviewer_email",
        registration_id=a["id"],
        reviewer_email="x@partner.example",
    )
    done = ok(ep, "approve_registration", registration_id=a["id"], reviewer_email=MANAGER)
    assert (done["status"], done["protected_until"]) == ("approved", day(90))
    refused(ep, "approve_registration", "conflict", "registration_id", registration_id=b["id"], reviewer_email=MANAGER)
    refused(
        ep,
        "reject_registration",
        "rule_violation",
        "reason",
        registration_id=b["id"],
        reviewer_email=MANAGER,
        reason=" ",
    )
    rejected = ok(ep, "reject_registration", registration_id=b["id"], reviewer_email=MANAGER, reason="Channel conflict")
    assert (rejected["status"], rejected["decision_note"]) == ("rejected", "Channel conflict")
    refused(ep, "approve_registration", "conflict", "registration_id", registration_id=a["id"], reviewer_email=MANAGER)


def test_protection_extends_once_and_only_approved_registrations_close(ep: Episode) -> None:
    reg = register(ep, partner(ep, "gold"))
    refused(ep, "extend_registration", "rule_violation", "registration_id", registration_id=reg["id"])
    refused(ep, "close_registration", "rule_violation", "registration_id", registration_id=reg["id"], outcome="won")
    ok(ep, "approve_registration", registration_id=reg["id"], reviewer_email=MANAGER)
    assert ok(ep, "extend_registration", registration_id=reg["id"])["protected_until"] == day(120)
    refused(ep, "extend_registration", "conflict", "registration_id", registration_id=reg["id"])
    refused(ep, "close_registration", "rule_violation", "note", registration_id=reg["id"], outcome="lost")
    assert ok(ep, "close_registration", registration_id=reg["id"], outcome="won")["status"] == "won"


def test_funds_need_silver_tier_balance_and_lead_time(ep: Episode) -> None:
    low, silver = partner(ep, "registered"), partner(ep, "silver")
    args = {"activity": "event", "title": "Partner summit booth", "starts_on": day(20), "ends_on": day(21)}
    refused(ep, "request_funds", "rule_violation", "partner_id", partner_id=low["id"], requested=100_000, **args)
    balance = ok(ep, "fund_balance", partner_id=silver["id"])
    assert balance["available"] == balance["allocation"] - balance["committed"]
    refused(
        ep,
        "request_funds",
        "rule_violation",
        "requested",
        partner_id=silver["id"],
        requested=balance["available"] + 1,
        **args,
    )
    refused(
        ep,
        "request_funds",
        "rule_violation",
        "starts_on",
        partner_id=silver["id"],
        requested=100_000,
        **(args | {"starts_on": day(13)}),
    )
    made = ok(ep, "request_funds", partner_id=silver["id"], requested=100_000, **args)
    assert ok(ep, "fund_balance", partner_id=silver["id"])["available"] == balance["available"] - 100_000
    refused(
        ep,
        "approve_funds",
        "rule_violation",
        "approved_amount",
        fund_request_id=made["id"],
        reviewer_email=MANAGER,
        approved_amount=100_001,
    )
    ok(ep, "approve_funds", fund_request_id=made["id"], reviewer_email=MANAGER, approved_amount=60_000)
    assert ok(ep, "fund_balance", partner_id=silver["id"])["available"] == balance["available"] - 60_000
    refused(ep, "reject_funds", "conflict", "fund_request_id", fund_request_id=made["id"], reviewer_email=MANAGER)


def test_claims_come_after_the_activity_within_the_approved_amount(ep: Episode) -> None:
    ended = next(r for r in every(ep, "list_fund_requests", status="approved") if r["ends_on"] < TODAY.isoformat())
    future = next(r for r in every(ep, "list_fund_requests", status="approved") if r["ends_on"] >= TODAY.isoformat())
    proof = "https://files.partner.example/proof.pdf"
    refused(
        ep, "submit_claim", "rule_violation", "fund_request_id", fund_request_id=future["id"], amount=1, proof_url=proof
    )
    refused(
        ep,
        "submit_claim",
        "rule_violation",
        "amount",
        fund_request_id=ended["id"],
        amount=ended["approved_amount"] + 1,
        proof_url=proof,
    )
    claim = ok(ep, "submit_claim", fund_request_id=ended["id"], amount=ended["approved_amount"], proof_url=proof)
    assert ok(ep, "get_fund_request", fund_request_id=ended["id"])["status"] == "claimed"
    refused(
        ep, "submit_claim", "rule_violation", "fund_request_id", fund_request_id=ended["id"], amount=1, proof_url=proof
    )
    paid = ok(ep, "pay_claim", claim_id=claim["id"])
    assert paid["status"] == "paid" and paid["paid_at"] is not None
    refused(ep, "pay_claim", "conflict", "claim_id", claim_id=claim["id"])


def test_terminating_a_partner_expires_registrations_and_cancels_pending_funds(ep: Episode) -> None:
    p = partner(ep, "platinum")
    reg = register(ep, p)
    req = ok(
        ep,
        "request_funds",
        partner_id=p["id"],
        activity="webinar",
        title="Launch webinar",
        requested=50_000,
        starts_on=day(30),
        ends_on=day(30),
    )
    assert ok(ep, "terminate_partner", partner_id=p["id"])["status"] == "terminated"
    assert ok(ep, "get_registration", registration_id=reg["id"])["status"] == "expired"
    assert ok(ep, "get_fund_request", fund_request_id=req["id"])["status"] == "cancelled"
    refused(ep, "reactivate_partner", "rule_violation", "partner_id", partner_id=p["id"])


def test_an_application_is_approved_once_the_partner_has_users(ep: Episode) -> None:
    made = ok(
        ep,
        "create_partner",
        name="Bluebird IT",
        domain="bluebird-it.example",
        partner_type="msp",
        country="DE",
        channel_manager_email=MANAGER,
        currency="EUR",
    )
    assert (made["status"], made["tier"]) == ("applied", "registered")
    refused(
        ep,
        "create_partner",
        "conflict",
        "domain",
        name="Copy",
        domain="bluebird-it.example",
        partner_type="msp",
        country="DE",
        channel_manager_email=MANAGER,
        currency="EUR",
    )
    refused(ep, "approve_partner", "rule_violation", "partner_id", partner_id=made["id"])
    refused(
        ep, "create_user", "rule_violation", "email", partner_id=made["id"], email="jo@gmail.example", name="Jo Lee"
    )
    ok(ep, "create_user", partner_id=made["id"], email="jo@bluebird-it.example", name="Jo Lee", role="admin")
    assert ok(ep, "approve_partner", partner_id=made["id"])["status"] == "active"
