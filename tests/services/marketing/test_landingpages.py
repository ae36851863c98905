"""Launchpad Pages: domains, pages and paths, publishing, A/B variants and weights, leads and stats."""

from __future__ import annotations

from typing import Any

from compoworld import Episode
from tests.services.helpers import ServiceTools

LP = ServiceTools("landingpages")
WORLD = LP.world
ok, refused, every = LP.ok, LP.refused, LP.every
STAFF = {p.email for p in WORLD.population.employees}


def domain(ep: Episode, status: str) -> dict[str, Any]:
    return every(ep, "list_domains", status=status)[0]


def new_page(ep: Episode, path: str = "/new-offer", status: str = "verified") -> dict[str, Any]:
    return dict(ok(ep, "create_page", name="New offer", domain_id=domain(ep, status)["id"], path=path))


def test_seeded_pages_have_weights_adding_to_100_and_leads_from_contacts(ep: Episode) -> None:
    contacts = {p.email for p in WORLD.population.contacts}
    for page in every(ep, "list_pages"):
        assert page["owner_email"] in STAFF
        live = [v for v in every(ep, "list_variants", page_id=page["id"]) if v["state"] != "discarded"]
        assert sum(v["weight"] for v in live) == 100
        assert len([v for v in live if v["state"] == "champion"]) == 1
    leads = every(ep, "list_leads")
    assert leads and all(lead["email"] in contacts for lead in leads)


def test_a_new_page_gets_champion_a_and_paths_are_unique_per_domain(ep: Episode) -> None:
    page = new_page(ep)
    variants = every(ep, "list_variants", page_id=page["id"])
    assert [(v["letter"], v["state"], v["weight"]) for v in variants] == [("a", "champion", 100)]
    dom = domain(ep, "verified")["id"]
    refused(ep, "create_page", "conflict", "path", name="Copy", domain_id=dom, path="/new-offer")
    refused(
        ep,
        "create_page",
        "rule_violation",
        "click_through_url",
        name="CT",
        domain_id=dom,
        path="/ct",
        goal="click_through",
    )
    assert ok(ep, "create_page", name="Copy", domain_id=domain(ep, "pending_dns")["id"], path="/new-offer")


def test_publishing_needs_a_verified_domain(ep: Episode) -> None:
    page = new_page(ep, status="pending_dns")
    refused(ep, "publish_page", "rule_violation", "page_id", page_id=page["id"])
    ok(ep, "verify_domain", domain_id=page["domain_id"])
    refused(ep, "verify_domain", "conflict", "domain_id", domain_id=page["domain_id"])
    published = ok(ep, "publish_page", page_id=page["id"])
    assert published["state"] == "published" and published["published_at"] is not None
    refused(ep, "publish_page", "conflict", "page_id", page_id=page["id"])
    refused(ep, "delete_page", "rule_violation", "page_id", page_id=page["id"])
    ok(ep, "unpublish_page", page_id=page["id"])
    ok(ep, "delete_page", page_id=page["id"])


def test_traffic_weights_name_every_live_variant_and_add_to_100(ep: Episode) -> None:
    page = new_page(ep)
    ok(ep, "add_variant", page_id=page["id"], headline="Try it free")
    refused(ep, "set_traffic_weights", "rule_violation", "weights", page_id=page["id"], weights={"a": 100})
    refused(ep, "set_traffic_weights", "rule_violation", "weights", page_id=page["id"], weights={"a": 60, "b": 60})
    done = ok(ep, "set_traffic_weights", page_id=page["id"], weights={"a": 30, "b": 70})
    assert [v["weight"] for v in done] == [30, 70]


def test_promoting_and_discarding_keep_one_champion_and_move_traffic(ep: Episode) -> None:
    page = new_page(ep)
    b = ok(ep, "add_variant", page_id=page["id"], headline="B")
    c = ok(ep, "add_variant", page_id=page["id"], headline="C")
    ok(ep, "set_traffic_weights", page_id=page["id"], weights={"a": 50, "b": 30, "c": 20})
    assert ok(ep, "promote_variant", variant_id=b["id"])["state"] == "champion"
    states = {v["letter"]: v["state"] for v in every(ep, "list_variants", page_id=page["id"])}
    assert states == {"a": "challenger", "b": "champion", "c": "challenger"}
    refused(ep, "discard_variant", "rule_violation", "variant_id", variant_id=b["id"])
    ok(ep, "discard_variant", variant_id=c["id"])
    weights = {v["letter"]: v["weight"] for v in every(ep, "list_variants", page_id=page["id"])}
    assert weights == {"a": 50, "b": 50, "c": 0}
    refused(ep, "promote_variant", "rule_violation", "variant_id", variant_id=c["id"])


def test_leads_come_only_from_published_form_pages_and_convert_the_champion(ep: Episode) -> None:
    draft = every(ep, "list_pages", state="unpublished")[0]
    refused(ep, "submit_lead", "rule_violation", "page_id", page_id=draft["id"], email="a@b.io", name="A B")
    click = every(ep, "list_pages", goal="click_through", state="published")[0]
    refused(ep, "submit_lead", "rule_violation", "page_id", page_id=click["id"], email="a@b.io", name="A B")
    page = every(ep, "list_pages", goal="form_submit", state="published")[0]
    champ = every(ep, "list_variants", page_id=page["id"], state="champion")[0]
    lead = ok(ep, "submit_lead", page_id=page["id"], email="a@b.io", name="A B", consent=True)
    assert lead["variant_id"] == champ["id"]
    after = ok(ep, "get_variant", variant_id=champ["id"])
    assert (after["visitors"], after["conversions"]) == (champ["visitors"] + 1, champ["conversions"] + 1)
    assert every(ep, "list_leads", email="a@b.io")[0]["id"] == lead["id"]


def test_stats_give_conversion_rates_per_variant(ep: Episode) -> None:
    page = every(ep, "list_pages", state="published")[0]
    for row in ok(ep, "page_stats", page_id=page["id"]):
        if row["visitors"]:
            assert row["conversion_rate"] == round(100 * row["conversions"] / row["visitors"], 2)


def test_domains_are_unique_and_kept_while_pages_use_them(ep: Episode) -> None:
    live = domain(ep, "verified")
    refused(ep, "create_domain", "conflict", "hostname", hostname=live["hostname"])
    refused(ep, "delete_domain", "rule_violation", "domain_id", domain_id=live["id"])
    made = ok(ep, "create_domain", hostname="offers.example.org")
    assert made["status"] == "pending_dns"
    ok(ep, "delete_domain", domain_id=made["id"])
