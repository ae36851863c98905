"""Guild Membership: applications paid into activity, renewal windows, lapses, bundles, invoices, events."""

from __future__ import annotations

import datetime as dt
from typing import Any

from compoworld import Episode
from compoworld.services.kit.time import add_months
from tests.services.helpers import ServiceTools

GUILD = ServiceTools("memberships")
WORLD = GUILD.world
ok, refused, every = GUILD.ok, GUILD.refused, GUILD.every
POP = WORLD.population
TODAY = WORLD.epoch.date()


def level(ep: Episode, name: str) -> dict[str, Any]:
    return next(lv for lv in every(ep, "list_levels") if lv["name"] == name)


def outsider(ep: Episode, n: int = 0) -> dict[str, Any]:
    return every(ep, "list_contacts", status="none")[n]


def pay(ep: Episode, inv: dict[str, Any]) -> Any:
    return ok(ep, "record_payment", invoice_id=inv["id"], amount_cents=inv["amount_cents"] - inv["paid_cents"])


def test_seeded_contacts_are_the_worlds_people_and_members_are_consistent(ep: Episode) -> None:
    people = {p.email: p for p in POP.people}
    contacts = every(ep, "list_contacts")
    assert {"none", "pending_new", "active", "pending_renewal", "lapsed", "suspended"} <= {
        c["status"] for c in contacts
    }
    for c in contacts:
        p = people[c["email"]]
        assert (c["first_name"], c["last_name"]) == (p.first_name, p.last_name)
        assert (c["level_id"] is None) == (c["status"] == "none")
    for r in every(ep, "list_registrations", status="confirmed"):
        bills = every(ep, "list_invoices", contact_id=r["contact_id"], order_type="event_registration")
        assert [i["amount_cents"] for i in bills if i["registration_id"] == r["id"]] == (
            [r["fee_cents"]] if r["fee_cents"] else []
        )
    for b in every(ep, "list_bundles"):
        size = ok(ep, "get_level", level_id=b["level_id"])["bundle_size"]
        assert b["member_ids"][0] == b["administrator_id"] and len(b["member_ids"]) <= size
        assert {ok(ep, "get_contact", contact_id=m)["bundle_id"] for m in b["member_ids"]} == {b["id"]}


def test_an_application_activates_the_member_once_paid_in_full(ep: Episode) -> None:
    c = outsider(ep)
    pro = level(ep, "Professional")
    inv = ok(ep, "apply_for_membership", contact_id=c["id"], level_id=pro["id"])
    assert (inv["order_type"], inv["amount_cents"]) == ("membership_application", pro["fee_cents"])
    assert ok(ep, "get_contact", contact_id=c["id"])["status"] == "pending_new"
    refused(ep, "apply_for_membership", "conflict", "contact_id", contact_id=c["id"], level_id=pro["id"])
    refused(
        ep, "record_payment", "rule_violation", "amount_cents", invoice_id=inv["id"], amount_cents=pro["fee_cents"] + 1
    )
    part = ok(ep, "record_payment", invoice_id=inv["id"], amount_cents=1000)
    assert part["status"] == "unpaid" and ok(ep, "get_contact", contact_id=c["id"])["status"] == "pending_new"
    refused(ep, "void_invoice", "rule_violation", "invoice_id", invoice_id=inv["id"])
    assert pay(ep, part)["status"] == "paid"
    member = ok(ep, "get_contact", contact_id=c["id"])
    assert (member["status"], member["member_since"], member["renewal_due"]) == (
        "active",
        TODAY.isoformat(),
        add_months(TODAY, 12).isoformat(),
    )
    refused(ep, "record_payment", "conflict", "invoice_id", invoice_id=inv["id"], amount_cents=1)


def test_closed_levels_refuse_applications_and_voiding_withdraws_one(ep: Episode) -> None:
    c = outsider(ep)
    refused(
        ep,
        "apply_for_membership",
        "rule_violation",
        "level_id",
        contact_id=c["id"],
        level_id=level(ep, "Honorary Lifetime")["id"],
    )
    inv = ok(ep, "apply_for_membership", contact_id=c["id"], level_id=level(ep, "Student")["id"])
    ok(ep, "void_invoice", invoice_id=inv["id"])
    assert ok(ep, "get_contact", contact_id=c["id"])["status"] == "none"


def test_renewal_opens_30_days_ahead_and_moves_the_date_a_period_on(ep: Episode) -> None:
    early = next(
        c
        for c in every(ep, "list_contacts", status="active")
        if c["renewal_due"] and c["renewal_due"] > (TODAY + dt.timedelta(days=30)).isoformat() and not c["bundle_id"]
    )
    refused(ep, "renew_membership", "rule_violation", "contact_id", contact_id=early["id"])
    lifetime = next(c for c in every(ep, "list_contacts", status="active") if c["renewal_due"] is None)
    refused(ep, "renew_membership", "rule_violation", "contact_id", contact_id=lifetime["id"])
    due = next(
        c
        for c in every(ep, "list_contacts", status="active")
        if c["renewal_due"] and c["renewal_due"] <= (TODAY + dt.timedelta(days=30)).isoformat() and not c["bundle_id"]
    )
    inv = ok(ep, "renew_membership", contact_id=due["id"])
    assert ok(ep, "get_contact", contact_id=due["id"])["status"] == "pending_renewal"
    refused(ep, "renew_membership", "rule_violation", "contact_id", contact_id=due["id"])
    pay(ep, inv)
    after = ok(ep, "get_contact", contact_id=due["id"])
    period = 1 if ok(ep, "get_level", level_id=due["level_id"])["renewal_period"] == "monthly" else 12
    assert (after["status"], after["renewal_due"]) == (
        "active",
        add_months(dt.date.fromisoformat(due["renewal_due"]), period).isoformat(),
    )


def test_an_expired_membership_lapses_and_its_renewal_is_voided(ep: Episode) -> None:
    late = next(c for c in every(ep, "list_contacts", status="pending_renewal") if c["renewal_due"] < TODAY.isoformat())
    current = next(
        c
        for c in every(ep, "list_contacts", status="active")
        if c["renewal_due"] and c["renewal_due"] > TODAY.isoformat()
    )
    refused(ep, "lapse_membership", "rule_violation", "contact_id", contact_id=current["id"])
    assert ok(ep, "lapse_membership", contact_id=late["id"])["status"] == "lapsed"
    assert {
        i["status"] for i in every(ep, "list_invoices", contact_id=late["id"], order_type="membership_renewal")
    } == {"void"}
    inv = ok(ep, "renew_membership", contact_id=late["id"])
    pay(ep, inv)
    assert ok(ep, "get_contact", contact_id=late["id"])["renewal_due"] == add_months(TODAY, 12).isoformat()


def test_bundles_hold_their_limit_and_keep_their_administrator(ep: Episode) -> None:
    b = every(ep, "list_bundles")[0]
    size = ok(ep, "get_level", level_id=b["level_id"])["bundle_size"]
    admin = ok(ep, "get_contact", contact_id=b["administrator_id"])
    joined = ok(ep, "add_bundle_member", bundle_id=b["id"], contact_id=outsider(ep)["id"])
    assert len(joined["member_ids"]) == size
    newest = ok(ep, "get_contact", contact_id=joined["member_ids"][-1])
    assert (newest["status"], newest["renewal_due"], newest["level_id"]) == (
        "active",
        admin["renewal_due"],
        b["level_id"],
    )
    refused(ep, "add_bundle_member", "rule_violation", "bundle_id", bundle_id=b["id"], contact_id=outsider(ep)["id"])
    refused(ep, "remove_bundle_member", "rule_violation", "contact_id", bundle_id=b["id"], contact_id=admin["id"])
    ok(ep, "remove_bundle_member", bundle_id=b["id"], contact_id=newest["id"])
    assert ok(ep, "get_contact", contact_id=newest["id"])["status"] == "none"
    refused(ep, "renew_membership", "rule_violation", "contact_id", contact_id=b["member_ids"][1])


def test_suspension_needs_a_reason_and_blocks_member_events(ep: Episode) -> None:
    m = every(ep, "list_contacts", status="active")[0]
    refused(ep, "suspend_member", "rule_violation", "reason", contact_id=m["id"], reason="")
    ok(ep, "suspend_member", contact_id=m["id"], reason="Conduct")
    breakfast = every(ep, "list_events", access="members_only")[0]
    refused(ep, "register_for_event", "rule_violation", "contact_id", event_id=breakfast["id"], contact_id=m["id"])
    assert ok(ep, "reactivate_member", contact_id=m["id"])["status"] == "active"


def test_registrants_pay_member_or_guest_price_and_full_events_waitlist(ep: Episode) -> None:
    ws = next(e for e in every(ep, "list_events") if e["name"].startswith("Workshop"))
    member = next(
        c
        for c in every(ep, "list_contacts", status="active")
        if not every(ep, "list_registrations", event_id=ws["id"], contact_id=c["id"])
    )
    guest = outsider(ep, 1)
    r1 = ok(ep, "register_for_event", event_id=ws["id"], contact_id=member["id"])
    r2 = ok(ep, "register_for_event", event_id=ws["id"], contact_id=guest["id"])
    assert (r1["fee_cents"], r2["fee_cents"]) == (ws["member_price_cents"], ws["guest_price_cents"])
    assert (
        every(ep, "list_invoices", contact_id=guest["id"], order_type="event_registration")[0]["amount_cents"]
        == ws["guest_price_cents"]
    )
    refused(ep, "register_for_event", "conflict", "contact_id", event_id=ws["id"], contact_id=guest["id"])
    full = every(ep, "list_events", access="members_only")[0]
    extra = next(
        c
        for c in every(ep, "list_contacts", status="active")
        if not every(ep, "list_registrations", event_id=full["id"], contact_id=c["id"])
    )
    wait = ok(ep, "register_for_event", event_id=full["id"], contact_id=extra["id"])
    assert wait["status"] == "waitlisted"
    queue = every(ep, "list_registrations", event_id=full["id"], status="waitlisted")
    assert len(queue) >= 2 and queue[-1]["id"] == wait["id"]
    first = every(ep, "list_registrations", event_id=full["id"], status="confirmed")[0]
    ok(ep, "cancel_registration", registration_id=first["id"])
    promoted = every(ep, "list_registrations", event_id=full["id"], contact_id=queue[0]["contact_id"])
    assert promoted[0]["status"] == "confirmed"
    assert every(ep, "list_registrations", event_id=full["id"], contact_id=extra["id"])[0]["status"] == "waitlisted"
    assert ok(ep, "get_event", event_id=full["id"])["confirmed_count"] == full["capacity"]


def test_check_in_happens_from_the_events_start(ep: Episode) -> None:
    started = next(
        e for e in every(ep, "list_events") if e["starts_at"] <= WORLD.epoch.isoformat().replace("+00:00", "Z")
    )
    upcoming = next(e for e in every(ep, "list_events") if e["id"] != started["id"])
    r = next(
        r for r in every(ep, "list_registrations", event_id=started["id"], status="confirmed") if not r["checked_in"]
    )
    assert ok(ep, "check_in", registration_id=r["id"])["checked_in"] is True
    refused(ep, "check_in", "conflict", "registration_id", registration_id=r["id"])
    later = every(ep, "list_registrations", event_id=upcoming["id"], status="confirmed")[0]
    refused(ep, "check_in", "rule_violation", "registration_id", registration_id=later["id"])
    refused(
        ep, "register_for_event", "rule_violation", "event_id", event_id=started["id"], contact_id=outsider(ep)["id"]
    )
