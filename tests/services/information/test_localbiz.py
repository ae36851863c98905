"""Nearby: businesses of the world's cities and companies, local hours, reviews by locals; collections' rules."""

from __future__ import annotations

from compoworld import Episode
from compoworld.services.information import localbiz
from tests.services.helpers import ServiceTools

LB = ServiceTools("localbiz")
WORLD = LB.world
ok, refused, every = LB.ok, LB.refused, LB.every
POP = WORLD.population
STAFF = {p.email for p in POP.employees}


def test_every_company_is_found_by_its_phone_and_by_name_and_address(ep: Episode) -> None:
    for c in POP.companies[:6]:
        found = ok(ep, "search_by_phone", phone=c.phone)
        assert [b["name"] for b in found] == [c.name]
        assert found[0]["address"] == c.address.model_dump()
        matched = ok(
            ep,
            "match_business",
            name=c.name.upper(),
            street=c.address.street,
            city=c.address.city,
            country=c.address.country,
        )
        assert matched["id"] == found[0]["id"]
    assert ok(ep, "search_by_phone", phone="+10000000000") == []
    refused(ep, "match_business", "not_found", "name", name="Nobody Inc", street="1 Main St", city="Lyon", country="FR")


def test_search_filters_by_category_price_and_radius_and_sorts(ep: Episode) -> None:
    city = "Lyon"
    coffee = ok(ep, "search_businesses", location=city, categories="coffee,bakeries", sort_by="rating", limit=50)
    assert coffee and all(b["categories"][0]["alias"] in {"coffee", "bakeries"} for b in coffee)
    ratings = [b["rating"] for b in coffee]
    assert ratings == sorted(ratings, reverse=True)
    cheap = ok(ep, "search_businesses", location=city, price=[1], limit=50)
    assert cheap and all(b["price"] == "$" for b in cheap)
    near = ok(ep, "search_businesses", location=city, radius=3000, sort_by="distance", limit=50)
    dists = [b["distance_m"] for b in near]
    assert dists == sorted(dists) and all(d <= 3000 for d in dists)
    refused(ep, "search_businesses", "not_found", "location", location="Atlantis")
    refused(ep, "search_businesses", "rule_violation", "location")


def test_closed_businesses_never_show_in_search_and_open_now_follows_local_hours(ep: Episode) -> None:
    everywhere = [b for p in POP.places for b in ok(ep, "search_businesses", location=p.city, limit=50)]
    assert everywhere and not any(b["is_closed"] for b in everywhere)
    open_now = [b for p in POP.places for b in ok(ep, "search_businesses", location=p.city, open_now=True, limit=50)]
    assert open_now and all(b["is_open_now"] for b in open_now)
    detail = ok(ep, "get_business", business_id=open_now[0]["id"])
    assert detail["is_open_now"] and detail["hours"]
    tokyo = ok(ep, "search_businesses", location="Tokyo", categories="bars", limit=50)
    assert tokyo and any(b["is_open_now"] for b in tokyo)
    for b in tokyo:  # 18:00 on a Monday in Tokyo at the world's start: bars open 17:00-02:00 unless closed Mondays
        days = {h["day"] for h in ok(ep, "get_business", business_id=b["id"])["hours"]}
        assert b["is_open_now"] == (0 in days)


def test_reviews_are_written_by_people_living_in_the_city(ep: Episode) -> None:
    b = ok(ep, "search_businesses", location="Berlin", limit=1)[0]
    reviews = ok(ep, "get_reviews", business_id=b["id"])
    berliners = {f"{p.first_name} {p.last_name[0]}." for p in POP.people if p.place.city == "Berlin"}
    assert 0 < len(reviews) <= 3 and {r["user_name"] for r in reviews} <= berliners
    times = [r["time_created"] for r in reviews]
    assert times == sorted(times, reverse=True)
    refused(ep, "get_reviews", "not_found", "business_id", business_id="no-such-place")


def test_categories_autocomplete_and_delivery_agree(ep: Episode) -> None:
    aliases = {c["alias"] for c in ok(ep, "list_categories")}
    assert {"coffee", "italian", "itservices"} <= aliases
    assert ok(ep, "get_category", alias="italian")["parent"] == "restaurants"
    refused(ep, "get_category", "not_found", "alias", alias="spaceports")
    assert "Coffee & Tea" in ok(ep, "autocomplete", text="cof")
    delivering = ok(ep, "delivery_search", location="Paris")
    assert delivering and all("delivery" in b["transactions"] and b["address"]["city"] == "Paris" for b in delivering)


def test_seeded_collections_are_staff_places_near_the_office(ep: Episode) -> None:
    cols = every(ep, "list_collections")
    assert len(cols) == 3 and {c["owner_email"] for c in cols} <= STAFF
    items = every(ep, "list_collection_items")
    assert {i["status"] for i in items} == {"visited", "want_to_go"}
    assert all((i["visited_at"] is None) == (i["status"] == "want_to_go") for i in items)
    assert {i["city"] for i in items} == {POP.home.place.city}
    for i in items[:4]:
        assert ok(ep, "get_business", business_id=i["business_id"])["phone"] == i["phone"]


def test_a_place_is_saved_once_and_closed_places_are_refused(ep: Episode) -> None:
    col = LB.first(ep, "collections")
    have = {i["business_id"] for i in every(ep, "list_collection_items", collection_id=col["id"])}
    new = next(b for b in ok(ep, "search_businesses", location="Madrid", limit=50) if b["id"] not in have)
    item = ok(ep, "add_to_collection", collection_id=col["id"], business_id=new["id"], note="Offsite dinner")
    assert (item["status"], item["city"], item["business_name"]) == ("want_to_go", "Madrid", new["name"])
    refused(ep, "add_to_collection", "conflict", "business_id", collection_id=col["id"], business_id=new["id"])
    closed = next(b.id for b in localbiz._build(POP).values() if b.is_closed)
    assert ok(ep, "get_business", business_id=closed)["is_closed"]
    refused(ep, "add_to_collection", "rule_violation", "business_id", collection_id=col["id"], business_id=closed)
    ok(ep, "mark_visited_collection_item", collection_item_id=item["id"])
    assert ok(ep, "get_collection_item", collection_item_id=item["id"])["visited_at"] is not None
    refused(ep, "mark_visited_collection_item", "rule_violation", "collection_item_id", collection_item_id=item["id"])


def test_places_move_only_between_one_owners_collections(ep: Episode) -> None:
    cols = every(ep, "list_collections")
    mine = [c for c in cols if c["owner_email"] == cols[0]["owner_email"]]
    other = next(c for c in cols if c["owner_email"] != cols[0]["owner_email"])
    item = LB.first(ep, "collection_items", collection_id=mine[0]["id"])
    refused(
        ep, "move_item", "rule_violation", "collection_id", collection_item_id=item["id"], collection_id=other["id"]
    )
    moved = ok(ep, "move_item", collection_item_id=item["id"], collection_id=mine[1]["id"])
    assert moved["collection_id"] == mine[1]["id"] and moved["status"] == item["status"]
    refused(ep, "move_item", "conflict", "collection_id", collection_item_id=item["id"], collection_id=mine[1]["id"])


def test_collection_names_are_unique_per_owner_and_deleting_removes_items(ep: Episode) -> None:
    col = LB.first(ep, "collections")
    refused(ep, "create_collection", "conflict", "name", name=col["name"], owner_email=col["owner_email"])
    refused(ep, "create_collection", "rule_violation", "owner_email", name="Mine", owner_email=POP.consumers[0].email)
    item = LB.first(ep, "collection_items", collection_id=col["id"])
    ok(ep, "delete_collection", collection_id=col["id"])
    refused(ep, "get_collection_item", "not_found", "collection_item_id", collection_item_id=item["id"])
