"""Pawchart: animals and microchips, booking rules, consults that lock, vaccines by species, reminders, invoices."""

from __future__ import annotations

import datetime as dt
from typing import Any

from compoworld import Episode
from compoworld.services.kit.time import iso_z
from tests.services.helpers import ServiceTools

VET = ServiceTools("vetclinic")
WORLD = VET.world
ok, refused, every, first = VET.ok, VET.refused, VET.every, VET.first
POP = WORLD.population
NOW = WORLD.epoch
TODAY = NOW.date()


def at(days: int, hour: int) -> str:
    return iso_z(dt.datetime.combine(TODAY + dt.timedelta(days=days), dt.time(hour), tzinfo=dt.UTC))


def animal(ep: Episode, species: str) -> dict[str, Any]:
    return first(ep, "animals", species=species, deceased=False)


def test_seeded_owners_are_consumers_and_every_vaccine_fits_its_animal(ep: Episode) -> None:
    consumers = {p.email: p.name for p in POP.consumers}
    for o in every(ep, "list_owners"):
        assert consumers[o["email"]] == o["name"]
    species = {a["id"]: a["species"] for a in every(ep, "list_animals")}
    for v in every(ep, "list_vaccinations"):
        assert (v["vaccine"], species[v["animal_id"]]) not in {("dhpp", "cat"), ("fvrcp", "dog")}
        assert v["next_due"] > v["given_on"]
    chips = [a["microchip"] for a in every(ep, "list_animals")]
    assert len(chips) == len(set(chips))


def test_a_microchip_belongs_to_one_animal(ep: Episode) -> None:
    known = every(ep, "list_animals")[0]
    base = {
        "owner_id": known["owner_id"],
        "name": "Pip",
        "species": "cat",
        "sex": "male",
        "date_of_birth": "2025-01-01",
    }
    refused(ep, "register_animal", "conflict", "microchip", microchip=known["microchip"], **base)
    refused(ep, "register_animal", "rule_violation", "date_of_birth", **(base | {"date_of_birth": at(3, 0)[:10]}))
    made = ok(ep, "register_animal", microchip="985141099999999", **base)
    assert (made["deceased"], made["owner_id"]) == (False, known["owner_id"])


def test_booking_needs_a_living_animal_a_free_clinician_and_a_vet_for_surgery(ep: Episode) -> None:
    dog = animal(ep, "dog")
    nurse = first(ep, "clinicians", role="nurse")
    vet = first(ep, "clinicians", role="veterinarian")
    base = {"animal_id": dog["id"], "start_at": at(20, 10)}
    refused(ep, "book_appointment", "rule_violation", "clinician_id", clinician_id=nurse["id"], type="surgery", **base)
    refused(
        ep,
        "book_appointment",
        "rule_violation",
        "start_at",
        clinician_id=vet["id"],
        type="consult",
        animal_id=dog["id"],
        start_at=at(-1, 10),
    )
    dead = first(ep, "animals", deceased=True)
    refused(
        ep,
        "book_appointment",
        "rule_violation",
        "animal_id",
        clinician_id=vet["id"],
        type="consult",
        animal_id=dead["id"],
        start_at=at(20, 10),
    )
    ok(ep, "book_appointment", clinician_id=vet["id"], type="surgery", duration_minutes=120, **base)
    other = animal(ep, "cat")
    refused(
        ep,
        "book_appointment",
        "conflict",
        "start_at",
        clinician_id=vet["id"],
        type="consult",
        animal_id=other["id"],
        start_at=at(20, 11),
    )
    assert ok(ep, "book_appointment", clinician_id=nurse["id"], type="vaccination", **base)["status"] == "scheduled"


def test_a_consult_opens_on_a_checked_in_visit_and_finalizing_locks_it(ep: Episode) -> None:
    waiting = first(ep, "appointments", status="checked_in", type="vaccination")
    later = first(ep, "appointments", status="scheduled")
    refused(ep, "start_consult", "rule_violation", "appointment_id", appointment_id=later["id"])
    c = ok(ep, "start_consult", appointment_id=waiting["id"], subjective="Due for boosters.")
    refused(ep, "start_consult", "conflict", "appointment_id", appointment_id=waiting["id"])
    refused(ep, "finalize_consult", "rule_violation", "consult_id", consult_id=c["id"])
    ok(ep, "update_consult", consult_id=c["id"], assessment="Healthy", weight_kg=7.5)
    assert ok(ep, "finalize_consult", consult_id=c["id"])["finalized_at"] is not None
    assert ok(ep, "get_appointment", appointment_id=waiting["id"])["status"] == "completed"
    assert ok(ep, "get_animal", animal_id=waiting["animal_id"])["weight_kg"] == 7.5
    refused(ep, "update_consult", "rule_violation", "consult_id", consult_id=c["id"], plan="More")


def test_vaccines_fit_the_species_and_age_and_set_the_next_due_date(ep: Episode) -> None:
    cat, dog = animal(ep, "cat"), animal(ep, "dog")
    nurse = first(ep, "clinicians", role="nurse")["id"]
    refused(
        ep,
        "record_vaccination",
        "rule_violation",
        "vaccine",
        animal_id=cat["id"],
        vaccine="dhpp",
        batch="DH-1",
        clinician_id=nurse,
    )
    owner = dog["owner_id"]
    pup = ok(
        ep,
        "register_animal",
        owner_id=owner,
        name="Pup",
        species="dog",
        sex="male",
        date_of_birth=(TODAY - dt.timedelta(weeks=10)).isoformat(),
    )
    refused(
        ep,
        "record_vaccination",
        "rule_violation",
        "animal_id",
        animal_id=pup["id"],
        vaccine="rabies",
        batch="RA-1",
        clinician_id=nurse,
    )
    given = ok(ep, "record_vaccination", animal_id=pup["id"], vaccine="dhpp", batch="DH-77", clinician_id=nurse)
    assert given["next_due"] == (TODAY + dt.timedelta(days=365)).isoformat()
    r = ok(ep, "record_vaccination", animal_id=dog["id"], vaccine="rabies", batch="RA-9", clinician_id=nurse)
    assert r["next_due"] == (TODAY + dt.timedelta(days=3 * 365)).isoformat()


def test_reminders_go_once_per_due_date_within_thirty_days(ep: Episode) -> None:
    due = ok(ep, "vaccines_due", within_days=30)
    assert due and all(d["next_due"] <= (TODAY + dt.timedelta(days=30)).isoformat() for d in due)
    d = due[0]
    sent = ok(ep, "send_reminder", vaccination_id=d["vaccination_id"], channel="sms")
    assert (sent["owner_email"], sent["due_on"]) == (d["owner_email"], d["next_due"])
    refused(ep, "send_reminder", "conflict", "vaccination_id", vaccination_id=d["vaccination_id"])
    assert next(x for x in ok(ep, "vaccines_due") if x["vaccination_id"] == d["vaccination_id"])["reminded"]
    dog, nurse = animal(ep, "dog"), first(ep, "clinicians", role="nurse")["id"]
    far = ok(ep, "record_vaccination", animal_id=dog["id"], vaccine="bordetella", batch="BO-3", clinician_id=nurse)
    refused(ep, "send_reminder", "rule_violation", "vaccination_id", vaccination_id=far["id"])


def test_a_deceased_animal_gets_no_reminders_and_its_visits_are_cancelled(ep: Episode) -> None:
    booked = first(ep, "appointments", status="scheduled")
    due = [d for d in ok(ep, "vaccines_due", within_days=365) if d["animal_id"] == booked["animal_id"]]
    ok(ep, "update_animal", animal_id=booked["animal_id"], deceased=True)
    assert ok(ep, "get_appointment", appointment_id=booked["id"])["status"] == "cancelled"
    assert not [d for d in ok(ep, "vaccines_due", within_days=365) if d["animal_id"] == booked["animal_id"]]
    if due:
        refused(ep, "send_reminder", "rule_violation", "animal_id", vaccination_id=due[0]["vaccination_id"])
    refused(ep, "update_animal", "rule_violation", "deceased", animal_id=booked["animal_id"], deceased=False)


def test_invoices_bill_finalized_consults_once_and_payments_stop_at_the_balance(ep: Episode) -> None:
    open_consult = first(ep, "consults", status="open")
    line = [{"description": "Exam", "unit_price": 5000}]
    refused(ep, "create_invoice", "rule_violation", "consult_id", consult_id=open_consult["id"], lines=line)
    billed = {i["consult_id"] for i in every(ep, "list_invoices")}
    fresh = next(c for c in every(ep, "list_consults", status="finalized") if c["id"] not in billed)
    inv = ok(
        ep,
        "create_invoice",
        consult_id=fresh["id"],
        lines=[*line, {"description": "X-ray", "quantity": 2, "unit_price": 9000}],
    )
    assert inv["total"] == 23000 and inv["status"] == "draft"
    refused(ep, "create_invoice", "conflict", "consult_id", consult_id=fresh["id"], lines=line)
    refused(ep, "record_payment", "rule_violation", "invoice_id", invoice_id=inv["id"], amount=100)
    ok(ep, "issue_invoice", invoice_id=inv["id"])
    refused(ep, "record_payment", "rule_violation", "amount", invoice_id=inv["id"], amount=23001)
    assert ok(ep, "record_payment", invoice_id=inv["id"], amount=3000)["status"] == "issued"
    refused(ep, "void_invoice", "rule_violation", "invoice_id", invoice_id=inv["id"])
    assert ok(ep, "record_payment", invoice_id=inv["id"], amount=20000)["status"] == "paid"
