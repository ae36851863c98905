"""Meridian Labs: order lifecycle, specimen stability and rejection, result flags, critical calls, release."""

from __future__ import annotations

from typing import Any

from compoworld import Episode
from tests.services.helpers import ServiceTools

LABS = ServiceTools("labs")
WORLD = LABS.world
ok, refused, every = LABS.ok, LABS.refused, LABS.every
POP = WORLD.population


def order(ep: Episode, status: str) -> dict[str, Any]:
    return every(ep, "list_orders", status=status)[0]


def new_order(ep: Episode, codes: list[str]) -> dict[str, Any]:
    busy = {o["patient_id"] for o in every(ep, "list_orders") if o["status"] not in ("final", "cancelled")}
    pat = next(p for p in every(ep, "list_patients") if p["id"] not in busy)
    doc = every(ep, "list_providers", active=True)[0]
    made: dict[str, Any] = ok(
        ep, "place_order", patient_id=pat["id"], provider_id=doc["id"], test_codes=codes, diagnosis_code="I10"
    )
    return made


def to_received(ep: Episode, codes: list[str]) -> dict[str, Any]:
    o = new_order(ep, codes)
    for spm in ok(ep, "collect_specimens", order_id=o["id"], collected_by="Dana Whitfield"):
        ok(ep, "accession_specimen", specimen_id=spm["id"])
    got: dict[str, Any] = ok(ep, "get_order", order_id=o["id"])
    return got


def test_seeded_patients_are_consumers_and_providers_the_practice_clinicians(ep: Episode) -> None:
    consumers = {p.email: p for p in POP.consumers}
    for p in every(ep, "list_patients"):
        person = consumers[p["email"]]
        assert (p["first_name"], p["birth_date"]) == (person.first_name, person.birth_date.isoformat())
    staff = {p.email for p in POP.people}
    assert all(d["email"] in staff and len(d["npi"]) == 10 for d in every(ep, "list_providers"))
    statuses = {o["status"] for o in every(ep, "list_orders")}
    assert statuses == {"pending", "collected", "received", "in_process", "final", "cancelled"}


def test_an_order_needs_known_distinct_tests_an_active_provider_and_no_open_duplicate(ep: Episode) -> None:
    open_o = order(ep, "pending")
    pat, doc = open_o["patient_id"], open_o["provider_id"]
    base = {"patient_id": pat, "provider_id": doc, "diagnosis_code": "I10"}
    refused(ep, "place_order", "rule_violation", "test_codes", test_codes=["99999"], **base)
    refused(ep, "place_order", "rule_violation", "test_codes", test_codes=["899", "899"], **base)
    refused(ep, "place_order", "conflict", "test_codes", test_codes=[open_o["test_codes"][0]], **base)
    idle = every(ep, "list_providers", active=False)[0]
    refused(
        ep, "place_order", "rule_violation", "provider_id", **(base | {"provider_id": idle["id"]}), test_codes=["6517"]
    )
    made = ok(ep, "place_order", test_codes=["6517"], priority="stat", **base)
    assert (made["status"], made["priority"]) == ("pending", "stat") and made["requisition"].startswith("REQ-")


def test_collection_draws_one_specimen_per_type_and_accessioning_receives_the_order(ep: Episode) -> None:
    o = new_order(ep, ["496", "483", "334"])
    drawn = ok(ep, "collect_specimens", order_id=o["id"], collected_by="Dana Whitfield")
    assert sorted(s["specimen_type"] for s in drawn) == ["serum", "whole_blood"]
    refused(ep, "collect_specimens", "conflict", "order_id", order_id=o["id"], collected_by="Dana Whitfield")
    first = ok(ep, "accession_specimen", specimen_id=drawn[0]["id"])
    assert first["accession_number"] and ok(ep, "get_order", order_id=o["id"])["status"] == "collected"
    ok(ep, "accession_specimen", specimen_id=drawn[1]["id"])
    assert ok(ep, "get_order", order_id=o["id"])["status"] == "received"
    refused(ep, "accession_specimen", "conflict", "specimen_id", specimen_id=drawn[1]["id"])


def test_a_rejected_specimen_sends_the_order_back_for_recollection(ep: Episode) -> None:
    o = order(ep, "collected")
    spm = every(ep, "list_specimens", order_id=o["id"])[0]
    got = ok(ep, "reject_specimen", specimen_id=spm["id"], reason="hemolyzed")
    assert (got["status"], got["reject_reason"]) == ("rejected", "hemolyzed")
    assert ok(ep, "get_order", order_id=o["id"])["status"] == "pending"
    refused(ep, "reject_specimen", "conflict", "specimen_id", specimen_id=spm["id"], reason="clotted")
    again = ok(ep, "collect_specimens", order_id=o["id"], collected_by="Dana Whitfield")
    assert all(s["status"] == "collected" for s in again)


def test_results_are_flagged_against_reference_and_critical_ranges(ep: Episode) -> None:
    o = to_received(ep, ["733", "836", "375"])
    assert ok(ep, "enter_result", order_id=o["id"], test_code="733", value=4.1)["flag"] == "N"
    high = ok(ep, "enter_result", order_id=o["id"], test_code="836", value=150)
    assert (high["flag"], high["critical"], high["reference_range"]) == ("H", False, "135-146")
    crit = ok(ep, "enter_result", order_id=o["id"], test_code="375", value=8.2)
    assert (crit["flag"], crit["critical"], crit["status"]) == ("HH", True, "preliminary")
    assert ok(ep, "get_order", order_id=o["id"])["status"] == "in_process"


def test_results_are_entered_once_per_ordered_test_within_range(ep: Episode) -> None:
    o = to_received(ep, ["733"])
    refused(ep, "enter_result", "rule_violation", "test_code", order_id=o["id"], test_code="899", value=1.0)
    refused(ep, "enter_result", "rule_violation", "value", order_id=o["id"], test_code="733", value=99.0)
    ok(ep, "enter_result", order_id=o["id"], test_code="733", value=4.0)
    refused(ep, "enter_result", "conflict", "test_code", order_id=o["id"], test_code="733", value=4.2)
    pending = order(ep, "pending")
    refused(
        ep,
        "enter_result",
        "rule_violation",
        "order_id",
        order_id=pending["id"],
        test_code=pending["test_codes"][0],
        value=1.0,
    )


def test_release_needs_every_result_and_every_critical_call_with_read_back(ep: Episode) -> None:
    o = to_received(ep, ["483", "334"])
    crit = ok(ep, "enter_result", order_id=o["id"], test_code="483", value=520)
    refused(ep, "release_order", "rule_violation", "order_id", order_id=o["id"])
    ok(ep, "enter_result", order_id=o["id"], test_code="334", value=180)
    refused(ep, "release_order", "rule_violation", "order_id", order_id=o["id"])
    refused(
        ep,
        "record_critical_call",
        "rule_violation",
        "read_back",
        result_id=crit["id"],
        called_to="Nurse Lee",
        read_back=False,
    )
    called = ok(ep, "record_critical_call", result_id=crit["id"], called_to="Nurse Lee")
    assert called["called_to"] == "Nurse Lee" and called["called_at"]
    refused(ep, "record_critical_call", "conflict", "result_id", result_id=crit["id"], called_to="Nurse Lee")
    done = ok(ep, "release_order", order_id=o["id"])
    assert done["status"] == "final" and done["released_at"]
    assert {r["status"] for r in every(ep, "list_results", order_id=o["id"])} == {"final"}


def test_the_seeded_critical_result_blocks_its_order_until_called(ep: Episode) -> None:
    uncalled = [r for r in every(ep, "list_results", critical=True) if r["called_at"] is None]
    assert uncalled and all(r["status"] == "preliminary" for r in uncalled)
    for r in every(ep, "list_results", critical=True, status="final"):
        assert r["called_to"]


def test_corrections_apply_to_released_results_and_need_a_reason(ep: Episode) -> None:
    prelim = every(ep, "list_results", status="preliminary")[0]
    refused(ep, "correct_result", "rule_violation", "result_id", result_id=prelim["id"], value=1.0, reason="typo")
    res = next(r for r in every(ep, "list_results", status="final") if r["test_code"] == "733")
    refused(ep, "correct_result", "rule_violation", "reason", result_id=res["id"], value=4.4, reason="  ")
    fixed = ok(ep, "correct_result", result_id=res["id"], value=6.5, reason="Wrong specimen label")
    assert (fixed["status"], fixed["flag"], fixed["critical"], fixed["called_at"]) == ("corrected", "HH", True, None)


def test_cancel_only_before_receipt_and_trend_lists_released_results(ep: Episode) -> None:
    assert ok(ep, "cancel_order", order_id=order(ep, "collected")["id"])["status"] == "cancelled"
    refused(ep, "cancel_order", "rule_violation", "order_id", order_id=order(ep, "received")["id"])
    refused(ep, "update_order", "rule_violation", "order_id", order_id=order(ep, "final")["id"], priority="stat")
    res = every(ep, "list_results", status="final")[0]
    trend = ok(ep, "result_trend", patient_id=res["patient_id"], test_code=res["test_code"])
    assert res["value"] in [p["value"] for p in trend["points"]]
