"""Lifeline Blood Center: donor eligibility, components in quarantine, ABO/Rh crossmatch, issue, reactions."""

from __future__ import annotations

from typing import Any

from compoworld import Episode
from tests.services.helpers import ServiceTools

BB = ServiceTools("bloodbank")
WORLD = BB.world
ok, refused, every, first = BB.ok, BB.refused, BB.every, BB.first
POP = WORLD.population
TODAY = WORLD.epoch.date()
NURSE = POP.employees[0].email


def new_donor(ep: Episode, abo: str = "O", rh: str = "neg") -> dict[str, Any]:
    made: dict[str, Any] = ok(
        ep,
        "create_donor",
        name="Theo Brandt",
        email=f"theo.{abo}{rh}@example.org",
        phone="+14155550123",
        birth_date="1990-02-01",
        abo=abo,
        rh=rh,
    )
    return made


def test_seeded_donors_are_consumers_and_units_carry_their_type(ep: Episode) -> None:
    people = {p.email: p.name for p in POP.consumers}
    donors = {d["id"]: d for d in every(ep, "list_donors")}
    assert all(people[d["email"]] == d["name"] for d in donors.values())
    for u in every(ep, "list_units"):
        donation = ok(ep, "get_donation", donation_id=u["donation_id"])
        donor = donors[donation["donor_id"]]
        assert (u["abo"], u["rh"]) == (donor["abo"], donor["rh"])
        assert u["din"].startswith(donation["din"])


def test_a_donation_makes_quarantined_components_and_respects_the_interval(ep: Episode) -> None:
    d = new_donor(ep)
    refused(
        ep,
        "collect_donation",
        "rule_violation",
        "hemoglobin",
        donor_id=d["id"],
        procedure="whole_blood",
        hemoglobin=11.9,
    )
    don = ok(ep, "collect_donation", donor_id=d["id"], procedure="whole_blood", hemoglobin=13.9)
    made = every(ep, "list_units", donation_id=don["id"])
    assert sorted(u["product"] for u in made) == ["plasma", "red_cells"]
    assert {u["status"] for u in made} == {"quarantined"}
    refused(
        ep,
        "collect_donation",
        "rule_violation",
        "procedure",
        donor_id=d["id"],
        procedure="whole_blood",
        hemoglobin=14.0,
    )
    assert ok(ep, "get_donor", donor_id=d["id"])["donations"] == 1


def test_a_reactive_test_discards_the_units_and_defers_the_donor_for_good(ep: Episode) -> None:
    d = new_donor(ep, "A", "pos")
    don = ok(ep, "collect_donation", donor_id=d["id"], procedure="plasma", hemoglobin=13.0)
    ok(ep, "record_test_results", donation_id=don["id"], reactive=True)
    assert {u["status"] for u in every(ep, "list_units", donation_id=don["id"])} == {"discarded"}
    donor = ok(ep, "get_donor", donor_id=d["id"])
    assert (donor["status"], donor["deferral_reason"]) == ("deferred_permanent", "reactive_test")
    refused(ep, "record_test_results", "rule_violation", "donation_id", donation_id=don["id"], reactive=False)


def test_deferrals_block_donation_until_lifted(ep: Episode) -> None:
    d = new_donor(ep)
    ok(ep, "defer_donor", donor_id=d["id"], reason="travel", days=28)
    refused(ep, "collect_donation", "rule_violation", "donor_id", donor_id=d["id"], procedure="plasma", hemoglobin=13.5)
    refused(ep, "reinstate_donor", "rule_violation", "donor_id", donor_id=d["id"])
    ended = first(ep, "donors", status="deferred_temporary")
    assert ok(ep, "reinstate_donor", donor_id=ended["id"])["status"] == "eligible"


def test_crossmatch_follows_abo_and_rh(ep: Episode) -> None:
    pts = every(ep, "list_patients")
    neg = next(p for p in pts if p["rh"] == "neg")
    pos_unit = next(u for u in every(ep, "list_units", status="available", product="red_cells") if u["rh"] == "pos")
    refused(ep, "crossmatch_unit", "rule_violation", "unit_id", patient_id=neg["id"], unit_id=pos_unit["id"])
    untyped = next(p for p in pts if p["abo"] is None)
    refused(ep, "crossmatch_unit", "rule_violation", "patient_id", patient_id=untyped["id"], unit_id=pos_unit["id"])
    don = ok(ep, "collect_donation", donor_id=new_donor(ep)["id"], procedure="whole_blood", hemoglobin=14.1)
    ok(ep, "record_test_results", donation_id=don["id"], reactive=False)
    o_neg = first(ep, "units", donation_id=don["id"], product="red_cells", status="available")
    xm = ok(ep, "crossmatch_unit", patient_id=neg["id"], unit_id=o_neg["id"])
    held = ok(ep, "get_unit", unit_id=o_neg["id"])
    assert (held["status"], held["patient_id"], xm["status"]) == ("crossmatched", neg["id"], "active")
    refused(ep, "crossmatch_unit", "rule_violation", "unit_id", patient_id=neg["id"], unit_id=o_neg["id"])


def test_plasma_compatibility_is_the_reverse_of_red_cells(ep: Episode) -> None:
    o_pt = next((p for p in every(ep, "list_patients") if p["abo"] == "O"), None)
    a_plasma = next(u for u in every(ep, "list_units", status="available", product="plasma") if u["abo"] == "A")
    if o_pt is not None:
        ok(ep, "crossmatch_unit", patient_id=o_pt["id"], unit_id=a_plasma["id"])
    b_pt = next(p for p in every(ep, "list_patients") if p["abo"] == "B")
    o_plasma = next(u for u in every(ep, "list_units", status="available", product="plasma") if u["abo"] == "O")
    refused(ep, "crossmatch_unit", "rule_violation", "unit_id", patient_id=b_pt["id"], unit_id=o_plasma["id"])


def test_a_unit_is_issued_then_transfused_and_a_crossmatch_can_be_released(ep: Episode) -> None:
    held = first(ep, "units", status="crossmatched")
    refused(ep, "record_transfusion", "rule_violation", "unit_id", unit_id=held["id"])
    assert ok(ep, "issue_unit", unit_id=held["id"])["status"] == "issued"
    assert ok(ep, "record_transfusion", unit_id=held["id"])["status"] == "transfused"
    xm = first(ep, "crossmatches", status="active")
    refused(ep, "release_crossmatch", "rule_violation", "crossmatch_id", crossmatch_id=xm["id"])


def test_a_hemolytic_reaction_quarantines_the_donations_other_units(ep: Episode) -> None:
    issued = first(ep, "units", status="issued")
    sibling = next(u for u in every(ep, "list_units", donation_id=issued["donation_id"]) if u["id"] != issued["id"])
    refused(
        ep,
        "report_reaction",
        "rule_violation",
        "description",
        unit_id=issued["id"],
        reaction_type="acute_hemolytic",
        description=" ",
        reported_by=NURSE,
    )
    rxn = ok(
        ep,
        "report_reaction",
        unit_id=issued["id"],
        reaction_type="acute_hemolytic",
        description="Back pain, dark urine.",
        reported_by=NURSE,
    )
    assert rxn["patient_id"] == issued["patient_id"]
    if sibling["status"] in ("available", "crossmatched"):
        assert ok(ep, "get_unit", unit_id=sibling["id"])["status"] == "quarantined"
    refused(
        ep,
        "report_reaction",
        "conflict",
        "unit_id",
        unit_id=issued["id"],
        reaction_type="febrile",
        description="Fever",
        reported_by=NURSE,
    )
    assert ok(ep, "close_reaction", reaction_id=rxn["id"])["status"] == "closed"
