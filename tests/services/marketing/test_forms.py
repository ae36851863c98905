"""Formstack Flow: typed answers, required fields along logic paths, hidden fields, limits, publishing, webhooks."""

from __future__ import annotations

from typing import Any

from compoworld import Episode
from compoworld.world import commerce as links
from tests.services.helpers import ServiceTools

FORMS = ServiceTools("forms")
WORLD = FORMS.world
ok, refused, every, items, first = FORMS.ok, FORMS.refused, FORMS.every, FORMS.items, FORMS.first
POP = WORLD.population
OWNER = POP.employees[0].email


def form(ep: Episode, title_start: str) -> dict[str, Any]:
    return next(f for f in items(ep, "forms") if f["title"].startswith(title_start))


def happy(recommend: bool = True, **extra: Any) -> list[dict[str, Any]]:
    answers = [
        {"field_ref": "email", "email": "nina.park@example.org"},
        {"field_ref": "rating", "number": 4},
        {"field_ref": "category", "choice": "office"},
        {"field_ref": "recommend", "boolean": recommend},
    ]
    return answers + [{"field_ref": k, **v} for k, v in extra.items()]


def draft_form(ep: Episode) -> dict[str, Any]:
    new = ok(ep, "create_form", title="Quick poll", owner_email=OWNER, response_limit=2)
    ok(ep, "add_field", form_id=new["id"], ref="name", title="Your name", type="short_text", required=True)
    return dict(new)


# -- the world ------------------------------------------------------------------------------


def test_feedback_responses_come_from_consumers_about_their_shop_orders() -> None:
    ep = Episode(WORLD)
    feedback = form(ep, "Customer feedback")
    orders = {p.email: links.first_order_number(i) for i, p in enumerate(POP.consumers) if links.places_first_order(i)}
    rsps = every(ep, "list_responses", form_id=feedback["id"])
    assert rsps
    for r in rsps:
        assert r["order_number"] == orders[r["respondent_email"]]
        answered = {a["field_ref"]: a for a in r["answers"]}
        assert answered["email"]["email"] == r["respondent_email"]
        # the logic jump: happy customers skip "what went wrong", unhappy ones must fill it in
        assert ("what_went_wrong" in answered) != answered["recommend"]["boolean"]


# -- submitting -----------------------------------------------------------------------------


def test_logic_decides_which_fields_are_required_and_which_are_skipped(ep: Episode) -> None:
    fid = form(ep, "Customer feedback")["id"]
    refused(
        ep, "submit_response", "rule_violation", "answers", form_id=fid, answers=happy(what_went_wrong={"text": "x"})
    )
    msg = refused(ep, "submit_response", "rule_violation", "answers", form_id=fid, answers=happy(False))
    assert "what_went_wrong" in msg
    rsp = ok(ep, "submit_response", form_id=fid, answers=happy(False, what_went_wrong={"text": "Late parcel"}))
    assert [a["field_ref"] for a in rsp["answers"]] == ["email", "rating", "category", "recommend", "what_went_wrong"]
    assert rsp["respondent_email"] == "nina.park@example.org"
    assert ok(ep, "submit_response", form_id=fid, answers=happy())["answers"][-1]["field_ref"] == "recommend"


def test_answers_must_fit_their_fields(ep: Episode) -> None:
    fid = form(ep, "Customer feedback")["id"]
    base = happy()
    cases = [
        (0, {"field_ref": "email", "text": "nina"}),
        (1, {"field_ref": "rating", "number": 6}),
        (2, {"field_ref": "category", "choice": "groceries"}),
        (0, {"field_ref": "nope", "text": "x"}),
        (0, {"field_ref": "intro", "text": "hello"}),
    ]
    for k, bad in cases:
        answers = [*base[:k], bad, *base[k + 1 :]]
        refused(ep, "submit_response", "rule_violation", f"answers.{k}", form_id=fid, answers=answers)
    refused(ep, "submit_response", "rule_violation", "answers.4", form_id=fid, answers=[*base, base[1]])


def test_hidden_fields_are_those_the_form_declares(ep: Episode) -> None:
    fid = form(ep, "Customer feedback")["id"]
    refused(
        ep,
        "submit_response",
        "rule_violation",
        "hidden.customer_email",
        form_id=fid,
        answers=happy(),
        hidden={"customer_email": "nina.park@example.org"},
    )
    rsp = ok(ep, "submit_response", form_id=fid, answers=happy(), hidden={"order_number": "#1042"})
    assert rsp["order_number"] == "#1042"


def test_enabled_webhooks_receive_every_new_response(ep: Episode) -> None:
    returns = form(ep, "Product return request")
    hooks = items(ep, "webhooks", form_id=returns["id"])
    rsp = ok(
        ep,
        "submit_response",
        form_id=returns["id"],
        answers=[{"field_ref": "email", "email": "a@b.io"}, {"field_ref": "reason", "choice": "Damaged"}],
    )
    sent = items(ep, "deliveries", response_id=rsp["id"])
    assert {d["webhook_id"] for d in sent} == {h["id"] for h in hooks if h["enabled"]}
    assert all(d["status_code"] == 200 for d in sent)


def test_only_published_open_forms_take_responses_and_the_limit_closes_them(ep: Episode) -> None:
    event = next(f for f in items(ep, "forms", status="closed"))
    refused(ep, "submit_response", "rule_violation", "form_id", form_id=event["id"], answers=[])
    poll = draft_form(ep)
    answer = [{"field_ref": "name", "text": "Nia"}]
    refused(ep, "submit_response", "rule_violation", "form_id", form_id=poll["id"], answers=answer)
    ok(ep, "publish_form", form_id=poll["id"])
    ok(ep, "submit_response", form_id=poll["id"], answers=answer)
    ok(ep, "submit_response", form_id=poll["id"], answers=answer)
    assert ok(ep, "get_form", form_id=poll["id"])["status"] == "closed"
    refused(ep, "submit_response", "rule_violation", "form_id", form_id=poll["id"], answers=answer)
    refused(ep, "update_form", "rule_violation", "form_id", form_id=poll["id"], title="Reopened")


def test_close_at_stops_responses(ep: Episode) -> None:
    fid = form(ep, "Customer feedback")["id"]
    ok(ep, "update_form", form_id=fid, close_at="2026-03-01T00:00:00Z")
    refused(ep, "submit_response", "rule_violation", "form_id", form_id=fid, answers=happy())


# -- building forms -------------------------------------------------------------------------


def test_a_form_publishes_with_a_question_and_two_choices_per_choice_field(ep: Episode) -> None:
    new = ok(ep, "create_form", title="Lunch order", owner_email=OWNER)
    refused(ep, "publish_form", "rule_violation", "form_id", form_id=new["id"])
    dish = ok(ep, "add_field", form_id=new["id"], ref="dish", title="Pick a dish", type="dropdown", choices=["Soup"])
    refused(ep, "publish_form", "rule_violation", "form_id", form_id=new["id"])
    ok(ep, "update_field", field_id=dish["id"], choices=["Soup", "Salad"])
    refused(ep, "add_field", "conflict", "ref", form_id=new["id"], ref="dish", title="Again", type="short_text")
    first_q = ok(ep, "add_field", form_id=new["id"], ref="name", title="Name", type="short_text", position=1)
    assert first_q["position"] == 1
    assert [f["ref"] for f in sorted(items(ep, "fields", form_id=new["id"]), key=lambda f: f["position"])] == [
        "name",
        "dish",
    ]
    assert ok(ep, "publish_form", form_id=new["id"])["status"] == "published"


def test_logic_jumps_go_forward_and_compare_fitting_values(ep: Episode) -> None:
    fid = form(ep, "Customer feedback")["id"]
    args = dict(form_id=fid, from_ref="recommend")
    refused(ep, "add_logic_jump", "rule_violation", "to_ref", op="always", to_ref="email", **args)
    refused(ep, "add_logic_jump", "rule_violation", "value", op="is", value="maybe", to_ref="anything_else", **args)
    refused(
        ep,
        "add_logic_jump",
        "rule_violation",
        "op",
        form_id=fid,
        from_ref="email",
        op="greater_than",
        value="3",
        to_ref="rating",
    )
    jump = ok(
        ep, "add_logic_jump", form_id=fid, from_ref="rating", op="lower_than", value="2", to_ref="what_went_wrong"
    )
    assert jump["to_ref"] == "what_went_wrong"


def test_fields_with_answers_or_logic_stay(ep: Episode) -> None:
    feedback = form(ep, "Customer feedback")
    used = first(ep, "fields", form_id=feedback["id"], type="long_text")
    refused(ep, "delete_field", "rule_violation", "field_id", field_id=used["id"])
    category = first(ep, "fields", form_id=feedback["id"], type="multiple_choice")
    refused(ep, "update_field", "rule_violation", "choices", field_id=category["id"], choices=category["choices"][:2])
    copy = ok(ep, "duplicate_form", form_id=feedback["id"], title="Customer feedback v2")
    assert copy["status"] == "draft" and copy["public_url"] != feedback["public_url"]
    fields = items(ep, "fields", form_id=copy["id"])
    assert [f["ref"] for f in fields] == [f["ref"] for f in items(ep, "fields", form_id=feedback["id"])]
    assert len(items(ep, "logic_jumps", form_id=copy["id"])) == 1
    recommend = next(f for f in fields if f["ref"] == "recommend")
    refused(ep, "delete_field", "rule_violation", "field_id", field_id=recommend["id"])
    intro = next(f for f in fields if f["ref"] == "intro")
    ok(ep, "delete_field", field_id=intro["id"])


def test_insights_count_answers_and_average_ratings() -> None:
    ep = Episode(WORLD)
    feedback = form(ep, "Customer feedback")
    rsps = every(ep, "list_responses", form_id=feedback["id"])
    ins = {f["ref"]: f for f in ok(ep, "form_insights", form_id=feedback["id"])["fields"]}
    ratings = [a["number"] for r in rsps for a in r["answers"] if a["field_ref"] == "rating"]
    assert ins["rating"]["average"] == round(sum(ratings) / len(ratings), 2)
    yes = sum(1 for r in rsps for a in r["answers"] if a["field_ref"] == "recommend" and a["boolean"])
    assert ins["recommend"]["choices"] == [
        {"label": "true", "count": yes},
        {"label": "false", "count": len(rsps) - yes},
    ]
    assert sum(c["count"] for c in ins["category"]["choices"]) == len(rsps)
    assert "intro" not in ins


def test_webhooks_post_to_https_and_tags_are_unique_per_form(ep: Episode) -> None:
    fid = form(ep, "Customer feedback")["id"]
    refused(ep, "create_webhook", "rule_violation", "url", form_id=fid, tag="audit", url="http://hooks.example.com/x")
    refused(ep, "create_webhook", "conflict", "tag", form_id=fid, tag="crm-sync", url="https://hooks.example.com/x")
    ok(ep, "create_webhook", form_id=fid, tag="audit", url="https://hooks.example.com/x")
