"""Kickback Partners: applications, links on the landing domain, attribution, commission rules, hold, payouts, clawbacks."""

from __future__ import annotations

import datetime as dt
from typing import Any

from compoworld import Episode
from compoworld.world.commerce import first_order_numbers
from tests.services.helpers import ServiceTools

AFF = ServiceTools("affiliates")
WORLD = AFF.world
ok, refused, every = AFF.ok, AFF.refused, AFF.every
POP = WORLD.population
TODAY = WORLD.epoch.date()


def program(ep: Episode, kind: str) -> dict[str, Any]:
    return every(ep, "list_programs", commission_type=kind, status="active")[0]


def partner(ep: Episode, prog: dict[str, Any], status: str = "approved", payout: bool = True) -> dict[str, Any]:
    for p in every(ep, "list_partners", program_id=prog["id"], status=status):
        if bool(p["payout_email"]) == payout:
            return p
    raise AssertionError(f"no {status} partner")


def fresh_consumer(ep: Episode, prog: dict[str, Any]) -> Any:
    taken = {r["customer_email"] for r in every(ep, "list_referrals", program_id=prog["id"])}
    return next(p for p in POP.consumers if p.email not in taken)


def referral(ep: Episode, prog: dict[str, Any], p: dict[str, Any]) -> dict[str, Any]:
    c = fresh_consumer(ep, prog)
    return dict(ok(ep, "refer_customer", partner_id=p["id"], customer_email=c.email, customer_name=c.name))


def test_seeded_partners_and_customers_come_from_the_population(ep: Episode) -> None:
    contacts = {p.email: p for p in POP.contacts}
    consumers = {p.email: p for p in POP.consumers}
    for p in every(ep, "list_partners"):
        person = contacts[p["email"]]
        company = POP.company_of(person)
        assert p["name"] == person.name and p["company"] == (company.name if company else None)
    orders = first_order_numbers(POP)
    for r in every(ep, "list_referrals"):
        assert consumers[r["customer_email"]].name == r["customer_name"]
    firsts = [c for c in every(ep, "list_conversions") if c["customer_email"] in orders]
    assert firsts and all(
        c["order_number"] in {orders[c["customer_email"]]} or c["order_number"].startswith("AFF-") for c in firsts
    )
    statuses = {c["status"] for c in every(ep, "list_commissions")}
    assert statuses == {"pending", "approved", "paid", "reversed"}


def test_applications_follow_the_programs_approval_and_one_membership_per_email(ep: Episode) -> None:
    bounty, saas = program(ep, "flat"), program(ep, "percent")
    person = POP.consumers[-1]
    auto = ok(ep, "create_partner", program_id=bounty["id"], name=person.name, email=person.email)
    manual = ok(ep, "create_partner", program_id=saas["id"], name=person.name, email=person.email)
    assert (auto["status"], manual["status"]) == ("approved", "applied")
    refused(ep, "create_partner", "conflict", "email", program_id=saas["id"], name=person.name, email=person.email)
    paused = every(ep, "list_programs", status="paused")[0]
    refused(
        ep,
        "create_partner",
        "rule_violation",
        "program_id",
        program_id=paused["id"],
        name="X Y",
        email=POP.consumers[-2].email,
    )
    refused(
        ep,
        "create_link",
        "rule_violation",
        "partner_id",
        partner_id=manual["id"],
        key="new-key-1",
        destination=f"https://{saas['landing_domain']}/pricing",
    )
    assert ok(ep, "approve_partner", partner_id=manual["id"])["status"] == "approved"
    refused(ep, "reject_partner", "rule_violation", "partner_id", partner_id=manual["id"])


def test_links_land_on_the_programs_domain_with_unique_keys(ep: Episode) -> None:
    saas = program(ep, "percent")
    p = partner(ep, saas)
    link = ok(
        ep,
        "create_link",
        partner_id=p["id"],
        key="spring-2026",
        destination=f"https://www.{saas['landing_domain']}/pricing",
    )
    assert link["url"].endswith("/spring-2026") and link["program_id"] == saas["id"]
    refused(
        ep,
        "create_link",
        "rule_violation",
        "destination",
        partner_id=p["id"],
        key="spring-2027",
        destination="https://elsewhere.example/pricing",
    )
    refused(
        ep,
        "create_link",
        "conflict",
        "key",
        partner_id=p["id"],
        key="spring-2026",
        destination=f"https://{saas['landing_domain']}/",
    )


def test_the_first_partner_keeps_the_customer_and_nobody_refers_themselves(ep: Episode) -> None:
    saas = program(ep, "percent")
    approved = every(ep, "list_partners", program_id=saas["id"], status="approved")
    first, second = approved[0], approved[1]
    c = fresh_consumer(ep, saas)
    ref = ok(ep, "refer_customer", partner_id=first["id"], customer_email=c.email, customer_name=c.name)
    assert ref["status"] == "lead"
    refused(
        ep,
        "refer_customer",
        "conflict",
        "customer_email",
        partner_id=second["id"],
        customer_email=c.email,
        customer_name=c.name,
    )
    refused(
        ep,
        "refer_customer",
        "rule_violation",
        "customer_email",
        partner_id=first["id"],
        customer_email=first["email"],
        customer_name=first["name"],
    )
    other_link = every(ep, "list_links", partner_id=second["id"])[0]
    d = fresh_consumer(ep, saas)
    refused(
        ep,
        "refer_customer",
        "rule_violation",
        "link_id",
        partner_id=first["id"],
        customer_email=d.email,
        customer_name=d.name,
        link_id=other_link["id"],
    )


def test_percent_commissions_are_capped_and_held_and_orders_count_once(ep: Episode) -> None:
    saas = program(ep, "percent")
    ref = referral(ep, saas, partner(ep, saas))
    small = ok(ep, "record_conversion", referral_id=ref["id"], order_number="AFF-77001", amount=10000)
    com = every(ep, "list_commissions", conversion_id=small["id"])[0]
    assert (com["amount"], com["status"]) == (2000, "pending")
    assert com["hold_until"] == (TODAY + dt.timedelta(days=saas["hold_days"])).isoformat()
    big = ok(ep, "record_conversion", referral_id=ref["id"], order_number="AFF-77002", amount=900000)
    assert every(ep, "list_commissions", conversion_id=big["id"])[0]["amount"] == saas["cap_per_conversion"]
    assert every(ep, "list_referrals", customer_email=ref["customer_email"])[0]["status"] == "customer"
    refused(
        ep, "record_conversion", "conflict", "order_number", referral_id=ref["id"], order_number="AFF-77001", amount=500
    )
    refused(
        ep, "record_conversion", "rule_violation", "amount", referral_id=ref["id"], order_number="AFF-77003", amount=0
    )
    refused(ep, "approve_commission", "rule_violation", "commission_id", commission_id=com["id"])


def test_flat_bounties_pay_only_the_first_purchase(ep: Episode) -> None:
    bounty = program(ep, "flat")
    ref = referral(ep, bounty, partner(ep, bounty))
    first = ok(ep, "record_conversion", referral_id=ref["id"], order_number="AFF-88001", amount=4000)
    again = ok(ep, "record_conversion", referral_id=ref["id"], order_number="AFF-88002", amount=9000)
    assert every(ep, "list_commissions", conversion_id=first["id"])[0]["amount"] == bounty["flat_amount"]
    assert again["commission_id"] is None


def test_suspended_partners_earn_nothing(ep: Episode) -> None:
    saas = program(ep, "percent")
    sus = every(ep, "list_partners", program_id=saas["id"], status="suspended")[0]
    ref = every(ep, "list_referrals", partner_id=sus["id"])[0]
    refused(
        ep,
        "record_conversion",
        "rule_violation",
        "referral_id",
        referral_id=ref["id"],
        order_number="AFF-1",
        amount=1000,
    )


def test_payouts_need_a_payout_email_and_the_minimum_and_settle_approved_commissions(ep: Episode) -> None:
    held = next(
        c for c in every(ep, "list_commissions", status="pending") if dt.date.fromisoformat(c["hold_until"]) <= TODAY
    )
    assert ok(ep, "approve_commission", commission_id=held["id"])["status"] == "approved"
    bounty = program(ep, "flat")
    nomail = partner(ep, bounty, payout=False)
    assert ok(ep, "partner_earnings", partner_id=nomail["id"])["payable"] >= bounty["min_payout"]
    refused(ep, "pay_partner", "rule_violation", "partner_id", partner_id=nomail["id"])
    saas = program(ep, "percent")
    payee = next(
        p
        for p in every(ep, "list_partners", program_id=saas["id"], status="approved")
        if p["payout_email"] and ok(ep, "partner_earnings", partner_id=p["id"])["payable"] >= saas["min_payout"]
    )
    due = ok(ep, "partner_earnings", partner_id=payee["id"])["payable"]
    payout = ok(ep, "pay_partner", partner_id=payee["id"])
    assert (payout["net"], payout["payout_email"]) == (due, payee["payout_email"])
    assert all(c["status"] == "paid" and c["payout_reference"] == payout["reference"] for c in payout["commissions"])
    assert ok(ep, "partner_earnings", partner_id=payee["id"])["payable"] == 0
    refused(ep, "pay_partner", "rule_violation", "partner_id", partner_id=payee["id"])


def test_refunds_reverse_unpaid_commissions_and_claw_back_paid_ones(ep: Episode) -> None:
    pending = every(ep, "list_commissions", status="pending", kind="commission")[0]
    out = ok(ep, "refund_conversion", conversion_id=pending["conversion_id"])
    assert out["reversed"]["status"] == "reversed" and out["clawback"] is None
    refused(ep, "refund_conversion", "conflict", "conversion_id", conversion_id=pending["conversion_id"])
    paid = every(ep, "list_commissions", status="paid", kind="commission")[0]
    before = ok(ep, "partner_earnings", partner_id=paid["partner_id"])
    claw = ok(ep, "refund_conversion", conversion_id=paid["conversion_id"])["clawback"]
    assert (claw["kind"], claw["amount"], claw["status"]) == ("clawback", paid["amount"], "pending")
    after = ok(ep, "partner_earnings", partner_id=paid["partner_id"])
    assert after["clawbacks_due"] == paid["amount"]
    assert after["payable"] == max(before["payable"] - paid["amount"], 0)
    refused(ep, "approve_commission", "rule_violation", "commission_id", commission_id=claw["id"])
