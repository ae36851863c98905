"""Levyline Tax: nexus, rates by destination, tax codes, exemptions, document lifecycle and returns."""

from __future__ import annotations

from typing import Any

from compoworld import Episode
from tests.services.helpers import ServiceTools

TAX = ServiceTools("tax")
WORLD = TAX.world
ok, refused, every = TAX.ok, TAX.refused, TAX.every
POP = WORLD.population


def home(ep: Episode) -> dict[str, Any]:
    return every(ep, "list_companies", company_code="HOME")[0]


def nexus_countries(ep: Episode) -> set[str]:
    return {n["country"] for n in every(ep, "list_nexuses", company_id=home(ep)["id"])}


def customer_in(ep: Episode, nexus: bool, certified: bool = False) -> Any:
    countries = nexus_countries(ep)
    certs = {c["customer_name"] for c in every(ep, "list_exemption_certificates")}
    for c in POP.customers:
        if (c.place.country in countries) == nexus and (c.name in certs) == certified:
            return c
    raise AssertionError("no such customer")


def calc(ep: Episode, company: Any, lines: list[dict[str, Any]], name: str | None = None) -> dict[str, Any]:
    return dict(
        ok(
            ep,
            "calculate_tax",
            company_id=home(ep)["id"],
            customer_name=name or company.name,
            ship_to=company.address.model_dump(),
            lines=lines,
            date="2026-02-20",
        )
    )


def rate_of(ep: Episode, address: Any, reduced: bool = False) -> float:
    found = ok(ep, "lookup_tax_rate", address=address.model_dump())
    return float(found["reduced_rate" if reduced else "standard_rate"])


def test_every_city_of_the_population_has_rates() -> None:
    ep = Episode(WORLD)
    places = {(j["country"], j["city"]) for j in every(ep, "list_jurisdictions")}
    assert places == {(p.country, p.city) for p in POP.places}
    assert home(ep)["name"] == POP.home.name and home(ep)["country"] == POP.home.place.country


def test_seeded_documents_carry_the_tax_the_engine_computes() -> None:
    ep = Episode(WORLD)
    for tx in every(ep, "list_transactions")[:20]:
        lines = [{"amount": ln["amount"], "tax_code": ln["tax_code"], "quantity": ln["quantity"]} for ln in tx["lines"]]
        res = ok(
            ep,
            "calculate_tax",
            company_id=tx["company_id"],
            customer_name=tx["customer_name"],
            ship_to=tx["ship_to"],
            lines=lines,
            date=tx["date"],
        )
        assert (res["total_tax"], res["total_taxable"]) == (tx["total_tax"], tx["total_taxable"])
        assert res["exemption_certificate_id"] == tx["exemption_certificate_id"]
        assert tx["total_amount"] == sum(ln["amount"] for ln in tx["lines"])


def test_filed_returns_total_their_documents_which_are_locked(ep: Episode) -> None:
    txs = every(ep, "list_transactions")
    for filing in every(ep, "list_filings"):
        mine = [t for t in txs if t["filing_id"] == filing["id"]]
        sign = {t["id"]: -1 if t["type"] == "return_invoice" else 1 for t in mine}
        assert filing["transaction_count"] == len(mine)
        assert filing["total_tax"] == sum(sign[t["id"]] * t["total_tax"] for t in mine)
    reported = next(t for t in txs if t["filing_id"])
    refused(ep, "void_transaction", "rule_violation", "transaction_id", transaction_id=reported["id"], reason="Oops")
    refused(
        ep,
        "adjust_transaction",
        "rule_violation",
        "transaction_id",
        transaction_id=reported["id"],
        lines=[{"amount": 100}],
        reason="Fix",
    )


def test_tax_is_charged_only_where_the_company_has_nexus(ep: Episode) -> None:
    inside, outside = customer_in(ep, True), customer_in(ep, False)
    taxed = calc(ep, inside, [{"amount": 10_000}])
    rate = rate_of(ep, inside.address)
    assert taxed["has_nexus"] and taxed["lines"][0]["rate"] == rate
    assert taxed["total_tax"] == round(10_000 * rate / 100)
    free = calc(ep, outside, [{"amount": 10_000}])
    assert (free["has_nexus"], free["total_tax"], free["total_taxable"]) == (False, 0, 0)


def test_tax_codes_set_full_reduced_or_no_tax(ep: Episode) -> None:
    inside = customer_in(ep, True)
    res = calc(
        ep,
        inside,
        [{"amount": 10_000}, {"amount": 10_000, "tax_code": "PB100000"}, {"amount": 10_000, "tax_code": "FR020100"}],
    )
    full, reduced, freight = res["lines"]
    assert full["rate"] == rate_of(ep, inside.address)
    assert reduced["rate"] == rate_of(ep, inside.address, reduced=True)
    assert (freight["rate"], freight["tax"], freight["taxable_amount"]) == (0.0, 0, 0)
    refused(
        ep,
        "calculate_tax",
        "rule_violation",
        "lines.0.tax_code",
        company_id=home(ep)["id"],
        customer_name=inside.name,
        ship_to=inside.address.model_dump(),
        lines=[{"amount": 100, "tax_code": "XX999"}],
    )


def test_a_valid_exemption_certificate_removes_the_tax(ep: Episode) -> None:
    inside = customer_in(ep, True)
    before = calc(ep, inside, [{"amount": 50_000}])
    assert before["total_tax"] > 0
    cert = ok(
        ep,
        "create_exemption_certificate",
        customer_name=inside.name,
        country=inside.place.country,
        reason="resale",
        valid_from="2026-01-01",
        valid_to="2026-12-31",
    )
    after = calc(ep, inside, [{"amount": 50_000}])
    assert (after["total_tax"], after["exemption_certificate_id"]) == (0, cert["id"])
    ok(ep, "revoke_exemption_certificate", exemption_certificate_id=cert["id"])
    assert calc(ep, inside, [{"amount": 50_000}])["total_tax"] == before["total_tax"]
    refused(
        ep,
        "create_exemption_certificate",
        "rule_violation",
        "valid_to",
        customer_name=inside.name,
        country=inside.place.country,
        reason="resale",
        valid_from="2026-02-01",
        valid_to="2026-01-01",
    )


def test_a_document_code_is_used_once_unless_voided(ep: Episode) -> None:
    inside = customer_in(ep, True)
    args = {
        "company_id": home(ep)["id"],
        "code": "INV-31337",
        "customer_name": inside.name,
        "ship_to": inside.address.model_dump(),
        "lines": [{"amount": 20_000, "sku": POP.products[0].sku}],
    }
    tx = ok(ep, "create_transaction", **args)
    assert (tx["status"], tx["date"]) == ("saved", "2026-03-02")
    refused(ep, "create_transaction", "conflict", "code", **args)
    refused(ep, "void_transaction", "rule_violation", "reason", transaction_id=tx["id"], reason=" ")
    ok(ep, "void_transaction", transaction_id=tx["id"], reason="Order cancelled")
    assert ok(ep, "create_transaction", **args, commit=True)["status"] == "committed"
    refused(ep, "create_transaction", "rule_violation", "date", **{**args, "code": "INV-31338"}, date="2026-01-10")


def test_adjusting_recomputes_the_tax(ep: Episode) -> None:
    tx = next(
        t for t in every(ep, "list_transactions", status="committed") if not t["filing_id"] and t["total_tax"] > 0
    )
    lines = [{"amount": ln["amount"] * 2, "tax_code": ln["tax_code"]} for ln in tx["lines"]]
    refused(ep, "adjust_transaction", "rule_violation", "reason", transaction_id=tx["id"], lines=lines, reason="")
    new = ok(ep, "adjust_transaction", transaction_id=tx["id"], lines=lines, reason="Quantities doubled")
    assert new["total_amount"] == 2 * tx["total_amount"]
    assert abs(new["total_tax"] - 2 * tx["total_tax"]) <= len(lines)
    assert (new["adjustment_count"], new["status"]) == (1, "committed")


def test_a_return_needs_every_document_committed_and_is_filed_once(ep: Episode) -> None:
    co = home(ep)
    saved = next(
        t
        for t in every(ep, "list_transactions", status="saved")
        if t["date"].startswith("2026-02") and t["ship_to"]["country"] in nexus_countries(ep)
    )
    country = saved["ship_to"]["country"]
    msg = refused(
        ep, "file_return", "rule_violation", "month", company_id=co["id"], country=country, year=2026, month=2
    )
    assert saved["code"] in msg
    ok(ep, "commit_transaction", transaction_id=saved["id"])
    for t in every(ep, "list_transactions", status="saved"):
        if t["date"].startswith("2026-02") and t["ship_to"]["country"] == country:
            ok(ep, "commit_transaction", transaction_id=t["id"])
    filing = ok(ep, "file_return", company_id=co["id"], country=country, year=2026, month=2)
    period = [
        t
        for t in every(ep, "list_transactions", status="committed")
        if t["date"].startswith("2026-02") and t["ship_to"]["country"] == country
    ]
    sign = {t["id"]: -1 if t["type"] == "return_invoice" else 1 for t in period}
    assert filing["transaction_count"] == len(period)
    assert filing["total_tax"] == sum(sign[t["id"]] * t["total_tax"] for t in period)
    assert all(t["filing_id"] == filing["id"] for t in period)
    refused(ep, "file_return", "conflict", "month", company_id=co["id"], country=country, year=2026, month=2)
    refused(ep, "file_return", "rule_violation", "month", company_id=co["id"], country=country, year=2026, month=3)
    outside = customer_in(ep, False).place.country
    refused(ep, "file_return", "rule_violation", "country", company_id=co["id"], country=outside, year=2026, month=2)


def test_nexus_is_declared_once_per_country_and_kept_while_documents_are_open(ep: Episode) -> None:
    co = home(ep)
    country = sorted(nexus_countries(ep))[0]
    refused(
        ep, "create_nexus", "conflict", "country", company_id=co["id"], country=country, effective_date="2026-03-01"
    )
    refused(
        ep, "create_nexus", "rule_violation", "country", company_id=co["id"], country="ZZ", effective_date="2026-03-01"
    )
    open_country = next(
        t["ship_to"]["country"]
        for t in every(ep, "list_transactions", status="committed")
        if not t["filing_id"] and t["ship_to"]["country"] in nexus_countries(ep)
    )
    nexus = every(ep, "list_nexuses", company_id=co["id"], country=open_country)[0]
    refused(ep, "delete_nexus", "rule_violation", "nexus_id", nexus_id=nexus["id"])
    outside = customer_in(ep, False)
    ok(ep, "create_nexus", company_id=co["id"], country=outside.place.country, effective_date="2026-01-01")
    assert calc(ep, outside, [{"amount": 10_000}])["has_nexus"]
