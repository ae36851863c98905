"""Keyhold Property Manager: no double-leased units, deposit cap, rent posting, FIFO payments, move-outs, work orders."""

from __future__ import annotations

import datetime as dt
from typing import Any

from compoworld import Episode
from tests.services.helpers import ServiceTools

PM = ServiceTools("propertymgmt")
WORLD = PM.world
ok, refused, every = PM.ok, PM.refused, PM.every
POP = WORLD.population
TODAY = WORLD.epoch.date()


def lease_with_balance(ep: Episode, open_charges: int = 1) -> dict[str, Any]:
    for lease in every(ep, "list_leases", status="active"):
        ledger = ok(ep, "tenant_ledger", lease_id=lease["id"])
        if sum(1 for c in ledger["charges"] if c["status"] == "open") >= open_charges:
            return lease
    raise AssertionError("no lease with a balance")


def vacant_unit(ep: Episode) -> dict[str, Any]:
    held = {ls["unit_id"] for ls in every(ep, "list_leases") if ls["status"] in ("draft", "active")}
    return next(u for u in every(ep, "list_units", rent_ready=True) if u["id"] not in held)


# -- the world -------------------------------------------------------------------------------------


def test_tenants_are_consumers_owners_are_companies_and_managers_are_staff() -> None:
    ep = Episode(WORLD)
    consumers = {p.email: p for p in POP.consumers}
    for tenant in every(ep, "list_tenants"):
        assert consumers[tenant["email"]].name == tenant["name"]
    companies = {c.name for c in POP.customers}
    staff = {p.email for p in POP.employees}
    for prop in every(ep, "list_properties"):
        assert prop["owner"] in companies and prop["manager_email"] in staff
    vendors = {p.email: POP.company_of(p) for p in POP.contacts}
    for order in every(ep, "list_work_orders"):
        if order["vendor_email"]:
            company = vendors[order["vendor_email"]]
            assert company is not None and company.name == order["vendor"]


def test_seeded_ledgers_balance_and_payments_match_their_allocations() -> None:
    ep = Episode(WORLD)
    for lease in every(ep, "list_leases", status="active"):
        ledger = ok(ep, "tenant_ledger", lease_id=lease["id"])
        assert ledger["total_charged"] - ledger["total_paid"] == ledger["balance"]
        for pay in ledger["payments"]:
            assert pay["amount"] == sum(a["amount"] for a in pay["allocations"])
        periods = [c["period"] for c in ledger["charges"] if c["kind"] == "rent"]
        assert len(periods) == len(set(periods)) == 3


def test_rent_roll_totals_come_from_the_units() -> None:
    ep = Episode(WORLD)
    prop = every(ep, "list_properties")[0]
    roll = ok(ep, "rent_roll", property_id=prop["id"])
    assert (
        roll["occupied"] + roll["vacant"] == len(roll["units"]) == len(every(ep, "list_units", property_id=prop["id"]))
    )
    assert roll["scheduled_rent"] == sum(line["rent"] or 0 for line in roll["units"])
    assert roll["occupancy"] == round(100 * roll["occupied"] / len(roll["units"]), 1)
    assert roll["outstanding"] == sum(
        ok(ep, "tenant_ledger", lease_id=line["lease_id"])["balance"] for line in roll["units"] if line["lease_id"]
    )


# -- leases ----------------------------------------------------------------------------------------


def test_a_unit_is_never_leased_twice_for_the_same_day(ep: Episode) -> None:
    lease = every(ep, "list_leases", status="active")[0]
    tenant = every(ep, "list_tenants")[-1]
    args = {
        "unit_id": lease["unit_id"],
        "tenant_id": tenant["id"],
        "start_date": "2026-05-01",
        "end_date": "2027-04-30",
    }
    refused(ep, "create_lease", "conflict", "start_date", **args)
    after = (dt.date.fromisoformat(lease["end_date"]) + dt.timedelta(days=1)).isoformat()
    later = ok(ep, "create_lease", **{**args, "start_date": after, "end_date": "2030-01-01"})
    assert later["status"] == "draft"


def test_a_lease_defaults_to_market_rent_and_caps_the_deposit(ep: Episode) -> None:
    unit = vacant_unit(ep)
    tenant = every(ep, "list_tenants")[-1]
    args = {"unit_id": unit["id"], "tenant_id": tenant["id"], "start_date": "2026-03-15", "end_date": "2027-03-14"}
    refused(ep, "create_lease", "rule_violation", "deposit", **args, deposit=2 * unit["market_rent"] + 1)
    refused(ep, "create_lease", "rule_violation", "end_date", **{**args, "end_date": "2026-03-15"})
    lease = ok(ep, "create_lease", **args)
    assert (lease["monthly_rent"], lease["deposit"]) == (unit["market_rent"], unit["market_rent"])
    prop = ok(ep, "get_unit", unit_id=unit["id"])["property_id"]
    assert lease["currency"] == ok(ep, "get_property", property_id=prop)["currency"]


def test_activating_a_lease_posts_deposit_and_first_rent(ep: Episode) -> None:
    unit = vacant_unit(ep)
    tenant = ok(ep, "create_tenant", name="Robin Vale", email="robin.vale@inbox.io", phone="+14155550123")
    lease = ok(
        ep,
        "create_lease",
        unit_id=unit["id"],
        tenant_id=tenant["id"],
        start_date="2026-03-15",
        end_date="2027-03-14",
        monthly_rent=150_000,
        deposit=200_000,
    )
    active = ok(ep, "activate_lease", lease_id=lease["id"])
    assert active["status"] == "active"
    charges = every(ep, "list_charges", lease_id=lease["id"])
    assert sorted((c["kind"], c["amount"], c["due_date"]) for c in charges) == [
        ("deposit", 200_000, "2026-03-15"),
        ("rent", 150_000, "2026-03-15"),
    ]
    assert all(c["invoice_number"].startswith("RC-") for c in charges)
    refused(ep, "activate_lease", "rule_violation", "lease_id", lease_id=lease["id"])
    refused(ep, "delete_lease", "rule_violation", "lease_id", lease_id=lease["id"])


def test_a_lease_goes_active_only_on_a_rent_ready_unit(ep: Episode) -> None:
    draft = every(ep, "list_leases", status="draft")[0]
    ok(ep, "update_unit", unit_id=draft["unit_id"], rent_ready=False)
    refused(ep, "activate_lease", "rule_violation", "lease_id", lease_id=draft["id"])
    ok(ep, "update_unit", unit_id=draft["unit_id"], rent_ready=True)
    ok(ep, "activate_lease", lease_id=draft["id"])


# -- rent and payments -----------------------------------------------------------------------------


def test_monthly_rent_is_posted_once_per_lease_and_month(ep: Episode) -> None:
    run = ok(ep, "post_monthly_rent", month="2026-04-10")
    active = every(ep, "list_leases", status="active")
    assert run["month"] == "2026-04-01"
    assert len(run["posted"]) == len(active) and run["skipped"] == 0
    assert run["total"] == sum(ls["monthly_rent"] for ls in active)
    again = ok(ep, "post_monthly_rent", month="2026-04-01")
    assert (again["posted"], again["skipped"]) == ([], len(active))
    current = ok(ep, "post_monthly_rent", month=TODAY.isoformat())
    assert current["posted"] == [] and current["skipped"] == len(active)
    refused(ep, "post_monthly_rent", "rule_violation", "month", month="2026-05-01")


def test_a_payment_pays_the_oldest_charges_first_and_never_exceeds_the_balance(ep: Episode) -> None:
    lease = lease_with_balance(ep, open_charges=2)
    ledger = ok(ep, "tenant_ledger", lease_id=lease["id"])
    refused(
        ep,
        "record_payment",
        "rule_violation",
        "amount",
        lease_id=lease["id"],
        amount=ledger["balance"] + 1,
        method="ach",
    )
    open_ = [c for c in ledger["charges"] if c["status"] == "open"]
    oldest = open_[0]
    first_part = oldest["amount"] - oldest["paid"]
    pay = ok(ep, "record_payment", lease_id=lease["id"], amount=first_part + 1, method="card")
    assert [a["charge_id"] for a in pay["allocations"]] == [oldest["id"], open_[1]["id"]]
    assert pay["allocations"][0]["amount"] == first_part
    rest = ok(ep, "tenant_ledger", lease_id=lease["id"])
    assert rest["balance"] == ledger["balance"] - first_part - 1
    ok(ep, "record_payment", lease_id=lease["id"], amount=rest["balance"], method="ach")
    assert ok(ep, "tenant_ledger", lease_id=lease["id"])["balance"] == 0
    refused(ep, "record_payment", "rule_violation", "lease_id", lease_id=lease["id"], amount=1, method="ach")


def test_move_out_applies_the_deposit_to_the_balance_and_refunds_the_rest(ep: Episode) -> None:
    lease = lease_with_balance(ep)
    owed = ok(ep, "tenant_ledger", lease_id=lease["id"])["balance"]
    refused(
        ep,
        "end_lease",
        "rule_violation",
        "deductions",
        lease_id=lease["id"],
        move_out_date=TODAY.isoformat(),
        deductions=lease["deposit"] + 1,
    )
    refused(ep, "end_lease", "rule_violation", "move_out_date", lease_id=lease["id"], move_out_date="2027-01-01")
    deductions = min(10_000, lease["deposit"])
    ended = ok(ep, "end_lease", lease_id=lease["id"], move_out_date=TODAY.isoformat(), deductions=deductions)
    assert ended["status"] == "ended"
    assert ended["deposit_refund"] == max(0, lease["deposit"] - deductions - owed)
    after = ok(ep, "tenant_ledger", lease_id=lease["id"])
    assert after["balance"] == max(0, owed - (lease["deposit"] - deductions))
    assert ok(ep, "get_unit", unit_id=lease["unit_id"])["rent_ready"] is False


# -- work orders -----------------------------------------------------------------------------------


def test_work_orders_are_reported_by_the_units_tenant(ep: Episode) -> None:
    lease = every(ep, "list_leases", status="active")[0]
    other = every(ep, "list_leases", status="active")[1]
    args = {"unit_id": lease["unit_id"], "title": "Radiator rattles", "priority": "normal", "entry_permitted": True}
    refused(ep, "create_work_order", "rule_violation", "tenant_id", **args, tenant_id=other["tenant_id"])
    order = ok(ep, "create_work_order", **args, tenant_id=lease["tenant_id"])
    assert order["status"] == "new"


def test_work_order_flow_with_overrun_note_and_tenant_billing(ep: Episode) -> None:
    lease = every(ep, "list_leases", status="active")[0]
    order = ok(
        ep,
        "create_work_order",
        unit_id=lease["unit_id"],
        tenant_id=lease["tenant_id"],
        title="Broken blinds",
        priority="low",
        entry_permitted=True,
    )
    refused(ep, "complete_work_order", "rule_violation", "work_order_id", work_order_id=order["id"], cost=1)
    contact = POP.contacts[0]
    company = POP.company_of(contact)
    assert company is not None
    ok(
        ep,
        "assign_work_order",
        work_order_id=order["id"],
        vendor=company.name,
        vendor_email=contact.email,
        estimate=10_000,
    )
    refused(
        ep,
        "assign_work_order",
        "rule_violation",
        "work_order_id",
        work_order_id=order["id"],
        vendor=company.name,
        vendor_email=contact.email,
    )
    refused(ep, "complete_work_order", "rule_violation", "note", work_order_id=order["id"], cost=12_000)
    before = ok(ep, "tenant_ledger", lease_id=lease["id"])["balance"]
    done = ok(
        ep,
        "complete_work_order",
        work_order_id=order["id"],
        cost=12_000,
        note="Two blinds replaced",
        bill_to_tenant=True,
    )
    assert done["status"] == "completed" and done["completed_at"] is not None
    ledger = ok(ep, "tenant_ledger", lease_id=lease["id"])
    assert ledger["balance"] == before + 12_000
    assert any(c["kind"] == "repair" and c["amount"] == 12_000 for c in ledger["charges"])


def test_an_unreported_work_order_cannot_be_billed_to_a_tenant(ep: Episode) -> None:
    unit = every(ep, "list_units")[0]
    order = ok(
        ep, "create_work_order", unit_id=unit["id"], title="Hallway light out", priority="low", entry_permitted=True
    )
    ok(
        ep,
        "assign_work_order",
        work_order_id=order["id"],
        vendor="Granite Supply",
        vendor_email="ops@granitesupply.com",
    )
    refused(
        ep,
        "complete_work_order",
        "rule_violation",
        "bill_to_tenant",
        work_order_id=order["id"],
        cost=5_000,
        bill_to_tenant=True,
    )
    ok(ep, "cancel_work_order", work_order_id=every(ep, "list_work_orders", status="new")[0]["id"])
