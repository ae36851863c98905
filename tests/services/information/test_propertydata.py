"""Parcelview: the world's addresses are properties whose records agree; saved lists keep the review rules."""

from __future__ import annotations

from compoworld import Episode
from tests.services.helpers import ServiceTools

PD = ServiceTools("propertydata")
WORLD = PD.world
ok, refused, every = PD.ok, PD.refused, PD.every
POP = WORLD.population
STAFF = {p.email for p in POP.employees}


def test_every_persons_and_companys_address_is_a_property_they_own(ep: Episode) -> None:
    for person in POP.consumers[:5]:
        a = person.address
        prop = ok(ep, "get_property_by_address", street=a.street.upper(), postal_code=a.postal_code)
        assert prop["address"] == a.model_dump() and prop["owner_name"] == person.name
        assert prop["owner_email"] == person.email
        assert ok(ep, "get_property", attom_id=prop["attom_id"]) == prop
    office = POP.home.address
    prop = ok(ep, "get_property_by_address", street=office.street, postal_code=office.postal_code)
    assert prop["owner_name"] == POP.home.name and prop["property_type"] in {"OFFICE BUILDING", "COMMERCIAL (NEC)"}
    refused(
        ep, "get_property_by_address", "not_found", "street", street="1 Nowhere Lane", postal_code=office.postal_code
    )


def test_the_last_sale_the_history_and_the_area_snapshot_agree(ep: Episode) -> None:
    a = POP.consumers[0].address
    prop = ok(ep, "get_property_by_address", street=a.street, postal_code=a.postal_code)
    history = ok(ep, "get_sales_history", attom_id=prop["attom_id"])
    assert history and (history[0]["sale_date"], history[0]["price"]) == (
        prop["last_sale_date"],
        prop["last_sale_price"],
    )
    assert [s["sale_date"] for s in history] == sorted((s["sale_date"] for s in history), reverse=True)
    area = ok(ep, "sales_snapshot", postal_code=a.postal_code, start_date="1900-01-01")
    assert {(s["sale_date"], s["price"]) for s in history} <= {(s["sale_date"], s["price"]) for s in area}
    refused(
        ep,
        "sales_snapshot",
        "rule_violation",
        "end_date",
        postal_code=a.postal_code,
        start_date="2020-01-01",
        end_date="2019-01-01",
    )


def test_the_valuation_brackets_its_value_and_grows_from_past_sales(ep: Episode) -> None:
    a = POP.consumers[1].address
    prop = ok(ep, "get_property_by_address", street=a.street, postal_code=a.postal_code)
    avm = ok(ep, "get_avm", attom_id=prop["attom_id"])
    assert avm["low"] < avm["value"] < avm["high"] and avm["currency"] == prop["currency"]
    assert avm["value_per_sqft"] == round(avm["value"] / prop["living_size_sqft"])
    assert (avm["confidence_score"] > 80) == (avm["fsd"] < 0.1)
    if prop["last_sale_price"]:
        assert avm["value"] > prop["last_sale_price"] * 0.8
    refused(ep, "get_avm", "not_found", "attom_id", attom_id=999999999)


def test_assessments_follow_the_value_and_refuse_future_years(ep: Episode) -> None:
    a = POP.consumers[2].address
    pid = ok(ep, "get_property_by_address", street=a.street, postal_code=a.postal_code)["attom_id"]
    last = ok(ep, "get_assessment", attom_id=pid)
    assert last["tax_year"] == 2025
    assert last["assessed_land_value"] + last["assessed_improvement_value"] == last["assessed_total_value"]
    assert last["tax_amount"] == round(last["assessed_total_value"] * 0.011)
    older = ok(ep, "get_assessment", attom_id=pid, tax_year=2020)
    assert older["assessed_total_value"] < last["assessed_total_value"]
    refused(ep, "get_assessment", "rule_violation", "tax_year", attom_id=pid, tax_year=2027)


def test_comparables_are_sold_properties_of_the_same_kind_and_country(ep: Episode) -> None:
    a = POP.consumers[0].address
    subject = ok(ep, "get_property_by_address", street=a.street, postal_code=a.postal_code)
    comps = ok(ep, "get_comparables", attom_id=subject["attom_id"], limit=5)
    assert comps and all(c["attom_id"] != subject["attom_id"] for c in comps)
    for c in comps:
        full = ok(ep, "get_property", attom_id=c["attom_id"])
        assert full["address"]["country"] == a.country and full["last_sale_price"] == c["last_sale_price"]
        assert full["property_type"] not in {"OFFICE BUILDING", "COMMERCIAL (NEC)"}


def test_seeded_lists_belong_to_staff_and_hold_every_review_state(ep: Episode) -> None:
    lists = every(ep, "list_property_lists")
    assert {x["status"] for x in lists} == {"active", "archived"} and {x["owner_email"] for x in lists} <= STAFF
    saved = every(ep, "list_saved_properties")
    assert {s["status"] for s in saved} == {"prospect", "reviewing", "acquired", "rejected"}
    assert all(s["max_offer"] is not None for s in saved if s["status"] == "acquired")
    for s in saved[:4]:
        assert ok(ep, "get_property", attom_id=s["attom_id"])["address"] == s["address"]


def test_a_property_is_saved_once_and_acquired_only_with_an_approved_offer(ep: Episode) -> None:
    lst = PD.first(ep, "property_lists", status="active")
    a = POP.consumers[3].address
    pid = ok(ep, "get_property_by_address", street=a.street, postal_code=a.postal_code)["attom_id"]
    saved = ok(ep, "save_property", property_list_id=lst["id"], attom_id=pid, note="Near the station")
    avm = ok(ep, "get_avm", attom_id=pid)
    assert (saved["status"], saved["value_at_save"]) == ("prospect", avm["value"])
    refused(ep, "save_property", "conflict", "attom_id", property_list_id=lst["id"], attom_id=pid)
    refused(ep, "acquire_saved_property", "rule_violation", "saved_property_id", saved_property_id=saved["id"])
    ok(ep, "start_review_saved_property", saved_property_id=saved["id"])
    refused(ep, "acquire_saved_property", "rule_violation", "saved_property_id", saved_property_id=saved["id"])
    refused(
        ep,
        "update_saved_property",
        "rule_violation",
        "max_offer",
        saved_property_id=saved["id"],
        max_offer=avm["high"] + 100,
    )
    ok(ep, "update_saved_property", saved_property_id=saved["id"], max_offer=avm["value"])
    assert ok(ep, "acquire_saved_property", saved_property_id=saved["id"])["status"] == "acquired"


def test_archived_lists_are_frozen_and_lists_under_review_cannot_be_deleted(ep: Episode) -> None:
    lst = PD.first(ep, "property_lists", status="active")
    refused(ep, "delete_property_list", "rule_violation", "property_list_id", property_list_id=lst["id"])
    ok(ep, "archive_property_list", property_list_id=lst["id"])
    refused(ep, "refresh_valuations", "rule_violation", "property_list_id", property_list_id=lst["id"])
    item = PD.first(ep, "saved_properties", list_id=lst["id"], status="prospect")
    refused(ep, "update_saved_property", "rule_violation", "saved_property_id", saved_property_id=item["id"], note="x")
    ok(ep, "unarchive_property_list", property_list_id=lst["id"])
    refreshed = ok(ep, "refresh_valuations", property_list_id=lst["id"])
    assert {s["status"] for s in refreshed} <= {"prospect", "reviewing"} and refreshed
    for s in refreshed:
        assert s["latest_value"] == ok(ep, "get_avm", attom_id=s["attom_id"])["value"]


def test_list_names_are_unique_per_owner_and_kept_by_staff(ep: Episode) -> None:
    owner = POP.employees[0].email
    ok(ep, "create_property_list", name="Warehouses", owner_email=owner)
    refused(ep, "create_property_list", "conflict", "name", name="Warehouses", owner_email=owner)
    refused(
        ep, "create_property_list", "rule_violation", "owner_email", name="Mine", owner_email=POP.consumers[0].email
    )
