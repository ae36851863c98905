"""Sentinel Exchange: events and indicators, publishing rules, TLP tags, galaxies, sightings, sharing groups."""

from __future__ import annotations

from typing import Any

from compoworld import Episode
from tests.services.helpers import ServiceTools

TI = ServiceTools("threatintel")
WORLD = TI.world
ok, refused, every = TI.ok, TI.refused, TI.every
POP = WORLD.population
STAFF = {p.email for p in POP.employees}
ANALYST = POP.employees[0].email


def new_event(ep: Episode, **extra: Any) -> dict[str, Any]:
    args = {
        "info": "Fake parcel SMS campaign",
        "creator_email": ANALYST,
        "threat_level": "medium",
        "date": "2026-11-02",
    }
    made: dict[str, Any] = ok(ep, "create_event", **(args | extra))
    return made


def test_seeded_events_are_ours_or_partners_and_counts_match(ep: Episode) -> None:
    names = {c.name for c in POP.companies}
    for ev in every(ep, "list_events"):
        assert ev["orgc"] in names and ev["creator_email"] in STAFF
        assert len(every(ep, "list_attributes", event_id=ev["id"])) == ev["attribute_count"]
        if ev["published"]:
            assert any(t.startswith("tlp:") for t in ev["tags"])
    for a in every(ep, "list_attributes"):
        assert len(every(ep, "list_sightings", attribute_id=a["id"], type="sighting")) == a["sighting_count"]


def test_a_new_event_is_ours_and_unpublished(ep: Episode) -> None:
    ev = new_event(ep)
    assert (ev["orgc"], ev["published"], ev["analysis"]) == (POP.home.name, False, "initial")
    refused(ep, "create_event", "rule_violation", "creator_email", info="x", creator_email="a@b.io", date="2026-11-02")


def test_attribute_values_must_fit_their_type_and_be_new_to_the_event(ep: Episode) -> None:
    ev = new_event(ep)
    refused(ep, "add_attribute", "rule_violation", "value", event_id=ev["id"], type="ip-dst", value="300.1.1.1")
    refused(ep, "add_attribute", "rule_violation", "value", event_id=ev["id"], type="md5", value="abc")
    a = ok(ep, "add_attribute", event_id=ev["id"], type="domain", value="parcel-redelivery.info")
    assert (a["to_ids"], a["category"]) == (True, "Network activity")
    refused(ep, "add_attribute", "conflict", "value", event_id=ev["id"], type="domain", value="parcel-redelivery.info")
    f = ok(ep, "add_attribute", event_id=ev["id"], type="filename", value="redelivery.apk")
    assert (f["to_ids"], f["category"]) == (False, "Payload delivery")
    assert ok(ep, "get_event", event_id=ev["id"])["attribute_count"] == 2


def test_publishing_needs_attributes_and_a_tlp_tag(ep: Episode) -> None:
    ev = new_event(ep)
    refused(ep, "publish_event", "rule_violation", "event_id", event_id=ev["id"])
    ok(ep, "add_attribute", event_id=ev["id"], type="ip-src", value="203.0.113.9")
    refused(ep, "publish_event", "rule_violation", "event_id", event_id=ev["id"])
    ok(ep, "tag_event", event_id=ev["id"], tag="tlp:green")
    done = ok(ep, "publish_event", event_id=ev["id"])
    assert done["published"] and done["published_at"] is not None
    refused(ep, "publish_event", "conflict", "event_id", event_id=ev["id"])


def test_editing_a_published_event_unpublishes_it(ep: Episode) -> None:
    ev = every(ep, "list_events", published=True)[0]
    ok(ep, "add_attribute", event_id=ev["id"], type="ip-dst", value="198.51.100.23")
    assert ok(ep, "get_event", event_id=ev["id"])["published"] is False
    ok(ep, "publish_event", event_id=ev["id"])
    ok(ep, "update_event", event_id=ev["id"], analysis="ongoing")
    assert ok(ep, "get_event", event_id=ev["id"])["published"] is False


def test_an_event_has_one_tlp_marking_and_known_tags_only(ep: Episode) -> None:
    ev = every(ep, "list_events", published=True)[0]
    refused(ep, "tag_event", "conflict", "tag", event_id=ev["id"], tag="tlp:white")
    refused(ep, "tag_event", "rule_violation", "tag", event_id=ev["id"], tag="apt")
    ok(ep, "create_tag", name="apt")
    ok(ep, "tag_event", event_id=ev["id"], tag="apt")
    old = next(t for t in ev["tags"] if t.startswith("tlp:"))
    tag = every(ep, "list_tags", name=old)[0]
    refused(ep, "delete_tag", "conflict", "tag_id", tag_id=tag["id"])
    ok(ep, "untag_event", event_id=ev["id"], tag=old)
    assert "tlp:white" in ok(ep, "tag_event", event_id=ev["id"], tag="tlp:white")["tags"]


def test_sightings_count_and_expiration_turns_ids_off(ep: Episode) -> None:
    a = every(ep, "list_attributes", type="ip-dst")[0]
    ok(ep, "add_sighting", attribute_id=a["id"], source="VPN logs", reported_by=ANALYST)
    ok(ep, "add_sighting", attribute_id=a["id"], source="SIEM", type="false_positive")
    again = ok(ep, "get_attribute", attribute_id=a["id"])
    assert (again["sighting_count"], again["false_positive_count"]) == (a["sighting_count"] + 1, 1)
    refused(ep, "add_sighting", "rule_violation", "reported_by", attribute_id=a["id"], source="x", reported_by="z@q.io")
    ok(ep, "add_sighting", attribute_id=a["id"], source="Retention review", type="expiration")
    assert ok(ep, "get_attribute", attribute_id=a["id"])["to_ids"] is False
    refused(ep, "add_sighting", "conflict", "type", attribute_id=a["id"], source="again", type="expiration")


def test_search_finds_an_indicator_across_events(ep: Episode) -> None:
    hits = ok(ep, "search_indicators", value="185.220.101.47")
    assert len({h["event_id"] for h in hits}) == 2
    assert {h["type"] for h in hits} == {"ip-src", "ip-dst"}
    assert ok(ep, "search_indicators", value="192.0.2.200") == []


def test_sharing_group_distribution_needs_an_active_group(ep: Episode) -> None:
    dead = every(ep, "list_sharing_groups", active=False)[0]
    live = every(ep, "list_sharing_groups", active=True)[0]
    refused(
        ep,
        "create_event",
        "rule_violation",
        "sharing_group_id",
        info="x",
        creator_email=ANALYST,
        date="2026-11-02",
        distribution="sharing_group",
    )
    refused(
        ep,
        "update_event",
        "rule_violation",
        "sharing_group_id",
        event_id=new_event(ep)["id"],
        distribution="sharing_group",
        sharing_group_id=dead["id"],
    )
    used = every(ep, "list_events", distribution="sharing_group")
    assert used and used[0]["sharing_group_id"] == live["id"]
    refused(ep, "deactivate_sharing_group", "rule_violation", "sharing_group_id", sharing_group_id=live["id"])


def test_deleting_an_event_removes_its_attributes_and_galaxy_tags_attach_once(ep: Episode) -> None:
    ev = every(ep, "list_events", threat_level="high")[0]
    actor = every(ep, "list_clusters", galaxy="threat-actor")[0]
    tagged = ok(ep, "attach_cluster", event_id=ev["id"], cluster_id=actor["id"])
    assert f'misp-galaxy:threat-actor="{actor["value"].lower()}"' in tagged["tags"]
    refused(ep, "attach_cluster", "conflict", "cluster_id", event_id=ev["id"], cluster_id=actor["id"])
    before = len(every(ep, "list_attributes"))
    ok(ep, "delete_event", event_id=ev["id"])
    assert len(every(ep, "list_attributes")) == before - ev["attribute_count"]
    assert all(s["event_id"] != ev["id"] for s in every(ep, "list_sightings"))
