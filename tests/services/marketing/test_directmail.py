"""Inkpost: address verification, templates with merge variables, mail rules, cancellation window, checks."""

from __future__ import annotations

import datetime as dt
from typing import Any

from compoworld import Episode
from tests.services.helpers import ServiceTools

MAIL = ServiceTools("directmail")
WORLD = MAIL.world
ok, refused, every, first = MAIL.ok, MAIL.refused, MAIL.every, MAIL.first
POP = WORLD.population
NOW = WORLD.epoch


def home(ep: Episode) -> dict[str, Any]:
    return first(ep, "addresses", company=POP.home.name)


def us_to(ep: Episode) -> dict[str, Any]:
    return first(ep, "addresses", deliverability="deliverable", country="US")


def test_seeded_mail_goes_to_the_worlds_people_and_status_follows_tracking(ep: Episode) -> None:
    names = {p.name for p in POP.people}
    for a in every(ep, "list_addresses"):
        assert a["name"] in names or a["company"] in {c.name for c in POP.companies}
    assert home(ep)["country"] == "US"
    last = {"delivered": "delivered", "returned_to_sender": "returned_to_sender", "mailed": "mailed"}
    for kind in ("postcards", "letters", "self_mailers"):
        for piece in every(ep, f"list_{kind}"):
            events = every(ep, "list_tracking_events", piece_id=piece["id"])
            if events and events[-1]["type"] in last:
                assert piece["status"] == last[events[-1]["type"]]
            if not events:
                assert piece["status"] in ("processed", "cancelled")


def test_us_addresses_are_verified_on_creation(ep: Episode) -> None:
    base = {"name": "Jo Park", "city": "Austin"}
    refused(ep, "create_address", "rule_violation", "state", address_line1="12 Oak Ave", zip_code="78701", **base)
    refused(
        ep,
        "create_address",
        "rule_violation",
        "name",
        address_line1="1 A St",
        city="Austin",
        state="TX",
        zip_code="78701",
    )
    good = ok(ep, "create_address", address_line1="12 Oak Ave", zip_code="78701", state="TX", **base)
    bad = ok(ep, "create_address", address_line1="Oak Avenue", zip_code="78701", state="TX", **base)
    unit = ok(ep, "create_address", address_line1="12 Oak Ave Suite", zip_code="78701", state="TX", **base)
    abroad = ok(
        ep, "create_address", address_line1="3 Rue Cler", zip_code="75007", country="FR", name="Ana", city="Paris"
    )
    assert [x["deliverability"] for x in (good, bad, unit, abroad)] == [
        "deliverable",
        "undeliverable",
        "deliverable_missing_unit",
        "not_verified",
    ]
    refused(ep, "create_postcard", "rule_violation", "to_address_id", to_address_id=bad["id"])
    refused(ep, "create_postcard", "rule_violation", "size", to_address_id=abroad["id"], size="6x9")
    refused(ep, "create_self_mailer", "rule_violation", "to_address_id", to_address_id=abroad["id"])
    refused(
        ep,
        "create_letter",
        "rule_violation",
        "extra_service",
        to_address_id=abroad["id"],
        from_address_id=home(ep)["id"],
        extra_service="certified",
    )


def test_templates_list_their_merge_variables_and_pieces_must_fill_them(ep: Episode) -> None:
    tpl = ok(ep, "create_template", description="Reminder", html="<p>Hi {{first_name}}, {{ offer }} {{first_name}}</p>")
    assert tpl["merge_variables"] == ["first_name", "offer"]
    to = us_to(ep)
    refused(
        ep,
        "create_postcard",
        "rule_violation",
        "merge_variables",
        to_address_id=to["id"],
        template_id=tpl["id"],
        merge_variables={"first_name": "Jo"},
    )
    made = ok(
        ep,
        "create_postcard",
        to_address_id=to["id"],
        template_id=tpl["id"],
        merge_variables={"first_name": "Jo", "offer": "10% off"},
    )
    assert made["status"] == "processed" and made["expected_delivery_date"] is not None
    refused(ep, "delete_template", "conflict", "template_id", template_id=tpl["id"])
    assert ok(ep, "update_template", template_id=tpl["id"], html="<p>{{code}}</p>")["merge_variables"] == ["code"]


def test_a_piece_can_be_cancelled_only_inside_its_window(ep: Episode) -> None:
    to = us_to(ep)
    later = ok(ep, "create_postcard", to_address_id=to["id"])
    assert dt.datetime.fromisoformat(later["send_date"]) > NOW
    assert ok(ep, "cancel_postcard", postcard_id=later["id"])["status"] == "cancelled"
    refused(ep, "cancel_postcard", "rule_violation", "postcard_id", postcard_id=later["id"])
    soon = ok(ep, "create_postcard", to_address_id=to["id"])
    for k in range(5):  # each write moves the episode clock one minute
        ok(
            ep,
            "create_address",
            name=f"Filler {k}",
            address_line1=f"{k + 1} Elm St",
            city="Austin",
            state="TX",
            zip_code="78701",
        )
    refused(ep, "cancel_postcard", "rule_violation", "postcard_id", postcard_id=soon["id"])
    mailed = next(x for x in every(ep, "list_letters") if x["status"] not in ("processed", "cancelled"))
    refused(ep, "cancel_letter", "rule_violation", "letter_id", letter_id=mailed["id"])
    far = (NOW + dt.timedelta(days=181)).isoformat()
    refused(ep, "create_postcard", "rule_violation", "send_date", to_address_id=to["id"], send_date=far)


def test_addresses_and_templates_in_use_by_unmailed_pieces_are_kept(ep: Episode) -> None:
    pending = first(ep, "postcards", status="processed")
    refused(ep, "delete_address", "conflict", "address_id", address_id=pending["to_address_id"])
    ok(ep, "cancel_postcard", postcard_id=pending["id"])
    used_elsewhere = [
        p for kind in ("letters", "self_mailers", "checks") for p in every(ep, f"list_{kind}", status="processed")
    ]
    if all(pending["to_address_id"] not in (p["to_address_id"], p["from_address_id"]) for p in used_elsewhere):
        ok(ep, "delete_address", address_id=pending["to_address_id"])
    unused = next(t for t in every(ep, "list_templates") if t["description"].startswith("Holiday"))
    ok(ep, "delete_template", template_id=unused["id"])


def test_checks_need_a_verified_bank_account_and_take_sequential_numbers(ep: Episode) -> None:
    pending = first(ep, "bank_accounts", verified=False)
    verified = first(ep, "bank_accounts", verified=True)
    payee = first(ep, "addresses", deliverability="deliverable", country="US")
    args = {"to_address_id": payee["id"], "from_address_id": home(ep)["id"], "amount_cents": 50_000}
    refused(ep, "create_check", "rule_violation", "bank_account_id", bank_account_id=pending["id"], **args)
    one = ok(ep, "create_check", bank_account_id=verified["id"], **args)
    two = ok(ep, "create_check", bank_account_id=verified["id"], **args)
    assert (one["check_number"], two["check_number"]) == (
        verified["next_check_number"],
        verified["next_check_number"] + 1,
    )
    refused(
        ep,
        "create_check",
        "invalid_arguments",
        "amount_cents",
        bank_account_id=verified["id"],
        **(args | {"amount_cents": 10**8}),
    )


def test_micro_deposits_verify_a_new_bank_account(ep: Episode) -> None:
    signer = POP.employees[0].name
    refused(
        ep,
        "create_bank_account",
        "rule_violation",
        "routing_number",
        description="X",
        routing_number="123456789",
        account_number="5555",
        signatory=signer,
    )
    bank = ok(
        ep,
        "create_bank_account",
        description="Payouts",
        routing_number="322271627",
        account_number="000123456",
        signatory=signer,
    )
    assert (bank["verified"], bank["account_number_last4"]) == (False, "3456")
    a, b = bank["micro_deposits"]
    refused(ep, "verify_bank_account", "rule_violation", "amounts", bank_account_id=bank["id"], amounts=[a, b % 99 + 1])
    assert ok(ep, "verify_bank_account", bank_account_id=bank["id"], amounts=[b, a])["verified"] is True
    refused(ep, "verify_bank_account", "conflict", "bank_account_id", bank_account_id=bank["id"], amounts=[a, b])


def test_a_letter_goes_first_class_with_certified_mail_in_the_us(ep: Episode) -> None:
    to, sender = us_to(ep), home(ep)
    refused(
        ep,
        "create_letter",
        "rule_violation",
        "extra_service",
        to_address_id=to["id"],
        from_address_id=sender["id"],
        extra_service="certified",
        mail_type="usps_standard",
    )
    made = ok(ep, "create_letter", to_address_id=to["id"], from_address_id=sender["id"], extra_service="registered")
    assert made["extra_service"] == "registered" and made["from_address_id"] == sender["id"]
    abroad = first(ep, "addresses", deliverability="not_verified")
    refused(
        ep, "create_letter", "rule_violation", "from_address_id", to_address_id=to["id"], from_address_id=abroad["id"]
    )
