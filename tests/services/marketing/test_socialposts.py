"""Postwise: network length limits, queues and slots, contributor approvals, publishing, crossposting, analytics."""

from __future__ import annotations

from typing import Any

from compoworld import Episode
from tests.services.helpers import ServiceTools

SOCIAL = ServiceTools("socialposts")
WORLD = SOCIAL.world
ok, refused, every, items, first = SOCIAL.ok, SOCIAL.refused, SOCIAL.every, SOCIAL.items, SOCIAL.first
POP = WORLD.population
IMG = f"https://cdn.{POP.home.domain}/social/new.jpg"


def channel(ep: Episode, network: str) -> dict[str, Any]:
    return first(ep, "channels", network=network)


def member(ep: Episode, role: str) -> dict[str, Any]:
    return first(ep, "members", role=role)


def draft(ep: Episode, network: str = "x", role: str = "editor", **extra: Any) -> dict[str, Any]:
    args = dict(
        channel_id=channel(ep, network)["id"], text="Hello from the team", author_email=member(ep, role)["email"]
    )
    return dict(ok(ep, "create_post", **{**args, **extra}))


# -- the world ------------------------------------------------------------------------------


def test_the_team_is_the_marketing_staff_and_channels_are_the_home_companys() -> None:
    ep = Episode(WORLD)
    marketing = {p.email: p.name for p in POP.employees if p.department == "Marketing"}
    assert {m["email"]: m["name"] for m in items(ep, "members")} == marketing
    assert {c["display_name"] for c in items(ep, "channels")} == {POP.home.name}
    for post in every(ep, "list_posts", status="sent"):
        assert post["post_url"] and post["sent_at"]
    statuses = {p["status"] for p in every(ep, "list_posts")}
    assert statuses == {"draft", "pending_approval", "scheduled", "sent", "failed", "rejected"}


# -- content rules --------------------------------------------------------------------------


def test_each_network_has_its_length_limit_and_x_counts_links_as_23(ep: Episode) -> None:
    x, li = channel(ep, "x"), channel(ep, "linkedin")
    author = member(ep, "editor")["email"]
    long_link = "https://www.example.com/" + "a" * 100
    refused(ep, "create_post", "rule_violation", "text", channel_id=x["id"], text="a" * 281, author_email=author)
    post = ok(ep, "create_post", channel_id=x["id"], text="a" * 256, link=long_link, author_email=author)
    assert post["link"] == long_link
    refused(
        ep,
        "create_post",
        "rule_violation",
        "text",
        channel_id=x["id"],
        text="a" * 257,
        link=long_link,
        author_email=author,
    )
    refused(
        ep,
        "create_post",
        "rule_violation",
        "text",
        channel_id=li["id"],
        text="a" * 2900,
        link=long_link,
        author_email=author,
    )
    refused(ep, "update_post", "rule_violation", "text", post_id=post["id"], text="b" * 300)


def test_instagram_needs_an_image_and_x_takes_four_at_most(ep: Episode) -> None:
    author = member(ep, "editor")["email"]
    refused(
        ep,
        "create_post",
        "rule_violation",
        "media",
        channel_id=channel(ep, "instagram")["id"],
        text="New in",
        author_email=author,
    )
    refused(
        ep,
        "create_post",
        "rule_violation",
        "media",
        channel_id=channel(ep, "x")["id"],
        text="Pics",
        media=[IMG] * 5,
        author_email=author,
    )
    assert ok(
        ep, "create_post", channel_id=channel(ep, "instagram")["id"], text="New in", media=[IMG], author_email=author
    )["media"] == [IMG]


def test_posts_come_from_team_members_to_connected_channels(ep: Episode) -> None:
    x, masto = channel(ep, "x"), channel(ep, "mastodon")
    author = member(ep, "editor")["email"]
    refused(
        ep,
        "create_post",
        "not_found",
        "author_email",
        channel_id=x["id"],
        text="Hi",
        author_email="someone@example.org",
    )
    refused(ep, "create_post", "rule_violation", "channel_id", channel_id=masto["id"], text="Hi", author_email=author)
    ok(ep, "reconnect_channel", channel_id=masto["id"])
    assert ok(ep, "create_post", channel_id=masto["id"], text="Hi", author_email=author)["status"] == "draft"


# -- scheduling -----------------------------------------------------------------------------


def test_queueing_takes_the_next_free_slot_of_the_schedule(ep: Episode) -> None:
    post = draft(ep)
    expected = ok(ep, "channel_queue", channel_id=post["channel_id"])["next_free_slots"][0]
    queued = ok(ep, "add_to_queue", post_id=post["id"])
    assert (queued["status"], queued["scheduled_at"]) == ("scheduled", expected)
    queue = ok(ep, "channel_queue", channel_id=post["channel_id"])
    assert post["id"] in [p["id"] for p in queue["upcoming"]] and expected not in queue["next_free_slots"]
    assert [p["scheduled_at"] for p in queue["upcoming"]] == sorted(p["scheduled_at"] for p in queue["upcoming"])


def test_a_schedule_is_in_the_future_and_one_post_per_minute(ep: Episode) -> None:
    post = draft(ep)
    taken = first(ep, "posts", channel_id=post["channel_id"], status="scheduled")["scheduled_at"]
    refused(
        ep, "schedule_post", "rule_violation", "scheduled_at", post_id=post["id"], scheduled_at="2026-03-01T10:00:00Z"
    )
    refused(ep, "schedule_post", "conflict", "scheduled_at", post_id=post["id"], scheduled_at=taken)
    done = ok(ep, "schedule_post", post_id=post["id"], scheduled_at="2026-03-04T10:15:30Z")
    assert done["scheduled_at"] == "2026-03-04T10:15:00Z"


# -- approvals ------------------------------------------------------------------------------


def test_a_contributors_post_waits_for_an_editor_who_is_not_the_author(ep: Episode) -> None:
    contributor = member(ep, "contributor")
    post = draft(ep, role="contributor")
    refused(ep, "share_now", "rule_violation", "post_id", post_id=post["id"])
    pending = ok(ep, "schedule_post", post_id=post["id"], scheduled_at="2026-03-05T10:00:00Z")
    assert pending["status"] == "pending_approval"
    other = next(m for m in items(ep, "members", role="contributor") if m["id"] != contributor["id"])
    refused(ep, "approve_post", "rule_violation", "approver_email", post_id=post["id"], approver_email=other["email"])
    ok(ep, "update_member", member_id=contributor["id"], role="editor")
    refused(
        ep, "approve_post", "rule_violation", "approver_email", post_id=post["id"], approver_email=contributor["email"]
    )
    editor = member(ep, "admin")["email"]
    approved = ok(ep, "approve_post", post_id=post["id"], approver_email=editor)
    assert (approved["status"], approved["scheduled_at"], approved["approver_email"]) == (
        "scheduled",
        "2026-03-05T10:00:00Z",
        editor,
    )
    refused(ep, "approve_post", "rule_violation", "post_id", post_id=post["id"], approver_email=editor)


def test_a_rejected_post_is_edited_and_sent_for_approval_again(ep: Episode) -> None:
    pending = first(ep, "posts", status="pending_approval")
    editor = member(ep, "editor")["email"]
    refused(ep, "reject_post", "rule_violation", "reason", post_id=pending["id"], approver_email=editor, reason=" ")
    rejected = ok(ep, "reject_post", post_id=pending["id"], approver_email=editor, reason="Add the product link")
    assert (rejected["status"], rejected["rejection_reason"]) == ("rejected", "Add the product link")
    ok(ep, "update_post", post_id=pending["id"], text=pending["text"] + " More soon.")
    again = ok(ep, "add_to_queue", post_id=pending["id"])
    assert (again["status"], again["rejection_reason"], again["approver_email"]) == ("pending_approval", None, None)


# -- publishing -----------------------------------------------------------------------------


def test_sharing_now_publishes_and_a_sent_post_is_final(ep: Episode) -> None:
    post = draft(ep, network="linkedin")
    sent = ok(ep, "share_now", post_id=post["id"])
    assert sent["status"] == "sent" and sent["sent_at"] > post["created_at"]
    assert sent["post_url"].startswith("https://www.linkedin.com/feed/update/")
    refused(ep, "update_post", "rule_violation", "post_id", post_id=post["id"], text="Edited")
    refused(ep, "delete_post", "rule_violation", "post_id", post_id=post["id"])
    refused(ep, "share_now", "rule_violation", "post_id", post_id=post["id"])
    refused(ep, "add_to_queue", "rule_violation", "post_id", post_id=post["id"])


def test_crossposting_copies_drafts_where_the_content_fits(ep: Episode) -> None:
    post = draft(ep, network="x", link=f"https://www.{POP.home.domain}/spring")
    ig, li, fb, masto = (channel(ep, n)["id"] for n in ("instagram", "linkedin", "facebook", "mastodon"))
    refused(ep, "crosspost", "rule_violation", "channel_ids.1", post_id=post["id"], channel_ids=[li, ig])
    refused(ep, "crosspost", "rule_violation", "channel_ids.0", post_id=post["id"], channel_ids=[masto])
    copies = ok(ep, "crosspost", post_id=post["id"], channel_ids=[li, fb])
    assert [(c["channel_id"], c["status"], c["text"], c["link"]) for c in copies] == [
        (cid, "draft", post["text"], post["link"]) for cid in (li, fb)
    ]


def test_channel_analytics_sum_the_sent_posts() -> None:
    ep = Episode(WORLD)
    x = channel(ep, "x")
    stats = ok(ep, "channel_analytics", channel_id=x["id"], start_date="2026-02-01")
    sent = [p for p in every(ep, "list_posts", channel_id=x["id"], status="sent") if p["sent_at"] >= "2026-02-01"]
    eng = [p["likes"] + p["comments"] + p["shares"] + p["clicks"] for p in sent]
    assert (stats["posts_sent"], stats["engagements"]) == (len(sent), sum(eng))
    assert stats["impressions"] == sum(p["impressions"] for p in sent)
    top = max(zip(eng, [p["id"] for p in sent], strict=True))[1]
    assert stats["top_post_id"] == top
    refused(
        ep,
        "channel_analytics",
        "rule_violation",
        "end_date",
        channel_id=x["id"],
        start_date="2026-02-10",
        end_date="2026-02-01",
    )


def test_the_last_admin_stays_admin(ep: Episode) -> None:
    admins = items(ep, "members", role="admin")
    for extra in admins[1:]:
        ok(ep, "update_member", member_id=extra["id"], role="editor")
    refused(ep, "update_member", "rule_violation", "role", member_id=admins[0]["id"], role="editor")
