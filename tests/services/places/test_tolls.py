"""Tollway: tag and plate tolls, auto-replenishment and suspension, tags per vehicle, violations and disputes."""

from __future__ import annotations

from typing import Any

from compoworld import Episode
from compoworld.services.kit.time import iso_z
from tests.services.helpers import ServiceTools

TOLLS = ServiceTools("tolls")
WORLD = TOLLS.world
ok, refused, every, first = TOLLS.ok, TOLLS.refused, TOLLS.every, TOLLS.first
POP = WORLD.population
NOW = iso_z(WORLD.epoch)


def tagged(ep: Episode) -> tuple[dict[str, Any], dict[str, Any], dict[str, Any]]:
    for tag in every(ep, "list_transponders", status="active"):
        acct = ok(ep, "get_account", account_id=tag["account_id"])
        v = ok(ep, "get_vehicle", vehicle_id=tag["vehicle_id"])
        if acct["status"] == "active" and acct["kind"] == "personal" and v["vehicle_class"] == "2_axle":
            return tag, acct, v
    raise AssertionError("no tagged car")


def test_seeded_accounts_are_consumers_or_customer_contacts_with_their_own_plates(ep: Episode) -> None:
    people = {p.email: p.name for p in POP.people}
    plates = set()
    for a in every(ep, "list_accounts"):
        assert people[a["email"]] == a["holder_name"]
        assert (a["balance"] < 0) == (a["status"] == "suspended")
    for v in every(ep, "list_vehicles"):
        assert (v["plate"], v["plate_state"]) not in plates
        plates.add((v["plate"], v["plate_state"]))


def test_a_tag_read_pays_the_account_rate_and_a_plate_pays_more(ep: Episode) -> None:
    tag, _acct, v = tagged(ep)
    base = {"plaza": "Harbor Bridge", "plate": v["plate"], "plate_state": v["plate_state"], "occurred_at": NOW}
    by_tag = ok(ep, "post_toll", transponder_serial=tag["serial"], **base)
    assert (by_tag["amount"], by_tag["transponder_id"]) == (800, tag["id"])
    by_plate = ok(ep, "post_toll", **base)
    assert (by_plate["amount"], by_plate["transponder_id"]) == (1200, None)
    lost = first(ep, "transponders", status="lost")
    via_lost = ok(ep, "post_toll", transponder_serial=lost["serial"], **base)
    assert via_lost["transponder_id"] is None


def test_an_unknown_plate_gets_a_violation_notice(ep: Episode) -> None:
    out = ok(ep, "post_toll", plaza="Airport Connector", plate="QQ1234", plate_state="VT", occurred_at=NOW)
    assert (out["status"], out["toll_amount"], out["fee"]) == ("notice_sent", 525, 2500)
    refused(
        ep,
        "post_toll",
        "rule_violation",
        "occurred_at",
        plaza="Airport Connector",
        plate="QQ1234",
        plate_state="VT",
        occurred_at="2099-01-01T00:00:00Z",
    )


def test_low_balances_are_topped_up_and_without_auto_the_account_suspends(ep: Episode) -> None:
    tag, acct, v = tagged(ep)
    ok(ep, "update_account", account_id=acct["id"], replenish_threshold=acct["balance"], replenish_amount=5000)
    ok(
        ep,
        "post_toll",
        plaza="Turnpike Mainline",
        plate=v["plate"],
        plate_state=v["plate_state"],
        occurred_at=NOW,
        transponder_serial=tag["serial"],
    )
    after = ok(ep, "get_account", account_id=acct["id"])
    assert after["balance"] == acct["balance"] - 625 + 5000
    assert every(ep, "list_replenishments", account_id=acct["id"], source="auto")
    ok(ep, "update_account", account_id=acct["id"], auto_replenish=False)
    for _ in range(15):
        ok(
            ep,
            "post_toll",
            plaza="Harbor Bridge",
            plate=v["plate"],
            plate_state=v["plate_state"],
            occurred_at=NOW,
            transponder_serial=tag["serial"],
        )
    assert ok(ep, "get_account", account_id=acct["id"])["status"] == "suspended"
    assert "status" in ok(
        ep,
        "post_toll",
        plaza="Harbor Bridge",
        plate=v["plate"],
        plate_state=v["plate_state"],
        occurred_at=NOW,
        transponder_serial=tag["serial"],
    )


def test_a_top_up_reactivates_a_suspended_account(ep: Episode) -> None:
    acct = first(ep, "accounts", status="suspended")
    refused(ep, "replenish_account", "rule_violation", "amount", account_id=acct["id"], amount=500)
    back = ok(ep, "replenish_account", account_id=acct["id"], amount=5000)
    assert (back["status"], back["balance"]) == ("active", acct["balance"] + 5000)


def test_plates_belong_to_one_account_and_vehicles_carry_one_active_tag(ep: Episode) -> None:
    tag, acct, v = tagged(ep)
    other = next(a for a in every(ep, "list_accounts", status="active") if a["id"] != acct["id"])
    refused(
        ep,
        "add_vehicle",
        "conflict",
        "plate",
        account_id=other["id"],
        plate=v["plate"],
        plate_state=v["plate_state"],
        make_model="Kia Soul",
    )
    refused(ep, "issue_transponder", "conflict", "vehicle_id", vehicle_id=v["id"], kind="interior")
    ok(ep, "deactivate_transponder", transponder_id=tag["id"])
    new = ok(ep, "issue_transponder", vehicle_id=v["id"], kind="flex")
    assert new["status"] == "active" and new["serial"] != tag["serial"]


def test_opening_needs_a_deposit_and_closing_needs_tags_returned(ep: Episode) -> None:
    refused(
        ep,
        "open_account",
        "rule_violation",
        "opening_deposit",
        holder_name="Ann Lee",
        email="ann@lee.io",
        opening_deposit=1000,
    )
    refused(
        ep,
        "open_account",
        "rule_violation",
        "opening_deposit",
        holder_name="Ann Lee",
        email="ann@lee.io",
        opening_deposit=5000,
        kind="commercial",
    )
    acct = ok(ep, "open_account", holder_name="Ann Lee", email="ann@lee.io", opening_deposit=5000)
    assert acct["balance"] == 5000
    refused(ep, "open_account", "conflict", "email", holder_name="Ann Lee", email="ann@lee.io", opening_deposit=5000)
    v = ok(ep, "add_vehicle", account_id=acct["id"], plate="LEE1", plate_state="NY", make_model="Mini Cooper")
    tag = ok(ep, "issue_transponder", vehicle_id=v["id"], kind="interior")
    refused(ep, "close_account", "rule_violation", "account_id", account_id=acct["id"])
    ok(ep, "deactivate_transponder", transponder_id=tag["id"])
    assert ok(ep, "close_account", account_id=acct["id"])["status"] == "closed"


def test_a_violation_can_move_onto_the_plates_account_without_the_fee(ep: Episode) -> None:
    vio = next(
        x for x in every(ep, "list_violations", status="notice_sent") if every(ep, "list_vehicles", plate=x["plate"])
    )
    v = every(ep, "list_vehicles", plate=vio["plate"])[0]
    acct = ok(ep, "get_account", account_id=v["account_id"])
    toll = ok(ep, "transfer_violation", violation_id=vio["id"])
    assert toll["account_id"] == acct["id"]
    assert ok(ep, "get_account", account_id=acct["id"])["balance"] == acct["balance"] - toll["amount"]
    assert (ok(ep, "get_violation", violation_id=vio["id"])["status"]) == "transferred"
    stray = next(x for x in every(ep, "list_violations", status="notice_sent") if x["id"] != vio["id"])
    refused(ep, "transfer_violation", "rule_violation", "violation_id", violation_id=stray["id"])


def test_disputes_are_dismissed_or_upheld(ep: Episode) -> None:
    vio = first(ep, "violations", status="notice_sent")
    ok(ep, "dispute_violation", violation_id=vio["id"], reason="Vehicle sold in May")
    refused(ep, "pay_violation", "rule_violation", "violation_id", violation_id=vio["id"])
    upheld = ok(ep, "resolve_dispute", violation_id=vio["id"], dismiss=False)
    assert upheld["status"] == "notice_sent"
    assert ok(ep, "pay_violation", violation_id=vio["id"])["status"] == "paid"
    other = first(ep, "violations", status="disputed")
    assert ok(ep, "resolve_dispute", violation_id=other["id"], dismiss=True)["status"] == "dismissed"
