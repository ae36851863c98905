"""Medref Drug Reference: labels, NDC, RxNorm, interactions, recalls, and formularies with their rules."""

from __future__ import annotations

from typing import Any

from compoworld import Episode
from tests.services.helpers import ServiceTools

DRUG = ServiceTools("drugref")
WORLD = DRUG.world
ok, refused, every = DRUG.ok, DRUG.refused, DRUG.every
POP = WORLD.population
STAFF = {p.email for p in POP.employees}
WARFARIN, IBUPROFEN, OXYCODONE, DIAZEPAM, ATORVASTATIN = "855332", "197806", "1049621", "197591", "617312"


def active(ep: Episode) -> dict[str, Any]:
    [f] = DRUG.items(ep, "formularies", status="active")
    return f


def test_seeded_formularies_are_kept_by_staff_one_per_state(ep: Episode) -> None:
    found = every(ep, "list_formularies")
    assert sorted(f["status"] for f in found) == ["active", "archived", "draft"]
    assert all(f["owner_email"] in STAFF for f in found)
    for e in every(ep, "list_entries"):
        label = ok(ep, "get_label", rxcui=e["rxcui"])
        assert label["product_type"] == "HUMAN PRESCRIPTION DRUG"
        assert ok(ep, "find_rxcui", name=e["drug_name"])[0]["name"] == e["drug_name"]
        if e["rxcui"] == OXYCODONE:
            assert e["prior_authorization"]


def test_names_ndc_and_rxcui_lead_to_the_same_drug(ep: Episode) -> None:
    [hit] = [c for c in ok(ep, "find_rxcui", name="Warfarin 5 mg tablet") if c["score"] == 100.0] or [None]
    assert hit is not None and hit["rxcui"] == WARFARIN
    assert ok(ep, "find_rxcui", name="Coumadin")[0]["rxcui"] == WARFARIN
    label = ok(ep, "get_label", rxcui=WARFARIN)
    product = ok(ep, "lookup_ndc", ndc=label["product_ndc"])
    assert product["rxcui"] == WARFARIN and product["generic_name"] == "warfarin"
    package = product["packaging"][0]["package_ndc"]
    assert ok(ep, "lookup_ndc", ndc=package)["product_ndc"] == label["product_ndc"]
    refused(ep, "lookup_ndc", "not_found", "ndc", ndc=label["product_ndc"] + "-99")
    related = ok(ep, "get_related", rxcui=ATORVASTATIN)
    assert related["brands"] == ["Lipitor"] and related["ingredients"][0]["tty"] == "IN"
    assert "198211" in {c["rxcui"] for c in related["same_class"]}


def test_interactions_follow_drug_classes_and_are_symmetric(ep: Episode) -> None:
    one = ok(ep, "check_interactions", rxcuis=[WARFARIN, IBUPROFEN])
    two = ok(ep, "check_interactions", rxcuis=[IBUPROFEN, WARFARIN])
    assert one["highest_severity"] == two["highest_severity"] == "high"
    assert ok(ep, "check_interactions", rxcuis=[OXYCODONE, DIAZEPAM])["highest_severity"] == "high"
    assert ok(ep, "check_interactions", rxcuis=["308182", "197361"])["interactions"] == []
    report = ok(ep, "check_interactions", rxcuis=[WARFARIN, "198335", ATORVASTATIN, "308460"])
    assert [i["severity"] for i in report["interactions"]] == ["high", "moderate", "moderate"]
    dup = ok(ep, "check_interactions", rxcuis=[IBUPROFEN, "310965"])
    assert dup["highest_severity"] == "high" and "Same active ingredient" in dup["interactions"][0]["description"]
    refused(ep, "check_interactions", "rule_violation", "rxcuis.2", rxcuis=[WARFARIN, IBUPROFEN, WARFARIN])
    refused(ep, "check_interactions", "not_found", "rxcuis.1", rxcuis=[WARFARIN, "9999999"])


def test_recalls_filter_and_are_found_by_number(ep: Episode) -> None:
    all_recalls = ok(ep, "search_recalls")
    assert len(all_recalls) == 6
    assert [r["report_date"] for r in all_recalls] == sorted((r["report_date"] for r in all_recalls), reverse=True)
    ongoing = ok(ep, "search_recalls", status="Ongoing")
    assert len(ongoing) == 3 and {r["classification"] for r in ongoing} == {"Class I", "Class II", "Class III"}
    for r in all_recalls:
        assert ok(ep, "get_recall", recall_number=r["recall_number"]) == r
        assert ok(ep, "lookup_ndc", ndc=r["product_ndc"])["rxcui"] == r["rxcui"]
    refused(ep, "get_recall", "not_found", "recall_number", recall_number="D-0001-1999")


def test_a_drug_is_listed_once_and_schedule_two_needs_prior_authorisation(ep: Episode) -> None:
    [draft] = DRUG.items(ep, "formularies", status="draft")
    listed = {e["rxcui"] for e in every(ep, "list_entries", formulary_id=draft["id"])}
    some = next(iter(listed))
    refused(ep, "add_drug", "conflict", "rxcui", formulary_id=draft["id"], rxcui=some, tier=2)
    if OXYCODONE not in listed:
        refused(
            ep, "add_drug", "rule_violation", "prior_authorization", formulary_id=draft["id"], rxcui=OXYCODONE, tier=3
        )
        e = ok(ep, "add_drug", formulary_id=draft["id"], rxcui=OXYCODONE, tier=3, prior_authorization=True)
        assert e["status"] == "covered" and e["drug_name"].startswith("Oxycodone")
        refused(
            ep, "update_entry", "rule_violation", "prior_authorization", entry_id=e["id"], prior_authorization=False
        )
    refused(ep, "add_drug", "not_found", "rxcui", formulary_id=draft["id"], rxcui="1234567", tier=1)


def test_a_drug_under_serious_ongoing_recall_cannot_be_added(ep: Episode) -> None:
    [draft] = DRUG.items(ep, "formularies", status="draft")
    serious = [r for r in ok(ep, "search_recalls", status="Ongoing") if r["classification"] != "Class III"]
    listed = {e["rxcui"] for e in every(ep, "list_entries", formulary_id=draft["id"])}
    for r in serious:
        if r["rxcui"] not in listed:
            msg = refused(
                ep,
                "add_drug",
                "rule_violation",
                "rxcui",
                formulary_id=draft["id"],
                rxcui=r["rxcui"],
                tier=2,
                prior_authorization=True,
            )
            assert r["recall_number"] in msg


def test_applying_recalls_suspends_covered_entries_and_reinstating_waits_for_the_recall(ep: Episode) -> None:
    f = active(ep)
    serious = {r["rxcui"] for r in ok(ep, "search_recalls", status="Ongoing") if r["classification"] != "Class III"}
    before = {e["rxcui"]: e for e in every(ep, "list_entries", formulary_id=f["id"])}
    suspended = ok(ep, "apply_recalls", formulary_id=f["id"])
    assert {e["rxcui"] for e in suspended} == {r for r in serious if before.get(r, {}).get("status") == "covered"}
    assert ok(ep, "apply_recalls", formulary_id=f["id"]) == []
    for e in every(ep, "list_entries", formulary_id=f["id"], status="suspended"):
        if e["rxcui"] in serious:
            refused(ep, "reinstate_entry", "rule_violation", "entry_id", entry_id=e["id"])
        else:
            assert ok(ep, "reinstate_entry", entry_id=e["id"])["status"] == "covered"


def test_coverage_offers_covered_alternatives_of_the_class(ep: Episode) -> None:
    f = active(ep)
    cov = ok(ep, "check_coverage", formulary_id=f["id"], rxcui="310965")  # OTC ibuprofen: not listed
    assert not cov["covered"] and cov["entry"] is None
    assert [a["rxcui"] for a in cov["alternatives"]] in ([IBUPROFEN], [])
    statin = ok(ep, "check_coverage", formulary_id=f["id"], rxcui=ATORVASTATIN)
    assert statin["entry"] is not None and statin["entry"]["tier"] == 2


def test_formulary_lifecycle_publish_needs_drugs_and_archived_is_frozen(ep: Episode) -> None:
    owner = POP.employees[0].email
    f = ok(ep, "create_formulary", name="Pilot Plan", plan_year=2027, owner_email=owner)
    assert f["status"] == "draft"
    refused(ep, "publish_formulary", "rule_violation", "formulary_id", formulary_id=f["id"])
    ok(ep, "add_drug", formulary_id=f["id"], rxcui="308182", tier=1)
    assert ok(ep, "publish_formulary", formulary_id=f["id"])["status"] == "active"
    refused(ep, "delete_formulary", "rule_violation", "formulary_id", formulary_id=f["id"])
    ok(ep, "archive_formulary", formulary_id=f["id"])
    refused(ep, "add_drug", "rule_violation", "formulary_id", formulary_id=f["id"], rxcui="197361", tier=1)
    refused(ep, "update_formulary", "rule_violation", "formulary_id", formulary_id=f["id"], name="Renamed")
    outsider = POP.contacts[0].email
    refused(ep, "create_formulary", "rule_violation", "owner_email", name="X", plan_year=2027, owner_email=outsider)
