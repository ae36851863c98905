"""Echo Board: one vote per person, private boards, the status flow, merging votes, internal comments, changelog."""

from __future__ import annotations

from typing import Any

from compoworld import Episode
from tests.services.helpers import ServiceTools

FB = ServiceTools("feedback")
WORLD = FB.world
ok, refused, every = FB.ok, FB.refused, FB.every
POP = WORLD.population
STAFF = {p.email for p in POP.employees}
ENGINEER = POP.staff("Engineering", fallback=1)[0]


def board(ep: Episode, private: bool = False) -> dict[str, Any]:
    return every(ep, "list_boards", is_private=private)[0]


def post(ep: Episode, title: str) -> dict[str, Any]:
    return every(ep, "list_posts", query=title)[0]


def non_voter(ep: Episode, p: dict[str, Any]) -> Any:
    voted = {v["voter_email"] for v in every(ep, "list_votes", post_id=p["id"])}
    return next(c for c in POP.consumers if c.email not in voted)


def test_seeded_scores_count_one_vote_per_person_and_private_boards_are_staff_only(ep: Episode) -> None:
    private = board(ep, private=True)["id"]
    for p in every(ep, "list_posts"):
        voters = [v["voter_email"] for v in every(ep, "list_votes", post_id=p["id"])]
        assert p["score"] == len(voters) == len(set(voters)) and p["author_email"] in voters
        if p["board_id"] == private:
            assert set(voters) <= STAFF
    people = {q.email: q.name for q in POP.people}
    assert all(people[p["author_email"]] == p["author_name"] for p in every(ep, "list_posts"))


def test_a_new_post_counts_its_authors_vote_and_titles_are_unique_per_board(ep: Episode) -> None:
    c = POP.consumers[5]
    public = board(ep)
    made = ok(ep, "create_post", board_id=public["id"], title="Calendar sync", author_email=c.email, author_name=c.name)
    assert (made["score"], made["status"]) == (1, "open")
    assert [v["voter_email"] for v in every(ep, "list_votes", post_id=made["id"])] == [c.email]
    refused(
        ep,
        "create_post",
        "conflict",
        "title",
        board_id=public["id"],
        title="Calendar sync",
        author_email=POP.consumers[6].email,
        author_name=POP.consumers[6].name,
    )
    refused(
        ep,
        "create_post",
        "rule_violation",
        "author_email",
        board_id=board(ep, private=True)["id"],
        title="Open the office on Fridays",
        author_email=c.email,
        author_name=c.name,
    )


def test_each_person_votes_once_and_closed_posts_take_no_votes(ep: Episode) -> None:
    p = post(ep, "Mobile app for Android")
    c = non_voter(ep, p)
    vote = ok(ep, "create_vote", post_id=p["id"], voter_email=c.email, voter_name=c.name)
    assert ok(ep, "get_post", post_id=p["id"])["score"] == p["score"] + 1
    refused(ep, "create_vote", "conflict", "voter_email", post_id=p["id"], voter_email=c.email, voter_name=c.name)
    ok(ep, "delete_vote", vote_id=vote["id"])
    assert ok(ep, "get_post", post_id=p["id"])["score"] == p["score"]
    for title in ("Export reports to CSV", "Two-factor authentication by SMS"):
        done = post(ep, title)
        d = non_voter(ep, done)
        refused(
            ep, "create_vote", "rule_violation", "post_id", post_id=done["id"], voter_email=d.email, voter_name=d.name
        )


def test_status_moves_forward_closes_and_reopens_but_never_back(ep: Episode) -> None:
    p = post(ep, "Mobile app for Android")
    moved = ok(
        ep,
        "change_post_status",
        post_id=p["id"],
        status="planned",
        changer_email=ENGINEER.email,
        comment="Planned for Q3.",
    )
    assert moved["status"] == "planned"
    assert any(c["value"] == "Planned for Q3." for c in every(ep, "list_comments", post_id=p["id"]))
    refused(
        ep,
        "change_post_status",
        "rule_violation",
        "status",
        post_id=p["id"],
        status="under_review",
        changer_email=ENGINEER.email,
    )
    refused(
        ep,
        "change_post_status",
        "rule_violation",
        "changer_email",
        post_id=p["id"],
        status="in_progress",
        changer_email=POP.consumers[0].email,
    )
    closed = post(ep, "Two-factor authentication by SMS")
    refused(
        ep,
        "change_post_status",
        "rule_violation",
        "status",
        post_id=closed["id"],
        status="planned",
        changer_email=ENGINEER.email,
    )
    assert (
        ok(ep, "change_post_status", post_id=closed["id"], status="open", changer_email=ENGINEER.email)["status"]
        == "open"
    )
    done = post(ep, "Export reports to CSV")
    refused(
        ep,
        "change_post_status",
        "rule_violation",
        "post_id",
        post_id=done["id"],
        status="closed",
        changer_email=ENGINEER.email,
    )


def test_merging_moves_votes_once_per_person_and_closes_the_duplicate(ep: Episode) -> None:
    dup, keep = post(ep, "Night theme please"), post(ep, "Dark mode for the dashboard")
    dup_voters = {v["voter_email"] for v in every(ep, "list_votes", post_id=dup["id"])}
    keep_voters = {v["voter_email"] for v in every(ep, "list_votes", post_id=keep["id"])}
    shared = dup_voters & keep_voters
    assert shared
    out = ok(ep, "merge_post", post_id=dup["id"], into_post_id=keep["id"])
    assert (out["votes_moved"], out["duplicates_dropped"]) == (len(dup_voters - keep_voters), len(shared))
    assert out["target"]["score"] == len(dup_voters | keep_voters)
    assert (out["merged"]["status"], out["merged"]["merged_into_id"], out["merged"]["score"]) == (
        "closed",
        keep["id"],
        0,
    )
    assert every(ep, "list_votes", post_id=dup["id"]) == []
    c = non_voter(ep, keep)
    refused(ep, "create_vote", "rule_violation", "post_id", post_id=dup["id"], voter_email=c.email, voter_name=c.name)
    refused(
        ep,
        "create_comment",
        "rule_violation",
        "post_id",
        post_id=dup["id"],
        author_email=c.email,
        author_name=c.name,
        value="Me too",
    )


def test_merges_stay_within_a_board_and_into_open_posts(ep: Episode) -> None:
    a, bug = post(ep, "Mobile app for Android"), post(ep, "Invoice PDF cuts off long addresses")
    refused(ep, "merge_post", "rule_violation", "into_post_id", post_id=a["id"], into_post_id=bug["id"])
    refused(ep, "merge_post", "rule_violation", "into_post_id", post_id=a["id"], into_post_id=a["id"])
    done = post(ep, "Export reports to CSV")
    refused(ep, "merge_post", "rule_violation", "into_post_id", post_id=a["id"], into_post_id=done["id"])


def test_internal_comments_and_post_owners_are_staff(ep: Episode) -> None:
    p = post(ep, "Custom fields on contacts")
    c = POP.consumers[2]
    refused(
        ep,
        "create_comment",
        "rule_violation",
        "internal",
        post_id=p["id"],
        author_email=c.email,
        author_name=c.name,
        value="secret",
        internal=True,
    )
    note = ok(
        ep,
        "create_comment",
        post_id=p["id"],
        author_email=ENGINEER.email,
        author_name=ENGINEER.name,
        value="Needs a schema change",
        internal=True,
    )
    assert note["internal"] is True
    refused(ep, "update_post", "rule_violation", "owner_email", post_id=p["id"], owner_email=c.email)
    assert ok(ep, "update_post", post_id=p["id"], owner_email=ENGINEER.email)["owner_email"] == ENGINEER.email


def test_changelog_ships_posts_in_progress_and_publishing_completes_them(ep: Episode) -> None:
    open_post = post(ep, "Mobile app for Android")
    refused(ep, "create_changelog_entry", "rule_violation", "post_ids", title="Android app", post_ids=[open_post["id"]])
    working = post(ep, "Search ignores accented names")
    entry = ok(ep, "create_changelog_entry", title="Accent-insensitive search", kind="fixed", post_ids=[working["id"]])
    published = ok(ep, "publish_changelog_entry", changelog_entry_id=entry["id"])
    assert published["status"] == "published" and published["published_at"]
    assert ok(ep, "get_post", post_id=working["id"])["status"] == "complete"
    refused(ep, "publish_changelog_entry", "rule_violation", "changelog_entry_id", changelog_entry_id=entry["id"])


def test_top_posts_rank_open_requests_by_votes(ep: Episode) -> None:
    public = board(ep)
    ranked = ok(ep, "top_posts", board_id=public["id"], limit=3)["posts"]
    scores = [p["score"] for p in ranked]
    assert len(ranked) == 3 and scores == sorted(scores, reverse=True)
    assert all(p["status"] not in ("complete", "closed") for p in ranked)
    refused(ep, "top_posts", "rule_violation", "limit", board_id=public["id"], limit=0)
