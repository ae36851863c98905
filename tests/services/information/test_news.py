"""Newswire: world companies and their people in the business news; headlines, search, sources, full articles."""

from __future__ import annotations

import datetime as dt
import json
import os
import subprocess
import sys
from typing import Any

from compoworld import Episode
from compoworld.services.information import news
from tests.services.helpers import ServiceTools

NEWS = ServiceTools("news")
WORLD = NEWS.world
ok, refused = NEWS.ok, NEWS.refused
POP = WORLD.population
NOW = WORLD.epoch
TODAY = NOW.date()


def every_article(ep: Episode, **args: Any) -> list[dict[str, Any]]:
    """All results of a search (at most the plan's 100)."""
    out: list[dict[str, Any]] = []
    page = 1
    while True:
        res = ok(ep, "search_articles", page=page, page_size=50, **args)
        out.extend(res["articles"])
        if len(out) >= min(res["total_results"], 100):
            return out
        page += 1


def events(articles: list[dict[str, Any]], domain: str) -> set[str]:
    """The events (date and company code, shared by their articles' URLs) of articles led by ``domain``."""
    own = [a for a in articles if a["companies"][0]["domain"] == domain]
    return {a["url"].split("/", 3)[3][:10] + a["url"].rsplit("-", 1)[1] for a in own}


def archived(pred: Any) -> news.NewsItem:
    """An article of the last year, published before the world's clock, that matches ``pred``."""
    for back in range(365):
        for item in news.day_items(POP, TODAY - dt.timedelta(days=back)):
            if item.published_at <= NOW and pred(item):
                return item
    raise AssertionError("no such article in a year of news")


# -- world consistency ----------------------------------------------------------------------


def test_every_world_company_is_in_the_news_with_its_real_domain_city_and_people(ep: Episode) -> None:
    for company in POP.companies:
        found = every_article(ep, q=f'"{company.name}"')
        about = [a for a in found if any(c["domain"] == company.domain for c in a["companies"])]
        assert about, company.name
        for article in about:
            card = next(c for c in article["companies"] if c["domain"] == company.domain)
            assert card == {
                "name": company.name,
                "domain": company.domain,
                "city": company.place.city,
                "country": company.place.country,
            }
            known = {(p.name, p.job_title) for p in POP.people_at(company)}
            for person in article["people"]:
                if person["company_domain"] == company.domain:
                    assert (person["name"], person["job_title"]) in known


def test_appointments_name_a_real_person_of_the_company_with_their_real_title(ep: Episode) -> None:
    item = archived(lambda a: a.kind == "hire" and a.source.language == "en")
    company = item.companies[0]
    article = ok(ep, "get_article", url=item.url)
    [person] = article["people"]
    real = next(p for p in POP.people_at(company) if p.name == person["name"])
    assert article["title"] == f"{company.name} names {real.name} {real.job_title}"
    assert person == {
        "name": real.name,
        "job_title": real.job_title,
        "company": company.name,
        "company_domain": company.domain,
    }
    assert real.name in article["text"] and real.job_title in article["text"]


def test_partnerships_are_between_two_world_companies(ep: Episode) -> None:
    item = archived(lambda a: a.kind == "partnership")
    article = ok(ep, "get_article", url=item.url)
    domains = {c.domain for c in POP.companies}
    assert len(article["companies"]) == 2
    assert {c["domain"] for c in article["companies"]} <= domains
    for card in article["companies"]:
        assert card["name"] in article["text"]


def test_the_home_companys_launches_are_its_real_products_at_their_real_prices(ep: Episode) -> None:
    item = archived(lambda a: a.kind == "launch" and a.companies[0].home and a.source.language == "en")
    article = ok(ep, "get_article", url=item.url)
    [product] = article["products"]
    real = next(p for p in POP.products if p.sku == product["sku"])
    assert product == {
        "sku": real.sku,
        "name": real.name,
        "price": real.price_cents,
        "currency": POP.home.place.currency,
    }
    assert real.name in article["title"]
    assert f"{real.price_cents / 100:,.2f}" in article["text"]


def test_companies_in_germany_france_and_spain_are_also_covered_in_the_local_language(ep: Episode) -> None:
    local = {"DE": ("de", "handelsblick"), "FR": ("fr", "echos-du-marche"), "ES": ("es", "economia-hoy")}
    checked = 0
    for company in POP.customers:
        if company.place.country not in local:
            continue
        lang, source = local[company.place.country]
        found = every_article(ep, q=f'"{company.name}"', language=lang)
        assert found, company.name
        assert {a["source"]["id"] for a in found} == {source}
        english = every_article(ep, q=f'"{company.name}"', language="en")

        assert events(english, company.domain) == events(found, company.domain)  # the same events, reported twice
        checked += 1
    assert checked


def test_every_listed_article_reads_the_same_in_full(ep: Episode) -> None:
    listed = ok(ep, "top_headlines", category="business", page_size=100)["articles"]
    listed += ok(ep, "search_articles", q=POP.customers[0].name)["articles"]
    assert listed
    for article in listed:
        full = ok(ep, "get_article", url=article["url"])
        for key in ("title", "description", "published_at", "source", "author", "companies", "people"):
            assert full[key] == article[key], key
        assert full["text"].startswith(article["content"].split("…")[0])
        assert full["word_count"] == len(full["text"].split())


def test_an_article_lists_the_other_recent_articles_about_its_company(ep: Episode) -> None:
    company = POP.customers[1]
    about = every_article(ep, q=f'"{company.name}"')
    full = ok(ep, "get_article", url=about[0]["url"])
    assert set(full["related"]) <= {a["url"] for a in about}
    assert about[0]["url"] not in full["related"]
    assert full["related"]


# -- headlines, search and sources ----------------------------------------------------------------


def test_top_headlines_of_a_country_come_from_its_outlets_newest_first_within_three_days(ep: Episode) -> None:
    for country in ("US", "DE", "GB", "JP"):
        res = ok(ep, "top_headlines", country=country, page_size=100)
        assert res["articles"], country
        times = [dt.datetime.fromisoformat(a["published_at"]) for a in res["articles"]]
        assert times == sorted(times, reverse=True)
        assert all(NOW - dt.timedelta(days=3) <= t <= NOW for t in times)
        assert {a["country"] for a in res["articles"]} == {country}


def test_top_headlines_filter_by_category_and_by_source(ep: Episode) -> None:
    tech = ok(ep, "top_headlines", category="technology", page_size=100)["articles"]
    assert tech and {a["category"] for a in tech} == {"technology"}
    sports = ok(ep, "top_headlines", sources=["sports-desk"], page_size=100)["articles"]
    assert sports and {a["source"]["id"] for a in sports} == {"sports-desk"}


def test_a_query_supports_phrases_exclusions_and_or(ep: Episode) -> None:
    a, b = POP.customers[0], POP.customers[1]
    only_a = every_article(ep, q=f'"{a.name}"')
    only_b = every_article(ep, q=f'"{b.name}"')
    either = every_article(ep, q=f'"{a.name}" OR "{b.name}"')
    assert {x["url"] for x in either} == {x["url"] for x in only_a} | {x["url"] for x in only_b}
    without = every_article(ep, q=f'"{a.name}" -"{b.name}"')
    assert all(b.name not in x["title"] + x["description"] for x in without)
    assert len(without) <= len(only_a)


def test_sorting_by_popularity_and_relevancy(ep: Episode) -> None:
    q = POP.customers[2].name
    by_date = every_article(ep, q=q)
    times = [x["published_at"] for x in by_date]
    assert times == sorted(times, reverse=True)
    relevant = ok(ep, "search_articles", q=q, sort_by="relevancy", page_size=100)["articles"]
    in_title = [q.lower() in x["title"].lower() for x in relevant]
    assert in_title == sorted(in_title, reverse=True)  # headline matches first
    popular = ok(ep, "search_articles", q=q, sort_by="popularity", page_size=100)["articles"]
    assert {x["url"] for x in popular} == {x["url"] for x in relevant}


def test_search_filters_by_language_domain_source_and_dates(ep: Episode) -> None:
    german = ok(ep, "search_articles", q="Berlin", language="de", page_size=100)["articles"]
    assert german and {a["language"] for a in german} == {"de"}
    on_domain = ok(ep, "search_articles", q="revenue", domains=["techwire.news"], page_size=100)["articles"]
    assert {a["source"]["id"] for a in on_domain} <= {"techwire"}
    week = ok(
        ep,
        "search_articles",
        q="revenue",
        from_date=(TODAY - dt.timedelta(days=7)).isoformat(),
        to_date=(TODAY - dt.timedelta(days=2)).isoformat(),
        page_size=100,
    )["articles"]
    for a in week:
        day = dt.datetime.fromisoformat(a["published_at"]).date()
        assert TODAY - dt.timedelta(days=7) <= day <= TODAY - dt.timedelta(days=2)


def test_sources_can_be_filtered_and_cover_every_world_country(ep: Episode) -> None:
    every = ok(ep, "get_sources")["sources"]
    assert {s["country"] for s in every} >= {p.country for p in POP.places}
    german = ok(ep, "get_sources", language="de")["sources"]
    assert german and all(s["language"] == "de" and s["country"] == "DE" for s in german)
    business = ok(ep, "get_sources", category="business", country="GB")["sources"]
    assert [s["id"] for s in business] == ["capital-wire"]
    assert all(s["url"] == f"https://www.{s['domain']}" for s in every)


def test_an_article_is_not_there_before_it_is_published(ep: Episode) -> None:
    later = next(a for a in news.day_items(POP, TODAY) if a.published_at > NOW)
    refused(ep, "get_article", "not_found", "url", url=later.url)
    listed = {a["url"] for a in ok(ep, "top_headlines", country=later.source.country, page_size=100)["articles"]}
    assert later.url not in listed


# -- determinism and value ranges -------------------------------------------------------------------


def test_the_same_calls_give_the_same_news_in_two_episodes() -> None:
    calls: list[tuple[str, dict[str, Any]]] = [
        ("top_headlines", {"country": "FR"}),
        ("search_articles", {"q": POP.customers[3].name, "sort_by": "popularity"}),
        ("get_sources", {"category": "general"}),
    ]
    first, second = Episode(WORLD), Episode(WORLD)
    for name, args in calls:
        assert ok(first, name, **args) == ok(second, name, **args)


_SCRIPT = """
import json
from compoworld import Episode
from tests.services.helpers import service_world
world = service_world("news")
ep = Episode(world)
name = world.population.customers[0].name
calls = [("top_headlines", {"country": "US"}), ("search_articles", {"q": name})]
out = [ep.call("news__" + n, a).to_dict() for n, a in calls]
url = out[1]["result"]["articles"][0]["url"]
out.append(ep.call("news__get_article", {"url": url}).to_dict())
print(json.dumps(out, sort_keys=True))
"""


def test_answers_are_byte_identical_in_processes_with_other_hash_seeds() -> None:
    outputs = []
    for hashseed in ("3", "777"):
        env = dict(os.environ, PYTHONHASHSEED=hashseed)
        proc = subprocess.run([sys.executable, "-c", _SCRIPT], capture_output=True, text=True, env=env, check=True)
        outputs.append(proc.stdout)
    assert outputs[0] == outputs[1]
    assert all(r["ok"] for r in json.loads(outputs[0]))


def test_archive_articles_are_dated_within_the_last_thirty_days_and_contents_are_truncated(ep: Episode) -> None:
    res = ok(ep, "search_articles", q="the", page_size=100)
    assert res["total_results"] >= len(res["articles"]) == 100
    for a in res["articles"]:
        published = dt.datetime.fromisoformat(a["published_at"])
        assert NOW - dt.timedelta(days=31) <= published <= NOW
        head, _, tail = a["content"].partition("… [+")
        assert len(head) <= 200
        if tail:
            full = ok(ep, "get_article", url=a["url"])["text"]
            assert int(tail.removesuffix(" chars]")) == len(full) - 200
        assert a["url"].startswith("https://www.") and a["url_to_image"].startswith("https://cdn.")


# -- refusals -----------------------------------------------------------------------------------------


def test_an_empty_query_is_refused(ep: Episode) -> None:
    refused(ep, "search_articles", "rule_violation", "q", q="   ")
    refused(ep, "search_articles", "rule_violation", "q", q="-")


def test_dates_beyond_the_plans_archive_or_in_the_wrong_order_are_refused(ep: Episode) -> None:
    old = (TODAY - dt.timedelta(days=31)).isoformat()
    msg = refused(ep, "search_articles", "rule_violation", "from_date", q="news", from_date=old)
    assert "permits" in msg
    refused(
        ep,
        "search_articles",
        "rule_violation",
        "to_date",
        q="news",
        from_date=(TODAY - dt.timedelta(days=2)).isoformat(),
        to_date=(TODAY - dt.timedelta(days=5)).isoformat(),
    )


def test_paging_beyond_one_hundred_results_is_refused(ep: Episode) -> None:
    msg = refused(ep, "search_articles", "rule_violation", "page", q="the", page=6, page_size=20)
    assert "maximumResultsReached" in msg
    assert ok(ep, "search_articles", q="the", page=5, page_size=20)["articles"]
    refused(ep, "top_headlines", "rule_violation", "page_size", country="US", page_size=101)


def test_headlines_need_a_filter_and_cannot_mix_sources_with_country(ep: Episode) -> None:
    refused(ep, "top_headlines", "rule_violation", "country")
    refused(ep, "top_headlines", "rule_violation", "sources", sources=["techwire"], country="US")
    refused(ep, "top_headlines", "not_found", "sources", sources=["the-gazette"])


def test_an_unsupported_language_is_refused(ep: Episode) -> None:
    refused(ep, "search_articles", "rule_violation", "language", q="market", language="xx")


def test_a_url_that_is_no_article_is_refused(ep: Episode) -> None:
    refused(ep, "get_article", "not_found", "url", url="https://www.example.com/2026/03/01/story-n1")
    real = ok(ep, "top_headlines", country="US")["articles"][0]["url"]
    refused(ep, "get_article", "not_found", "url", url=real.replace("-n", "-x-n"))
