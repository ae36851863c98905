"""Tempo Billing: trials, prorated plan changes, scheduled cancellation, credits and invoices."""

from __future__ import annotations

from typing import Any

from compoworld import Episode
from tests.services.helpers import ServiceTools

SUBS = ServiceTools("subscriptions")
WORLD = SUBS.world
ok, refused, every = SUBS.ok, SUBS.refused, SUBS.every
POP = WORLD.population


def plan(ep: Episode, name: str) -> dict[str, Any]:
    return next(p for p in every(ep, "list_plans") if p["name"] == name)


def addon(ep: Episode, name: str) -> dict[str, Any]:
    return next(a for a in every(ep, "list_addons") if a["name"] == name)


def fresh_customer(ep: Episode, **extra: Any) -> dict[str, Any]:
    return dict(ok(ep, "create_customer", first_name="Ada", last_name="Quinn", email="ada.quinn@example.com", **extra))


def active_monthly(ep: Episode, plan_name: str) -> dict[str, Any]:
    p = plan(ep, plan_name)
    return next(s for s in every(ep, "list_subscriptions", status="active", plan_id=p["id"]) if not s["addons"])


def credited_without(ep: Episode, plan_id: str) -> dict[str, Any]:
    """A customer with credits and no live subscription to the plan."""
    for c in every(ep, "list_customers"):
        subs = every(ep, "list_subscriptions", customer_id=c["id"], plan_id=plan_id)
        if c["credit_balance"] > 0 and all(s["status"] == "cancelled" for s in subs):
            return c
    raise AssertionError("no such customer")


def test_subscribers_are_the_populations_business_contacts() -> None:
    ep = Episode(WORLD)
    contacts = {p.email: p for p in POP.contacts}
    for c in every(ep, "list_customers"):
        person = contacts[c["email"]]
        company = POP.company_of(person)
        assert (c["first_name"], c["last_name"]) == (person.first_name, person.last_name)
        assert c["company"] == (company.name if company else None)
    statuses = {s["status"] for s in every(ep, "list_subscriptions")}
    assert statuses == {"in_trial", "active", "non_renewing", "paused", "cancelled"}


def test_seeded_mrr_and_invoices_follow_the_prices() -> None:
    ep = Episode(WORLD)
    plans = {p["id"]: p for p in every(ep, "list_plans")}
    prices = {a["id"]: a["price"] for a in every(ep, "list_addons")}
    for sub in every(ep, "list_subscriptions"):
        p = plans[sub["plan_id"]]
        charge = p["price"] * sub["plan_quantity"] + sum(prices[a["addon_id"]] * a["quantity"] for a in sub["addons"])
        monthly = charge if p["period"] == "month" else charge // 12
        assert sub["mrr"] == (monthly if sub["status"] in ("active", "non_renewing") else 0)
    for inv in every(ep, "list_invoices"):
        assert inv["sub_total"] == sum(ln["amount"] for ln in inv["lines"])
        assert inv["sub_total"] - inv["credits_applied"] == inv["amount_paid"] + inv["amount_due"]


def test_a_trial_subscription_invoices_nothing_until_the_trial_ends(ep: Episode) -> None:
    customer = fresh_customer(ep)
    growth = plan(ep, "Growth")
    sub = ok(ep, "create_subscription", customer_id=customer["id"], plan_id=growth["id"], plan_quantity=4)
    assert (sub["status"], sub["mrr"]) == ("in_trial", 0)
    assert every(ep, "list_invoices", subscription_id=sub["id"]) == []
    active = ok(ep, "end_trial", subscription_id=sub["id"])
    assert (active["status"], active["mrr"]) == ("active", 4 * growth["price"])
    [inv] = every(ep, "list_invoices", subscription_id=sub["id"])
    assert (inv["sub_total"], inv["customer_email"]) == (4 * growth["price"], customer["email"])
    refused(ep, "end_trial", "rule_violation", "subscription_id", subscription_id=sub["id"])


def test_the_first_invoice_uses_the_customers_credits_first(ep: Episode) -> None:
    scale = plan(ep, "Scale")
    customer = credited_without(ep, scale["id"])
    sub = ok(ep, "create_subscription", customer_id=customer["id"], plan_id=scale["id"], skip_trial=True)
    [inv] = every(ep, "list_invoices", subscription_id=sub["id"])
    assert inv["credits_applied"] == customer["credit_balance"]
    assert inv["amount_due"] == scale["price"] - customer["credit_balance"]
    assert ok(ep, "get_customer", customer_id=customer["id"])["credit_balance"] == 0


def test_one_live_subscription_per_plan_and_only_applicable_addons(ep: Episode) -> None:
    sub = every(ep, "list_subscriptions", status="active")[0]
    refused(ep, "create_subscription", "conflict", "plan_id", customer_id=sub["customer_id"], plan_id=sub["plan_id"])
    customer = fresh_customer(ep)
    starter, sso = plan(ep, "Starter"), addon(ep, "Single sign-on")
    refused(
        ep,
        "create_subscription",
        "rule_violation",
        "addons.0.addon_id",
        customer_id=customer["id"],
        plan_id=starter["id"],
        addons=[{"addon_id": sso["id"]}],
    )
    refused(
        ep,
        "create_subscription",
        "rule_violation",
        "plan_id",
        customer_id=customer["id"],
        plan_id=plan(ep, "Legacy Basic")["id"],
    )


def test_an_upgrade_invoices_the_prorated_difference(ep: Episode) -> None:
    sub = active_monthly(ep, "Starter")
    growth = plan(ep, "Growth")
    est = ok(ep, "preview_plan_change", subscription_id=sub["id"], plan_id=growth["id"])
    diff = (growth["price"] - plan(ep, "Starter")["price"]) * sub["plan_quantity"]
    assert est["prorated_charge"] == diff * est["days_left"] // est["term_days"] > 0
    assert est["prorated_credit"] == 0
    changed = ok(ep, "change_plan", subscription_id=sub["id"], plan_id=growth["id"])
    assert (changed["plan_id"], changed["mrr"]) == (growth["id"], est["new_mrr"])
    invoices = every(ep, "list_invoices", subscription_id=sub["id"])
    assert invoices[-1]["lines"][0]["kind"] == "proration"
    assert invoices[-1]["sub_total"] == est["prorated_charge"]


def test_a_downgrade_credits_the_customer(ep: Episode) -> None:
    sub = active_monthly(ep, "Growth")
    before = ok(ep, "get_customer", customer_id=sub["customer_id"])["credit_balance"]
    est = ok(ep, "preview_plan_change", subscription_id=sub["id"], plan_id=plan(ep, "Starter")["id"])
    n_invoices = len(every(ep, "list_invoices", subscription_id=sub["id"]))
    ok(ep, "change_plan", subscription_id=sub["id"], plan_id=plan(ep, "Starter")["id"])
    assert est["prorated_credit"] > 0
    assert ok(ep, "get_customer", customer_id=sub["customer_id"])["credit_balance"] == before + est["prorated_credit"]
    assert len(every(ep, "list_invoices", subscription_id=sub["id"])) == n_invoices


def test_plan_changes_keep_the_billing_period(ep: Episode) -> None:
    sub = active_monthly(ep, "Starter")
    refused(
        ep,
        "change_plan",
        "rule_violation",
        "plan_id",
        subscription_id=sub["id"],
        plan_id=plan(ep, "Growth Annual")["id"],
    )
    refused(ep, "change_plan", "rule_violation", "plan_id", subscription_id=sub["id"], plan_id=sub["plan_id"])


def test_cancelling_at_term_end_can_be_undone(ep: Episode) -> None:
    sub = every(ep, "list_subscriptions", status="active")[0]
    later = ok(ep, "cancel_subscription", subscription_id=sub["id"], reason="Too expensive")
    assert (later["status"], later["mrr"]) == ("non_renewing", sub["mrr"])
    refused(ep, "cancel_subscription", "conflict", "subscription_id", subscription_id=sub["id"])
    back = ok(ep, "remove_scheduled_cancellation", subscription_id=sub["id"])
    assert (back["status"], back["cancel_reason"]) == ("active", None)
    refused(ep, "remove_scheduled_cancellation", "rule_violation", "subscription_id", subscription_id=sub["id"])


def test_cancelling_now_credits_the_unused_paid_term_and_is_final(ep: Episode) -> None:
    subs = every(ep, "list_subscriptions", status="active")
    paid = {i["subscription_id"] for i in every(ep, "list_invoices", status="paid")}
    sub = next(
        s
        for s in subs
        if s["id"] in paid and not every(ep, "list_invoices", subscription_id=s["id"], status="payment_due")
    )
    est = ok(ep, "preview_plan_change", subscription_id=sub["id"], plan_quantity=sub["plan_quantity"] + 1)
    before = ok(ep, "get_customer", customer_id=sub["customer_id"])["credit_balance"]
    gone = ok(ep, "cancel_subscription", subscription_id=sub["id"], end_of_term=False)
    assert (gone["status"], gone["mrr"]) == ("cancelled", 0)
    credit = est["current_charge"] * est["days_left"] // est["term_days"]
    assert ok(ep, "get_customer", customer_id=sub["customer_id"])["credit_balance"] == before + credit
    refused(ep, "change_plan", "rule_violation", "subscription_id", subscription_id=sub["id"], plan_quantity=9)
    refused(ep, "cancel_subscription", "conflict", "subscription_id", subscription_id=sub["id"])


def test_pausing_stops_and_resuming_restores_mrr(ep: Episode) -> None:
    sub = every(ep, "list_subscriptions", status="active")[0]
    refused(ep, "resume_subscription", "rule_violation", "subscription_id", subscription_id=sub["id"])
    assert ok(ep, "pause_subscription", subscription_id=sub["id"])["mrr"] == 0
    refused(ep, "pause_subscription", "rule_violation", "subscription_id", subscription_id=sub["id"])
    assert ok(ep, "resume_subscription", subscription_id=sub["id"])["mrr"] == sub["mrr"]


def test_payments_never_exceed_what_is_owed(ep: Episode) -> None:
    inv = every(ep, "list_invoices", status="payment_due")[0]
    refused(ep, "record_payment", "rule_violation", "amount", invoice_id=inv["id"], amount=inv["amount_due"] + 1)
    ok(ep, "record_payment", invoice_id=inv["id"], amount=100)
    refused(ep, "void_invoice", "rule_violation", "invoice_id", invoice_id=inv["id"])
    done = ok(ep, "record_payment", invoice_id=inv["id"], amount=inv["amount_due"] - 100)
    assert (done["status"], done["amount_paid"], done["amount_due"]) == ("paid", inv["amount_due"], 0)
    refused(ep, "record_payment", "rule_violation", "invoice_id", invoice_id=inv["id"], amount=1)


def test_voiding_an_invoice_returns_the_credits_it_used(ep: Episode) -> None:
    scale = plan(ep, "Scale")
    customer = credited_without(ep, scale["id"])
    sub = ok(ep, "create_subscription", customer_id=customer["id"], plan_id=scale["id"], plan_quantity=2)
    [inv] = every(ep, "list_invoices", subscription_id=sub["id"])
    assert inv["credits_applied"] == customer["credit_balance"]
    voided = ok(ep, "void_invoice", invoice_id=inv["id"])
    assert (voided["status"], voided["amount_due"]) == ("voided", 0)
    assert ok(ep, "get_customer", customer_id=customer["id"])["credit_balance"] == customer["credit_balance"]
