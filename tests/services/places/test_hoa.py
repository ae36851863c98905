"""Commons HOA: dues and late fees, payments oldest first, violation notices/hearings/fines, board votes."""

from __future__ import annotations

import datetime as dt
from typing import Any

from compoworld import Episode
from tests.services.helpers import ServiceTools

HOA = ServiceTools("hoa")
WORLD = HOA.world
ok, refused, every = HOA.ok, HOA.refused, HOA.every
POP = WORLD.population
TODAY = WORLD.epoch.date()


def day(days: int) -> str:
    return (TODAY + dt.timedelta(days=days)).isoformat()


def violation(ep: Episode, status: str) -> dict[str, Any]:
    return every(ep, "list_violations", status=status)[0]


def test_seeded_owners_are_consumers_and_each_board_has_three_officers(ep: Episode) -> None:
    consumers = {p.email for p in POP.consumers}
    for assn in every(ep, "list_associations"):
        owners = every(ep, "list_owners", association_id=assn["id"])
        assert owners and all(o["email"] in consumers for o in owners)
        assert sorted(o["board_role"] for o in owners if o["board_role"]) == ["president", "secretary", "treasurer"]
        for u in every(ep, "list_units", association_id=assn["id"]):
            assert u["owner_id"] in {o["id"] for o in owners}


def test_dues_are_charged_once_per_month_to_every_owned_unit(ep: Episode) -> None:
    assn = every(ep, "list_associations")[0]
    month = f"{TODAY.year + 1}-01"
    made = ok(ep, "charge_dues", association_id=assn["id"], month=month)
    units = every(ep, "list_units", association_id=assn["id"])
    assert len(made) == len(units) and {c["amount"] for c in made} == {assn["monthly_dues"]}
    assert {c["due_date"] for c in made} == {f"{month}-01"}
    refused(ep, "charge_dues", "conflict", "month", association_id=assn["id"], month=month)


def test_payments_settle_the_oldest_charges_first_and_never_exceed_the_balance(ep: Episode) -> None:
    unit = next(
        u for u in every(ep, "list_units") if len(every(ep, "list_charges", unit_id=u["id"], status="open")) > 1
    )
    ledger = ok(ep, "unit_ledger", unit_id=unit["id"])
    refused(
        ep,
        "record_payment",
        "rule_violation",
        "amount",
        unit_id=unit["id"],
        amount=ledger["balance_due"] + 1,
        method="ach",
    )
    oldest = sorted(every(ep, "list_charges", unit_id=unit["id"], status="open"), key=lambda c: c["due_date"])[0]
    pay = ok(ep, "record_payment", unit_id=unit["id"], amount=oldest["amount"] + 100, method="check")
    assert pay["charge_ids"][0] == oldest["id"] and len(pay["charge_ids"]) == 2
    after = ok(ep, "unit_ledger", unit_id=unit["id"])
    assert after["balance_due"] == ledger["balance_due"] - oldest["amount"] - 100


def test_a_late_fee_is_charged_once_and_only_when_overdue(ep: Episode) -> None:
    overdue = next(c for c in every(ep, "list_charges", kind="dues", status="open") if c["due_date"] < day(-16))
    fee = ok(ep, "charge_late_fee", charge_id=overdue["id"])
    assert fee["kind"] == "late_fee" and fee["unit_id"] == overdue["unit_id"]
    refused(ep, "charge_late_fee", "conflict", "charge_id", charge_id=overdue["id"])
    recent = next(c for c in every(ep, "list_charges", kind="dues", status="open") if c["due_date"] > day(-15))
    refused(ep, "charge_late_fee", "rule_violation", "charge_id", charge_id=recent["id"])


def test_a_hearing_needs_a_notice_and_ten_days_warning(ep: Episode) -> None:
    v = violation(ep, "open")
    refused(ep, "schedule_hearing", "rule_violation", "violation_id", violation_id=v["id"], hearing_date=day(20))
    sent = ok(ep, "send_violation_notice", violation_id=v["id"])
    assert (sent["status"], sent["notices_sent"]) == ("notice_sent", 1)
    refused(ep, "schedule_hearing", "rule_violation", "hearing_date", violation_id=v["id"], hearing_date=day(9))
    assert ok(ep, "schedule_hearing", violation_id=v["id"], hearing_date=day(10))["status"] == "hearing_scheduled"


def test_a_fine_follows_the_hearing_within_the_schedule_and_is_charged(ep: Episode) -> None:
    held = next(v for v in every(ep, "list_violations", status="hearing_scheduled") if v["hearing_date"] <= day(0))
    ahead = next(v for v in every(ep, "list_violations", status="hearing_scheduled") if v["hearing_date"] > day(0))
    refused(ep, "fine_violation", "rule_violation", "violation_id", violation_id=ahead["id"], amount=5_000)
    unit = ok(ep, "get_unit", unit_id=held["unit_id"])
    cap = ok(ep, "get_association", association_id=unit["association_id"])["max_fine"]
    refused(ep, "fine_violation", "rule_violation", "amount", violation_id=held["id"], amount=cap + 1)
    fined = ok(ep, "fine_violation", violation_id=held["id"], amount=cap)
    charge = every(ep, "list_charges", unit_id=held["unit_id"], kind="fine")[0]
    assert fined["status"] == "fined" and fined["fine_charge_id"] == charge["id"] and charge["amount"] == cap
    refused(ep, "resolve_violation", "rule_violation", "violation_id", violation_id=held["id"])


def test_one_live_violation_per_unit_and_category(ep: Episode) -> None:
    v = violation(ep, "notice_sent")
    refused(
        ep,
        "create_violation",
        "conflict",
        "category",
        unit_id=v["unit_id"],
        category=v["category"],
        description="Again",
    )
    ok(ep, "dismiss_violation", violation_id=v["id"])
    again = ok(ep, "create_violation", unit_id=v["unit_id"], category=v["category"], description="Again")
    assert again["status"] == "open"


def test_the_board_majority_decides_and_owners_do_not_vote_on_their_own(ep: Episode) -> None:
    req = next(r for r in every(ep, "list_requests", status="submitted") if r["project"] == "fence")
    assn = ok(ep, "get_unit", unit_id=req["unit_id"])["association_id"]
    board = [o for o in every(ep, "list_owners", association_id=assn) if o["board_role"]]
    outsider = next(o for o in every(ep, "list_owners", association_id=assn) if not o["board_role"])
    refused(
        ep,
        "vote_on_request",
        "rule_violation",
        "board_member_id",
        request_id=req["id"],
        board_member_id=outsider["id"],
        decision="approve",
    )
    first = ok(ep, "vote_on_request", request_id=req["id"], board_member_id=board[0]["id"], decision="approve")
    assert first["status"] == "submitted"
    refused(
        ep,
        "vote_on_request",
        "conflict",
        "board_member_id",
        request_id=req["id"],
        board_member_id=board[0]["id"],
        decision="deny",
    )
    refused(ep, "complete_request", "rule_violation", "request_id", request_id=req["id"])
    second = ok(ep, "vote_on_request", request_id=req["id"], board_member_id=board[1]["id"], decision="approve")
    assert second["status"] == "approved"
    assert ok(ep, "complete_request", request_id=req["id"])["status"] == "completed"


def test_a_board_members_own_request_is_decided_by_the_others(ep: Episode) -> None:
    req = next(r for r in every(ep, "list_requests", status="submitted") if r["project"] == "exterior_paint")
    assn = ok(ep, "get_unit", unit_id=req["unit_id"])["association_id"]
    others = [
        o for o in every(ep, "list_owners", association_id=assn) if o["board_role"] and o["id"] != req["owner_id"]
    ]
    refused(
        ep,
        "vote_on_request",
        "rule_violation",
        "board_member_id",
        request_id=req["id"],
        board_member_id=req["owner_id"],
        decision="approve",
    )
    # two eligible voters: one denial leaves no majority to approve, so the request is denied at once
    done = ok(ep, "vote_on_request", request_id=req["id"], board_member_id=others[0]["id"], decision="deny")
    assert len(others) == 2 and done["status"] == "denied"
    refused(
        ep,
        "vote_on_request",
        "conflict",
        "request_id",
        request_id=req["id"],
        board_member_id=others[1]["id"],
        decision="approve",
    )


def test_requests_come_from_the_units_owner_and_special_assessments_reach_every_unit(ep: Episode) -> None:
    u1, u2 = every(ep, "list_units")[:2]
    refused(
        ep,
        "create_request",
        "rule_violation",
        "owner_id",
        unit_id=u1["id"],
        owner_id=u2["owner_id"],
        project="deck",
        description="Cedar deck",
    )
    made = ok(ep, "create_request", unit_id=u1["id"], owner_id=u1["owner_id"], project="deck", description="Cedar")
    assert made["status"] == "submitted" and made["votes"] == []
    levy = ok(ep, "levy_special_assessment", association_id=u1["association_id"], memo="Pool", amount_per_unit=20_000)
    assert len(levy) == len(every(ep, "list_units", association_id=u1["association_id"]))
    refused(
        ep,
        "levy_special_assessment",
        "rule_violation",
        "due_in_days",
        association_id=u1["association_id"],
        memo="Pool",
        amount_per_unit=20_000,
        due_in_days=5,
    )
