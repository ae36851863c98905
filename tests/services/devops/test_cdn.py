"""Edgewise CDN: versions lock and activate, clones copy configuration, rollback, purges and TLS subscriptions."""

from __future__ import annotations

from typing import Any

from compoworld import Episode
from tests.services.helpers import ServiceTools

CDN = ServiceTools("cdn")
WORLD = CDN.world
ok, refused, every = CDN.ok, CDN.refused, CDN.every
POP = WORLD.population
DOMAIN = POP.home.domain
STAFF = {p.email for p in POP.employees}
ENGINEER = POP.employees[0].email


def svc(ep: Episode, name: str) -> dict[str, Any]:
    return next(s for s in every(ep, "list_services") if s["name"] == name)


def version(ep: Episode, service_id: str, status: str) -> dict[str, Any]:
    return every(ep, "list_versions", service_id=service_id, status=status)[0]


def test_seeded_services_serve_the_company_domains_with_one_active_version_each(ep: Episode) -> None:
    for s in every(ep, "list_services"):
        assert s["owner_email"] in STAFF
        active = every(ep, "list_versions", service_id=s["id"], status="active")
        if s["active_version"] is None:
            assert active == []
            continue
        assert [v["number"] for v in active] == [s["active_version"]]
        for d in every(ep, "list_domains", version_id=active[0]["id"]):
            assert d["name"].endswith("." + DOMAIN)
    www = svc(ep, "Production website")
    assert {v["status"] for v in every(ep, "list_versions", service_id=www["id"])} == {"locked", "active", "draft"}


def test_only_draft_versions_can_be_edited(ep: Episode) -> None:
    www = svc(ep, "Production website")
    active = version(ep, www["id"], "active")
    refused(ep, "add_domain", "conflict", "version_id", version_id=active["id"], name=f"new.{DOMAIN}")
    be = every(ep, "list_backends", version_id=active["id"])[0]
    refused(ep, "update_backend", "conflict", "version_id", backend_id=be["id"], port=8443)
    draft = version(ep, www["id"], "draft")
    added = ok(ep, "add_domain", version_id=draft["id"], name=f"new.{DOMAIN}")
    assert added["version_id"] == draft["id"]
    refused(ep, "add_domain", "conflict", "name", version_id=draft["id"], name=f"new.{DOMAIN}")
    assert ok(ep, "lock_version", version_id=draft["id"])["status"] == "locked"
    refused(ep, "add_backend", "conflict", "version_id", version_id=draft["id"], name="b2", address="b2.example.net")


def test_a_domain_belongs_to_one_service(ep: Episode) -> None:
    api = svc(ep, "Public API")
    clone = ok(ep, "clone_version", version_id=version(ep, api["id"], "active")["id"])
    refused(ep, "add_domain", "conflict", "name", version_id=clone["id"], name=f"www.{DOMAIN}")


def test_cloning_copies_configuration_into_a_new_draft(ep: Episode) -> None:
    www = svc(ep, "Production website")
    active = version(ep, www["id"], "active")
    clone = ok(ep, "clone_version", version_id=active["id"])
    assert (clone["status"], clone["number"], clone["cloned_from"]) == (
        "draft",
        www["latest_version"] + 1,
        active["number"],
    )
    for plural in ("domains", "backends", "cache_settings"):
        old = {x["name"] for x in every(ep, f"list_{plural}", version_id=active["id"])}
        new = {x["name"] for x in every(ep, f"list_{plural}", version_id=clone["id"])}
        assert old == new and old
    assert ok(ep, "get_service", service_id=www["id"])["latest_version"] == clone["number"]


def test_activation_needs_domains_and_backends_and_locks_the_previous_version(ep: Episode) -> None:
    new = ok(ep, "create_service", name="Careers site", owner_email=ENGINEER)
    refused(ep, "create_service", "conflict", "name", name="Careers site")
    v1 = version(ep, new["id"], "draft")
    refused(ep, "activate_version", "rule_violation", "version_id", version_id=v1["id"])
    ok(ep, "add_domain", version_id=v1["id"], name=f"careers.{DOMAIN}")
    refused(ep, "activate_version", "rule_violation", "version_id", version_id=v1["id"])
    refused(
        ep, "add_backend", "rule_violation", "port", version_id=v1["id"], name="o", address="o.example.net", port=80
    )
    ok(ep, "add_backend", version_id=v1["id"], name="origin", address="careers-origin.example.net")
    assert ok(ep, "activate_version", version_id=v1["id"])["status"] == "active"
    assert ok(ep, "get_service", service_id=new["id"])["active_version"] == 1
    v2 = ok(ep, "clone_version", version_id=v1["id"])
    ok(ep, "activate_version", version_id=v2["id"])
    assert ok(ep, "get_version", version_id=v1["id"])["status"] == "locked"
    refused(ep, "activate_version", "conflict", "version_id", version_id=v2["id"])


def test_rollback_reactivates_the_previous_locked_version(ep: Episode) -> None:
    www = svc(ep, "Production website")
    before = www["active_version"]
    back = ok(ep, "rollback_service", service_id=www["id"])
    assert back["number"] == before - 1 and back["status"] == "active"
    assert ok(ep, "get_service", service_id=www["id"])["active_version"] == before - 1
    refused(ep, "rollback_service", "rule_violation", "service_id", service_id=www["id"])


def test_a_serving_service_cannot_be_deleted(ep: Episode) -> None:
    docs = svc(ep, "Documentation")
    refused(ep, "delete_service", "conflict", "service_id", service_id=docs["id"])
    ok(ep, "deactivate_version", version_id=version(ep, docs["id"], "active")["id"])
    assert ok(ep, "get_service", service_id=docs["id"])["active_version"] is None
    ok(ep, "delete_service", service_id=docs["id"])


def test_purges_target_active_domains_and_purge_all_is_for_the_owner(ep: Episode) -> None:
    www = svc(ep, "Production website")
    done = ok(ep, "purge_url", service_id=www["id"], url=f"https://shop.{DOMAIN}/cart", requested_by=ENGINEER)
    assert (done["kind"], done["soft"]) == ("url", False)
    refused(
        ep,
        "purge_url",
        "rule_violation",
        "url",
        service_id=www["id"],
        url=f"https://api.{DOMAIN}/",
        requested_by=ENGINEER,
    )
    refused(
        ep,
        "purge_url",
        "rule_violation",
        "requested_by",
        service_id=www["id"],
        url=done["target"],
        requested_by="x@y.io",
    )
    assert ok(ep, "purge_key", service_id=www["id"], surrogate_key="product-42")["requested_by"] == www["owner_email"]
    other = next(e for e in STAFF if e != www["owner_email"])
    refused(ep, "purge_all", "rule_violation", "requested_by", service_id=www["id"], requested_by=other)
    assert ok(ep, "purge_all", service_id=www["id"], requested_by=www["owner_email"])["kind"] == "all"
    retired = svc(ep, "Spring campaign (retired)")
    refused(ep, "purge_key", "conflict", "service_id", service_id=retired["id"], surrogate_key="k")


def test_tls_subscriptions_cover_served_domains_once(ep: Episode) -> None:
    refused(ep, "create_tls_subscription", "conflict", "domains", domains=[f"www.{DOMAIN}"])
    refused(ep, "create_tls_subscription", "rule_violation", "domains", domains=[f"spring.{DOMAIN}"])
    made = ok(ep, "create_tls_subscription", domains=[f"img.{DOMAIN}", f"docs.{DOMAIN}"])
    assert (made["status"], made["certificate_authority"]) == ("pending", "lets-encrypt")
    issued = every(ep, "list_tls_subscriptions", status="issued")[0]
    refused(ep, "delete_tls_subscription", "conflict", "subscription_id", subscription_id=issued["id"])
    ok(ep, "delete_tls_subscription", subscription_id=issued["id"], force=True)
    failed = every(ep, "list_tls_subscriptions", status="failed")[0]
    assert ok(ep, "retry_tls_subscription", tls_subscription_id=failed["id"])["status"] == "pending"
