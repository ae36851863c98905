"""Answerly: bot go-live rules, intents and phrases, answer publishing, matching, handoffs and outcomes."""

from __future__ import annotations

from typing import Any

from compoworld import Episode
from tests.services.helpers import ServiceTools

CB = ServiceTools("chatbots")
WORLD = CB.world
ok, refused, every = CB.ok, CB.refused, CB.every
POP = WORLD.population
LEAD = POP.employees[0].email
SHOPPER = POP.consumers[20]


def bot(ep: Episode, status: str) -> dict[str, Any]:
    return every(ep, "list_bots", status=status)[0]


def say(ep: Episode, b: dict[str, Any], text: str, who: Any = SHOPPER) -> Any:
    return ok(ep, "send_message", bot_id=b["id"], customer_email=who.email, customer_name=who.name, text=text)


def test_seeded_conversations_are_consumers_and_outcomes_match_status(ep: Episode) -> None:
    consumers = {p.email for p in POP.consumers}
    pairs: dict[str, set[str | None]] = {
        "resolved": {"automated_resolution", "assumed_resolution"},
        "handed_off": {"handoff"},
        "abandoned": {"abandoned"},
        "open": {None},
    }
    for c in every(ep, "list_conversations"):
        assert c["customer_email"] in consumers
        assert c["outcome"] in pairs[c["status"]]
        assert (c["handoff_team"] is not None) == (c["status"] == "handed_off")


def test_a_bot_goes_live_only_with_a_published_answer_and_a_handoff_rule(ep: Episode) -> None:
    b = bot(ep, "draft")
    refused(ep, "publish_bot", "rule_violation", "bot_id", bot_id=b["id"])
    ans = ok(
        ep,
        "create_answer",
        bot_id=b["id"],
        title="Invoices",
        blocks=[{"kind": "text", "content": "Find invoices under Billing."}],
    )
    phrases = ["where are my invoices", "download invoice", "invoice copy please"]
    ok(ep, "create_intent", bot_id=b["id"], name="invoices", training_phrases=phrases, answer_id=ans["id"])
    refused(ep, "publish_bot", "rule_violation", "bot_id", bot_id=b["id"])
    ok(ep, "publish_answer", answer_id=ans["id"])
    refused(ep, "publish_bot", "rule_violation", "bot_id", bot_id=b["id"])
    ok(
        ep,
        "create_handoff_rule",
        bot_id=b["id"],
        name="Humans",
        trigger="customer_asks",
        team="Billing",
        team_lead_email=LEAD,
    )
    assert ok(ep, "publish_bot", bot_id=b["id"])["status"] == "live"


def test_intents_need_three_distinct_phrases_of_their_own(ep: Episode) -> None:
    b = bot(ep, "live")
    ans = every(ep, "list_answers", bot_id=b["id"])[0]
    refused(
        ep,
        "create_intent",
        "rule_violation",
        "training_phrases",
        bot_id=b["id"],
        name="gifts",
        answer_id=ans["id"],
        training_phrases=["gift card", "Gift card", "voucher"],
    )
    refused(
        ep,
        "create_intent",
        "conflict",
        "training_phrases",
        bot_id=b["id"],
        name="gifts",
        answer_id=ans["id"],
        training_phrases=["gift card", "voucher", "track my package"],
    )
    refused(
        ep,
        "create_intent",
        "conflict",
        "name",
        bot_id=b["id"],
        name="returns",
        answer_id=ans["id"],
        training_phrases=["a b c", "d e f", "g h i"],
    )
    other = every(ep, "list_answers", bot_id=bot(ep, "paused")["id"])[0]
    refused(
        ep,
        "create_intent",
        "rule_violation",
        "answer_id",
        bot_id=b["id"],
        name="gifts",
        answer_id=other["id"],
        training_phrases=["gift card", "voucher", "present card"],
    )
    made = ok(
        ep,
        "create_intent",
        bot_id=b["id"],
        name="gifts",
        answer_id=ans["id"],
        training_phrases=["gift card", "voucher", "present card"],
    )
    refused(
        ep, "add_training_phrases", "conflict", "training_phrases", intent_id=made["id"], training_phrases=["voucher"]
    )
    assert (
        len(ok(ep, "add_training_phrases", intent_id=made["id"], training_phrases=["e-gift"])["training_phrases"]) == 4
    )


def test_messages_match_intents_and_get_the_published_answer(ep: Episode) -> None:
    b = bot(ep, "live")
    conv = say(ep, b, "when are you open")
    asked = conv["turns"][1]
    assert asked["author"] == "customer" and asked["intent_id"] is not None and asked["confidence"] == 1.0
    assert conv["turns"][-1]["text"].startswith("We are open")
    again = say(ep, b, "blorp zzz")
    assert again["id"] == conv["id"] and again["turns"][-1]["text"] == b["fallback_message"]
    assert ok(ep, "test_phrase", bot_id=b["id"], text="blorp zzz")["intent_id"] is None


def test_handoff_rules_pass_conversations_to_teams_by_priority(ep: Episode) -> None:
    b = bot(ep, "live")
    conv = say(ep, b, "i was charged twice")
    assert (conv["status"], conv["outcome"], conv["handoff_team"]) == ("handed_off", "handoff", "Billing")
    person = POP.consumers[21]
    conv2 = say(ep, b, "let me talk to a human agent", who=person)
    assert conv2["handoff_team"] == "Customer Support"
    refused(
        ep,
        "create_handoff_rule",
        "conflict",
        "trigger",
        bot_id=b["id"],
        name="Again",
        trigger="customer_asks",
        team="X",
        team_lead_email=LEAD,
    )
    refused(
        ep,
        "create_handoff_rule",
        "rule_violation",
        "team_lead_email",
        bot_id=b["id"],
        name="Y",
        trigger="intent",
        team="X",
        team_lead_email="x@y.io",
    )
    refused(
        ep,
        "create_handoff_rule",
        "rule_violation",
        "intent_id",
        bot_id=b["id"],
        name="Y",
        trigger="intent",
        team="X",
        team_lead_email=LEAD,
    )


def test_low_confidence_hands_off_once_that_rule_is_enabled(ep: Episode) -> None:
    b = bot(ep, "live")
    rule = every(ep, "list_handoff_rules", bot_id=b["id"], trigger="low_confidence")[0]
    ok(ep, "update_handoff_rule", handoff_rule_id=rule["id"], enabled=True)
    conv = say(ep, b, "quantum banana question")
    assert (conv["status"], conv["handoff_team"]) == ("handed_off", rule["team"])


def test_paused_bots_take_no_messages_and_disabled_intents_do_not_match(ep: Episode) -> None:
    live = bot(ep, "live")
    refused(
        ep,
        "send_message",
        "conflict",
        "bot_id",
        bot_id=bot(ep, "paused")["id"],
        customer_email=SHOPPER.email,
        text="hello there",
    )
    hours = every(ep, "list_intents", bot_id=live["id"], name="opening_hours")[0]
    ok(ep, "disable_intent", intent_id=hours["id"])
    assert ok(ep, "test_phrase", bot_id=live["id"], text="when are you open")["intent_id"] is None
    assert ok(ep, "pause_bot", bot_id=live["id"])["status"] == "paused"
    assert ok(ep, "publish_bot", bot_id=live["id"])["status"] == "live"


def test_conversations_resolve_only_after_an_answered_intent(ep: Episode) -> None:
    b = bot(ep, "live")
    lost = say(ep, b, "blorp zzz")
    refused(ep, "resolve_conversation", "rule_violation", "conversation_id", conversation_id=lost["id"])
    say(ep, b, "track my package")
    done = ok(ep, "resolve_conversation", conversation_id=lost["id"], csat=5)
    assert (done["status"], done["outcome"], done["csat"]) == ("resolved", "automated_resolution", 5)
    refused(ep, "abandon_conversation", "conflict", "conversation_id", conversation_id=lost["id"])


def test_report_counts_outcomes_and_rates(ep: Episode) -> None:
    b = bot(ep, "live")
    convs = every(ep, "list_conversations", bot_id=b["id"])
    rep = ok(ep, "bot_report", bot_id=b["id"])
    ended = [c for c in convs if c["outcome"]]
    assert rep["conversations"] == len(convs) and sum(rep["by_outcome"].values()) == len(ended)
    auto = sum(c["outcome"] == "automated_resolution" for c in ended)
    assert rep["automated_resolution_rate"] == round(100 * auto / len(ended), 1)
