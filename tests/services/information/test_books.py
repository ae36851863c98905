"""Shelfmark Books: one catalogue across works, editions, ISBNs, authors and subjects; shelves read in turn."""

from __future__ import annotations

from compoworld import Episode
from tests.services.helpers import ServiceTools

BK = ServiceTools("books")
WORLD = BK.world
ok, refused, every = BK.ok, BK.refused, BK.every
POP = WORLD.population
STAFF = {p.email for p in POP.employees}


def test_a_work_its_editions_and_their_isbns_agree(ep: Episode) -> None:
    work = max(ok(ep, "search_books", limit=50), key=lambda w: w["edition_count"])
    editions = ok(ep, "list_editions", work_id=work["id"])
    assert len(editions) == work["edition_count"] > 0
    assert [e["isbn_13"] for e in editions] == work["isbns"]
    for e in editions:
        assert e["work_id"] == work["id"] and e["title"] == work["title"]
        assert ok(ep, "get_edition_by_isbn", isbn=e["isbn_13"]) == e
        assert ok(ep, "get_edition_by_isbn", isbn=e["isbn_10"]) == e
        assert ok(ep, "get_edition", edition_id=e["id"]) == e
        assert e["isbn_13"][3:12] == e["isbn_10"][:9]


def test_isbn_check_digits_are_checked_before_lookup(ep: Episode) -> None:
    isbn = ok(ep, "search_books", limit=1)[0]["isbns"][0]
    wrong = isbn[:-1] + str((int(isbn[-1]) + 1) % 10)
    refused(ep, "get_edition_by_isbn", "rule_violation", "isbn", isbn=wrong)
    refused(ep, "get_covers", "rule_violation", "isbn", isbn=wrong)
    refused(ep, "get_edition_by_isbn", "not_found", "isbn", isbn="9780000000002")
    covers = ok(ep, "get_covers", isbn=isbn)
    assert covers["large"] == f"https://covers.openlibrary.org/b/isbn/{isbn}-L.jpg"


def test_author_profiles_follow_from_their_works(ep: Episode) -> None:
    for a in ok(ep, "search_authors")[:5]:
        works = ok(ep, "list_author_works", author_id=a["id"])
        assert len(works) == a["work_count"] > 0
        assert all(a["id"] in {x["id"] for x in w["authors"]} for w in works)
        assert a["top_work"] == max(works, key=lambda w: (w["ratings_count"], w["id"]))["title"]
        assert ok(ep, "get_author", author_id=a["id"]) == a
    refused(ep, "get_author", "not_found", "author_id", author_id="OL1234A")


def test_the_home_companys_employees_write_business_books(ep: Episode) -> None:
    writers = [a for a in ok(ep, "search_authors") if a["email"]]
    assert writers and {a["email"] for a in writers} <= STAFF
    for a in writers:
        works = ok(ep, "list_author_works", author_id=a["id"])
        assert works and all("business" in w["subjects"] for w in works)


def test_subject_counts_match_the_search(ep: Episode) -> None:
    for s in ok(ep, "list_subjects"):
        found = ok(ep, "search_books", subject=s["key"], limit=50)
        assert len(found) == s["work_count"] == ok(ep, "get_subject", subject=s["key"])["work_count"]
    refused(ep, "get_subject", "not_found", "subject", subject="poetry")


def test_search_filters_and_sorts(ep: Episode) -> None:
    new = ok(ep, "search_books", first_publish_year_from=2000, sort="new", limit=50)
    years = [w["first_publish_year"] for w in new]
    assert new and min(years) >= 2000 and years == sorted(years, reverse=True)
    top = ok(ep, "search_books", limit=10)
    assert [w["ratings_count"] for w in top] == sorted((w["ratings_count"] for w in top), reverse=True)
    writer = top[0]["authors"][0]["name"].split()[-1]
    assert all(any(writer in a["name"] for a in w["authors"]) for w in ok(ep, "search_books", author=writer, limit=50))
    refused(
        ep,
        "search_books",
        "rule_violation",
        "first_publish_year_to",
        first_publish_year_from=2020,
        first_publish_year_to=2000,
    )


def test_seeded_shelves_belong_to_employees_and_hold_real_books(ep: Episode) -> None:
    shelves = every(ep, "list_shelves")
    assert {s["status"] for s in shelves} == {"active", "archived"}
    assert all(s["owner_email"] in STAFF for s in shelves)
    entries = every(ep, "list_entries")
    assert {e["status"] for e in entries} == {"want-to-read", "currently-reading", "already-read"}
    assert all(e["rating"] is None for e in entries if e["status"] != "already-read")
    for e in entries[:8]:
        ed = ok(ep, "get_edition_by_isbn", isbn=e["isbn"])
        assert (ed["work_id"], ed["title"]) == (e["work_id"], e["title"])


def test_a_book_goes_on_a_shelf_once_is_read_in_turn_and_rated_when_read(ep: Episode) -> None:
    shelf = BK.first(ep, "shelves", status="active")
    on = {e["work_id"] for e in every(ep, "list_entries", shelf_id=shelf["id"])}
    work = next(w for w in ok(ep, "search_books", limit=50) if w["id"] not in on and w["edition_count"] > 1)
    entry = ok(ep, "add_book", shelf_id=shelf["id"], isbn=work["isbns"][0], note="For the club")
    assert (entry["status"], entry["work_id"]) == ("want-to-read", work["id"])
    refused(ep, "add_book", "conflict", "isbn", shelf_id=shelf["id"], isbn=work["isbns"][1])
    refused(ep, "rate_book", "rule_violation", "entry_id", entry_id=entry["id"], rating=5)
    assert ok(ep, "start_reading_entry", entry_id=entry["id"])["status"] == "currently-reading"
    refused(ep, "start_reading_entry", "rule_violation", "entry_id", entry_id=entry["id"])
    assert ok(ep, "finish_reading_entry", entry_id=entry["id"])["status"] == "already-read"
    assert ok(ep, "rate_book", entry_id=entry["id"], rating=5)["rating"] == 5


def test_archived_shelves_are_frozen_and_shelves_being_read_cannot_be_deleted(ep: Episode) -> None:
    shelf = next(
        s
        for s in every(ep, "list_shelves", status="active")
        if any(e["status"] == "currently-reading" for e in every(ep, "list_entries", shelf_id=s["id"]))
    )
    refused(ep, "delete_shelf", "rule_violation", "shelf_id", shelf_id=shelf["id"])
    ok(ep, "archive_shelf", shelf_id=shelf["id"])
    isbn = ok(ep, "search_books", limit=1)[0]["isbns"][0]
    refused(ep, "add_book", "rule_violation", "shelf_id", shelf_id=shelf["id"], isbn=isbn)
    entry = BK.first(ep, "entries", shelf_id=shelf["id"])
    refused(ep, "update_entry", "rule_violation", "entry_id", entry_id=entry["id"], note="late")
    ok(ep, "delete_shelf", shelf_id=shelf["id"])
    refused(ep, "get_entry", "not_found", "entry_id", entry_id=entry["id"])


def test_shelf_names_are_unique_per_owner_and_owned_by_staff(ep: Episode) -> None:
    owner = POP.employees[0].email
    ok(ep, "create_shelf", name="To buy", owner_email=owner)
    refused(ep, "create_shelf", "conflict", "name", name="To buy", owner_email=owner)
    ok(ep, "create_shelf", name="To buy", owner_email=POP.employees[1].email)
    refused(ep, "create_shelf", "rule_violation", "owner_email", name="X", owner_email=POP.contacts[0].email)
