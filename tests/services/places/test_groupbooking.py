"""Blockstay: RFPs and proposals, awarding, rooming lists within the block and cutoff, attrition."""

from __future__ import annotations

import datetime as dt
from typing import Any

from compoworld import Episode
from tests.services.helpers import ServiceTools

GB = ServiceTools("groupbooking")
WORLD = GB.world
ok, refused, every = GB.ok, GB.refused, GB.every
POP = WORLD.population
TODAY = WORLD.epoch.date()
PLANNER = POP.employees[0].email


def day(n: int) -> str:
    return (TODAY + dt.timedelta(days=n)).isoformat()


def rfp_args(**kw: Any) -> dict[str, Any]:
    base = {
        "event_name": "Customer day",
        "city": "Berlin",
        "arrival": day(30),
        "departure": day(32),
        "rooms_per_night": 10,
        "budget_rate": 20000,
        "planner_email": PLANNER,
    }
    return base | kw


def signed(ep: Episode) -> dict[str, Any]:
    return every(ep, "list_contracts", status="signed")[0]


def test_seeded_rfps_are_planned_by_employees_and_awards_are_consistent(ep: Episode) -> None:
    staff = {p.email for p in POP.employees}
    assert {r["status"] for r in every(ep, "list_rfps")} == {"draft", "sent", "awarded", "cancelled"}
    for r in every(ep, "list_rfps"):
        assert r["planner_email"] in staff
    for c in every(ep, "list_contracts"):
        props = every(ep, "list_proposals", rfp_id=c["rfp_id"])
        assert [p["id"] for p in props if p["status"] == "accepted"] == [c["proposal_id"]]
        assert ok(ep, "get_rfp", rfp_id=c["rfp_id"])["status"] == "awarded"


def test_an_rfp_needs_an_employee_planner_and_future_dates(ep: Episode) -> None:
    refused(ep, "create_rfp", "rule_violation", "planner_email", **rfp_args(planner_email="x@y.io"))
    refused(ep, "create_rfp", "rule_violation", "arrival", **rfp_args(arrival=day(0), departure=day(2)))
    refused(ep, "create_rfp", "rule_violation", "departure", **rfp_args(departure=day(30)))
    made = ok(ep, "create_rfp", **rfp_args())
    assert made["status"] == "draft"
    assert ok(ep, "send_rfp", rfp_id=made["id"])["status"] == "sent"
    refused(ep, "update_rfp", "conflict", "rfp_id", rfp_id=made["id"], rooms_per_night=12)


def test_hotels_propose_once_within_the_request(ep: Episode) -> None:
    rfp = every(ep, "list_rfps", status="draft")[0]
    args = {"hotel_name": "Lakeside Hotel", "rooms_offered": 1, "group_rate": 14000}
    refused(ep, "submit_proposal", "conflict", "rfp_id", rfp_id=rfp["id"], **args)
    rfp = every(ep, "list_rfps", status="sent")[0]
    refused(
        ep,
        "submit_proposal",
        "rule_violation",
        "rooms_offered",
        rfp_id=rfp["id"],
        **(args | {"rooms_offered": rfp["rooms_per_night"] + 1}),
    )
    ok(ep, "submit_proposal", rfp_id=rfp["id"], **args)
    refused(ep, "submit_proposal", "conflict", "hotel_name", rfp_id=rfp["id"], **args)


def test_awarding_declines_the_others_and_creates_the_contract(ep: Episode) -> None:
    rfp = every(ep, "list_rfps", status="sent")[0]
    win = every(ep, "list_proposals", rfp_id=rfp["id"])[1]
    c = ok(ep, "award_proposal", proposal_id=win["id"])
    assert (c["status"], c["block_rooms"], c["group_rate"]) == (
        "pending_signature",
        win["rooms_offered"],
        win["group_rate"],
    )
    assert (
        c["cutoff_date"] == (dt.date.fromisoformat(rfp["arrival"]) - dt.timedelta(days=win["cutoff_days"])).isoformat()
    )
    states = {p["id"]: p["status"] for p in every(ep, "list_proposals", rfp_id=rfp["id"])}
    assert states.pop(win["id"]) == "accepted" and set(states.values()) == {"declined"}
    assert ok(ep, "get_rfp", rfp_id=rfp["id"])["status"] == "awarded"
    other = next(iter(states))
    refused(ep, "award_proposal", "conflict", "proposal_id", proposal_id=other)


def test_names_join_only_a_signed_contract(ep: Episode) -> None:
    pending = every(ep, "list_contracts", status="pending_signature")[0]
    p = POP.employees[-1]
    args = {"guest_name": f"{p.first_name} {p.last_name}", "guest_email": p.email}
    refused(ep, "add_to_rooming_list", "conflict", "contract_id", contract_id=pending["id"], **args)
    ok(ep, "sign_contract", contract_id=pending["id"])
    ok(ep, "add_to_rooming_list", contract_id=pending["id"], **args)
    refused(ep, "add_to_rooming_list", "conflict", "guest_email", contract_id=pending["id"], **args)


def test_the_block_cannot_be_overfilled(ep: Episode) -> None:
    c = signed(ep)
    left = c["block_rooms"] - len(every(ep, "list_rooming_entries", contract_id=c["id"]))
    for k in range(left):
        ok(ep, "add_to_rooming_list", contract_id=c["id"], guest_name=f"Guest {k}", guest_email=f"g{k}@guests.io")
    refused(
        ep,
        "add_to_rooming_list",
        "conflict",
        "contract_id",
        contract_id=c["id"],
        guest_name="One more",
        guest_email="more@guests.io",
    )
    assert ok(ep, "pickup_report", contract_id=c["id"])["pickup_pct"] == 100.0


def test_closing_charges_the_shortfall_beyond_the_attrition_allowance(ep: Episode) -> None:
    c = signed(ep)
    report = ok(ep, "pickup_report", contract_id=c["id"])
    nights = (dt.date.fromisoformat(c["departure"]) - dt.date.fromisoformat(c["arrival"])).days
    short = max(c["block_rooms"] - report["allowed_unused"] - report["picked_up"], 0)
    assert report["allowed_unused"] == c["block_rooms"] * c["attrition_pct"] // 100
    assert report["projected_charge"] == short * c["group_rate"] * nights > 0
    closed = ok(ep, "close_contract", contract_id=c["id"])
    assert (closed["status"], closed["attrition_charge"]) == ("closed", report["projected_charge"])
    refused(ep, "close_contract", "conflict", "contract_id", contract_id=c["id"])


def test_removing_a_guest_frees_a_room_and_closed_lists_refuse(ep: Episode) -> None:
    c = signed(ep)
    entry = every(ep, "list_rooming_entries", contract_id=c["id"])[0]
    before = ok(ep, "pickup_report", contract_id=c["id"])["picked_up"]
    ok(ep, "remove_from_rooming_list", rooming_entry_id=entry["id"])
    assert ok(ep, "pickup_report", contract_id=c["id"])["picked_up"] == before - 1
    ok(ep, "close_contract", contract_id=c["id"])
    other = every(ep, "list_rooming_entries", contract_id=c["id"])[0]
    refused(ep, "remove_from_rooming_list", "rule_violation", "rooming_entry_id", rooming_entry_id=other["id"])
