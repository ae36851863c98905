"""Sendpath: verified domains, template variables, suppression lists, delivery events and stats."""

from __future__ import annotations

from typing import Any

from compoworld import Episode
from compoworld.world import commerce as links
from tests.services.helpers import ServiceTools

TM = ServiceTools("transmail")
WORLD = TM.world
ok, refused, every = TM.ok, TM.refused, TM.every
POP = WORLD.population
HOME = POP.home.domain
ORDERS = f"orders@{HOME}"
NEWS = f"hello@news.{HOME}"


def template(ep: Episode, alias: str) -> dict[str, Any]:
    return every(ep, "list_templates", alias=alias)[0]


def clean(ep: Episode) -> str:
    blocked = {s["email"] for s in every(ep, "list_suppressions")}
    return next(p.email for p in POP.consumers if p.email not in blocked)


def plain(ep: Episode, to: str, **extra: Any) -> dict[str, Any]:
    args: dict[str, Any] = dict(from_email=ORDERS, to=to, subject="Hello", text_body="A message.")
    args.update(extra)
    return dict(ok(ep, "send_email", **args))


# -- the world --------------------------------------------------------------------------------


def test_order_mail_goes_to_the_shops_customers_under_their_order_numbers() -> None:
    ep = Episode(WORLD)
    orders = {p.email: links.first_order_number(i) for i, p in enumerate(POP.consumers) if links.places_first_order(i)}
    confirmations = every(ep, "list_messages", tag="order-confirmation")
    assert len(confirmations) == len(orders)
    for m in confirmations:
        assert m["order_number"] == orders[m["to"]] and m["order_number"] in m["subject"]
    people = {p.email: p.name for p in POP.people}
    assert all(people[m["to"]] == m["to_name"] for m in every(ep, "list_messages"))


def test_every_hard_bounce_and_complaint_is_on_the_suppression_list() -> None:
    ep = Episode(WORLD)
    sups = {(s["email"], s["stream"]) for s in every(ep, "list_suppressions")}
    for m in every(ep, "list_messages", status="bounced"):
        assert m["bounce_type"] != "hard" or (m["to"], m["stream"]) in sups
    complaints = [m for m in every(ep, "list_messages") if m["spam_complaint"]]
    assert complaints
    for m in complaints:
        assert {(m["to"], "outbound"), (m["to"], "broadcast")} <= sups
    assert template(ep, "order-confirmation")["variables"] == ["order_number", "first_name"]


# -- domains and senders ----------------------------------------------------------------------


def test_only_the_companys_own_domains_verify(ep: Episode) -> None:
    refused(ep, "add_sender_domain", "conflict", "domain", domain=HOME)
    foreign = ok(ep, "add_sender_domain", domain="example-partner.com")
    assert foreign["status"] == "pending" and len(foreign["dns_records"]) == 2
    refused(ep, "verify_sender_domain", "rule_violation", "sender_domain_id", sender_domain_id=foreign["id"])
    pending = every(ep, "list_sender_domains", domain=f"alerts.{HOME}")[0]
    assert ok(ep, "verify_sender_domain", sender_domain_id=pending["id"])["status"] == "verified"
    refused(ep, "verify_sender_domain", "conflict", "sender_domain_id", sender_domain_id=pending["id"])


def test_mail_goes_out_only_from_senders_on_verified_domains(ep: Episode) -> None:
    to = clean(ep)
    refused(ep, "create_sender", "rule_violation", "from_email", from_email="me@unknown-domain.com", from_name="Me")
    ok(ep, "create_sender", from_email=f"ops@alerts.{HOME}", from_name="Ops alerts")
    args = dict(to=to, subject="Disk full", text_body="Disk 90% full.")
    refused(ep, "send_email", "rule_violation", "from_email", from_email=f"ops@alerts.{HOME}", **args)
    refused(ep, "send_email", "not_found", "from_email", from_email=f"ceo@{HOME}", **args)
    domain = every(ep, "list_sender_domains", domain=f"alerts.{HOME}")[0]
    ok(ep, "verify_sender_domain", sender_domain_id=domain["id"])
    assert ok(ep, "send_email", from_email=f"ops@alerts.{HOME}", **args)["status"] == "sent"


# -- templates --------------------------------------------------------------------------------


def test_a_template_send_needs_every_variable_and_no_subject(ep: Episode) -> None:
    tpl = template(ep, "shipping-update")
    to = clean(ep)
    msg = refused(
        ep,
        "send_email",
        "rule_violation",
        "variables",
        from_email=ORDERS,
        to=to,
        template_id=tpl["id"],
        variables={"first_name": "Ada"},
    )
    assert "order_number" in msg and "tracking_url" in msg
    preview = ok(ep, "preview_template", template_id=tpl["id"], variables={"first_name": "Ada"})
    assert preview["missing_variables"] == ["order_number", "tracking_url"]
    values = {"first_name": "Ada", "order_number": "#1001", "tracking_url": "https://track.example/1Z999"}
    refused(
        ep,
        "send_email",
        "rule_violation",
        "subject",
        from_email=ORDERS,
        to=to,
        template_id=tpl["id"],
        variables=values,
        subject="Hi",
    )
    sent = ok(ep, "send_email", from_email=ORDERS, to=to, template_id=tpl["id"], variables=values, order_number="#1001")
    assert sent["subject"] == "Order #1001 has shipped" and "https://track.example/1Z999" in sent["text_body"]
    assert (sent["template_id"], sent["order_number"]) == (tpl["id"], "#1001")


def test_inactive_or_other_stream_templates_are_refused(ep: Episode) -> None:
    to = clean(ep)
    promo = template(ep, "holiday-promo")
    refused(
        ep,
        "send_email",
        "rule_violation",
        "template_id",
        from_email=NEWS,
        to=to,
        template_id=promo["id"],
        stream="broadcast",
        variables={"unsubscribe_url": "https://x.example/u"},
    )
    letter = template(ep, "newsletter")
    refused(
        ep,
        "send_email",
        "rule_violation",
        "stream",
        from_email=NEWS,
        to=to,
        template_id=letter["id"],
        variables={"first_name": "A", "unsubscribe_url": "https://x.example/u"},
    )


def test_broadcast_mail_and_templates_need_an_unsubscribe_link(ep: Episode) -> None:
    to = clean(ep)
    refused(
        ep,
        "send_email",
        "rule_violation",
        "text_body",
        from_email=NEWS,
        to=to,
        subject="News",
        text_body="Big news!",
        stream="broadcast",
    )
    ok(
        ep,
        "send_email",
        from_email=NEWS,
        to=to,
        subject="News",
        text_body="Big news! Unsubscribe: https://x.example/u",
        stream="broadcast",
    )
    refused(
        ep,
        "create_template",
        "rule_violation",
        "text_body",
        name="Flash sale",
        alias="flash",
        subject="Sale",
        text_body="50% off",
        stream="broadcast",
    )
    refused(ep, "create_template", "conflict", "alias", name="Another", alias="newsletter", subject="S", text_body="B")
    made = ok(
        ep,
        "create_template",
        name="Welcome",
        alias="welcome",
        subject="Welcome {{first_name}}",
        text_body="Hi {{ first_name }}, see {{link}}",
    )
    assert made["variables"] == ["first_name", "link"]


# -- suppressions and events ------------------------------------------------------------------


def test_suppressed_addresses_are_refused_until_reactivated(ep: Episode) -> None:
    manual = every(ep, "list_suppressions", reason="manual")[0]
    refused(
        ep, "send_email", "rule_violation", "to", from_email=ORDERS, to=manual["email"], subject="Hi", text_body="Hi"
    )
    ok(ep, "delete_suppression", suppression_id=manual["id"])
    plain(ep, manual["email"])
    complaint = every(ep, "list_suppressions", reason="spam_complaint")[0]
    refused(ep, "delete_suppression", "rule_violation", "suppression_id", suppression_id=complaint["id"])
    refused(
        ep, "create_suppression", "rule_violation", "reason", email=clean(ep), stream="outbound", reason="hard_bounce"
    )


def test_a_hard_bounce_suppresses_the_address_and_a_soft_one_does_not(ep: Episode) -> None:
    to = clean(ep)
    first = plain(ep, to)
    refused(ep, "record_event", "rule_violation", "bounce_type", message_id=first["id"], event="bounce")
    soft = ok(ep, "record_event", message_id=first["id"], event="bounce", bounce_type="soft")
    assert soft["message"]["status"] == "bounced" and soft["suppression"] is None
    second = plain(ep, to)
    hard = ok(ep, "record_event", message_id=second["id"], event="bounce", bounce_type="hard")
    assert (hard["suppression"]["email"], hard["suppression"]["reason"]) == (to, "hard_bounce")
    refused(ep, "send_email", "rule_violation", "to", from_email=ORDERS, to=to, subject="Hi", text_body="Hi")


def test_opens_and_clicks_need_a_delivered_message(ep: Episode) -> None:
    msg = plain(ep, clean(ep))
    refused(ep, "record_event", "rule_violation", "message_id", message_id=msg["id"], event="open")
    ok(ep, "record_event", message_id=msg["id"], event="delivered")
    refused(ep, "record_event", "rule_violation", "message_id", message_id=msg["id"], event="delivered")
    clicked = ok(ep, "record_event", message_id=msg["id"], event="click")["message"]
    assert (clicked["open_count"], clicked["click_count"]) == (1, 1)
    refused(ep, "record_event", "rule_violation", "event", message_id=msg["id"], event="unsubscribe")


def test_a_complaint_suppresses_both_streams_an_unsubscribe_only_broadcast(ep: Episode) -> None:
    a, b = [p.email for p in POP.consumers if p.email not in {s["email"] for s in every(ep, "list_suppressions")}][:2]
    body = "News. Unsubscribe: https://x.example/u"
    one = ok(ep, "send_email", from_email=NEWS, to=a, subject="News", text_body=body, stream="broadcast")
    ok(ep, "record_event", message_id=one["id"], event="delivered")
    ok(ep, "record_event", message_id=one["id"], event="unsubscribe")
    assert {s["stream"] for s in every(ep, "list_suppressions", email=a)} == {"broadcast"}
    plain(ep, a)
    two = ok(ep, "send_email", from_email=NEWS, to=b, subject="News", text_body=body, stream="broadcast")
    ok(ep, "record_event", message_id=two["id"], event="delivered")
    out = ok(ep, "record_event", message_id=two["id"], event="spam_complaint")
    assert out["message"]["spam_complaint"] and out["suppression"]["stream"] == "broadcast"
    assert {(s["stream"], s["reason"]) for s in every(ep, "list_suppressions", email=b)} == {
        ("outbound", "spam_complaint"),
        ("broadcast", "spam_complaint"),
    }
    refused(ep, "record_event", "conflict", "message_id", message_id=two["id"], event="spam_complaint")


def test_stats_count_the_messages_and_their_rates() -> None:
    ep = Episode(WORLD)
    stats = ok(ep, "get_stats", stream="outbound")
    msgs = every(ep, "list_messages", stream="outbound")
    delivered = [m for m in msgs if m["status"] == "delivered"]
    bounced = sum(m["status"] == "bounced" for m in msgs)
    assert (stats["sent"], stats["delivered"], stats["bounced"]) == (len(msgs), len(delivered), bounced)
    opened = sum(m["open_count"] > 0 for m in delivered)
    assert stats["opened"] == opened and stats["open_rate"] == round(100 * opened / len(delivered), 2)
    assert stats["bounce_rate"] == round(100 * bounced / len(msgs), 2)
    tagged = ok(ep, "get_stats", tag="password-reset")
    assert tagged["sent"] == len(every(ep, "list_messages", tag="password-reset")) == tagged["clicked"]
