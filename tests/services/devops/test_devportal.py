"""Harbor Catalog: registering entities, relations and deprecation, scorecard levels, initiatives."""

from __future__ import annotations

from typing import Any

from compoworld import Episode
from tests.services.helpers import ServiceTools

DP = ServiceTools("devportal")
WORLD = DP.world
ok, refused, every = DP.ok, DP.refused, DP.every
POP = WORLD.population
STAFF = {p.email for p in POP.employees}
LEAD = POP.employees[0].email


def entity(ep: Episode, name: str) -> dict[str, Any]:
    return every(ep, "list_entities", name=name)[0]


def card(ep: Episode, name: str) -> dict[str, Any]:
    return every(ep, "list_scorecards", query=name)[0]


def grades(ep: Episode, name: str) -> dict[str, dict[str, Any]]:
    return {g["name"]: g for g in ok(ep, "scorecard_report", scorecard_id=card(ep, name)["id"])}


def test_seeded_teams_are_staff_and_relations_point_at_catalog_entities(ep: Episode) -> None:
    for t in every(ep, "list_teams"):
        assert t["lead_email"] in STAFF and set(t["member_emails"]) <= STAFF
    ids = {e["id"] for e in every(ep, "list_entities")}
    for e in every(ep, "list_entities"):
        assert set(e["depends_on"]) <= ids
        if e["system_id"]:
            assert ok(ep, "get_entity", entity_id=e["system_id"])["kind"] == "system"


def test_names_are_unique_per_kind_and_new_entities_are_experimental(ep: Episode) -> None:
    refused(ep, "register_entity", "conflict", "name", kind="component", name="orders-service")
    made = ok(ep, "register_entity", kind="api", name="orders-service", type="grpc")
    assert made["lifecycle"] == "experimental"
    assert ok(ep, "promote_entity", entity_id=made["id"])["lifecycle"] == "production"


def test_nothing_new_may_depend_on_a_deprecated_entity(ep: Episode) -> None:
    legacy = entity(ep, "legacy-billing")
    refused(
        ep,
        "register_entity",
        "rule_violation",
        "depends_on",
        kind="component",
        name="new-thing",
        depends_on=[legacy["id"]],
    )
    orders = entity(ep, "orders-service")
    refused(
        ep,
        "update_entity",
        "rule_violation",
        "depends_on",
        entity_id=orders["id"],
        depends_on=[*orders["depends_on"], legacy["id"]],
    )
    payments = entity(ep, "payments-service")
    ok(ep, "update_entity", entity_id=payments["id"], description="Card payments")


def test_an_entity_others_refer_to_cannot_be_unregistered(ep: Episode) -> None:
    ui = entity(ep, "ui-kit")
    refused(ep, "delete_entity", "conflict", "entity_id", entity_id=ui["id"])
    web = entity(ep, "checkout-web")
    ok(ep, "update_entity", entity_id=web["id"], depends_on=[d for d in web["depends_on"] if d != ui["id"]])
    ok(ep, "delete_entity", entity_id=ui["id"])
    refused(ep, "delete_entity", "conflict", "entity_id", entity_id=entity(ep, "commerce")["id"])


def test_levels_need_every_rule_of_their_level_and_below(ep: Episode) -> None:
    g = grades(ep, "Production readiness")
    assert g["checkout-web"]["level"] == "gold" and g["checkout-web"]["failing"] == []
    assert g["payments-service"]["level"] == "bronze"
    assert set(g["payments-service"]["failing"]) == {"has_oncall", "no_deprecated_deps"}
    assert g["route-optimizer"]["level"] is None


def test_fixing_a_rule_raises_the_level(ep: Episode) -> None:
    svc = entity(ep, "shipment-tracker")
    assert grades(ep, "Production readiness")["shipment-tracker"]["level"] == "bronze"
    ok(ep, "update_entity", entity_id=svc["id"], docs_url="https://docs.example.org/shipment-tracker")
    assert grades(ep, "Production readiness")["shipment-tracker"]["level"] == "gold"


def test_initiatives_complete_only_when_every_entity_reaches_the_level(ep: Episode) -> None:
    ini = every(ep, "list_initiatives", query="Owners for all")[0]
    refused(ep, "complete_initiative", "rule_violation", "initiative_id", initiative_id=ini["id"])
    route = entity(ep, "route-optimizer")
    team = every(ep, "list_teams", name="logistics")[0]
    ok(ep, "update_entity", entity_id=route["id"], owner_team_id=team["id"])
    assert ok(ep, "complete_initiative", initiative_id=ini["id"])["status"] == "completed"
    refused(ep, "complete_initiative", "conflict", "initiative_id", initiative_id=ini["id"])


def test_initiatives_need_a_future_deadline_and_block_scorecard_deletion(ep: Episode) -> None:
    sc = card(ep, "Production readiness")
    base = {"name": "Docs", "scorecard_id": sc["id"], "target_level": "silver", "owner_email": LEAD}
    refused(ep, "create_initiative", "rule_violation", "deadline", deadline="2020-01-01", **base)
    refused(ep, "delete_scorecard", "conflict", "scorecard_id", scorecard_id=sc["id"])
    for ini in every(ep, "list_initiatives", scorecard_id=sc["id"], status="active"):
        ok(ep, "cancel_initiative", initiative_id=ini["id"])
    ok(ep, "delete_scorecard", scorecard_id=sc["id"])


def test_scorecards_and_teams_refuse_duplicates_and_outsiders(ep: Episode) -> None:
    rules = [{"check": "has_owner", "level": "bronze"}]
    refused(ep, "create_scorecard", "rule_violation", "rules", name="X", owner_email=LEAD, rules=rules + rules)
    refused(ep, "create_scorecard", "conflict", "name", name="Ownership basics", owner_email=LEAD, rules=rules)
    refused(ep, "create_scorecard", "rule_violation", "owner_email", name="Y", owner_email="x@y.io", rules=rules)
    refused(ep, "create_team", "conflict", "name", name="payments", display_name="P", lead_email=LEAD)
    refused(ep, "create_team", "rule_violation", "lead_email", name="sre", display_name="SRE", lead_email="x@y.io")
    mine = ok(
        ep,
        "scorecard_report",
        scorecard_id=card(ep, "Ownership basics")["id"],
        owner_team_id=every(ep, "list_teams", name="payments")[0]["id"],
    )
    assert {g["name"] for g in mine} == {"payments-service", "legacy-billing"}
