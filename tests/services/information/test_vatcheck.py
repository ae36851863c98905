"""Vatproof: VAT number formats and check digits, VIES answers, the customer register, proofs and reverse charge."""

from __future__ import annotations

from typing import Any

from compoworld import Episode
from compoworld.services.information.vatcheck import _DOWN, vat_number_of
from tests.services.helpers import ServiceTools

VAT = ServiceTools("vatcheck")
WORLD = VAT.world
ok, refused, every = VAT.ok, VAT.refused, VAT.every
POP = WORLD.population
CLERK = POP.employees[0].email
EU = [c for c in POP.customers if c.address.country in ("FR", "IT", "NL", "SE", "DE", "ES")]
DOWN = _DOWN[POP.seed % len(_DOWN)]


def number(c: Any) -> str:
    return str(c.address.country) + vat_number_of(POP.seed, c.address.country, c.key)


def profile(ep: Episode, **where: Any) -> dict[str, Any]:
    return every(ep, "list_profiles", **where)[0]


def test_formats_and_check_digits_are_checked_before_asking(ep: Episode) -> None:
    assert ok(ep, "validate_format", vat_number="BE 0403.170.701")["has_check_digit"] is True
    refused(ep, "validate_format", "rule_violation", "vat_number", vat_number="BE0403170702")
    de = vat_number_of(POP.seed, "DE", "x")
    bad = de[:-1] + str((int(de[-1]) + 1) % 10)
    refused(ep, "check_vat", "rule_violation", "vat_number", vat_number="DE" + bad)
    refused(ep, "check_vat", "rule_violation", "vat_number", vat_number="GB123456789")
    assert "EL" in refused(ep, "check_vat", "rule_violation", "vat_number", vat_number="GR123456789")
    refused(ep, "check_vat", "rule_violation", "vat_number", vat_number="123456789")
    refused(ep, "check_vat", "rule_violation", "vat_number", vat_number="NL123456789")
    assert ok(ep, "check_vat", vat_number=de, country_code="DE")["country_code"] == "DE"


def test_a_world_company_is_registered_under_its_name_except_where_states_hide_it(ep: Episode) -> None:
    for c in EU:
        t = ok(ep, "check_vat", vat_number=number(c))
        assert t["valid"] is True
        if c.address.country in ("DE", "ES"):
            assert (t["name"], t["address"]) == ("---", "---")
        else:
            assert t["name"] == c.name.upper() and c.address.city in t["address"]
        assert t["request_identifier"] is None


def test_a_requester_gets_a_consultation_number_and_trader_details_are_matched(ep: Episode) -> None:
    c = next(c for c in EU if c.address.country not in ("DE", "ES"))
    me = "IT" + vat_number_of(POP.seed, "IT", "home")
    t = ok(ep, "check_vat", vat_number=number(c), requester_vat_number=me)
    assert t["request_identifier"].startswith("WAPI")
    good = ok(ep, "match_trader", vat_number=number(c), trader_name=c.name, trader_city=c.address.city)
    assert (good["trader_name_match"], good["trader_city_match"], good["trader_postal_code_match"]) == (
        "VALID",
        "VALID",
        "NOT_PROCESSED",
    )
    wrong = ok(ep, "match_trader", vat_number=number(c), trader_name="Someone Else Ltd")
    assert wrong["trader_name_match"] == "INVALID"
    hidden = next((x for x in EU if x.address.country in ("DE", "ES")), None)
    if hidden is not None:
        assert (
            ok(ep, "match_trader", vat_number=number(hidden), trader_name=hidden.name)["trader_name_match"]
            == "NOT_PROCESSED"
        )


def test_a_member_state_that_is_down_is_reported_and_refused(ep: Episode) -> None:
    status = {s["country_code"]: s["availability"] for s in ok(ep, "check_status")}
    assert status[DOWN] == "Unavailable" and list(status.values()).count("Unavailable") == 1
    msg = refused(ep, "check_vat", "rule_violation", "vat_number", vat_number=DOWN + vat_number_of(POP.seed, DOWN, "a"))
    assert "MS_UNAVAILABLE" in msg


def test_profiles_are_unique_and_verifying_keeps_a_proof_that_blocks_deletion(ep: Episode) -> None:
    known = profile(ep, status="verified")
    refused(
        ep,
        "create_profile",
        "conflict",
        "vat_number",
        customer_name="Again",
        vat_number=known["country_code"] + known["vat_number"],
    )
    refused(ep, "create_profile", "rule_violation", "vat_number", customer_name="Bad", vat_number="FR00000000000")
    made = ok(
        ep, "create_profile", customer_name="Orbis Verde", vat_number="IT" + vat_number_of(POP.seed, "IT", "orbis")
    )
    assert made["status"] == "unverified"
    ok(ep, "delete_profile", profile_id=made["id"])
    again = ok(
        ep, "create_profile", customer_name="Orbis Verde", vat_number="IT" + vat_number_of(POP.seed, "IT", "orbis")
    )
    refused(ep, "verify_profile", "rule_violation", "checked_by", profile_id=again["id"], checked_by="x@y.io")
    done = ok(ep, "verify_profile", profile_id=again["id"], checked_by=CLERK)
    proof = ok(ep, "get_proof", proof_id=done["last_proof_id"])
    assert proof["valid"] == (done["status"] == "verified") and proof["checked_by"] == CLERK
    refused(ep, "delete_profile", "conflict", "profile_id", profile_id=again["id"])


def test_reverse_charge_needs_a_fresh_valid_number_in_another_state(ep: Episode) -> None:
    fresh = next(p for p in every(ep, "list_profiles", status="verified") if p["last_verified_at"] > "2026-01-01")
    other = "FR" if fresh["country_code"] != "FR" else "DE"
    yes = ok(ep, "reverse_charge", profile_id=fresh["id"], seller_country=other)
    assert (yes["reverse_charge"], yes["proof_id"]) == (True, fresh["last_proof_id"])
    same = ok(ep, "reverse_charge", profile_id=fresh["id"], seller_country=fresh["country_code"])
    assert same["reverse_charge"] is False and "same member state" in same["reasons"][0]
    stale = next(p for p in every(ep, "list_profiles", status="verified") if p["last_verified_at"] < "2026-01-01")
    assert "no verification" in ok(ep, "reverse_charge", profile_id=stale["id"], seller_country=other)["reasons"][0]
    refused(ep, "reverse_charge", "rule_violation", "seller_country", profile_id=fresh["id"], seller_country="US")


def test_stale_and_unverified_profiles_are_reverified_but_not_inactive_ones(ep: Episode) -> None:
    inactive = profile(ep, status="inactive")
    waiting = {p["id"] for p in every(ep, "list_profiles", status="unverified")}
    redone = ok(ep, "verify_stale", checked_by=CLERK)
    ids = {p["id"] for p in redone}
    assert inactive["id"] not in ids and waiting <= ids and len(ids) > len(waiting)
    assert all(p["last_verified_at"] >= "2026-03-02" for p in redone)
    assert ok(ep, "verify_stale", checked_by=CLERK) == []
    refused(ep, "verify_profile", "rule_violation", "profile_id", profile_id=inactive["id"], checked_by=CLERK)


def test_an_invalid_number_stays_invalid_and_a_new_number_needs_verifying(ep: Episode) -> None:
    bad = profile(ep, status="invalid")
    assert ok(ep, "verify_profile", profile_id=bad["id"], checked_by=CLERK)["status"] == "invalid"
    assert ok(ep, "check_vat", vat_number=bad["country_code"] + bad["vat_number"])["valid"] is False
    fixed = ok(
        ep, "change_vat_number", profile_id=bad["id"], vat_number="IT" + vat_number_of(POP.seed, "IT", "lumen-new")
    )
    assert (fixed["status"], fixed["last_proof_id"]) == ("unverified", None)
    refused(
        ep,
        "change_vat_number",
        "rule_violation",
        "vat_number",
        profile_id=bad["id"],
        vat_number="IT" + fixed["vat_number"],
    )


def test_inactive_profiles_come_back_unverified_and_the_audit_pack_counts_proofs(ep: Episode) -> None:
    inactive = profile(ep, status="inactive")
    assert ok(ep, "reactivate_profile", profile_id=inactive["id"])["status"] == "unverified"
    refused(ep, "reactivate_profile", "rule_violation", "profile_id", profile_id=inactive["id"])
    pack = ok(ep, "audit_pack", start="2025-03-03T00:00:00Z", end="2026-03-02T09:00:00Z")
    proofs = every(ep, "list_proofs")
    assert len(pack["proofs"]) == len(proofs) and pack["invalid"] == sum(not p["valid"] for p in proofs)
    refused(ep, "audit_pack", "rule_violation", "end", start="2026-03-01T00:00:00Z", end="2025-01-01T00:00:00Z")
