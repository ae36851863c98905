"""Lexipedia: articles that agree with the world, search, views, on-this-day, languages and reading lists."""

from __future__ import annotations

import datetime as dt

from compoworld import Episode
from compoworld.services.information.encyclopedia import pages_of
from compoworld.world.geo import CITIES
from tests.services.helpers import ServiceTools, service_world
from tests.services.helpers import ok as call_ok

ENC = ServiceTools("encyclopedia")
WORLD = ENC.world
ok, refused, every = ENC.ok, ENC.refused, ENC.every
POP = WORLD.population
TODAY = WORLD.epoch.date()


def person_page() -> tuple[str, str]:
    page = next(p for p in pages_of(POP).values() if p.kind == "person")
    assert page.person is not None
    return page.title, page.person


# -- the world ------------------------------------------------------------------------------------


def test_company_articles_agree_with_the_population_and_companyinfo() -> None:
    both = service_world("companyinfo", "encyclopedia")
    ep = Episode(both)
    for company in both.population.companies[:8]:
        art = call_ok(ep, "encyclopedia__company_article", company=company.name)
        assert (art["domain"], art["city"], art["country"], art["employees"]) == (
            company.domain,
            company.place.city,
            company.place.country,
            company.employees,
        )
        assert art["website"] == f"https://www.{company.domain}"
        profile = call_ok(ep, "companyinfo__find_company", domain=company.domain)
        assert art["founded_year"] == profile["founded_year"]


def test_city_and_person_articles_agree_with_the_map_and_the_people(ep: Episode) -> None:
    for ref in CITIES[:25]:
        art = ok(ep, "page_summary", title=ref.city)
        assert (art["kind"], art["latitude"], art["longitude"], art["timezone"]) == (
            "city",
            ref.latitude,
            ref.longitude,
            ref.timezone,
        )
    people = {p.name: p for p in POP.people}
    title, name = person_page()
    art = ok(ep, "person_article", name=name)
    person = people[name]
    company = POP.company_of(person)
    assert company is not None
    assert (art["birth_date"], art["company"], art["job_title"]) == (
        person.birth_date.isoformat(),
        company.name,
        person.job_title,
    )
    assert art["title"] == title
    refused(ep, "person_article", "not_found", "name", name="Nobody Special")


def test_titles_resolve_loosely_and_city_states_keep_their_city(ep: Episode) -> None:
    home = POP.home
    assert ok(ep, "page_summary", title=home.name.replace(" ", "_").lower())["title"] == home.name
    assert ok(ep, "page_summary", title=home.domain)["title"] == home.name
    assert ok(ep, "page_summary", title="Singapore")["kind"] == "city"
    assert ok(ep, "page_summary", title="Singapore (country)")["kind"] == "country"
    refused(ep, "page_summary", "not_found", "title", title=home.name[:-1])
    res = ep.call("encyclopedia__page_summary", {"title": home.name[:-1]})
    assert res.error is not None and home.name in res.error.hint
    refused(ep, "company_article", "not_found", "company", company="Berlin")


# -- search and links -----------------------------------------------------------------------------


def test_search_ranks_title_matches_first_and_filters_by_kind(ep: Episode) -> None:
    city = POP.home.place.city
    hits = ok(ep, "search_pages", query=city, limit=20)
    assert hits[0]["title"] == city
    assert all(h["score"] >= hits[-1]["score"] for h in hits)
    companies = ok(ep, "search_pages", query=city, kind="company", limit=50)
    assert {h["title"] for h in companies} >= {c.name for c in POP.companies if c.place.city == city}


def test_related_pages_and_content_link_headquarters_and_people(ep: Episode) -> None:
    title, name = person_page()
    person = next(p for p in POP.people if p.name == name)
    company = POP.company_of(person)
    assert company is not None
    related = {r["title"]: r for r in ok(ep, "related_pages", title=company.name)}
    assert company.place.city in related and title in related
    content = ok(ep, "page_content", title=company.name)
    facts = {f["heading"]: f["text"] for f in content["infobox"]}
    assert facts["Website"] == f"https://www.{company.domain}"
    assert any(s["heading"] == "Key people" and title in s["text"] for s in content["sections"])


# -- views, on this day, languages ----------------------------------------------------------------


def test_page_views_and_most_read_tell_the_same_counts(ep: Episode) -> None:
    day = TODAY - dt.timedelta(days=2)
    top = ok(ep, "most_read", date=day.isoformat(), limit=5)
    assert [t["rank"] for t in top] == [1, 2, 3, 4, 5]
    views = ok(ep, "page_views", title=top[0]["title"], start=day.isoformat(), end=day.isoformat())
    assert views["total"] == top[0]["views"] == views["daily"][0]["views"]
    week = ok(
        ep, "page_views", title=top[0]["title"], start=(day - dt.timedelta(days=6)).isoformat(), end=day.isoformat()
    )
    assert week["total"] == sum(d["views"] for d in week["daily"]) and len(week["daily"]) == 7
    refused(
        ep, "page_views", "rule_violation", "end", title=top[0]["title"], start=day.isoformat(), end=TODAY.isoformat()
    )
    refused(ep, "most_read", "rule_violation", "date", date=TODAY.isoformat())


def test_on_this_day_lists_births_and_foundings(ep: Episode) -> None:
    _, name = person_page()
    person = next(p for p in POP.people if p.name == name)
    born = person.birth_date
    events = ok(ep, "on_this_day", month=born.month, day=born.day)
    assert any(e["kind"] == "birth" and e["person"] == name and e["year"] == born.year for e in events)
    assert [e["year"] for e in events] == sorted(e["year"] for e in events)
    refused(ep, "on_this_day", "rule_violation", "day", month=2)
    refused(ep, "on_this_day", "rule_violation", "day", month=2, day=30)


def test_language_links_use_local_names(ep: Episode) -> None:
    links = {x["language"]: x["title"] for x in ok(ep, "page_languages", title="Munich")}
    assert links["en"] == "Munich" and links["de"] == "München"


# -- reading lists --------------------------------------------------------------------------------


def test_reading_lists_hold_existing_articles_once(ep: Episode) -> None:
    staff = {p.email for p in POP.employees}
    lists = every(ep, "list_reading_lists")
    assert all(x["owner_email"] in staff for x in lists)
    companies = {c.name for c in POP.companies}
    for entry in every(ep, "list_reading_list_entries", kind="company"):
        assert entry["title"] in companies
    research = next(x for x in lists if not x["is_default"])
    saved = ok(ep, "add_to_reading_list", reading_list_id=research["id"], title="tokyo", note="Trip in May")
    assert (saved["title"], saved["kind"], saved["url"]) == ("Tokyo", "city", "https://en.lexipedia.org/wiki/Tokyo")
    refused(ep, "add_to_reading_list", "conflict", "title", reading_list_id=research["id"], title="Tokyo")
    refused(ep, "add_to_reading_list", "not_found", "title", reading_list_id=research["id"], title="Atlantis")


def test_default_lists_stay_and_names_are_unique_per_reader(ep: Episode) -> None:
    default = every(ep, "list_reading_lists", is_default=True)[0]
    refused(ep, "delete_reading_list", "rule_violation", "reading_list_id", reading_list_id=default["id"])
    refused(ep, "create_reading_list", "conflict", "name", name="saved", owner_email=default["owner_email"])
    other = next(x for x in every(ep, "list_reading_lists", owner_email=default["owner_email"]) if not x["is_default"])
    ok(ep, "delete_reading_list", reading_list_id=other["id"])
    assert [e for e in every(ep, "list_reading_list_entries") if e["list_id"] == other["id"]] == []


def test_a_reading_list_holds_at_most_fifty_articles(ep: Episode) -> None:
    lst = ok(ep, "create_reading_list", name="Everything", owner_email="reader@inbox.io")
    titles = sorted(pages_of(POP))
    for title in titles[:50]:
        ok(ep, "add_to_reading_list", reading_list_id=lst["id"], title=title)
    refused(ep, "add_to_reading_list", "rule_violation", "reading_list_id", reading_list_id=lst["id"], title=titles[50])
