"""Roomlink: connections and mappings, pushes and sync errors, restrictions and channel bookings."""

from __future__ import annotations

import datetime as dt
from typing import Any

from compoworld import Episode
from tests.services.helpers import ServiceTools

CM = ServiceTools("channelmanager")
WORLD = CM.world
ok, refused, every = CM.ok, CM.refused, CM.every
POP = WORLD.population
TODAY = WORLD.epoch.date()
GUEST = POP.consumers[-1]


def day(days: int) -> str:
    return (TODAY + dt.timedelta(days=days)).isoformat()


def conn(ep: Episode, status: str, channel: str | None = None) -> dict[str, Any]:
    found = every(ep, "list_connections", status=status)
    return next(c for c in found if channel is None or c["channel"] == channel)


def booking_args(c: dict[str, Any], rt: str, ref: str, arrive: int, nights: int) -> dict[str, Any]:
    return {
        "connection_id": c["id"],
        "room_type_id": rt,
        "channel_ref": ref,
        "guest_name": f"{GUEST.first_name} {GUEST.last_name}",
        "guest_email": GUEST.email,
        "arrival": day(arrive),
        "departure": day(arrive + nights),
    }


def test_seeded_properties_and_bookings_come_from_the_population(ep: Episode) -> None:
    staff = {p.email for p in POP.employees}
    consumers = {p.email for p in POP.consumers}
    props = every(ep, "list_properties")
    assert len(props) == 3 and all(p["revenue_manager_email"] in staff for p in props)
    assert {p["city"] for p in props} >= {POP.home.place.city}
    for b in every(ep, "list_bookings"):
        assert b["guest_email"] in consumers
        c = ok(ep, "get_connection", connection_id=b["connection_id"])
        assert (c["channel"], c["property_id"]) == (b["channel"], b["property_id"])
        assert b["commission"] == round(b["total"] * c["commission_pct"] / 100)
    assert {c["status"] for c in every(ep, "list_connections")} == {"pending", "active", "paused"}


def test_a_connection_activates_only_with_a_mapped_room_type(ep: Episode) -> None:
    prop = every(ep, "list_properties")[0]
    made = ok(ep, "connect_channel", property_id=prop["id"], channel="google", hotel_id_on_channel="GH-1001")
    assert made["status"] == "pending"
    refused(
        ep,
        "connect_channel",
        "conflict",
        "channel",
        property_id=prop["id"],
        channel="google",
        hotel_id_on_channel="GH-1002",
    )
    refused(ep, "activate_connection", "rule_violation", "connection_id", connection_id=made["id"])
    rt = every(ep, "list_room_types", property_id=prop["id"])[0]
    other = every(ep, "list_properties")[1]
    foreign = every(ep, "list_room_types", property_id=other["id"])[0]
    refused(
        ep,
        "map_room_type",
        "rule_violation",
        "room_type_id",
        connection_id=made["id"],
        room_type_id=foreign["id"],
        channel_room_code="DBL-1",
    )
    ok(ep, "map_room_type", connection_id=made["id"], room_type_id=rt["id"], channel_room_code="DBL-1")
    refused(
        ep,
        "map_room_type",
        "conflict",
        "room_type_id",
        connection_id=made["id"],
        room_type_id=rt["id"],
        channel_room_code="DBL-2",
    )
    assert ok(ep, "activate_connection", connection_id=made["id"])["status"] == "active"
    refused(ep, "activate_connection", "conflict", "connection_id", connection_id=made["id"])


def test_a_push_reaches_active_channels_and_fails_on_paused_ones(ep: Episode) -> None:
    paused = conn(ep, "paused")
    m = every(ep, "list_mappings", connection_id=paused["id"])[0]
    sent = ok(ep, "push_rates", room_type_id=m["room_type_id"], start_date=day(1), end_date=day(10), rate=15000)
    by_conn = {p["connection_id"]: p["status"] for p in sent}
    assert by_conn[paused["id"]] == "failed"
    assert all(s == "delivered" for c, s in by_conn.items() if c != paused["id"])
    failed = next(p for p in sent if p["status"] == "failed")
    errors = every(ep, "list_sync_errors", push_id=failed["id"])
    assert [e["code"] for e in errors] == ["CONNECTION_PAUSED"]
    refused(ep, "retry_push", "conflict", "push_id", push_id=failed["id"])
    ok(ep, "resume_connection", connection_id=paused["id"])
    again = ok(ep, "retry_push", push_id=failed["id"])
    assert (again["status"], again["attempts"]) == ("delivered", 2)
    assert every(ep, "list_sync_errors", push_id=failed["id"])[0]["status"] == "resolved"
    refused(ep, "retry_push", "conflict", "push_id", push_id=failed["id"])


def test_pushes_respect_ranges_and_inventory(ep: Episode) -> None:
    rt = every(ep, "list_room_types")[0]
    refused(
        ep, "push_rates", "rule_violation", "start_date", room_type_id=rt["id"], start_date=day(-1), end_date=day(3)
    )
    refused(ep, "push_rates", "rule_violation", "end_date", room_type_id=rt["id"], start_date=day(5), end_date=day(4))
    refused(
        ep, "push_rates", "rule_violation", "rate", room_type_id=rt["id"], start_date=day(1), end_date=day(2), rate=0
    )
    refused(
        ep,
        "push_availability",
        "rule_violation",
        "rooms",
        room_type_id=rt["id"],
        start_date=day(1),
        end_date=day(2),
        rooms=rt["inventory"] + 1,
    )
    sent = ok(ep, "push_availability", room_type_id=rt["id"], start_date=day(1), end_date=day(2))
    assert sent and all(p["value"] == rt["inventory"] for p in sent)


def test_a_booking_is_priced_with_the_markup_and_commission(ep: Episode) -> None:
    c = conn(ep, "active", "expedia")
    m = every(ep, "list_mappings", connection_id=c["id"])[0]
    rt = ok(ep, "get_room_type", room_type_id=m["room_type_id"])
    b = ok(ep, "receive_booking", **booking_args(c, rt["id"], "EX-55501", 100, 2))
    assert b["total"] == round(rt["base_rate"] * (1 + m["rate_markup_pct"] / 100)) * 2
    assert b["commission"] == round(b["total"] * c["commission_pct"] / 100)
    assert b["status"] == "new"
    refused(ep, "receive_booking", "conflict", "channel_ref", **booking_args(c, rt["id"], "EX-55501", 120, 2))
    assert ok(ep, "acknowledge_booking", booking_id=b["id"])["status"] == "acknowledged"
    refused(ep, "acknowledge_booking", "rule_violation", "booking_id", booking_id=b["id"])


def test_bookings_need_an_active_connection_and_valid_stay(ep: Episode) -> None:
    paused = conn(ep, "paused")
    m = every(ep, "list_mappings", connection_id=paused["id"])[0]
    refused(
        ep, "receive_booking", "conflict", "connection_id", **booking_args(paused, m["room_type_id"], "AI-1001", 100, 2)
    )
    c = conn(ep, "active", "booking_com")
    rt = every(ep, "list_mappings", connection_id=c["id"])[0]["room_type_id"]
    refused(ep, "receive_booking", "rule_violation", "arrival", **booking_args(c, rt, "BO-2001", -1, 2))
    refused(ep, "receive_booking", "rule_violation", "departure", **booking_args(c, rt, "BO-2001", 100, 31))
    refused(ep, "receive_booking", "rule_violation", "guests", guests=12, **booking_args(c, rt, "BO-2001", 100, 2))


def test_restrictions_stop_sales_close_arrivals_and_set_minimum_stays(ep: Episode) -> None:
    c = conn(ep, "active", "booking_com")
    for kind, field, arrive, nights in (
        ("stop_sell", "arrival", 39, 2),
        ("closed_to_arrival", "arrival", 50, 1),
        ("min_stay", "departure", 60, 2),
    ):
        r = next(
            x
            for x in every(ep, "list_restrictions", kind=kind)
            if every(ep, "list_mappings", connection_id=c["id"], room_type_id=x["room_type_id"])
        )
        refused(
            ep,
            "receive_booking",
            "rule_violation",
            field,
            **booking_args(c, r["room_type_id"], f"BO-{arrive}0", arrive, nights),
        )
        ok(ep, "delete_restriction", restriction_id=r["id"])
        ok(ep, "receive_booking", **booking_args(c, r["room_type_id"], f"BO-{arrive}0", arrive, nights))


def test_a_restriction_needs_a_valid_range_and_min_nights_only_for_min_stay(ep: Episode) -> None:
    rt = every(ep, "list_room_types")[0]["id"]
    refused(
        ep,
        "create_restriction",
        "rule_violation",
        "min_nights",
        room_type_id=rt,
        kind="min_stay",
        start_date=day(5),
        end_date=day(6),
    )
    refused(
        ep,
        "create_restriction",
        "rule_violation",
        "min_nights",
        room_type_id=rt,
        kind="stop_sell",
        start_date=day(5),
        end_date=day(6),
        min_nights=2,
    )
    refused(
        ep,
        "create_restriction",
        "rule_violation",
        "end_date",
        room_type_id=rt,
        kind="stop_sell",
        start_date=day(5),
        end_date=day(4),
    )
    ok(ep, "create_restriction", room_type_id=rt, kind="stop_sell", start_date=day(5), end_date=day(6))
    assert ok(ep, "night_availability", room_type_id=rt, night=day(5))["stop_sell"] is True


def test_rooms_sell_out_and_cancelling_frees_them(ep: Episode) -> None:
    c = conn(ep, "active", "booking_com")
    rt_id = every(ep, "list_mappings", connection_id=c["id"])[0]["room_type_id"]
    rt = ok(ep, "get_room_type", room_type_id=rt_id)
    free = ok(ep, "night_availability", room_type_id=rt_id, night=day(150))["available"]
    made = [ok(ep, "receive_booking", **booking_args(c, rt_id, f"BO-{9000 + k}", 150, 1)) for k in range(free)]
    assert ok(ep, "night_availability", room_type_id=rt_id, night=day(150))["available"] == 0
    refused(ep, "receive_booking", "conflict", "arrival", **booking_args(c, rt_id, "BO-9999", 150, 1))
    refused(ep, "update_room_type", "rule_violation", "inventory", room_type_id=rt_id, inventory=rt["inventory"] - 1)
    ok(ep, "cancel_booking", booking_id=made[0]["id"])
    ok(ep, "receive_booking", **booking_args(c, rt_id, "BO-9999", 150, 1))
