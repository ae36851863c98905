"""Autoscope VIN: decoding and check digits, models by year, recalls by vehicle and VIN, the garage's repairs."""

from __future__ import annotations

import datetime as dt
from typing import Any

from compoworld import Episode
from compoworld.services.information.vindecode import _recalls, check_digit, make_vin
from tests.services.helpers import ServiceTools

VIN = ServiceTools("vindecode")
WORLD = VIN.world
ok, refused, every = VIN.ok, VIN.refused, VIN.every
POP = WORLD.population
TODAY = WORLD.epoch.date()
STAFF = {p.email for p in POP.employees}
DRIVER = POP.employees[0].email


def with_wrong_digit(vin: str) -> str:
    wrong = "0" if vin[8] != "0" else "1"
    return vin[:8] + wrong + vin[9:]


def test_seeded_garage_decodes_to_what_was_saved_and_belongs_to_employees(ep: Episode) -> None:
    saved = every(ep, "list_vehicles")
    assert len(saved) >= 6
    for v in saved:
        assert v["owner_email"] in STAFF
        d = ok(ep, "decode_vin", vin=v["vin"])
        assert (d["make"], d["model"], d["model_year"]) == (v["make"], v["model_name"], v["model_year"])
        assert (d["error_code"], d["check_digit_valid"]) == ("0", True)
    for r in every(ep, "list_repairs"):
        assert ok(ep, "get_vehicle", vehicle_id=r["vehicle_id"])["vin"] == r["vin"]
    assert {r["status"] for r in every(ep, "list_repairs")} >= {"open", "scheduled", "completed"}


def test_a_wrong_check_digit_still_decodes_but_is_never_saved(ep: Episode) -> None:
    good = make_vin(POP.seed, "HONDA", "Civic", 2018, 77)
    assert good[8] == check_digit(good)
    bad = with_wrong_digit(good)
    d = ok(ep, "decode_vin", vin=bad.lower())
    assert (d["error_code"], d["check_digit_valid"], d["model"]) == ("1", False, "Civic")
    assert d["vin"] == bad
    refused(ep, "add_vehicle", "rule_violation", "vin", vin=bad, nickname="Typo", owner_email=DRIVER)
    refused(ep, "decode_vin", "rule_violation", "vin", vin=good[:16] + "O")
    refused(ep, "decode_vin_batch", "rule_violation", "vins.1", vins=[good, good[:10] + "I" + good[11:]])


def test_an_unregistered_wmi_decodes_to_a_make_of_its_region(ep: Episode) -> None:
    vin = "JZZ" + make_vin(POP.seed, "TOYOTA", "Corolla", 2015, 5)[3:]
    d = ok(ep, "decode_vin", vin=vin)
    assert "7" in d["error_code"].split(",") and d["plant_country"] == "JP"
    assert ok(ep, "decode_vin", vin=vin)["make"] == d["make"]
    w = ok(ep, "decode_wmi", wmi="jzz")
    assert (w["registered"], w["make"]) == (False, d["make"])
    assert ok(ep, "decode_wmi", wmi="5YJ")["make"] == "TESLA"


def test_models_by_year_follow_production_and_refuse_the_future(ep: Episode) -> None:
    def names(year: int) -> set[str]:
        return {m["model"] for m in ok(ep, "list_models", make="chevrolet", model_year=year)["models"]}

    assert "Bolt EV" in names(2020) and "Bolt EV" not in names(2025)
    assert "Bolt EV" not in names(2015)
    refused(ep, "list_models", "rule_violation", "model_year", make="FORD", model_year=TODAY.year + 2)
    refused(ep, "list_models", "not_found", "make", make="Trabant")
    trucks = ok(ep, "list_models", make="FORD", vehicle_type="Truck")["models"]
    assert {m["model"] for m in trucks} == {"F-150", "Transit"}


def test_recalls_by_vin_agree_with_recalls_by_vehicle(ep: Episode) -> None:
    v = every(ep, "list_vehicles")[0]
    by_vin = ok(ep, "recalls_by_vin", vin=v["vin"])
    by_model = ok(ep, "recalls_by_vehicle", make=v["make"], model=v["model_name"], model_year=v["model_year"])
    assert [r["recall"]["campaign"] for r in by_vin["recalls"]] == [r["campaign"] for r in by_model["results"]]
    assert by_vin["unrepaired"] == sum(r["status"] != "complete" for r in by_vin["recalls"])
    for r in by_model["results"]:
        assert v["model_year"] in r["model_years"]
        assert ok(ep, "get_recall", campaign=r["campaign"]) == r
    refused(ep, "get_recall", "not_found", "campaign", campaign="99V999999")


def test_sync_opens_one_repair_per_incomplete_recall_and_saving_a_vin_is_once(ep: Episode) -> None:
    vin = make_vin(POP.seed, "FORD", "F-150", 2021, 4242)
    refused(ep, "add_vehicle", "rule_violation", "owner_email", vin=vin, nickname="Truck", owner_email="x@y.io")
    v = ok(ep, "add_vehicle", vin=vin, nickname="Site truck 2", owner_email=DRIVER)
    assert (v["make"], v["model_name"], v["model_year"]) == ("FORD", "F-150", 2021)
    refused(ep, "add_vehicle", "conflict", "vin", vin=vin, nickname="Again", owner_email=DRIVER)
    refused(ep, "update_vehicle", "rule_violation", "owner_email", vehicle_id=v["id"], owner_email="x@y.io")
    opened = ok(ep, "sync_recalls", vehicle_id=v["id"])
    incomplete = [r for r in ok(ep, "recalls_by_vin", vin=vin)["recalls"] if r["status"] != "complete"]
    assert sorted(r["campaign"] for r in opened) == sorted(r["recall"]["campaign"] for r in incomplete)
    assert ok(ep, "sync_recalls", vehicle_id=v["id"]) == []


def _no_remedy_recall() -> tuple[str, str, int]:
    for rc in sorted(_recalls(POP.seed).values(), key=lambda r: r.campaign):
        if not rc.remedy_available and rc.report_received_date <= TODAY:
            return rc.make, rc.model, rc.model_years[0]
    raise AssertionError("no recall without a remedy")


def test_a_repair_is_booked_only_with_a_remedy_and_completed_only_when_booked(ep: Episode) -> None:
    make, model, year = _no_remedy_recall()
    v = ok(ep, "add_vehicle", vin=make_vin(POP.seed, make, model, year, 808), nickname="Waiting", owner_email=DRIVER)
    waiting = [
        r
        for r in ok(ep, "sync_recalls", vehicle_id=v["id"])
        if not ok(ep, "get_recall", campaign=r["campaign"])["remedy_available"]
    ]
    assert waiting
    soon = (TODAY + dt.timedelta(days=3)).isoformat()
    refused(
        ep,
        "schedule_repair",
        "rule_violation",
        "repair_id",
        repair_id=waiting[0]["id"],
        dealer="Main St",
        scheduled_on=soon,
    )
    open_rep = every(ep, "list_repairs", status="open")
    bookable = next(r for r in open_rep if ok(ep, "get_recall", campaign=r["campaign"])["remedy_available"])
    refused(ep, "complete_repair", "rule_violation", "repair_id", repair_id=bookable["id"])
    yesterday = (TODAY - dt.timedelta(days=1)).isoformat()
    refused(
        ep,
        "schedule_repair",
        "rule_violation",
        "scheduled_on",
        repair_id=bookable["id"],
        dealer="Main St",
        scheduled_on=yesterday,
    )
    booked = ok(ep, "schedule_repair", repair_id=bookable["id"], dealer="Main St Motors", scheduled_on=soon)
    assert (booked["status"], booked["scheduled_on"]) == ("scheduled", soon)
    refused(ep, "complete_repair", "rule_violation", "completed_on", repair_id=bookable["id"], completed_on=soon)
    done = ok(ep, "complete_repair", repair_id=bookable["id"])
    assert (done["status"], done["completed_on"]) == ("completed", TODAY.isoformat())
    refused(ep, "schedule_repair", "conflict", "repair_id", repair_id=bookable["id"], dealer="x", scheduled_on=soon)


def test_recall_alerts_are_one_per_person_and_vehicle_and_cancel_for_good(ep: Episode) -> None:
    alert: dict[str, Any] = every(ep, "list_alerts", status="active")[0]
    refused(ep, "create_alert", "conflict", "email", vehicle_id=alert["vehicle_id"], email=alert["email"])
    assert ok(ep, "pause_alert", alert_id=alert["id"])["status"] == "paused"
    assert ok(ep, "resume_alert", alert_id=alert["id"])["status"] == "active"
    assert ok(ep, "cancel_alert", alert_id=alert["id"])["status"] == "cancelled"
    refused(ep, "resume_alert", "rule_violation", "alert_id", alert_id=alert["id"])
    again = ok(ep, "create_alert", vehicle_id=alert["vehicle_id"], email=alert["email"])
    assert again["status"] == "active"


def test_a_vehicle_with_a_booked_repair_cannot_be_removed(ep: Episode) -> None:
    booked = every(ep, "list_repairs", status="scheduled")[0]
    refused(ep, "delete_vehicle", "conflict", "vehicle_id", vehicle_id=booked["vehicle_id"])
    ok(ep, "complete_repair", repair_id=booked["id"])
    ok(ep, "delete_vehicle", vehicle_id=booked["vehicle_id"])
    assert all(a["vehicle_id"] != booked["vehicle_id"] for a in every(ep, "list_alerts"))


def test_safety_ratings_exist_only_for_rated_years(ep: Episode) -> None:
    r = ok(ep, "safety_rating", make="Tesla", model="model 3", model_year=2022)
    assert 1 <= r["overall_rating"] <= 5 and r["make"] == "TESLA" and r["model"] == "Model 3"
    assert r == ok(ep, "safety_rating", make="TESLA", model="Model 3", model_year=2022)
    refused(ep, "safety_rating", "not_found", "model_year", make="FORD", model="F-150", model_year=2005)
    refused(ep, "safety_rating", "not_found", "model", make="FORD", model="Model 3", model_year=2022)
