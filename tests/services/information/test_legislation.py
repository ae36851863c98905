"""Capitol Tracker Legislation: consistent bills, actions, members and votes, and tracked bills."""

from __future__ import annotations

from compoworld import Episode
from tests.services.helpers import ServiceTools

LG = ServiceTools("legislation")
WORLD = LG.world
ok, refused, every = LG.ok, LG.refused, LG.every
POP = WORLD.population
STAFF = {p.email for p in POP.employees}
TODAY = WORLD.epoch.date().isoformat()
ORDER = ["Introduced", "In Committee", "Reported", "Passed House", "Passed Senate", "To President", "Became Law"]


def test_actions_run_in_order_and_match_the_status(ep: Episode) -> None:
    for b in ok(ep, "search_bills", limit=100):
        actions = ok(ep, "list_bill_actions", bill_id=b["bill_id"])
        dates = [a["action_date"] for a in actions]
        assert dates == sorted(dates) and dates[0] == b["introduced_date"] <= dates[-1] <= TODAY
        assert actions[0]["text"] == f"Introduced in {b['origin_chamber']}" and actions[-1] == b["latest_action"]
        passed = [a for a in actions if a["text"].startswith("Passed")]
        assert len(passed) == len(b["vote_ids"])
        assert (b["status"] == "Became Law") == any(a["type"] == "BecameLaw" for a in actions)
        if b["status"] in ORDER[3:]:
            assert len(passed) >= 1


def test_votes_belong_to_their_bills_and_passage_has_more_yeas(ep: Episode) -> None:
    seen = 0
    for b in ok(ep, "search_bills", limit=100):
        for vid in b["vote_ids"]:
            v = ok(ep, "get_vote", vote_id=vid)
            assert v["bill_id"] == b["bill_id"] and v["result"] == "Passed" and v["yeas"] > v["nays"]
            size = 435 if v["chamber"] == "House" else 100
            assert v["yeas"] + v["nays"] + v["not_voting"] == size
            assert all(
                ok(ep, "get_member", bioguide_id=p["bioguide_id"])["chamber"] == v["chamber"]
                for p in v["positions"][:3]
            )
            seen += 1
    assert seen > 0
    refused(ep, "get_vote", "not_found", "vote_id", vote_id="h9999")


def test_member_vote_records_agree_with_the_roll_calls(ep: Episode) -> None:
    member = ok(ep, "search_members", chamber="House")[0]
    record = ok(ep, "list_member_votes", bioguide_id=member["bioguide_id"])
    assert record
    for r in record[:5]:
        v = ok(ep, "get_vote", vote_id=r["vote_id"])
        mine = next(p for p in v["positions"] if p["bioguide_id"] == member["bioguide_id"])
        assert mine["position"] == r["position"]


def test_sponsors_and_cosponsors_are_members_of_the_origin_chamber(ep: Episode) -> None:
    for b in ok(ep, "search_bills", limit=100):
        sponsor = ok(ep, "get_member", bioguide_id=b["sponsor_id"])
        assert sponsor["chamber"] == b["origin_chamber"] and b["sponsor_name"].startswith(sponsor["name"])
        cos = ok(ep, "list_bill_cosponsors", bill_id=b["bill_id"])
        assert len(cos) == b["cosponsor_count"] and b["sponsor_id"] not in {c["bioguide_id"] for c in cos}
        assert all(c["sponsorship_date"] >= b["introduced_date"] for c in cos)
    m = ok(ep, "search_members")[0]
    sponsored = ok(ep, "list_sponsored_legislation", bioguide_id=m["bioguide_id"])
    assert len(sponsored) == m["sponsored_count"] and all(b["sponsor_id"] == m["bioguide_id"] for b in sponsored)


def test_committees_list_the_bills_referred_to_them(ep: Episode) -> None:
    for c in ok(ep, "list_committees"):
        for bid in c["bills_referred"]:
            assert c["system_code"] in ok(ep, "get_bill", bill_id=bid)["committee_codes"]
    assert all(c["chamber"] == "Senate" for c in ok(ep, "list_committees", chamber="Senate"))
    refused(ep, "get_committee", "not_found", "system_code", system_code="hzzz00")


def test_search_filters_agree_and_the_home_industry_has_bills(ep: Episode) -> None:
    mine = ok(ep, "search_bills", q=POP.home.industry)
    assert len(mine) == 3
    for b in ok(ep, "search_bills", policy_area="Taxation", chamber="Senate", limit=100):
        assert b["policy_area"] == "Taxation" and b["origin_chamber"] == "Senate"
    laws = ok(ep, "search_bills", status="Became Law", limit=100)
    assert laws and all(b["latest_action"]["type"] == "BecameLaw" for b in laws)
    refused(ep, "get_bill", "not_found", "bill_id", bill_id="119-hr-99999")


def test_seeded_trackings_belong_to_staff_and_name_real_bills(ep: Episode) -> None:
    trackings = every(ep, "list_trackings")
    assert {t["status"] for t in trackings} == {"active", "paused"}
    for t in trackings:
        assert t["owner_email"] in STAFF
        b = ok(ep, "get_bill", bill_id=t["bill_id"])
        assert t["title"] == b["title"] and t["actions_seen"] <= len(ok(ep, "list_bill_actions", bill_id=b["bill_id"]))


def test_checking_a_tracked_bill_reports_new_actions_once(ep: Episode) -> None:
    for t in every(ep, "list_trackings", status="active"):
        actions = ok(ep, "list_bill_actions", bill_id=t["bill_id"])
        if len(actions) > t["actions_seen"]:
            break
    new = ok(ep, "check_tracked_bill", tracking_id=t["id"])
    assert new == actions[t["actions_seen"] :]
    assert ok(ep, "get_tracking", tracking_id=t["id"])["actions_seen"] == len(actions)
    assert ok(ep, "check_tracked_bill", tracking_id=t["id"]) == []
    paused = LG.first(ep, "trackings", status="paused")
    refused(ep, "check_tracked_bill", "rule_violation", "tracking_id", tracking_id=paused["id"])


def test_only_a_bill_that_became_law_can_be_archived(ep: Episode) -> None:
    for t in every(ep, "list_trackings", status="active"):
        status = ok(ep, "get_bill", bill_id=t["bill_id"])["status"]
        if status == "Became Law":
            ok(ep, "archive_tracking", tracking_id=t["id"])
            refused(ep, "check_tracked_bill", "rule_violation", "tracking_id", tracking_id=t["id"])
        else:
            refused(ep, "archive_tracking", "rule_violation", "tracking_id", tracking_id=t["id"])
    assert LG.first(ep, "trackings", status="archived")


def test_tracking_is_once_per_bill_and_person_and_for_staff(ep: Episode) -> None:
    t = LG.first(ep, "trackings", status="active")
    refused(ep, "track_bill", "conflict", "bill_id", bill_id=t["bill_id"], owner_email=t["owner_email"])
    refused(ep, "track_bill", "rule_violation", "owner_email", bill_id=t["bill_id"], owner_email=POP.contacts[0].email)
    refused(ep, "track_bill", "not_found", "bill_id", bill_id="119-s-99999", owner_email=POP.employees[0].email)
    other = next(p.email for p in POP.employees if p.email != t["owner_email"])
    new = ok(ep, "track_bill", bill_id=t["bill_id"], owner_email=other, stance="oppose", priority="high")
    assert new["actions_seen"] == len(ok(ep, "list_bill_actions", bill_id=t["bill_id"]))
    assert ok(ep, "check_tracked_bill", tracking_id=new["id"]) == []
