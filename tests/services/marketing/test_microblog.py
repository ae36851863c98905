"""Chirp: weighted 280-character posts, reply settings, protected accounts, follows, blocks, likes, DMs, timeline."""

from __future__ import annotations

from typing import Any

from compoworld import Episode
from tests.services.helpers import ServiceTools

CHIRP = ServiceTools("microblog")
WORLD = CHIRP.world
ok, refused, every, items, first = CHIRP.ok, CHIRP.refused, CHIRP.every, CHIRP.items, CHIRP.first
POP = WORLD.population


def users(ep: Episode, **filters: Any) -> list[dict[str, Any]]:
    return every(ep, "list_users", **filters)


def follows(ep: Episode, a: str, b: str) -> bool:
    return bool(items(ep, "follows", follower_id=a, followee_id=b, status="active"))


def strangers(ep: Episode, protected: bool = False) -> tuple[dict[str, Any], dict[str, Any]]:
    """A public person and an account that neither follows nor blocks them (b protected if asked)."""
    blocked = {(b["blocker_id"], b["blocked_id"]) for b in every(ep, "list_blocks")}
    for a in users(ep, protected=False):
        if a["person_name"] is None:
            continue
        for b in users(ep, protected=protected):
            pair = {(a["id"], b["id"]), (b["id"], a["id"])}
            if (
                a["id"] != b["id"]
                and not (pair & blocked)
                and not items(ep, "follows", follower_id=a["id"], followee_id=b["id"])
                and not items(ep, "follows", follower_id=b["id"], followee_id=a["id"])
            ):
                return a, b
    raise AssertionError("no strangers")


def post_by(ep: Episode, user: dict[str, Any], text: str = "Hello world", **extra: Any) -> dict[str, Any]:
    return dict(ok(ep, "create_post", author_id=user["id"], text=text, **extra))


# -- the world ------------------------------------------------------------------------------


def test_personal_accounts_are_population_people_and_counts_match_the_follows() -> None:
    ep = Episode(WORLD)
    people = {p.email: p for p in POP.people}
    brands = {c.name for c in POP.companies}
    for u in users(ep):
        if u["person_name"]:
            assert people[u["email"]].name == u["person_name"] == u["display_name"]
        else:
            assert u["company_name"] in brands
        assert u["followers_count"] == len(every(ep, "list_follows", followee_id=u["id"], status="active"))
        assert u["following_count"] == len(every(ep, "list_follows", follower_id=u["id"], status="active"))
    for p in every(ep, "list_posts"):
        assert p["like_count"] == len(every(ep, "list_likes", post_id=p["id"]))


# -- posting --------------------------------------------------------------------------------


def test_posts_take_280_weighted_characters(ep: Episode) -> None:
    a, _ = strangers(ep)
    refused(ep, "create_post", "rule_violation", "text", author_id=a["id"], text="a" * 281)
    link = "https://www.example.com/" + "x" * 100
    assert post_by(ep, a, "b" * 256 + " " + link)["text"].endswith(link)
    refused(ep, "create_post", "rule_violation", "text", author_id=a["id"], text="漢" * 141)
    post_by(ep, a, "漢" * 140)


def test_the_same_text_is_not_posted_twice_in_a_day(ep: Episode) -> None:
    a, _ = strangers(ep)
    post_by(ep, a, "Coffee time")
    refused(ep, "create_post", "conflict", "text", author_id=a["id"], text="Coffee time ")


def test_replies_join_the_conversation_and_count(ep: Episode) -> None:
    a, b = strangers(ep)
    root = post_by(ep, a, "What should I read next?")
    assert root["conversation_id"] == root["id"]
    reply = post_by(ep, b, f"@{a['handle']} Try the classics.", reply_to_id=root["id"])
    deeper = post_by(ep, a, "Thanks!", reply_to_id=reply["id"])
    assert reply["conversation_id"] == deeper["conversation_id"] == root["id"]
    assert reply["mentions"] == [a["handle"]]
    assert ok(ep, "get_post", post_id=root["id"])["reply_count"] == 1


def test_reply_settings_limit_who_may_answer(ep: Episode) -> None:
    a, b = strangers(ep)
    closed = post_by(ep, a, "Only people I follow, please.", reply_settings="following")
    refused(ep, "create_post", "rule_violation", "reply_to_id", author_id=b["id"], text="Hi", reply_to_id=closed["id"])
    ok(ep, "follow_user", user_id=a["id"], target_user_id=b["id"])
    post_by(ep, b, "Hi", reply_to_id=closed["id"])
    third = next(u for u in users(ep, protected=False) if u["id"] not in (a["id"], b["id"]))
    mention = post_by(ep, a, f"Question for @{third['handle']} only", reply_settings="mentioned_users")
    refused(
        ep, "create_post", "rule_violation", "reply_to_id", author_id=b["id"], text="Me too", reply_to_id=mention["id"]
    )
    post_by(ep, third, "Happy to answer", reply_to_id=mention["id"])


# -- protected accounts and follows ---------------------------------------------------------


def test_a_protected_accounts_posts_need_an_approved_follow(ep: Episode) -> None:
    a, shy = strangers(ep, protected=True)
    secret = post_by(ep, shy, "Just for my followers")
    refused(ep, "like_post", "rule_violation", "post_id", user_id=a["id"], post_id=secret["id"])
    refused(ep, "create_post", "rule_violation", "reply_to_id", author_id=a["id"], text="Hi", reply_to_id=secret["id"])
    assert ok(ep, "follow_user", user_id=a["id"], target_user_id=shy["id"])["state"] == "requested"
    refused(ep, "follow_user", "conflict", "target_user_id", user_id=a["id"], target_user_id=shy["id"])
    refused(ep, "approve_follow_request", "rule_violation", "requester_id", user_id=a["id"], requester_id=shy["id"])
    assert ok(ep, "approve_follow_request", user_id=shy["id"], requester_id=a["id"])["state"] == "following"
    assert ok(ep, "get_user", user_id=shy["id"])["followers_count"] == shy["followers_count"] + 1
    ok(ep, "like_post", user_id=a["id"], post_id=secret["id"])
    refused(ep, "repost", "rule_violation", "post_id", user_id=a["id"], post_id=secret["id"])


def test_blocking_ends_follows_both_ways_and_stops_interaction(ep: Episode) -> None:
    f = next(x for x in every(ep, "list_follows", status="active") if follows(ep, x["followee_id"], x["follower_id"]))
    a, b = f["follower_id"], f["followee_id"]
    before = ok(ep, "get_user", user_id=a)["followers_count"]
    ok(ep, "block_user", user_id=a, target_user_id=b)
    assert not follows(ep, a, b) and not follows(ep, b, a)
    assert ok(ep, "get_user", user_id=a)["followers_count"] == before - 1
    their_post = post_by(ep, {"id": b}, "After the block")
    refused(ep, "like_post", "rule_violation", "post_id", user_id=a, post_id=their_post["id"])
    refused(ep, "follow_user", "rule_violation", "target_user_id", user_id=b, target_user_id=a)
    refused(ep, "send_direct_message", "rule_violation", "recipient_id", sender_id=b, recipient_id=a, text="Hey")
    refused(ep, "block_user", "conflict", "target_user_id", user_id=a, target_user_id=b)
    ok(ep, "unblock_user", user_id=a, target_user_id=b)
    assert not follows(ep, b, a)
    refused(ep, "unblock_user", "rule_violation", "target_user_id", user_id=a, target_user_id=b)


# -- engagement -----------------------------------------------------------------------------


def test_likes_and_reposts_are_counted_once(ep: Episode) -> None:
    a, b = strangers(ep)
    post = post_by(ep, b, "Like me maybe")
    ok(ep, "like_post", user_id=a["id"], post_id=post["id"])
    refused(ep, "like_post", "conflict", "post_id", user_id=a["id"], post_id=post["id"])
    again = ok(ep, "repost", user_id=a["id"], post_id=post["id"])
    assert (again["repost_of_id"], again["text"]) == (post["id"], post["text"])
    refused(ep, "repost", "conflict", "post_id", user_id=a["id"], post_id=post["id"])
    refused(ep, "create_post", "rule_violation", "reply_to_id", author_id=b["id"], text="Hm", reply_to_id=again["id"])
    counts = ok(ep, "get_post", post_id=post["id"])
    assert (counts["like_count"], counts["repost_count"]) == (1, 1)
    ok(ep, "unlike_post", user_id=a["id"], post_id=post["id"])
    assert ok(ep, "get_post", post_id=post["id"])["like_count"] == 0
    refused(ep, "unlike_post", "rule_violation", "post_id", user_id=a["id"], post_id=post["id"])


def test_only_the_author_deletes_a_post_and_its_likes_go_with_it(ep: Episode) -> None:
    a, b = strangers(ep)
    root = post_by(ep, a, "Root")
    reply = post_by(ep, b, "Reply", reply_to_id=root["id"])
    ok(ep, "like_post", user_id=a["id"], post_id=reply["id"])
    refused(ep, "delete_post", "rule_violation", "post_id", user_id=a["id"], post_id=reply["id"])
    ok(ep, "delete_post", user_id=b["id"], post_id=reply["id"])
    assert reply["id"] not in {like["post_id"] for like in every(ep, "list_likes", user_id=a["id"])}
    refused(ep, "get_post", "not_found", "post_id", post_id=reply["id"])
    assert ok(ep, "get_post", post_id=root["id"])["reply_count"] == 0


# -- messages and timeline ------------------------------------------------------------------


def test_a_direct_message_needs_a_follow_or_open_messages(ep: Episode) -> None:
    a, b = strangers(ep)
    closed = b if not b["dm_open"] else None
    if closed is None:
        ok(ep, "update_user", user_id=b["id"], dm_open=False)
    refused(
        ep, "send_direct_message", "rule_violation", "recipient_id", sender_id=a["id"], recipient_id=b["id"], text="Hi"
    )
    ok(ep, "follow_user", user_id=b["id"], target_user_id=a["id"])
    dm = ok(ep, "send_direct_message", sender_id=a["id"], recipient_id=b["id"], text="Hi")
    assert dm["conversation_key"] == "-".join(sorted((a["id"], b["id"])))
    brand = first(ep, "users", email=f"social@{POP.home.domain}")
    assert brand["dm_open"]
    ok(ep, "send_direct_message", sender_id=a["id"], recipient_id=brand["id"], text="Where is my parcel?")


def test_the_home_timeline_shows_followed_accounts_newest_first() -> None:
    ep = Episode(WORLD)
    user = max(users(ep), key=lambda u: u["following_count"])
    followed = {f["followee_id"] for f in every(ep, "list_follows", follower_id=user["id"], status="active")}
    timeline = ok(ep, "home_timeline", user_id=user["id"], limit=100)["posts"]
    assert timeline and all(p["author_id"] in followed | {user["id"]} for p in timeline)
    stamps = [p["created_at"] for p in timeline]
    assert stamps == sorted(stamps, reverse=True)
