"""TrialFinder: statuses agree with dates, sites in the world's cities, eligibility, saved searches and studies."""

from __future__ import annotations

from compoworld import Episode
from tests.services.helpers import ServiceTools

CT = ServiceTools("clinicaltrials")
WORLD = CT.world
ok, refused, every = CT.ok, CT.refused, CT.every
POP = WORLD.population
STAFF = {p.email for p in POP.employees}
TODAY = WORLD.epoch.date().isoformat()


def test_statuses_agree_with_the_study_dates(ep: Episode) -> None:
    for s in ok(ep, "search_studies", limit=100):
        assert s["start_date"] < s["primary_completion_date"] < s["completion_date"]
        assert s["study_first_post_date"] <= TODAY
        status = s["overall_status"]
        if status in ("NOT_YET_RECRUITING", "WITHDRAWN"):
            assert s["start_date"] > TODAY
        elif status in ("COMPLETED", "TERMINATED"):
            assert s["completion_date"] <= TODAY
        else:
            assert s["start_date"] <= TODAY < s["completion_date"]
        assert (s["enrollment"] == 0) == (status == "WITHDRAWN")
        if s["has_results"]:
            assert status in ("COMPLETED", "TERMINATED")


def test_sites_are_in_the_worlds_cities_and_filters_agree(ep: Episode) -> None:
    cities = {(p.city, p.country) for p in POP.places} | {(c.place.city, c.place.country) for c in POP.companies}
    for s in ok(ep, "search_studies", limit=100):
        assert all((loc["city"], loc["country"]) in cities for loc in s["locations"])
    city = ok(ep, "search_studies", overall_status="RECRUITING", limit=1)[0]["locations"][0]["city"]
    in_city = ok(ep, "search_studies", city=city, overall_status="RECRUITING", limit=100)
    assert in_city and all(s["overall_status"] == "RECRUITING" for s in in_city)
    assert all(city in {loc["city"] for loc in s["locations"]} for s in in_city)
    counts = {c["overall_status"]: c["count"] for c in ok(ep, "count_studies", condition="asthma")}
    assert sum(counts.values()) == len(ok(ep, "search_studies", condition="Asthma", limit=100))
    refused(ep, "search_studies", "not_found", "condition", condition="Dragon Pox")


def test_eligibility_reports_each_unmet_criterion(ep: Episode) -> None:
    studies = ok(ep, "search_studies", overall_status="RECRUITING", limit=100)
    s = next(x for x in studies if x["sex"] == "FEMALE" and x["minimum_age_years"] >= 18)
    young_man = ok(ep, "check_eligibility", nct_id=s["nct_id"], age_years=10, sex="MALE")
    assert not young_man["eligible"] and len(young_man["reasons"]) == 2
    fit = ok(ep, "check_eligibility", nct_id=s["nct_id"], age_years=s["minimum_age_years"], sex="FEMALE")
    assert fit["eligible"] == bool(fit["recruiting_sites"]) and fit["reasons"] == (
        [] if fit["eligible"] else fit["reasons"]
    )
    done = next(x for x in ok(ep, "search_studies", overall_status="COMPLETED", limit=5))
    out = ok(ep, "check_eligibility", nct_id=done["nct_id"], age_years=50, sex="FEMALE")
    assert not out["eligible"] and "COMPLETED" in out["reasons"][0]
    refused(ep, "get_study", "not_found", "nct_id", nct_id="NCT00000000")


def test_matched_studies_are_all_eligible(ep: Episode) -> None:
    found = ok(ep, "match_studies", condition="Type 2 Diabetes", age_years=70, sex="MALE")
    for s in found:
        assert ok(ep, "check_eligibility", nct_id=s["nct_id"], age_years=70, sex="MALE")["eligible"]
    assert {s["nct_id"] for s in found} <= {
        s["nct_id"]
        for s in ok(ep, "search_studies", condition="Type 2 Diabetes", overall_status="RECRUITING", limit=100)
    }


def test_seeded_saved_state_belongs_to_staff(ep: Episode) -> None:
    searches = every(ep, "list_saved_searches")
    assert {x["status"] for x in searches} == {"active", "paused"} and all(x["owner_email"] in STAFF for x in searches)
    saved = every(ep, "list_saved_studies")
    assert {x["label"] for x in saved} >= {"referred", "not_suitable"}
    for x in saved:
        assert x["owner_email"] in STAFF and ok(ep, "get_study", nct_id=x["nct_id"])["brief_title"] == x["brief_title"]


def test_running_a_saved_search_reports_newly_posted_studies_once(ep: Episode) -> None:
    search = CT.first(ep, "saved_searches", status="active")
    expected = {
        s["nct_id"]
        for s in ok(ep, "search_studies", condition=search["condition"], limit=100)
        if s["study_first_post_date"] > search["last_run_on"]
        and search["overall_status"] in (None, s["overall_status"])
    }
    new = ok(ep, "run_saved_search", saved_search_id=search["id"])
    assert {s["nct_id"] for s in new} == expected and expected
    after = ok(ep, "get_saved_search", saved_search_id=search["id"])
    assert after["last_run_on"] == TODAY and after["studies_reported"] == len(new)
    assert ok(ep, "run_saved_search", saved_search_id=search["id"]) == []


def test_a_paused_search_does_not_run_and_searches_need_criteria(ep: Episode) -> None:
    paused = CT.first(ep, "saved_searches", status="paused")
    refused(ep, "run_saved_search", "rule_violation", "saved_search_id", saved_search_id=paused["id"])
    ok(ep, "resume_saved_search", saved_search_id=paused["id"])
    ok(ep, "run_saved_search", saved_search_id=paused["id"])
    me = POP.employees[0].email
    refused(ep, "create_saved_search", "rule_violation", "condition", name="Empty", owner_email=me)
    refused(ep, "create_saved_search", "not_found", "condition", name="X", owner_email=me, condition="Dragon Pox")
    refused(
        ep,
        "create_saved_search",
        "rule_violation",
        "owner_email",
        name="X",
        owner_email=POP.contacts[0].email,
        condition="Asthma",
    )
    ok(ep, "create_saved_search", name="Asthma", owner_email=me, condition="Asthma")
    refused(ep, "create_saved_search", "conflict", "name", name="Asthma", owner_email=me, condition="Migraine")


def test_a_study_is_saved_once_and_referred_only_while_recruiting(ep: Episode) -> None:
    saved = CT.first(ep, "saved_studies", label="not_suitable")
    refused(ep, "save_study", "conflict", "nct_id", nct_id=saved["nct_id"], owner_email=saved["owner_email"])
    refused(ep, "update_saved_study", "rule_violation", "label", saved_study_id=saved["id"], label="referred")
    todo = CT.first(ep, "saved_studies", label="to_review")
    assert ok(ep, "update_saved_study", saved_study_id=todo["id"], label="referred")["label"] == "referred"
