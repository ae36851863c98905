"""Patentscope: grants on Tuesdays, a consistent citation graph, the world's firms as assignees, watch lists."""

from __future__ import annotations

import datetime as dt
from typing import Any

from compoworld import Episode
from tests.services.helpers import ServiceTools

PAT = ServiceTools("patents")
WORLD = PAT.world
ok, refused, every = PAT.ok, PAT.refused, PAT.every
POP = WORLD.population
STAFF = {p.email for p in POP.employees}
TODAY = WORLD.epoch.date()


def assignee_named(ep: Episode, name: str) -> dict[str, Any]:
    found: list[dict[str, Any]] = ok(ep, "search_assignees", organization=name)
    [a] = [a for a in found if a["organization"] == name]
    return a


def test_grants_issue_on_tuesdays_after_filing_and_cite_only_earlier_patents(ep: Episode) -> None:
    for p in ok(ep, "search_patents", limit=100):
        day = dt.date.fromisoformat(p["patent_date"])
        assert day.weekday() == 1 and day <= TODAY and p["filing_date"] < p["patent_date"]
        for c in p["cited_patent_ids"]:
            assert ok(ep, "get_patent", patent_id=c)["patent_date"] < p["patent_date"]
        assert p["patent_type"] == ("design" if p["patent_id"].startswith("D") else "utility")


def test_forward_citations_match_the_count(ep: Episode) -> None:
    top = ok(ep, "search_patents", sort="num_times_cited_by_us_patents", limit=5)
    assert top[0]["num_times_cited_by_us_patents"] > 0
    for p in top:
        citing = ok(ep, "list_cited_by", patent_id=p["patent_id"])
        assert len(citing) == p["num_times_cited_by_us_patents"]
        assert all(p["patent_id"] in c["cited_patent_ids"] for c in citing)
        assert [c["patent_id"] for c in ok(ep, "list_citations", patent_id=p["patent_id"])] == sorted(
            p["cited_patent_ids"], key=lambda x: ok(ep, "get_patent", patent_id=x)["patent_date"]
        )
    refused(ep, "get_patent", "not_found", "patent_id", patent_id="1234567")


def test_the_home_company_is_an_assignee_with_its_engineers_as_inventors(ep: Episode) -> None:
    home = assignee_named(ep, POP.home.name)
    assert home["country"] == POP.home.address.country and home["num_patents"] > 0
    engineers = {p.email for p in POP.staff("Engineering")}
    for p in ok(ep, "search_patents", assignee_id=home["assignee_id"], limit=100):
        for i in p["inventors"]:
            inv = ok(ep, "get_inventor", inventor_id=i["inventor_id"])
            assert inv["email"] in engineers and inv["assignee_id"] == home["assignee_id"]


def test_counts_by_year_and_class_add_up_to_the_profiles(ep: Episode) -> None:
    for a in ok(ep, "search_assignees")[:4]:
        years = ok(ep, "count_patents_by_year", assignee_id=a["assignee_id"])
        assert sum(y["count"] for y in years) == a["num_patents"]
        assert len(ok(ep, "search_patents", assignee_id=a["assignee_id"], limit=100)) == a["num_patents"]
    classes = ok(ep, "list_cpc_classes")
    assert sum(c["num_patents"] for c in classes) == sum(a["num_patents"] for a in ok(ep, "search_assignees"))
    assert {c["cpc_subclass_id"][0] for c in ok(ep, "list_cpc_classes", section="G")} == {"G"}
    refused(ep, "search_patents", "not_found", "cpc_subclass", cpc_subclass="H99Z")
    refused(ep, "search_patents", "rule_violation", "granted_to", granted_from="2024-01-01", granted_to="2023-01-01")


def test_seeded_watch_lists_belong_to_staff_and_watch_real_assignees(ep: Episode) -> None:
    lists = every(ep, "list_watchlists")
    assert {w["status"] for w in lists} == {"active", "archived"} and all(w["owner_email"] in STAFF for w in lists)
    for w in every(ep, "list_watches"):
        assert ok(ep, "get_assignee", assignee_id=w["assignee_id"])["organization"] == w["organization"]
    for a in every(ep, "list_alerts"):
        w = ok(ep, "get_watch", watch_id=a["watch_id"])
        p = ok(ep, "get_patent", patent_id=a["patent_id"])
        assert p["assignee_id"] == w["assignee_id"] and a["patent_date"] <= w["last_checked_on"]


def test_checking_a_watch_raises_alerts_for_grants_since_the_last_check_once(ep: Episode) -> None:
    wl = PAT.first(ep, "watchlists", status="active")
    watch = PAT.first(ep, "watches", watchlist_id=wl["id"], status="active")
    since = watch["last_checked_on"]
    expected = {
        p["patent_id"]
        for p in ok(ep, "search_patents", assignee_id=watch["assignee_id"], limit=100)
        if p["patent_date"] > since
    }
    raised = ok(ep, "check_watch", watch_id=watch["id"])
    assert {a["patent_id"] for a in raised} == expected and all(a["status"] == "new" for a in raised)
    assert ok(ep, "get_watch", watch_id=watch["id"])["last_checked_on"] == TODAY.isoformat()
    assert ok(ep, "check_watch", watch_id=watch["id"]) == []


def test_a_paused_watch_is_not_checked_until_resumed(ep: Episode) -> None:
    watch = PAT.first(ep, "watches", status="paused")
    refused(ep, "check_watch", "rule_violation", "watch_id", watch_id=watch["id"])
    ok(ep, "resume_watch", watch_id=watch["id"])
    ok(ep, "check_watch", watch_id=watch["id"])


def test_an_assignee_is_watched_once_per_list_and_archived_lists_are_frozen(ep: Episode) -> None:
    wl = PAT.first(ep, "watchlists", status="active")
    watched = PAT.first(ep, "watches", watchlist_id=wl["id"])
    refused(ep, "add_watch", "conflict", "assignee_id", watchlist_id=wl["id"], assignee_id=watched["assignee_id"])
    home = assignee_named(ep, POP.home.name)
    refused(
        ep,
        "add_watch",
        "not_found",
        "cpc_subclass",
        watchlist_id=wl["id"],
        assignee_id=home["assignee_id"],
        cpc_subclass="H99Z",
    )
    archived = PAT.first(ep, "watchlists", status="archived")
    refused(
        ep, "add_watch", "rule_violation", "watchlist_id", watchlist_id=archived["id"], assignee_id=home["assignee_id"]
    )
    old = PAT.first(ep, "watches", watchlist_id=archived["id"])
    refused(ep, "check_watch", "rule_violation", "watch_id", watch_id=old["id"])
    refused(ep, "pause_watch", "rule_violation", "watch_id", watch_id=old["id"])


def test_alerts_are_reviewed_by_staff_with_a_note_or_dismissed_once(ep: Episode) -> None:
    alert = PAT.first(ep, "alerts", status="new")
    outsider = POP.contacts[0].email
    refused(ep, "review_alert", "rule_violation", "reviewed_by", alert_id=alert["id"], reviewed_by=outsider, note="x")
    refused(
        ep, "review_alert", "rule_violation", "note", alert_id=alert["id"], reviewed_by=POP.employees[0].email, note=" "
    )
    done = ok(ep, "review_alert", alert_id=alert["id"], reviewed_by=POP.employees[0].email, note="Send to counsel")
    assert (done["status"], done["reviewed_by"]) == ("reviewed", POP.employees[0].email)
    refused(
        ep,
        "review_alert",
        "rule_violation",
        "alert_id",
        alert_id=alert["id"],
        reviewed_by=POP.employees[0].email,
        note="again",
    )
    refused(ep, "dismiss_alert", "rule_violation", "alert_id", alert_id=alert["id"])
