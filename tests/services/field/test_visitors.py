"""Frontdesk Visitors: invites, sign-in rules (blocklist, NDA, capacity, twice), sign-out, deliveries, occupancy."""

from __future__ import annotations

import datetime as dt
from typing import Any

from compoworld import Episode
from tests.services.helpers import ServiceTools

VIS = ServiceTools("visitors")
WORLD = VIS.world
ok, refused, every = VIS.ok, VIS.refused, VIS.every
POP = WORLD.population
STAFF = {p.email for p in POP.employees}
HOST = POP.employees[0].email
TOMORROW = WORLD.epoch.date() + dt.timedelta(days=1)


def soon(hour: int = 10) -> str:
    return f"{TOMORROW.isoformat()}T{hour:02d}:00:00Z"


def walk_in(loc: str, n: int, **extra: Any) -> dict[str, Any]:
    return {
        "location_id": loc,
        "visitor_name": f"Guest Number{n}",
        "visitor_email": f"guest{n}@mailbox.net",
        "host_email": HOST,
        "nda_accepted": True,
    } | extra


def office(ep: Episode, small: bool) -> dict[str, Any]:
    return sorted(every(ep, "list_locations"), key=lambda loc: loc["capacity"])[0 if small else -1]


def test_seeded_guests_are_world_people_and_hosts_are_employees(ep: Episode) -> None:
    people = {p.email: p.name for p in POP.people}
    for e in every(ep, "list_entries"):
        assert people[e["visitor_email"]] == e["visitor_name"] and e["host_email"] in STAFF
        if e["invite_id"]:
            assert ok(ep, "get_invite", invite_id=e["invite_id"])["status"] == "arrived"
    for i in every(ep, "list_invites"):
        assert people[i["invitee_email"]] == i["invitee_name"] and i["host_email"] in STAFF
    for d in every(ep, "list_deliveries"):
        assert d["recipient_email"] in STAFF


def test_an_invite_checks_in_once_and_its_nda_counts(ep: Episode) -> None:
    signed = next(i for i in every(ep, "list_invites", status="expected") if i["nda_signed"])
    entry = ok(ep, "check_in_invite", invite_id=signed["id"])
    assert (entry["invite_id"], entry["nda_signed"], entry["status"]) == (signed["id"], True, "signed_in")
    assert ok(ep, "get_invite", invite_id=signed["id"])["status"] == "arrived"
    refused(ep, "check_in_invite", "rule_violation", "invite_id", invite_id=signed["id"])
    unsigned = next(
        i
        for i in every(ep, "list_invites", status="expected")
        if not i["nda_signed"] and i["visitor_type"] in ("visitor", "contractor", "interview")
    )
    refused(ep, "check_in_invite", "rule_violation", "nda_accepted", invite_id=unsigned["id"])
    assert ok(ep, "check_in_invite", invite_id=unsigned["id"], nda_accepted=True)["nda_signed"] is True


def test_blocklisted_people_are_neither_invited_nor_let_in(ep: Episode) -> None:
    block = every(ep, "list_blocklist", active=True)[0]
    loc = office(ep, small=False)["id"]
    args = walk_in(loc, 1, visitor_email=block["email"], visitor_name="Someone Else")
    refused(ep, "sign_in", "rule_violation", "visitor_email", **args)
    by_name = walk_in(loc, 2, visitor_name=block["full_name"].upper())
    refused(ep, "sign_in", "rule_violation", "visitor_email", **by_name)
    invite = {
        "location_id": loc,
        "invitee_name": block["full_name"],
        "invitee_email": block["email"],
        "host_email": HOST,
    }
    refused(ep, "create_invite", "rule_violation", "invitee_email", expected_arrival_at=soon(), **invite)
    ok(ep, "lift_block", block_id=block["id"])
    assert ok(ep, "sign_in", **args)["status"] == "signed_in"
    lifted = next(b for b in every(ep, "list_blocklist", active=False) if b["full_name"] != block["full_name"])
    assert ok(ep, "sign_in", **walk_in(loc, 3, visitor_name=lifted["full_name"]))["status"] == "signed_in"


def test_ndas_are_needed_for_visitors_but_not_event_guests(ep: Episode) -> None:
    loc = office(ep, small=False)["id"]
    refused(ep, "sign_in", "rule_violation", "nda_accepted", **walk_in(loc, 4, nda_accepted=False))
    refused(
        ep,
        "sign_in",
        "rule_violation",
        "nda_accepted",
        **walk_in(loc, 4, nda_accepted=False, visitor_type="contractor"),
    )
    guest = ok(ep, "sign_in", **walk_in(loc, 4, nda_accepted=False, visitor_type="event_guest"))
    assert guest["nda_signed"] is False


def test_a_visitor_cannot_sign_in_twice_and_signs_out_once(ep: Episode) -> None:
    loc = office(ep, small=False)["id"]
    entry = ok(ep, "sign_in", **walk_in(loc, 5))
    refused(ep, "sign_in", "conflict", "visitor_email", **walk_in(loc, 5))
    out = ok(ep, "sign_out", entry_id=entry["id"])
    assert out["status"] == "signed_out" and out["signed_out_at"] is not None
    refused(ep, "sign_out", "rule_violation", "entry_id", entry_id=entry["id"])
    assert ok(ep, "sign_in", **walk_in(loc, 5))["status"] == "signed_in"


def test_a_full_office_refuses_sign_ins_until_someone_leaves(ep: Episode) -> None:
    small = office(ep, small=True)
    inside = every(ep, "list_entries", location_id=small["id"], status="signed_in")
    made = [ok(ep, "sign_in", **walk_in(small["id"], 10 + n)) for n in range(small["capacity"] - len(inside))]
    occ = ok(ep, "location_occupancy", location_id=small["id"])
    assert occ["signed_in"] == occ["capacity"] == small["capacity"]
    refused(ep, "sign_in", "rule_violation", "location_id", **walk_in(small["id"], 30))
    ok(ep, "sign_out", entry_id=(made or inside)[0]["id"])
    assert ok(ep, "sign_in", **walk_in(small["id"], 30))["status"] == "signed_in"


def test_invites_need_an_employee_host_a_future_time_and_one_per_day(ep: Episode) -> None:
    loc = office(ep, small=False)["id"]
    base = {"location_id": loc, "invitee_name": "Rita Moreno", "invitee_email": "rita@postbox.org"}
    refused(
        ep,
        "create_invite",
        "rule_violation",
        "host_email",
        host_email="boss@else.io",
        expected_arrival_at=soon(),
        **base,
    )
    refused(
        ep,
        "create_invite",
        "rule_violation",
        "expected_arrival_at",
        host_email=HOST,
        expected_arrival_at="2020-01-01T09:00:00Z",
        **base,
    )
    inv = ok(ep, "create_invite", host_email=HOST, expected_arrival_at=soon(9), **base)
    assert inv["status"] == "expected"
    refused(ep, "create_invite", "conflict", "invitee_email", host_email=HOST, expected_arrival_at=soon(15), **base)
    ok(ep, "cancel_invite", invite_id=inv["id"])
    refused(ep, "update_invite", "rule_violation", "invite_id", invite_id=inv["id"], nda_signed=True)
    refused(ep, "check_in_invite", "rule_violation", "invite_id", invite_id=inv["id"], nda_accepted=True)


def test_deliveries_are_for_employees_and_picked_up_or_returned_once(ep: Episode) -> None:
    loc = office(ep, small=False)["id"]
    refused(
        ep,
        "create_delivery",
        "rule_violation",
        "recipient_email",
        location_id=loc,
        recipient_email="x@y.io",
        carrier="UPS",
    )
    parcel = ok(
        ep, "create_delivery", location_id=loc, recipient_email=HOST, carrier="DHL", tracking_number="JD014600006281"
    )
    before = ok(ep, "location_occupancy", location_id=loc)["parcels_waiting"]
    got = ok(ep, "pick_up_delivery", delivery_id=parcel["id"])
    assert got["status"] == "picked_up" and got["picked_up_at"] is not None
    assert ok(ep, "location_occupancy", location_id=loc)["parcels_waiting"] == before - 1
    refused(ep, "return_delivery", "rule_violation", "delivery_id", delivery_id=parcel["id"])
    waiting = every(ep, "list_deliveries", status="received")[0]
    assert ok(ep, "return_delivery", delivery_id=waiting["id"])["status"] == "returned"


def test_a_block_needs_a_reason_by_an_employee_and_is_not_doubled(ep: Episode) -> None:
    args = {"full_name": "Mallory Vance", "email": "mallory@inbox.io"}
    refused(ep, "create_block", "rule_violation", "reason", reason=" ", added_by=HOST, **args)
    refused(ep, "create_block", "rule_violation", "added_by", reason="Tailgating", added_by="a@b.io", **args)
    ok(ep, "create_block", reason="Tailgating", added_by=HOST, **args)
    refused(ep, "create_block", "conflict", "email", reason="Again", added_by=HOST, **args)
