"""Quill Letters: subscriber states, form signups, tags and fields, sequences, broadcasts and paid tiers."""

from __future__ import annotations

from typing import Any

from compoworld import Episode
from tests.services.helpers import ServiceTools

NL = ServiceTools("newsletters")
WORLD = NL.world
ok, refused, every = NL.ok, NL.refused, NL.every
POP = WORLD.population


def sub(ep: Episode, state: str, **more: Any) -> dict[str, Any]:
    return every(ep, "list_subscribers", state=state, **more)[0]


def form(ep: Episode, name: str) -> dict[str, Any]:
    return next(f for f in every(ep, "list_forms") if f["name"] == name)


def test_seeded_readers_are_the_populations_people_in_every_state(ep: Episode) -> None:
    known = {p.email for p in POP.consumers} | {p.email for p in POP.contacts}
    subs = every(ep, "list_subscribers")
    assert {s["email_address"] for s in subs} <= known
    assert {s["state"] for s in subs} == {"active", "inactive", "bounced", "cancelled"}
    for s in subs:
        assert s["tier_id"] is None or s["state"] == "active"
    for f in every(ep, "list_forms"):
        assert f["signups"] == len(every(ep, "list_subscribers", form_id=f["id"]))


def test_double_optin_signup_starts_inactive_and_confirms(ep: Episode) -> None:
    f = form(ep, "Workshop landing page")
    made = ok(ep, "subscribe_via_form", form_id=f["id"], email_address="lee@example.org", first_name="Lee")
    assert (made["state"], made["tags"]) == ("inactive", ["Workshop"])
    refused(ep, "subscribe_via_form", "conflict", "email_address", form_id=f["id"], email_address="lee@example.org")
    assert ok(ep, "confirm_subscriber", subscriber_id=made["id"])["state"] == "active"
    refused(ep, "confirm_subscriber", "rule_violation", "subscriber_id", subscriber_id=made["id"])
    old = form(ep, "Old popup")
    refused(ep, "subscribe_via_form", "conflict", "form_id", form_id=old["id"], email_address="x@example.org")


def test_bounced_addresses_never_return_but_cancelled_ones_can_sign_up_again(ep: Episode) -> None:
    f = form(ep, "Homepage signup")
    bounced = sub(ep, "bounced")
    refused(
        ep,
        "subscribe_via_form",
        "rule_violation",
        "email_address",
        form_id=f["id"],
        email_address=bounced["email_address"],
    )
    gone = sub(ep, "cancelled")
    back = ok(ep, "subscribe_via_form", form_id=f["id"], email_address=gone["email_address"])
    assert (back["id"], back["state"]) == (gone["id"], "inactive")


def test_cancelling_a_reader_ends_sequences_and_paid_tier(ep: Episode) -> None:
    enr = every(ep, "list_enrolments", state="active")[0]
    reader = ok(ep, "get_subscriber", subscriber_id=enr["subscriber_id"])
    paid = next(s for s in every(ep, "list_subscribers", state="active") if s["tier_id"] and s["id"] != reader["id"])
    for r in (reader, paid):
        done = ok(ep, "cancel_subscriber", subscriber_id=r["id"])
        assert (done["state"], done["tier_id"]) == ("cancelled", None)
    assert every(ep, "list_enrolments", subscriber_id=reader["id"], state="active") == []
    refused(ep, "cancel_subscriber", "conflict", "subscriber_id", subscriber_id=reader["id"])


def test_tags_and_custom_fields_must_exist(ep: Episode) -> None:
    s = sub(ep, "active")
    refused(ep, "tag_subscriber", "rule_violation", "tag_name", subscriber_id=s["id"], tag_name="Nope")
    ok(ep, "create_tag", name="Nope")
    tagged = ok(ep, "tag_subscriber", subscriber_id=s["id"], tag_name="Nope")
    assert "Nope" in tagged["tags"]
    refused(ep, "tag_subscriber", "conflict", "tag_name", subscriber_id=s["id"], tag_name="Nope")
    assert "Nope" not in ok(ep, "untag_subscriber", subscriber_id=s["id"], tag_name="Nope")["tags"]
    refused(ep, "set_custom_field", "rule_violation", "key", subscriber_id=s["id"], key="plan", value="pro")
    ok(ep, "create_custom_field", key="plan", label="Plan")
    refused(ep, "create_custom_field", "conflict", "key", key="plan", label="Plan again")
    assert ok(ep, "set_custom_field", subscriber_id=s["id"], key="plan", value="pro")["fields"]["plan"] == "pro"
    assert "plan" not in ok(ep, "set_custom_field", subscriber_id=s["id"], key="plan", value="")["fields"]


def test_a_sequence_activates_only_with_emails_and_enrols_active_readers_once(ep: Episode) -> None:
    draft = every(ep, "list_sequences", status="draft")[0]
    refused(ep, "activate_sequence", "rule_violation", "sequence_id", sequence_id=draft["id"])
    refused(
        ep,
        "enrol_subscriber",
        "conflict",
        "sequence_id",
        sequence_id=draft["id"],
        subscriber_id=sub(ep, "active")["id"],
    )
    step = ok(ep, "add_sequence_email", sequence_id=draft["id"], subject="Thanks for coming", content="Slides inside")
    assert step["position"] == 1
    assert ok(ep, "add_sequence_email", sequence_id=draft["id"], subject="Next", content="More")["position"] == 2
    assert ok(ep, "activate_sequence", sequence_id=draft["id"])["status"] == "active"
    reader = sub(ep, "active")
    enr = ok(ep, "enrol_subscriber", sequence_id=draft["id"], subscriber_id=reader["id"])
    assert (enr["state"], enr["next_position"], enr["email_address"]) == ("active", 1, reader["email_address"])
    refused(ep, "enrol_subscriber", "conflict", "subscriber_id", sequence_id=draft["id"], subscriber_id=reader["id"])
    refused(
        ep,
        "enrol_subscriber",
        "rule_violation",
        "subscriber_id",
        sequence_id=draft["id"],
        subscriber_id=sub(ep, "inactive")["id"],
    )


def test_broadcasts_need_content_and_a_future_time_and_sent_ones_are_final(ep: Episode) -> None:
    empty = next(b for b in every(ep, "list_broadcasts", status="draft") if not b["content"])
    refused(ep, "schedule_broadcast", "rule_violation", "broadcast_id", broadcast_id=empty["id"])
    ok(ep, "update_broadcast", broadcast_id=empty["id"], content="<p>Hello</p>")
    refused(
        ep, "schedule_broadcast", "rule_violation", "send_at", broadcast_id=empty["id"], send_at="2000-01-01T00:00:00Z"
    )
    assert ok(ep, "schedule_broadcast", broadcast_id=empty["id"])["status"] == "scheduled"
    refused(ep, "delete_broadcast", "conflict", "broadcast_id", broadcast_id=empty["id"])
    assert ok(ep, "unschedule_broadcast", broadcast_id=empty["id"])["status"] == "draft"
    sent = every(ep, "list_broadcasts", status="sent")[0]
    refused(ep, "send_broadcast", "conflict", "broadcast_id", broadcast_id=sent["id"])
    refused(ep, "update_broadcast", "conflict", "broadcast_id", broadcast_id=sent["id"], subject="Fixed typo")


def test_sending_counts_active_readers_matching_tag_and_paid_filter(ep: Episode) -> None:
    b = ok(
        ep, "create_broadcast", subject="Paid workshop notes", content="<p>x</p>", tag_name="Workshop", paid_only=True
    )
    active = every(ep, "list_subscribers", state="active")
    matching = [s for s in active if "Workshop" in s["tags"] and s["tier_id"]]
    if not matching:
        refused(ep, "send_broadcast", "rule_violation", "broadcast_id", broadcast_id=b["id"])
        ok(ep, "update_broadcast", broadcast_id=b["id"], paid_only=False)
        matching = [s for s in active if "Workshop" in s["tags"]]
    sent = ok(ep, "send_broadcast", broadcast_id=b["id"])
    assert (sent["status"], sent["recipients"]) == ("sent", len(matching))
    refused(ep, "create_broadcast", "rule_violation", "tag_name", subject="x", tag_name="Missing tag")


def test_paid_tiers_take_active_readers_on_active_paid_tiers(ep: Episode) -> None:
    tiers = {t["name"]: t for t in every(ep, "list_tiers")}
    reader = next(s for s in every(ep, "list_subscribers", state="active") if not s["tier_id"])
    refused(
        ep,
        "start_paid_subscription",
        "rule_violation",
        "tier_id",
        subscriber_id=reader["id"],
        tier_id=tiers["Free"]["id"],
    )
    archived = tiers["Founding member"]["id"]
    refused(ep, "start_paid_subscription", "rule_violation", "tier_id", subscriber_id=reader["id"], tier_id=archived)
    unconfirmed = sub(ep, "inactive")["id"]
    supporter = tiers["Supporter"]["id"]
    refused(
        ep, "start_paid_subscription", "rule_violation", "subscriber_id", subscriber_id=unconfirmed, tier_id=supporter
    )
    paid = ok(ep, "start_paid_subscription", subscriber_id=reader["id"], tier_id=supporter)
    assert paid["tier_id"] == supporter and paid["paid_since"] is not None
    refused(ep, "start_paid_subscription", "conflict", "tier_id", subscriber_id=reader["id"], tier_id=supporter)
    assert ok(ep, "cancel_paid_subscription", subscriber_id=reader["id"])["tier_id"] is None
    refused(ep, "cancel_paid_subscription", "rule_violation", "subscriber_id", subscriber_id=reader["id"])
