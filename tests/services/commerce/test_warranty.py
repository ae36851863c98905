"""Shieldline Product Protection: offers by band, the 30-day sale window, claims within coverage, refunds."""

from __future__ import annotations

import datetime as dt
from typing import Any

from compoworld import Episode
from compoworld.services.kit.time import add_months
from compoworld.world.commerce import first_order_numbers
from tests.services.helpers import ServiceTools

WARRANTY = ServiceTools("warranty")
WORLD = WARRANTY.world
ok, refused, every, first = WARRANTY.ok, WARRANTY.refused, WARRANTY.every, WARRANTY.first
POP = WORLD.population
TODAY = WORLD.epoch.date()


def day(value: str) -> dt.date:
    return dt.date.fromisoformat(value)


def contract(ep: Episode, number: int) -> dict[str, Any]:
    return first(ep, "contracts", contract_number=f"XT-{number:07d}")


def plan_of(ep: Episode, c: dict[str, Any]) -> dict[str, Any]:
    return next(p for p in every(ep, "list_plans") if p["id"] == c["plan_id"])


def sale(ep: Episode, **kw: Any) -> dict[str, Any]:
    product = first(ep, "products", category="electronics", enabled=True)
    offer = ok(ep, "get_offers", sku=product["sku"])["plans"][0]
    person = POP.consumers[5]
    args = {
        "plan_id": offer["id"],
        "sku": product["sku"],
        "order_number": "R-77120",
        "customer_name": person.name,
        "customer_email": person.email,
        "purchase_date": (TODAY - dt.timedelta(days=10)).isoformat(),
    }
    return args | kw


def test_seeded_contracts_cover_the_populations_orders_for_the_plan_term(ep: Episode) -> None:
    catalog = {p.sku: p for p in POP.products}
    for p in every(ep, "list_products"):
        assert p["price"] == catalog[p["sku"]].price_cents and p["title"] == catalog[p["sku"]].name
    orders = first_order_numbers(POP)
    for c in every(ep, "list_contracts"):
        assert orders[c["customer_email"]] == c["order_number"]
        plan = plan_of(ep, c)
        assert day(c["coverage_end"]) == add_months(day(c["purchase_date"]), plan["term_months"]) - dt.timedelta(days=1)
        assert plan["min_price"] <= c["product_price"] <= plan["max_price"]
        assert (c["status"] == "expired") == (day(c["coverage_end"]) < TODAY) or c["status"] == "cancelled"


def test_offers_fit_the_products_category_and_price_band(ep: Episode) -> None:
    product = first(ep, "products", category="home", enabled=True)
    offers = ok(ep, "get_offers", sku=product["sku"])
    assert offers["plans"] and all(
        p["category"] == "home" and p["min_price"] <= product["price"] <= p["max_price"] for p in offers["plans"]
    )
    assert [p["price"] for p in offers["plans"]] == sorted(p["price"] for p in offers["plans"])
    cheap = ok(ep, "get_offers", sku=product["sku"], price=1000)
    assert all(p["max_price"] <= 4999 for p in cheap["plans"])
    shirt = first(ep, "products", category="apparel")
    refused(ep, "get_offers", "rule_violation", "sku", sku=shirt["sku"])


def test_a_contract_is_sold_within_30_days_of_purchase_once_per_order_line(ep: Episode) -> None:
    args = sale(ep)
    late = (TODAY - dt.timedelta(days=31)).isoformat()
    refused(ep, "create_contract", "rule_violation", "purchase_date", **(args | {"purchase_date": late}))
    ahead = (TODAY + dt.timedelta(days=1)).isoformat()
    refused(ep, "create_contract", "rule_violation", "purchase_date", **(args | {"purchase_date": ahead}))
    price = first(ep, "products", sku=args["sku"])["price"]
    wrong = next(
        p for p in every(ep, "list_plans", category="electronics") if not p["min_price"] <= price <= p["max_price"]
    )
    refused(ep, "create_contract", "rule_violation", "plan_id", **(args | {"plan_id": wrong["id"]}))
    made = ok(ep, "create_contract", **args)
    plan = plan_of(ep, made)
    assert made["coverage_start"] == args["purchase_date"] and made["price"] == plan["price"]
    assert made["contract_number"].startswith("XT-") and made["status"] == "live"
    refused(ep, "create_contract", "conflict", "order_number", **args)


def test_cancelling_refunds_in_full_at_first_then_pro_rata_and_never_with_claims(ep: Episode) -> None:
    fresh = contract(ep, 1)  # sold three days ago, one denied claim
    assert ok(ep, "cancel_contract", contract_id=fresh["id"])["refund_amount"] == fresh["price"]
    old = contract(ep, 4)  # sold months ago, no claims
    done = ok(ep, "cancel_contract", contract_id=old["id"])
    total = (day(old["coverage_end"]) - day(old["coverage_start"])).days + 1
    left = (day(old["coverage_end"]) - TODAY).days
    assert done["refund_amount"] == old["price"] * left // total < old["price"]
    assert done["status"] == "cancelled" and done["cancelled_on"] == TODAY.isoformat()
    refused(ep, "cancel_contract", "rule_violation", "contract_id", contract_id=contract(ep, 2)["id"])
    refused(ep, "cancel_contract", "rule_violation", "contract_id", contract_id=contract(ep, 5)["id"])


def test_claims_need_a_live_contract_an_incident_in_coverage_and_a_covered_failure(ep: Episode) -> None:
    live = contract(ep, 4)
    args = {"contract_id": live["id"], "description": "Won't power on."}
    refused(
        ep,
        "file_claim",
        "rule_violation",
        "contract_id",
        **(args | {"contract_id": contract(ep, 5)["id"]}),
        incident_date=TODAY.isoformat(),
        failure_type="mechanical_failure",
    )
    refused(
        ep,
        "file_claim",
        "rule_violation",
        "contract_id",
        **(args | {"contract_id": contract(ep, 8)["id"]}),
        incident_date=TODAY.isoformat(),
        failure_type="mechanical_failure",
    )
    before = (day(live["coverage_start"]) - dt.timedelta(days=1)).isoformat()
    refused(
        ep,
        "file_claim",
        "rule_violation",
        "incident_date",
        incident_date=before,
        failure_type="mechanical_failure",
        **args,
    )
    refused(
        ep,
        "file_claim",
        "rule_violation",
        "failure_type",
        incident_date=TODAY.isoformat(),
        failure_type="cosmetic",
        **args,
    )
    base = next(
        c
        for c in every(ep, "list_contracts", status="live")
        if plan_of(ep, c)["coverage"] == "base" and not every(ep, "list_claims", contract_id=c["id"], status="filed")
    )
    refused(
        ep,
        "file_claim",
        "rule_violation",
        "failure_type",
        contract_id=base["id"],
        description="Dropped it.",
        incident_date=TODAY.isoformat(),
        failure_type="accidental_damage",
    )
    claim = ok(ep, "file_claim", incident_date=TODAY.isoformat(), failure_type="electrical_failure", **args)
    assert (claim["status"], claim["customer_email"]) == ("filed", live["customer_email"])
    refused(
        ep,
        "file_claim",
        "conflict",
        "contract_id",
        incident_date=TODAY.isoformat(),
        failure_type="mechanical_failure",
        **args,
    )


def test_approval_is_capped_by_what_the_contract_still_covers(ep: Episode) -> None:
    used = contract(ep, 7)  # one claim already paid by repair
    paid = sum(c["paid_amount"] for c in every(ep, "list_claims", contract_id=used["id"]))
    claim = ok(
        ep,
        "file_claim",
        contract_id=used["id"],
        incident_date=TODAY.isoformat(),
        failure_type="mechanical_failure",
        description="Fails again.",
    )
    left = used["product_price"] - paid
    refused(ep, "approve_claim", "rule_violation", "approved_amount", claim_id=claim["id"], approved_amount=left + 1)
    assert ok(ep, "approve_claim", claim_id=claim["id"], approved_amount=left)["status"] == "approved"
    refused(ep, "deny_claim", "rule_violation", "claim_id", claim_id=claim["id"], reason="misuse")


def test_a_replacement_uses_the_contract_up(ep: Episode) -> None:
    claim = first(ep, "claims", status="approved")
    refused(
        ep,
        "fulfill_claim",
        "rule_violation",
        "amount",
        claim_id=claim["id"],
        resolution="replace",
        amount=claim["approved_amount"] + 1,
    )
    done = ok(ep, "fulfill_claim", claim_id=claim["id"], resolution="replace", amount=claim["approved_amount"])
    assert (done["status"], done["paid_amount"]) == ("fulfilled", claim["approved_amount"])
    used = ok(ep, "get_contract", contract_id=claim["contract_id"])
    assert used["status"] == "fulfilled"
    refused(
        ep,
        "file_claim",
        "rule_violation",
        "contract_id",
        contract_id=used["id"],
        incident_date=TODAY.isoformat(),
        failure_type="mechanical_failure",
        description="Again.",
    )
    refused(ep, "cancel_contract", "rule_violation", "contract_id", contract_id=used["id"])


def test_filed_claims_are_denied_with_a_reason_and_only_live_contracts_change_details(ep: Episode) -> None:
    claim = first(ep, "claims", status="filed")
    denied = ok(ep, "deny_claim", claim_id=claim["id"], reason="pre_existing")
    assert (denied["status"], denied["denial_reason"]) == ("denied", "pre_existing")
    live = contract(ep, 3)
    moved = ok(ep, "update_contract", contract_id=live["id"], customer_email="new.address@example.org")
    assert moved["customer_email"] == "new.address@example.org"
    refused(
        ep,
        "update_contract",
        "rule_violation",
        "contract_id",
        contract_id=contract(ep, 8)["id"],
        customer_email="other@example.org",
    )
