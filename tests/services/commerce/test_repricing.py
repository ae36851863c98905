"""PriceWatch: competitor URLs and prices, alerts, repricing rules with floors, approval before a price is pushed."""

from __future__ import annotations

from typing import Any

from compoworld import Episode
from tests.services.helpers import ServiceTools

RP = ServiceTools("repricing")
WORLD = RP.world
ok, refused, every = RP.ok, RP.refused, RP.every
POP = WORLD.population
STAFF = {p.email for p in POP.employees}
ANALYST = POP.employees[0].email


def unruled(ep: Episode) -> dict[str, Any]:
    """A product no active rule prices, with an in-stock competitor price."""
    active = every(ep, "list_rules", status="active")
    for p in every(ep, "list_products"):
        if any(r["target"] in (p["id"], p["brand"], p["category"]) for r in active):
            continue
        if any(u["in_stock"] and u["status"] == "tracking" for u in every(ep, "list_urls", product_id=p["id"])):
            return p
    raise AssertionError("every product has a rule")


def test_seed_tracks_the_worlds_products_on_competitor_domains(ep: Episode) -> None:
    skus = {p.sku for p in POP.products}
    prods = every(ep, "list_products")
    assert prods and all(p["sku"] in skus and p["price"] >= p["cost"] for p in prods)
    comps = {c["id"]: c for c in every(ep, "list_competitors")}
    assert {c["name"] for c in comps.values()} <= {c.name for c in POP.companies}
    for u in every(ep, "list_urls"):
        assert comps[u["competitor_id"]]["domain"] in u["url"]
        history = every(ep, "list_observations", url_id=u["id"])
        assert max(history, key=lambda o: o["observed_at"])["price"] == u["last_price"]
    assert all(r["owner_email"] in STAFF for r in every(ep, "list_rules"))
    assert {c["status"] for c in every(ep, "list_changes")} == {"pending", "approved", "rejected", "pushed"}


def test_a_competitor_url_must_be_on_its_domain_and_tracked_once(ep: Episode) -> None:
    p = every(ep, "list_products")[0]
    tracked = {u["competitor_id"] for u in every(ep, "list_urls", product_id=p["id"])}
    comp = next(c for c in every(ep, "list_competitors") if c["id"] not in tracked)
    other = next(c for c in every(ep, "list_competitors") if c["id"] != comp["id"])
    args = {"product_id": p["id"], "competitor_id": comp["id"]}
    refused(ep, "add_url", "rule_violation", "url", url=f"https://www.{other['domain']}/p/1", **args)
    made = ok(ep, "add_url", url=f"https://shop.{comp['domain']}/p/{p['sku']}", **args)
    assert (made["status"], made["last_price"]) == ("tracking", None)
    refused(ep, "add_url", "conflict", "competitor_id", url=f"https://www.{comp['domain']}/x", **args)


def test_recording_prices_raises_undercut_and_stock_alerts(ep: Episode) -> None:
    u = next(u for u in every(ep, "list_urls", status="tracking") if u["in_stock"])
    p = ok(ep, "get_product", product_id=u["product_id"])
    before = len(every(ep, "list_alerts", product_id=p["id"]))
    ok(ep, "record_price", url_id=u["id"], price=p["price"] - 500)
    alert = every(ep, "list_alerts", product_id=p["id"])[-1]
    assert (alert["kind"], alert["competitor_price"], alert["status"]) == ("undercut", p["price"] - 500, "open")
    ok(ep, "record_price", url_id=u["id"], price=p["price"] - 500, in_stock=False)
    assert every(ep, "list_alerts", product_id=p["id"])[-1]["kind"] == "out_of_stock"
    assert len(every(ep, "list_alerts", product_id=p["id"])) == before + 2
    assert ok(ep, "get_url", url_id=u["id"])["in_stock"] is False
    refused(ep, "record_price", "rule_violation", "price", url_id=u["id"], price=0)
    broken = every(ep, "list_urls", status="broken")[0]
    refused(ep, "record_price", "rule_violation", "url_id", url_id=broken["id"], price=1000)


def test_rules_refuse_bad_owners_strategies_targets_and_ceilings(ep: Episode) -> None:
    p = unruled(ep)
    base = {"name": "Test", "scope": "product", "target": p["id"], "owner_email": ANALYST}
    refused(
        ep,
        "create_rule",
        "rule_violation",
        "owner_email",
        strategy="match_lowest",
        **(base | {"owner_email": "x@y.io"}),
    )
    refused(ep, "create_rule", "rule_violation", "beat_by", strategy="beat_lowest", **base)
    refused(ep, "create_rule", "rule_violation", "margin_percent", strategy="target_margin", **base)
    refused(ep, "create_rule", "rule_violation", "ceiling", strategy="match_lowest", ceiling=p["cost"], **base)
    refused(
        ep,
        "create_rule",
        "rule_violation",
        "target",
        strategy="match_lowest",
        **(base | {"scope": "brand", "target": "Nobody"}),
    )
    taken = every(ep, "list_rules", status="active", scope="category")[0]
    refused(
        ep,
        "create_rule",
        "conflict",
        "target",
        strategy="match_lowest",
        **(base | {"scope": "category", "target": taken["target"]}),
    )
    rule = ok(ep, "create_rule", strategy="beat_lowest", beat_by=100, **base)
    assert (rule["status"], rule["floor_margin_percent"]) == ("active", 5)


def test_a_price_change_is_proposed_approved_and_pushed_to_the_product(ep: Episode) -> None:
    p = unruled(ep)
    refused(ep, "reprice_product", "rule_violation", "product_id", product_id=p["id"])
    ok(ep, "create_rule", name="Match", scope="product", target=p["id"], strategy="match_lowest", owner_email=ANALYST)
    pos = ok(ep, "price_position", product_id=p["id"])
    change = ok(ep, "reprice_product", product_id=p["id"])
    assert (change["status"], change["old_price"]) == ("pending", p["price"])
    assert change["new_price"] == max(pos["lowest"], round(p["cost"] * 1.05))
    refused(ep, "reprice_product", "conflict", "product_id", product_id=p["id"])
    refused(ep, "push_change", "rule_violation", "change_id", change_id=change["id"])
    refused(ep, "approve_change", "rule_violation", "approved_by", change_id=change["id"], approved_by="a@b.io")
    assert ok(ep, "approve_change", change_id=change["id"], approved_by=ANALYST)["status"] == "approved"
    pushed = ok(ep, "push_change", change_id=change["id"])
    assert pushed["status"] == "pushed" and pushed["pushed_at"] is not None
    assert ok(ep, "get_product", product_id=p["id"])["price"] == change["new_price"]
    refused(ep, "push_change", "rule_violation", "change_id", change_id=change["id"])


def test_the_floor_keeps_a_beat_rule_above_cost_plus_margin(ep: Episode) -> None:
    p = unruled(ep)
    ok(
        ep,
        "create_rule",
        name="Undercut hard",
        scope="product",
        target=p["id"],
        strategy="beat_lowest",
        beat_by=p["price"],
        floor_margin_percent=20,
        owner_email=ANALYST,
    )
    change = ok(ep, "reprice_product", product_id=p["id"])
    assert change["new_price"] == round(p["cost"] * 1.2)


def test_rejecting_needs_a_reason_and_only_pending_changes_are_decided(ep: Episode) -> None:
    pending = every(ep, "list_changes", status="pending")[0]
    refused(ep, "reject_change", "rule_violation", "note", change_id=pending["id"], approved_by=ANALYST, note="  ")
    done = ok(ep, "reject_change", change_id=pending["id"], approved_by=ANALYST, note="Promotion running")
    assert (done["status"], done["approved_by"]) == ("rejected", ANALYST)
    pushed = every(ep, "list_changes", status="pushed")[0]
    refused(ep, "approve_change", "rule_violation", "change_id", change_id=pushed["id"], approved_by=ANALYST)


def test_alerts_move_from_open_to_acknowledged_to_resolved(ep: Episode) -> None:
    alert = every(ep, "list_alerts", status="open")[0]
    assert ok(ep, "acknowledge_alert", alert_id=alert["id"])["status"] == "acknowledged"
    refused(ep, "acknowledge_alert", "rule_violation", "alert_id", alert_id=alert["id"])
    assert ok(ep, "resolve_alert", alert_id=alert["id"])["status"] == "resolved"
    refused(ep, "resolve_alert", "rule_violation", "alert_id", alert_id=alert["id"])


def test_products_are_unique_by_sku_never_below_cost_and_kept_while_changes_wait(ep: Episode) -> None:
    known = every(ep, "list_products")[0]
    new = {"name": "Trail Lamp", "brand": "Acme", "category": "outdoor", "cost": 1000}
    refused(ep, "create_product", "conflict", "sku", sku=known["sku"], price=2000, **new)
    refused(ep, "create_product", "rule_violation", "price", sku="OUT-9999", price=900, **new)
    assert ok(ep, "create_product", sku="OUT-9999", price=2000, **new)["price"] == 2000
    waiting = every(ep, "list_changes", status="approved")[0]
    refused(ep, "delete_product", "conflict", "product_id", product_id=waiting["product_id"])


def test_a_paused_rule_resumes_only_when_its_target_is_free(ep: Episode) -> None:
    rule = every(ep, "list_rules", status="active")[0]
    ok(ep, "pause_rule", rule_id=rule["id"])
    twin = ok(
        ep,
        "create_rule",
        name="Twin",
        scope=rule["scope"],
        target=rule["target"],
        strategy="match_lowest",
        owner_email=ANALYST,
    )
    refused(ep, "resume_rule", "conflict", "rule_id", rule_id=rule["id"])
    ok(ep, "pause_rule", rule_id=twin["id"])
    assert ok(ep, "resume_rule", rule_id=rule["id"])["status"] == "active"
    refused(ep, "resume_rule", "rule_violation", "rule_id", rule_id=rule["id"])


def test_price_position_ranks_us_among_in_stock_competitors(ep: Episode) -> None:
    for p in every(ep, "list_products")[:4]:
        live = [
            u["last_price"]
            for u in every(ep, "list_urls", product_id=p["id"], status="tracking")
            if u["in_stock"] and u["last_price"] is not None
        ]
        pos = ok(ep, "price_position", product_id=p["id"])
        assert pos["lowest"] == (min(live) if live else None)
        assert pos["rank"] == 1 + sum(x < p["price"] for x in live)
