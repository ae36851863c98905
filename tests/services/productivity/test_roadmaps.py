"""Roadwise: notes and insights, feature scores, statuses and releases, portal cards and votes."""

from __future__ import annotations

from typing import Any

from compoworld import Episode
from tests.services.helpers import ServiceTools

RM = ServiceTools("roadmaps")
WORLD = RM.world
ok, refused, every = RM.ok, RM.refused, RM.every
POP = WORLD.population
WEIGHT = {"nice_to_have": 1, "important": 2, "critical": 3}


def feature(ep: Episode, name: str) -> dict[str, Any]:
    return next(f for f in every(ep, "list_features") if f["name"] == name)


def release(ep: Episode, name: str) -> dict[str, Any]:
    return next(r for r in every(ep, "list_releases") if r["name"] == name)


def test_notes_come_from_customer_contacts_with_their_company(ep: Episode) -> None:
    for n in every(ep, "list_notes", source="call") + every(ep, "list_notes", source="email"):
        person = next(p for p in POP.people if p.email == n["customer_email"])
        company = POP.company_of(person)
        assert company is not None and n["company_name"] == company.name


def test_scores_follow_insight_importance_value_and_effort(ep: Episode) -> None:
    for f in every(ep, "list_features"):
        ins = every(ep, "list_insights", feature_id=f["id"])
        sc = ok(ep, "feature_score", feature_id=f["id"])
        impact = sum(WEIGHT[i["importance"]] for i in ins)
        assert (sc["insights"], sc["user_impact"]) == (len(ins), impact)
        assert sc["priority_score"] == round((impact + f["business_value"]) * 10 / f["effort"], 1)


def test_linking_a_note_processes_it_and_counts_once(ep: Episode) -> None:
    note = every(ep, "list_notes", state="unprocessed")[0]
    f = feature(ep, "Custom dashboards")
    before = ok(ep, "feature_score", feature_id=f["id"])["user_impact"]
    ok(ep, "link_insight", note_id=note["id"], feature_id=f["id"], importance="critical")
    assert ok(ep, "get_note", note_id=note["id"])["state"] == "processed"
    assert ok(ep, "feature_score", feature_id=f["id"])["user_impact"] == before + 3
    refused(ep, "link_insight", "conflict", "feature_id", note_id=note["id"], feature_id=f["id"])
    old = every(ep, "list_notes", state="archived")[0]
    refused(ep, "link_insight", "rule_violation", "note_id", note_id=old["id"], feature_id=f["id"])


def test_feature_names_are_unique_in_their_component(ep: Episode) -> None:
    comp = every(ep, "list_components", name="Billing")[0]
    refused(ep, "create_feature", "conflict", "name", name="bulk INVOICE export", component_id=comp["id"])
    refused(
        ep,
        "create_feature",
        "rule_violation",
        "owner_email",
        name="Tax report",
        component_id=comp["id"],
        owner_email="a@b.io",
    )
    other = every(ep, "list_components", name="Reporting")[0]
    assert ok(ep, "create_feature", name="Bulk invoice export", component_id=other["id"])["status"] == "new_idea"


def test_releasing_needs_a_started_release(ep: Episode) -> None:
    f = feature(ep, "Multi-currency invoices")
    assert f["release_id"] == release(ep, "2026 Q3")["id"]
    refused(ep, "set_feature_status", "rule_violation", "status", feature_id=f["id"], status="released")
    refused(
        ep,
        "assign_release",
        "rule_violation",
        "release_id",
        feature_id=f["id"],
        release_id=release(ep, "2026 Q1")["id"],
    )
    ok(ep, "assign_release", feature_id=f["id"], release_id=release(ep, "2026 Q2")["id"])
    assert ok(ep, "set_feature_status", feature_id=f["id"], status="released")["status"] == "released"
    refused(ep, "assign_release", "rule_violation", "feature_id", feature_id=f["id"])


def test_a_release_completes_only_when_its_features_are_released(ep: Episode) -> None:
    q2 = release(ep, "2026 Q2")
    refused(ep, "complete_release", "rule_violation", "release_id", release_id=q2["id"])
    for f in every(ep, "list_features", release_id=q2["id"]):
        if f["name"] == "Salesforce sync":
            ok(ep, "assign_release", feature_id=f["id"])
        else:
            ok(ep, "set_feature_status", feature_id=f["id"], status="released")
    assert ok(ep, "complete_release", release_id=q2["id"])["state"] == "completed"


def test_portal_votes_become_linked_portal_notes_once_per_customer(ep: Episode) -> None:
    card = every(ep, "list_portal_cards", status="published")[0]
    f = ok(ep, "get_feature", feature_id=card["feature_id"])
    before = ok(ep, "feature_score", feature_id=f["id"])["insights"]
    who = POP.consumers[10]
    ins = ok(ep, "vote_on_card", card_id=card["id"], email=who.email, name=who.name, importance="critical")
    note = ok(ep, "get_note", note_id=ins["note_id"])
    assert (note["source"], note["customer_email"], ins["feature_id"]) == ("portal", who.email, f["id"])
    assert ok(ep, "feature_score", feature_id=f["id"])["insights"] == before + 1
    refused(ep, "vote_on_card", "conflict", "email", card_id=card["id"], email=who.email, name=who.name)
    hidden = every(ep, "list_portal_cards", status="unpublished")[0]
    refused(ep, "vote_on_card", "rule_violation", "card_id", card_id=hidden["id"], email=who.email, name=who.name)


def test_wont_do_features_leave_the_portal(ep: Episode) -> None:
    card = every(ep, "list_portal_cards", status="published")[0]
    ok(ep, "set_feature_status", feature_id=card["feature_id"], status="wont_do")
    assert ok(ep, "get_portal_card", portal_card_id=card["id"])["status"] == "unpublished"
    refused(ep, "create_portal_card", "rule_violation", "feature_id", feature_id=card["feature_id"])
    ftp = feature(ep, "Legacy FTP import")
    refused(ep, "create_portal_card", "rule_violation", "feature_id", feature_id=ftp["id"])
    sf = feature(ep, "Salesforce sync")
    ok(ep, "create_portal_card", feature_id=sf["id"])
    refused(ep, "create_portal_card", "conflict", "feature_id", feature_id=sf["id"])


def test_features_with_insights_are_not_deleted(ep: Episode) -> None:
    f = feature(ep, "Bulk invoice export")
    refused(ep, "delete_feature", "conflict", "feature_id", feature_id=f["id"])
    ftp = feature(ep, "Legacy FTP import")
    ok(ep, "delete_feature", feature_id=ftp["id"])
