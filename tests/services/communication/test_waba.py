"""Verdant Business Messaging: the 24-hour window, opt-in, template review and pauses, tiers, statuses, blocking."""

from __future__ import annotations

import datetime as dt
from typing import Any

from compoworld import Episode
from compoworld.engine.entities import Person
from compoworld.services.communication.waba import price
from tests.services.helpers import ServiceTools

WABA = ServiceTools("waba")
WORLD = WABA.world
ok, refused, every = WABA.ok, WABA.refused, WABA.every
POP = WORLD.population
NOW = WORLD.epoch


def number(ep: Episode, tier: str | None = None, status: str | None = None) -> dict[str, Any]:
    filters = {k: v for k, v in (("messaging_limit_tier", tier), ("status", status)) if v is not None}
    return every(ep, "list_phone_numbers", **filters)[0]


def support(ep: Episode) -> dict[str, Any]:
    return number(ep, tier="TIER_10K")


def parse(value: str) -> dt.datetime:
    return dt.datetime.fromisoformat(value)


def open_window(ep: Episode, pn: dict[str, Any]) -> dict[str, Any]:
    """A contact of the number who wrote in the last 24 hours and is not blocked."""
    for c in every(ep, "list_contacts", phone_number_id=pn["id"], blocked=False):
        if c["last_inbound_at"] and parse(c["last_inbound_at"]) > NOW - dt.timedelta(hours=24):
            return c
    raise AssertionError("no open window")


def closed_window(ep: Episode, pn: dict[str, Any], opt_in: str) -> dict[str, Any]:
    for c in every(ep, "list_contacts", phone_number_id=pn["id"], blocked=False, opt_in_status=opt_in):
        closed = not c["last_inbound_at"] or parse(c["last_inbound_at"]) < NOW - dt.timedelta(hours=24)
        if closed and not c["marketing_stopped"]:
            return c
    raise AssertionError("no closed window")


def template(ep: Episode, name: str, language: str = "en_US") -> dict[str, Any]:
    return every(ep, "list_message_templates", name=name, language=language)[0]


def send_template(ep: Episode, pn: dict[str, Any], to: str, name: str, params: list[str], **kw: Any) -> Any:
    return ok(
        ep,
        "send_template_message",
        phone_number_id=pn["id"],
        to=to,
        template_name=name,
        language="en_US",
        parameters=params,
        **kw,
    )


def new_person(ep: Episode, pn: dict[str, Any]) -> Any:
    """Someone from the population who is not yet a contact of the number."""
    known = {c["customer_phone"] for c in every(ep, "list_contacts", phone_number_id=pn["id"])}
    return next(p for p in POP.consumers if p.phone not in known)


# -- the world --------------------------------------------------------------------------------


def test_seeded_contacts_are_the_populations_people_and_costs_follow_the_rate_card() -> None:
    ep = Episode(WORLD)
    people = {p.phone: p for p in POP.people}
    for c in every(ep, "list_contacts"):
        assert c["customer_name"] == people[c["customer_phone"]].name
    for n in every(ep, "list_phone_numbers"):
        assert n["verified_name"] == POP.home.name and n["display_phone_number"] not in people
    for conv in every(ep, "list_conversations"):
        assert conv["cost"] == price(conv["category"], conv["customer_phone"])
        assert parse(conv["expires_at"]) - parse(conv["opened_at"]) == dt.timedelta(hours=24)
    for m in every(ep, "list_messages", type="template"):
        assert "{{" not in m["body"] and m["direction"] == "outbound"
    statuses = {t["status"] for t in every(ep, "list_message_templates")}
    assert statuses == {"PENDING", "APPROVED", "REJECTED", "PAUSED", "DISABLED", "DELETED"}


# -- the customer service window and opt-in ---------------------------------------------------


def test_free_form_messages_go_out_only_inside_the_24_hour_window(ep: Episode) -> None:
    pn = support(ep)
    inside = open_window(ep, pn)
    sent = ok(
        ep,
        "send_text_message",
        phone_number_id=pn["id"],
        to=inside["customer_phone"],
        body="Your refund is on its way.",
    )
    assert (sent["status"], sent["type"], sent["customer_phone"]) == ("sent", "text", inside["customer_phone"])
    conv = every(ep, "list_conversations", contact_id=inside["id"], category="service")
    assert any(c["id"] == sent["conversation_id"] and c["cost"] == 0.0 for c in conv)
    outside = closed_window(ep, pn, "opted_in")
    refused(
        ep,
        "send_text_message",
        "rule_violation",
        "to",
        phone_number_id=pn["id"],
        to=outside["customer_phone"],
        body="Hi",
    )
    refused(
        ep,
        "send_text_message",
        "rule_violation",
        "body",
        phone_number_id=pn["id"],
        to=inside["customer_phone"],
        body="x" * 4097,
    )


def test_templates_outside_the_window_need_an_opt_in(ep: Episode) -> None:
    pn = support(ep)
    opted = closed_window(ep, pn, "opted_in")
    msg = send_template(ep, pn, opted["customer_phone"], "order_confirmation", ["Ana", "TS-1"])
    assert msg["body"] == "Hi Ana, thanks for your order TS-1. We will let you know when it ships."
    conv = every(ep, "list_conversations", contact_id=opted["id"], category="utility")[-1]
    assert conv["origin"] == "business_initiated" and conv["cost"] == price("utility", opted["customer_phone"])
    for state in ("not_asked", "opted_out"):
        other = closed_window(ep, pn, state)
        refused(
            ep,
            "send_template_message",
            "rule_violation",
            "to",
            phone_number_id=pn["id"],
            to=other["customer_phone"],
            template_name="order_confirmation",
            language="en_US",
            parameters=["A", "B"],
        )
    asked = closed_window(ep, pn, "not_asked")
    assert ok(ep, "opt_in_contact", contact_id=asked["id"])["opted_in_at"] is not None
    send_template(ep, pn, asked["customer_phone"], "order_confirmation", ["Bo", "TS-2"])
    stranger = new_person(ep, pn)
    refused(
        ep,
        "send_template_message",
        "rule_violation",
        "to",
        phone_number_id=pn["id"],
        to=stranger.phone,
        template_name="order_confirmation",
        language="en_US",
        parameters=["A", "B"],
    )
    ok(
        ep,
        "create_contact",
        phone_number_id=pn["id"],
        customer_phone=stranger.phone,
        customer_name=stranger.name,
        opt_in_status="opted_in",
        opt_in_source="checkout",
    )
    send_template(ep, pn, stranger.phone, "order_confirmation", [stranger.first_name, "TS-3"])


def test_contacts_are_unique_per_number_and_an_opt_in_needs_its_source(ep: Episode) -> None:
    pn = support(ep)
    known = every(ep, "list_contacts", phone_number_id=pn["id"])[0]
    refused(
        ep,
        "create_contact",
        "conflict",
        "customer_phone",
        phone_number_id=pn["id"],
        customer_phone=known["customer_phone"],
        customer_name=None,
        opt_in_status="not_asked",
        opt_in_source=None,
    )
    person = new_person(ep, pn)
    refused(
        ep,
        "create_contact",
        "rule_violation",
        "opt_in_source",
        phone_number_id=pn["id"],
        customer_phone=person.phone,
        customer_name=person.name,
        opt_in_status="opted_in",
        opt_in_source=None,
    )
    refused(
        ep,
        "create_contact",
        "rule_violation",
        "customer_phone",
        phone_number_id=pn["id"],
        customer_phone=pn["display_phone_number"],
        customer_name=None,
        opt_in_status="not_asked",
        opt_in_source=None,
    )


def test_opting_out_stops_templates_and_customers_who_stopped_promotions_get_no_marketing(ep: Episode) -> None:
    pn = support(ep)
    opted = closed_window(ep, pn, "opted_in")
    assert ok(ep, "opt_out_contact", contact_id=opted["id"])["opt_in_status"] == "opted_out"
    refused(ep, "opt_out_contact", "rule_violation", "contact_id", contact_id=opted["id"])
    refused(
        ep,
        "send_template_message",
        "rule_violation",
        "to",
        phone_number_id=pn["id"],
        to=opted["customer_phone"],
        template_name="order_confirmation",
        language="en_US",
        parameters=["A", "B"],
    )
    stopped = every(ep, "list_contacts", phone_number_id=pn["id"], marketing_stopped=True, opt_in_status="opted_in")[0]
    refused(
        ep,
        "send_template_message",
        "rule_violation",
        "to",
        phone_number_id=pn["id"],
        to=stopped["customer_phone"],
        template_name="spring_sale",
        language="en_US",
        parameters=["A", "20%"],
    )
    send_template(ep, pn, stopped["customer_phone"], "order_confirmation", ["A", "TS-9"])
    window = ok(ep, "get_messaging_window", phone_number_id=pn["id"], customer_phone=stopped["customer_phone"])
    assert window["template_allowed"] and not window["marketing_allowed"]


def test_a_conversation_of_a_category_is_reused_for_24_hours(ep: Episode) -> None:
    pn = support(ep)
    to = closed_window(ep, pn, "opted_in")["customer_phone"]
    first = send_template(ep, pn, to, "order_confirmation", ["A", "TS-1"])
    second = send_template(ep, pn, to, "shipping_update", ["A", "TS-1", "1Z999"])
    assert first["conversation_id"] == second["conversation_id"]
    promo = send_template(ep, pn, to, "spring_sale", ["A", "20%"])
    assert promo["conversation_id"] != first["conversation_id"]
    marketing = [c for c in every(ep, "list_conversations", customer_phone=to) if c["id"] == promo["conversation_id"]]
    assert marketing[0]["category"] == "marketing"


def test_a_number_reaches_at_most_its_tiers_customers_in_business_initiated_conversations(ep: Episode) -> None:
    pilot = number(ep, tier="TIER_50")
    reached = {c["contact_id"] for c in every(ep, "list_conversations", phone_number_id=pilot["id"])}
    known = {c["customer_phone"] for c in every(ep, "list_contacts", phone_number_id=pilot["id"])}
    sent_to: list[Person] = []
    for p in (p for p in POP.people if p.phone not in known):
        if len(reached) + len(sent_to) == 50:
            break
        ok(
            ep,
            "create_contact",
            phone_number_id=pilot["id"],
            customer_phone=p.phone,
            customer_name=p.name,
            opt_in_status="opted_in",
            opt_in_source="website_form",
        )
        send_template(ep, pilot, p.phone, "order_confirmation", [p.first_name, "TS-5"])
        sent_to.append(p)
    assert len(reached) + len(sent_to) == 50
    last = next(
        p for p in POP.people if not every(ep, "list_contacts", phone_number_id=pilot["id"], customer_phone=p.phone)
    )
    ok(
        ep,
        "create_contact",
        phone_number_id=pilot["id"],
        customer_phone=last.phone,
        customer_name=last.name,
        opt_in_status="opted_in",
        opt_in_source="website_form",
    )
    refused(
        ep,
        "send_template_message",
        "rule_violation",
        "phone_number_id",
        phone_number_id=pilot["id"],
        to=last.phone,
        template_name="order_confirmation",
        language="en_US",
        parameters=["A", "B"],
    )
    again = send_template(ep, pilot, sent_to[0].phone, "spring_sale", ["A", "20%"])
    assert again["status"] == "sent", "a customer already reached today does not count twice"


# -- template rules ---------------------------------------------------------------------------


def test_only_approved_templates_with_the_right_parameters_are_sent(ep: Episode) -> None:
    pn = support(ep)
    to = closed_window(ep, pn, "opted_in")["customer_phone"]
    args = {"phone_number_id": pn["id"], "to": to, "language": "en_US"}
    for name in ("delivery_delay", "winback_offer", "summer_launch", "holiday_promo_2024"):
        n = template(ep, name)["parameter_count"]
        refused(
            ep,
            "send_template_message",
            "rule_violation",
            "template_name",
            template_name=name,
            parameters=["x"] * n,
            **args,
        )
    refused(
        ep,
        "send_template_message",
        "not_found",
        "template_name",
        template_name="black_friday_2025",
        parameters=["x", "y"],
        **args,
    )
    refused(
        ep,
        "send_template_message",
        "not_found",
        "template_name",
        template_name="order_confirmation",
        parameters=["x", "y"],
        **{**args, "language": "de"},
    )
    refused(
        ep,
        "send_template_message",
        "rule_violation",
        "parameters",
        template_name="order_confirmation",
        parameters=["x"],
        **args,
    )
    refused(
        ep,
        "send_template_message",
        "rule_violation",
        "parameters",
        template_name="order_confirmation",
        parameters=["Ana", "TS-1\nTS-2"],
        **args,
    )
    refused(
        ep,
        "send_template_message",
        "rule_violation",
        "parameters",
        template_name="verification_code",
        parameters=["1234567890123456"],
        **args,
    )
    code = ok(ep, "send_template_message", template_name="verification_code", parameters=["482913"], **args)
    assert code["body"].startswith("482913 is your verification code")


def test_new_templates_follow_the_format_rules_and_wait_for_review(ep: Episode) -> None:
    base = {"language": "en_US", "category": "UTILITY"}
    refused(
        ep, "create_message_template", "rule_violation", "body_text", name="t1", body_text="{{1}}, your order.", **base
    )
    refused(
        ep,
        "create_message_template",
        "rule_violation",
        "body_text",
        name="t1",
        body_text="Hi {{1}}, order {{3}} shipped.",
        **base,
    )
    refused(
        ep,
        "create_message_template",
        "rule_violation",
        "header_text",
        name="t1",
        body_text="Hi {{1}}, hello.",
        header_text="Order {{1}}",
        **base,
    )
    refused(
        ep,
        "create_message_template",
        "rule_violation",
        "body_text",
        name="t1",
        language="en_US",
        category="AUTHENTICATION",
        body_text="Code {{1}} and {{2}} here.",
    )
    refused(
        ep,
        "create_message_template",
        "conflict",
        "name",
        name="order_confirmation",
        body_text="Hi {{1}}, order {{2}} is confirmed.",
        **base,
    )
    refused(
        ep,
        "create_message_template",
        "rule_violation",
        "name",
        name="black_friday_2025",
        body_text="Hi {{1}}, sale now.",
        **base,
    )
    new = ok(
        ep,
        "create_message_template",
        name="order_confirmation",
        language="de",
        category="UTILITY",
        body_text="Hallo {{1}}, danke für Ihre Bestellung {{2}}.",
    )
    assert (new["status"], new["parameter_count"]) == ("PENDING", 2)
    approved = ok(ep, "approve_message_template", message_template_id=new["id"])
    assert approved["status"] == "APPROVED"
    refused(ep, "reject_message_template", "rule_violation", "template_id", template_id=new["id"], reason="SCAM")
    pending = template(ep, "delivery_delay")
    assert ok(ep, "reject_message_template", template_id=pending["id"], reason="INVALID_FORMAT")["status"] == "REJECTED"


def test_edits_send_a_template_back_to_review_within_the_limits(ep: Episode) -> None:
    refused(
        ep,
        "edit_message_template",
        "rule_violation",
        "template_id",
        template_id=template(ep, "review_request")["id"],
        body_text="Hi {{1}}, rate {{2}} please.",
    )
    rejected = template(ep, "winback_offer")
    fixed = ok(ep, "edit_message_template", template_id=rejected["id"], category="MARKETING")
    assert (fixed["status"], fixed["category"], fixed["rejected_reason"]) == ("PENDING", "MARKETING", "NONE")
    approved = template(ep, "order_confirmation")
    refused(ep, "edit_message_template", "rule_violation", "category", template_id=approved["id"], category="MARKETING")
    edited = ok(ep, "edit_message_template", template_id=approved["id"], footer_text="Reply STOP to opt out")
    assert edited["status"] == "PENDING" and len(edited["approved_edits"]) == 1
    recently = template(ep, "shipping_update")
    refused(
        ep, "edit_message_template", "rule_violation", "template_id", template_id=recently["id"], footer_text="Thanks"
    )
    disabled = template(ep, "holiday_promo_2024")
    refused(
        ep, "edit_message_template", "rule_violation", "template_id", template_id=disabled["id"], footer_text="Thanks"
    )


def test_low_quality_pauses_a_template_twice_and_disables_it_the_third_time(ep: Episode) -> None:
    tpl = template(ep, "spring_sale")
    first = ok(ep, "pause_message_template", template_id=tpl["id"])
    assert first["status"] == "PAUSED" and parse(first["paused_until"]) - NOW > dt.timedelta(hours=2, minutes=55)
    refused(ep, "unpause_message_template", "rule_violation", "template_id", template_id=tpl["id"])
    refused(ep, "pause_message_template", "rule_violation", "template_id", template_id=tpl["id"])
    due = template(ep, "back_to_school")
    back = ok(ep, "unpause_message_template", template_id=due["id"])
    assert (back["status"], back["paused_until"]) == ("APPROVED", None)
    disabled = ok(ep, "pause_message_template", template_id=due["id"])
    assert (disabled["status"], disabled["pause_count"]) == ("DISABLED", 3)


def test_deleting_a_name_deletes_every_language_and_blocks_the_name(ep: Episode) -> None:
    gone = ok(ep, "delete_message_template", name="order_confirmation")
    assert {t["language"] for t in gone["deleted"]} == {"en_US", "pt_BR"}
    assert all(t["status"] == "DELETED" for t in gone["deleted"])
    refused(ep, "delete_message_template", "not_found", "name", name="order_confirmation")
    refused(
        ep,
        "create_message_template",
        "rule_violation",
        "name",
        name="order_confirmation",
        language="en_US",
        category="UTILITY",
        body_text="Hi {{1}}, order {{2}} is confirmed.",
    )


# -- media ------------------------------------------------------------------------------------


def test_media_limits_expiry_and_captions(ep: Episode) -> None:
    pn = support(ep)
    refused(
        ep,
        "upload_media",
        "rule_violation",
        "file_size",
        phone_number_id=pn["id"],
        mime_type="image/jpeg",
        file_size=5_000_001,
    )
    audio = ok(ep, "upload_media", phone_number_id=pn["id"], mime_type="audio/ogg", file_size=80_000)
    assert audio["media_type"] == "audio"
    to = open_window(ep, pn)["customer_phone"]
    args = {"phone_number_id": pn["id"], "to": to}
    refused(ep, "send_media_message", "rule_violation", "caption", media_id=audio["id"], caption="listen", **args)
    assert ok(ep, "send_media_message", media_id=audio["id"], **args)["type"] == "audio"
    orders = number(ep, tier="TIER_1K")
    stale = every(ep, "list_media", phone_number_id=orders["id"], mime_type="application/pdf")[0]
    refused(ep, "send_media_message", "rule_violation", "media_id", media_id=stale["id"], **args)
    doc = ok(
        ep,
        "upload_media",
        phone_number_id=pn["id"],
        mime_type="application/pdf",
        file_size=90_000,
        filename="label.pdf",
    )
    sent = ok(ep, "send_media_message", media_id=doc["id"], caption="Your return label", **args)
    assert (sent["type"], sent["body"], sent["media_id"]) == ("document", "Your return label", doc["id"])
    closed = closed_window(ep, pn, "opted_in")["customer_phone"]
    refused(ep, "send_media_message", "rule_violation", "to", phone_number_id=pn["id"], to=closed, media_id=doc["id"])


# -- statuses ---------------------------------------------------------------------------------


def test_statuses_move_forward_and_failures_carry_a_code(ep: Episode) -> None:
    sent = every(ep, "list_messages", direction="outbound", status="sent")[0]
    refused(ep, "update_message_status", "rule_violation", "error_code", message_id=sent["id"], status="failed")
    refused(
        ep,
        "update_message_status",
        "rule_violation",
        "error_code",
        message_id=sent["id"],
        status="delivered",
        error_code=131026,
    )
    assert ok(ep, "update_message_status", message_id=sent["id"], status="delivered")["status"] == "delivered"
    refused(
        ep,
        "update_message_status",
        "rule_violation",
        "status",
        message_id=sent["id"],
        status="failed",
        error_code=131026,
    )
    assert ok(ep, "update_message_status", message_id=sent["id"], status="read")["status"] == "read"
    refused(ep, "update_message_status", "rule_violation", "status", message_id=sent["id"], status="delivered")
    inbound = every(ep, "list_messages", direction="inbound")[0]
    refused(ep, "update_message_status", "rule_violation", "message_id", message_id=inbound["id"], status="read")


def test_marking_a_received_message_read_marks_the_earlier_ones_too(ep: Episode) -> None:
    pn = support(ep)
    c = open_window(ep, pn)
    first = ok(
        ep, "receive_message", phone_number_id=pn["id"], customer_phone=c["customer_phone"], body="One more thing"
    )
    second = ok(ep, "receive_message", phone_number_id=pn["id"], customer_phone=c["customer_phone"], body="and another")
    assert ok(ep, "mark_message_as_read", message_id=second["message"]["id"])["status"] == "read"
    assert ok(ep, "get_message", message_id=first["message"]["id"])["status"] == "read"
    refused(ep, "mark_message_as_read", "conflict", "message_id", message_id=first["message"]["id"])
    outbound = every(ep, "list_messages", direction="outbound")[0]
    refused(ep, "mark_message_as_read", "rule_violation", "message_id", message_id=outbound["id"])


# -- customers writing in, keywords, blocking -------------------------------------------------


def test_a_customers_message_opens_the_window_and_creates_the_contact(ep: Episode) -> None:
    pn = support(ep)
    person = new_person(ep, pn)
    refused(ep, "send_text_message", "rule_violation", "to", phone_number_id=pn["id"], to=person.phone, body="Hi")
    got = ok(ep, "receive_message", phone_number_id=pn["id"], customer_phone=person.phone, body="Is my order shipped?")
    assert got["contact"]["customer_name"] == person.name and got["contact"]["opt_in_status"] == "not_asked"
    assert parse(got["window_expires_at"]) - parse(got["contact"]["last_inbound_at"]) == dt.timedelta(hours=24)
    ok(
        ep,
        "send_text_message",
        phone_number_id=pn["id"],
        to=person.phone,
        body="Yes, it ships today.",
        reply_to_message_id=got["message"]["id"],
    )
    window = ok(ep, "get_messaging_window", phone_number_id=pn["id"], customer_phone=person.phone)
    assert window["window_open"] and window["free_form_allowed"] and len(window["open_conversations"]) == 1


def test_stop_start_and_stop_promotions_keywords(ep: Episode) -> None:
    pn = support(ep)
    c = closed_window(ep, pn, "opted_in")
    args = {"phone_number_id": pn["id"], "customer_phone": c["customer_phone"]}
    stop = ok(ep, "receive_message", body=" stop ", **args)
    assert (stop["keyword"], stop["contact"]["opt_in_status"]) == ("stop", "opted_out")
    ok(ep, "send_text_message", phone_number_id=pn["id"], to=c["customer_phone"], body="You will get no more messages.")
    start = ok(ep, "receive_message", body="START", **args)
    assert (start["keyword"], start["contact"]["opt_in_status"], start["contact"]["opt_in_source"]) == (
        "start",
        "opted_in",
        "in_chat",
    )
    promo = ok(ep, "receive_message", body="Stop promotions", **args)
    assert promo["keyword"] == "stop_promotions" and promo["contact"]["marketing_stopped"]


def test_blocking_needs_a_message_in_the_last_day_and_silences_both_ways(ep: Episode) -> None:
    pn = support(ep)
    c = open_window(ep, pn)
    blocked = ok(ep, "block_user", phone_number_id=pn["id"], customer_phone=c["customer_phone"])
    assert blocked["blocked"] is True
    refused(
        ep, "block_user", "conflict", "customer_phone", phone_number_id=pn["id"], customer_phone=c["customer_phone"]
    )
    refused(
        ep, "send_text_message", "rule_violation", "to", phone_number_id=pn["id"], to=c["customer_phone"], body="Hi"
    )
    refused(
        ep,
        "receive_message",
        "rule_violation",
        "customer_phone",
        phone_number_id=pn["id"],
        customer_phone=c["customer_phone"],
        body="Hello?",
    )
    refused(ep, "opt_in_contact", "rule_violation", "contact_id", contact_id=c["id"])
    assert ok(ep, "unblock_user", phone_number_id=pn["id"], customer_phone=c["customer_phone"])["blocked"] is False
    refused(
        ep, "unblock_user", "conflict", "customer_phone", phone_number_id=pn["id"], customer_phone=c["customer_phone"]
    )
    old = closed_window(ep, pn, "opted_in")
    refused(
        ep,
        "block_user",
        "rule_violation",
        "customer_phone",
        phone_number_id=pn["id"],
        customer_phone=old["customer_phone"],
    )
    refused(
        ep,
        "block_user",
        "not_found",
        "customer_phone",
        phone_number_id=pn["id"],
        customer_phone=new_person(ep, pn).phone,
    )


# -- numbers ----------------------------------------------------------------------------------


def test_a_deregistered_number_neither_sends_nor_receives_until_registered(ep: Episode) -> None:
    pn = support(ep)
    c = open_window(ep, pn)
    ok(ep, "deregister_phone_number", phone_number_id=pn["id"])
    refused(
        ep,
        "send_text_message",
        "rule_violation",
        "phone_number_id",
        phone_number_id=pn["id"],
        to=c["customer_phone"],
        body="Hi",
    )
    refused(
        ep,
        "receive_message",
        "rule_violation",
        "phone_number_id",
        phone_number_id=pn["id"],
        customer_phone=c["customer_phone"],
        body="Hi",
    )
    refused(ep, "deregister_phone_number", "conflict", "phone_number_id", phone_number_id=pn["id"])
    assert ok(ep, "register_phone_number", phone_number_id=pn["id"], pin="123456")["status"] == "CONNECTED"
    refused(ep, "register_phone_number", "conflict", "phone_number_id", phone_number_id=pn["id"], pin="123456")


def test_red_quality_flags_a_number_and_lowers_its_tier_after_seven_days(ep: Episode) -> None:
    pn = support(ep)
    flagged = ok(ep, "update_quality_rating", phone_number_id=pn["id"], quality_rating="RED")
    assert (flagged["status"], flagged["messaging_limit_tier"]) == ("FLAGGED", "TIER_10K")
    refused(ep, "update_quality_rating", "conflict", "quality_rating", phone_number_id=pn["id"], quality_rating="RED")
    cleared = ok(ep, "update_quality_rating", phone_number_id=pn["id"], quality_rating="YELLOW")
    assert (cleared["status"], cleared["flagged_at"]) == ("CONNECTED", None)
    long_flagged = number(ep, status="FLAGGED")
    lowered = ok(ep, "update_quality_rating", phone_number_id=long_flagged["id"], quality_rating="RED")
    assert (lowered["status"], lowered["messaging_limit_tier"]) == ("FLAGGED", "TIER_50")


def test_analytics_totals_conversations_by_category() -> None:
    ep = Episode(WORLD)
    report = ok(ep, "conversation_analytics", days=90)
    convs = [c for c in every(ep, "list_conversations") if parse(c["opened_at"]) >= NOW - dt.timedelta(days=90)]
    assert report["conversations"] == len(convs) == sum(r["conversations"] for r in report["by_category"])
    assert report["cost"] == round(sum(c["cost"] for c in convs), 4)
    assert report["business_initiated"] == sum(c["origin"] == "business_initiated" for c in convs)
    refused(ep, "conversation_analytics", "rule_violation", "days", days=91)
