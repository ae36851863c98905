"""Dialtone PBX: extensions and their status, numbers, queues, RingOut, forwarding and answering rules, fax."""

from __future__ import annotations

from typing import Any

from compoworld import Episode
from tests.services.helpers import ServiceTools

PBX = ServiceTools("phonesystem")
WORLD = PBX.world
ok, refused, every = PBX.ok, PBX.refused, PBX.every
POP = WORLD.population
STAFF = {p.email for p in POP.employees}
CUSTOMER = POP.customers[0].phone


def ext(ep: Episode, status: str = "Enabled") -> dict[str, Any]:
    return every(ep, "list_extensions", status=status)[0]


def free_employee(ep: Episode) -> Any:
    taken = {e["email"] for e in every(ep, "list_extensions")}
    return next(p for p in POP.employees if p.email not in taken)


def test_seeded_extensions_are_staff_and_queues_hold_enabled_members(ep: Episode) -> None:
    exts = {e["id"]: e for e in every(ep, "list_extensions")}
    assert {e["email"] for e in exts.values()} <= STAFF
    assert {e["status"] for e in exts.values()} == {"Enabled", "Disabled", "NotActivated"}
    for q in every(ep, "list_call_queues", status="Enabled"):
        assert q["member_ids"] and all(exts[m]["status"] == "Enabled" for m in q["member_ids"])
    for vm in every(ep, "list_voicemails"):
        call = ok(ep, "get_call", call_id=vm["call_id"])
        assert (call["result"], call["extension_id"]) == ("Voicemail", vm["extension_id"])


def test_extensions_are_for_employees_with_unique_numbers(ep: Episode) -> None:
    p = free_employee(ep)
    refused(ep, "create_extension", "rule_violation", "email", extension_number="555", name="X Y", email="x@y.io")
    refused(ep, "create_extension", "conflict", "email", extension_number="555", name="X", email=ext(ep)["email"])
    queue_number = every(ep, "list_call_queues")[0]["extension_number"]
    refused(
        ep,
        "create_extension",
        "conflict",
        "extension_number",
        extension_number=queue_number,
        name=p.name,
        email=p.email,
    )
    made = ok(ep, "create_extension", extension_number="555", name=p.name, email=p.email)
    assert made["status"] == "NotActivated"
    refused(ep, "ring_out", "rule_violation", "extension_id", extension_id=made["id"], to_number=CUSTOMER)
    assert ok(ep, "enable_extension", extension_id=made["id"])["status"] == "Enabled"


def test_disabling_leaves_queues_but_not_a_queue_without_members(ep: Episode) -> None:
    q = every(ep, "list_call_queues", status="Enabled")[0]
    while len(q["member_ids"]) > 1:
        q = ok(ep, "remove_queue_member", call_queue_id=q["id"], extension_id=q["member_ids"][-1])
    last = q["member_ids"][0]
    refused(ep, "disable_extension", "rule_violation", "extension_id", extension_id=last)
    refused(ep, "remove_queue_member", "rule_violation", "call_queue_id", call_queue_id=q["id"], extension_id=last)
    other = next(e for e in every(ep, "list_extensions", status="Enabled") if e["id"] != last)
    ok(ep, "add_queue_member", call_queue_id=q["id"], extension_id=other["id"])
    assert ok(ep, "disable_extension", extension_id=last)["status"] == "Disabled"
    assert ok(ep, "get_call_queue", call_queue_id=q["id"])["member_ids"] == [other["id"]]
    refused(ep, "add_queue_member", "rule_violation", "extension_id", call_queue_id=q["id"], extension_id=last)


def test_a_new_queue_starts_disabled_and_enables_with_its_first_member(ep: Episode) -> None:
    q = ok(ep, "create_call_queue", name="Billing line", extension_number="730")
    assert (q["status"], q["member_ids"]) == ("Disabled", [])
    refused(ep, "create_call_queue", "conflict", "name", name="Billing line", extension_number="731")
    e = ext(ep)
    q = ok(ep, "add_queue_member", call_queue_id=q["id"], extension_id=e["id"])
    assert (q["status"], q["member_ids"]) == ("Enabled", [e["id"]])
    refused(ep, "add_queue_member", "conflict", "extension_id", call_queue_id=q["id"], extension_id=e["id"])


def test_direct_numbers_go_to_enabled_extensions_one_at_a_time(ep: Episode) -> None:
    free = next(n for n in every(ep, "list_phone_numbers", usage_type="DirectNumber") if n["extension_id"] is None)
    main = every(ep, "list_phone_numbers", usage_type="MainCompanyNumber")[0]
    e = ext(ep)
    refused(
        ep, "assign_phone_number", "rule_violation", "phone_number_id", phone_number_id=main["id"], extension_id=e["id"]
    )
    off = ext(ep, "Disabled")
    refused(
        ep, "assign_phone_number", "rule_violation", "extension_id", phone_number_id=free["id"], extension_id=off["id"]
    )
    assert ok(ep, "assign_phone_number", phone_number_id=free["id"], extension_id=e["id"])["extension_id"] == e["id"]
    refused(ep, "assign_phone_number", "conflict", "phone_number_id", phone_number_id=free["id"], extension_id=e["id"])
    assert ok(ep, "unassign_phone_number", phone_number_id=free["id"])["extension_id"] is None
    refused(ep, "unassign_phone_number", "rule_violation", "phone_number_id", phone_number_id=free["id"])


def test_ring_out_is_logged_from_the_direct_number(ep: Episode) -> None:
    direct = next(n for n in every(ep, "list_phone_numbers", usage_type="DirectNumber") if n["extension_id"])
    call = ok(ep, "ring_out", extension_id=direct["extension_id"], to_number=CUSTOMER)
    assert (call["direction"], call["from_number"], call["to_number"]) == ("Outbound", direct["phone_number"], CUSTOMER)
    assert call["id"] in {c["id"] for c in every(ep, "list_calls", extension_id=direct["extension_id"])}
    refused(
        ep, "ring_out", "rule_violation", "extension_id", extension_id=ext(ep, "Disabled")["id"], to_number=CUSTOMER
    )


def test_rules_forward_only_to_the_extensions_own_numbers(ep: Episode) -> None:
    fwd = every(ep, "list_forwarding_numbers")
    mine, theirs = fwd[0], next(f for f in fwd if f["extension_id"] != fwd[0]["extension_id"])
    e = mine["extension_id"]
    refused(
        ep,
        "add_forwarding_number",
        "conflict",
        "phone_number",
        extension_id=e,
        phone_number=mine["phone_number"],
        label="Again",
    )
    base = {"extension_id": e, "name": "Lunch", "days": ["monday"], "from_hour": 12, "to_hour": 13}
    refused(ep, "create_answering_rule", "rule_violation", "forward_to_ids", forward_to_ids=[theirs["id"]], **base)
    refused(
        ep,
        "create_answering_rule",
        "rule_violation",
        "to_hour",
        forward_to_ids=[mine["id"]],
        **(base | {"to_hour": 12}),
    )
    rule = ok(ep, "create_answering_rule", forward_to_ids=[mine["id"]], **base)
    assert (rule["type"], rule["forward_to_ids"]) == ("Custom", [mine["id"]])
    refused(ep, "delete_forwarding_number", "rule_violation", "forwarding_number_id", forwarding_number_id=mine["id"])
    ok(ep, "delete_answering_rule", answering_rule_id=rule["id"])


def test_default_rules_stay_and_forwarding_needs_a_target(ep: Episode) -> None:
    bh = every(ep, "list_answering_rules", type="BusinessHours")[0]
    refused(ep, "delete_answering_rule", "rule_violation", "answering_rule_id", answering_rule_id=bh["id"])
    refused(
        ep,
        "update_answering_rule",
        "rule_violation",
        "forward_to_ids",
        answering_rule_id=bh["id"],
        action="UnconditionalForwarding",
        forward_to_ids=[],
    )
    done = ok(ep, "update_answering_rule", answering_rule_id=bh["id"], action="TakeMessagesOnly", forward_to_ids=[])
    assert done["action"] == "TakeMessagesOnly"


def test_faxes_need_a_fax_number_and_only_failed_ones_are_resent(ep: Episode) -> None:
    fax_no = every(ep, "list_phone_numbers", usage_type="FaxNumber")[0]
    sender = fax_no["extension_id"]
    other = next(e for e in every(ep, "list_extensions", status="Enabled") if e["id"] != sender)
    refused(ep, "send_fax", "rule_violation", "extension_id", extension_id=other["id"], to_number=CUSTOMER, pages=2)
    sent = ok(ep, "send_fax", extension_id=sender, to_number=CUSTOMER, pages=2, to_name="Accounts")
    assert (sent["status"], sent["attempts"]) == ("Queued", 1)
    refused(ep, "resend_fax", "conflict", "fax_id", fax_id=sent["id"])
    failed = every(ep, "list_faxes", status="SendingFailed")[0]
    again = ok(ep, "resend_fax", fax_id=failed["id"])
    assert (again["status"], again["attempts"]) == ("Queued", failed["attempts"] + 1)


def test_voicemail_is_read_once_and_can_be_deleted(ep: Episode) -> None:
    vm = every(ep, "list_voicemails", read_status="Unread")[0]
    assert ok(ep, "mark_read_voicemail", voicemail_id=vm["id"])["read_status"] == "Read"
    refused(ep, "mark_read_voicemail", "rule_violation", "voicemail_id", voicemail_id=vm["id"])
    ok(ep, "delete_voicemail", voicemail_id=vm["id"])
    assert vm["id"] not in {v["id"] for v in every(ep, "list_voicemails")}
