"""Portcullis Gateway: proxy dry-runs (auth, ACL, balancing), route and plugin rules, consumers and keys."""

from __future__ import annotations

from typing import Any

from compoworld import Episode
from tests.services.helpers import ServiceTools

GW = ServiceTools("apigw")
WORLD = GW.world
ok, refused, every = GW.ok, GW.refused, GW.every
POP = WORLD.population
API = f"api.{POP.home.domain}"


def svc(ep: Episode, name: str) -> dict[str, Any]:
    return every(ep, "list_services", name=name)[0]


def key_of(ep: Episode, username: str) -> str:
    c = every(ep, "list_consumers", username=username)[0]
    return str(every(ep, "list_keys", consumer_id=c["id"])[0]["key"])


def consumer_in(ep: Episode, group: str | None) -> dict[str, Any]:
    for c in every(ep, "list_consumers"):
        groups = {a["group"] for a in every(ep, "list_acls", consumer_id=c["id"])}
        if (group in groups) if group else not groups:
            return c
    raise AssertionError(group)


def call(ep: Episode, method: str, path: str, **more: Any) -> dict[str, Any]:
    return dict(ok(ep, "test_request", method=method, host=API, path=path, **more))


def test_seeded_consumers_are_the_worlds_partner_companies(ep: Episode) -> None:
    companies = {c.key: c for c in POP.companies}
    partners = [c for c in every(ep, "list_consumers") if c["company"]]
    assert len(partners) >= 5
    for c in partners:
        company = companies[c["custom_id"]]
        assert c["company"] == company.name
        contact = POP.first_contact(company)
        assert c["contact_email"] == (contact.email if contact else None)
    assert {t["health"] for t in every(ep, "list_targets")} == {"healthy", "unhealthy", "dns_error"}


def test_key_auth_guards_a_service_and_the_balancer_picks_a_healthy_target(ep: Episode) -> None:
    assert call(ep, "GET", "/orders/42")["status"] == 401
    assert call(ep, "GET", "/orders/42", apikey="not-a-real-key-123")["status"] == 401
    res = call(ep, "GET", "/orders/42", apikey=key_of(ep, "mobile-app"))
    assert (res["status"], res["rate_limit_minute"]) == (200, 60)
    healthy = {t["target"] for t in every(ep, "list_targets", health="healthy")}
    assert res["upstream_target"] in healthy
    premium = every(ep, "list_plugins", name="rate-limiting")
    special = next(p for p in premium if p["consumer_id"])
    mine = ok(ep, "get_consumer", consumer_id=special["consumer_id"])["username"]
    assert call(ep, "GET", "/orders/1", apikey=key_of(ep, mine))["rate_limit_minute"] == special["config"]["minute"]
    expired = next(k for k in every(ep, "list_keys") if k["expires_at"])
    assert call(ep, "GET", "/orders/1", apikey=expired["key"])["status"] == 401


def test_acl_admits_only_allowed_groups(ep: Episode) -> None:
    partner, loner = consumer_in(ep, "partners"), consumer_in(ep, None)
    assert call(ep, "POST", "/payments", apikey=key_of(ep, partner["username"]))["status"] == 200
    denied = call(ep, "POST", "/payments", apikey=key_of(ep, loner["username"]))
    assert (denied["status"], denied["consumer_id"]) == (403, loner["id"])
    assert call(ep, "GET", "/payments")["status"] == 404
    ok(ep, "add_to_group", consumer_id=loner["id"], group="partners")
    refused(ep, "add_to_group", "conflict", "group", consumer_id=loner["id"], group="partners")
    assert call(ep, "POST", "/payments", apikey=key_of(ep, loner["username"]))["status"] == 200


def test_an_upstream_without_healthy_targets_returns_503(ep: Episode) -> None:
    ups = every(ep, "list_upstreams", name="orders-upstream")[0]
    up = every(ep, "list_targets", upstream_id=ups["id"], health="healthy")
    for t in up:
        ok(ep, "mark_unhealthy_target", target_id=t["id"])
    assert ok(ep, "upstream_health", upstream_id=ups["id"])["health"] == "UNHEALTHY"
    assert call(ep, "GET", "/orders", apikey=key_of(ep, "mobile-app"))["status"] == 503
    refused(ep, "mark_unhealthy_target", "rule_violation", "target_id", target_id=up[0]["id"])
    ok(ep, "mark_healthy_target", target_id=up[0]["id"])
    health = ok(ep, "upstream_health", upstream_id=ups["id"])
    assert (health["health"], health["healthy_targets"]) == ("HEALTHY", 1)
    assert call(ep, "GET", "/orders", apikey=key_of(ep, "mobile-app"))["upstream_target"] == up[0]["target"]


def test_disabled_services_do_not_route_and_ip_restriction_applies(ep: Episode) -> None:
    legacy = svc(ep, "legacy-soap")
    assert call(ep, "POST", "/soap")["status"] == 404
    ok(ep, "update_service", service_id=legacy["id"], enabled=True)
    assert call(ep, "POST", "/soap", client_ip="192.168.1.5")["status"] == 403
    res = call(ep, "POST", "/soap/v1", client_ip="10.1.2.3")
    assert (res["status"], res["upstream_target"]) == (200, "soap.internal:8081")
    auth = every(ep, "list_plugins", name="key-auth", service_id=svc(ep, "orders-api")["id"])[0]
    ok(ep, "disable_plugin", plugin_id=auth["id"])
    assert call(ep, "GET", "/orders")["status"] == 200


def test_routes_need_a_matcher_and_cannot_repeat_another(ep: Episode) -> None:
    s = svc(ep, "inventory-api")
    refused(ep, "create_route", "rule_violation", "paths", service_id=s["id"], name="empty")
    dup = {"service_id": s["id"], "hosts": [API], "paths": ["/orders"], "methods": ["GET"]}
    refused(ep, "create_route", "conflict", "paths", name="steal", **dup)
    refused(ep, "create_route", "conflict", "name", name="orders-orders", **(dup | {"paths": ["/stock"]}))
    made = ok(ep, "create_route", name="orders-delete", **(dup | {"methods": ["DELETE"]}))
    assert made["methods"] == ["DELETE"]
    ok(ep, "create_route", name="stock", service_id=s["id"], hosts=[API], paths=["/stock", "/stock"])
    res = call(ep, "GET", "/stock/7")
    assert (res["status"], res["service_id"]) == (200, s["id"])


def test_plugin_configurations_are_validated(ep: Episode) -> None:
    s = svc(ep, "catalog-api")
    sid = s["id"]
    refused(ep, "add_plugin", "rule_violation", "minute", name="rate-limiting", service_id=sid)
    refused(ep, "add_plugin", "rule_violation", "hour", name="rate-limiting", service_id=sid, minute=100, hour=50)
    refused(ep, "add_plugin", "rule_violation", "allow", name="acl", service_id=sid, allow=["a"], deny=["b"])
    refused(
        ep, "add_plugin", "rule_violation", "allow", name="ip-restriction", service_id=sid, allow=["10.0.0.300/99x"]
    )
    c = every(ep, "list_consumers")[0]
    refused(ep, "add_plugin", "rule_violation", "consumer_id", name="key-auth", consumer_id=c["id"])
    route = every(ep, "list_routes", service_id=sid)[0]
    refused(ep, "add_plugin", "rule_violation", "service_id", name="cors", service_id=sid, route_id=route["id"])
    made = ok(ep, "add_plugin", name="rate-limiting", service_id=sid, minute=10, hour=100, day=1000)
    assert made["config"]["day"] == 1000
    refused(ep, "add_plugin", "conflict", "name", name="rate-limiting", service_id=sid, minute=5)
    assert ok(ep, "add_plugin", name="rate-limiting", route_id=route["id"], minute=5)["route_id"] == route["id"]


def test_consumers_and_keys_are_unique_and_deleted_together(ep: Episode) -> None:
    first = every(ep, "list_consumers")[0]
    refused(ep, "create_consumer", "conflict", "username", username=first["username"])
    refused(ep, "create_consumer", "conflict", "custom_id", username="new-app", custom_id=first["custom_id"])
    made = ok(ep, "create_consumer", username="new-app")
    key = ok(ep, "create_key", consumer_id=made["id"], ttl_days=30)
    assert len(key["key"]) == 32 and key["expires_at"] is not None
    refused(ep, "create_key", "conflict", "key", consumer_id=made["id"], key=key["key"])
    ok(ep, "add_to_group", consumer_id=made["id"], group="internal")
    assert call(ep, "POST", "/payments", apikey=key["key"])["status"] == 200
    ok(ep, "delete_consumer", consumer_id=made["id"])
    assert key["key"] not in {k["key"] for k in every(ep, "list_keys")}
    assert made["id"] not in {a["consumer_id"] for a in every(ep, "list_acls")}
    assert call(ep, "POST", "/payments", apikey=key["key"])["status"] == 401


def test_services_and_upstreams_in_use_cannot_be_deleted(ep: Episode) -> None:
    orders = svc(ep, "orders-api")
    refused(ep, "delete_service", "conflict", "service_id", service_id=orders["id"])
    used = every(ep, "list_upstreams", name="orders-upstream")[0]
    refused(ep, "delete_upstream", "conflict", "upstream_id", upstream_id=used["id"])
    refused(ep, "add_target", "conflict", "target", upstream_id=used["id"], target="10.0.1.11:8080")
    idle = every(ep, "list_upstreams", name="search-upstream")[0]
    ok(ep, "delete_upstream", upstream_id=idle["id"])
    assert all(t["upstream_id"] != idle["id"] for t in every(ep, "list_targets"))
    ok(ep, "delete_service", service_id=svc(ep, "inventory-api")["id"])
