"""Seeker web search: world companies' real sites and people, pages that match their results, images, videos."""

from __future__ import annotations

import datetime as dt
import json
import os
import re
import subprocess
import sys
from typing import Any

from compoworld import Episode
from tests.services.helpers import ServiceTools, service_world

SEARCH = ServiceTools("websearch")
WORLD = SEARCH.world
ok, refused = SEARCH.ok, SEARCH.refused
POP = WORLD.population
NOW = WORLD.epoch
TODAY = NOW.date()
COMPANY = POP.customers[3]
PERSON = POP.people_at(COMPANY)[0]


def results(ep: Episode, query: str, **args: Any) -> list[dict[str, Any]]:
    return list(ok(ep, "search_web", query=query, count=50, **args)["results"])


def urls(ep: Episode, query: str, **args: Any) -> list[str]:
    return [r["url"] for r in results(ep, query, **args)]


# -- world consistency ------------------------------------------------------------------------------


def test_a_world_company_is_found_with_its_real_site_first_and_its_real_card(ep: Episode) -> None:
    for company in POP.companies:
        res = ok(ep, "search_web", query=company.name)
        assert res["results"][0]["url"] == f"https://www.{company.domain}/"
        assert res["results"][0]["domain"] == company.domain
        [card] = [c for c in res["companies"] if c["domain"] == company.domain]
        assert card["name"] == company.name
        assert card["industry"] == company.industry
        assert card["employees"] == company.employees
        assert card["phone"] == company.phone
        assert card["address"] == company.address.model_dump()
        assert card["website"] == f"https://www.{company.domain}/"
        people = POP.people_at(company)
        assert [p["name"] for p in card["key_people"]] == [p.name for p in people[:6]]
        assert all(p["company_domain"] == company.domain for p in card["key_people"])


def test_the_team_page_lists_the_people_the_world_knows_there_with_their_emails_and_phones(ep: Episode) -> None:
    page = ok(ep, "fetch_page", url=f"https://www.{COMPANY.domain}/team")
    people = POP.people_at(COMPANY)
    assert [(p["name"], p["job_title"], p["email"], p["phone"]) for p in page["people"]] == [
        (p.name, p.job_title, p.email, p.phone) for p in people
    ]
    assert page["emails"] == [p.email for p in people]
    assert page["company"] == COMPANY.name and page["company_domain"] == COMPANY.domain
    for p in people:
        assert p.email in page["text"]


def test_the_contact_and_about_pages_give_the_real_address_and_phone(ep: Episode) -> None:
    for path in ("/contact", "/about"):
        page = ok(ep, "fetch_page", url=f"https://www.{COMPANY.domain}{path}")
        assert page["addresses"] == [COMPANY.address.model_dump()]
        assert COMPANY.phone in page["phones"]
        assert COMPANY.address.street in page["text"] and COMPANY.phone in page["text"]


def test_the_home_companys_site_lists_every_employee_and_its_products_at_their_prices(ep: Episode) -> None:
    home = POP.home
    team = ok(ep, "fetch_page", url=f"https://www.{home.domain}/team")
    assert {p["email"] for p in team["people"]} == {p.email for p in POP.employees}
    shop = ok(ep, "fetch_page", url=f"https://www.{home.domain}/products")
    assert [(p["sku"], p["price"]) for p in shop["products"]] == [(p.sku, p.price_cents) for p in POP.products]
    assert {p["currency"] for p in shop["products"]} == {home.place.currency}
    product = POP.products[5]
    res = ok(ep, "search_web", query=product.name)
    assert res["products"][0]["sku"] == product.sku and res["products"][0]["price"] == product.price_cents
    page = ok(ep, "fetch_page", url=res["products"][0]["url"])
    assert page["products"][0]["name"] == product.name


def test_a_person_is_found_with_their_profile_and_their_companys_team_page(ep: Episode) -> None:
    res = ok(ep, "search_web", query=PERSON.name, count=50)
    [card] = [p for p in res["people"] if p["company_domain"] == COMPANY.domain]
    assert card["job_title"] == PERSON.job_title and card["company"] == COMPANY.name
    assert (card["city"], card["country"]) == (PERSON.place.city, PERSON.place.country)
    found = [r["url"] for r in res["results"]]
    assert card["profile_url"] in found[:3]
    assert f"https://www.{COMPANY.domain}/team" in found[:3]
    profile = ok(ep, "fetch_page", url=card["profile_url"])
    assert profile["title"] == f"{PERSON.name} - {PERSON.job_title} - {COMPANY.name} | LinkedIn"
    assert profile["people"][0]["email"] is None  # a public profile shows no e-mail address


def test_a_company_query_also_finds_pages_about_its_people_and_its_press(ep: Episode) -> None:
    found = urls(ep, COMPANY.name)
    for p in POP.people_at(COMPANY):
        assert any(u.startswith("https://www.linkedin.com/in/" + p.first_name.lower()) for u in found)
    press = ok(ep, "fetch_page", url=f"https://www.{COMPANY.domain}/press")
    articles = [link["url"] for link in press["links"] if "/20" in link["url"]]
    assert articles and set(articles[:3]) <= set(found)


def test_news_results_open_to_the_article_the_news_service_serves() -> None:
    world = service_world("websearch", "news")
    ep = Episode(world)
    article = ep.call("news__search_articles", {"q": f'"{COMPANY.name}"'}).result["articles"][0]
    full = ep.call("news__get_article", {"url": article["url"]}).result
    page = ep.call("websearch__fetch_page", {"url": article["url"]}).result
    assert page["title"].startswith(full["title"])
    assert full["text"] in page["text"]
    assert page["company_domain"] == full["companies"][0]["domain"]
    assert page["language"] == full["language"]


def test_a_city_is_answered_with_its_real_coordinates_time_zone_and_currency(ep: Episode) -> None:
    for place in POP.places:
        [card] = ok(ep, "search_web", query=f"{place.city} weather")["places"]
        assert (card["city"], card["country"], card["timezone"], card["currency"]) == (
            place.city,
            place.country,
            place.timezone,
            place.currency,
        )
        assert (card["latitude"], card["longitude"]) == (place.latitude, place.longitude)
    page = ok(ep, "fetch_page", url="https://en.wikipedia.org/wiki/Berlin")
    assert "Europe/Berlin" in page["text"] and "52.520°N" in page["text"]


def test_a_query_one_typo_from_a_company_is_searched_as_corrected(ep: Episode) -> None:
    typo = COMPANY.name[:-1] + ("x" if COMPANY.name[-1] != "x" else "y")
    res = ok(ep, "search_web", query=typo)
    assert res["altered_query"] == COMPANY.name.lower()
    assert res["results"][0]["url"] == f"https://www.{COMPANY.domain}/"


def test_page_words_in_the_query_bring_that_page_of_the_site_first(ep: Episode) -> None:
    assert urls(ep, f"{COMPANY.name} careers")[0] == f"https://www.{COMPANY.domain}/careers"
    assert urls(ep, f"{COMPANY.name} contact phone")[0] == f"https://www.{COMPANY.domain}/contact"


def test_site_restricts_results_to_that_site(ep: Episode) -> None:
    own = urls(ep, f"site:{COMPANY.domain}")
    assert own and all(u.startswith(f"https://www.{COMPANY.domain}/") for u in own)
    reddit = urls(ep, "site:reddit.com standing desk")
    assert reddit and all(u.startswith("https://www.reddit.com/r/") for u in reddit)
    profiles = urls(ep, f"site:linkedin.com {COMPANY.name}")
    assert len(profiles) == 1 + len(POP.people_at(COMPANY))
    outlet = results(ep, "site:techwire.news revenue")
    assert outlet and all(r["domain"] == "techwire.news" and r["kind"] == "news" for r in outlet)
    assert all("revenue" in ok(ep, "fetch_page", url=r["url"])["text"] for r in outlet)
    assert results(ep, "site:youtube.com cats") == []


def test_excluded_words_leave_out_pages_that_contain_them(ep: Episode) -> None:
    plain = results(ep, "standing desk")
    without = results(ep, "standing desk -reviews")
    assert len(without) < len(plain)
    assert not any("reviews" in (r["title"] + " " + r["snippet"]).lower().split() for r in without)


def test_every_result_opens_to_the_page_it_describes(ep: Episode) -> None:
    for query in (COMPANY.name, PERSON.name, "Tokyo", "python sql error", "how to file taxes", POP.home.name):
        for r in results(ep, query):
            page = ok(ep, "fetch_page", url=r["url"])
            assert (page["url"], page["title"], page["published"]) == (r["url"], r["title"], r["date_published"])
            body = " ".join(p for p in page["text"].split("\n\n") if p != page["title"])
            assert body.startswith(r["snippet"].removesuffix(" …")), r["url"]
            assert page["kind"] == r["kind"] and page["language"] == r["language"]


def test_a_bare_http_domain_redirects_to_the_canonical_page(ep: Episode) -> None:
    page = ok(ep, "fetch_page", url=f"http://{COMPANY.domain}/Contact/?utm_source=mail#top")
    assert page["url"] == f"https://www.{COMPANY.domain}/contact"


def test_paging_continues_the_same_ranking(ep: Episode) -> None:
    whole = results(ep, "office chair")
    first = ok(ep, "search_web", query="office chair", count=10)
    second = ok(ep, "search_web", query="office chair", count=10, offset=first["next_offset"])
    assert [r["url"] for r in first["results"] + second["results"]] == [r["url"] for r in whole[:20]]
    assert [r["rank"] for r in second["results"]] == list(range(11, 21))
    last = ok(ep, "search_web", query="office chair", count=50, offset=len(whole) - 1)
    assert last["next_offset"] is None and len(last["results"]) == 1


def test_freshness_keeps_only_recent_pages(ep: Episode) -> None:
    month = results(ep, COMPANY.name, freshness="Month")
    assert month and len(month) < len(results(ep, COMPANY.name))
    assert all(dt.date.fromisoformat(r["date_published"]) >= TODAY - dt.timedelta(days=31) for r in month)
    span = results(ep, "standing desk", freshness="2024-01-01..2024-12-31")
    assert span and all(r["date_published"].startswith("2024") for r in span)


def test_the_market_sets_the_language_of_encyclopedia_results(ep: Episode) -> None:
    german = results(ep, "kaffee", market="de-DE")
    assert german[0]["url"] == "https://de.wikipedia.org/wiki/Kaffee" and german[0]["language"] == "de"
    page = ok(ep, "fetch_page", url=german[0]["url"])
    assert "Gegenstand dieses Artikels" in page["text"]


# -- suggestions, images, videos ----------------------------------------------------------------------


def test_suggestions_complete_world_names_with_a_link(ep: Episode) -> None:
    res = ok(ep, "suggest_queries", query=COMPANY.name[:4])
    company = next(s for s in res["suggestions"] if s["kind"] == "company" and s["company"] == COMPANY.name)
    assert company["domain"] == COMPANY.domain and company["url"] == f"https://www.{COMPANY.domain}/"
    people = ok(ep, "suggest_queries", query=PERSON.first_name, count=20)["suggestions"]
    mine = next(s for s in people if s["person"] == PERSON.name and s["domain"] == COMPANY.domain)
    cards = ok(ep, "search_web", query=PERSON.name)["people"]
    assert mine["url"] == next(c["profile_url"] for c in cards if c["company_domain"] == COMPANY.domain)
    assert mine["text"] == f"{PERSON.name} {COMPANY.name}"
    full = ok(ep, "suggest_queries", query=COMPANY.name + " ")["suggestions"]
    assert f"{COMPANY.name} careers" in [s["text"] for s in full]
    assert ok(ep, "suggest_queries", query="ber")["suggestions"][0] == {
        "text": "Berlin",
        "kind": "place",
        "url": "https://en.wikipedia.org/wiki/Berlin",
        "company": None,
        "domain": None,
        "person": None,
    }


def test_image_search_finds_the_company_logo_and_team_photos_on_its_site(ep: Episode) -> None:
    images = ok(ep, "search_images", query=COMPANY.name, count=150)["images"]
    logo = images[0]
    assert logo["name"] == f"{COMPANY.name} logo"
    assert logo["host_page_url"] == f"https://www.{COMPANY.domain}/" and logo["host_domain"] == COMPANY.domain
    headshots = {i["person"] for i in images if i["person"]}
    assert headshots == {p.name for p in POP.people_at(COMPANY)[:4]}
    for image in images[:20]:
        ok(ep, "fetch_page", url=image["host_page_url"])


def test_image_size_filters_hold(ep: Episode) -> None:
    bounds = {"Small": (0, 199), "Medium": (200, 499), "Large": (500, 100_000)}
    for size, (lo, hi) in bounds.items():
        found = ok(ep, "search_images", query="mountain lake", size=size, count=150)["images"]
        assert found, size
        assert all(lo <= max(i["width"], i["height"]) <= hi for i in found)
    wallpapers = ok(ep, "search_images", query="mountain lake", size="Wallpaper", count=150)["images"]
    assert wallpapers and all(i["width"] >= 1600 and i["width"] > i["height"] for i in wallpapers)


def test_video_search_finds_the_companys_videos_and_their_pages(ep: Episode) -> None:
    videos = ok(ep, "search_videos", query=PERSON.name, count=105)["videos"]
    assert videos[0]["people"] == [PERSON.name]  # the talk they give comes first
    own = [v for v in videos if v["company"] == COMPANY.name]
    assert len(own) >= 2 and all(v["content_url"].startswith("https://www.youtube.com/watch?v=") for v in own)
    for video in videos[:10]:
        page = ok(ep, "fetch_page", url=video["host_page_url"])
        assert page["title"].startswith(video["name"])
        assert video["duration"] in page["text"]


def test_video_length_and_duration_agree(ep: Episode) -> None:
    for length, (lo, hi) in {"Short": (0, 299), "Medium": (300, 1200), "Long": (1201, 10**6)}.items():
        for v in ok(ep, "search_videos", query="sourdough bread", length=length, count=105)["videos"]:
            assert lo <= v["duration_seconds"] <= hi
            m = re.fullmatch(r"PT(?:(\d+)H)?(\d+)M(\d+)S", v["duration"])
            assert m is not None
            h, mi, s = (int(x or 0) for x in m.groups())
            assert h * 3600 + mi * 60 + s == v["duration_seconds"]


# -- determinism and value ranges -------------------------------------------------------------------


def test_the_same_calls_give_the_same_answers_in_two_episodes() -> None:
    calls: list[tuple[str, dict[str, Any]]] = [
        ("search_web", {"query": COMPANY.name}),
        ("fetch_page", {"url": f"https://www.{COMPANY.domain}/careers"}),
        ("suggest_queries", {"query": "ma"}),
        ("search_images", {"query": "harbor at night"}),
        ("search_videos", {"query": COMPANY.name}),
    ]
    first, second = Episode(WORLD), Episode(WORLD)
    for name, args in calls:
        assert ok(first, name, **args) == ok(second, name, **args)


_SCRIPT = """
import json
from compoworld import Episode
from tests.services.helpers import service_world
world = service_world("websearch")
ep = Episode(world)
company = world.population.customers[3]
calls = [
    ("search_web", {"query": company.name}),
    ("search_web", {"query": "best espresso machine", "market": "fr-FR", "count": 50}),
    ("fetch_page", {"url": "https://www." + company.domain + "/team"}),
    ("suggest_queries", {"query": "ber"}),
    ("search_images", {"query": company.name}),
    ("search_videos", {"query": "sourdough bread"}),
]
print(json.dumps([ep.call("websearch__" + n, a).to_dict() for n, a in calls], sort_keys=True))
"""


def test_answers_are_byte_identical_in_processes_with_other_hash_seeds() -> None:
    outputs = []
    for hashseed in ("5", "31337"):
        env = dict(os.environ, PYTHONHASHSEED=hashseed)
        proc = subprocess.run([sys.executable, "-c", _SCRIPT], capture_output=True, text=True, env=env, check=True)
        outputs.append(proc.stdout)
    assert outputs[0] == outputs[1]
    assert all(r["ok"] for r in json.loads(outputs[0]))


def test_result_values_are_in_range(ep: Episode) -> None:
    for query in (COMPANY.name, "how to file taxes", "Sydney"):
        res = ok(ep, "search_web", query=query, count=50)
        assert res["total_estimated_matches"] >= len(res["results"]) > 0
        assert [r["rank"] for r in res["results"]] == list(range(1, len(res["results"]) + 1))
        for r in res["results"]:
            assert dt.date.fromisoformat(r["date_published"]) <= TODAY
            crawled = dt.datetime.fromisoformat(r["date_last_crawled"])
            assert NOW - dt.timedelta(days=11) <= crawled <= NOW
            assert crawled.date() >= dt.date.fromisoformat(r["date_published"])
            assert len(r["snippet"]) <= 222
            assert r["display_url"] == r["url"].removeprefix("https://").rstrip("/")
    for image in ok(ep, "search_images", query="Sydney", count=150)["images"]:
        assert 0 < image["width"] <= 4000 and 0 < image["height"] <= 4000 and image["content_size"] > 0
        assert re.fullmatch(r"[0-9A-F]{6}", image["accent_color"])


# -- refusals -----------------------------------------------------------------------------------------


def test_an_empty_or_overlong_query_is_refused(ep: Episode) -> None:
    refused(ep, "search_web", "rule_violation", "query", query="  ")
    refused(ep, "search_web", "rule_violation", "query", query="-only -exclusions")
    refused(ep, "search_web", "rule_violation", "query", query="word " * 100)
    refused(ep, "suggest_queries", "rule_violation", "query", query="")
    refused(ep, "search_images", "rule_violation", "query", query=" ")
    refused(ep, "search_videos", "rule_violation", "query", query=" ")


def test_counts_and_offsets_out_of_range_are_refused(ep: Episode) -> None:
    refused(ep, "search_web", "rule_violation", "count", query="desk", count=51)
    refused(ep, "search_web", "rule_violation", "offset", query="desk", offset=-1)
    refused(ep, "search_images", "rule_violation", "count", query="desk", count=151)
    refused(ep, "search_videos", "rule_violation", "count", query="desk", count=0)
    refused(ep, "suggest_queries", "rule_violation", "count", query="desk", count=21)
    refused(ep, "fetch_page", "rule_violation", "max_chars", url=f"https://www.{COMPANY.domain}/", max_chars=50)


def test_a_malformed_freshness_is_refused(ep: Episode) -> None:
    refused(ep, "search_web", "rule_violation", "freshness", query="desk", freshness="Fortnight")
    refused(ep, "search_web", "rule_violation", "freshness", query="desk", freshness="2025-06-01..2025-01-01")


def test_pages_a_site_does_not_have_are_404_and_reserved_hosts_do_not_resolve(ep: Episode) -> None:
    msg = refused(ep, "fetch_page", "not_found", "url", url=f"https://www.{COMPANY.domain}/pricing")
    assert "404" in msg
    refused(ep, "fetch_page", "not_found", "url", url=f"https://blog.{COMPANY.domain}/")
    refused(ep, "fetch_page", "not_found", "url", url="https://intranet.example/")
    refused(ep, "fetch_page", "not_found", "url", url="https://www.linkedin.com/in/nobody-here-000000")
    refused(ep, "fetch_page", "not_found", "url", url="https://www.youtube.com/watch?v=AAAAAAAAAAA")
    refused(ep, "fetch_page", "rule_violation", "url", url="https://bad_host!/page")


def test_truncation_cuts_the_text_at_max_chars(ep: Episode) -> None:
    page = ok(ep, "fetch_page", url=f"https://www.{POP.home.domain}/team", max_chars=300)
    assert page["truncated"] and len(page["text"]) == 300
    assert page["word_count"] > len(page["text"].split())
