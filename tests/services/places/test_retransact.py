"""Closing Room: loop lifecycle, participants by role, signatures, checklists and the closing gate."""

from __future__ import annotations

import datetime as dt
from typing import Any

from compoworld import Episode
from tests.services.helpers import ServiceTools

RT = ServiceTools("retransact")
WORLD = RT.world
ok, refused, every, first = RT.ok, RT.refused, RT.every, RT.first
POP = WORLD.population
TODAY = WORLD.epoch.date()
AGENT = POP.employees[0].email


def day(n: int) -> str:
    return (TODAY + dt.timedelta(days=n)).isoformat()


def loop(ep: Episode, status: str) -> dict[str, Any]:
    return first(ep, "loops", status=status)


def ready(ep: Episode) -> dict[str, Any]:
    for lp in every(ep, "list_loops", status="under_contract"):
        if all(t["completed"] for t in every(ep, "list_tasks", loop_id=lp["id"])):
            return lp
    raise AssertionError("no loop ready to close")


def test_seeded_loops_have_sellers_from_consumers_and_staff_agents(ep: Episode) -> None:
    staff = {p.email for p in POP.employees}
    consumers = {p.email for p in POP.consumers}
    for lp in every(ep, "list_loops"):
        assert lp["agent_email"] in staff
        sellers = every(ep, "list_participants", loop_id=lp["id"], role="seller")
        assert len(sellers) == 1 and sellers[0]["email"] in consumers
    for lp in every(ep, "list_loops", status="under_contract"):
        assert lp["purchase_price"] and lp["closing_date"] > day(0)


def test_open_loop_refuses_duplicate_addresses_and_outside_agents(ep: Episode) -> None:
    known = loop(ep, "active_listing")
    base = {"city": known["city"], "transaction_type": "listing_for_sale"}
    refused(ep, "open_loop", "conflict", "name", name=known["name"], agent_email=AGENT, **base)
    refused(ep, "open_loop", "rule_violation", "agent_email", name="3 New Rd", agent_email="x@other.io", **base)
    made = ok(ep, "open_loop", name="3 New Rd", agent_email=AGENT, **base)
    assert made["status"] == "private_listing"
    refused(ep, "activate_listing", "rule_violation", "loop_id", loop_id=made["id"])
    ok(ep, "update_loop", loop_id=made["id"], list_price=42_000_000)
    assert ok(ep, "activate_listing", loop_id=made["id"])["status"] == "active_listing"


def test_going_under_contract_needs_buyer_seller_price_and_future_closing(ep: Episode) -> None:
    private = loop(ep, "private_listing")
    ok(ep, "update_loop", loop_id=private["id"], list_price=1)
    ok(ep, "activate_listing", loop_id=private["id"])
    refused(
        ep,
        "go_under_contract",
        "rule_violation",
        "loop_id",
        loop_id=private["id"],
        purchase_price=100,
        closing_date=day(30),
    )
    ok(ep, "add_participant", loop_id=private["id"], role="buyer", full_name="Ann Buyer", email="ann@buyer.io")
    refused(
        ep,
        "go_under_contract",
        "rule_violation",
        "closing_date",
        loop_id=private["id"],
        purchase_price=100,
        closing_date=day(0),
    )
    done = ok(ep, "go_under_contract", loop_id=private["id"], purchase_price=100, closing_date=day(30))
    assert (done["status"], done["purchase_price"]) == ("under_contract", 100)


def test_participants_are_unique_per_loop_and_single_roles_stay_single(ep: Episode) -> None:
    lp = loop(ep, "active_listing")
    seller = first(ep, "participants", loop_id=lp["id"], role="seller")
    refused(
        ep,
        "add_participant",
        "conflict",
        "email",
        loop_id=lp["id"],
        role="lender",
        full_name="X Y",
        email=seller["email"],
    )
    refused(
        ep,
        "add_participant",
        "conflict",
        "role",
        loop_id=lp["id"],
        role="listing_agent",
        full_name="X Y",
        email="xy@broker.io",
    )
    insp = ok(ep, "add_participant", loop_id=lp["id"], role="inspector", full_name="Ian Spector", email="ian@insp.io")
    ok(ep, "remove_participant", participant_id=insp["id"])
    assert not every(ep, "list_participants", loop_id=lp["id"], role="inspector")


def test_only_requested_signers_sign_and_the_last_signature_completes(ep: Episode) -> None:
    lp = loop(ep, "active_listing")
    people = every(ep, "list_participants", loop_id=lp["id"])
    seller = next(p for p in people if p["role"] == "seller")
    buyer = next(p for p in people if p["role"] == "buyer")
    doc = ok(ep, "add_document", loop_id=lp["id"], name="Offer to Purchase", folder="Contracts")
    refused(ep, "add_document", "conflict", "name", loop_id=lp["id"], name="Offer to Purchase", folder="Contracts")
    refused(ep, "sign_document", "rule_violation", "document_id", document_id=doc["id"], participant_id=seller["id"])
    ok(ep, "request_signatures", document_id=doc["id"], signer_ids=[seller["id"], buyer["id"]])
    agent = next(p for p in people if p["role"] == "listing_agent")
    refused(ep, "sign_document", "rule_violation", "participant_id", document_id=doc["id"], participant_id=agent["id"])
    assert ok(ep, "sign_document", document_id=doc["id"], participant_id=seller["id"])["status"] == "out_for_signature"
    refused(ep, "sign_document", "conflict", "participant_id", document_id=doc["id"], participant_id=seller["id"])
    assert ok(ep, "sign_document", document_id=doc["id"], participant_id=buyer["id"])["status"] == "signed"
    refused(ep, "remove_participant", "rule_violation", "participant_id", participant_id=buyer["id"])


def test_signers_must_belong_to_the_documents_loop(ep: Episode) -> None:
    a, b = loop(ep, "active_listing"), loop(ep, "pre_offer")
    doc = ok(ep, "add_document", loop_id=a["id"], name="Counter Offer", folder="Contracts")
    stranger = first(ep, "participants", loop_id=b["id"], role="seller")
    refused(
        ep, "request_signatures", "rule_violation", "signer_ids", document_id=doc["id"], signer_ids=[stranger["id"]]
    )
    refused(ep, "request_signatures", "rule_violation", "signer_ids", document_id=doc["id"], signer_ids=[])


def test_closing_needs_every_document_signed_and_every_task_done(ep: Episode) -> None:
    pending = next(lp for lp in every(ep, "list_loops", status="under_contract") if lp["id"] != ready(ep)["id"])
    refused(ep, "close_loop", "rule_violation", "loop_id", loop_id=pending["id"])
    lp = ready(ep)
    closed = ok(ep, "close_loop", loop_id=lp["id"])
    assert closed["status"] == "sold" and closed["closed_at"]
    refused(ep, "add_document", "rule_violation", "loop_id", loop_id=lp["id"], name="Late", folder="Closing")


def test_a_new_task_blocks_closing_until_completed(ep: Episode) -> None:
    lp = ready(ep)
    t = ok(ep, "create_task", loop_id=lp["id"], title="Utilities transferred", due_date=day(20), assignee_email=AGENT)
    refused(ep, "close_loop", "rule_violation", "loop_id", loop_id=lp["id"])
    done = ok(ep, "complete_task", task_id=t["id"])
    assert done["completed"] and done["completed_at"]
    refused(ep, "complete_task", "conflict", "task_id", task_id=t["id"])
    assert ok(ep, "close_loop", loop_id=lp["id"])["status"] == "sold"


def test_the_checklist_follows_the_closing_date_and_is_not_added_twice(ep: Episode) -> None:
    lp = loop(ep, "pre_offer")
    refused(ep, "apply_checklist", "rule_violation", "loop_id", loop_id=lp["id"])
    ok(ep, "go_under_contract", loop_id=lp["id"], purchase_price=30_000_000, closing_date=day(60))
    made = ok(ep, "apply_checklist", loop_id=lp["id"])
    assert len(made) == 5 and {t["due_date"] for t in made} >= {day(59), day(35)}
    assert ok(ep, "apply_checklist", loop_id=lp["id"]) == []
    refused(ep, "archive_loop", "rule_violation", "loop_id", loop_id=lp["id"])
