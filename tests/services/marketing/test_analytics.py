"""Trailmark Analytics: the five-day tracking window, lexicon enforcement, profiles and merges, cohorts, funnels."""

from __future__ import annotations

from typing import Any

from compoworld import Episode
from compoworld.world import commerce as links
from tests.services.helpers import ServiceTools

ANALYTICS = ServiceTools("analytics")
WORLD = ANALYTICS.world
ok, refused, every, items, first = ANALYTICS.ok, ANALYTICS.refused, ANALYTICS.every, ANALYTICS.items, ANALYTICS.first
POP = WORLD.population
CUR = POP.home.place.currency


def project(ep: Episode, schema: bool) -> dict[str, Any]:
    return next(p for p in items(ep, "projects") if p["enforce_schema"] == schema)


def funnel(ep: Episode, name: str) -> dict[str, Any]:
    return next(f for f in items(ep, "funnels") if f["name"] == name)


def cohort(ep: Episode, name: str) -> dict[str, Any]:
    return next(c for c in items(ep, "cohorts") if c["name"] == name)


def track(ep: Episode, pid: str, event: str, did: str, **extra: Any) -> dict[str, Any]:
    return dict(ok(ep, "track_event", project_id=pid, event=event, distinct_id=did, **extra))


# -- the world ------------------------------------------------------------------------------


def test_profiles_are_population_people_and_orders_are_their_shop_orders() -> None:
    ep = Episode(WORLD)
    shop, app = project(ep, False), project(ep, True)
    consumers = {p.email: i for i, p in enumerate(POP.consumers)}
    profiles = {p["distinct_id"]: p for p in every(ep, "list_profiles", project_id=shop["id"])}
    for e in every(ep, "list_events", project_id=shop["id"], name="order_completed"):
        i = int(e["distinct_id"].split("-")[1]) - 1
        assert e["order_number"] == links.first_order_number(i)
        assert e["revenue"] is not None and e["currency"] == CUR
        email = profiles[e["distinct_id"]]["email"]
        assert email is None or consumers[email] == i
    companies = {c.name for c in POP.customers}
    for p in every(ep, "list_profiles", project_id=app["id"]):
        assert p["distinct_id"] == p["email"] and p["company"] in companies
    for p in list(profiles.values())[:10]:
        times = [e["time"] for e in every(ep, "list_events", project_id=shop["id"], distinct_id=p["distinct_id"])]
        assert (p["first_seen"], p["last_seen"]) == (min(times), max(times))


# -- tracking -------------------------------------------------------------------------------


def test_events_are_tracked_for_the_last_five_days_only(ep: Episode) -> None:
    pid = project(ep, False)["id"]
    args = dict(project_id=pid, event="page_viewed", distinct_id="user-0001")
    refused(ep, "track_event", "rule_violation", "time", time="2026-03-02T10:00:00Z", **args)
    refused(ep, "track_event", "rule_violation", "time", time="2026-02-24T08:00:00Z", **args)
    refused(ep, "track_event", "rule_violation", "event", **{**args, "event": "$pageview"})
    refused(ep, "track_event", "rule_violation", "currency", revenue=1000, **args)
    e = track(ep, pid, "page_viewed", "user-0001", time="2026-02-26T10:00:00Z")
    assert e["time"] == "2026-02-26T10:00:00Z"
    track(ep, pid, "page_viewed", "user-0001")
    assert first(ep, "profiles", project_id=pid, distinct_id="user-0001")["last_seen"] > "2026-03-02T09:00:00Z"


def test_a_schema_enforcing_project_takes_only_visible_lexicon_events(ep: Episode) -> None:
    app = project(ep, True)
    did = first(ep, "profiles", project_id=app["id"])["distinct_id"]
    refused(ep, "track_event", "rule_violation", "event", project_id=app["id"], event="button_clicked", distinct_id=did)
    refused(ep, "track_event", "rule_violation", "event", project_id=app["id"], event="legacy_export", distinct_id=did)
    ok(ep, "create_event_definition", project_id=app["id"], name="button_clicked", description="A button")
    track(ep, app["id"], "button_clicked", did)
    refused(ep, "create_event_definition", "conflict", "name", project_id=app["id"], name="button_clicked")
    refused(ep, "create_event_definition", "rule_violation", "name", project_id=app["id"], name="$session")


# -- profiles -------------------------------------------------------------------------------


def test_profiles_are_set_and_an_email_belongs_to_one_profile(ep: Episode) -> None:
    pid = project(ep, False)["id"]
    taken = next(p for p in every(ep, "list_profiles", project_id=pid) if p["email"])
    refused(ep, "set_profile", "conflict", "email", project_id=pid, distinct_id="user-9999", email=taken["email"])
    made = ok(ep, "set_profile", project_id=pid, distinct_id="user-9999", name="Nia Lopez", country="FR")
    assert (made["name"], made["email"], made["first_seen"]) == ("Nia Lopez", None, None)
    again = ok(ep, "set_profile", project_id=pid, distinct_id="user-9999", plan="pro")
    assert (again["name"], again["plan"]) == ("Nia Lopez", "pro")
    refused(ep, "set_profile", "rule_violation", None, project_id=pid, distinct_id="user-9999")


def test_merging_moves_an_anonymous_ids_events_to_the_known_user(ep: Episode) -> None:
    pid = project(ep, False)["id"]
    profiles = every(ep, "list_profiles", project_id=pid)
    anon = next(p for p in profiles if p["email"] is None)
    known = next(p for p in profiles if p["email"] is not None)
    before = len(every(ep, "list_events", project_id=pid, distinct_id=known["distinct_id"]))
    anon_events = len(every(ep, "list_events", project_id=pid, distinct_id=anon["distinct_id"]))
    args = dict(project_id=pid, distinct_id=known["distinct_id"])
    refused(ep, "merge_identities", "rule_violation", "anonymous_id", anonymous_id=known["distinct_id"], **args)
    other_known = next(p for p in profiles if p["email"] is not None and p["id"] != known["id"])
    refused(ep, "merge_identities", "rule_violation", "anonymous_id", anonymous_id=other_known["distinct_id"], **args)
    res = ok(ep, "merge_identities", anonymous_id=anon["distinct_id"], **args)
    assert res["events_moved"] == anon_events
    assert len(every(ep, "list_events", project_id=pid, distinct_id=known["distinct_id"])) == before + anon_events
    assert items(ep, "profiles", project_id=pid, distinct_id=anon["distinct_id"]) == []


def test_deleting_a_profile_deletes_its_events(ep: Episode) -> None:
    pid = project(ep, False)["id"]
    p = first(ep, "profiles", project_id=pid)
    assert every(ep, "list_events", project_id=pid, distinct_id=p["distinct_id"])
    ok(ep, "delete_profile", profile_id=p["id"])
    assert every(ep, "list_events", project_id=pid, distinct_id=p["distinct_id"]) == []


# -- cohorts, funnels, segmentation ---------------------------------------------------------


def test_cohort_members_did_the_event_often_enough_lately(ep: Episode) -> None:
    c = cohort(ep, "Engaged pro accounts")
    counts: dict[str, int] = {}
    for e in every(ep, "list_events", project_id=c["project_id"], name="logged_in"):
        if e["time"] >= "2026-01-31T09:00:00Z":
            counts[e["distinct_id"]] = counts.get(e["distinct_id"], 0) + 1
    pro = {p["distinct_id"] for p in every(ep, "list_profiles", project_id=c["project_id"], plan="pro")}
    expected = sorted(d for d, n in counts.items() if n >= 4 and d in pro)
    got = ok(ep, "cohort_members", cohort_id=c["id"])
    assert got["distinct_ids"] == expected and got["emails"] == expected
    buyers = cohort(ep, "Recent buyers")
    n = ok(ep, "cohort_members", cohort_id=buyers["id"])["count"]
    track(ep, buyers["project_id"], "order_completed", "user-new", revenue=5000, currency=CUR)
    assert ok(ep, "cohort_members", cohort_id=buyers["id"])["count"] == n + 1


def test_a_funnel_counts_users_doing_the_steps_in_order(ep: Episode) -> None:
    f = funnel(ep, "Browse to purchase")
    period = dict(funnel_id=f["id"], from_date="2026-02-01", to_date="2026-03-02")
    before = [s["users"] for s in ok(ep, "compute_funnel", **period)["steps"]]
    assert before == sorted(before, reverse=True) and before[-1] > 0
    for step in f["steps"]:
        track(ep, f["project_id"], step, "walker")
    track(ep, f["project_id"], "order_completed", "jumper")
    track(ep, f["project_id"], "product_viewed", "jumper")
    res = ok(ep, "compute_funnel", **period)
    assert [s["users"] for s in res["steps"]] == [before[0] + 2, *(n + 1 for n in before[1:])]
    assert res["overall_conversion"] == round(100 * (before[-1] + 1) / (before[0] + 2), 1)
    refused(
        ep,
        "compute_funnel",
        "rule_violation",
        "to_date",
        funnel_id=f["id"],
        from_date="2026-03-02",
        to_date="2026-03-01",
    )


def test_the_conversion_window_limits_a_funnel(ep: Episode) -> None:
    shop = project(ep, False)
    quick = ok(
        ep,
        "create_funnel",
        project_id=shop["id"],
        name="Same-day purchase",
        steps=["signed_up", "order_completed"],
        conversion_window_days=1,
    )
    track(ep, shop["id"], "signed_up", "slow", time="2026-02-26T09:00:00Z")
    track(ep, shop["id"], "order_completed", "slow")
    track(ep, shop["id"], "signed_up", "fast", time="2026-03-01T12:00:00Z")
    track(ep, shop["id"], "order_completed", "fast")
    res = ok(ep, "compute_funnel", funnel_id=quick["id"], from_date="2026-02-20", to_date="2026-03-02")
    assert [s["users"] for s in res["steps"]] == [2, 1]
    refused(ep, "create_funnel", "rule_violation", "steps.1", project_id=shop["id"], name="Loop", steps=["a", "a"])
    app = project(ep, True)
    refused(
        ep, "create_funnel", "rule_violation", "steps.1", project_id=app["id"], name="X", steps=["logged_in", "nope"]
    )


def test_segmentation_counts_events_per_day_with_revenue() -> None:
    ep = Episode(WORLD)
    pid = project(ep, False)["id"]
    seg = ok(ep, "segmentation", project_id=pid, event="order_completed", from_date="2026-02-01", to_date="2026-03-02")
    evs = [e for e in every(ep, "list_events", project_id=pid, name="order_completed") if e["time"] >= "2026-02-01"]
    assert seg["total_events"] == len(evs) == sum(d["events"] for d in seg["days"])
    assert len(seg["days"]) == 30
    assert seg["revenue"] == [{"currency": CUR, "amount": sum(e["revenue"] for e in evs)}]
