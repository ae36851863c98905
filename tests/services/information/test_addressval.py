"""Addresscheck: the world's addresses verify, ZIP+4 and barcodes are consistent, address books keep verified ones."""

from __future__ import annotations

from typing import Any

from compoworld import Episode
from tests.services.helpers import ServiceTools

AV = ServiceTools("addressval")
WORLD = AV.world
ok, refused, every = AV.ok, AV.refused, AV.every
POP = WORLD.population
STAFF = {p.email for p in POP.employees}
US_PEOPLE = [p for p in POP.people if p.address.country == "US"]
US_FIRMS = [c for c in POP.companies if c.address.country == "US"]


def one(ep: Episode, **lookup: Any) -> dict[str, Any]:
    found: list[dict[str, Any]] = ok(ep, "verify_us_street", **lookup)
    assert len(found) == 1, lookup
    return found[0]


def test_every_us_address_of_the_world_is_deliverable_with_its_own_zip(ep: Episode) -> None:
    for p in US_PEOPLE[:8]:
        c = one(ep, street=p.address.street, city=p.address.city, zipcode=p.address.postal_code)
        assert c["analysis"]["dpv_match_code"] == "Y" and c["components"]["city_name"] == p.address.city
        assert c["components"]["zipcode"] == p.address.postal_code and c["metadata"]["precision"] == "Rooftop"
    for firm in US_FIRMS:
        assert one(ep, street=firm.address.street, city=firm.address.city)["metadata"]["rdi"] == "Commercial"


def test_standardisation_abbreviates_and_corrects_zip_and_state(ep: Episode) -> None:
    p = US_PEOPLE[0].address
    right = one(ep, street=p.street, city=p.city)
    shouted = one(ep, street=p.street.upper().replace("STREET", "ST.").replace("ROAD", "RD"), city=p.city.upper())
    assert shouted["delivery_line_1"] == right["delivery_line_1"] and shouted["last_line"] == right["last_line"]
    assert not right["delivery_line_1"].endswith(("Street", "Road", "Lane", "Avenue"))
    wrong = one(ep, street=p.street, city=p.city, zipcode=p.postal_code[:2] + "000", state="ZZ")
    assert wrong["components"]["zipcode"] == p.postal_code
    assert "A#" in wrong["analysis"]["footnotes"] and "B#" in wrong["analysis"]["footnotes"]
    by_zip = one(ep, street=p.street, zipcode=p.postal_code)
    assert by_zip["components"]["city_name"] == p.city


def test_the_delivery_point_barcode_carries_a_valid_check_digit(ep: Episode) -> None:
    for p in US_PEOPLE[:6]:
        c = one(ep, street=p.address.street, city=p.address.city)
        comp = c["components"]
        barcode = comp["zipcode"] + comp["plus4_code"] + comp["delivery_point"] + comp["delivery_point_check_digit"]
        assert c["delivery_point_barcode"] == barcode and sum(int(d) for d in barcode) % 10 == 0
        assert c["last_line"].endswith(f"{comp['zipcode']}-{comp['plus4_code']}")


def test_undeliverable_numbers_and_unknown_streets_find_nothing_strictly(ep: Episode) -> None:
    city = US_PEOPLE[0].address.city
    assert ok(ep, "verify_us_street", street="999 Harbor Road", city=city) == []
    [enh] = ok(ep, "verify_us_street", street="999 Harbor Road", city=city, match="enhanced")
    assert (enh["analysis"]["dpv_match_code"], enh["analysis"]["active"]) == ("N", False)
    assert ok(ep, "verify_us_street", street="12 Nowhere Boulevard", city=city, match="enhanced") == []
    refused(ep, "verify_us_street", "rule_violation", "city", street="12 Main Street")


def test_batch_verification_keeps_input_indexes(ep: Episode) -> None:
    a, b = US_PEOPLE[0].address, US_PEOPLE[1].address
    lookups = [
        {"street": a.street, "city": a.city},
        {"street": "999 Mill Lane", "city": a.city},
        {"street": b.street, "city": b.city},
    ]
    found = ok(ep, "verify_us_batch", lookups=lookups)
    assert [c["input_index"] for c in found] == [0, 2]
    assert found[1] == {**one(ep, street=b.street, city=b.city), "input_index": 2}


def test_zip_lookup_reverse_geocode_and_extract_agree(ep: Episode) -> None:
    p = US_PEOPLE[0].address
    c = one(ep, street=p.street, city=p.city)
    z = ok(ep, "lookup_zipcode", zipcode=p.postal_code)
    assert (z["city"], z["state_abbreviation"], z["county_fips"]) == (
        p.city,
        c["components"]["state_abbreviation"],
        c["metadata"]["county_fips"],
    )
    near = ok(ep, "reverse_geocode", latitude=c["metadata"]["latitude"], longitude=c["metadata"]["longitude"])
    assert near[0]["delivery_line_1"] == c["delivery_line_1"]
    [found] = ok(ep, "extract_addresses", text=f"Hi, please ship to {p.street}, {p.city} before Friday. Thanks!")
    assert found["verified"] and found["candidate"]["delivery_line_1"] == c["delivery_line_1"]
    refused(ep, "lookup_zipcode", "not_found", "zipcode", zipcode="00001")


def test_international_addresses_verify_to_premise_only_with_a_known_street(ep: Episode) -> None:
    p = next(x for x in POP.people if x.address.country != "US")
    a = p.address
    r = ok(ep, "verify_international", address1=a.street, locality=a.city, country=a.country)
    assert (r["verification_status"], r["address_precision"], r["postal_code"]) == (
        "Verified",
        "Premise",
        a.postal_code,
    )
    partial = ok(ep, "verify_international", address1="Somewhere 5", locality=a.city, country=a.country)
    assert partial["verification_status"] == "Partial"
    none = ok(ep, "verify_international", address1=a.street, locality="Atlantis", country=a.country)
    assert none["verification_status"] == "None"
    refused(ep, "verify_international", "rule_violation", "country", address1=a.street, locality="Austin", country="US")


def test_seeded_books_hold_verified_addresses_of_customers_and_consumers(ep: Episode) -> None:
    books = every(ep, "list_address_books")
    assert {b["status"] for b in books} == {"active", "archived"} and all(b["owner_email"] in STAFF for b in books)
    known = {p.email for p in POP.people}
    saved = every(ep, "list_addresses")
    assert len(saved) >= 12 and all(a["contact_email"] in known for a in saved if a["contact_email"])
    for a in saved:
        if a["country"] == "US":
            city = a["last_line"].rsplit(" ", 2)[0]
            assert one(ep, street=a["delivery_line_1"], city=city)["last_line"] == a["last_line"]


def test_only_verified_addresses_are_saved_once_and_archived_books_are_frozen(ep: Episode) -> None:
    owner = POP.employees[0].email
    book = ok(ep, "create_address_book", name="Field visits", owner_email=owner)
    p = US_PEOPLE[2]
    args = {"address_book_id": book["id"], "street": p.address.street, "city": p.address.city, "country": "US"}
    saved = ok(ep, "add_address", label="Visit", contact_email=p.email, **args)
    assert saved["delivery_line_1"] == one(ep, street=p.address.street, city=p.address.city)["delivery_line_1"]
    refused(ep, "add_address", "conflict", "street", label="Again", **args)
    refused(ep, "add_address", "rule_violation", "street", label="Bad", **(args | {"street": "999 Mill Lane"}))
    assert ok(ep, "reverify_book", address_book_id=book["id"]) == []
    ok(ep, "archive_address_book", address_book_id=book["id"])
    refused(ep, "reverify_address", "rule_violation", "address_id", address_id=saved["id"])
    refused(ep, "update_address", "rule_violation", "address_id", address_id=saved["id"], label="Renamed")
    refused(ep, "create_address_book", "rule_violation", "owner_email", name="X", owner_email=POP.contacts[0].email)
