"""Catalogix PIM: families and requirements, value rules, completeness and publishing to channels."""

from __future__ import annotations

from typing import Any

from compoworld import Episode
from tests.services.helpers import ServiceTools

PIM = ServiceTools("pim")
WORLD = PIM.world
ok, refused, every = PIM.ok, PIM.refused, PIM.every
POP = WORLD.population


def bare(ep: Episode) -> dict[str, Any]:
    fam = every(ep, "list_families")[0]
    made: dict[str, Any] = ok(ep, "create_product", identifier="TST-0001", family=fam["code"])
    return made


def fill_ecommerce(ep: Episode, sku: str) -> None:
    ok(ep, "set_value", identifier=sku, attribute="name", locale="en_US", data="Trail boot")
    ok(ep, "set_value", identifier=sku, attribute="name", locale="de_DE", data="Wanderschuh")
    ok(ep, "set_value", identifier=sku, attribute="price", scope="ecommerce", data="129.00")
    for loc in ("en_US", "de_DE"):
        ok(ep, "set_value", identifier=sku, attribute="description", locale=loc, scope="ecommerce", data="Boot.")


def test_products_are_the_worlds_catalog_in_families_by_category(ep: Episode) -> None:
    skus = {p.sku: p for p in POP.products}
    fams = {f["code"] for f in every(ep, "list_families")}
    for prod in every(ep, "list_products"):
        assert prod["identifier"] in skus and prod["family"] in fams
        name = next(v["data"] for v in prod["values"] if v["attribute"] == "name")
        assert name == skus[prod["identifier"]].name
    for pub in every(ep, "list_publications", status="live"):
        rows = ok(ep, "product_completeness", identifier=pub["identifier"])
        assert all(r["ratio"] == 100 for r in rows if r["channel"] == pub["channel"])


def test_values_must_fit_the_attribute(ep: Episode) -> None:
    sku = bare(ep)["identifier"]
    refused(ep, "set_value", "rule_violation", "locale", identifier=sku, attribute="name", data="X")
    refused(
        ep, "set_value", "rule_violation", "locale", identifier=sku, attribute="weight_kg", data="1", locale="en_US"
    )
    refused(ep, "set_value", "rule_violation", "scope", identifier=sku, attribute="price", data="1")
    refused(ep, "set_value", "rule_violation", "data", identifier=sku, attribute="weight_kg", data="heavy")
    refused(ep, "set_value", "rule_violation", "data", identifier=sku, attribute="color", data="purple")
    refused(ep, "set_value", "rule_violation", "data", identifier=sku, attribute="waterproof", data="yes")
    refused(ep, "set_value", "rule_violation", "locale", identifier=sku, attribute="name", data="X", locale="fr_FR")
    prod = ok(ep, "set_value", identifier=sku, attribute="color", data="red")
    assert [(v["attribute"], v["data"]) for v in prod["values"]] == [("color", "red")]


def test_setting_a_value_again_replaces_it(ep: Episode) -> None:
    sku = bare(ep)["identifier"]
    ok(ep, "set_value", identifier=sku, attribute="name", locale="en_US", data="One")
    ok(ep, "set_value", identifier=sku, attribute="name", locale="de_DE", data="Eins")
    prod = ok(ep, "set_value", identifier=sku, attribute="name", locale="en_US", data="Two")
    assert sorted((v["locale"], v["data"]) for v in prod["values"]) == [("de_DE", "Eins"), ("en_US", "Two")]


def test_completeness_counts_required_values_per_locale(ep: Episode) -> None:
    sku = bare(ep)["identifier"]
    ok(ep, "set_value", identifier=sku, attribute="name", locale="en_US", data="Boot")
    rows = {(c["channel"], c["locale"]): c for c in ok(ep, "product_completeness", identifier=sku)}
    assert rows[("mobile", "en_US")]["ratio"] == 100
    assert rows[("ecommerce", "en_US")]["missing"] == ["description", "price"]
    assert rows[("ecommerce", "de_DE")]["ratio"] == 0
    assert rows[("print", "en_US")]["missing"] == ["weight_kg"]


def test_publishing_needs_full_completeness_in_every_locale(ep: Episode) -> None:
    sku = bare(ep)["identifier"]
    ok(ep, "set_value", identifier=sku, attribute="name", locale="en_US", data="Boot")
    refused(ep, "publish_product", "rule_violation", "channel", identifier=sku, channel="ecommerce")
    fill_ecommerce(ep, sku)
    pub = ok(ep, "publish_product", identifier=sku, channel="ecommerce")
    assert (pub["status"], pub["channel"]) == ("live", "ecommerce")
    refused(ep, "publish_product", "conflict", "channel", identifier=sku, channel="ecommerce")
    assert ok(ep, "withdraw_publication", publication_id=pub["id"])["status"] == "withdrawn"
    assert ok(ep, "publish_product", identifier=sku, channel="ecommerce")["status"] == "live"


def test_a_disabled_product_is_not_published(ep: Episode) -> None:
    prod = every(ep, "list_products", enabled=False)[0]
    refused(ep, "publish_product", "rule_violation", "identifier", identifier=prod["identifier"], channel="mobile")
    ok(ep, "update_product", product_id=prod["id"], enabled=True)
    assert ok(ep, "publish_product", identifier=prod["identifier"], channel="mobile")["status"] == "live"


def test_requirements_only_name_family_attributes_once(ep: Episode) -> None:
    fam = every(ep, "list_families")[0]
    refused(ep, "require_attribute", "conflict", "attribute", family=fam["code"], channel="mobile", attribute="name")
    refused(
        ep, "require_attribute", "rule_violation", "channel", family=fam["code"], channel="kiosk", attribute="color"
    )
    done = ok(ep, "require_attribute", family=fam["code"], channel="mobile", attribute="color")
    assert done["requirements"]["mobile"] == ["name", "color"]


def test_families_and_products_are_unique_and_reference_real_codes(ep: Episode) -> None:
    fam = every(ep, "list_families")[0]
    refused(ep, "create_family", "conflict", "code", code=fam["code"], label="Dup", attributes=["name"])
    refused(ep, "create_family", "rule_violation", "attributes", code="new_fam", label="New", attributes=["nope"])
    refused(
        ep, "create_family", "rule_violation", "attributes", code="new_fam", label="New", attributes=["name", "name"]
    )
    known = every(ep, "list_products")[0]
    refused(ep, "create_product", "conflict", "identifier", identifier=known["identifier"], family=fam["code"])
    refused(
        ep,
        "create_product",
        "rule_violation",
        "categories",
        identifier="TST-0002",
        family=fam["code"],
        categories=["nowhere"],
    )
    small = ok(ep, "create_family", code="new_fam", label="New", attributes=["name"])
    sku = ok(ep, "create_product", identifier="TST-0003", family=small["code"])["identifier"]
    refused(ep, "set_value", "rule_violation", "attribute", identifier=sku, attribute="color", data="red")
