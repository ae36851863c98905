"""WorkWell Occupational Health: exam orders, CCF drug screens through the MRO, fitness, fit tests, OSHA log."""

from __future__ import annotations

import datetime as dt

from compoworld import Episode
from tests.services.helpers import ServiceTools

OH = ServiceTools("occhealth")
WORLD = OH.world
ok, refused, every, first = OH.ok, OH.refused, OH.every, OH.first
POP = WORLD.population
TODAY = WORLD.epoch.date()


def test_employers_are_customer_companies_and_workers_their_people(ep: Episode) -> None:
    companies = {c.name: c for c in POP.customers}
    for emp in every(ep, "list_employers"):
        company = companies[emp["name"]]
        people = {p.email for p in POP.people_at(company)}
        assert emp["der_email"] in people
        assert {w["email"] for w in every(ep, "list_workers", employer_id=emp["id"])} <= people


def test_an_order_opens_a_screen_and_refuses_a_duplicate(ep: Episode) -> None:
    w = first(ep, "workers")
    order = ok(ep, "create_order", worker_id=w["id"], reason="reasonable_suspicion", services=["drug_screen"])
    assert order["expires_on"] == (TODAY + dt.timedelta(days=14)).isoformat()
    screen = first(ep, "drug_screens", order_id=order["id"])
    assert screen["status"] == "pending_collection"
    refused(
        ep,
        "create_order",
        "conflict",
        "reason",
        worker_id=w["id"],
        reason="reasonable_suspicion",
        services=["physical"],
    )
    refused(ep, "create_order", "rule_violation", "services", worker_id=w["id"], reason="annual", services=[])


def test_dot_tests_are_for_dot_regulated_employers(ep: Episode) -> None:
    plain = next(e for e in every(ep, "list_employers") if not e["dot_regulated"])
    w = first(ep, "workers", employer_id=plain["id"])
    refused(
        ep,
        "create_order",
        "rule_violation",
        "dot",
        worker_id=w["id"],
        reason="random",
        services=["drug_screen"],
        dot=True,
    )
    dot = first(ep, "employers", dot_regulated=True)
    o = ok(
        ep,
        "create_order",
        worker_id=first(ep, "workers", employer_id=dot["id"])["id"],
        reason="random",
        services=["drug_screen"],
        dot=True,
    )
    assert first(ep, "drug_screens", order_id=o["id"])["panel"] == "5_panel_dot"


def test_a_ccf_is_used_once_and_a_negative_completes_the_order(ep: Episode) -> None:
    s = first(ep, "drug_screens", status="pending_collection")
    used = next(x["ccf_number"] for x in every(ep, "list_drug_screens") if x["ccf_number"])
    refused(ep, "record_collection", "conflict", "ccf_number", drug_screen_id=s["id"], ccf_number=used)
    ok(ep, "record_collection", drug_screen_id=s["id"], ccf_number="99001234")
    refused(ep, "record_collection", "rule_violation", "drug_screen_id", drug_screen_id=s["id"], ccf_number="99001235")
    done = ok(ep, "record_lab_result", drug_screen_id=s["id"], result="negative")
    assert done["status"] == "verified_negative"
    order = ok(ep, "get_order", order_id=s["order_id"])
    assert order["status"] == "completed"


def test_a_non_negative_goes_through_the_mro(ep: Episode) -> None:
    s = first(ep, "drug_screens", status="at_lab")
    assert ok(ep, "record_lab_result", drug_screen_id=s["id"], result="non_negative")["status"] == "mro_review"
    refused(ep, "mro_verify", "rule_violation", "note", drug_screen_id=s["id"], positive=True, note=" ")
    v = ok(ep, "mro_verify", drug_screen_id=s["id"], positive=False, note="Prescription confirmed.")
    assert v["status"] == "verified_negative"
    refused(ep, "mro_verify", "rule_violation", "drug_screen_id", drug_screen_id=s["id"], positive=True, note="x")


def test_a_fitness_result_needs_a_physical_and_restrictions_stated(ep: Episode) -> None:
    o = next(x for x in every(ep, "list_orders", status="ordered") if "physical" in x["services"])
    refused(
        ep, "record_fitness", "rule_violation", "restrictions", order_id=o["id"], determination="fit_with_restrictions"
    )
    done = ok(
        ep,
        "record_fitness",
        order_id=o["id"],
        determination="fit_with_restrictions",
        restrictions="No lifting over 20 lb",
    )
    assert done["determination"] == "fit_with_restrictions"
    only_drug = next(x for x in every(ep, "list_orders", status="ordered") if "physical" not in x["services"])
    refused(ep, "record_fitness", "rule_violation", "order_id", order_id=only_drug["id"], determination="fit")


def test_fit_tests_pass_at_a_fit_factor_of_100(ep: Episode) -> None:
    w = first(ep, "workers")
    low = ok(ep, "record_fit_test", worker_id=w["id"], respirator="3M 6200 M", method="quantitative", fit_factor=99)
    high = ok(ep, "record_fit_test", worker_id=w["id"], respirator="3M 6200 M", method="quantitative", fit_factor=100)
    assert (low["passed"], high["passed"]) == (False, True)
    assert high["expires_on"] == (TODAY + dt.timedelta(days=365)).isoformat()
    refused(
        ep,
        "record_fit_test",
        "rule_violation",
        "fit_factor",
        worker_id=w["id"],
        respirator="3M 8210",
        method="quantitative",
    )
    refused(
        ep, "record_fit_test", "rule_violation", "passed", worker_id=w["id"], respirator="3M 8210", method="qualitative"
    )


def test_recordability_follows_treatment_and_lost_days(ep: Episode) -> None:
    w = first(ep, "workers")
    base = {"worker_id": w["id"], "occurred_on": TODAY.isoformat(), "description": "Slip", "body_part": "knee"}
    aid = ok(ep, "report_injury", **base)
    assert aid["recordable"] is False
    assert ok(ep, "update_injury", injury_id=aid["id"], restricted_days=2)["recordable"] is True
    refused(
        ep,
        "report_injury",
        "rule_violation",
        "occurred_on",
        **(base | {"occurred_on": (TODAY + dt.timedelta(days=1)).isoformat()}),
    )
    ok(ep, "close_injury", injury_id=aid["id"])
    refused(ep, "update_injury", "rule_violation", "injury_id", injury_id=aid["id"], days_away=3)


def test_the_osha_log_lists_recordable_cases_of_the_year(ep: Episode) -> None:
    emp = first(ep, "employers")
    log = ok(ep, "osha_log", employer_id=emp["id"], year=TODAY.year)
    cases = [
        i
        for i in every(ep, "list_injuries", employer_id=emp["id"], recordable=True)
        if i["occurred_on"].startswith(str(TODAY.year))
    ]
    assert [line["injury_id"] for line in log] == [
        c["id"] for c in sorted(cases, key=lambda c: (c["occurred_on"], c["id"]))
    ]
    assert ok(ep, "osha_log", employer_id=emp["id"], year=2001) == []
