"""Docketwise Court Data: consistent dockets and opinions with the world's companies as parties, and alerts."""

from __future__ import annotations

import datetime as dt

from compoworld import Episode
from tests.services.helpers import ServiceTools

CD = ServiceTools("courtdata")
WORLD = CD.world
ok, refused, every = CD.ok, CD.refused, CD.every
POP = WORLD.population
STAFF = {p.email for p in POP.employees}
TODAY = WORLD.epoch.date().isoformat()


def test_docket_entries_run_in_order_from_filing_to_termination(ep: Episode) -> None:
    for d in ok(ep, "search_dockets", limit=100):
        entries = ok(ep, "list_docket_entries", docket_id=d["id"])
        assert [e["entry_number"] for e in entries] == list(range(1, d["entry_count"] + 1))
        dates = [e["date_filed"] for e in entries]
        assert dates == sorted(dates) and dates[0] == d["date_filed"] and dates[-1] <= TODAY
        assert entries[0]["description"].startswith("COMPLAINT")
        if d["date_terminated"] is not None:
            assert entries[-1]["description"].startswith("STIPULATION of Dismissal")
            assert d["date_terminated"] == dates[-1]
        judge = ok(ep, "get_judge", judge_id=d["assigned_to_id"])
        assert judge["court_id"] == d["court_id"] and judge["name"] == d["assigned_to_str"]


def test_the_home_company_is_a_party_and_search_filters_agree(ep: Episode) -> None:
    mine = ok(ep, "search_dockets", party=POP.home.name, limit=100)
    assert mine and all(POP.home.name in (d["plaintiff"], d["defendant"]) for d in mine)
    open_ = ok(ep, "search_dockets", party=POP.home.name, status="open", limit=100)
    assert {d["id"] for d in open_} == {d["id"] for d in mine if d["date_terminated"] is None}
    for d in ok(ep, "search_dockets", court_id="cand", nature_of_suit="patent", limit=100):
        assert d["court_id"] == "cand" and d["nature_of_suit"] == "830 Patent"
    refused(ep, "search_dockets", "not_found", "court_id", court_id="zzz")
    refused(ep, "search_dockets", "rule_violation", "filed_before", filed_after="2024-05-01", filed_before="2024-01-01")


def test_opinions_cite_only_earlier_ones_and_counts_match(ep: Episode) -> None:
    top = ok(ep, "search_opinions", order_by="citeCount desc", limit=5)
    assert top[0]["citation_count"] > 0
    for o in top:
        citing = ok(ep, "list_citing_opinions", opinion_id=o["id"])
        assert len(citing) == o["citation_count"]
        assert all(o["id"] in c["opinions_cited"] and c["date_filed"] > o["date_filed"] for c in citing)
    for o in ok(ep, "search_opinions", limit=100):
        if o["lower_court_docket_id"] is not None:
            d = ok(ep, "get_docket", docket_id=o["lower_court_docket_id"])
            assert d["case_name"] == o["case_name"] and d["date_terminated"] < o["date_filed"]
    refused(ep, "get_opinion", "not_found", "opinion_id", opinion_id=1)


def test_seeded_alerts_belong_to_staff_and_name_real_dockets(ep: Episode) -> None:
    alerts = every(ep, "list_docket_alerts")
    assert {a["status"] for a in alerts} == {"subscribed", "unsubscribed"}
    for a in alerts:
        assert a["subscriber_email"] in STAFF
        d = ok(ep, "get_docket", docket_id=a["docket_id"])
        assert d["case_name"] == a["case_name"] and a["last_entry_number"] <= d["entry_count"]
    assert all(s["owner_email"] in STAFF for s in every(ep, "list_search_alerts"))


def test_checking_a_docket_alert_reports_new_entries_once(ep: Episode) -> None:
    for a in every(ep, "list_docket_alerts", status="subscribed"):
        d = ok(ep, "get_docket", docket_id=a["docket_id"])
        if d["entry_count"] > a["last_entry_number"]:
            break
    new = ok(ep, "check_docket_alert", docket_alert_id=a["id"])
    assert [e["entry_number"] for e in new] == list(range(a["last_entry_number"] + 1, d["entry_count"] + 1))
    assert ok(ep, "get_docket_alert", docket_alert_id=a["id"])["last_entry_number"] == d["entry_count"]
    assert ok(ep, "check_docket_alert", docket_alert_id=a["id"]) == []


def test_an_unsubscribed_alert_is_not_checked_until_resubscribed(ep: Episode) -> None:
    a = CD.first(ep, "docket_alerts", status="unsubscribed")
    refused(ep, "check_docket_alert", "rule_violation", "docket_alert_id", docket_alert_id=a["id"])
    ok(ep, "resubscribe_docket_alert", docket_alert_id=a["id"])
    ok(ep, "check_docket_alert", docket_alert_id=a["id"])
    refused(ep, "resubscribe_docket_alert", "rule_violation", "docket_alert_id", docket_alert_id=a["id"])


def test_subscriptions_are_once_per_docket_for_staff_and_at_most_five(ep: Episode) -> None:
    a = CD.first(ep, "docket_alerts", status="subscribed")
    me = a["subscriber_email"]
    refused(ep, "subscribe_docket", "conflict", "docket_id", docket_id=a["docket_id"], subscriber_email=me)
    dockets = [d["id"] for d in ok(ep, "search_dockets", limit=100)]
    refused(
        ep,
        "subscribe_docket",
        "rule_violation",
        "subscriber_email",
        docket_id=dockets[0],
        subscriber_email=POP.contacts[0].email,
    )
    taken = {x["docket_id"] for x in every(ep, "list_docket_alerts", subscriber_email=me)}
    free = [d for d in dockets if d not in taken]
    while len(every(ep, "list_docket_alerts", subscriber_email=me, status="subscribed")) < 5:
        created = ok(ep, "subscribe_docket", docket_id=free.pop(), subscriber_email=me)
        assert created["last_entry_number"] == ok(ep, "get_docket", docket_id=created["docket_id"])["entry_count"]
    refused(ep, "subscribe_docket", "rule_violation", "subscriber_email", docket_id=free.pop(), subscriber_email=me)


def test_a_search_alert_reports_new_matching_opinions_once(ep: Episode) -> None:
    alert = CD.first(ep, "search_alerts", rate="wly")
    since = alert["last_run_on"]
    expected = {
        o["id"]
        for o in ok(ep, "search_opinions", q=alert["query"], filed_after=since, limit=100)
        if o["date_filed"] > since
    }
    hits = ok(ep, "run_search_alert", search_alert_id=alert["id"])
    assert {o["id"] for o in hits} == expected and expected
    after = ok(ep, "get_search_alert", search_alert_id=alert["id"])
    assert after["last_run_on"] == TODAY and after["hits_total"] == alert["hits_total"] + len(hits)
    assert ok(ep, "run_search_alert", search_alert_id=alert["id"]) == []


def test_search_alerts_that_are_off_do_not_run_and_owners_are_staff(ep: Episode) -> None:
    off = CD.first(ep, "search_alerts", rate="off")
    refused(ep, "run_search_alert", "rule_violation", "search_alert_id", search_alert_id=off["id"])
    ok(ep, "update_search_alert", search_alert_id=off["id"], rate="dly")
    ok(ep, "run_search_alert", search_alert_id=off["id"])
    args = {"name": "x", "query": off["query"], "court_id": off["court_id"]}
    refused(ep, "create_search_alert", "conflict", "query", owner_email=off["owner_email"], **args)
    refused(ep, "create_search_alert", "rule_violation", "owner_email", owner_email=POP.contacts[0].email, **args)
    new = ok(ep, "create_search_alert", owner_email=POP.employees[0].email, name="New", query="trademark")
    assert new["last_run_on"] == TODAY and dt.date.fromisoformat(new["last_run_on"])
