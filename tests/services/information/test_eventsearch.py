"""Showfinder: events, venues and attractions agree; sale status follows dates; alerts match events once."""

from __future__ import annotations

from compoworld import Episode
from tests.services.helpers import ServiceTools

ES = ServiceTools("eventsearch")
WORLD = ES.world
ok, refused, every = ES.ok, ES.refused, ES.every
POP = WORLD.population
STAFF = {p.email for p in POP.employees}
TODAY = "2026-03-02"


def test_attraction_and_venue_counts_match_their_events(ep: Episode) -> None:
    for a in ok(ep, "search_attractions")[:4]:
        events = ok(ep, "search_events", attraction_id=a["id"], size=100)
        assert len(events) == a["upcoming_events"] == ok(ep, "get_attraction", attraction_id=a["id"])["upcoming_events"]
        assert all(e["name"] == a["name"] and e["classification"] == a["classification"] for e in events)
    venue = ok(ep, "search_venues", city="London")[0]
    assert len(ok(ep, "search_events", venue_id=venue["id"], size=100)) == venue["upcoming_events"]
    assert ok(ep, "get_venue", venue_id=venue["id"]) == venue


def test_sale_status_follows_the_dates(ep: Episode) -> None:
    events = ok(ep, "search_events", start_date="2025-12-01", size=100)
    for e in events:
        assert e["public_sale_end"][:10] == e["local_date"]
        if e["status"] == "onsale":
            assert e["public_sale_start"][:10] <= TODAY < e["local_date"]
        if e["local_date"] < TODAY:
            assert e["status"] in {"offsale", "cancelled", "postponed"}
    assert {e["status"] for e in events} >= {"onsale", "offsale"}


def test_search_filters_by_city_segment_and_dates_and_sorts_by_date(ep: Episode) -> None:
    found = ok(ep, "search_events", city="Paris", classification_name="Music", size=100)
    assert found and all(e["city"] == "Paris" and e["classification"]["segment"] == "Music" for e in found)
    dates = [(e["local_date"], e["local_time"]) for e in found]
    assert dates == sorted(dates) and min(d for d, _ in dates) >= TODAY
    window = ok(ep, "search_events", start_date="2026-04-01", end_date="2026-04-30", size=100)
    assert window and all("2026-04-01" <= e["local_date"] <= "2026-04-30" for e in window)
    refused(ep, "search_events", "rule_violation", "end_date", start_date="2026-05-01", end_date="2026-04-01")


def test_offers_are_only_for_events_on_sale_and_follow_the_price_range(ep: Episode) -> None:
    events = ok(ep, "search_events", start_date="2025-12-01", size=100)
    on = next(e for e in events if e["status"] == "onsale")
    offers = {o["name"]: o for o in ok(ep, "get_event_offers", event_id=on["id"])}
    assert (
        offers["Standard"]["price"] == on["price_range"]["min"]
        and offers["Premium"]["price"] == on["price_range"]["max"]
    )
    assert {o["currency"] for o in offers.values()} == {on["price_range"]["currency"]}
    off = next(e for e in events if e["status"] == "offsale")
    refused(ep, "get_event_offers", "rule_violation", "event_id", event_id=off["id"])
    refused(ep, "get_event", "not_found", "event_id", event_id="vv1ZZZZZZZZZ")


def test_suggest_and_classifications(ep: Episode) -> None:
    s = ok(ep, "suggest", keyword="lun")
    assert [a["name"] for a in s["attractions"]] == ["Luna Vega"]
    assert all(e["name"] == "Luna Vega" for e in s["events"]) and s["events"]
    segments = {c["segment"] for c in ok(ep, "list_classifications")}
    assert segments == {"Music", "Sports", "Arts & Theatre", "Family"}


def test_seeded_alerts_belong_to_staff_and_matches_point_at_real_events(ep: Episode) -> None:
    alerts = every(ep, "list_event_alerts")
    assert {a["owner_email"] for a in alerts} <= STAFF and {a["status"] for a in alerts} == {"active", "paused"}
    matches = every(ep, "list_alert_matches")
    assert {m["status"] for m in matches} == {"new", "seen", "dismissed"}
    for m in matches:
        e = ok(ep, "get_event", event_id=m["event_id"])
        assert (e["name"], e["local_date"], e["city"]) == (m["event_name"], m["local_date"], m["city"])


def test_checking_records_each_new_match_once_and_skips_paused_alerts(ep: Episode) -> None:
    before = {m["event_id"] for m in every(ep, "list_alert_matches")}
    run = ok(ep, "check_event_alerts")
    assert run["checked"] == len(every(ep, "list_event_alerts", status="active"))
    assert run["matches"] and not {m["event_id"] for m in run["matches"]} & before
    for m in run["matches"]:
        alert = ok(ep, "get_event_alert", event_alert_id=m["alert_id"])
        assert alert["status"] == "active" and ok(ep, "get_event", event_id=m["event_id"])["status"] == "onsale"
    assert ok(ep, "check_event_alerts")["matches"] == []


def test_an_alert_follows_exactly_one_thing_and_respects_price_and_duplicates(ep: Episode) -> None:
    owner = POP.employees[-1].email
    refused(ep, "create_event_alert", "rule_violation", "attraction_id", owner_email=owner)
    refused(
        ep, "create_event_alert", "rule_violation", "owner_email", owner_email=POP.consumers[0].email, keyword="jazz"
    )
    refused(ep, "create_event_alert", "not_found", "attraction_id", owner_email=owner, attraction_id="K8vZ0000000")
    a = ok(ep, "search_attractions", keyword="midnight echoes")[0]
    alert = ok(ep, "create_event_alert", owner_email=owner, attraction_id=a["id"], max_price=1)
    assert alert["label"] == "The Midnight Echoes"
    refused(ep, "create_event_alert", "conflict", "attraction_id", owner_email=owner, attraction_id=a["id"])
    assert ok(ep, "check_event_alerts", owner_email=owner)["matches"] == []  # nothing that cheap
    refused(ep, "update_event_alert", "not_found", "city", event_alert_id=alert["id"], city="Atlantis")
    ok(ep, "update_event_alert", event_alert_id=alert["id"], max_price=10**9)
    found = ok(ep, "check_event_alerts", owner_email=owner)["matches"]
    on_sale = [e for e in ok(ep, "search_events", attraction_id=a["id"], size=100) if e["status"] == "onsale"]
    assert on_sale and {m["event_id"] for m in found} == {e["id"] for e in on_sale}


def test_matches_are_seen_then_dismissed_and_go_with_their_alert(ep: Episode) -> None:
    new = ES.first(ep, "alert_matches", status="new")
    assert ok(ep, "mark_seen_alert_match", alert_match_id=new["id"])["status"] == "seen"
    refused(ep, "mark_seen_alert_match", "rule_violation", "alert_match_id", alert_match_id=new["id"])
    assert ok(ep, "dismiss_alert_match", alert_match_id=new["id"])["status"] == "dismissed"
    ok(ep, "delete_event_alert", event_alert_id=new["alert_id"])
    refused(ep, "get_alert_match", "not_found", "alert_match_id", alert_match_id=new["id"])
