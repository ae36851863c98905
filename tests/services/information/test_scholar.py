"""Scholarbase: a consistent citation graph, author metrics, the world's engineers as authors, reading lists."""

from __future__ import annotations

from typing import Any

from compoworld import Episode
from tests.services.helpers import ServiceTools

SCH = ServiceTools("scholar")
WORLD = SCH.world
ok, refused, every = SCH.ok, SCH.refused, SCH.every
POP = WORLD.population
STAFF = {p.email for p in POP.employees}
ML = "C119857082"


def all_works(ep: Episode) -> list[dict[str, Any]]:
    found: dict[str, dict[str, Any]] = {}
    for c in ok(ep, "list_concepts"):
        for w in ok(ep, "search_works", concept_id=c["id"], limit=50, sort="publication_date"):
            found[w["id"]] = w
    return list(found.values())


def test_citation_counts_match_the_citing_works_and_point_back_in_time(ep: Episode) -> None:
    top = ok(ep, "search_works", limit=5)
    assert [w["cited_by_count"] for w in top] == sorted((w["cited_by_count"] for w in top), reverse=True)
    for w in top:
        citing = ok(ep, "list_citing_works", work_id=w["id"])
        assert len(citing) == w["cited_by_count"] > 0
        for c in citing:
            assert w["id"] in c["referenced_works"] and c["publication_date"] > w["publication_date"]
        for ref in w["referenced_works"]:
            assert ok(ep, "get_work", work_id=ref)["publication_date"] < w["publication_date"]


def test_a_work_is_the_same_by_id_and_by_doi(ep: Episode) -> None:
    w = ok(ep, "search_works", limit=1)[0]
    assert ok(ep, "get_work", work_id=w["id"]) == w
    assert ok(ep, "get_work_by_doi", doi=w["doi"].upper()) == w
    assert w["landing_page_url"] == f"https://doi.org/{w['doi']}"
    refused(ep, "get_work", "not_found", "work_id", work_id="W123456")
    refused(ep, "get_work_by_doi", "not_found", "doi", doi="10.9999/nothing")


def test_author_metrics_follow_from_their_works(ep: Episode) -> None:
    for a in ok(ep, "search_authors")[:6]:
        works = ok(ep, "search_works", author_id=a["id"], limit=50)
        assert len(works) == a["works_count"]
        counts = sorted((w["cited_by_count"] for w in works), reverse=True)
        assert sum(counts) == a["cited_by_count"]
        assert a["h_index"] == max([k + 1 for k, c in enumerate(counts) if c >= k + 1], default=0)
        assert ok(ep, "get_author_by_orcid", orcid=a["orcid"])["id"] == a["id"]
        by_year = ok(ep, "count_works_by_year", author_id=a["id"])
        assert sum(y["count"] for y in by_year) == a["works_count"]


def test_the_home_companys_engineers_publish_under_their_company(ep: Episode) -> None:
    [home] = ok(ep, "search_institutions", search=POP.home.name, type="company")
    assert home["country_code"] == POP.home.address.country
    people = ok(ep, "search_authors", institution_id=home["id"])
    engineers = {p.email for p in POP.staff("Engineering")}
    assert people and {a["email"] for a in people} <= engineers
    for w in ok(ep, "search_works", institution_id=home["id"], limit=50):
        assert home["id"] in {x["institution_id"] for x in w["authorships"]}


def test_filters_narrow_the_search_and_refuse_unknown_ids(ep: Episode) -> None:
    ml = ok(ep, "search_works", concept_id=ML, from_year=2020, is_oa=True, limit=50)
    assert ml and all(ML in w["concepts"] and w["publication_year"] >= 2020 and w["is_oa"] for w in ml)
    concept = next(c for c in ok(ep, "list_concepts", level=1) if c["id"] == ML)
    assert sum(y["count"] for y in ok(ep, "count_works_by_year", concept_id=ML)) == concept["works_count"]
    refused(ep, "search_works", "rule_violation", "to_year", from_year=2022, to_year=2020)
    refused(ep, "search_works", "not_found", "concept_id", concept_id="C999999")
    refused(ep, "search_authors", "not_found", "institution_id", institution_id="I000001")


def test_seeded_reading_lists_belong_to_engineers_and_hold_real_works(ep: Episode) -> None:
    lists = every(ep, "list_reading_lists")
    assert {rl["status"] for rl in lists} == {"active", "archived"}
    assert all(rl["owner_email"] in STAFF for rl in lists)
    items = every(ep, "list_items")
    assert {i["status"] for i in items} == {"to_read", "reading", "read"}
    for i in items[:8]:
        w = ok(ep, "get_work", work_id=i["work_id"])
        assert (w["title"], w["doi"], w["publication_year"]) == (i["title"], i["doi"], i["publication_year"])


def test_a_work_goes_on_a_list_once_and_is_read_in_turn(ep: Episode) -> None:
    rl = SCH.first(ep, "reading_lists", status="active")
    on = {i["work_id"] for i in every(ep, "list_items", reading_list_id=rl["id"])}
    work = next(w for w in all_works(ep) if w["id"] not in on)
    item = ok(ep, "add_work", reading_list_id=rl["id"], work_id=work["id"], note="For Friday")
    assert (item["status"], item["note"]) == ("to_read", "For Friday")
    refused(ep, "add_work", "conflict", "work_id", reading_list_id=rl["id"], work_id=work["id"])
    assert ok(ep, "start_reading_item", item_id=item["id"])["status"] == "reading"
    refused(ep, "start_reading_item", "rule_violation", "item_id", item_id=item["id"])
    assert ok(ep, "finish_reading_item", item_id=item["id"])["status"] == "read"


def test_importing_references_skips_works_already_on_the_list(ep: Episode) -> None:
    owner = POP.staff("Engineering")[0].email
    rl = ok(ep, "create_reading_list", name="Lit review", owner_email=owner)
    work = max(all_works(ep), key=lambda w: len(w["referenced_works"]))
    ok(ep, "add_work", reading_list_id=rl["id"], work_id=work["referenced_works"][0])
    added = ok(ep, "import_references", reading_list_id=rl["id"], work_id=work["id"])
    assert {i["work_id"] for i in added} == set(work["referenced_works"][1:])
    assert ok(ep, "import_references", reading_list_id=rl["id"], work_id=work["id"]) == []
    refused(ep, "create_reading_list", "conflict", "name", name="Lit review", owner_email=owner)


def test_archived_lists_are_frozen_and_unread_lists_cannot_be_deleted(ep: Episode) -> None:
    rl = SCH.first(ep, "reading_lists", status="active")
    refused(ep, "delete_reading_list", "rule_violation", "reading_list_id", reading_list_id=rl["id"])
    ok(ep, "archive_reading_list", reading_list_id=rl["id"])
    work = ok(ep, "search_works", limit=1)[0]["id"]
    refused(ep, "add_work", "rule_violation", "reading_list_id", reading_list_id=rl["id"], work_id=work)
    item = SCH.first(ep, "items", reading_list_id=rl["id"], status="to_read")
    refused(ep, "update_item", "rule_violation", "item_id", item_id=item["id"], note="late")
    ok(ep, "delete_reading_list", reading_list_id=rl["id"])
    assert all(i["reading_list_id"] != rl["id"] for i in every(ep, "list_items"))
    refused(ep, "get_item", "not_found", "item_id", item_id=item["id"])
    outsider = POP.contacts[0].email
    refused(ep, "create_reading_list", "rule_violation", "owner_email", name="X", owner_email=outsider)
