"""Rankwell SEO: keyword limits and daily refresh, one audit at a time, backlinks, issues, open-world metrics."""

from __future__ import annotations

from typing import Any

from compoworld import Episode
from tests.services.helpers import ServiceTools

SEO = ServiceTools("seo")
WORLD = SEO.world
ok, refused, every = SEO.ok, SEO.refused, SEO.every
POP = WORLD.population
HOME = POP.home
OWNER = POP.employees[0].email


def site(ep: Episode) -> dict[str, Any]:
    return every(ep, "list_projects", domain=HOME.domain)[0]


def blog(ep: Episode) -> dict[str, Any]:
    return every(ep, "list_projects", domain=f"blog.{HOME.domain}")[0]


def test_seeded_projects_track_the_home_site_and_backlinks_come_from_world_companies(ep: Episode) -> None:
    assert site(ep)["owner_email"] in {p.email for p in POP.employees}
    domains = {c.domain for c in POP.customers}
    links = every(ep, "list_backlinks")
    assert links and all(b["referring_domain"] in domains for b in links)
    assert {b["status"] for b in links} == {"live", "lost", "disavowed"}
    for k in every(ep, "list_keywords", project_id=site(ep)["id"]):
        assert (
            k["search_volume"]
            == ok(ep, "keyword_overview", phrase=k["phrase"], country=site(ep)["country"])["search_volume"]
        )


def test_keywords_are_unique_per_project_and_capped(ep: Episode) -> None:
    p = site(ep)
    known = every(ep, "list_keywords", project_id=p["id"])[0]["phrase"]
    refused(ep, "add_keywords", "conflict", "phrases", project_id=p["id"], phrases=[known.upper()])
    refused(ep, "add_keywords", "conflict", "phrases", project_id=p["id"], phrases=["new one", "New One"])
    have = len(every(ep, "list_keywords", project_id=p["id"]))
    many = [f"phrase {n}" for n in range(51 - have)]
    refused(ep, "add_keywords", "rule_violation", "phrases", project_id=p["id"], phrases=many)
    made = ok(ep, "add_keywords", project_id=p["id"], phrases=many[:-1], tags=["bulk"])
    assert len(made) == 50 - have and made[0]["position"] is None and made[0]["tags"] == ["bulk"]


def test_rankings_refresh_at_most_once_a_day(ep: Episode) -> None:
    p = site(ep)
    before = {k["id"]: k for k in every(ep, "list_keywords", project_id=p["id"])}
    out = ok(ep, "refresh_rankings", project_id=p["id"])
    assert len(out) == len(before)
    for k in out:
        assert k["previous_position"] == before[k["id"]]["position"]
        assert (k["ranking_url"] is None) == (k["position"] is None)
    refused(ep, "refresh_rankings", "rule_violation", "project_id", project_id=p["id"])
    refused(ep, "refresh_rankings", "rule_violation", "project_id", project_id=blog(ep)["id"])


def test_one_audit_runs_at_a_time(ep: Episode) -> None:
    b = blog(ep)
    running = every(ep, "list_audits", project_id=b["id"], status="running")[0]
    refused(ep, "start_audit", "conflict", "project_id", project_id=b["id"])
    refused(ep, "delete_project", "conflict", "project_id", project_id=b["id"])
    ok(ep, "cancel_audit", audit_id=running["id"])
    audit = ok(ep, "start_audit", project_id=b["id"])
    assert audit["status"] == "completed" and audit["pages_crawled"] <= b["page_limit"]
    found = every(ep, "list_issues", audit_id=audit["id"])
    errors = sum(i["severity"] == "error" for i in found)
    assert audit["health_score"] == max(0, 100 - 6 * errors)
    refused(ep, "cancel_audit", "rule_violation", "audit_id", audit_id=audit["id"])


def test_ignoring_an_issue_needs_a_reason_and_can_be_undone(ep: Episode) -> None:
    issue = every(ep, "list_issues", status="open", severity="error")[0]
    refused(ep, "ignore_issue", "rule_violation", "reason", issue_id=issue["id"], reason=" ")
    done = ok(ep, "ignore_issue", issue_id=issue["id"], reason="Staging page")
    assert (done["status"], done["ignore_reason"]) == ("ignored", "Staging page")
    refused(ep, "ignore_issue", "conflict", "issue_id", issue_id=issue["id"], reason="Again")
    assert ok(ep, "reopen_issue", issue_id=issue["id"])["status"] == "open"
    refused(ep, "reopen_issue", "rule_violation", "issue_id", issue_id=issue["id"])


def test_backlinks_are_disavowed_and_restored(ep: Episode) -> None:
    live = every(ep, "list_backlinks", status="live")[0]
    assert ok(ep, "disavow_backlink", backlink_id=live["id"])["status"] == "disavowed"
    refused(ep, "disavow_backlink", "rule_violation", "backlink_id", backlink_id=live["id"])
    assert ok(ep, "restore_backlink", backlink_id=live["id"])["status"] == "live"
    refused(ep, "restore_backlink", "rule_violation", "backlink_id", backlink_id=live["id"])


def test_projects_are_one_per_domain_and_owned_by_staff(ep: Episode) -> None:
    refused(ep, "create_project", "conflict", "domain", name="Dup", domain=HOME.domain, owner_email=OWNER)
    refused(
        ep,
        "create_project",
        "rule_violation",
        "owner_email",
        name="Shop",
        domain="shop.example.org",
        owner_email="x@y.io",
    )
    made = ok(ep, "create_project", name="Shop", domain="shop.example.org", owner_email=OWNER, device="mobile")
    assert (made["engine"], made["device"]) == ("google", "mobile")
    ok(ep, "delete_project", project_id=made["id"])


def test_open_world_metrics_are_stable_and_plausible(ep: Episode) -> None:
    a = ok(ep, "domain_overview", domain="example.com")
    assert a == ok(ep, "domain_overview", domain="example.com")
    assert a != ok(ep, "domain_overview", domain="example.net")
    assert 0 <= a["domain_rating"] <= 100 and a["backlinks"] >= a["referring_domains"]
    kw = ok(ep, "keyword_overview", phrase="crm software", country="DE")
    assert kw["country"] == "DE" and 0 <= kw["difficulty"] <= 100 and kw["search_volume"] > 0
    assert ok(ep, "keyword_overview", phrase="CRM software", country="DE")["search_volume"] == kw["search_volume"]


def test_new_site_end_to_end(ep: Episode) -> None:
    p = ok(ep, "create_project", name="Docs", domain="docs.example.org", owner_email=OWNER)
    ok(ep, "add_keywords", project_id=p["id"], phrases=["api reference", "sdk install"])
    ranked = ok(ep, "refresh_rankings", project_id=p["id"])
    assert all(k["checked_at"] is not None for k in ranked)
    audit = ok(ep, "start_audit", project_id=p["id"])
    assert every(ep, "list_audits", project_id=p["id"])[0]["id"] == audit["id"]
    kw = every(ep, "list_keywords", project_id=p["id"])[0]
    ok(ep, "delete_keyword", keyword_id=kw["id"])
    assert len(every(ep, "list_keywords", project_id=p["id"])) == 1
