"""MarkSearch: statuses agree with their documents, the world's marks, similarity, and clearance searches."""

from __future__ import annotations

from compoworld import Episode
from tests.services.helpers import ServiceTools

TM = ServiceTools("trademarks")
WORLD = TM.world
ok, refused, every = TM.ok, TM.refused, TM.every
POP = WORLD.population
STAFF = [p.email for p in POP.employees]
TODAY = WORLD.epoch.date().isoformat()
HOME = POP.home.name.split()[0].upper()
LAST_DOC = {
    "NEW APPLICATION": ("TEAS New Application", "Response to Office Action"),
    "NON-FINAL ACTION": ("Non-Final Action",),
    "PUBLISHED FOR OPPOSITION": ("Notice of Publication",),
    "NOTICE OF ALLOWANCE": ("Notice of Allowance",),
    "REGISTERED": ("Registration Certificate",),
    "ABANDONED": ("Notice of Abandonment",),
    "CANCELLED": ("Section 8 Cancellation",),
}


def test_each_status_agrees_with_its_documents_and_dates(ep: Episode) -> None:
    for m in ok(ep, "search_marks", limit=100):
        docs = ok(ep, "list_mark_documents", serial_number=m["serial_number"])
        dates = [d["mail_date"] for d in docs]
        assert docs[0]["document_type"] == "TEAS New Application" and dates == sorted(dates) and dates[-1] <= TODAY
        assert docs[-1]["document_type"] in LAST_DOC[m["status"]] and m["status_date"] == dates[-1]
        assert (m["registration_number"] is not None) == (m["registration_date"] is not None)
        assert m["live"] == (m["status"] not in ("ABANDONED", "CANCELLED"))
        assert len(m["serial_number"]) == (9 if m["office"] == "EM" else 8)


def test_the_home_companys_marks_are_on_the_register(ep: Episode) -> None:
    mine = ok(ep, "search_marks", owner=POP.home.name, limit=100)
    texts = {m["mark"] for m in mine}
    assert {HOME, f"{HOME} CLOUD", f"{HOME} LABS"} <= texts
    assert {p.name.upper() for p in POP.products[:2]} <= texts
    assert all(m["owner_domain"] == POP.home.domain for m in mine)
    owners = {o["owner_name"]: o for o in ok(ep, "search_owners", name=POP.home.name)}
    home = owners[POP.home.name]
    assert home["live_marks"] + home["dead_marks"] == len(mine)


def test_search_filters_agree(ep: Episode) -> None:
    for m in ok(ep, "search_marks", nice_class=42, live_only=True, office="US", limit=100):
        assert 42 in [g["nice_class"] for g in m["goods_services"]] and m["live"] and m["office"] == "US"
    reg = ok(ep, "search_marks", status="REGISTERED", limit=100)
    assert reg and all(m["status"] == "REGISTERED" for m in reg)
    refused(ep, "get_mark", "not_found", "serial_number", serial_number="12345678")
    assert len(ok(ep, "list_nice_classes")) == 45
    assert [c["nice_class"] for c in ok(ep, "list_nice_classes", kind="services")] == list(range(35, 46))


def test_similarity_is_symmetric_and_ranks_look_alikes(ep: Episode) -> None:
    same = ok(ep, "compare_marks", mark_a="Zephyr", mark_b="ZEPHYR")
    assert same["score"] == 1.0 and same["likely_confusing"]
    far = ok(ep, "compare_marks", mark_a="ZEPHYR", mark_b="QUILLMORE")
    assert far["score"] < 0.7 and not far["likely_confusing"]
    a = ok(ep, "compare_marks", mark_a="KESTREL", mark_b="KESTRELIO")["score"]
    assert a == ok(ep, "compare_marks", mark_a="KESTRELIO", mark_b="KESTREL")["score"] >= 0.7


def test_knockout_and_a_clearance_run_find_the_same_marks(ep: Episode) -> None:
    draft = TM.first(ep, "clearances", status="draft")
    ok(ep, "update_clearance", clearance_id=draft["id"], name="Launch")
    knock = ok(ep, "knockout_search", proposed_mark=draft["proposed_mark"], classes=draft["classes"])
    found = ok(ep, "run_clearance", clearance_id=draft["id"])
    assert [h["serial_number"] for h in found] == [k["mark"]["serial_number"] for k in knock]
    assert all(k["score"] >= 0.7 and k["mark"]["live"] and k["overlapping_classes"] for k in knock)
    assert ok(ep, "get_clearance", clearance_id=draft["id"])["status"] == "in_review"
    c = TM.first(ep, "clearances", proposed_mark=f"{HOME} PLUS")
    before = {h["id"]: h["review"] for h in every(ep, "list_hits", clearance_id=c["id"])}
    again = ok(ep, "run_clearance", clearance_id=c["id"])
    assert {h["id"]: h["review"] for h in again} == before


def test_a_clearance_concludes_only_when_every_hit_is_reviewed(ep: Episode) -> None:
    c = TM.first(ep, "clearances", proposed_mark=f"{HOME} PLUS")
    refused(ep, "conclude_clearance", "rule_violation", "clearance_id", clearance_id=c["id"], opinion="risky", note="x")
    for h in every(ep, "list_hits", clearance_id=c["id"], review="unreviewed"):
        refused(
            ep,
            "review_hit",
            "rule_violation",
            "note",
            hit_id=h["id"],
            review="no_conflict",
            reviewed_by=STAFF[0],
            note=" ",
        )
        refused(
            ep,
            "review_hit",
            "rule_violation",
            "reviewed_by",
            hit_id=h["id"],
            review="no_conflict",
            reviewed_by=POP.contacts[0].email,
            note="x",
        )
        ok(ep, "review_hit", hit_id=h["id"], review="no_conflict", reviewed_by=STAFF[0], note="Other goods")
    assert any(h["review"] == "conflict" for h in every(ep, "list_hits", clearance_id=c["id"]))
    refused(ep, "conclude_clearance", "rule_violation", "opinion", clearance_id=c["id"], opinion="clear", note="x")
    done = ok(ep, "conclude_clearance", clearance_id=c["id"], opinion="blocked", note="Same field")
    assert done["status"] == "concluded" and "Opinion: blocked" in ok(
        ep, "export_clearance_report", clearance_id=c["id"]
    )


def test_concluded_clearances_are_frozen_until_archived(ep: Episode) -> None:
    c = TM.first(ep, "clearances", status="concluded")
    refused(ep, "run_clearance", "rule_violation", "clearance_id", clearance_id=c["id"])
    hit = every(ep, "list_hits", clearance_id=c["id"])[0]
    refused(
        ep,
        "review_hit",
        "rule_violation",
        "hit_id",
        hit_id=hit["id"],
        review="conflict",
        reviewed_by=STAFF[0],
        note="x",
    )
    refused(ep, "update_clearance", "rule_violation", "clearance_id", clearance_id=c["id"], name="New")
    assert ok(ep, "archive_clearance", clearance_id=c["id"])["status"] == "archived"


def test_hits_are_added_once_and_only_for_live_marks(ep: Episode) -> None:
    c = TM.first(ep, "clearances", status="in_review")
    have = every(ep, "list_hits", clearance_id=c["id"])
    refused(ep, "add_hit", "conflict", "serial_number", clearance_id=c["id"], serial_number=have[0]["serial_number"])
    dead = ok(ep, "search_marks", status="ABANDONED", limit=1)[0]
    refused(ep, "add_hit", "rule_violation", "serial_number", clearance_id=c["id"], serial_number=dead["serial_number"])
    live = next(
        m
        for m in ok(ep, "search_marks", live_only=True, limit=100)
        if m["serial_number"] not in {h["serial_number"] for h in have}
    )
    ok(ep, "add_hit", clearance_id=c["id"], serial_number=live["serial_number"])
    assert ok(ep, "get_clearance", clearance_id=c["id"])["hit_count"] == c["hit_count"] + 1
    refused(
        ep,
        "create_clearance",
        "rule_violation",
        "requested_by",
        name="x",
        proposed_mark="ABC",
        classes=[9],
        requested_by=POP.contacts[0].email,
    )
