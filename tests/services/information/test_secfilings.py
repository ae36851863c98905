"""Edgarline: the world's companies as registrants, filings on schedule, XBRL facts that agree, watch lists."""

from __future__ import annotations

import datetime as dt
from typing import Any

from compoworld import Episode
from tests.services.helpers import ServiceTools

SEC = ServiceTools("secfilings")
WORLD = SEC.world
ok, refused, every = SEC.ok, SEC.refused, SEC.every
POP = WORLD.population
STAFF = {p.email for p in POP.employees}
TODAY = WORLD.epoch.date()


def registrants(ep: Episode, domestic: bool) -> list[dict[str, Any]]:
    kind = "domestic" if domestic else "foreign_private_issuer"
    return [c for c in ok(ep, "search_companies") if c["filer_category"] == kind]


def test_every_world_company_is_a_registrant_under_its_stock_ticker(ep: Episode) -> None:
    from compoworld.services.information.stocks import ticker_of

    found = {c["name"]: c for c in ok(ep, "search_companies")}
    assert set(found) == {c.name for c in POP.companies}
    for company in POP.companies:
        reg = found[company.name]
        assert reg["tickers"] == [ticker_of(POP, company)]
        assert reg["filer_category"] == ("domestic" if company.address.country == "US" else "foreign_private_issuer")
        [same] = ok(ep, "search_companies", ticker=reg["tickers"][0])
        assert same["cik"] == reg["cik"]


def test_filers_file_their_own_forms_on_business_days_never_in_the_future(ep: Episode) -> None:
    for domestic, allowed in ((True, {"10-K", "10-Q", "8-K", "DEF 14A"}), (False, {"20-F", "6-K"})):
        for reg in registrants(ep, domestic)[:3]:
            sub = ok(ep, "get_submissions", cik=reg["cik"])
            forms = {f["form"] for f in sub["recent_filings"]}
            assert forms <= allowed and sub["total_filings"] >= len(sub["recent_filings"]) > 0
            for f in sub["recent_filings"]:
                day = dt.date.fromisoformat(f["filing_date"])
                assert day.weekday() < 5 and day <= TODAY
                if f["report_date"] is not None:
                    assert f["report_date"] < f["filing_date"]


def test_each_periodic_report_follows_its_earnings_release(ep: Episode) -> None:
    reg = registrants(ep, True)[0]
    releases = {f["report_date"]: f for f in ok(ep, "list_filings", cik=reg["cik"], form="8-K", limit=100)}
    reports = ok(ep, "list_filings", cik=reg["cik"], form="10-Q", limit=100)
    reports += ok(ep, "list_filings", cik=reg["cik"], form="10-K", limit=100)
    assert reports
    for r in reports:
        release = releases[r["report_date"]]
        assert "2.02" in release["items"] and release["filing_date"] < r["filing_date"]
        assert ok(ep, "get_filing", accession_number=r["accession_number"]) == r
    refused(ep, "get_filing", "not_found", "accession_number", accession_number="0000000001-24-000001")


def test_xbrl_facts_come_from_filed_reports_and_balance(ep: Episode) -> None:
    reg = registrants(ep, True)[0]
    facts = ok(ep, "get_company_facts", cik=reg["cik"])
    by_accn: dict[str, dict[str, float]] = {}
    for f in facts:
        filing = ok(ep, "get_filing", accession_number=f["accn"])
        assert (filing["form"], filing["cik"], filing["filing_date"]) == (f["form"], reg["cik"], f["filed"])
        by_accn.setdefault(f["accn"], {})[f["concept"]] = f["val"]
    for values in by_accn.values():
        assert values["StockholdersEquity"] == values["Assets"] - values["Liabilities"]
    revenue = ok(ep, "get_company_concept", cik=reg["cik"], concept="Revenues")
    assert revenue == [f for f in facts if f["concept"] == "Revenues"]
    last = TODAY.year - 1
    assert {f["fy"] for f in ok(ep, "get_company_facts", cik=reg["cik"], fiscal_year=last)} == {last}


def test_a_frame_gathers_each_companys_fact_for_the_period(ep: Episode) -> None:
    frame = f"CY{TODAY.year - 1}Q2"
    result = ok(ep, "get_frame", concept="Revenues", frame=frame)
    assert len(result["entries"]) == len(ok(ep, "search_companies"))
    vals = [e["val"] for e in result["entries"]]
    assert vals == sorted(vals, reverse=True)
    for e in result["entries"][:3]:
        [fact] = [f for f in ok(ep, "get_company_concept", cik=e["cik"], concept="Revenues") if f["frame"] == frame]
        assert (fact["val"], fact["accn"]) == (e["val"], e["accn"])
    refused(ep, "get_frame", "rule_violation", "frame", concept="Assets", frame=f"CY{TODAY.year - 1}")
    refused(ep, "get_frame", "rule_violation", "frame", concept="Revenues", frame=f"CY{TODAY.year - 1}Q4I")


def test_full_text_search_finds_officer_changes_naming_the_companys_people(ep: Episode) -> None:
    hits = ok(ep, "full_text_search", q="departure officers", forms=["8-K"], limit=100)
    assert hits and all("5.02" in h["items"] and h["form"] == "8-K" for h in hits)
    names = {p.name for p in POP.people}
    assert all(any(n in h["description"] for n in names) for h in hits)
    dates = [h["filing_date"] for h in hits]
    assert dates == sorted(dates, reverse=True)
    refused(
        ep, "full_text_search", "rule_violation", "filed_to", q="annual", filed_from="2025-01-01", filed_to="2024-01-01"
    )


def test_seeded_watch_lists_belong_to_staff_and_alerts_match_their_filings(ep: Episode) -> None:
    lists = every(ep, "list_watchlists")
    assert {w["status"] for w in lists} == {"active", "archived"} and all(w["owner_email"] in STAFF for w in lists)
    for a in every(ep, "list_alerts"):
        w = ok(ep, "get_watch", watch_id=a["watch_id"])
        f = ok(ep, "get_filing", accession_number=a["accession_number"])
        assert f["cik"] == w["cik"] and f["form"] in w["forms"] and a["filing_date"] <= w["last_checked_on"]


def test_checking_a_watch_raises_alerts_for_new_watched_filings_once(ep: Episode) -> None:
    wl = SEC.first(ep, "watchlists", status="active")
    watch = SEC.first(ep, "watches", watchlist_id=wl["id"], status="active")
    expected = {
        f["accession_number"]
        for f in ok(ep, "list_filings", cik=watch["cik"], limit=100)
        if f["filing_date"] > watch["last_checked_on"] and f["form"] in watch["forms"]
    }
    raised = ok(ep, "check_watch", watch_id=watch["id"])
    assert expected and {a["accession_number"] for a in raised} == expected
    assert ok(ep, "get_watch", watch_id=watch["id"])["last_checked_on"] == TODAY.isoformat()
    assert ok(ep, "check_watch", watch_id=watch["id"]) == []
    paused = SEC.first(ep, "watches", status="paused")
    refused(ep, "check_watch", "rule_violation", "watch_id", watch_id=paused["id"])
    ok(ep, "resume_watch", watch_id=paused["id"])
    ok(ep, "check_watch", watch_id=paused["id"])


def test_a_watch_takes_only_the_forms_its_company_files_once_per_open_list(ep: Episode) -> None:
    wl = SEC.first(ep, "watchlists", status="active")
    watched = {w["cik"] for w in every(ep, "list_watches", watchlist_id=wl["id"])}
    us = next(c for c in registrants(ep, True) if c["cik"] not in watched)
    foreign = next(c for c in registrants(ep, False) if c["cik"] not in watched)
    refused(ep, "add_watch", "rule_violation", "forms.1", watchlist_id=wl["id"], cik=us["cik"], forms=["8-K", "20-F"])
    refused(ep, "add_watch", "rule_violation", "forms.0", watchlist_id=wl["id"], cik=foreign["cik"], forms=["10-K"])
    refused(ep, "add_watch", "rule_violation", "forms", watchlist_id=wl["id"], cik=us["cik"], forms=[])
    made = ok(ep, "add_watch", watchlist_id=wl["id"], cik=us["cik"], forms=["8-K", "10-K", "8-K"])
    assert made["forms"] == ["10-K", "8-K"] and made["company_name"] == us["name"]
    refused(ep, "add_watch", "conflict", "cik", watchlist_id=wl["id"], cik=us["cik"], forms=["10-Q"])
    refused(ep, "add_watch", "not_found", "cik", watchlist_id=wl["id"], cik="0000000000", forms=["10-Q"])
    archived = SEC.first(ep, "watchlists", status="archived")
    refused(
        ep, "add_watch", "rule_violation", "watchlist_id", watchlist_id=archived["id"], cik=us["cik"], forms=["8-K"]
    )


def test_alerts_are_reviewed_by_staff_with_an_action_and_a_note_once(ep: Episode) -> None:
    alert = SEC.first(ep, "alerts", status="new")
    me = POP.employees[0].email
    args = {"alert_id": alert["id"], "action": "brief_leadership"}
    refused(ep, "review_alert", "rule_violation", "reviewed_by", reviewed_by=POP.contacts[0].email, note="x", **args)
    refused(ep, "review_alert", "rule_violation", "note", reviewed_by=me, note="  ", **args)
    done = ok(ep, "review_alert", reviewed_by=me, note="Guidance cut", **args)
    assert (done["status"], done["action"], done["reviewed_by"]) == ("reviewed", "brief_leadership", me)
    refused(ep, "review_alert", "rule_violation", "alert_id", reviewed_by=me, note="again", **args)
    refused(ep, "dismiss_alert", "rule_violation", "alert_id", alert_id=alert["id"])
