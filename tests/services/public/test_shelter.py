"""Second Chance Shelter: intake and stray hold, vaccines before adoption listing, applications, outcomes."""

from __future__ import annotations

import datetime as dt
from typing import Any

from compoworld import Episode
from tests.services.helpers import ServiceTools

SHELTER = ServiceTools("shelter")
WORLD = SHELTER.world
ok, refused, every = SHELTER.ok, SHELTER.refused, SHELTER.every
POP = WORLD.population
TODAY = WORLD.epoch.date()
VET = "dr.alvarez@secondchance.org"


def animal(ep: Episode, status: str) -> dict[str, Any]:
    return every(ep, "list_animals", status=status)[0]


def adopter(ep: Episode, n: int = 0) -> dict[str, Any]:
    return every(ep, "list_people", do_not_adopt=False)[n]


def stray(ep: Episode, **extra: Any) -> Any:
    args = {"name": "Pepper", "species": "cat", "breed": "Tabby", "sex": "female", "birth_date": "2024-01-01"}
    return ok(ep, "intake_animal", intake_type="stray", found_location="Library steps", **(args | extra))


def test_seeded_people_and_animals_are_consistent(ep: Episode) -> None:
    consumers = {p.email: p for p in POP.consumers}
    for p in every(ep, "list_people"):
        assert consumers[p["email"]].last_name == p["last_name"]
    for a in every(ep, "list_animals"):
        assert every(ep, "list_intakes", animal_id=a["id"])
        outs = every(ep, "list_outcomes", animal_id=a["id"])
        assert bool(outs) == (a["status"] in ("adopted", "transferred", "returned_to_owner"))
        if a["status"] in ("available", "adoption_pending", "in_foster"):
            names = {m["name"] for m in every(ep, "list_medical_records", animal_id=a["id"], kind="vaccine")}
            assert names & {"Rabies", "DHPP", "FVRCP", "RHDV2"}
        if a["status"] == "adoption_pending":
            assert len(every(ep, "list_applications", animal_id=a["id"], status="approved")) == 1


def test_intake_needs_the_facts_of_its_type_and_a_unique_chip(ep: Episode) -> None:
    base = {"name": "Rex", "species": "dog", "breed": "Mutt", "sex": "male", "birth_date": "2022-02-02"}
    refused(ep, "intake_animal", "rule_violation", "found_location", intake_type="stray", **base)
    refused(ep, "intake_animal", "rule_violation", "person_id", intake_type="owner_surrender", **base)
    refused(
        ep,
        "intake_animal",
        "rule_violation",
        "birth_date",
        intake_type="transfer_in",
        source_org="County AC",
        **(base | {"birth_date": (TODAY + dt.timedelta(days=3)).isoformat()}),
    )
    chip = every(ep, "list_animals")[0]["microchip"]
    refused(
        ep,
        "intake_animal",
        "conflict",
        "microchip",
        intake_type="transfer_in",
        source_org="County AC",
        microchip=chip,
        **base,
    )
    made = ok(ep, "intake_animal", intake_type="owner_surrender", person_id=adopter(ep)["id"], **base)
    assert made["status"] == "awaiting_medical"
    assert every(ep, "list_intakes", animal_id=made["id"])[0]["intake_type"] == "owner_surrender"


def test_a_stray_is_held_three_days_and_needs_a_core_vaccine(ep: Episode) -> None:
    cat = stray(ep)
    assert cat["status"] == "stray_hold"
    ok(ep, "add_medical_record", animal_id=cat["id"], kind="vaccine", name="FVRCP", vet_email=VET)
    refused(ep, "make_available", "rule_violation", "animal_id", animal_id=cat["id"])
    held = every(ep, "list_animals", status="awaiting_medical")
    bare = next(a for a in held if not every(ep, "list_medical_records", animal_id=a["id"], kind="vaccine"))
    ok(ep, "add_medical_record", animal_id=bare["id"], kind="exam", name="Intake exam", vet_email=VET)
    refused(ep, "make_available", "rule_violation", "animal_id", animal_id=bare["id"])
    ok(ep, "add_medical_record", animal_id=bare["id"], kind="vaccine", name="FVRCP", vet_email=VET)
    assert ok(ep, "make_available", animal_id=bare["id"], adoption_fee_cents=7_000)["status"] == "available"


def test_applications_are_for_available_animals_and_eligible_people(ep: Episode) -> None:
    pet = animal(ep, "available")
    flagged = every(ep, "list_people", do_not_adopt=True)[0]
    refused(ep, "submit_application", "rule_violation", "person_id", animal_id=pet["id"], person_id=flagged["id"])
    refused(
        ep,
        "submit_application",
        "rule_violation",
        "animal_id",
        animal_id=animal(ep, "stray_hold")["id"],
        person_id=adopter(ep)["id"],
    )
    app = ok(ep, "submit_application", animal_id=pet["id"], person_id=adopter(ep, 7)["id"])
    assert (app["status"], app["email"]) == ("submitted", adopter(ep, 7)["email"])
    refused(ep, "submit_application", "conflict", "person_id", animal_id=pet["id"], person_id=adopter(ep, 7)["id"])


def test_approval_holds_the_animal_for_one_applicant(ep: Episode) -> None:
    pet = animal(ep, "available")
    a1 = ok(ep, "submit_application", animal_id=pet["id"], person_id=adopter(ep, 7)["id"])
    a2 = ok(ep, "submit_application", animal_id=pet["id"], person_id=adopter(ep, 8)["id"])
    ok(ep, "approve_application", application_id=a1["id"])
    assert ok(ep, "get_animal", animal_id=pet["id"])["status"] == "adoption_pending"
    refused(ep, "approve_application", "rule_violation", "application_id", application_id=a2["id"])
    refused(ep, "deny_application", "rule_violation", "decision_note", application_id=a1["id"], decision_note=" ")
    ok(ep, "deny_application", application_id=a1["id"], decision_note="Landlord refused.")
    assert ok(ep, "get_animal", animal_id=pet["id"])["status"] == "available"


def test_adoption_needs_the_approved_applicant_an_altered_animal_and_the_fee(ep: Episode) -> None:
    pet = animal(ep, "adoption_pending")
    approved = every(ep, "list_applications", animal_id=pet["id"], status="approved")[0]
    waiting = every(ep, "list_applications", animal_id=pet["id"], status="submitted")[0]
    fee = pet["adoption_fee_cents"]
    refused(
        ep,
        "adopt_animal",
        "rule_violation",
        "person_id",
        animal_id=pet["id"],
        person_id=waiting["person_id"],
        fee_cents=fee,
    )
    refused(
        ep,
        "adopt_animal",
        "rule_violation",
        "fee_cents",
        animal_id=pet["id"],
        person_id=approved["person_id"],
        fee_cents=fee - 1,
    )
    out = ok(ep, "adopt_animal", animal_id=pet["id"], person_id=approved["person_id"], fee_cents=fee)
    assert (out["outcome_type"], out["fee_cents"]) == ("adoption", fee)
    assert ok(ep, "get_animal", animal_id=pet["id"])["status"] == "adopted"
    assert ok(ep, "get_application", application_id=waiting["id"])["status"] == "denied"
    refused(
        ep,
        "add_medical_record",
        "rule_violation",
        "animal_id",
        animal_id=pet["id"],
        kind="exam",
        name="Exam",
        vet_email=VET,
    )


def test_an_unaltered_animal_is_not_adopted_until_its_surgery(ep: Episode) -> None:
    cleo = next(a for a in every(ep, "list_animals", status="awaiting_medical") if not a["spayed_neutered"])
    ok(ep, "add_medical_record", animal_id=cleo["id"], kind="vaccine", name="Rabies", vet_email=VET)
    ok(ep, "make_available", animal_id=cleo["id"])
    app = ok(ep, "submit_application", animal_id=cleo["id"], person_id=adopter(ep)["id"])
    ok(ep, "approve_application", application_id=app["id"])
    args = {"animal_id": cleo["id"], "person_id": app["person_id"], "fee_cents": cleo["adoption_fee_cents"]}
    refused(ep, "adopt_animal", "rule_violation", "animal_id", **args)
    ok(ep, "add_medical_record", animal_id=cleo["id"], kind="spay_neuter", name="Spay", vet_email=VET)
    refused(
        ep,
        "add_medical_record",
        "conflict",
        "kind",
        animal_id=cleo["id"],
        kind="spay_neuter",
        name="Spay",
        vet_email=VET,
    )
    assert ok(ep, "adopt_animal", **args)["outcome_type"] == "adoption"


def test_only_strays_go_back_to_their_owner_and_transfers_withdraw_applications(ep: Episode) -> None:
    owner = adopter(ep)
    surrendered = next(
        a
        for a in every(ep, "list_animals", status="available")
        if every(ep, "list_intakes", animal_id=a["id"])[0]["intake_type"] == "owner_surrender"
    )
    refused(ep, "return_to_owner", "rule_violation", "animal_id", animal_id=surrendered["id"], person_id=owner["id"])
    rocky = animal(ep, "stray_hold")
    assert ok(ep, "return_to_owner", animal_id=rocky["id"], person_id=owner["id"])["outcome_type"] == "return_to_owner"
    assert ok(ep, "get_animal", animal_id=rocky["id"])["status"] == "returned_to_owner"
    open_app = every(ep, "list_applications", status="submitted", animal_id=surrendered["id"])
    ok(ep, "transfer_animal", animal_id=surrendered["id"], partner_org="Valley Humane Society")
    for app in open_app:
        assert ok(ep, "get_application", application_id=app["id"])["status"] == "withdrawn"
    refused(ep, "transfer_animal", "rule_violation", "animal_id", animal_id=surrendered["id"], partner_org="X")


def test_a_returned_adoption_comes_back_as_a_return_intake(ep: Episode) -> None:
    daisy = animal(ep, "adopted")
    refused(ep, "return_adoption", "rule_violation", "reason", animal_id=daisy["id"], reason="")
    back = ok(ep, "return_adoption", animal_id=daisy["id"], reason="Allergies in the family.")
    assert (back["status"], back["intake_date"]) == ("awaiting_medical", TODAY.isoformat())
    adopter_id = every(ep, "list_outcomes", animal_id=daisy["id"])[0]["person_id"]
    ret = every(ep, "list_intakes", animal_id=daisy["id"], intake_type="return")[0]
    assert ret["person_id"] == adopter_id
    assert ok(ep, "make_available", animal_id=daisy["id"])["status"] == "available"


def test_fostering_needs_an_approved_foster_and_the_census_counts_care(ep: Episode) -> None:
    pet = animal(ep, "available")
    plain = every(ep, "list_people", is_foster=False)[0]
    refused(ep, "send_to_foster", "rule_violation", "person_id", animal_id=pet["id"], person_id=plain["id"])
    foster = every(ep, "list_people", is_foster=True)[0]
    assert ok(ep, "send_to_foster", animal_id=pet["id"], person_id=foster["id"])["foster_id"] == foster["id"]
    census = ok(ep, "shelter_census")
    care = [a for a in every(ep, "list_animals") if a["status"] in census["by_status"]]
    assert sum(census["by_status"].values()) == len(care)
    assert census["by_status"]["in_foster"] == len(every(ep, "list_animals", status="in_foster"))
    assert ok(ep, "return_from_foster", animal_id=pet["id"])["status"] == "available"
