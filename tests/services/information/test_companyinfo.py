"""Firmograph company data: world companies and people answer with their real attributes; the rest is generated."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from typing import Any

from compoworld import Episode
from tests.services.helpers import SEED, ServiceTools

COMPANYINFO = ServiceTools("companyinfo")
WORLD = COMPANYINFO.world
ok, refused = COMPANYINFO.ok, COMPANYINFO.refused
POP = WORLD.population


def all_people(ep: Episode, domain: str, **filters: Any) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    page = 1
    while True:
        res = ok(ep, "list_people", domain=domain, page=page, page_size=20, **filters)
        out.extend(res["people"])
        if len(out) >= res["total"]:
            return out
        page += 1


# -- world companies -----------------------------------------------------------------------


def test_a_world_company_is_found_by_its_domain_with_its_real_attributes(ep: Episode) -> None:
    for company in POP.customers[:8]:
        out = ok(ep, "find_company", domain=company.domain)
        assert out["name"] == company.name
        assert out["domain"] == company.domain
        assert out["industry"] == company.industry
        assert out["address"] == company.address.model_dump()
        assert out["phone"] == company.phone
        assert out["employees"] == company.employees
        assert (out["city"], out["country"]) == (company.place.city, company.place.country)
        assert (out["latitude"], out["longitude"]) == (company.place.latitude, company.place.longitude)
        assert out["timezone"] == company.place.timezone
        people = POP.people_at(company)
        assert out["known_people"] == len(people)
        assert {p["email"] for p in out["key_people"]} <= {p.email for p in people}
        assert out["email_pattern"] == f"{{first}}.{{last}}@{company.domain}"


def test_a_leading_www_and_a_subdomain_resolve_to_the_world_company(ep: Episode) -> None:
    company = POP.customers[1]
    assert ok(ep, "find_company", domain=f"www.{company.domain}")["name"] == company.name
    assert ok(ep, "find_company", domain=f"mail.{company.domain}")["domain"] == company.domain


def test_the_people_at_a_customer_are_its_world_contacts_with_their_titles(ep: Episode) -> None:
    for company in POP.customers[:10]:
        people = all_people(ep, company.domain)
        expected = {(p.first_name, p.last_name, p.email, p.job_title, p.phone) for p in POP.people_at(company)}
        got = {(p["first_name"], p["last_name"], p["email"], p["job_title"], p["phone"]) for p in people}
        assert got == expected
        assert all(p["email_status"] == "valid" for p in people)


def test_the_home_company_lists_all_of_its_employees_page_by_page(ep: Episode) -> None:
    first = ok(ep, "list_people", domain=POP.home.domain, page_size=20)
    assert first["total"] == len(POP.employees) > 20
    assert len(first["people"]) == 20
    people = all_people(ep, POP.home.domain)
    assert sorted(p["email"] for p in people) == sorted(p.email for p in POP.employees)
    ranks = {"executive": 0, "director": 1, "manager": 2, "senior": 3, "entry": 4}
    assert [ranks[p["seniority"]] for p in people] == sorted(ranks[p["seniority"]] for p in people)


def test_role_seniority_and_title_filters_narrow_the_people(ep: Episode) -> None:
    sales = all_people(ep, POP.home.domain, role="sales")
    assert {p["email"] for p in sales} == {p.email for p in POP.employees if p.department == "Sales"}
    managers = all_people(ep, POP.home.domain, seniority="manager")
    assert managers and all(re.search(r"Manager|Lead|Controller", p["job_title"]) for p in managers)
    engineers = all_people(ep, POP.home.domain, title="engineer")
    assert engineers and all("engineer" in p["job_title"].lower() for p in engineers)


def test_paging_past_the_last_page_gives_an_empty_page(ep: Episode) -> None:
    out = ok(ep, "list_people", domain=POP.customers[0].domain, page=50)
    assert out["people"] == [] and out["total"] == len(POP.people_at(POP.customers[0]))


def test_a_page_size_above_twenty_is_an_invalid_argument(ep: Episode) -> None:
    refused(ep, "list_people", "invalid_arguments", "page_size", domain=POP.home.domain, page_size=50)


# -- people --------------------------------------------------------------------------------


def test_enriching_a_contact_gives_the_real_person_and_employer(ep: Episode) -> None:
    for person in POP.contacts[:10]:
        company = POP.company_of(person)
        assert company is not None
        out = ok(ep, "enrich_person", email=person.email)
        assert (out["first_name"], out["last_name"], out["full_name"]) == (
            person.first_name,
            person.last_name,
            person.name,
        )
        assert out["job_title"] == person.job_title
        assert (out["company"], out["company_domain"]) == (company.name, company.domain)
        assert (out["city"], out["country"], out["timezone"]) == (
            person.place.city,
            person.place.country,
            person.place.timezone,
        )
        assert out["phone"] == person.phone
        assert out["likelihood"] == 10 and out["email_status"] == "valid"


def test_enriching_an_employee_gives_the_hire_date_as_the_employment_start(ep: Episode) -> None:
    person = POP.employees[3]
    assert person.hire_date is not None
    out = ok(ep, "enrich_person", email=person.email.upper())
    assert out["employment_start"] == person.hire_date.isoformat()
    assert out["company_domain"] == POP.home.domain


def test_a_private_customer_has_no_employer_and_no_phone(ep: Episode) -> None:
    person = POP.consumers[0]
    out = ok(ep, "enrich_person", email=person.email)
    assert out["full_name"] == person.name
    assert out["company"] is None and out["job_title"] is None and out["phone"] is None
    assert out["city"] == person.place.city


def test_an_unknown_address_at_a_world_company_is_not_found(ep: Episode) -> None:
    company = POP.customers[0]
    msg = refused(ep, "enrich_person", "not_found", "email", email=f"nobody.here@{company.domain}")
    assert company.name in msg


def test_a_role_address_and_an_unknown_private_address_are_refused(ep: Episode) -> None:
    refused(ep, "enrich_person", "not_found", "email", email=f"sales@{POP.customers[0].domain}")
    refused(ep, "enrich_person", "not_found", "email", email="someone.new@mailbox.net")


def test_finding_the_e_mail_of_a_world_contact_gives_their_real_address(ep: Episode) -> None:
    for person in POP.contacts[:10]:
        company = POP.company_of(person)
        assert company is not None
        out = ok(
            ep,
            "find_email",
            first_name=person.first_name.lower(),
            last_name=person.last_name.upper(),
            domain=company.domain,
        )
        assert out["email"] == person.email
        assert out["person_known"] and out["email_status"] == "valid" and out["confidence"] == 99
        assert out["job_title"] == person.job_title


def test_an_unknown_name_at_a_world_company_gets_the_first_dot_last_pattern(ep: Episode) -> None:
    company = POP.customers[2]
    out = ok(ep, "find_email", first_name="Zoë", last_name="Van Dijk", domain=company.domain)
    assert out["email"] == f"zoe.vandijk@{company.domain}"
    assert not out["person_known"] and out["email_status"] == "unknown"
    assert 0 < out["confidence"] < 99


def test_names_without_latin_letters_cannot_make_an_address(ep: Episode) -> None:
    domain = POP.customers[0].domain
    refused(ep, "find_email", "rule_violation", "first_name", first_name="Иван", last_name="Petrov", domain=domain)
    refused(ep, "find_email", "rule_violation", "last_name", first_name="Ivan", last_name="Петров", domain=domain)


def test_personal_mail_providers_and_reserved_domains_have_no_company(ep: Episode) -> None:
    for domain in ("gmail.com", "mailbox.net", "www.postbox.org", "example.com", "shop.test"):
        refused(ep, "find_company", "not_found", "domain", domain=domain)
    refused(ep, "list_people", "not_found", "domain", domain="inbox.io")
    refused(ep, "find_email", "rule_violation", "domain", first_name="Ada", last_name="Lee", domain="gmail.com")


# -- companies outside the world -----------------------------------------------------------


def test_an_unknown_domain_gets_one_company_that_every_tool_agrees_on(ep: Episode) -> None:
    domain = "acme-robotics.de"
    profile = ok(ep, "find_company", domain=domain)
    assert profile["name"] == "Acme Robotics" and profile["industry"] == "hardware"
    assert profile["country"] == "DE" and profile["city"] in {p.city for p in POP.places if p.country == "DE"}
    assert profile["legal_name"] == "Acme Robotics GmbH"
    pattern = profile["email_pattern"].split("@")[0]
    people = ok(ep, "list_people", domain=domain)
    assert people["company"] == "Acme Robotics" and people["total"] == profile["known_people"] >= 1
    assert [p["email"] for p in people["people"][:5]] == [p["email"] for p in profile["key_people"]]
    for person in people["people"]:
        first, last = person["first_name"].lower(), person["last_name"].lower()
        local = pattern.format(first=first, last=last, f=first[0], l=last[0])
        assert person["email"] == f"{local}@{domain}"
        enriched = ok(ep, "enrich_person", email=person["email"])
        assert (enriched["full_name"], enriched["company"], enriched["job_title"]) == (
            person["full_name"],
            "Acme Robotics",
            person["job_title"],
        )
        found = ok(ep, "find_email", first_name=person["first_name"], last_name=person["last_name"], domain=domain)
        assert found["email"] == person["email"] and found["person_known"]


def test_an_unknown_address_at_an_unknown_domain_is_read_from_its_local_part(ep: Episode) -> None:
    out = ok(ep, "enrich_person", email="jane.doe@bluewhale-studios.co")
    assert (out["first_name"], out["last_name"], out["company"]) == ("Jane", "Doe", "Bluewhale Studios")
    assert out["likelihood"] < 10 and out["email_status"] == "accept_all"
    refused(ep, "enrich_person", "not_found", "email", email="jdoe@bluewhale-studios.co")


# -- search --------------------------------------------------------------------------------


def test_search_finds_a_world_company_by_its_name_a_prefix_or_a_misspelling(ep: Episode) -> None:
    company = POP.customers[4]
    exact = ok(ep, "search_companies", name=company.name)
    assert exact["results"][0]["domain"] == company.domain and exact["results"][0]["score"] == 1.0
    prefix = ok(ep, "search_companies", name=company.name[:5])
    assert company.domain in [r["domain"] for r in prefix["results"]]
    word, suffix = company.name.split()[:2]
    typo = f"{word[0]}{word[2]}{word[1]}{word[3:]} {suffix}"
    misspelled = ok(ep, "search_companies", name=typo)
    assert misspelled["results"][0]["domain"] == company.domain


def test_searching_the_legal_name_of_a_profile_finds_the_company_itself(ep: Episode) -> None:
    for company in POP.customers[:6]:
        legal = ok(ep, "find_company", domain=company.domain)["legal_name"]
        found = ok(ep, "search_companies", name=legal)["results"][0]
        assert (found["domain"], found["score"]) == (company.domain, 1.0)


def test_search_filters_by_country_industry_and_size(ep: Episode) -> None:
    suffix = POP.customers[0].name.split()[-1]
    unfiltered = ok(ep, "search_companies", name=suffix, limit=25)
    assert unfiltered["total"] >= 1
    company = POP.customers[0]
    narrowed = ok(
        ep,
        "search_companies",
        name=suffix,
        country=company.place.country,
        industry=company.industry,
        min_employees=company.employees,
        limit=25,
    )
    assert company.domain in [r["domain"] for r in narrowed["results"]]
    by_domain = {c.domain: c for c in POP.companies}
    for r in narrowed["results"]:
        c = by_domain[r["domain"]]
        assert c.place.country == company.place.country and c.industry == company.industry
        assert c.employees >= company.employees


def test_an_unknown_name_suggests_its_likely_domain_which_resolves_to_the_same_company(ep: Episode) -> None:
    out = ok(ep, "search_companies", name="Zanzibar Robotics")
    guess = out["results"][0]
    assert guess["domain"] == "zanzibarrobotics.com" and guess["name"] == "Zanzibar Robotics"
    assert guess["score"] < 0.75
    profile = ok(ep, "find_company", domain=guess["domain"])
    assert (profile["name"], profile["city"], profile["industry"]) == (guess["name"], guess["city"], guess["industry"])


def test_an_unknown_industry_is_refused_with_the_allowed_values(ep: Episode) -> None:
    msg = refused(ep, "search_companies", "rule_violation", "industry", name="Labs", industry="biotech")
    assert "biotech" in msg


def test_similar_companies_share_the_industry_first_and_exclude_the_company_itself(ep: Episode) -> None:
    company = POP.customers[0]
    out = ok(ep, "find_similar_companies", domain=company.domain, limit=25)
    domains = [r["domain"] for r in out["results"]]
    assert company.domain not in domains and len(domains) == 25
    same = sum(1 for c in POP.companies if c.industry == company.industry and c.domain != company.domain)
    industries = [r["industry"] for r in out["results"]]
    assert industries[: min(same, 25)] == [company.industry] * min(same, 25)
    scores = [r["score"] for r in out["results"]]
    assert scores == sorted(scores, reverse=True)


# -- ranges and determinism ----------------------------------------------------------------


def test_profiles_stay_in_realistic_ranges(ep: Episode) -> None:
    bands = {"1-10", "11-50", "51-250", "251-1K", "1K-5K", "5K-10K", "10K+"}
    for company in [*POP.companies, None]:
        domain = company.domain if company else "northwind-traders.com"
        out = ok(ep, "find_company", domain=domain)
        assert 1950 <= out["founded_year"] <= 2023
        assert out["employees_range"] in bands
        lo, _, hi = out["employees_range"].replace("K", "000").partition("-")
        assert int(lo) <= out["employees"] <= int(hi or 10**6)
        assert re.fullmatch(r"\$\d+[MB]?-\$\d+[MB]", out["estimated_annual_revenue"])
        assert -90 <= out["latitude"] <= 90 and -180 <= out["longitude"] <= 180
        assert len(out["key_people"]) <= 5 and 3 <= len(out["tech"]) <= 6
        assert out["indexed_at"] < "2026-03-02T09:00:00Z"
        assert out["url"] == f"https://www.{domain}"


def test_the_same_calls_give_the_same_answers_in_two_episodes() -> None:
    calls: list[tuple[str, dict[str, Any]]] = [
        ("find_company", {"domain": POP.customers[3].domain}),
        ("find_company", {"domain": "acme-robotics.de"}),
        ("list_people", {"domain": "acme-robotics.de"}),
        ("search_companies", {"name": "Zanzibar Robotics"}),
        ("enrich_person", {"email": POP.contacts[5].email}),
        ("find_email", {"first_name": "Jane", "last_name": "Doe", "domain": "acme-robotics.de"}),
        ("find_similar_companies", {"domain": POP.home.domain}),
    ]
    first, second = Episode(WORLD), Episode(WORLD, seed=7)
    for tool, args in calls:
        assert ok(first, tool, **args) == ok(second, tool, **args)


_SCRIPT = """
import json, sys
from compoworld import Catalog, Episode, World
world = World.build(Catalog.load(["companyinfo"]), seed=int(sys.argv[1]))
ep = Episode(world)
calls = json.loads(sys.argv[2])
print(json.dumps([ep.call("companyinfo__" + t, a).to_dict() for t, a in calls], sort_keys=True))
"""


def test_answers_are_byte_identical_across_processes_and_hash_seeds() -> None:
    calls = [
        ["find_company", {"domain": "acme-robotics.de"}],
        ["list_people", {"domain": POP.home.domain, "page": 2}],
        ["enrich_person", {"email": "jane.doe@bluewhale-studios.co"}],
        ["search_companies", {"name": "Zanzibar Robotics"}],
    ]
    outputs = []
    for hashseed in ("0", "4242"):
        env = dict(os.environ, PYTHONHASHSEED=hashseed)
        proc = subprocess.run(
            [sys.executable, "-c", _SCRIPT, str(SEED), json.dumps(calls)],
            capture_output=True,
            text=True,
            env=env,
            check=True,
        )
        outputs.append(proc.stdout)
    assert outputs[0] == outputs[1]
    ep = Episode(WORLD)
    here = [ep.call(f"companyinfo__{t}", a).to_dict() for t, a in calls]
    assert json.loads(outputs[0]) == here
    assert all(r["ok"] for r in here)
