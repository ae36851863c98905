"""Scanbase: GTIN check digits and formats, the product database, Nutri-Score, diet policies and approvals."""

from __future__ import annotations

from typing import Any

from compoworld import Episode
from compoworld.services.information.barcodes import HOME_PREFIX, _catalog, gtin_of
from tests.services.helpers import ServiceTools

BAR = ServiceTools("barcodes")
WORLD = BAR.world
ok, refused, every = BAR.ok, BAR.refused, BAR.every
POP = WORLD.population
BUYER = POP.employees[0].email
CATALOG = sorted(_catalog(POP.seed))


def policy(ep: Episode, name: str) -> dict[str, Any]:
    return next(p for p in every(ep, "list_policies") if p["name"] == name)


def test_check_digits_and_formats_are_enforced(ep: Episode) -> None:
    v = ok(ep, "validate_code", code="4006381333931")
    assert (v["format"], v["gs1_country"], v["check_digit"]) == ("EAN-13", "DE", "1")
    refused(ep, "validate_code", "rule_violation", "code", code="4006381333932")
    refused(ep, "lookup_product", "rule_violation", "code", code="400638133393")
    refused(ep, "lookup_product", "rule_violation", "code", code=gtin_of("210000000001"))
    refused(ep, "lookup_product", "rule_violation", "code", code=gtin_of("1" + CATALOG[0][:-1]))
    assert ok(ep, "check_digit_for", digits="400638133393")["normalized"] == "4006381333931"
    assert ok(ep, "validate_code", code=gtin_of("978316148410"))["issuer"] == "Bookland (ISBN)"


def test_upc_ean_and_gtin14_forms_of_one_code_find_the_same_product(ep: Episode) -> None:
    code = next(c for c in CATALOG if c.startswith("0"))
    upc = code[1:]
    assert ok(ep, "validate_code", code=upc)["format"] == "UPC-A"
    same = [ok(ep, "lookup_product", code=c) for c in (code, upc, "0" + code, f"{code[:4]} {code[4:]}")]
    assert all(p == same[0] for p in same) and same[0]["code"] == code


def test_the_home_companys_products_carry_its_prefix_and_skus(ep: Episode) -> None:
    for k, product in enumerate(POP.products[:5]):
        p = ok(ep, "lookup_product", code=gtin_of(f"{HOME_PREFIX}{k + 1:05d}"))
        assert (p["product_name"], p["model"], p["brands"]) == (product.name, product.sku, POP.home.name)
        assert p["is_food"] is False and p["nutriments"] is None and p["nutriscore_grade"] is None
    found = ok(ep, "search_products", brand=POP.home.name)
    assert found["count"] == len(POP.products)


def test_nutriscore_follows_the_nutriments(ep: Episode) -> None:
    for code in CATALOG[:12]:
        p = ok(ep, "lookup_product", code=code)
        beverage = any(c["beverage"] for c in ok(ep, "list_categories") if c["tag"] in p["categories_tags"])
        score = ok(ep, "compute_nutriscore", nutriments=p["nutriments"], beverage=beverage)
        assert (score["nutriscore_score"], score["nutriscore_grade"]) == (p["nutriscore_score"], p["nutriscore_grade"])
    bad = dict(ok(ep, "lookup_product", code=CATALOG[0])["nutriments"])
    bad["saturated_fat"] = bad["fat"] + 1
    refused(ep, "compute_nutriscore", "rule_violation", "nutriments", nutriments=bad)


def test_unknown_codes_are_stable_and_some_are_not_in_the_database(ep: Episode) -> None:
    codes = [gtin_of(f"590{k:09d}") for k in range(1, 30)]
    bulk = ok(ep, "lookup_products", codes=codes[:20])
    assert bulk["not_found"] and bulk["found"]
    assert len(bulk["found"]) + len(bulk["not_found"]) == 20
    first = bulk["found"][0]
    assert ok(ep, "lookup_product", code=first["code"]) == first
    refused(ep, "lookup_product", "not_found", "code", code=bulk["not_found"][0])


def test_search_filters_by_allergen_and_grade(ep: Episode) -> None:
    free = ok(ep, "search_products", without_allergen="milk")["products"]
    assert free and all("milk" not in p["allergens_tags"] + p["traces_tags"] for p in free)
    cereal = ok(ep, "search_products", category="en:breakfast-cereals")["products"]
    assert cereal and all(p["categories_tags"] == ["en:breakfast-cereals"] for p in cereal)
    grade_a = ok(ep, "search_products", nutriscore_grade="a")["products"]
    assert all(p["nutriscore_grade"] == "a" for p in grade_a)


def test_a_product_is_approved_only_when_it_fits_the_policy_and_once(ep: Episode) -> None:
    cafe = policy(ep, "Staff cafeteria")
    nutty = next(p for p in ok(ep, "search_products")["products"] if "nuts" in p["allergens_tags"])
    msg = refused(
        ep, "approve_product", "rule_violation", "code", policy_id=cafe["id"], code=nutty["code"], approved_by=BUYER
    )
    assert "contains nuts" in msg
    refused(
        ep,
        "approve_product",
        "rule_violation",
        "code",
        policy_id=cafe["id"],
        code=gtin_of(f"{HOME_PREFIX}00001"),
        approved_by=BUYER,
    )
    approved = every(ep, "list_approvals", policy_id=cafe["id"], status="active")[0]
    refused(ep, "approve_product", "conflict", "code", policy_id=cafe["id"], code=approved["code"], approved_by=BUYER)
    fits = next(
        p
        for p in ok(ep, "search_products")["products"]
        if ok(ep, "check_product", policy_id=cafe["id"], code=p["code"])["allowed"]
        and not every(ep, "list_approvals", policy_id=cafe["id"], code=p["code"])
    )
    refused(
        ep,
        "approve_product",
        "rule_violation",
        "approved_by",
        policy_id=cafe["id"],
        code=fits["code"],
        approved_by="x@y.io",
    )
    made = ok(ep, "approve_product", policy_id=cafe["id"], code=fits["code"], approved_by=BUYER)
    assert (made["status"], made["nutriscore_grade"]) == ("active", fits["nutriscore_grade"])


def test_tightening_a_policy_flags_approvals_and_relaxing_reinstates_them(ep: Episode) -> None:
    vending = policy(ep, "Vending machines")
    flagged = every(ep, "list_approvals", policy_id=vending["id"], status="flagged")[0]
    ok(ep, "update_policy", policy_id=vending["id"], worst_grade="c")
    refused(ep, "reinstate_approval", "rule_violation", "approval_id", approval_id=flagged["id"])
    newly = ok(ep, "recheck_policy", policy_id=vending["id"])
    assert newly and all(a["status"] == "flagged" and "worse than C" in a["flag_reason"] for a in newly)
    assert all(a["nutriscore_grade"] in ("d", "e") for a in newly)
    ok(ep, "update_policy", policy_id=vending["id"], worst_grade="d")
    back = ok(ep, "reinstate_approval", approval_id=flagged["id"])
    assert (back["status"], back["flag_reason"]) == ("active", "")
    refused(ep, "reinstate_approval", "rule_violation", "approval_id", approval_id=flagged["id"])


def test_a_policy_is_deleted_only_without_live_approvals(ep: Episode) -> None:
    events = policy(ep, "Client events")
    refused(ep, "delete_policy", "conflict", "policy_id", policy_id=events["id"])
    for a in every(ep, "list_approvals", policy_id=events["id"], status="active"):
        ok(ep, "revoke_approval", approval_id=a["id"])
    ok(ep, "delete_policy", policy_id=events["id"])
    assert all(p["name"] != "Client events" for p in every(ep, "list_policies"))
    refused(ep, "create_policy", "rule_violation", "owner_email", name="Board lunch", owner_email="x@y.io")
    refused(
        ep,
        "create_policy",
        "rule_violation",
        "avoid_allergens",
        name="Board lunch",
        owner_email=BUYER,
        avoid_allergens=["milk", "milk"],
    )


def test_alternatives_fit_the_policy_and_score_no_worse(ep: Episode) -> None:
    cafe = policy(ep, "Staff cafeteria")
    worst = max((ok(ep, "lookup_product", code=c) for c in CATALOG), key=lambda p: p["nutriscore_score"])
    alts = ok(ep, "suggest_alternatives", policy_id=cafe["id"], code=worst["code"])["products"]
    for q in alts:
        assert q["categories_tags"] == worst["categories_tags"] and q["nutriscore_score"] <= worst["nutriscore_score"]
        assert ok(ep, "check_product", policy_id=cafe["id"], code=q["code"])["allowed"]
    if alts:
        cmp = ok(ep, "compare_products", first_code=worst["code"], second_code=alts[0]["code"])
        assert cmp["better"] in (alts[0]["code"], None)
    refused(
        ep, "suggest_alternatives", "rule_violation", "code", policy_id=cafe["id"], code=gtin_of(f"{HOME_PREFIX}00002")
    )
