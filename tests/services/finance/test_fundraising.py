"""Kindred Giving: gifts within active campaigns, pledge balances, refunds and year-end receipts."""

from __future__ import annotations

from typing import Any

from compoworld import Episode
from tests.services.helpers import ServiceTools

FUND = ServiceTools("fundraising")
WORLD = FUND.world
ok, refused, every = FUND.ok, FUND.refused, FUND.every
POP = WORLD.population


def campaign(ep: Episode, prefix: str) -> dict[str, Any]:
    return next(c for c in every(ep, "list_campaigns") if c["name"].startswith(prefix))


def donor(ep: Episode, status: str = "active") -> dict[str, Any]:
    return every(ep, "list_constituents", status=status, type="individual")[0]


def gift(ep: Episode, d: dict[str, Any], amount: int, **extra: Any) -> dict[str, Any]:
    return dict(ok(ep, "record_donation", constituent_id=d["id"], amount=amount, method="check", **extra))


def test_donors_are_consumers_and_customer_companies() -> None:
    ep = Episode(WORLD)
    people = {p.email: p for p in POP.people}
    for c in every(ep, "list_constituents"):
        person = people[c["email"]]
        assert c["name"] == person.name
        if c["type"] == "organization":
            company = POP.company_of(person)
            assert company is not None and c["organization_name"] == company.name
        else:
            assert person.role == "consumer" and c["address"] == person.address.model_dump()


def test_seeded_totals_match_the_gifts() -> None:
    ep = Episode(WORLD)
    gifts = [g for g in every(ep, "list_donations") if g["status"] == "posted"]
    for c in every(ep, "list_constituents"):
        assert c["lifetime_giving"] == sum(g["amount"] for g in gifts if g["constituent_id"] == c["id"])
    for camp in every(ep, "list_campaigns"):
        assert camp["raised"] == sum(g["amount"] for g in gifts if g["campaign_id"] == camp["id"])
    for p in every(ep, "list_pledges"):
        assert p["paid"] == sum(g["amount"] for g in gifts if g["pledge_id"] == p["id"])
        assert p["balance"] == p["amount"] - p["paid"]
    for r in every(ep, "list_tax_receipts", status="issued"):
        mine = [g for g in gifts if g["id"] in r["donation_ids"]]
        assert all(g["receipt_id"] == r["id"] for g in mine)
        assert (r["total_amount"], r["deductible_amount"]) == (
            sum(g["amount"] for g in mine),
            sum(g["amount"] - g["non_deductible"] for g in mine),
        )


def test_a_gift_updates_the_donor_and_the_campaign(ep: Episode) -> None:
    d, annual = donor(ep), campaign(ep, "Annual Fund")
    g = gift(ep, d, 75_00, campaign_id=annual["id"])
    assert (g["fund_id"], g["date"], g["donor_email"]) == (annual["fund_id"], "2026-03-02", d["email"])
    after = ok(ep, "get_constituent", constituent_id=d["id"])
    assert (after["lifetime_giving"], after["last_gift_date"]) == (d["lifetime_giving"] + 75_00, "2026-03-02")
    assert ok(ep, "get_campaign", campaign_id=annual["id"])["raised"] == annual["raised"] + 75_00
    plain = gift(ep, d, 10_00)
    general = every(ep, "list_funds", restricted=False)[0]
    assert (plain["fund_id"], plain["campaign_id"]) == (general["id"], None)


def test_gifts_need_an_active_donor_fund_and_campaign(ep: Episode) -> None:
    d = donor(ep)
    for status in ("inactive", "deceased"):
        other = every(ep, "list_constituents", status=status)[0]
        refused(
            ep,
            "record_donation",
            "rule_violation",
            "constituent_id",
            constituent_id=other["id"],
            amount=100,
            method="cash",
        )
    for prefix in ("Summer Camp", "Year-End Appeal"):
        refused(
            ep,
            "record_donation",
            "rule_violation",
            "campaign_id",
            constituent_id=d["id"],
            amount=100,
            method="cash",
            campaign_id=campaign(ep, prefix)["id"],
        )
    refused(
        ep,
        "record_donation",
        "rule_violation",
        "date",
        constituent_id=d["id"],
        amount=100,
        method="cash",
        campaign_id=campaign(ep, "Spring Gala")["id"],
        date="2026-01-15",
    )
    refused(
        ep,
        "record_donation",
        "rule_violation",
        "date",
        constituent_id=d["id"],
        amount=100,
        method="cash",
        date="2026-03-09",
    )
    refused(
        ep,
        "record_donation",
        "rule_violation",
        "non_deductible",
        constituent_id=d["id"],
        amount=100,
        method="cash",
        non_deductible=101,
    )
    closed_fund = every(ep, "list_funds", active=False)[0]
    refused(
        ep,
        "record_donation",
        "rule_violation",
        "fund_id",
        constituent_id=d["id"],
        amount=100,
        method="cash",
        fund_id=closed_fund["id"],
    )


def test_pledge_payments_never_exceed_the_balance_and_fulfil_the_pledge(ep: Episode) -> None:
    pledge = every(ep, "list_pledges", status="open")[0]
    d = ok(ep, "get_constituent", constituent_id=pledge["constituent_id"])
    refused(
        ep,
        "record_donation",
        "rule_violation",
        "amount",
        constituent_id=d["id"],
        amount=pledge["balance"] + 1,
        method="ach",
        pledge_id=pledge["id"],
    )
    someone = next(c for c in every(ep, "list_constituents", status="active") if c["id"] != d["id"])
    refused(
        ep,
        "record_donation",
        "rule_violation",
        "pledge_id",
        constituent_id=someone["id"],
        amount=100,
        method="ach",
        pledge_id=pledge["id"],
    )
    pay = gift(ep, d, pledge["balance"], pledge_id=pledge["id"])
    assert pay["campaign_id"] == pledge["campaign_id"]
    done = ok(ep, "get_pledge", pledge_id=pledge["id"])
    assert (done["status"], done["balance"], done["paid"]) == ("fulfilled", 0, pledge["amount"])
    refused(
        ep,
        "record_donation",
        "rule_violation",
        "pledge_id",
        constituent_id=d["id"],
        amount=100,
        method="ach",
        pledge_id=pledge["id"],
    )


def test_one_open_pledge_per_campaign_and_write_offs(ep: Episode) -> None:
    pledge = every(ep, "list_pledges", status="open")[0]
    refused(
        ep,
        "create_pledge",
        "conflict",
        "campaign_id",
        constituent_id=pledge["constituent_id"],
        campaign_id=pledge["campaign_id"],
        amount=100_00,
    )
    refused(ep, "write_off_pledge", "rule_violation", "reason", pledge_id=pledge["id"], reason=" ")
    ok(ep, "write_off_pledge", pledge_id=pledge["id"], reason="Donor moved abroad")
    new = ok(
        ep,
        "create_pledge",
        constituent_id=pledge["constituent_id"],
        campaign_id=pledge["campaign_id"],
        amount=1_200_00,
        installments=12,
        frequency="monthly",
    )
    assert (new["balance"], new["status"]) == (1_200_00, "open")
    refused(
        ep,
        "create_pledge",
        "rule_violation",
        "installments",
        constituent_id=donor(ep)["id"],
        campaign_id=campaign(ep, "Annual Fund")["id"],
        amount=100_00,
        installments=3,
    )
    refused(
        ep,
        "create_pledge",
        "rule_violation",
        "campaign_id",
        constituent_id=donor(ep)["id"],
        campaign_id=campaign(ep, "Summer Camp")["id"],
        amount=100_00,
    )


def test_a_receipted_gift_is_refunded_only_after_voiding_the_receipt(ep: Episode) -> None:
    receipt = next(r for r in every(ep, "list_tax_receipts", status="issued") if len(r["donation_ids"]) > 1)
    g = ok(ep, "get_donation", donation_id=receipt["donation_ids"][0])
    before = ok(ep, "get_constituent", constituent_id=g["constituent_id"])["lifetime_giving"]
    msg = refused(ep, "refund_donation", "rule_violation", "donation_id", donation_id=g["id"], reason="Bounced")
    assert receipt["receipt_number"] in msg
    ok(ep, "void_tax_receipt", tax_receipt_id=receipt["id"], reason="Gift bounced")
    ok(ep, "refund_donation", donation_id=g["id"], reason="Bounced")
    assert ok(ep, "get_constituent", constituent_id=g["constituent_id"])["lifetime_giving"] == before - g["amount"]
    again = ok(ep, "issue_tax_receipt", constituent_id=g["constituent_id"], year=receipt["year"])
    assert g["id"] not in again["donation_ids"]
    assert again["total_amount"] == receipt["total_amount"] - g["amount"]


def test_refunding_a_pledge_payment_reopens_the_pledge(ep: Episode) -> None:
    pledge = every(ep, "list_pledges", status="fulfilled")[0]
    pay = next(g for g in every(ep, "list_donations", pledge_id=pledge["id"]) if g["receipt_id"] is None)
    ok(ep, "refund_donation", donation_id=pay["id"], reason="Payment reversed")
    back = ok(ep, "get_pledge", pledge_id=pledge["id"])
    assert (back["status"], back["balance"]) == ("open", pay["amount"])


def test_a_year_end_receipt_states_the_deductible_amount(ep: Episode) -> None:
    gala = campaign(ep, "Spring Gala")
    g = every(ep, "list_donations", campaign_id=gala["id"])[0]
    assert g["non_deductible"] > 0
    open_gifts = [
        x
        for x in every(ep, "list_donations", constituent_id=g["constituent_id"], status="posted")
        if x["date"].startswith("2026") and x["receipt_id"] is None
    ]
    receipt = ok(ep, "issue_tax_receipt", constituent_id=g["constituent_id"], year=2026)
    assert set(receipt["donation_ids"]) == {x["id"] for x in open_gifts}
    assert receipt["deductible_amount"] == sum(x["amount"] - x["non_deductible"] for x in open_gifts)
    assert receipt["receipt_number"].startswith("RCPT-")
    refused(ep, "issue_tax_receipt", "rule_violation", "year", constituent_id=g["constituent_id"], year=2026)
    refused(ep, "issue_tax_receipt", "rule_violation", "year", constituent_id=g["constituent_id"], year=2027)


def test_campaign_progress_and_donor_summary_add_up(ep: Episode) -> None:
    capital = campaign(ep, "New Learning Center")
    prog = ok(ep, "campaign_progress", campaign_id=capital["id"])
    open_pledges = every(ep, "list_pledges", campaign_id=capital["id"], status="open")
    assert prog["raised"] == capital["raised"]
    assert prog["pledged_outstanding"] == sum(p["balance"] for p in open_pledges)
    assert prog["projected"] == prog["raised"] + prog["pledged_outstanding"]
    assert prog["percent_of_goal"] == round(100 * capital["raised"] / capital["goal"], 2)
    d = ok(ep, "get_constituent", constituent_id=open_pledges[0]["constituent_id"])
    summary = ok(ep, "donor_summary", email=d["email"])
    assert summary["lifetime_giving"] == d["lifetime_giving"]
    assert summary["open_pledge_balance"] == sum(
        p["balance"] for p in every(ep, "list_pledges", constituent_id=d["id"], status="open")
    )
    refused(ep, "donor_summary", "not_found", "email", email="nobody@example.com")
