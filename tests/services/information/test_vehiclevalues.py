"""Autovalue: values move the way the market does, VINs value as decoded, appraisals and their offers."""

from __future__ import annotations

import datetime as dt
from typing import Any

from compoworld import Episode
from compoworld.services.information.vindecode import make_vin
from tests.services.helpers import ServiceTools

VAL = ServiceTools("vehiclevalues")
WORLD = VAL.world
ok, refused, every = VAL.ok, VAL.refused, VAL.every
POP = WORLD.population
TODAY = WORLD.epoch.date()
CIVIC: dict[str, Any] = {"make": "HONDA", "model": "Civic", "year": TODAY.year - 5, "zip": "98101"}


def value(ep: Episode, **args: Any) -> dict[str, Any]:
    out: dict[str, Any] = ok(ep, "get_value", **(CIVIC | {"mileage": 60_000} | args))
    return out


def test_trade_in_is_below_private_party_below_dealer_retail(ep: Episode) -> None:
    for cond in ("outstanding", "clean", "average", "rough"):
        v = value(ep, condition=cond)
        assert 0 < v["trade_in"] < v["private_party"] < v["dealer_retail"] < v["msrp"]
    ladder = [value(ep, condition=c)["private_party"] for c in ("rough", "average", "clean", "outstanding")]
    assert ladder == sorted(ladder) and len(set(ladder)) == 4
    guide = {c["condition"]: c["factor"] for c in ok(ep, "list_conditions")}
    assert guide["clean"] == 1.0 and guide["rough"] < guide["average"] < 1 < guide["outstanding"]


def test_more_miles_older_years_and_cheaper_regions_lower_the_value(ep: Episode) -> None:
    low, high = value(ep, mileage=20_000), value(ep, mileage=140_000)
    assert low["dealer_retail"] > high["dealer_retail"] and high["mileage_adjustment"] < 0 < low["mileage_adjustment"]
    typical = value(ep, mileage=value(ep)["typical_mileage"])
    assert typical["mileage_adjustment"] == 0
    older = value(ep, year=TODAY.year - 9)
    assert older["dealer_retail"] < value(ep)["dealer_retail"]
    south = value(ep, zip="35203")
    assert south["regional_adjustment"] < 0 < value(ep)["regional_adjustment"]


def test_styles_trims_and_the_price_when_new_agree(ep: Episode) -> None:
    styles = {s["trim"]: s["msrp"] for s in ok(ep, "list_styles", make="toyota", model="rav4", year=TODAY.year - 2)}
    assert styles["Base"] < styles["SE"] < styles["Premium"]
    trims = ok(ep, "compare_trims", make="TOYOTA", model="RAV4", year=TODAY.year - 2, mileage=30_000, zip="10001")
    assert [t["dealer_retail"] for t in trims] == sorted(t["dealer_retail"] for t in trims)
    assert {t["trim"]: t["msrp"] for t in trims} == styles
    models = {m["model"] for m in ok(ep, "list_models", make="CHEVROLET", year=2024)}
    assert "Bolt EV" not in models and "Silverado" in models


def test_unknown_vehicles_and_years_not_built_are_refused(ep: Episode) -> None:
    refused(ep, "get_value", "not_found", "make", **(CIVIC | {"make": "ZASTAVA", "mileage": 1}))
    refused(ep, "get_value", "not_found", "model", **(CIVIC | {"model": "Accordion", "mileage": 1}))
    refused(ep, "get_value", "rule_violation", "year", **(CIVIC | {"model": "CR-V", "year": 1990, "mileage": 1}))
    refused(ep, "get_value", "rule_violation", "year", **(CIVIC | {"year": TODAY.year + 1, "mileage": 1}))
    refused(ep, "get_value", "invalid_arguments", "zip", **(CIVIC | {"zip": "SW1A", "mileage": 1}))


def test_a_vin_is_valued_as_the_decoder_reads_it(ep: Episode) -> None:
    vin = make_vin(WORLD.population.seed, "BMW", "X5", TODAY.year - 3, 7)
    by_vin = ok(ep, "value_by_vin", vin=vin, mileage=40_000, zip="60601", condition="average")
    decoded = ok(Episode(VAL.world), "value_by_vin", vin=vin, mileage=40_000, zip="60601", condition="average")
    assert by_vin == decoded and by_vin["vin"] == vin
    assert (by_vin["make"], by_vin["model"], by_vin["year"]) == ("BMW", "X5", TODAY.year - 3)
    same = ok(
        ep,
        "get_value",
        make="BMW",
        model="X5",
        year=TODAY.year - 3,
        trim=by_vin["trim"],
        mileage=40_000,
        zip="60601",
        condition="average",
    )
    assert same | {"vin": vin} == by_vin


def test_depreciation_falls_every_year_and_cost_to_own_adds_up(ep: Episode) -> None:
    curve = ok(ep, "get_depreciation", make="TESLA", model="Model 3", year=TODAY.year - 2, years=5)
    values = [y["private_party"] for y in curve]
    assert values == sorted(values, reverse=True) and len(values) == 6
    assert curve[0]["on"] == TODAY.isoformat() and curve[1]["on"] == TODAY.replace(year=TODAY.year + 1).isoformat()
    ev = ok(ep, "get_cost_to_own", make="TESLA", model="Model 3", year=TODAY.year - 2, zip="98101")
    gas = ok(ep, "get_cost_to_own", make="FORD", model="F-150", year=TODAY.year - 2, zip="98101")
    for c in (ev, gas):
        assert c["total"] == c["depreciation"] + c["fuel"] + c["insurance"] + c["maintenance"]
    assert ev["fuel"] < gas["fuel"]


def test_seeded_appraisals_are_by_staff_for_customers_at_their_values(ep: Episode) -> None:
    staff = {p.email for p in POP.employees}
    customers = {p.email: p.name for p in POP.consumers}
    found = every(ep, "list_appraisals")
    assert {a["status"] for a in found} == {"draft", "offered", "declined", "accepted"}
    for a in found:
        assert a["appraised_by"] in staff and customers[a["customer_email"]] == a["customer_name"]
        v = ok(
            ep,
            "get_value",
            make=a["make"],
            model=a["model_name"],
            year=a["year"],
            trim=a["trim"],
            mileage=a["mileage"],
            condition=a["condition"],
            zip=a["zip"],
        )
        assert (v["trade_in"], v["private_party"]) == (a["trade_in"], a["private_party"])
        if a["offer"] is not None:
            assert a["offer"] <= a["private_party"]


def test_an_appraisal_by_vin_must_match_the_vehicle_and_is_open_once(ep: Episode) -> None:
    c = POP.consumers[0]
    me = POP.employees[0].email
    year = TODAY.year - 4
    vin = make_vin(POP.seed, "TOYOTA", "Corolla", year, 55)
    args = {
        "make": "TOYOTA",
        "year": year,
        "mileage": 50_000,
        "zip": "10001",
        "customer_name": c.name,
        "customer_email": c.email,
        "appraised_by": me,
        "vin": vin,
    }
    refused(ep, "create_appraisal", "rule_violation", "vin", model="Prius", **args)
    refused(
        ep, "create_appraisal", "rule_violation", "appraised_by", model="Corolla", **(args | {"appraised_by": c.email})
    )
    made = ok(ep, "create_appraisal", model="Corolla", **args)
    assert made["status"] == "draft" and made["vin"] == vin
    refused(ep, "create_appraisal", "conflict", "vin", model="Corolla", **args)
    worse = ok(ep, "reappraise", appraisal_id=made["id"], condition="rough", mileage=90_000)
    assert worse["trade_in"] < made["trade_in"]


def test_offers_are_capped_valid_seven_days_and_final_once_decided(ep: Episode) -> None:
    draft = VAL.first(ep, "appraisals", status="draft")
    refused(ep, "make_offer", "rule_violation", "amount", appraisal_id=draft["id"], amount=draft["private_party"] + 1)
    offered = ok(ep, "make_offer", appraisal_id=draft["id"], amount=draft["trade_in"])
    assert offered["valid_until"] == (TODAY + dt.timedelta(days=7)).isoformat()
    refused(ep, "reappraise", "rule_violation", "appraisal_id", appraisal_id=draft["id"], condition="rough")
    refused(ep, "renew_offer", "rule_violation", "appraisal_id", appraisal_id=draft["id"])
    assert ok(ep, "accept_offer", appraisal_id=draft["id"])["status"] == "accepted"
    refused(ep, "cancel_appraisal", "rule_violation", "appraisal_id", appraisal_id=draft["id"])
    refused(ep, "update_appraisal", "rule_violation", "appraisal_id", appraisal_id=draft["id"], notes="x")


def test_an_expired_offer_cannot_be_accepted_until_renewed(ep: Episode) -> None:
    expired = next(a for a in every(ep, "list_appraisals", status="offered") if a["valid_until"] < TODAY.isoformat())
    refused(ep, "accept_offer", "rule_violation", "appraisal_id", appraisal_id=expired["id"])
    renewed = ok(ep, "renew_offer", appraisal_id=expired["id"])
    assert renewed["valid_until"] > TODAY.isoformat() and renewed["offer"] <= renewed["private_party"]
    assert ok(ep, "accept_offer", appraisal_id=expired["id"])["status"] == "accepted"
