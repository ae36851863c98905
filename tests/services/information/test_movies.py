"""Reelbase Movies: credits agree across movies and people; watchlists and lists keep their rules."""

from __future__ import annotations

from compoworld import Episode
from tests.services.helpers import ServiceTools

MV = ServiceTools("movies")
WORLD = MV.world
ok, refused, every = MV.ok, MV.refused, MV.every
POP = WORLD.population
STAFF = {p.email for p in POP.employees}
TODAY = "2026-03-02"


def test_a_movies_credits_and_its_peoples_credits_agree(ep: Episode) -> None:
    movie = ok(ep, "search_movies", query="the")[0]
    credits = ok(ep, "get_movie_credits", movie_id=movie["id"])
    assert [c["order"] for c in credits["cast"]] == list(range(len(credits["cast"])))
    for c in credits["cast"]:
        theirs = ok(ep, "get_person_credits", person_id=c["person_id"])
        assert {"media_type": "movie", "id": movie["id"], "role": c["character"]} in [
            {k: x[k] for k in ("media_type", "id", "role")} for x in theirs
        ]
        assert ok(ep, "get_person", person_id=c["person_id"])["known_for_department"] == "Acting"
    director = credits["crew"][0]
    assert director["job"] == "Director"
    assert ok(ep, "get_movie", movie_id=movie["id"])["director"] == director["name"]
    refused(ep, "get_movie", "not_found", "movie_id", movie_id=999999)


def test_release_status_and_box_office_follow_the_date(ep: Episode) -> None:
    found = ok(ep, "discover_movies", sort_by="primary_release_date.desc", limit=50)
    dates = [m["release_date"] for m in found]
    assert dates == sorted(dates, reverse=True)
    for m in found[:12]:
        full = ok(ep, "get_movie", movie_id=m["id"])
        if m["release_date"] > TODAY:
            assert full["status"] in {"Post Production", "In Production"}
            assert (full["revenue"], full["vote_count"]) == (0, 0)
        else:
            assert full["status"] == "Released" and full["vote_count"] > 0


def test_discover_filters_by_genre_votes_and_sorts_by_score(ep: Episode) -> None:
    genres = {g["name"]: g["id"] for g in ok(ep, "list_genres")}
    drama = ok(ep, "discover_movies", genre_id=genres["Drama"], min_vote_count=1000, sort_by="vote_average.desc")
    assert drama and all(genres["Drama"] in m["genre_ids"] and m["vote_count"] >= 1000 for m in drama)
    scores = [m["vote_average"] for m in drama]
    assert scores == sorted(scores, reverse=True)
    for m in drama[:3]:
        assert "Drama" in {g["name"] for g in ok(ep, "get_movie", movie_id=m["id"])["genres"]}
    refused(ep, "discover_movies", "not_found", "genre_id", genre_id=4242)


def test_a_series_seasons_and_episodes_add_up(ep: Episode) -> None:
    show = ok(ep, "search_tv", query="kingdom")[0]
    assert show["number_of_seasons"] == len(show["seasons"])
    total = 0
    for season in show["seasons"]:
        detail = ok(ep, "get_tv_season", tv_id=show["id"], season_number=season["season_number"])
        assert len(detail["episodes"]) == season["episode_count"] == detail["episode_count"]
        total += len(detail["episodes"])
    assert total == show["number_of_episodes"]
    refused(ep, "get_tv_season", "not_found", "season_number", tv_id=show["id"], season_number=40)


def test_seeded_watchlists_belong_to_staff_and_only_watched_titles_are_rated(ep: Episode) -> None:
    items = every(ep, "list_watch_items")
    assert {i["owner_email"] for i in items} <= STAFF
    assert {i["status"] for i in items} == {"watchlist", "watched"}
    assert {i["media_type"] for i in items} == {"movie", "tv"}
    assert all(i["rating"] is None for i in items if i["status"] == "watchlist")
    assert all(i["release_date"] <= TODAY for i in items if i["status"] == "watched")
    for i in items[:6]:
        if i["media_type"] == "movie":
            assert ok(ep, "get_movie", movie_id=i["media_id"])["title"] == i["title"]


def test_a_title_is_watched_once_released_and_rated_in_half_steps(ep: Episode) -> None:
    owner = POP.employees[-1].email
    released = next(m for m in ok(ep, "discover_movies", limit=50) if m["release_date"] <= TODAY)
    item = ok(ep, "add_to_watchlist", owner_email=owner, media_type="movie", media_id=released["id"])
    assert (item["status"], item["title"]) == ("watchlist", released["title"])
    refused(
        ep, "add_to_watchlist", "conflict", "media_id", owner_email=owner, media_type="movie", media_id=released["id"]
    )
    refused(ep, "rate_title", "rule_violation", "watch_item_id", watch_item_id=item["id"], rating=8)
    ok(ep, "mark_watched_watch_item", watch_item_id=item["id"])
    refused(ep, "rate_title", "rule_violation", "rating", watch_item_id=item["id"], rating=7.3)
    assert ok(ep, "rate_title", watch_item_id=item["id"], rating=9.5)["rating"] == 9.5


def test_an_unreleased_movie_cannot_be_marked_watched(ep: Episode) -> None:
    upcoming = next(i for i in every(ep, "list_watch_items", status="watchlist") if i["release_date"] > TODAY)
    refused(ep, "mark_watched_watch_item", "rule_violation", "watch_item_id", watch_item_id=upcoming["id"])
    refused(
        ep,
        "add_to_watchlist",
        "rule_violation",
        "owner_email",
        owner_email=POP.contacts[0].email,
        media_type="movie",
        media_id=upcoming["media_id"],
    )
    refused(
        ep,
        "add_to_watchlist",
        "not_found",
        "media_id",
        owner_email=upcoming["owner_email"],
        media_type="tv",
        media_id=upcoming["media_id"],
    )


def test_lists_hold_a_title_once_and_are_cleared_on_confirmation(ep: Episode) -> None:
    lst = MV.first(ep, "lists", public=True)
    items = every(ep, "list_list_items", list_id=lst["id"])
    refused(
        ep,
        "add_list_item",
        "conflict",
        "media_id",
        list_id=lst["id"],
        media_type="movie",
        media_id=items[0]["media_id"],
    )
    show = ok(ep, "search_tv", query="kingdom")[0]
    added = ok(ep, "add_list_item", list_id=lst["id"], media_type="tv", media_id=show["id"], comment="Binge next")
    assert added["title"] == show["name"]
    refused(ep, "clear_list", "rule_violation", "confirm", list_id=lst["id"], confirm=False)
    assert ok(ep, "clear_list", list_id=lst["id"], confirm=True)["removed"] == len(items) + 1
    assert every(ep, "list_list_items", list_id=lst["id"]) == []
    assert ok(ep, "get_list", list_id=lst["id"])["name"] == lst["name"]


def test_list_names_are_unique_per_owner_and_deleting_a_list_removes_its_items(ep: Episode) -> None:
    lst = MV.first(ep, "lists", public=False)
    refused(ep, "create_list", "conflict", "name", name=lst["name"], owner_email=lst["owner_email"])
    ok(
        ep,
        "create_list",
        name=lst["name"],
        owner_email=POP.employees[0].email if POP.employees[0].email != lst["owner_email"] else POP.employees[1].email,
    )
    item = MV.first(ep, "list_items", list_id=lst["id"])
    ok(ep, "delete_list", list_id=lst["id"])
    refused(ep, "get_list_item", "not_found", "list_item_id", list_item_id=item["id"])
