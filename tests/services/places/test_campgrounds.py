"""Trailhead: sites fit rigs and parties, stays do not overlap, season limits, cancels, add-ons, seasonals."""

from __future__ import annotations

import datetime as dt
from typing import Any

from compoworld import Episode
from tests.services.helpers import ServiceTools

CAMP = ServiceTools("campgrounds")
WORLD = CAMP.world
ok, refused, every, first = CAMP.ok, CAMP.refused, CAMP.every, CAMP.first
POP = WORLD.population
TODAY = WORLD.epoch.date()


def day(n: int) -> str:
    return (TODAY + dt.timedelta(days=n)).isoformat()


def site(ep: Episode, name: str) -> dict[str, Any]:
    return first(ep, "sites", query=name)


def guest(ep: Episode) -> dict[str, Any]:
    return every(ep, "list_guests")[0]


def test_seeded_guests_are_consumers_and_stays_fit_their_sites(ep: Episode) -> None:
    consumers = {p.email: p.name for p in POP.consumers}
    for g in every(ep, "list_guests"):
        assert consumers[g["email"]] == g["name"]
    for r in every(ep, "list_reservations"):
        s = ok(ep, "get_site", site_id=r["site_id"])
        assert r["adults"] + r["children"] <= s["max_occupancy"]
        assert not r["pets"] or s["pets_allowed"]


def test_the_rig_and_party_must_fit_the_site(ep: Episode) -> None:
    g = guest(ep)["id"]
    base = {"guest_id": g, "arrival": day(40), "departure": day(42)}
    refused(
        ep,
        "book_site",
        "rule_violation",
        "rig_length_ft",
        site_id=site(ep, "A-4")["id"],
        adults=2,
        rig_type="motorhome",
        rig_length_ft=35,
        **base,
    )
    refused(
        ep,
        "book_site",
        "rule_violation",
        "site_id",
        site_id=site(ep, "T-1")["id"],
        adults=2,
        rig_type="motorhome",
        rig_length_ft=20,
        **base,
    )
    refused(ep, "book_site", "rule_violation", "adults", site_id=site(ep, "C-1")["id"], adults=3, children=2, **base)
    refused(ep, "book_site", "rule_violation", "pets", site_id=site(ep, "C-1")["id"], adults=2, pets=1, **base)
    made = ok(
        ep, "book_site", site_id=site(ep, "A-4")["id"], adults=2, rig_type="travel_trailer", rig_length_ft=22, **base
    )
    assert made["lodging_total"] == 2 * site(ep, "A-4")["nightly_rate"]


def test_stays_do_not_overlap_and_stay_in_season(ep: Episode) -> None:
    park = every(ep, "list_parks")[0]
    t1 = site(ep, "T-1")["id"]
    base = {"site_id": t1, "guest_id": guest(ep)["id"], "adults": 2, "rig_type": "tent"}
    ok(ep, "book_site", arrival=day(50), departure=day(53), **base)
    refused(ep, "book_site", "conflict", "site_id", arrival=day(52), departure=day(54), **base)
    refused(ep, "book_site", "rule_violation", "arrival", arrival=day(-2), departure=day(1), **base)
    after = (dt.date.fromisoformat(park["season_closes"]) + dt.timedelta(days=1)).isoformat()
    refused(ep, "book_site", "rule_violation", "arrival", arrival=day(190), departure=after, **base)
    refused(
        ep,
        "book_site",
        "rule_violation",
        "site_id",
        arrival=day(60),
        departure=day(61),
        **(base | {"site_id": first(ep, "sites", status="closed")["id"]}),
    )


def test_check_in_on_the_arrival_day_and_check_out_frees_the_site(ep: Episode) -> None:
    later = next(r for r in every(ep, "list_reservations", status="reserved") if r["arrival"] > day(0))
    refused(ep, "check_in", "rule_violation", "reservation_id", reservation_id=later["id"])
    now = next(r for r in every(ep, "list_reservations", status="reserved") if r["arrival"] == day(0))
    assert ok(ep, "check_in", reservation_id=now["id"])["status"] == "checked_in"
    staying = next(
        r
        for r in every(ep, "list_reservations", status="checked_in")
        if r["kind"] == "transient" and r["id"] != now["id"]
    )
    refused(ep, "close_site", "rule_violation", "site_id", site_id=staying["site_id"])
    out = ok(ep, "check_out", reservation_id=staying["id"])
    assert out["status"] == "checked_out" and out["departure"] == day(0)
    assert ok(ep, "close_site", site_id=staying["site_id"])["status"] == "closed"


def test_cancelling_early_costs_a_fee_and_late_the_first_night(ep: Episode) -> None:
    far = next(r for r in every(ep, "list_reservations", status="reserved") if r["arrival"] > day(7))
    near = next(r for r in every(ep, "list_reservations", status="reserved") if r["arrival"] <= day(7))
    assert ok(ep, "cancel_reservation", reservation_id=far["id"])["cancellation_fee"] == 1000
    rate = ok(ep, "get_site", site_id=near["site_id"])["nightly_rate"]
    assert ok(ep, "cancel_reservation", reservation_id=near["id"])["cancellation_fee"] == rate
    refused(ep, "cancel_reservation", "rule_violation", "reservation_id", reservation_id=near["id"])


def test_changing_dates_reprices_and_respects_other_stays(ep: Episode) -> None:
    r = next(x for x in every(ep, "list_reservations", status="reserved") if x["arrival"] == day(3))
    rate = ok(ep, "get_site", site_id=r["site_id"])["nightly_rate"]
    refused(ep, "change_dates", "rule_violation", "departure", reservation_id=r["id"], arrival=day(9), departure=day(9))
    moved = ok(ep, "change_dates", reservation_id=r["id"], arrival=day(30), departure=day(34))
    assert moved["lodging_total"] == 4 * rate
    g = guest(ep)["id"]
    ok(
        ep,
        "book_site",
        site_id=r["site_id"],
        guest_id=g,
        arrival=day(40),
        departure=day(41),
        adults=2,
        rig_type="travel_trailer",
        rig_length_ft=20,
    )
    refused(ep, "change_dates", "conflict", "arrival", reservation_id=r["id"], arrival=day(39), departure=day(41))


def test_add_ons_are_limited_by_daily_stock(ep: Episode) -> None:
    kayak = first(ep, "addons", query="Kayak")
    stays = every(ep, "list_reservations", status="reserved")
    r = stays[0]
    for _ in range(kayak["daily_stock"]):
        r = ok(ep, "add_addon", reservation_id=r["id"], addon_id=kayak["id"])
    assert r["addons_total"] >= kayak["daily_stock"] * kayak["price"]
    refused(ep, "add_addon", "conflict", "addon_id", reservation_id=r["id"], addon_id=kayak["id"])


def test_seasonal_campers_hold_a_site_all_season(ep: Episode) -> None:
    park = every(ep, "list_parks")[0]
    a2 = site(ep, "A-2")
    made = ok(ep, "book_seasonal", site_id=a2["id"], guest_id=guest(ep)["id"], rig_type="fifth_wheel", rig_length_ft=36)
    assert (made["kind"], made["departure"], made["lodging_total"]) == (
        "seasonal",
        park["season_closes"],
        a2["seasonal_rate"],
    )
    refused(
        ep,
        "book_site",
        "conflict",
        "site_id",
        site_id=a2["id"],
        guest_id=guest(ep)["id"],
        arrival=day(100),
        departure=day(101),
        adults=2,
        rig_type="motorhome",
        rig_length_ft=30,
    )
    refused(
        ep,
        "book_seasonal",
        "rule_violation",
        "site_id",
        site_id=site(ep, "T-1")["id"],
        guest_id=guest(ep)["id"],
        rig_type="tent",
        rig_length_ft=0,
    )
    refused(
        ep,
        "change_dates",
        "rule_violation",
        "reservation_id",
        reservation_id=made["id"],
        arrival=day(10),
        departure=day(20),
    )


def test_find_open_sites_skips_booked_and_short_sites(ep: Episode) -> None:
    park = every(ep, "list_parks")[0]
    found = ok(
        ep, "find_open_sites", park_id=park["id"], arrival=day(3), departure=day(5), site_type="rv", rig_length_ft=28
    )
    names = [s["name"] for s in found]
    assert "A-4" not in names and "A-1" not in names and "A-3" not in names and "A-2" in names
