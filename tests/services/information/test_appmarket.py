"""Chartlens App Market: consistent charts, ranks, ratings and reviews, and tracked apps."""

from __future__ import annotations

from compoworld import Episode
from tests.services.helpers import ServiceTools

AM = ServiceTools("appmarket")
WORLD = AM.world
ok, refused, every = AM.ok, AM.refused, AM.every
POP = WORLD.population
STAFF = {p.email for p in POP.employees}
TODAY = WORLD.epoch.date()


def test_charts_rank_every_app_once_and_agree_with_listings(ep: Episode) -> None:
    for cat in ok(ep, "list_categories"):
        chart = ok(ep, "get_top_chart", store=cat["store"], category=cat["category"], chart="top-grossing")
        assert [e["rank"] for e in chart] == list(range(1, cat["app_count"] + 1))
        assert chart[0]["app_id"] == cat["leader_app_id"]
        for e in chart[:3]:
            assert ok(ep, "get_app", app_id=e["app_id"])["rank_top_grossing"] == e["rank"]
    free = ok(ep, "get_top_chart", store="ios", category="Finance")
    assert all(ok(ep, "get_app", app_id=e["app_id"])["price"] == 0 for e in free)


def test_rank_history_ends_with_todays_rank(ep: Episode) -> None:
    app = ok(ep, "search_apps", store="android", category="Travel")[0]
    history = ok(ep, "get_rank_history", app_id=app["app_id"], days=30)
    assert len(history) == 30 and history[-1]["date"] == TODAY.isoformat()
    assert history[-1]["rank"] == app["rank_top_grossing"]
    old = ok(ep, "get_top_chart", store="android", category="Travel", chart="top-grossing", date=history[0]["date"])
    assert next(e["rank"] for e in old if e["app_id"] == app["app_id"]) == history[0]["rank"]
    paid = next(a for a in ok(ep, "search_apps", limit=100) if a["price"] > 0)
    refused(ep, "get_rank_history", "rule_violation", "chart", app_id=paid["app_id"], chart="top-free")


def test_the_home_company_publishes_apps_and_reviews_come_from_consumers(ep: Episode) -> None:
    mine = ok(ep, "search_apps", publisher=POP.home.name)
    assert len(mine) >= 2
    publisher = ok(ep, "get_publisher", name=POP.home.name)
    assert set(publisher["app_ids"]) == {a["app_id"] for a in mine}
    names = {f"{p.first_name} {p.last_name[0]}." for p in POP.consumers}
    for r in ok(ep, "list_reviews", app_id=mine[0]["app_id"]):
        assert r["author"] in names and r["date"] <= TODAY.isoformat()
    refused(ep, "get_publisher", "not_found", "name", name="Nobody Apps")


def test_ratings_histogram_sums_to_the_count_and_filters_work(ep: Episode) -> None:
    app = ok(ep, "search_apps", category="Shopping")[0]
    summary = ok(ep, "get_ratings", app_id=app["app_id"])
    assert sum(summary["histogram"].values()) == app["rating_count"] == summary["rating_count"]
    reviews = ok(ep, "list_reviews", app_id=app["app_id"])
    assert [r["date"] for r in reviews] == sorted((r["date"] for r in reviews), reverse=True)
    for stars in (1, 5):
        assert all(r["rating"] == stars for r in ok(ep, "list_reviews", app_id=app["app_id"], rating=stars))
    since = reviews[3]["date"]
    assert ok(ep, "list_reviews", app_id=app["app_id"], since=since) == [r for r in reviews if r["date"] > since]


def test_competitors_share_the_store_and_category(ep: Episode) -> None:
    app = ok(ep, "search_apps", publisher=POP.home.name)[0]
    rivals = ok(ep, "list_competitors", app_id=app["app_id"])
    assert rivals and app["app_id"] not in {r["app_id"] for r in rivals}
    assert all(r["store"] == app["store"] and r["category"] == app["category"] for r in rivals)
    compared = ok(ep, "compare_apps", app_ids=[app["app_id"], rivals[0]["app_id"]])
    assert [c["rank_top_grossing"] for c in compared] == sorted(c["rank_top_grossing"] for c in compared)
    refused(ep, "compare_apps", "rule_violation", "app_ids", app_ids=[app["app_id"], app["app_id"]])


def test_estimates_only_for_complete_months_after_release(ep: Episode) -> None:
    app = ok(ep, "search_apps")[0]
    this_month = TODAY.strftime("%Y-%m")
    refused(ep, "get_download_estimates", "rule_violation", "month", app_id=app["app_id"], month=this_month)
    refused(ep, "get_download_estimates", "rule_violation", "month", app_id=app["app_id"], month="2001-01")
    last = ok(ep, "get_download_estimates", app_id=app["app_id"], month=f"{TODAY.year - 1}-12")
    assert last["downloads"] > 0 and (last["revenue_usd"] > 0) == (app["price"] > 0 or app["in_app_purchases"])


def test_keyword_ranks_put_name_matches_first(ep: Episode) -> None:
    ranks = ok(ep, "get_keyword_ranks", keyword="finance", store="android")
    assert [r["position"] for r in ranks] == list(range(1, len(ranks) + 1))
    assert any("Finance" in r["name"] for r in ranks) and "Finance" in ranks[0]["name"]
    assert ok(ep, "get_keyword_ranks", keyword="zzzz", store="ios") == []


def test_seeded_trackings_belong_to_staff_and_mark_own_apps(ep: Episode) -> None:
    tracked = every(ep, "list_tracked_apps")
    assert {t["relation"] for t in tracked} == {"own", "competitor"}
    assert {t["status"] for t in tracked} == {"active", "paused"}
    for t in tracked:
        assert t["owner_email"] in STAFF
        app = ok(ep, "get_app", app_id=t["app_id"])
        assert app["name"] == t["app_name"] and (t["relation"] == "own") == (app["publisher"] == POP.home.name)


def test_checking_a_tracked_app_reports_rank_and_new_reviews_once(ep: Episode) -> None:
    for t in every(ep, "list_tracked_apps", status="active"):
        report = ok(ep, "check_tracked_app", tracked_app_id=t["id"])
        app = ok(ep, "get_app", app_id=t["app_id"])
        assert report["rank"] == app["rank_top_grossing"] and report["previous_rank"] == t["last_rank"]
        expected = [r for r in ok(ep, "list_reviews", app_id=t["app_id"], since=t["last_review_date"])]
        assert [r["review_id"] for r in report["new_reviews"]] == [r["review_id"] for r in reversed(expected)]
        limit = t["alert_below_rank"]
        assert report["below_alert"] == (limit is not None and report["rank"] > limit)
        assert ok(ep, "check_tracked_app", tracked_app_id=t["id"])["new_reviews"] == []
    paused = AM.first(ep, "tracked_apps", status="paused")
    refused(ep, "check_tracked_app", "rule_violation", "tracked_app_id", tracked_app_id=paused["id"])


def test_tracking_is_once_per_app_and_person_and_for_staff(ep: Episode) -> None:
    t = AM.first(ep, "tracked_apps", status="active")
    refused(ep, "track_app", "conflict", "app_id", app_id=t["app_id"], owner_email=t["owner_email"])
    refused(ep, "track_app", "rule_violation", "owner_email", app_id=t["app_id"], owner_email=POP.contacts[0].email)
    refused(ep, "track_app", "not_found", "app_id", app_id="ios:999999999", owner_email=t["owner_email"])
    rival = next(a for a in ok(ep, "search_apps", limit=100) if a["publisher"] != POP.home.name)
    other = next(p.email for p in POP.employees if p.email != t["owner_email"])
    new = ok(ep, "track_app", app_id=rival["app_id"], owner_email=other, alert_below_rank=2)
    assert new["relation"] == "competitor" and new["last_rank"] == rival["rank_top_grossing"]
