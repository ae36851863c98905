"""Ternline Messaging: segments and prices, sender choice, STOP/START opt-outs, scheduling, receipts."""

from __future__ import annotations

import datetime as dt
from typing import Any

from compoworld import Episode
from compoworld.services.communication.sms import RATES, country_of
from tests.services.helpers import ServiceTools

SMS = ServiceTools("sms")
WORLD = SMS.world
ok, refused, every = SMS.ok, SMS.refused, SMS.every
POP = WORLD.population


def service_named(ep: Episode, name: str) -> dict[str, Any]:
    return next(s for s in every(ep, "list_messaging_services") if s["friendly_name"] == name)


def pool(ep: Episode, svc: dict[str, Any]) -> list[dict[str, Any]]:
    return every(ep, "list_phone_numbers", messaging_service_id=svc["id"], status="active")


def person_in(country: str) -> str:
    return next(p.phone for p in POP.people if country_of(p.phone) == country)


def fresh_recipient(ep: Episode) -> str:
    """A reachable person who never heard from the account."""
    texted = {m["to_number"] for m in every(ep, "list_messages")}
    return next(p.phone for p in POP.people if country_of(p.phone) in RATES and p.phone not in texted)


def later(**delta: int) -> str:
    return (WORLD.epoch + dt.timedelta(**delta)).isoformat()


# -- the world --------------------------------------------------------------------------------


def test_seeded_messages_are_priced_by_segment_and_destination() -> None:
    ep = Episode(WORLD)
    msgs = every(ep, "list_messages")
    people = {p.phone for p in POP.people}
    for m in msgs:
        if m["direction"] != "inbound":
            assert m["to_number"] in people
            assert m["price"] == m["num_segments"] * RATES[country_of(m["to_number"]) or ""]
    for num in every(ep, "list_phone_numbers"):
        assert num["country"] == country_of(num["phone_number"])
    for opt in every(ep, "list_opt_outs"):
        stops = every(ep, "list_messages", direction="inbound", from_number=opt["subscriber"])
        assert any(m["body"] == "STOP" for m in stops)


# -- segments and prices ----------------------------------------------------------------------


def test_segments_follow_the_gsm_and_ucs2_limits(ep: Episode) -> None:
    to = person_in("US")
    assert ok(ep, "estimate_message", to_number=to, body="a" * 160)["num_segments"] == 1
    two = ok(ep, "estimate_message", to_number=to, body="a" * 161)
    assert (two["encoding"], two["num_segments"], two["price"]) == ("GSM-7", 2, 2 * RATES["US"])
    assert ok(ep, "estimate_message", to_number=to, body="a" * 306)["num_segments"] == 2
    assert ok(ep, "estimate_message", to_number=to, body="a" * 307)["num_segments"] == 3
    uni = ok(ep, "estimate_message", to_number=to, body="你" * 71)
    assert (uni["encoding"], uni["num_segments"]) == ("UCS-2", 2)
    assert ok(ep, "estimate_message", to_number=to, body="{" * 80)["num_segments"] == 1
    assert ok(ep, "estimate_message", to_number=to, body="{" * 81)["num_segments"] == 2


def test_too_long_or_unreachable_messages_are_refused(ep: Episode) -> None:
    svc = service_named(ep, "Order notifications")["id"]
    to = fresh_recipient(ep)
    refused(ep, "send_message", "rule_violation", "body", to_number=to, body="x" * 1531, messaging_service_id=svc)
    refused(
        ep, "send_message", "rule_violation", "to_number", to_number="+27215550123", body="Hi", messaging_service_id=svc
    )
    refused(ep, "send_message", "rule_violation", "from_number", to_number=to, body="Hi")
    sent = ok(ep, "send_message", to_number=to, body="x" * 1530, messaging_service_id=svc)
    assert sent["num_segments"] == 10 and sent["status"] == "sent"


# -- senders ----------------------------------------------------------------------------------


def test_a_service_sends_from_a_number_in_the_recipients_country_and_sticks_to_it(ep: Episode) -> None:
    svc = service_named(ep, "Order notifications")
    countries = {n["country"] for n in pool(ep, svc)}
    texted = {m["to_number"] for m in every(ep, "list_messages")}
    for country in sorted(countries):
        to = next((p.phone for p in POP.people if country_of(p.phone) == country and p.phone not in texted), None)
        if to is None:
            continue
        first = ok(ep, "send_message", to_number=to, body="Hello", messaging_service_id=svc["id"])
        assert country_of(first["from_number"]) == country
        again = ok(ep, "send_message", to_number=to, body="Hello again", messaging_service_id=svc["id"])
        assert again["from_number"] == first["from_number"]


def test_a_number_outside_the_account_cannot_send(ep: Episode) -> None:
    to = fresh_recipient(ep)
    refused(ep, "send_message", "not_found", "from_number", to_number=to, body="Hi", from_number="+14155550000")
    voice = every(ep, "list_phone_numbers", sms_enabled=False)[0]["phone_number"]
    refused(ep, "send_message", "rule_violation", "from_number", to_number=to, body="Hi", from_number=voice)


# -- opt-outs ---------------------------------------------------------------------------------


def test_stop_unsubscribes_from_the_whole_service_and_start_resubscribes(ep: Episode) -> None:
    svc = service_named(ep, "Order notifications")
    numbers = pool(ep, svc)
    to = fresh_recipient(ep)
    out = ok(ep, "receive_message", from_number=to, to_number=numbers[0]["phone_number"], body=" stop ")
    assert (out["keyword"], out["subscribed"]) == ("stop", False)
    assert out["auto_reply"]["to_number"] == to and "unsubscribed" in out["auto_reply"]["body"]
    assert every(ep, "list_opt_outs", subscriber=to)[0]["messaging_service_id"] == svc["id"]
    refused(ep, "send_message", "rule_violation", "to_number", to_number=to, body="Hi", messaging_service_id=svc["id"])
    other = service_named(ep, "Login codes")
    ok(ep, "send_message", to_number=to, body="Code 123456", messaging_service_id=other["id"])
    back = ok(ep, "receive_message", from_number=to, to_number=numbers[-1]["phone_number"], body="START")
    assert (back["keyword"], back["subscribed"]) == ("start", True)
    assert every(ep, "list_opt_outs", subscriber=to) == []
    ok(ep, "send_message", to_number=to, body="Welcome back", messaging_service_id=svc["id"])


def test_help_gets_the_help_text_and_ordinary_replies_none(ep: Episode) -> None:
    num = pool(ep, service_named(ep, "Promotions"))[0]["phone_number"]
    to = fresh_recipient(ep)
    helped = ok(ep, "receive_message", from_number=to, to_number=num, body="HELP")
    assert helped["keyword"] == "help" and "STOP" in helped["auto_reply"]["body"]
    plain = ok(ep, "receive_message", from_number=to, to_number=num, body="Thanks, got it")
    assert plain["keyword"] is None and plain["auto_reply"] is None and plain["message"]["status"] == "received"


# -- scheduling -------------------------------------------------------------------------------


def test_scheduled_messages_need_a_service_and_a_window_and_can_be_canceled(ep: Episode) -> None:
    svc = service_named(ep, "Order notifications")
    to = fresh_recipient(ep)
    sender = pool(ep, svc)[0]["phone_number"]
    refused(
        ep,
        "send_message",
        "rule_violation",
        "messaging_service_id",
        to_number=to,
        body="Hi",
        from_number=sender,
        send_at=later(days=1),
    )
    refused(
        ep,
        "send_message",
        "rule_violation",
        "send_at",
        to_number=to,
        body="Hi",
        messaging_service_id=svc["id"],
        send_at=later(minutes=5),
    )
    refused(
        ep,
        "send_message",
        "rule_violation",
        "send_at",
        to_number=to,
        body="Hi",
        messaging_service_id=svc["id"],
        send_at=later(days=36),
    )
    msg = ok(ep, "send_message", to_number=to, body="Hi", messaging_service_id=svc["id"], send_at=later(days=2))
    assert (msg["status"], msg["date_sent"]) == ("scheduled", None)
    assert ok(ep, "cancel_message", message_id=msg["id"])["status"] == "canceled"
    sent = every(ep, "list_messages", status="delivered")[0]
    refused(ep, "cancel_message", "rule_violation", "message_id", message_id=sent["id"])


def test_a_number_with_scheduled_messages_is_not_released(ep: Episode) -> None:
    scheduled = every(ep, "list_messages", status="scheduled")
    num = every(ep, "list_phone_numbers", phone_number=scheduled[0]["from_number"])[0]
    refused(ep, "release_phone_number", "rule_violation", "phone_number_id", phone_number_id=num["id"])
    for m in scheduled:
        if m["from_number"] == num["phone_number"]:
            ok(ep, "cancel_message", message_id=m["id"])
    gone = ok(ep, "release_phone_number", phone_number_id=num["id"])
    assert (gone["status"], gone["messaging_service_id"]) == ("released", None)
    to = fresh_recipient(ep)
    refused(ep, "send_message", "not_found", "from_number", to_number=to, body="Hi", from_number=num["phone_number"])
    refused(ep, "release_phone_number", "conflict", "phone_number_id", phone_number_id=num["id"])


def test_a_number_is_in_one_service_at_a_time(ep: Episode) -> None:
    promo = service_named(ep, "Promotions")
    notify = service_named(ep, "Order notifications")
    busy = pool(ep, notify)[0]
    refused(
        ep,
        "add_number_to_service",
        "conflict",
        "phone_number_id",
        messaging_service_id=promo["id"],
        phone_number_id=busy["id"],
    )
    voice = every(ep, "list_phone_numbers", sms_enabled=False)[0]
    refused(
        ep,
        "add_number_to_service",
        "rule_violation",
        "phone_number_id",
        messaging_service_id=promo["id"],
        phone_number_id=voice["id"],
    )
    ok(ep, "remove_number_from_service", messaging_service_id=notify["id"], phone_number_id=busy["id"])
    moved = ok(ep, "add_number_to_service", messaging_service_id=promo["id"], phone_number_id=busy["id"])
    assert moved["messaging_service_id"] == promo["id"]


def test_a_service_with_scheduled_messages_is_not_deleted(ep: Episode) -> None:
    notify = service_named(ep, "Order notifications")
    refused(ep, "delete_messaging_service", "rule_violation", "messaging_service_id", messaging_service_id=notify["id"])
    promo = service_named(ep, "Promotions")
    members = pool(ep, promo)
    ok(ep, "delete_messaging_service", messaging_service_id=promo["id"])
    for num in members:
        assert ok(ep, "get_phone_number", phone_number_id=num["id"])["messaging_service_id"] is None
    assert all(o["messaging_service_id"] != promo["id"] for o in every(ep, "list_opt_outs"))


# -- receipts and usage -----------------------------------------------------------------------


def test_delivery_receipts_apply_to_sent_messages_with_the_right_error_codes(ep: Episode) -> None:
    sent = every(ep, "list_messages", status="sent", direction="outbound-api")[0]
    refused(ep, "update_message_status", "rule_violation", "error_code", message_id=sent["id"], status="undelivered")
    refused(
        ep,
        "update_message_status",
        "rule_violation",
        "error_code",
        message_id=sent["id"],
        status="delivered",
        error_code=30003,
    )
    bounced = ok(ep, "update_message_status", message_id=sent["id"], status="undelivered", error_code=30005)
    assert (bounced["status"], bounced["error_code"]) == ("undelivered", 30005)
    refused(ep, "update_message_status", "rule_violation", "message_id", message_id=sent["id"], status="delivered")


def test_usage_totals_the_outbound_messages() -> None:
    ep = Episode(WORLD)
    usage = ok(ep, "usage_report")
    msgs = every(ep, "list_messages")
    out = [m for m in msgs if m["direction"] != "inbound" and m["status"] not in ("scheduled", "canceled")]
    assert usage["outbound"] == len(out) and usage["inbound"] == sum(m["direction"] == "inbound" for m in msgs)
    assert usage["total_price"] == sum(m["price"] for m in out) == sum(c["price"] for c in usage["by_country"])
    assert usage["segments"] == sum(m["num_segments"] for m in out)
    done = usage["delivered"] + usage["undelivered_or_failed"]
    assert usage["delivery_rate"] == round(usage["delivered"] / done, 4)
