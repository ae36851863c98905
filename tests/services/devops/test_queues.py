"""Relay Queues: visibility and receipt handles, FIFO groups and deduplication, redrive, purge, batches, policy."""

from __future__ import annotations

from typing import Any

from compoworld import Episode
from tests.services.helpers import ServiceTools

Q = ServiceTools("queues")
WORLD = Q.world
ok, refused, every = Q.ok, Q.refused, Q.every


def queue(ep: Episode, name: str) -> dict[str, Any]:
    return every(ep, "list_queues", name=name)[0]


def receive(ep: Episode, name: str, n: int = 1, timeout: int = 600) -> list[dict[str, Any]]:
    got = ok(
        ep, "receive_messages", queue_id=queue(ep, name)["id"], max_number_of_messages=n, visibility_timeout=timeout
    )
    return list(got["messages"])


def test_seeded_queues_and_dead_letters_are_consistent(ep: Episode) -> None:
    for q in every(ep, "list_queues"):
        assert q["name"].endswith(".fifo") == q["fifo"]
        if q["dead_letter_target_id"]:
            assert ok(ep, "get_queue", queue_id=q["dead_letter_target_id"])["fifo"] == q["fifo"]
        stats = ok(ep, "queue_stats", queue_id=q["id"])
        assert stats["available"] + stats["in_flight"] + stats["delayed"] == len(
            every(ep, "list_messages", queue_id=q["id"])
        )
    dlq = queue(ep, "orders-events-dlq")
    for m in every(ep, "list_messages", queue_id=dlq["id"]):
        assert ok(ep, "get_queue", queue_id=m["source_queue_id"])["dead_letter_target_id"] == dlq["id"]
    sources = ok(ep, "list_dead_letter_source_queues", queue_id=dlq["id"])
    assert [s["name"] for s in sources] == ["orders-events"]


def test_queue_names_match_their_type_and_are_unique(ep: Episode) -> None:
    refused(ep, "create_queue", "rule_violation", "name", name="billing", fifo=True)
    refused(ep, "create_queue", "rule_violation", "name", name="billing.fifo")
    refused(ep, "create_queue", "conflict", "name", name="email-outbox")
    refused(
        ep, "create_queue", "rule_violation", "content_based_deduplication", name="b", content_based_deduplication=True
    )
    made = ok(ep, "create_queue", name="billing.fifo", fifo=True)
    assert made["url"].endswith("/billing.fifo") and made["visibility_timeout"] == 30


def test_a_received_message_is_in_flight_until_deleted_or_made_visible(ep: Episode) -> None:
    first = receive(ep, "orders-events")[0]
    assert first["receipt_handle"] and first["receive_count"] >= 1
    second = receive(ep, "orders-events")[0]
    assert second["id"] != first["id"]
    q = queue(ep, "orders-events")["id"]
    ok(ep, "change_message_visibility", queue_id=q, receipt_handle=first["receipt_handle"], visibility_timeout=0)
    refused(
        ep,
        "change_message_visibility",
        "rule_violation",
        "receipt_handle",
        queue_id=q,
        receipt_handle=first["receipt_handle"],
    )
    again = receive(ep, "orders-events")[0]
    assert again["id"] == first["id"] and again["receipt_handle"] != first["receipt_handle"]
    refused(
        ep, "delete_message", "rule_violation", "receipt_handle", queue_id=q, receipt_handle=first["receipt_handle"]
    )
    ok(ep, "delete_message", queue_id=q, receipt_handle=again["receipt_handle"])
    assert all(m["id"] != first["id"] for m in every(ep, "list_messages", queue_id=q))


def test_fifo_messages_need_a_group_are_deduplicated_and_take_no_delay(ep: Episode) -> None:
    q = queue(ep, "payments.fifo")["id"]
    refused(ep, "send_message", "rule_violation", "message_group_id", queue_id=q, body="x")
    refused(
        ep,
        "send_message",
        "rule_violation",
        "delay_seconds",
        queue_id=q,
        body="x",
        message_group_id="g",
        delay_seconds=10,
    )
    one = ok(ep, "send_message", queue_id=q, body='{"payment_id": "pi_9"}', message_group_id="g")
    two = ok(ep, "send_message", queue_id=q, body='{"payment_id": "pi_9"}', message_group_id="g")
    assert one["id"] == two["id"] and len(every(ep, "list_messages", queue_id=q, message_group_id="g")) == 1
    plain = queue(ep, "email-outbox")["id"]
    refused(ep, "send_message", "rule_violation", "message_group_id", queue_id=plain, body="x", message_group_id="g")


def test_a_fifo_group_with_a_message_in_flight_delivers_nothing_more(ep: Episode) -> None:
    first = receive(ep, "payments.fifo")[0]
    assert first["sequence_number"] == 1
    group = first["message_group_id"]
    rest = receive(ep, "payments.fifo", n=10)
    assert rest and all(m["message_group_id"] != group for m in rest)
    assert receive(ep, "payments.fifo", n=10) == []
    q = queue(ep, "payments.fifo")["id"]
    ok(ep, "delete_message", queue_id=q, receipt_handle=first["receipt_handle"])
    nxt = receive(ep, "payments.fifo")
    assert nxt and nxt[0]["message_group_id"] == group


def test_messages_received_too_often_go_to_the_dead_letter_queue_and_redrive_back(ep: Episode) -> None:
    src, dlq = queue(ep, "orders-events"), queue(ep, "orders-events-dlq")
    m = ok(ep, "send_message", queue_id=src["id"], body="poison")
    for _ in range(src["max_receive_count"]):
        assert m["id"] in {got["id"] for got in receive(ep, "orders-events", n=10, timeout=0)}
    out = ok(ep, "receive_messages", queue_id=src["id"], max_number_of_messages=10)
    assert out["moved_to_dead_letter"] >= 1
    moved = ok(ep, "get_message", message_id=m["id"])
    assert (moved["queue_id"], moved["source_queue_id"]) == (dlq["id"], src["id"])
    refused(ep, "start_message_move_task", "rule_violation", "source_queue_id", source_queue_id=src["id"])
    task = ok(ep, "start_message_move_task", source_queue_id=dlq["id"])
    assert task["status"] == "COMPLETED" and task["messages_moved"] >= 2
    back = ok(ep, "get_message", message_id=m["id"])
    assert (back["queue_id"], back["receive_count"]) == (src["id"], 0)
    refused(ep, "start_message_move_task", "rule_violation", "source_queue_id", source_queue_id=dlq["id"])


def test_a_queue_is_purged_at_most_once_a_minute(ep: Episode) -> None:
    q = queue(ep, "email-outbox")["id"]
    ok(ep, "purge_queue", queue_id=q)
    assert every(ep, "list_messages", queue_id=q) == []
    refused(ep, "purge_queue", "conflict", "queue_id", queue_id=q)
    ok(ep, "send_message", queue_id=q, body="hello")
    ok(ep, "purge_queue", queue_id=q)


def test_batches_fail_entry_by_entry_within_their_limits(ep: Episode) -> None:
    q = queue(ep, "payments.fifo")["id"]
    refused(ep, "send_message_batch", "rule_violation", "entries", queue_id=q, entries=[])
    refused(
        ep,
        "send_message_batch",
        "rule_violation",
        "entries",
        queue_id=q,
        entries=[{"id": "a", "body": "1"}, {"id": "a", "body": "2"}],
    )
    res = ok(
        ep,
        "send_message_batch",
        queue_id=q,
        entries=[{"id": "ok", "body": "1", "message_group_id": "g"}, {"id": "bad", "body": "2"}],
    )
    assert list(res["successful"]) == ["ok"] and list(res["failed"]) == ["bad"]


def test_redrive_policies_need_a_matching_queue_and_protect_dead_letter_queues(ep: Episode) -> None:
    mail, fifo_dlq = queue(ep, "email-outbox"), queue(ep, "payments-dlq.fifo")
    refused(
        ep,
        "update_queue",
        "rule_violation",
        "dead_letter_target_id",
        queue_id=mail["id"],
        dead_letter_target_id=fifo_dlq["id"],
        max_receive_count=3,
    )
    refused(
        ep,
        "update_queue",
        "rule_violation",
        "dead_letter_target_id",
        queue_id=mail["id"],
        dead_letter_target_id=mail["id"],
        max_receive_count=3,
    )
    refused(
        ep,
        "update_queue",
        "rule_violation",
        "max_receive_count",
        queue_id=mail["id"],
        dead_letter_target_id=queue(ep, "orders-events-dlq")["id"],
    )
    refused(ep, "delete_queue", "rule_violation", "queue_id", queue_id=fifo_dlq["id"])
    ok(
        ep,
        "update_queue",
        queue_id=mail["id"],
        dead_letter_target_id=queue(ep, "orders-events-dlq")["id"],
        max_receive_count=4,
    )


def test_delays_and_permissions(ep: Episode) -> None:
    q = queue(ep, "email-outbox")["id"]
    before = ok(ep, "queue_stats", queue_id=q)
    ok(ep, "send_message", queue_id=q, body="later", delay_seconds=600)
    assert ok(ep, "queue_stats", queue_id=q)["delayed"] == before["delayed"] + 1
    got = ok(ep, "receive_messages", queue_id=q, max_number_of_messages=10)["messages"]
    assert all(m["body"] != "later" for m in got)
    orders = queue(ep, "orders-events")["id"]
    refused(
        ep,
        "add_permission",
        "conflict",
        "label",
        queue_id=orders,
        label="warehouse-consumer",
        account_ids=["111122223333"],
        actions=["SendMessage"],
    )
    made = ok(ep, "add_permission", queue_id=orders, label="billing", account_ids=["111122223333"], actions=["*"])
    assert made["actions"] == ["*"]
