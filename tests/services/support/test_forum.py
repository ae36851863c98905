"""Commons Forum: category permissions, trust-level limits, closing and pinning, likes, flags hiding posts, answers."""

from __future__ import annotations

from typing import Any

from compoworld import Episode
from tests.services.helpers import ServiceTools

FORUM = ServiceTools("forum")
WORLD = FORUM.world
ok, refused, every = FORUM.ok, FORUM.refused, FORUM.every
POP = WORLD.population
TEXT = "Restarting the app from the settings page solved it for me."


def cat(ep: Episode, slug: str) -> dict[str, Any]:
    return every(ep, "list_categories", slug=slug)[0]


def user(ep: Episode, level: int, n: int = 0) -> dict[str, Any]:
    return every(ep, "list_users", trust_level=level, moderator=False)[n]


def mod(ep: Episode, n: int = 0) -> dict[str, Any]:
    return every(ep, "list_users", moderator=True)[n]


def topic(ep: Episode, words: str) -> dict[str, Any]:
    return every(ep, "list_topics", query=words)[0]


def test_staff_are_moderators_customers_are_members_and_counts_add_up(ep: Episode) -> None:
    staff = {p.email for p in POP.employees}
    consumers = {p.email: p.name for p in POP.consumers}
    for u in every(ep, "list_users"):
        assert (u["email"] in staff) == u["moderator"]
        if not u["moderator"]:
            assert consumers[u["email"]] == u["name"]
        assert u["post_count"] == len(every(ep, "list_posts", user_id=u["id"]))
    for p in every(ep, "list_posts"):
        assert p["like_count"] == len(every(ep, "list_likes", post_id=p["id"]))
    for t in every(ep, "list_topics"):
        assert t["posts_count"] == len(every(ep, "list_posts", topic_id=t["id"]))


def test_categories_limit_who_starts_topics(ep: Episode) -> None:
    basic = user(ep, 1)
    args = {"title": "Dark theme for the mobile app", "raw": "The app is far too bright at night, a dark theme helps."}
    refused(
        ep,
        "create_topic",
        "rule_violation",
        "category_id",
        category_id=cat(ep, "announcements")["id"],
        user_id=basic["id"],
        **args,
    )
    refused(
        ep,
        "create_topic",
        "rule_violation",
        "category_id",
        category_id=cat(ep, "show-and-tell")["id"],
        user_id=basic["id"],
        **args,
    )
    made = ok(ep, "create_topic", category_id=cat(ep, "feature-ideas")["id"], user_id=basic["id"], **args)
    assert (made["topic"]["posts_count"], made["post"]["post_number"]) == (1, 1)
    assert ok(ep, "get_user", user_id=basic["id"])["post_count"] == basic["post_count"] + 1
    refused(
        ep,
        "create_topic",
        "conflict",
        "title",
        category_id=cat(ep, "feature-ideas")["id"],
        user_id=user(ep, 2)["id"],
        **args,
    )
    refused(
        ep,
        "create_topic",
        "rule_violation",
        "category_id",
        category_id=cat(ep, "feature-ideas")["id"],
        user_id=user(ep, 0)["id"],
        title="Another idea for the product",
        raw=args["raw"],
    )


def test_new_users_post_few_links_and_few_replies_per_topic(ep: Episode) -> None:
    new = user(ep, 0, 1)
    t = topic(ep, "billing currency")
    links = "See https://a.example, https://b.example and https://c.example for details."
    refused(ep, "reply_to_topic", "rule_violation", "raw", topic_id=t["id"], user_id=new["id"], raw=links)
    for _ in range(3):
        ok(ep, "reply_to_topic", topic_id=t["id"], user_id=new["id"], raw=TEXT)
    refused(ep, "reply_to_topic", "rule_violation", "user_id", topic_id=t["id"], user_id=new["id"], raw=TEXT)
    ok(ep, "reply_to_topic", topic_id=t["id"], user_id=user(ep, 1)["id"], raw=links)


def test_only_moderators_close_and_pin_and_closed_topics_take_only_staff_replies(ep: Episode) -> None:
    t = topic(ep, "billing currency")
    member = user(ep, 3)
    refused(
        ep,
        "set_topic_status",
        "rule_violation",
        "moderator_id",
        topic_id=t["id"],
        moderator_id=member["id"],
        action="close",
    )
    assert ok(ep, "set_topic_status", topic_id=t["id"], moderator_id=mod(ep)["id"], action="close")["closed"] is True
    refused(ep, "set_topic_status", "conflict", "action", topic_id=t["id"], moderator_id=mod(ep)["id"], action="close")
    refused(ep, "reply_to_topic", "rule_violation", "topic_id", topic_id=t["id"], user_id=member["id"], raw=TEXT)
    assert ok(ep, "reply_to_topic", topic_id=t["id"], user_id=mod(ep)["id"], raw=TEXT)["post_number"] == 3
    assert ok(ep, "set_topic_status", topic_id=t["id"], moderator_id=mod(ep)["id"], action="pin")["pinned"] is True


def test_likes_are_once_per_person_and_never_ones_own(ep: Episode) -> None:
    post = every(ep, "list_posts", topic_id=topic(ep, "keyboard shortcuts")["id"])[0]
    likers = {lk["user_id"] for lk in every(ep, "list_likes", post_id=post["id"])}
    fan = next(u for u in every(ep, "list_users") if u["id"] not in likers and u["id"] != post["user_id"])
    assert ok(ep, "like_post", post_id=post["id"], user_id=fan["id"])["like_count"] == post["like_count"] + 1
    refused(ep, "like_post", "conflict", "user_id", post_id=post["id"], user_id=fan["id"])
    refused(ep, "like_post", "rule_violation", "user_id", post_id=post["id"], user_id=post["user_id"])


def test_a_third_flag_hides_the_post_until_review(ep: Episode) -> None:
    spam = every(ep, "list_posts", query="spam.example")[0]
    assert spam["hidden"] is False and len(every(ep, "list_flags", post_id=spam["id"], status="pending")) == 2
    flaggers = {f["user_id"] for f in every(ep, "list_flags", post_id=spam["id"])}
    refused(
        ep, "flag_post", "rule_violation", "user_id", post_id=spam["id"], user_id=user(ep, 0, 2)["id"], reason="spam"
    )
    third = next(
        u
        for u in every(ep, "list_users", moderator=False)
        if u["trust_level"] >= 1 and u["id"] not in flaggers and u["id"] != spam["user_id"]
    )
    out = ok(ep, "flag_post", post_id=spam["id"], user_id=third["id"], reason="spam")
    assert (out["post"]["hidden"], out["pending_flags"]) == (True, 3)
    refused(ep, "flag_post", "conflict", "user_id", post_id=spam["id"], user_id=third["id"], reason="spam")
    refused(ep, "like_post", "rule_violation", "post_id", post_id=spam["id"], user_id=user(ep, 2)["id"])
    reviewed = ok(ep, "review_flags", post_id=spam["id"], moderator_id=mod(ep)["id"], agree=True)
    assert reviewed["hidden"] is True
    assert {f["status"] for f in every(ep, "list_flags", post_id=spam["id"])} == {"agreed"}
    refused(ep, "review_flags", "rule_violation", "post_id", post_id=spam["id"], moderator_id=mod(ep)["id"], agree=True)


def test_a_moderators_flag_hides_at_once_and_disagreeing_restores(ep: Episode) -> None:
    post = every(ep, "list_posts", topic_id=topic(ep, "keyboard shortcuts")["id"])[1]
    out = ok(ep, "flag_post", post_id=post["id"], user_id=mod(ep)["id"], reason="off_topic")
    assert out["post"]["hidden"] is True
    back = ok(ep, "review_flags", post_id=post["id"], moderator_id=mod(ep, 1)["id"], agree=False)
    assert back["hidden"] is False
    assert every(ep, "list_flags", post_id=post["id"])[0]["status"] == "disagreed"


def test_the_author_or_a_moderator_accepts_one_reply_as_the_answer(ep: Episode) -> None:
    t = topic(ep, "billing currency")
    first, reply = every(ep, "list_posts", topic_id=t["id"])[:2]
    refused(ep, "accept_answer", "rule_violation", "user_id", post_id=reply["id"], user_id=reply["user_id"])
    refused(ep, "accept_answer", "rule_violation", "post_id", post_id=first["id"], user_id=t["user_id"])
    done = ok(ep, "accept_answer", post_id=reply["id"], user_id=t["user_id"])
    assert done["solved_post_id"] == reply["id"]
    later = ok(ep, "reply_to_topic", topic_id=t["id"], user_id=user(ep, 2)["id"], raw=TEXT)
    ok(ep, "accept_answer", post_id=later["id"], user_id=mod(ep)["id"])
    answers = every(ep, "list_posts", topic_id=t["id"], accepted_answer=True)
    assert [p["id"] for p in answers] == [later["id"]]
    idea = every(ep, "list_posts", topic_id=topic(ep, "keyboard shortcuts")["id"])[1]
    refused(ep, "accept_answer", "rule_violation", "post_id", post_id=idea["id"], user_id=mod(ep)["id"])


def test_moderators_set_trust_levels_but_not_their_own(ep: Episode) -> None:
    new = user(ep, 0)
    raised = ok(ep, "set_trust_level", user_id=new["id"], moderator_id=mod(ep)["id"], trust_level=1)
    assert raised["trust_level"] == 1
    refused(
        ep,
        "set_trust_level",
        "rule_violation",
        "moderator_id",
        user_id=new["id"],
        moderator_id=user(ep, 3)["id"],
        trust_level=2,
    )
    refused(
        ep,
        "set_trust_level",
        "rule_violation",
        "user_id",
        user_id=mod(ep)["id"],
        moderator_id=mod(ep)["id"],
        trust_level=3,
    )
