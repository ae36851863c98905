"""Formline 1099: W-9 requests, TIN matching and backup withholding, thresholds, e-file, corrections, copies."""

from __future__ import annotations

from typing import Any

from compoworld import Episode
from compoworld.world import finance as links
from tests.services.helpers import ServiceTools

TF = ServiceTools("taxforms")
WORLD = TF.world
ok, refused, every = TF.ok, TF.refused, TF.every
POP = WORLD.population
YEAR = WORLD.epoch.year - 1
FILER = POP.staff("Finance", fallback=1)[0].email


def payee(ep: Episode, **filters: Any) -> dict[str, Any]:
    return every(ep, "list_payees", **filters)[0]


def name(p: dict[str, Any]) -> str:
    return str(p["business_name"] or p["person_name"])


def draft_of(ep: Episode, **payee_filters: Any) -> dict[str, Any]:
    for p in every(ep, "list_payees", **payee_filters):
        found = every(ep, "list_forms", payee_id=p["id"], status="draft")
        if found:
            return found[0]
    raise AssertionError(f"no draft for {payee_filters}")


def test_payees_are_suppliers_and_contractors_and_withholding_follows_mismatches(ep: Episode) -> None:
    suppliers = {s.company.name: s.contact.email for s in links.suppliers(POP)}
    for p in every(ep, "list_payees", kind="business"):
        assert suppliers[p["business_name"]] == p["email"]
    consumers = {c.email for c in POP.consumers}
    assert all(p["email"] in consumers for p in every(ep, "list_payees", kind="individual"))
    assert {p["w9_status"] for p in every(ep, "list_payees")} == {"not_requested", "requested", "on_file"}
    for p in every(ep, "list_payees", backup_withholding=True):
        assert p["tin_match"] == "mismatched"
        for f in every(ep, "list_forms", payee_id=p["id"]):
            assert f["federal_withheld"] == round(f["amount"] * 0.24)


def test_a_w9_is_recorded_only_after_a_request_and_a_business_certifies_an_ein(ep: Episode) -> None:
    p = payee(ep, w9_status="not_requested", kind="business")
    refused(ep, "record_w9", "rule_violation", "payee_id", payee_id=p["id"], w9_name=name(p), tin="12-3456789")
    assert ok(ep, "request_w9", payee_id=p["id"])["w9_status"] == "requested"
    refused(ep, "record_w9", "rule_violation", "tin", payee_id=p["id"], w9_name=name(p), tin="123-45-6789")
    got = ok(ep, "record_w9", payee_id=p["id"], w9_name=name(p), tin="12-3456789")
    assert (got["w9_status"], got["tin"], got["tin_match"]) == ("on_file", "12-3456789", "unchecked")
    refused(ep, "request_w9", "conflict", "payee_id", payee_id=p["id"])


def test_tin_matching_compares_names_and_drives_backup_withholding(ep: Episode) -> None:
    p = payee(ep, tin_match="unchecked", w9_status="on_file")
    assert ok(ep, "match_tin", payee_id=p["id"])["tin_match"] == "matched"
    noticed = ok(ep, "record_b_notice", payee_id=p["id"])
    assert (noticed["backup_withholding"], noticed["w9_status"], noticed["tin_match"]) == (
        True,
        "requested",
        "mismatched",
    )
    ok(ep, "record_w9", payee_id=p["id"], w9_name="Someone Else", tin=p["tin"])
    assert ok(ep, "match_tin", payee_id=p["id"])["backup_withholding"] is True
    ok(ep, "record_b_notice", payee_id=p["id"])
    ok(ep, "record_w9", payee_id=p["id"], w9_name=name(p).upper(), tin=p["tin"])
    lifted = ok(ep, "match_tin", payee_id=p["id"])
    assert (lifted["tin_match"], lifted["backup_withholding"]) == ("matched", False)
    refused(ep, "match_tin", "rule_violation", "payee_id", payee_id=payee(ep, w9_status="not_requested")["id"])


def test_forms_respect_thresholds_one_per_box_and_year_and_the_box_sets_the_type(ep: Episode) -> None:
    p = payee(ep, w9_status="not_requested", kind="individual")
    base = {"payee_id": p["id"], "tax_year": YEAR}
    refused(ep, "create_form", "rule_violation", "amount", box="nec_1_nonemployee_comp", amount=599_99, **base)
    roy = ok(ep, "create_form", box="misc_2_royalties", amount=10_00, **base)
    assert roy["form_type"] == "1099-MISC"
    nec = ok(ep, "create_form", box="nec_1_nonemployee_comp", amount=600_00, **base)
    assert nec["form_type"] == "1099-NEC"
    refused(ep, "create_form", "conflict", "box", box="nec_1_nonemployee_comp", amount=900_00, **base)
    assert ok(ep, "update_form", form_id=nec["id"], amount=950_00)["amount"] == 950_00


def test_backup_withholding_payees_need_24_percent_withheld(ep: Episode) -> None:
    p = payee(ep, backup_withholding=True)
    base = {"payee_id": p["id"], "tax_year": YEAR, "box": "misc_3_other_income", "amount": 1_000_00}
    refused(ep, "create_form", "rule_violation", "federal_withheld", federal_withheld=0, **base)
    assert ok(ep, "create_form", federal_withheld=240_00, **base)["federal_withheld"] == 240_00


def test_efile_needs_a_w9_on_file_and_a_tin_match_and_locks_the_form(ep: Episode) -> None:
    missing = draft_of(ep, w9_status="requested")
    unchecked = draft_of(ep, tin_match="unchecked", w9_status="on_file")
    good = draft_of(ep, tin_match="matched")
    refused(ep, "efile_forms", "rule_violation", "form_ids", form_ids=[missing["id"]], submitted_by=FILER)
    refused(ep, "efile_forms", "rule_violation", "form_ids", form_ids=[good["id"], unchecked["id"]], submitted_by=FILER)
    refused(ep, "efile_forms", "rule_violation", "submitted_by", form_ids=[good["id"]], submitted_by="x@y.io")
    sub = ok(ep, "efile_forms", form_ids=[good["id"]], submitted_by=FILER)
    filed = ok(ep, "get_form", form_id=good["id"])
    assert (sub["status"], filed["status"], filed["submission_id"]) == ("submitted", "submitted", sub["id"])
    refused(ep, "update_form", "rule_violation", "form_id", form_id=good["id"], amount=700_00)
    refused(ep, "delete_form", "rule_violation", "form_id", form_id=good["id"])
    refused(ep, "efile_forms", "rule_violation", "form_ids", form_ids=[good["id"]], submitted_by=FILER)


def test_the_irs_accepts_matched_and_withheld_forms(ep: Episode) -> None:
    backup = draft_of(ep, backup_withholding=True)
    sub = ok(ep, "efile_forms", form_ids=[backup["id"]], submitted_by=FILER)
    assert ok(ep, "refresh_submission", submission_id=sub["id"])["status"] == "accepted"
    assert ok(ep, "get_form", form_id=backup["id"])["status"] == "accepted"
    pending = every(ep, "list_submissions", status="submitted")[0]
    assert ok(ep, "refresh_submission", submission_id=pending["id"])["status"] == "accepted"
    assert {ok(ep, "get_form", form_id=f)["status"] for f in pending["form_ids"]} == {"accepted"}


def test_a_correction_replaces_an_accepted_form_and_is_filed_anew(ep: Episode) -> None:
    acc = every(ep, "list_forms", status="accepted", corrects_id=None)[0]
    refused(
        ep,
        "correct_form",
        "rule_violation",
        "form_id",
        form_id=draft_of(ep, tin_match="matched")["id"],
        amount=1_000_00,
    )
    new = ok(ep, "correct_form", form_id=acc["id"], amount=acc["amount"] + 500_00)
    assert (new["status"], new["corrects_id"], new["box"]) == ("draft", acc["id"], acc["box"])
    assert ok(ep, "get_form", form_id=acc["id"])["status"] == "corrected"
    refused(ep, "correct_form", "rule_violation", "form_id", form_id=acc["id"], amount=1_000_00)
    sub = ok(ep, "efile_forms", form_ids=[new["id"]], submitted_by=FILER)
    assert sub["form_ids"] == [new["id"]]


def test_recipient_copies_follow_consent_and_go_once(ep: Episode) -> None:
    unsent = [f for f in every(ep, "list_forms", status="accepted") if f["copy_sent_on"] is None]
    f = next(x for x in unsent if not ok(ep, "get_payee", payee_id=x["payee_id"])["e_delivery_consent"])
    refused(ep, "send_recipient_copy", "rule_violation", "method", form_id=f["id"], method="email")
    sent = ok(ep, "send_recipient_copy", form_id=f["id"], method="postal")
    assert (sent["copy_sent_by"], sent["copy_sent_on"]) == ("postal", WORLD.epoch.date().isoformat())
    refused(ep, "send_recipient_copy", "conflict", "form_id", form_id=f["id"], method="postal")
    draft = draft_of(ep, tin_match="matched")
    refused(ep, "send_recipient_copy", "rule_violation", "form_id", form_id=draft["id"], method="postal")


def test_the_year_summary_counts_live_forms_and_missing_w9s(ep: Episode) -> None:
    summary = ok(ep, "year_summary", tax_year=YEAR)
    forms = every(ep, "list_forms", tax_year=YEAR)
    assert sum(summary["by_status"].values()) == len(forms)
    for row in summary["payees"]:
        live = [f for f in forms if f["payee_id"] == row["payee_id"] and f["status"] != "corrected"]
        assert row["amount"] == sum(f["amount"] for f in live)
        assert row["filed"] == all(f["status"] == "accepted" for f in live)
    need = {p["id"] for p in every(ep, "list_payees") if p["w9_status"] != "on_file"}
    assert set(summary["missing_w9"]) == need & {f["payee_id"] for f in forms} != set()
