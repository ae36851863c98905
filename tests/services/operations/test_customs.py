"""Borderline Customs: classification, invoices, filing rules, duties and fees, holds, payment, release."""

from __future__ import annotations

from typing import Any

from compoworld import Episode
from tests.services.helpers import ServiceTools

CUSTOMS = ServiceTools("customs")
WORLD = CUSTOMS.world
ok, refused, every = CUSTOMS.ok, CUSTOMS.refused, CUSTOMS.every
POP = WORLD.population
BROKER = POP.employees[0].email


def live_importer(ep: Episode) -> dict[str, Any]:
    return every(ep, "list_importers", bond_type="continuous")[0]


def draft_entry(ep: Episode, imp: dict[str, Any], entry_type: str = "01", mode: str = "ocean") -> dict[str, Any]:
    made: dict[str, Any] = ok(
        ep,
        "create_entry",
        importer_id=imp["id"],
        entry_type=entry_type,
        mode=mode,
        port_code="2704",
        master_bill_number="MAEU123456789",
        arrival_date=WORLD.epoch.date().isoformat(),
        filer_email=BROKER,
    )
    return made


def invoice_with(ep: Episode, imp: dict[str, Any], number: str, **line: Any) -> dict[str, Any]:
    inv = ok(
        ep,
        "create_commercial_invoice",
        importer_id=imp["id"],
        invoice_number=number,
        seller_name=POP.customers[0].name,
        seller_country=line["country_of_origin"],
    )
    full: dict[str, Any] = ok(ep, "add_invoice_line", commercial_invoice_id=inv["id"], description="Goods", **line)
    return full


def test_seed_importers_are_the_worlds_companies_and_entries_cover_every_state(ep: Episode) -> None:
    names = {c.name for c in POP.companies}
    assert {i["name"] for i in every(ep, "list_importers")} <= names
    assert {e["status"] for e in every(ep, "list_entries")} == {
        "draft",
        "filed",
        "accepted",
        "on_hold",
        "released",
        "liquidated",
        "cancelled",
    }
    for e in every(ep, "list_entries", status="on_hold"):
        assert every(ep, "list_holds", entry_id=e["id"], status="open")
    for e in every(ep, "list_entries", status="released"):
        assert e["paid"] and e["total_due"] == e["duty"] + e["mpf"] + e["hmf"]


def test_invoice_lines_need_a_known_hts_code_and_no_duplicate_sku(ep: Episode) -> None:
    imp = live_importer(ep)
    inv = ok(
        ep,
        "create_commercial_invoice",
        importer_id=imp["id"],
        invoice_number="INV-77",
        seller_name="Acme",
        seller_country="VN",
    )
    line = {"sku": "AB-100", "description": "Widget", "country_of_origin": "VN", "quantity": 5, "unit_value": 1000}
    refused(
        ep,
        "add_invoice_line",
        "rule_violation",
        "hts_code",
        commercial_invoice_id=inv["id"],
        hts_code="9999.99.9999",
        **line,
    )
    ok(ep, "add_invoice_line", commercial_invoice_id=inv["id"], hts_code="8471.30.0100", **line)
    refused(ep, "add_invoice_line", "conflict", "sku", commercial_invoice_id=inv["id"], hts_code="8471.30.0100", **line)
    refused(
        ep,
        "create_commercial_invoice",
        "conflict",
        "invoice_number",
        importer_id=imp["id"],
        invoice_number="INV-77",
        seller_name="Acme",
        seller_country="VN",
    )


def test_duties_add_section_301_for_chinese_origin_and_fees_by_mode(ep: Episode) -> None:
    imp = live_importer(ep)
    line = {"sku": "PSU-1", "hts_code": "8504.40.9580", "quantity": 100, "unit_value": 10_000}
    cn = invoice_with(ep, imp, "CN-1", country_of_origin="CN", **line)
    entry = draft_entry(ep, imp)
    ok(ep, "attach_invoice", entry_id=entry["id"], commercial_invoice_id=cn["id"])
    est = ok(ep, "calculate_duties", entry_id=entry["id"])
    assert est["entered_value"] == 1_000_000
    assert est["lines"][0]["rate"] == 26.5 and est["duty"] == 265_000
    assert est["mpf"] == 3464 and est["hmf"] == 1250
    assert est["total_due"] == 265_000 + 3464 + 1250
    de = invoice_with(ep, imp, "DE-1", country_of_origin="DE", **line)
    air = draft_entry(ep, imp, mode="air")
    ok(ep, "attach_invoice", entry_id=air["id"], commercial_invoice_id=de["id"])
    est = ok(ep, "calculate_duties", entry_id=air["id"])
    assert (est["duty"], est["hmf"]) == (15_000, 0)


def test_mpf_is_kept_between_its_minimum_and_maximum(ep: Episode) -> None:
    imp = live_importer(ep)
    small = invoice_with(
        ep, imp, "S-1", sku="BOLT-1", hts_code="7318.15.2095", country_of_origin="MX", quantity=1, unit_value=500
    )
    big = invoice_with(
        ep, imp, "B-1", sku="LT-1", hts_code="8471.30.0100", country_of_origin="TW", quantity=1000, unit_value=100_000
    )
    for inv, mpf in ((small, 3271), (big, 63462)):
        entry = draft_entry(ep, imp, mode="truck")
        ok(ep, "attach_invoice", entry_id=entry["id"], commercial_invoice_id=inv["id"])
        assert ok(ep, "calculate_duties", entry_id=entry["id"])["mpf"] == mpf


def test_filing_needs_invoices_a_live_bond_and_informal_entries_under_2500(ep: Episode) -> None:
    imp = live_importer(ep)
    entry = draft_entry(ep, imp, entry_type="11")
    refused(ep, "file_entry", "rule_violation", "entry_id", entry_id=entry["id"])
    inv = invoice_with(
        ep, imp, "X-1", sku="LT-9", hts_code="8471.30.0100", country_of_origin="TW", quantity=3, unit_value=100_000
    )
    ok(ep, "attach_invoice", entry_id=entry["id"], commercial_invoice_id=inv["id"])
    refused(ep, "file_entry", "rule_violation", "entry_id", entry_id=entry["id"])
    expired = every(ep, "list_importers", bond_type="single")[0]
    late = draft_entry(ep, expired)
    inv2 = invoice_with(
        ep, expired, "Y-1", sku="LT-8", hts_code="8471.30.0100", country_of_origin="TW", quantity=1, unit_value=100
    )
    ok(ep, "attach_invoice", entry_id=late["id"], commercial_invoice_id=inv2["id"])
    refused(ep, "file_entry", "rule_violation", "entry_id", entry_id=late["id"])
    ok(ep, "update_importer", importer_id=expired["id"], bond_expires_on="2030-01-01")
    filed = ok(ep, "file_entry", entry_id=late["id"])
    assert filed["status"] == "filed" and filed["total_due"] == filed["duty"] + filed["mpf"] + filed["hmf"]


def test_an_invoice_is_filed_on_one_entry_and_frozen_there(ep: Episode) -> None:
    entry = every(ep, "list_entries", status="accepted")[0]
    inv = every(ep, "list_commercial_invoices", entry_id=entry["id"])[0]
    other = draft_entry(ep, ok(ep, "get_importer", importer_id=entry["importer_id"]))
    refused(
        ep, "attach_invoice", "conflict", "commercial_invoice_id", entry_id=other["id"], commercial_invoice_id=inv["id"]
    )
    refused(
        ep,
        "remove_invoice_line",
        "rule_violation",
        "commercial_invoice_id",
        commercial_invoice_id=inv["id"],
        sku=inv["lines"][0]["sku"],
    )
    refused(ep, "delete_commercial_invoice", "rule_violation", "commercial_invoice_id", commercial_invoice_id=inv["id"])


def test_holds_block_release_until_all_are_released(ep: Episode) -> None:
    entry = next(e for e in every(ep, "list_entries", status="accepted") if e["paid"])
    hold = ok(ep, "place_hold", entry_id=entry["id"], hold_type="fda", reason="Prior notice missing")
    ok(ep, "place_hold", entry_id=entry["id"], hold_type="cbp_exam", reason="Random exam")
    refused(ep, "place_hold", "conflict", "hold_type", entry_id=entry["id"], hold_type="fda", reason="Again")
    refused(ep, "release_entry", "rule_violation", "entry_id", entry_id=entry["id"])
    ok(ep, "release_hold", hold_id=hold["id"])
    assert ok(ep, "get_entry", entry_id=entry["id"])["status"] == "on_hold"
    refused(ep, "release_hold", "conflict", "hold_id", hold_id=hold["id"])
    other = every(ep, "list_holds", entry_id=entry["id"], status="open")[0]
    ok(ep, "release_hold", hold_id=other["id"])
    assert ok(ep, "get_entry", entry_id=entry["id"])["status"] == "accepted"
    released = ok(ep, "release_entry", entry_id=entry["id"])
    assert released["status"] == "released" and released["released_at"] is not None


def test_duties_are_paid_in_full_before_release(ep: Episode) -> None:
    entry = next(e for e in every(ep, "list_entries", status="accepted") if not e["paid"])
    refused(ep, "release_entry", "rule_violation", "entry_id", entry_id=entry["id"])
    refused(ep, "pay_duties", "rule_violation", "amount", entry_id=entry["id"], amount=entry["total_due"] - 1)
    assert ok(ep, "pay_duties", entry_id=entry["id"], amount=entry["total_due"])["paid"]
    refused(ep, "pay_duties", "conflict", "entry_id", entry_id=entry["id"], amount=entry["total_due"])
    ok(ep, "release_entry", entry_id=entry["id"])
    assert ok(ep, "liquidate_entry", entry_id=entry["id"])["status"] == "liquidated"


def test_cancelling_frees_the_invoices_and_only_before_payment(ep: Episode) -> None:
    entry = every(ep, "list_entries", status="draft")[0]
    invs = every(ep, "list_commercial_invoices", entry_id=entry["id"])
    assert ok(ep, "cancel_entry", entry_id=entry["id"])["status"] == "cancelled"
    for inv in invs:
        assert ok(ep, "get_commercial_invoice", commercial_invoice_id=inv["id"])["entry_id"] is None
    released = every(ep, "list_entries", status="released")[0]
    refused(ep, "cancel_entry", "rule_violation", "entry_id", entry_id=released["id"])


def test_a_product_has_one_live_classification_per_importer(ep: Episode) -> None:
    c = every(ep, "list_classifications", status="approved")[0]
    args = {k: c[k] for k in ("importer_id", "sku", "description", "country_of_origin")}
    refused(ep, "create_classification", "conflict", "sku", hts_code=c["hts_code"], classified_by=BROKER, **args)
    refused(
        ep,
        "create_classification",
        "rule_violation",
        "classified_by",
        **(args | {"sku": "NEW-1"}),
        hts_code=c["hts_code"],
        classified_by="x@y.io",
    )
    ok(ep, "reject_classification", classification_id=c["id"])
    again = ok(ep, "create_classification", hts_code="8523.51.0000", classified_by=BROKER, **args)
    assert ok(ep, "approve_classification", classification_id=again["id"])["status"] == "approved"
