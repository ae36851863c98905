"""Benchline LIMS: logging with specs, chain of custody, results on calibrated instruments, OOS, review, CoA."""

from __future__ import annotations

from typing import Any

from compoworld import Episode
from tests.services.helpers import ServiceTools

LIMS = ServiceTools("lims")
WORLD = LIMS.world
ok, refused, every, first = LIMS.ok, LIMS.refused, LIMS.every, LIMS.first
POP = WORLD.population
STAFF = [p.email for p in POP.employees]


def logged(ep: Episode) -> dict[str, Any]:
    spec = first(ep, "specifications", status="approved")
    made: dict[str, Any] = ok(
        ep,
        "log_sample",
        product_sku=spec["product_sku"],
        lot_number="LOT-9001",
        sample_type="in_process",
        collected_by=STAFF[0],
    )
    return made


def instrument_for(ep: Episode, test: dict[str, Any]) -> dict[str, Any]:
    tech = ok(ep, "get_method", method_id=test["method_id"])["technique"]
    usable = [i for i in every(ep, "list_instruments", technique=tech, status="in_service")]
    return max(usable, key=lambda i: i["calibration_due_on"])


def limits(ep: Episode, test: dict[str, Any]) -> dict[str, Any]:
    return next(s for s in every(ep, "list_specifications") if s["id"] == test["spec_id"])


def passing(spec: dict[str, Any]) -> float:
    return float(spec["min_value"] if spec["min_value"] is not None else spec["max_value"])


def test_logging_creates_one_test_per_approved_spec_and_starts_the_custody_chain(ep: Episode) -> None:
    s = logged(ep)
    specs = every(ep, "list_specifications", product_sku=s["product_sku"], status="approved")
    made = every(ep, "list_tests", sample_id=s["id"])
    assert sorted(t["spec_id"] for t in made) == sorted(x["id"] for x in specs)
    assert {t["status"] for t in made} == {"pending"}
    chain = every(ep, "list_custody_entries", sample_id=s["id"])
    assert [(c["from_party"], c["to_email"]) for c in chain] == [("sampling", STAFF[0])]
    draft = first(ep, "specifications", status="draft")
    if not every(ep, "list_specifications", product_sku=draft["product_sku"], status="approved"):
        refused(
            ep,
            "log_sample",
            "rule_violation",
            "product_sku",
            product_sku=draft["product_sku"],
            lot_number="LOT-9002",
            sample_type="raw_material",
            collected_by=STAFF[0],
        )
    refused(
        ep,
        "log_sample",
        "rule_violation",
        "collected_by",
        product_sku=s["product_sku"],
        lot_number="LOT-9003",
        sample_type="raw_material",
        collected_by="x@y.io",
    )


def test_custody_passes_only_between_staff_and_results_wait_for_receipt(ep: Episode) -> None:
    s = logged(ep)
    t = every(ep, "list_tests", sample_id=s["id"])[0]
    ins = instrument_for(ep, t)
    args = {"test_id": t["id"], "instrument_id": ins["id"], "analyst_email": STAFF[1]}
    refused(ep, "enter_result", "rule_violation", "test_id", value=passing(limits(ep, t)), **args)
    refused(ep, "transfer_custody", "rule_violation", "sample_id", sample_id=s["id"], to_email=STAFF[1])
    refused(ep, "receive_sample", "rule_violation", "to_email", sample_id=s["id"], to_email="courier@x.io")
    refused(ep, "receive_sample", "rule_violation", "to_email", sample_id=s["id"], to_email=STAFF[0])
    got = ok(ep, "receive_sample", sample_id=s["id"], to_email=STAFF[1])
    assert (got["status"], got["custodian_email"]) == ("received", STAFF[1])
    ok(ep, "transfer_custody", sample_id=s["id"], to_email=STAFF[2], purpose="HPLC bench")
    chain = every(ep, "list_custody_entries", sample_id=s["id"])
    assert [c["to_email"] for c in chain] == [STAFF[0], STAFF[1], STAFF[2]]
    assert [c["from_party"] for c in chain][1:] == [STAFF[0], STAFF[1]]


def test_results_need_an_in_service_calibrated_instrument_of_the_method_technique(ep: Episode) -> None:
    s = logged(ep)
    ok(ep, "receive_sample", sample_id=s["id"], to_email=STAFF[1])
    t = every(ep, "list_tests", sample_id=s["id"])[0]
    tech = ok(ep, "get_method", method_id=t["method_id"])["technique"]
    wrong = next(i for i in every(ep, "list_instruments") if i["technique"] != tech)
    base = {"test_id": t["id"], "value": passing(limits(ep, t)), "analyst_email": STAFF[1]}
    refused(ep, "enter_result", "rule_violation", "instrument_id", instrument_id=wrong["id"], **base)
    ins = instrument_for(ep, t)
    ok(ep, "take_out_of_service_instrument", instrument_id=ins["id"])
    others = [i for i in every(ep, "list_instruments", technique=tech, status="in_service")]
    for other in others:
        ok(ep, "take_out_of_service_instrument", instrument_id=other["id"])
    refused(ep, "enter_result", "rule_violation", "instrument_id", instrument_id=ins["id"], **base)
    fixed = ok(ep, "record_calibration", instrument_id=ins["id"])
    assert fixed["status"] == "in_service" and fixed["calibration_due_on"] > fixed["last_calibrated_on"]
    done = ok(ep, "enter_result", instrument_id=ins["id"], **base)
    assert (done["status"], done["in_spec"]) == ("complete", True)
    refused(ep, "enter_result", "conflict", "test_id", instrument_id=ins["id"], **base)


def test_an_overdue_instrument_is_refused_until_calibrated(ep: Episode) -> None:
    overdue = next(i for i in every(ep, "list_instruments") if i["calibration_due_on"] < str(WORLD.epoch.date()))
    s = logged(ep)
    ok(ep, "receive_sample", sample_id=s["id"], to_email=STAFF[1])
    method = next(m for m in every(ep, "list_methods") if m["technique"] == overdue["technique"])
    t = every(ep, "list_tests", sample_id=s["id"], method_id=method["id"])
    if t:
        args = {"test_id": t[0]["id"], "value": passing(limits(ep, t[0])), "analyst_email": STAFF[1]}
        refused(ep, "enter_result", "rule_violation", "instrument_id", instrument_id=overdue["id"], **args)
        ok(ep, "record_calibration", instrument_id=overdue["id"])
        assert ok(ep, "enter_result", instrument_id=overdue["id"], **args)["status"] == "complete"
    failed = ok(ep, "record_calibration", instrument_id=overdue["id"], passed=False)
    assert failed["status"] == "out_of_service"


def finish(ep: Episode, s: dict[str, Any], oos_first: bool = False) -> list[dict[str, Any]]:
    out = []
    for n, t in enumerate(every(ep, "list_tests", sample_id=s["id"], status="pending")):
        spec = limits(ep, t)
        value = passing(spec) if not (oos_first and n == 0) else (spec["max_value"] or 0) * 2 + 1
        out.append(
            ok(
                ep,
                "enter_result",
                test_id=t["id"],
                value=value,
                instrument_id=instrument_for(ep, t)["id"],
                analyst_email=STAFF[1],
            )
        )
    return out


def test_an_oos_result_opens_an_investigation_and_a_lab_error_gives_a_retest(ep: Episode) -> None:
    s = logged(ep)
    ok(ep, "receive_sample", sample_id=s["id"], to_email=STAFF[1])
    results = finish(ep, s, oos_first=True)
    assert results[0]["status"] == "oos" and results[0]["in_spec"] is False
    inv = first(ep, "investigations", test_id=results[0]["id"])
    assert ok(ep, "get_sample", sample_id=s["id"])["status"] == "in_testing"
    refused(ep, "review_sample", "rule_violation", "sample_id", sample_id=s["id"], reviewer_email=STAFF[3])
    refused(
        ep,
        "conclude_investigation",
        "rule_violation",
        "root_cause",
        investigation_id=inv["id"],
        finding="lab_error",
        root_cause=" ",
    )
    ok(ep, "conclude_investigation", investigation_id=inv["id"], finding="lab_error", root_cause="Wrong dilution")
    retest = every(ep, "list_tests", sample_id=s["id"], status="pending")
    assert [r["method_id"] for r in retest] == [results[0]["method_id"]]
    finish(ep, s)
    assert ok(ep, "get_sample", sample_id=s["id"])["status"] == "complete"
    refused(
        ep,
        "conclude_investigation",
        "conflict",
        "investigation_id",
        investigation_id=inv["id"],
        finding="confirmed_oos",
        root_cause="x",
    )


def test_review_is_four_eyes_and_release_leads_to_one_certificate(ep: Episode) -> None:
    s = logged(ep)
    ok(ep, "receive_sample", sample_id=s["id"], to_email=STAFF[1])
    refused(ep, "review_sample", "rule_violation", "sample_id", sample_id=s["id"], reviewer_email=STAFF[3])
    finish(ep, s)
    refused(ep, "review_sample", "rule_violation", "reviewer_email", sample_id=s["id"], reviewer_email=STAFF[1])
    refused(
        ep,
        "issue_certificate",
        "rule_violation",
        "sample_id",
        sample_id=s["id"],
        recipient_email="qa@c.io",
        issued_by=STAFF[3],
    )
    assert ok(ep, "review_sample", sample_id=s["id"], reviewer_email=STAFF[3])["reviewed_by"] == STAFF[3]
    assert ok(ep, "disposition_sample", sample_id=s["id"])["status"] == "released"
    coa = ok(ep, "issue_certificate", sample_id=s["id"], recipient_email="qa@customer.io", issued_by=STAFF[3])
    assert len(coa["lines"]) == len(every(ep, "list_tests", sample_id=s["id"]))
    assert all(line["limits"] for line in coa["lines"])
    refused(
        ep,
        "issue_certificate",
        "conflict",
        "sample_id",
        sample_id=s["id"],
        recipient_email="qa@customer.io",
        issued_by=STAFF[3],
    )


def test_a_confirmed_oos_rejects_the_sample_and_only_decided_samples_are_disposed(ep: Episode) -> None:
    s = logged(ep)
    ok(ep, "receive_sample", sample_id=s["id"], to_email=STAFF[1])
    refused(ep, "dispose_sample", "rule_violation", "sample_id", sample_id=s["id"])
    results = finish(ep, s, oos_first=True)
    inv = first(ep, "investigations", test_id=results[0]["id"])
    ok(ep, "conclude_investigation", investigation_id=inv["id"], finding="confirmed_oos", root_cause="Confirmed")
    assert ok(ep, "get_sample", sample_id=s["id"])["status"] == "complete"
    ok(ep, "review_sample", sample_id=s["id"], reviewer_email=STAFF[3])
    assert ok(ep, "disposition_sample", sample_id=s["id"])["status"] == "rejected"
    refused(
        ep,
        "issue_certificate",
        "rule_violation",
        "sample_id",
        sample_id=s["id"],
        recipient_email="qa@c.io",
        issued_by=STAFF[3],
    )
    assert ok(ep, "dispose_sample", sample_id=s["id"])["status"] == "disposed"


def test_specifications_need_a_limit_and_one_approved_per_product_and_method(ep: Episode) -> None:
    spec = first(ep, "specifications", status="approved")
    base = {"product_sku": spec["product_sku"], "method_id": spec["method_id"]}
    refused(ep, "create_specification", "rule_violation", "min_value", **base)
    refused(ep, "create_specification", "rule_violation", "min_value", min_value=5.0, max_value=1.0, **base)
    draft = ok(ep, "create_specification", min_value=1.0, max_value=5.0, **base)
    refused(ep, "approve_specification", "conflict", "specification_id", specification_id=draft["id"])
    ok(ep, "retire_specification", specification_id=spec["id"])
    assert ok(ep, "approve_specification", specification_id=draft["id"])["status"] == "approved"
    refused(
        ep,
        "define_method",
        "conflict",
        "code",
        code=ok(ep, "get_method", method_id=spec["method_id"])["code"],
        name="Again",
        analyte="X",
        unit="%",
        technique="hplc",
    )
