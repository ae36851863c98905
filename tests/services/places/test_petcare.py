"""Pawsome: vaccines gate every stay, kennels fit species and size, daycare rules, incidents and owners."""

from __future__ import annotations

import datetime as dt
from typing import Any

from compoworld import Episode
from tests.services.helpers import ServiceTools

PET = ServiceTools("petcare")
WORLD = PET.world
ok, refused, every, first = PET.ok, PET.refused, PET.every, PET.first
POP = WORLD.population
TODAY = WORLD.epoch.date()
STAFF = POP.employees[0].email


def day(n: int) -> str:
    return (TODAY + dt.timedelta(days=n)).isoformat()


def pet(ep: Episode, name: str) -> dict[str, Any]:
    return first(ep, "pets", name=name)


def kennel(ep: Episode, name: str) -> dict[str, Any]:
    return first(ep, "kennels", query=name)


def test_seeded_owners_are_consumers_and_boarders_fit_their_kennels(ep: Episode) -> None:
    consumers = {p.email: p.name for p in POP.consumers}
    for o in every(ep, "list_owners"):
        assert consumers[o["email"]] == o["name"]
    kennels = {k["id"]: k for k in every(ep, "list_kennels")}
    limits = {"small": 25, "medium": 60, "large": 120, "suite": 200, "condo": 30}
    for s in every(ep, "list_stays"):
        p = ok(ep, "get_pet", pet_id=s["pet_id"])
        k = kennels[s["kennel_id"]]
        assert k["species"] == p["species"] and p["weight_lbs"] <= limits[k["size"]]
        assert s["owner_id"] == p["owner_id"]


def test_boarding_needs_verified_unexpired_vaccines(ep: Episode) -> None:
    pepper = pet(ep, "Pepper")
    args = {"kennel_id": kennel(ep, "Run 4")["id"], "start_date": day(20), "end_date": day(22)}
    refused(ep, "book_boarding", "rule_violation", "pet_id", pet_id=pepper["id"], **args)
    ok(ep, "create_vaccination", pet_id=pepper["id"], vaccine="bordetella", expires_on=day(365))
    refused(ep, "book_boarding", "rule_violation", "pet_id", pet_id=pepper["id"], **args)
    new = first(ep, "vaccinations", pet_id=pepper["id"], verified=False)
    refused(ep, "verify_vaccination", "rule_violation", "verified_by", vaccination_id=new["id"], verified_by="v@vet.io")
    ok(ep, "verify_vaccination", vaccination_id=new["id"], verified_by=STAFF)
    assert ok(ep, "book_boarding", pet_id=pepper["id"], **args)["status"] == "requested"


def test_kennels_take_one_species_up_to_their_size_and_one_stay_at_a_time(ep: Episode) -> None:
    biscuit, milo, luna = pet(ep, "Biscuit"), pet(ep, "Milo"), pet(ep, "Luna")
    dates = {"start_date": day(30), "end_date": day(33)}
    refused(
        ep,
        "book_boarding",
        "rule_violation",
        "kennel_id",
        pet_id=biscuit["id"],
        kennel_id=kennel(ep, "Run 1")["id"],
        **dates,
    )
    refused(
        ep,
        "book_boarding",
        "rule_violation",
        "kennel_id",
        pet_id=milo["id"],
        kennel_id=kennel(ep, "Run 1")["id"],
        **dates,
    )
    made = ok(ep, "book_boarding", pet_id=luna["id"], kennel_id=kennel(ep, "Run 1")["id"], **dates)
    assert made["total"] == 3 * kennel(ep, "Run 1")["nightly_rate"]
    refused(
        ep,
        "book_boarding",
        "conflict",
        "kennel_id",
        pet_id=pet(ep, "Hazel")["id"],
        kennel_id=kennel(ep, "Run 1")["id"],
        start_date=day(31),
        end_date=day(35),
    )
    refused(ep, "book_boarding", "conflict", "pet_id", pet_id=luna["id"], kennel_id=kennel(ep, "Run 2")["id"], **dates)


def test_check_in_on_drop_off_day_and_check_out_bills_the_nights(ep: Episode) -> None:
    later = next(s for s in every(ep, "list_stays", status="confirmed") if s["start_date"] > day(0))
    refused(ep, "check_in_stay", "rule_violation", "stay_id", stay_id=later["id"])
    now = next(s for s in every(ep, "list_stays", status="confirmed") if s["start_date"] == day(0))
    assert ok(ep, "check_in_stay", stay_id=now["id"])["status"] == "checked_in"
    staying = next(s for s in every(ep, "list_stays", status="checked_in") if s["start_date"] < day(0))
    rate = next(k for k in every(ep, "list_kennels") if k["id"] == staying["kennel_id"])["nightly_rate"]
    out = ok(ep, "check_out_stay", stay_id=staying["id"])
    nights = (TODAY - dt.date.fromisoformat(staying["start_date"])).days
    assert (out["status"], out["total"]) == ("checked_out", nights * rate)


def test_daycare_is_for_vaccinated_dogs_once_a_day(ep: Episode) -> None:
    refused(ep, "daycare_check_in", "rule_violation", "pet_id", pet_id=pet(ep, "Milo")["id"])
    refused(ep, "daycare_check_in", "rule_violation", "pet_id", pet_id=pet(ep, "Hazel")["id"])
    refused(ep, "daycare_check_in", "conflict", "pet_id", pet_id=pet(ep, "Rocky")["id"])
    visit = ok(ep, "daycare_check_in", pet_id=pet(ep, "Luna")["id"])
    assert visit["day"] == day(0) and visit["price"] == 3800
    out = ok(ep, "daycare_check_out", daycare_visit_id=visit["id"])
    assert out["checked_out_at"]
    refused(ep, "daycare_check_out", "conflict", "daycare_visit_id", daycare_visit_id=visit["id"])


def test_a_severe_bite_bars_the_dog_from_daycare(ep: Episode) -> None:
    refused(ep, "daycare_check_in", "rule_violation", "pet_id", pet_id=pet(ep, "Duke")["id"])
    luna = pet(ep, "Luna")
    base = {"pet_id": luna["id"], "kind": "bite", "description": "Nipped a handler."}
    refused(ep, "report_incident", "rule_violation", "reported_by", severity="minor", reported_by="x@y.io", **base)
    ok(ep, "report_incident", severity="minor", reported_by=STAFF, **base)
    assert not ok(ep, "get_pet", pet_id=luna["id"])["daycare_banned"]
    ok(ep, "report_incident", severity="severe", reported_by=STAFF, **base)
    assert ok(ep, "get_pet", pet_id=luna["id"])["daycare_banned"]
    refused(ep, "daycare_check_in", "rule_violation", "pet_id", pet_id=luna["id"])


def test_owners_are_notified_of_incidents_once(ep: Episode) -> None:
    pending = first(ep, "incidents", kind="illness")
    assert pending["owner_notified_at"] is None
    assert ok(ep, "notify_owner", incident_id=pending["id"])["owner_notified_at"]
    refused(ep, "notify_owner", "conflict", "incident_id", incident_id=pending["id"])


def test_owner_emails_are_unique_and_vaccines_match_the_species(ep: Episode) -> None:
    o = every(ep, "list_owners")[0]
    refused(ep, "create_owner", "conflict", "email", name="Someone Else", email=o["email"])
    refused(
        ep,
        "create_vaccination",
        "rule_violation",
        "vaccine",
        pet_id=pet(ep, "Milo")["id"],
        vaccine="bordetella",
        expires_on=day(100),
    )
    made = ok(ep, "create_owner", name="Nia Cole", email="nia@cole.io")
    ok(ep, "create_pet", owner_id=made["id"], name="Ziggy", species="cat", breed="Maine Coon", weight_lbs=14)
    assert every(ep, "list_pets", owner_id=made["id"])[0]["name"] == "Ziggy"
