"""Jobscope: the world's companies advertise in their cities; aggregates agree with the ads; searches and benchmarks."""

from __future__ import annotations

import datetime as dt
import statistics
from typing import Any

from compoworld import Episode
from tests.services.helpers import ServiceTools

JOBS = ServiceTools("jobmarket")
WORLD = JOBS.world
ok, refused, every = JOBS.ok, JOBS.refused, JOBS.every
POP = WORLD.population
HOME = POP.home.place
NOW = WORLD.epoch


def all_ads(ep: Episode, country: str, **filters: Any) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    page = 1
    while True:
        res = ok(ep, "search_ads", country=country, page=page, results_per_page=50, **filters)
        out += res["results"]
        if len(out) >= res["count"]:
            return out
        page += 1


def test_world_companies_advertise_in_their_own_city_in_local_currency(ep: Episode) -> None:
    for company in POP.companies[:6]:
        place = company.place
        ads = all_ads(ep, place.country, company=company.name)
        assert ads, company.name
        for ad in ads:
            assert (ad["city"], ad["country"], ad["currency"]) == (place.city, place.country, place.currency)
            assert NOW - dt.timedelta(days=61) <= dt.datetime.fromisoformat(ad["created"]) <= NOW
        assert ok(ep, "get_ad", ad_id=ads[0]["id"]) == ads[0]
    refused(ep, "get_ad", "not_found", "ad_id", ad_id="1000000000")


def test_search_filters_hold_for_every_result_and_the_count_is_exact(ep: Episode) -> None:
    found = all_ads(ep, HOME.country, category="it-jobs", full_time=True, salary_min=100_000)
    assert found
    for ad in found:
        assert ad["category_tag"] == "it-jobs" and ad["contract_time"] == "full_time"
        assert ad["salary_max"] is not None and ad["salary_max"] >= 100_000
    recent = ok(ep, "search_ads", country=HOME.country, max_days_old=7, sort_by="date", results_per_page=50)
    stamps = [r["created"] for r in recent["results"]]
    assert stamps == sorted(stamps, reverse=True)
    assert all(dt.datetime.fromisoformat(s) >= NOW - dt.timedelta(days=7) for s in stamps)
    predicted = [a for a in all_ads(ep, HOME.country) if a["salary_is_predicted"]]
    assert predicted and all(a["salary_min"] == a["salary_max"] for a in predicted)


def test_histogram_top_companies_and_geodata_add_up_to_the_ads(ep: Episode) -> None:
    country = "US"
    ads = all_ads(ep, country)
    paid = [a for a in ads if a["salary_min"] is not None]
    hist = ok(ep, "salary_histogram", country=country)
    assert sum(b["count"] for b in hist["buckets"]) == len(paid) and hist["currency"] == "USD"
    size = hist["bucket_size"]
    for b in hist["buckets"]:
        inside = [
            a for a in paid if b["salary_from"] <= (a["salary_min"] + a["salary_max"]) / 2 < b["salary_from"] + size
        ]
        assert len(inside) == b["count"]
    cities = ok(ep, "geodata", country=country)
    assert sum(c["count"] for c in cities) == len(ads)
    assert {c["city"] for c in cities} == {p.city for p in POP.places if p.country == country}
    top = ok(ep, "top_companies", country=country)
    counts = [c["count"] for c in top]
    assert counts == sorted(counts, reverse=True)
    assert top[0]["count"] == sum(a["company"] == top[0]["company"] for a in ads)


def test_the_salary_history_ends_at_todays_mean(ep: Episode) -> None:
    res = ok(ep, "search_ads", country=HOME.country, category="sales-jobs")
    history = ok(ep, "salary_history", country=HOME.country, category="sales-jobs", months=6)
    assert len(history) == 7 and history[-1]["month"] == NOW.strftime("%Y-%m")
    assert history[-1]["average_salary"] == round(res["mean"])
    assert all(0.8 < h["average_salary"] / history[-1]["average_salary"] < 1.1 for h in history)


def test_unknown_countries_and_cities_and_reversed_bounds_are_refused(ep: Episode) -> None:
    refused(ep, "search_ads", "not_found", "country", country="ZZ")
    other = next(p.city for p in POP.places if p.country != HOME.country)
    refused(ep, "search_ads", "not_found", "where", country=HOME.country, where=other)
    refused(ep, "search_ads", "rule_violation", "salary_max", country=HOME.country, salary_min=50_000, salary_max=10)
    refused(ep, "salary_history", "not_found", "country", country="ZZ")


def test_seeded_searches_and_benchmarks_belong_to_staff_and_match_the_ads(ep: Episode) -> None:
    staff = {p.email for p in POP.employees}
    searches = every(ep, "list_saved_searches")
    assert {s["status"] for s in searches} == {"active", "paused"} and all(s["owner_email"] in staff for s in searches)
    for b in every(ep, "list_benchmarks"):
        ads = [a for a in all_ads(ep, b["country"], what=b["job_title"]) if a["salary_min"] is not None]
        mids = sorted((a["salary_min"] + a["salary_max"]) / 2 for a in ads)
        assert b["sample_size"] == len(ads) and b["median"] == round(statistics.median(mids))
        assert b["p25"] <= b["median"] <= b["p75"] and b["prepared_by"] != b["approved_by"]


def test_running_a_saved_search_reports_ads_since_the_last_run_once(ep: Episode) -> None:
    saved = JOBS.first(ep, "saved_searches", status="active", category="it-jobs")
    since = saved["last_run_at"]
    first = ok(ep, "run_saved_search", saved_search_id=saved["id"])
    matching = all_ads(ep, saved["country"], what=saved["what"], category="it-jobs")
    assert first["count"] == len(matching)
    assert {a["id"] for a in first["new_ads"]} == {a["id"] for a in matching if a["created"] > since}
    assert first["new_ads"]
    after = ok(ep, "get_saved_search", saved_search_id=saved["id"])
    assert after["last_result_count"] == len(matching) and after["last_run_at"] > since
    assert ok(ep, "run_saved_search", saved_search_id=saved["id"])["new_ads"] == []
    paused = JOBS.first(ep, "saved_searches", status="paused")
    refused(ep, "run_saved_search", "rule_violation", "saved_search_id", saved_search_id=paused["id"])


def test_saved_search_names_are_unique_per_owner_and_owners_are_staff(ep: Episode) -> None:
    saved = JOBS.first(ep, "saved_searches", status="active")
    args = {"country": HOME.country, "what": "analyst"}
    refused(ep, "save_search", "conflict", "name", name=saved["name"].upper(), owner_email=saved["owner_email"], **args)
    refused(ep, "save_search", "rule_violation", "owner_email", name="x", owner_email=POP.contacts[0].email, **args)
    refused(ep, "save_search", "not_found", "country", name="x", owner_email=saved["owner_email"], country="ZZ")
    made = ok(ep, "save_search", name="Analysts", owner_email=saved["owner_email"], **args)
    assert made["status"] == "active" and made["last_run_at"] is None
    refused(ep, "update_saved_search", "conflict", "name", saved_search_id=made["id"], name=saved["name"])


def test_a_benchmark_needs_five_salaried_ads_and_a_second_person_in_people_or_finance(ep: Episode) -> None:
    me = POP.staff("People", fallback=1)[0].email
    refused(
        ep,
        "create_benchmark",
        "rule_violation",
        "job_title",
        job_title="Nurse Astronaut",
        country=HOME.country,
        prepared_by=me,
    )
    refused(
        ep,
        "create_benchmark",
        "rule_violation",
        "prepared_by",
        job_title="Engineer",
        country=HOME.country,
        prepared_by=POP.contacts[0].email,
    )
    made = ok(ep, "create_benchmark", job_title="Accountant", country=HOME.country, prepared_by=me)
    assert made["status"] == "draft" and made["sample_size"] >= 5 and made["currency"] == HOME.currency
    refused(ep, "approve_benchmark", "rule_violation", "approved_by", benchmark_id=made["id"], approved_by=me)
    outsider = next(p.email for p in POP.employees if p.department not in ("People", "Finance"))
    refused(ep, "approve_benchmark", "rule_violation", "approved_by", benchmark_id=made["id"], approved_by=outsider)
    boss = next(p.email for p in POP.employees if p.department in ("People", "Finance") and p.email != me)
    done = ok(ep, "approve_benchmark", benchmark_id=made["id"], approved_by=boss)
    assert (done["status"], done["approved_by"]) == ("approved", boss)
    refused(ep, "delete_benchmark", "rule_violation", "benchmark_id", benchmark_id=made["id"])
    refused(ep, "approve_benchmark", "rule_violation", "benchmark_id", benchmark_id=made["id"], approved_by=boss)
    assert ok(ep, "archive_benchmark", benchmark_id=made["id"])["status"] == "archived"
