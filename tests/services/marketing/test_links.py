"""Snaplink: verified domains, unique back-halves and their monthly allowance, redirects and click stats."""

from __future__ import annotations

import datetime as dt

from compoworld import Episode
from compoworld.services.marketing.links import CUSTOM_PER_MONTH, DEFAULT_DOMAIN
from tests.services.helpers import ServiceTools

LINKS = ServiceTools("links")
WORLD = LINKS.world
ok, refused, every = LINKS.ok, LINKS.refused, LINKS.every
POP = WORLD.population
TODAY = WORLD.epoch.date()
HOME = POP.home


# -- the world ------------------------------------------------------------------------------------


def test_links_point_at_the_companys_pages_and_products() -> None:
    ep = Episode(WORLD)
    skus = {p.sku.lower() for p in POP.products}
    staff = {p.email for p in POP.employees}
    for link in every(ep, "list_links"):
        assert link["short_url"] == f"https://{link['domain']}/{link['back_half']}"
        assert link["created_by"] in staff
        if "/products/" in link["long_url"]:
            assert link["long_url"].startswith(f"https://shop.{HOME.domain}/products/")
            assert link["long_url"].rsplit("/", 1)[1] in skus
    domains = {d["domain"]: d for d in every(ep, "list_domains")}
    assert domains[DEFAULT_DOMAIN]["is_default"] and domains[f"go.{HOME.domain}"]["status"] == "verified"


def test_seeded_click_totals_are_the_sum_of_the_daily_counts() -> None:
    ep = Episode(WORLD)
    days = every(ep, "list_click_days")
    for link in every(ep, "list_links"):
        assert link["total_clicks"] == sum(d["clicks"] for d in days if d["link_id"] == link["id"])
    assert len({(d["link_id"], d["date"], d["country"]) for d in days}) == len(days)


# -- shortening -----------------------------------------------------------------------------------


def test_shortening_on_the_default_domain_generates_a_back_half(ep: Episode) -> None:
    link = ok(ep, "shorten_link", long_url=f"https://www.{HOME.domain}/pricing", title="Pricing")
    assert link["domain"] == DEFAULT_DOMAIN and not link["custom"] and len(link["back_half"]) == 7
    assert ok(ep, "expand_link", short_url=link["short_url"])["long_url"] == f"https://www.{HOME.domain}/pricing"
    refused(ep, "shorten_link", "rule_violation", "long_url", long_url=link["short_url"])
    refused(ep, "expand_link", "not_found", "short_url", short_url=f"https://{DEFAULT_DOMAIN}/nothing-here")


def test_branded_domains_must_be_verified_with_their_token(ep: Episode) -> None:
    pending = every(ep, "list_domains", status="pending")[0]
    url = f"https://www.{HOME.domain}/events"
    refused(ep, "shorten_link", "rule_violation", "domain", long_url=url, domain=pending["domain"])
    refused(ep, "shorten_link", "not_found", "domain", long_url=url, domain="go.unknown-brand.com")
    refused(
        ep, "verify_domain", "rule_violation", "txt_record", domain_id=pending["id"], txt_record="snaplink-verify=wrong"
    )
    ok(ep, "verify_domain", domain_id=pending["id"], txt_record=pending["verification_token"])
    link = ok(ep, "shorten_link", long_url=url, domain=pending["domain"], back_half="events")
    assert link["short_url"] == f"https://{pending['domain']}/events" and link["custom"]
    added = ok(ep, "add_domain", domain="go.newbrand.io")
    assert added["status"] == "pending" and added["verification_token"].startswith("snaplink-verify=")
    refused(ep, "add_domain", "conflict", "domain", domain="go.newbrand.io")


def test_back_halves_are_unique_per_domain_and_not_reserved(ep: Episode) -> None:
    taken = next(x for x in every(ep, "list_links", custom=True))
    url = f"https://www.{HOME.domain}/x"
    refused(
        ep, "shorten_link", "conflict", "back_half", long_url=url, domain=taken["domain"], back_half=taken["back_half"]
    )
    refused(ep, "shorten_link", "rule_violation", "back_half", long_url=url, back_half="admin")
    same_elsewhere = ok(ep, "shorten_link", long_url=url, back_half=taken["back_half"])
    assert same_elsewhere["domain"] == DEFAULT_DOMAIN


def test_custom_back_halves_are_limited_per_month(ep: Episode) -> None:
    month = TODAY.replace(day=1).isoformat()
    used = sum(1 for x in every(ep, "list_links", custom=True) if x["created_at"][:10] >= month)
    for k in range(CUSTOM_PER_MONTH - used):
        ok(ep, "shorten_link", long_url=f"https://www.{HOME.domain}/p{k}", back_half=f"promo-{k}")
    msg = refused(
        ep, "shorten_link", "rule_violation", "back_half", long_url=f"https://www.{HOME.domain}/z", back_half="one-more"
    )
    assert str(CUSTOM_PER_MONTH) in msg
    ok(ep, "shorten_link", long_url=f"https://www.{HOME.domain}/z")


def test_a_back_half_changes_only_before_the_first_click(ep: Episode) -> None:
    fresh = ok(ep, "shorten_link", long_url=f"https://www.{HOME.domain}/jobs")
    renamed = ok(ep, "customize_back_half", link_id=fresh["id"], back_half="jobs")
    assert renamed["short_url"] == f"https://{DEFAULT_DOMAIN}/jobs" and renamed["custom"]
    ok(ep, "click_link", short_url=renamed["short_url"], country="DE")
    refused(ep, "customize_back_half", "rule_violation", "link_id", link_id=fresh["id"], back_half="careers-2")


# -- redirects and stats --------------------------------------------------------------------------


def test_a_click_redirects_and_counts_per_day_and_country(ep: Episode) -> None:
    link = next(x for x in every(ep, "list_links", archived=False) if x["expires_at"] is None)
    first = ok(ep, "click_link", short_url=link["short_url"], country="FR", referrer="social")
    second = ok(ep, "click_link", short_url=link["short_url"], country="FR")
    assert first["long_url"] == link["long_url"]
    assert second["total_clicks"] == link["total_clicks"] + 2
    [today] = every(ep, "list_click_days", link_id=link["id"], date=TODAY.isoformat(), country="FR")
    assert today["clicks"] >= 2
    stats = ok(ep, "link_stats", link_id=link["id"], days=7)
    assert len(stats["by_day"]) == 7 and stats["by_day"][-1]["date"] == TODAY.isoformat()
    assert stats["total"] == sum(d["clicks"] for d in stats["by_day"]) == sum(c["clicks"] for c in stats["by_country"])


def test_archived_and_expired_links_no_longer_redirect(ep: Episode) -> None:
    archived = every(ep, "list_links", archived=True)[0]
    refused(ep, "click_link", "rule_violation", "short_url", short_url=archived["short_url"], country="US")
    expired = next(x for x in every(ep, "list_links", archived=False) if x["expires_at"] is not None)
    refused(ep, "click_link", "rule_violation", "short_url", short_url=expired["short_url"], country="US")
    ok(ep, "unarchive_link", link_id=archived["id"])
    ok(ep, "click_link", short_url=archived["short_url"], country="US")


def test_stats_cover_the_whole_period() -> None:
    ep = Episode(WORLD)
    link = max(every(ep, "list_links"), key=lambda x: x["total_clicks"])
    stats = ok(ep, "link_stats", link_id=link["id"], days=90)
    assert stats["since"] == (TODAY - dt.timedelta(days=89)).isoformat()
    assert stats["total"] == link["total_clicks"]
    shares = [c["share"] for c in stats["by_country"]]
    assert shares == sorted(shares, reverse=True) and abs(sum(shares) - 100) < 1


# -- campaigns and domains ------------------------------------------------------------------------


def test_campaign_channels_and_report(ep: Episode) -> None:
    camp = next(c for c in every(ep, "list_campaigns") if every(ep, "list_links", campaign_id=c["id"]))
    report = ok(ep, "campaign_report", campaign_id=camp["id"])
    mine = every(ep, "list_links", campaign_id=camp["id"])
    assert report["links"] == len(mine) and report["total_clicks"] == sum(x["total_clicks"] for x in mine)
    assert report["top_link"] == max(mine, key=lambda x: (x["total_clicks"], x["id"]))["short_url"]
    off = next(ch for ch in ("email", "social", "sms", "print", "paid", "partner") if ch not in camp["channels"])
    link = mine[0]
    refused(ep, "update_link", "rule_violation", "channel", link_id=link["id"], channel=off)
    refused(ep, "update_campaign", "rule_violation", "channels", campaign_id=camp["id"], channels=[off])
    refused(ep, "delete_campaign", "rule_violation", "campaign_id", campaign_id=camp["id"])
    refused(ep, "update_campaign", "rule_violation", "ends_on", campaign_id=camp["id"], ends_on="2020-01-01")


def test_domains_with_links_and_the_default_domain_stay(ep: Episode) -> None:
    domains = {d["domain"]: d for d in every(ep, "list_domains")}
    refused(ep, "delete_domain", "rule_violation", "domain_id", domain_id=domains[DEFAULT_DOMAIN]["id"])
    refused(ep, "delete_domain", "rule_violation", "domain_id", domain_id=domains[f"go.{HOME.domain}"]["id"])
    pending = every(ep, "list_domains", status="pending")[0]
    ok(ep, "delete_domain", domain_id=pending["id"])
