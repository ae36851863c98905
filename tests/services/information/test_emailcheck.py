"""Mailfinder: a deterministic outside world for search, finder and verifier; quotas charged on saved leads."""

from __future__ import annotations

from typing import Any

from compoworld import Episode
from tests.services.helpers import ServiceTools

EC = ServiceTools("emailcheck")
WORLD = EC.world
ok, refused, every = EC.ok, EC.refused, EC.every
POP = WORLD.population


def company_with_people() -> Any:
    return next(c for c in POP.customers if len(POP.people_at(c)) >= 2)


def account(ep: Episode) -> dict[str, Any]:
    found: dict[str, Any] = ok(ep, "account_information")
    return found


def test_seeded_account_lists_and_leads_are_the_sales_teams() -> None:
    ep = Episode(WORLD)
    acct = account(ep)
    assert acct["owner_email"] in {p.email for p in POP.staff("Sales", fallback=1)}
    assert acct["verifications_available"] - acct["verifications_used"] == 5
    people = {p.email: p for p in POP.contacts}
    for lead in every(ep, "list_leads"):
        if lead["email"] in people:
            p = people[lead["email"]]
            assert lead["company"] == POP.company_of(p).name and lead["first_name"] == p.first_name  # type: ignore[union-attr]
        else:
            assert lead["verification_status"] == "invalid"
    assert len({lst["name"] for lst in every(ep, "list_leads_lists")}) == 2


def test_domain_search_knows_a_world_company_by_its_people_and_pattern(ep: Episode) -> None:
    company = company_with_people()
    got = ok(ep, "domain_search", domain=company.domain, limit=100)
    assert got["organization"] == company.name and got["pattern"] == "{first}.{last}" and not got["webmail"]
    personal = {e["value"] for e in got["emails"] if e["type"] == "personal"}
    assert personal == {p.email for p in POP.people_at(company)}
    generic = ok(ep, "domain_search", domain=company.domain, type="generic")
    assert generic["emails"] and all(e["first_name"] is None for e in generic["emails"])
    page = ok(ep, "domain_search", domain=company.domain, limit=1, offset=1)
    assert page["total"] == got["total"] and page["emails"] == got["emails"][1:2]
    count = ok(ep, "email_count", domain=company.domain)
    assert (count["total"], count["personal"]) == (got["total"], len(personal))
    web = ok(ep, "domain_search", domain="mailbox.net")
    assert web["webmail"] and web["emails"] == [] and web["organization"] is None
    EC.refused(ep, "domain_search", "not_found", "domain", domain="acme.example")


def test_the_finder_returns_a_known_persons_address_or_the_patterns_guess(ep: Episode) -> None:
    p = POP.people_at(company_with_people())[0]
    domain = POP.company_of(p).domain  # type: ignore[union-attr]
    known = ok(ep, "email_finder", domain=domain, first_name=p.first_name, last_name=p.last_name)
    assert (known["email"], known["known"], known["verification"]) == (p.email, True, "valid")
    assert known["score"] >= 92
    guess = ok(ep, "email_finder", domain=domain, first_name="Zoe", last_name="Quint")
    assert guess["email"] == f"zoe.quint@{domain}" and not guess["known"] and guess["score"] == 30
    refused(ep, "email_finder", "rule_violation", "domain", domain="mailbox.net", first_name="Zoe", last_name="Q")
    refused(ep, "email_finder", "rule_violation", "first_name", domain=domain, first_name="李", last_name="Quint")
    other = ok(ep, "email_finder", domain="northwind-robotics.io", first_name="Zoe", last_name="Quint")
    assert other["company"] == "Northwind Robotics" and other["email"].endswith("@northwind-robotics.io")
    again = ok(Episode(WORLD), "email_finder", domain="northwind-robotics.io", first_name="Zoe", last_name="Quint")
    assert again == other


def test_the_verifier_tells_existing_missing_webmail_disposable_and_reserved_addresses_apart(ep: Episode) -> None:
    company = company_with_people()
    contact = POP.people_at(company)[0]
    consumer = POP.consumers[0]
    cases = {
        contact.email: ("valid", "deliverable"),
        f"nobody.here@{company.domain}": ("invalid", "undeliverable"),
        consumer.email: ("webmail", "deliverable"),
        "nobody.here@" + consumer.email.split("@")[1]: ("invalid", "undeliverable"),
        "someone@gmail.com": ("webmail", "risky"),
        "throwaway@mailinator.com": ("disposable", "risky"),
    }
    for email, (status, result) in cases.items():
        got = ok(ep, "email_verifier", email=email)
        assert (got["status"], got["result"]) == (status, result), email
    reserved = ok(ep, "email_verifier", email="a.b@test.example")
    assert reserved["status"] == "invalid" and not reserved["mx_records"]
    assert ok(ep, "email_verifier", email="xkcdqwrtzp@gmail.com")["gibberish"]
    # On a domain nobody knows, what the search finds verifies as existing (or the server accepts all).
    found = ok(ep, "domain_search", domain="bluefin-analytics.io", limit=100)
    for e in found["emails"]:
        status = ok(ep, "email_verifier", email=e["value"])["status"]
        assert status == ("accept_all" if found["accept_all"] else "valid")


def test_verifying_a_lead_costs_a_verification_until_the_quota_is_used_up(ep: Episode) -> None:
    todo = every(ep, "list_leads")
    before = account(ep)["verifications_used"]
    first = ok(ep, "verify_lead", lead_id=todo[0]["id"])
    assert first["verification_status"] == "valid" and first["verification_date"] == WORLD.epoch.date().isoformat()
    assert account(ep)["verifications_used"] == before + 1
    for lead in todo[1:5]:
        ok(ep, "verify_lead", lead_id=lead["id"])
    msg = refused(ep, "verify_lead", "rule_violation", "lead_id", lead_id=todo[5]["id"])
    assert "1000 of 1000" in msg


def test_saving_a_finder_result_costs_one_search_and_never_duplicates_a_lead(ep: Episode) -> None:
    lst = every(ep, "list_leads_lists")[0]
    saved = {lead["email"] for lead in every(ep, "list_leads")}
    p = next(p for p in POP.contacts if p.email not in saved and POP.company_of(p) is not None)
    domain = POP.company_of(p).domain  # type: ignore[union-attr]
    before = account(ep)["searches_used"]
    lead = ok(
        ep, "save_finder_lead", leads_list_id=lst["id"], domain=domain, first_name=p.first_name, last_name=p.last_name
    )
    assert (lead["email"], lead["source"], lead["position"]) == (p.email, "email_finder", p.job_title)
    assert account(ep)["searches_used"] == before + 1
    refused(
        ep,
        "save_finder_lead",
        "conflict",
        "first_name",
        leads_list_id=lst["id"],
        domain=domain,
        first_name=p.first_name,
        last_name=p.last_name,
    )
    refused(
        ep,
        "save_finder_lead",
        "rule_violation",
        "domain",
        leads_list_id=lst["id"],
        domain="postbox.org",
        first_name="Ana",
        last_name="Lima",
    )


def test_saving_a_domain_search_charges_per_ten_addresses_and_skips_saved_leads(ep: Episode) -> None:
    lst = every(ep, "list_leads_lists")[1]
    company = company_with_people()
    before = account(ep)["searches_used"]
    got = ok(ep, "save_domain_leads", leads_list_id=lst["id"], domain=company.domain)
    assert got["searches_charged"] == 1 and account(ep)["searches_used"] == before + 1
    people = {p.email for p in POP.people_at(company)}
    assert {lead["email"] for lead in got["added"]} | set(got["skipped"]) == people
    again = ok(ep, "save_domain_leads", leads_list_id=lst["id"], domain=company.domain)
    assert again["added"] == [] and set(again["skipped"]) == people
    left = account(ep)["searches_available"] - account(ep)["searches_used"]
    for n in range(left):
        ok(ep, "save_domain_leads", leads_list_id=lst["id"], domain=f"prospect{n}-labs.io")
    msg = refused(
        ep, "save_domain_leads", "rule_violation", "domain", leads_list_id=lst["id"], domain="one-more-labs.io"
    )
    assert "searches quota" in msg


def test_lead_addresses_are_unique_and_a_new_address_drops_the_verification(ep: Episode) -> None:
    verified = every(ep, "list_leads", verification_status="valid")[0]
    refused(ep, "create_lead", "conflict", "email", leads_list_id=verified["leads_list_id"], email=verified["email"])
    other = every(ep, "list_leads")[1]
    refused(ep, "update_lead", "conflict", "email", lead_id=other["id"], email=verified["email"])
    moved = ok(ep, "update_lead", lead_id=verified["id"], email="new.address@" + verified["domain"])
    assert moved["verification_status"] is None and moved["verification_date"] is None
    refused(ep, "create_leads_list", "conflict", "name", name=every(ep, "list_leads_lists")[0]["name"])
