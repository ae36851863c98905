"""Signalpost Status (Statuspage-style): component statuses follow incidents, maintenances, subscribers."""

from __future__ import annotations

from typing import Any

from compoworld import Episode
from tests.services.helpers import ServiceTools

SP = ServiceTools("statuspage")
WORLD = SP.world
ok, refused, every, items, first = SP.ok, SP.refused, SP.every, SP.items, SP.first
POP = WORLD.population


def page(ep: Episode) -> dict[str, Any]:
    return first(ep, "pages", query="Status")


def comp(ep: Episode, name: str) -> dict[str, Any]:
    return first(ep, "components", page_id=page(ep)["id"], query=name)


def status_of(ep: Episode, component_id: str) -> str:
    return str(next(c for c in items(ep, "components") if c["id"] == component_id)["status"])


def open_incident(ep: Episode, name: str, *affected: tuple[str, str], **extra: Any) -> dict[str, Any]:
    comps = [{"component_id": comp(ep, c)["id"], "status": st} for c, st in affected]
    return dict(
        ok(ep, "create_incident", page_id=page(ep)["id"], name=name, body="Investigating.", components=comps, **extra)
    )


# -- the seeded world -----------------------------------------------------------------------


def test_the_page_is_the_home_companys_and_subscribers_are_its_customers() -> None:
    ep = Episode(WORLD)
    p = page(ep)
    assert p["company"] == POP.home.name and p["url"] == f"https://status.{POP.home.domain}"
    customers = {x.email for x in POP.contacts} | {x.email for x in POP.consumers}
    subs = every(ep, "list_subscribers")
    assert subs and all(s["email"] in customers for s in subs)
    assert all(s["phone"] for s in subs if s["mode"] == "sms")


def test_seeded_component_statuses_follow_the_open_incidents() -> None:
    ep = Episode(WORLD)
    open_incs = [i for i in every(ep, "list_incidents", kind="incident") if i["status"] != "resolved"]
    affected = {ac["component_id"]: ac["status"] for i in open_incs for ac in i["components"]}
    for c in every(ep, "list_components"):
        assert c["status"] == affected.get(c["id"], "operational")


# -- incidents ------------------------------------------------------------------------------


def test_an_incident_sets_its_components_and_derives_its_impact(ep: Episode) -> None:
    res = open_incident(ep, "API down", ("API", "major_outage"), ("Web app", "degraded_performance"))
    assert res["incident"]["impact"] == "critical" and res["incident"]["status"] == "investigating"
    assert status_of(ep, comp(ep, "API")["id"]) == "major_outage"
    assert {c["status"] for c in res["components"]} == {"major_outage", "degraded_performance"}
    summary = ok(ep, "page_summary", page_id=page(ep)["id"])
    assert (summary["indicator"], summary["description"]) == ("critical", "Major System Outage")
    assert res["incident"]["id"] in summary["open_incidents"]


def test_a_component_shows_the_worst_status_of_its_open_incidents(ep: Episode) -> None:
    api = comp(ep, "API")["id"]
    bad = open_incident(ep, "API outage", ("API", "major_outage"))
    mild = open_incident(ep, "API slow", ("API", "degraded_performance"))
    ok(ep, "update_incident", incident_id=bad["incident"]["id"], status="resolved", body="Fixed.")
    assert status_of(ep, api) == "degraded_performance"
    ok(ep, "update_incident", incident_id=mild["incident"]["id"], status="resolved", body="Fixed.")
    assert status_of(ep, api) == "operational"


def test_a_resolved_incident_takes_no_more_updates(ep: Episode) -> None:
    done = first(ep, "incidents", kind="incident", status="resolved")
    refused(
        ep,
        "update_incident",
        "rule_violation",
        "incident_id",
        incident_id=done["id"],
        status="monitoring",
        body="Back?",
    )
    live = first(ep, "incidents", kind="incident", status="identified")
    refused(ep, "update_incident", "rule_violation", "body", incident_id=live["id"], status="monitoring", body=" ")
    other_page = first(ep, "pages", query="Internal")
    foreign = first(ep, "components", page_id=page(ep)["id"])
    refused(
        ep,
        "create_incident",
        "rule_violation",
        "components",
        page_id=other_page["id"],
        name="X",
        body="Y",
        components=[{"component_id": foreign["id"], "status": "partial_outage"}],
    )


def test_updates_notify_the_confirmed_subscribers_of_the_affected_components(ep: Episode) -> None:
    target = comp(ep, "Payments")["id"]
    subs = items(ep, "subscribers", page_id=page(ep)["id"], confirmed=True)
    expected = sum(1 for s in subs if not s["component_ids"] or target in s["component_ids"])
    res = open_incident(ep, "Payments failing", ("Payments", "partial_outage"))
    assert res["update"]["notified"] == expected
    quiet = ok(
        ep,
        "update_incident",
        incident_id=res["incident"]["id"],
        status="identified",
        body="Found it.",
        deliver_notifications=False,
    )
    assert quiet["update"]["notified"] == 0
    assert [u["status"] for u in items(ep, "incident_updates", incident_id=res["incident"]["id"])] == [
        "investigating",
        "identified",
    ]


def test_components_go_under_maintenance_only_through_a_maintenance(ep: Episode) -> None:
    web = comp(ep, "Web app")
    refused(ep, "update_component", "rule_violation", "status", component_id=web["id"], status="under_maintenance")
    ok(ep, "update_component", component_id=web["id"], status="partial_outage")
    assert status_of(ep, web["id"]) == "partial_outage"


# -- maintenances ---------------------------------------------------------------------------


def test_a_maintenance_moves_components_under_maintenance_and_back(ep: Episode) -> None:
    maint = first(ep, "incidents", kind="maintenance", status="scheduled")
    ids = [ac["component_id"] for ac in maint["components"]]
    started = ok(ep, "update_maintenance", incident_id=maint["id"], status="in_progress", body="Started.")
    assert {c["status"] for c in started["components"]} == {"under_maintenance"}
    summary = ok(ep, "page_summary", page_id=page(ep)["id"])
    assert maint["id"] in summary["active_maintenances"]
    ok(ep, "update_maintenance", incident_id=maint["id"], status="completed", body="Done.")
    assert {status_of(ep, c) for c in ids} == {"operational"}
    refused(
        ep,
        "update_maintenance",
        "rule_violation",
        "status",
        incident_id=maint["id"],
        status="in_progress",
        body="Again",
    )


def test_maintenances_are_in_the_future_short_and_never_overlap(ep: Episode) -> None:
    maint = first(ep, "incidents", kind="maintenance", status="scheduled")
    comp_id = maint["components"][0]["component_id"]
    base = {"page_id": page(ep)["id"], "name": "Upgrade", "body": "Upgrade.", "component_ids": [comp_id]}
    refused(
        ep,
        "schedule_maintenance",
        "rule_violation",
        "scheduled_for",
        **base,
        scheduled_for="2026-03-01T00:00:00Z",
        scheduled_until="2026-03-01T01:00:00Z",
    )
    refused(
        ep,
        "schedule_maintenance",
        "rule_violation",
        "scheduled_until",
        **base,
        scheduled_for="2026-04-01T00:00:00Z",
        scheduled_until="2026-04-02T06:00:00Z",
    )
    refused(
        ep,
        "schedule_maintenance",
        "conflict",
        "scheduled_for",
        **base,
        scheduled_for=maint["scheduled_for"],
        scheduled_until=maint["scheduled_until"],
    )
    new = ok(
        ep, "schedule_maintenance", **base, scheduled_for="2026-04-01T00:00:00Z", scheduled_until="2026-04-01T02:00:00Z"
    )
    assert new["incident"]["status"] == "scheduled" and new["incident"]["shortlink"].startswith("https://")
    assert new["incident"]["id"] in ok(ep, "page_summary", page_id=page(ep)["id"])["upcoming_maintenances"]


# -- components and subscribers -------------------------------------------------------------


def test_a_component_of_an_open_incident_cannot_be_deleted(ep: Episode) -> None:
    live = first(ep, "incidents", kind="incident", status="identified")
    cid = live["components"][0]["component_id"]
    refused(ep, "delete_component", "rule_violation", "component_id", component_id=cid)
    refused(ep, "create_component", "conflict", "name", page_id=page(ep)["id"], name="API")
    new = ok(ep, "create_component", page_id=page(ep)["id"], name="Search")
    ok(ep, "delete_component", component_id=new["id"])


def test_subscribing_is_unique_per_page_and_sms_needs_a_phone(ep: Episode) -> None:
    p = page(ep)
    taken = first(ep, "subscribers", page_id=p["id"])
    refused(ep, "create_subscriber", "conflict", "email", page_id=p["id"], email=taken["email"])
    person = POP.consumers[-1]
    refused(ep, "create_subscriber", "rule_violation", "phone", page_id=p["id"], email=person.email, mode="sms")
    sub = ok(
        ep,
        "create_subscriber",
        page_id=p["id"],
        email=person.email,
        mode="sms",
        phone=person.phone,
        component_ids=[comp(ep, "API")["id"]],
    )
    assert not sub["confirmed"]
    assert ok(ep, "confirm_subscriber", subscriber_id=sub["id"])["confirmed"]
