"""ProviderLookup: the practice's clinicians in the registry, search filters, credentialing and monitors."""

from __future__ import annotations

from compoworld import Episode
from compoworld.world.care import clinic_sites, clinicians, provider_npi
from tests.services.helpers import ServiceTools

NPI = ServiceTools("npiregistry")
WORLD = NPI.world
ok, refused, every = NPI.ok, NPI.refused, NPI.every
POP = WORLD.population
STAFF = [p.email for p in POP.employees]


def luhn_ok(npi: str) -> bool:
    total = 0
    for i, ch in enumerate(reversed("80840" + npi)):
        d = int(ch) * (2 if i % 2 else 1)
        total += d - 9 if d > 9 else d
    return total % 10 == 0


def test_the_practices_clinicians_are_in_the_registry_at_their_clinic(ep: Episode) -> None:
    sites = clinic_sites(POP)
    for i, (person, site) in enumerate(clinicians(POP)):
        p = ok(ep, "get_provider", npi=provider_npi(i))
        assert (p["enumeration_type"], p["status"], p["contact_email"]) == ("NPI-1", "A", person.email)
        assert p["last_name"] == person.last_name.upper()
        assert p["addresses"][0]["city"] == sites[site].address.city
    orgs = ok(ep, "search_providers", enumeration_type="NPI-2", limit=200)
    assert {c.name.upper() for c in sites} <= {o["name"] for o in orgs}


def test_issued_npis_carry_a_valid_check_digit_and_unknown_ones_are_refused(ep: Episode) -> None:
    clinic = {provider_npi(i) for i in range(6)}
    found = ok(ep, "search_providers", limit=200)
    assert len(found) > 40
    assert all(luhn_ok(p["number"]) for p in found if p["number"] not in clinic)
    refused(ep, "get_provider", "not_found", "npi", npi="0000000000")


def test_search_filters_agree_and_deactivated_npis_are_left_out(ep: Episode) -> None:
    every_one = ok(ep, "search_providers", limit=200)
    assert all(p["status"] == "A" for p in every_one)
    fm = ok(ep, "search_providers", taxonomy_description="family medicine", limit=200)
    assert fm and all(p["taxonomies"][0]["code"] == "207Q00000X" for p in fm)
    counts = {t["code"]: t["providers"] for t in ok(ep, "list_taxonomies")}
    assert counts["207Q00000X"] == len(fm) and sum(counts.values()) == len(every_one)
    page1 = ok(ep, "search_providers", limit=5)
    page2 = ok(ep, "search_providers", limit=5, skip=5)
    assert [p["number"] for p in page1 + page2] == [p["number"] for p in every_one[:10]]


def test_seeded_checklists_are_consistent_with_their_status(ep: Episode) -> None:
    lists = every(ep, "list_checklists")
    assert {c["status"] for c in lists} == {"open", "submitted", "approved", "denied"}
    for c in lists:
        assert c["owner_email"] in STAFF and ok(ep, "get_provider", npi=c["npi"])["name"] == c["provider_name"]
        if c["status"] == "approved":
            assert all(i["status"] == "verified" for i in c["items"]) and c["recredential_due"]
        if c["status"] in ("submitted", "approved", "denied"):
            assert all(i["status"] != "pending" for i in c["items"])
            assert c["decided_by"] != c["owner_email"]


def test_a_checklist_is_opened_once_for_an_active_npi(ep: Episode) -> None:
    me = STAFF[0]
    busy = NPI.first(ep, "checklists", status="open")
    refused(ep, "open_checklist", "conflict", "npi", npi=busy["npi"], owner_email=me)
    gone = next(m["npi"] for m in every(ep, "list_monitors") if ok(ep, "get_provider", npi=m["npi"])["status"] == "D")
    refused(ep, "open_checklist", "rule_violation", "npi", npi=gone, owner_email=me)
    fresh = ok(ep, "search_providers", enumeration_type="NPI-2", limit=200)[-1]["number"]
    refused(ep, "open_checklist", "rule_violation", "kind", npi=fresh, owner_email=me, kind="recredentialing")
    refused(ep, "open_checklist", "rule_violation", "owner_email", npi=fresh, owner_email=POP.contacts[0].email)
    c = ok(ep, "open_checklist", npi=fresh, owner_email=me)
    assert [i["status"] for i in c["items"]] == ["pending"] * 5


def test_credentialing_end_to_end_with_four_eyes(ep: Episode) -> None:
    c = NPI.first(ep, "checklists", status="open")
    refused(ep, "submit_checklist", "rule_violation", "checklist_id", checklist_id=c["id"])
    owner = c["owner_email"]
    for item in c["items"]:
        if item["status"] == "pending":
            ok(ep, "verify_item", checklist_id=c["id"], item=item["name"], result="verified", verified_by=owner)
    assert ok(ep, "submit_checklist", checklist_id=c["id"])["status"] == "submitted"
    refused(
        ep,
        "verify_item",
        "rule_violation",
        "checklist_id",
        checklist_id=c["id"],
        item="exclusion_check",
        result="failed",
        verified_by=owner,
    )
    refused(ep, "approve_checklist", "rule_violation", "decided_by", checklist_id=c["id"], decided_by=owner)
    other = next(e for e in STAFF if e != owner)
    done = ok(ep, "approve_checklist", checklist_id=c["id"], decided_by=other)
    assert done["status"] == "approved" and done["recredential_due"] > WORLD.epoch.date().isoformat()
    assert (
        ok(ep, "open_checklist", npi=c["npi"], owner_email=owner, kind="recredentialing")["kind"] == "recredentialing"
    )


def test_a_failed_verification_can_only_be_denied_with_a_reason(ep: Episode) -> None:
    c = next(
        x for x in every(ep, "list_checklists", status="submitted") if any(i["status"] == "failed" for i in x["items"])
    )
    other = next(e for e in STAFF if e != c["owner_email"])
    refused(ep, "approve_checklist", "rule_violation", "checklist_id", checklist_id=c["id"], decided_by=other)
    refused(ep, "deny_checklist", "rule_violation", "reason", checklist_id=c["id"], decided_by=other, reason=" ")
    assert (
        ok(ep, "deny_checklist", checklist_id=c["id"], decided_by=other, reason="Licence lapsed")["status"] == "denied"
    )
    refused(ep, "delete_checklist", "rule_violation", "checklist_id", checklist_id=c["id"])


def test_a_licence_is_verified_only_when_the_registry_shows_one(ep: Episode) -> None:
    unlicensed = next(
        p["number"]
        for p in ok(ep, "search_providers", enumeration_type="NPI-1", limit=200)
        if p["taxonomies"][0]["license"] is None
    )
    c = ok(ep, "open_checklist", npi=unlicensed, owner_email=STAFF[0])
    args = {"checklist_id": c["id"], "item": "state_license", "verified_by": STAFF[0]}
    refused(ep, "verify_item", "rule_violation", "result", result="verified", **args)
    assert ok(ep, "verify_item", result="failed", **args)["items"][1]["status"] == "failed"


def test_monitors_report_updates_and_deactivation_once(ep: Episode) -> None:
    for m in every(ep, "list_monitors", status="active"):
        p = ok(ep, "get_provider", npi=m["npi"])
        expected = [("updated", p["last_updated"])] if p["last_updated"] > m["last_checked_on"] else []
        if p["deactivation_date"]:
            expected.append(("deactivated", p["deactivation_date"]))
        changes = ok(ep, "check_monitor", monitor_id=m["id"])
        assert [(c["change"], c["date"]) for c in changes] == expected
        assert ok(ep, "check_monitor", monitor_id=m["id"]) == []
    paused = NPI.first(ep, "monitors", status="paused")
    refused(ep, "check_monitor", "rule_violation", "monitor_id", monitor_id=paused["id"])
    refused(ep, "create_monitor", "conflict", "npi", npi=paused["npi"], owner_email=STAFF[0])
